/* fuzz_run_args.c — `gpuport run`'s readers of its command line (PARAM=VALUE specs of every
 * kind and type, counts, dimensions) and its .npy writer, whose output the .npy reader must read
 * back as written. The input's first byte picks the type and kind, the rest is the text. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../src/cli/cmd_run.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096) return 0;
    char text[4100];
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    const size_t ntypes = sizeof run_types / sizeof *run_types;
    const run_type *t = &run_types[data[0] % ntypes];
    static const gp_arg_kind kinds[] = {GP_ARG_BUFFER, GP_ARG_CONST_BUFFER, GP_ARG_VALUE,
                                        GP_ARG_DYN_SHARED};
    gp_arg_kind kind = kinds[(data[0] / ntypes) % 4];
    char why[300];
    run_spec s;
    if (run_parse_spec(text, kind, (data[0] & 0x80) ? NULL : t, "fuzz_t", (uint64_t)1 << 32, &s,
                       why, sizeof why) &&
        s.kind == RUN_FILL && s.count < 64) {
        /* a buffer of that fill, written as .npy and read back */
        size_t es = gp_dtype_size(t->dtype) * t->lanes, n = (size_t)s.count * es;
        unsigned char *buf = malloc(n ? n : 1);
        for (size_t i = 0; buf && i < s.count; i++)
            memcpy(buf + i * es, s.value, es);
        uint64_t shape[2] = {s.count, t->lanes};
        size_t len = 0;
        char *npy = buf ? run_npy_bytes(t->dtype, shape, t->lanes > 1 ? 2 : 1, buf, n, &len) : NULL;
        if (npy) {
            gp_tensor_view v;
            char err[200];
            if (gp_npy_parse((const uint8_t *)npy, len, GP_DTYPE_INVALID, &v, err, sizeof err) !=
                    0 ||
                v.dtype != t->dtype || v.count != s.count * t->lanes || memcmp(v.data, buf, n) != 0)
                abort(); /* the writer wrote what its reader cannot read */
        }
        free(npy);
        free(buf);
    }
    size_t dims[3];
    uint32_t nd;
    (void)run_parse_dims(text, dims, &nd, why, sizeof why);
    uint64_t count;
    (void)run_parse_count(text, UINT64_MAX, &count, why, sizeof why);
    unsigned char value[64];
    (void)run_parse_value(text, t, value, why, sizeof why);
    const char *defs[] = {"REAL=float", "A=B", "B=A"};
    (void)run_type_of(text, defs, 3);
    return 0;
}
