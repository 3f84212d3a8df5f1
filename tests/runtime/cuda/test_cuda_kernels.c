/*
 * test_cuda_kernels.c — every conformance kernel (tests/runtime/kernels) and every built-in
 * kernel (src/runtime/kernels), put behind include/gpuport/kernel.h exactly as the runtime
 * assembles a build, must compile with the real NVRTC to a cubin for sm_75 and sm_90 and to PTX
 * for compute_75, and each GP_KERNEL must be an entry of the result. Skips (77) without NVRTC.
 */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/cuda/compile.h"
#include "runtime/cuda/embedded.h"
#include "runtime/cuda/loader.h"
#include "util/fs.h"
#include "util/strbuf.h"

static const gp_cuda_nvrtc *nv;
static char *prelude;

/* The kernel names of a source: the identifier after each "GP_KERNEL(". */
static int kernel_names(const char *src, char names[][128], int cap)
{
    int n = 0;
    for (const char *p = strstr(src, "GP_KERNEL("); p && n < cap; p = strstr(p + 1, "GP_KERNEL(")) {
        /* Skip mentions in comments: a real one starts its line. */
        const char *line = p;
        while (line > src && (line[-1] == ' ' || line[-1] == '\t'))
            line--;
        if (line != src && line[-1] != '\n') continue;
        const char *q = p + strlen("GP_KERNEL(");
        while (*q == ' ')
            q++;
        size_t len = strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
        if (len == 0 || len >= 128) continue;
        memcpy(names[n], q, len);
        names[n][len] = '\0';
        n++;
    }
    return n;
}

/* The macros a kernel needs from its build options, from kernel_defines.txt beside this file:
 * "<file> -DNAME=VALUE ..." becomes "#define NAME VALUE" lines, as the runtime assembles them. */
static void add_defines(gp_strbuf *sb, const char *root, const char *base)
{
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/tests/runtime/cuda/kernel_defines.txt", root);
    char *table = gp_read_file(path, 1 << 16, false, NULL, err, sizeof err);
    assert_non_null(table);
    char *save = NULL;
    for (char *line = strtok_r(table, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        size_t n = strcspn(line, " ");
        if (line[0] == '#' || strncmp(line, base, n) != 0 || base[n] != '\0') continue;
        for (char *p = strstr(line + n, " -D"); p; p = strstr(p + 1, " -D")) {
            char def[256];
            snprintf(def, sizeof def, "%.*s", (int)strcspn(p + 3, " "), p + 3);
            char *eq = strchr(def, '=');
            if (eq) *eq = ' ';
            gp_strbuf_printf(sb, "#define %s\n", def);
        }
    }
    free(table);
}

/* The image holds the entry: `.entry name(` in PTX, a NUL-terminated symbol name in a cubin. */
static int has_entry(const gp_cuda_image *img, const char *name)
{
    if (!img->target.is_cubin) {
        char pat[160];
        if (snprintf(pat, sizeof pat, ".entry %s(", name) >= (int)sizeof pat) return 0;
        return strstr(img->data, pat) != NULL;
    }
    if (img->size < 4 || memcmp(img->data, "\177ELF", 4) != 0) return 0;
    size_t n = strlen(name);
    const char *d = img->data;
    for (size_t i = 1; i + n < img->size; i++)
        if (d[i - 1] == '\0' && memcmp(d + i, name, n) == 0 && d[i + n] == '\0') return 1;
    return 0;
}

static int checked_files, checked_entries;

static void check_file(const char *path)
{
    char err[512];
    char *src = gp_read_file(path, 1 << 20, false, NULL, err, sizeof err);
    assert_non_null(src);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    /* As the runtime assembles it: defines, the prelude, the user's source, each with #line. */
    gp_strbuf sb = GP_STRBUF_INIT;
    add_defines(&sb, getenv("GPUPORT_SOURCE_DIR"), base);
    gp_strbuf_printf(&sb, "#line 1 \"gpuport/kernel.h\"\n%s\n#line 1 \"%s\"\n%s", prelude, base,
                     src);
    assert_false(sb.failed);
    char names[32][128];
    int n = kernel_names(src, names, 32);
    assert_true(n > 0);
    const gp_cuda_target targets[] = {{75, true}, {90, true}, {75, false}};
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        gp_cuda_source cs = {.text = gp_strbuf_cstr(&sb), .name = base};
        gp_cuda_image img;
        gp_status st = gp_cuda_compile(nv, &cs, targets[t], &img, NULL);
        char tn[24];
        gp_cuda_target_name(targets[t], tn, sizeof tn);
        if (st != GP_OK) fail_msg("%s for %s: %s", base, tn, gp_last_error());
        for (int k = 0; k < n; k++) {
            if (!has_entry(&img, names[k])) fail_msg("%s for %s: no entry %s", base, tn, names[k]);
            checked_entries++;
        }
        printf("ok   %s %s: %d kernel(s)\n", tn, base, n);
        gp_cuda_image_free(&img);
    }
    checked_files++;
    gp_strbuf_free(&sb);
    free(src);
}

static void test_every_kernel_compiles(void **state)
{
    (void)state;
    const char *root = getenv("GPUPORT_SOURCE_DIR");
    assert_non_null(root);
    const char *dirs[] = {"tests/runtime/kernels", "src/runtime/kernels"};
    for (size_t i = 0; i < 2; i++) {
        char pattern[4096];
        snprintf(pattern, sizeof pattern, "%s/%s/*.gpk", root, dirs[i]);
        glob_t g;
        if (glob(pattern, 0, NULL, &g) == 0)
            for (size_t j = 0; j < g.gl_pathc; j++)
                check_file(g.gl_pathv[j]);
        globfree(&g);
    }
    /* Never pass on nothing. */
    assert_true(checked_files > 0);
    assert_true(checked_entries > 0);
}

/* The PTX nvcc embedded at build time (GPUPORT_WITH_NVCC) holds every kernel of its program. */
static void test_embedded_ptx(void **state)
{
    (void)state;
    size_t n = gp_cuda_embedded_count();
    if (n == 0) {
        printf("this build embeds no PTX (GPUPORT_WITH_NVCC off or cuda.cmake not included)\n");
        return;
    }
    const char *root = getenv("GPUPORT_SOURCE_DIR");
    for (size_t i = 0; i < n; i++) {
        const gp_cuda_embedded *e = gp_cuda_embedded_at(i);
        char path[4096], err[512], target[32];
        snprintf(path, sizeof path, "%s/src/runtime/kernels/%s.gpk", root, e->program);
        char *src = gp_read_file(path, 1 << 20, false, NULL, err, sizeof err);
        assert_non_null(src);
        snprintf(target, sizeof target, ".target sm_%d", e->arch);
        assert_non_null(strstr(e->ptx, target));
        assert_true(e->cuda_version >= 11000);
        char names[32][128];
        int k = kernel_names(src, names, 32);
        assert_true(k > 0);
        gp_cuda_image img = {
            .data = (void *)e->ptx, .size = strlen(e->ptx) + 1, .target = {e->arch, false}};
        for (int j = 0; j < k; j++) {
            if (!has_entry(&img, names[j]))
                fail_msg("embedded %s: no entry %s", e->program, names[j]);
        }
        printf("ok   embedded PTX %s (compute_%d, nvcc %d): %d kernel(s)\n", e->program, e->arch,
               e->cuda_version, k);
        assert_ptr_equal(gp_cuda_embedded_find(e->program), e);
        free(src);
    }
    assert_null(gp_cuda_embedded_at(n));
    assert_null(gp_cuda_embedded_find("no-such-program"));
}

static void test_prelude_error_names_user_line(void **state)
{
    (void)state;
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_printf(&sb,
                     "#line 1 \"gpuport/kernel.h\"\n%s\n#line 1 \"mine.gpk\"\n"
                     "GP_KERNEL(k, GP_BUF(float, y))\n{\n    y[0] = nope;\n}\n",
                     prelude);
    gp_cuda_source cs = {.text = gp_strbuf_cstr(&sb), .name = "mine.gpk"};
    gp_cuda_image img;
    assert_int_equal(gp_cuda_compile(nv, &cs, (gp_cuda_target){90, true}, &img, NULL),
                     GP_ERR_BUILD);
    assert_non_null(strstr(gp_last_error(), "mine.gpk:3: error"));
    gp_strbuf_free(&sb);
}

/* gp_printf is CUDA's device printf: every portable conversion compiles, and the PTX calls
 * vprintf (the device runtime's entry) with the format as a global string. */
static void test_printf_compiles(void **state)
{
    (void)state;
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_printf(
        &sb,
        "#line 1 \"gpuport/kernel.h\"\n%s\n#line 1 \"print.gpk\"\n"
        "GP_KERNEL(show, GP_CBUF(float, x), GP_VAL(int, n))\n{\n"
        "    int i = gp_global_id(0);\n"
        "    if (i < n) gp_printf(\"%%d %%u %%ld %%lu %%x %%5.2f %%e %%g %%s %%c %%%%\\n\", i,\n"
        "        (unsigned)n, (long)i, (unsigned long)n, i, x[i], x[i], x[i], \"ok\", 'c');\n"
        "}\n",
        prelude);
    gp_cuda_source cs = {.text = gp_strbuf_cstr(&sb), .name = "print.gpk"};
    gp_cuda_image img;
    gp_status st = gp_cuda_compile(nv, &cs, (gp_cuda_target){75, false}, &img, NULL);
    if (st != GP_OK) fail_msg("gp_printf for compute_75: %s", gp_last_error());
    assert_non_null(strstr(img.data, "vprintf"));
    assert_true(has_entry(&img, "show"));
    gp_cuda_image_free(&img);
    gp_strbuf_free(&sb);
}

int main(void)
{
    if (gp_cuda_nvrtc_get(&nv) != GP_OK) {
        printf("SKIP: no NVRTC on this machine, so the kernels cannot be compiled for CUDA: %s\n",
               gp_last_error());
        return 77;
    }
    const char *root = getenv("GPUPORT_SOURCE_DIR");
    if (!root) {
        printf("GPUPORT_SOURCE_DIR is not set\n");
        return 1;
    }
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/include/gpuport/kernel.h", root);
    prelude = gp_read_file(path, 1 << 20, false, NULL, err, sizeof err);
    if (!prelude) {
        printf("%s\n", err);
        return 1;
    }
    printf("NVRTC %d.%d from %s\n", nv->major, nv->minor, nv->path);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_kernel_compiles),
        cmocka_unit_test(test_prelude_error_names_user_line),
        cmocka_unit_test(test_printf_compiles),
        cmocka_unit_test(test_embedded_ptx),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(prelude);
    return rc;
}
