/* fuzz_doctor_windows.c — the readers doctor applies to a Windows machine's files on the same
 * input, which is not NUL-terminated: the registry export reader (UTF-16LE and 8-bit, with
 * continuations), the UTF-16LE decoder, nvidia-smi -q, wsl.exe -l -v, vswhere, `set` output and
 * the driver file version. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/parse_windows.h"
#include "doctor/regfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool touch(void *ud, const char *key, const char *name, gp_reg_type type, const char *text)
{
    size_t *total = ud;
    /* every string handed on is terminated and within its bounds */
    *total += strlen(key) + strlen(name) + strlen(text) + (size_t)type;
    return *total < (1u << 30);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    char err[256];
    size_t total = 0;
    gp_reg_parse(s, size, touch, &total, err, sizeof err);
    size_t n;
    char *u = gp_utf16le_to_utf8(data, size, &n);
    if (u && strlen(u) != n) abort();
    free(u);
    gp_doctor_win *w = calloc(1, sizeof *w);
    if (!w) return 0;
    gp_parse_smi_query(s, size, w);
    gp_parse_wsl_list(s, size, w);
    gp_parse_vswhere(s, size, w);
    char v[64];
    gp_parse_env_get(s, size, "CUDA_PATH", v, sizeof v);
    free(w);
    char fv[64];
    size_t k = size < sizeof fv - 1 ? size : sizeof fv - 1;
    memcpy(fv, data, k);
    fv[k] = '\0';
    gp_win_driver_version(fv, v, sizeof v);
    return 0;
}
