/*
 * test_cuda_nvrtc.c — the CUDA backend's compile path with the real NVRTC: loading it, choosing
 * the target for a device, compiling to a cubin and to PTX, and compile errors that point at the
 * user's line. Skips (77) when no NVRTC is installed, saying so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/cuda/compile.h"
#include "runtime/cuda/loader.h"

static const gp_cuda_nvrtc *nv;

/* A cubin is an ELF file; its symbol table names the kernel. PTX names it in `.entry`. */
static int gp_image_has_entry(const gp_cuda_image *img, const char *name)
{
    if (img->target.is_cubin) {
        if (img->size < 4 || memcmp(img->data, "\177ELF", 4) != 0) return 0;
        size_t n = strlen(name);
        for (size_t i = 0; i + n < img->size; i++)
            if (memcmp((char *)img->data + i, name, n) == 0 && ((char *)img->data)[i + n] == '\0')
                return 1;
        return 0;
    }
    char pat[256];
    snprintf(pat, sizeof pat, ".entry %s(", name);
    return strstr(img->data, pat) != NULL;
}

static const char *kernel_src = "extern \"C\" __global__ void scale(float *y, float a, int n)\n"
                                "{\n"
                                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                "    if (i < n) y[i] *= a;\n"
                                "}\n";

static void test_nvrtc_version_and_archs(void **state)
{
    (void)state;
    assert_true(nv->major >= 11);
    assert_true(nv->n_archs > 0);
    int has75 = 0, has90 = 0;
    for (int i = 0; i < nv->n_archs; i++) {
        has75 |= nv->archs[i] == 75;
        has90 |= nv->archs[i] == 90;
        if (i > 0) assert_true(nv->archs[i] > nv->archs[i - 1]);
    }
    assert_true(has75 && has90);
    assert_non_null(strstr(nv->path, "nvrtc"));
}

static void test_target_choice(void **state)
{
    (void)state;
    const int archs13[] = {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121};
    gp_cuda_target t;
    /* The device's own architecture: a cubin. */
    assert_int_equal(gp_cuda_target_choose(archs13, 12, 9, 0, &t), GP_OK);
    assert_true(t.is_cubin);
    assert_int_equal(t.arch, 90);
    /* Unknown to this NVRTC (a future 12.5 part): PTX for the highest architecture below. */
    assert_int_equal(gp_cuda_target_choose(archs13, 12, 12, 5, &t), GP_OK);
    assert_false(t.is_cubin);
    assert_int_equal(t.arch, 121);
    const int archs_gap[] = {75, 80, 86, 90};
    assert_int_equal(gp_cuda_target_choose(archs_gap, 4, 8, 9, &t), GP_OK);
    assert_false(t.is_cubin);
    assert_int_equal(t.arch, 86);
    char name[24];
    assert_string_equal(gp_cuda_target_name(t, name, sizeof name), "compute_86");
    /* Older than every architecture: refused with the way out. */
    assert_int_equal(gp_cuda_target_choose(archs13, 12, 6, 1, &t), GP_ERR_UNSUPPORTED);
    assert_non_null(strstr(gp_last_error(), "compute capability 6.1"));
    assert_non_null(strstr(gp_last_error(), "nvidia-cuda-nvrtc-cu12"));
}

static void compile_for(gp_cuda_target t)
{
    gp_cuda_source src = {.text = kernel_src, .name = "scale.gpk"};
    gp_cuda_image img;
    char *log = NULL;
    gp_status st = gp_cuda_compile(nv, &src, t, &img, &log);
    if (st != GP_OK) fprintf(stderr, "%s\n", gp_last_error());
    assert_int_equal(st, GP_OK);
    assert_true(img.size > 0);
    assert_int_equal(img.target.arch, t.arch);
    assert_true(gp_image_has_entry(&img, "scale"));
    assert_false(gp_image_has_entry(&img, "no_such_kernel"));
    if (!t.is_cubin) {
        char want[32];
        snprintf(want, sizeof want, ".target sm_%d", t.arch);
        assert_non_null(strstr(img.data, want));
    }
    gp_cuda_image_free(&img);
    free(log);
}

static void test_compile_cubin_and_ptx(void **state)
{
    (void)state;
    compile_for((gp_cuda_target){75, true});
    compile_for((gp_cuda_target){90, true});
    compile_for((gp_cuda_target){75, false});
    compile_for((gp_cuda_target){90, false});
}

static void test_compile_error_names_line(void **state)
{
    (void)state;
    const char *bad = "extern \"C\" __global__ void broken(float *y)\n"
                      "{\n"
                      "    y[0] = undefined_name;\n"
                      "}\n";
    gp_cuda_source src = {.text = bad, .name = "broken.gpk"};
    gp_cuda_image img;
    assert_int_equal(gp_cuda_compile(nv, &src, (gp_cuda_target){90, true}, &img, NULL),
                     GP_ERR_BUILD);
    assert_null(img.data);
    assert_non_null(strstr(gp_last_error(), "broken.gpk:3: error"));
    assert_non_null(strstr(gp_last_error(), "undefined_name"));
}

static void test_compile_options_and_headers(void **state)
{
    (void)state;
    const char *text = "#include \"inc.h\"\n"
                       "extern \"C\" __global__ void k(int *y) { y[0] = WIDTH + FROM_HEADER; }\n";
    const char *headers[] = {"#define FROM_HEADER 7\n"};
    const char *names[] = {"inc.h"};
    const char *opts[] = {"-DWIDTH=4"};
    gp_cuda_source src = {.text = text,
                          .name = "k.gpk",
                          .headers = headers,
                          .header_names = names,
                          .n_headers = 1,
                          .options = opts,
                          .n_options = 1};
    gp_cuda_image img;
    assert_int_equal(gp_cuda_compile(nv, &src, (gp_cuda_target){75, false}, &img, NULL), GP_OK);
    /* 4 + 7 folded into the store. */
    assert_non_null(strstr(img.data, ", 11;"));
    gp_cuda_image_free(&img);
    /* Without the macro it must fail: proves the option reached NVRTC. */
    src.n_options = 0;
    assert_int_equal(gp_cuda_compile(nv, &src, (gp_cuda_target){75, false}, &img, NULL),
                     GP_ERR_BUILD);
    assert_non_null(strstr(gp_last_error(), "WIDTH"));
}

int main(void)
{
    if (gp_cuda_nvrtc_get(&nv) != GP_OK) {
        printf("SKIP: no NVRTC on this machine, so the CUDA compile path cannot be tested: %s\n",
               gp_last_error());
        return 77;
    }
    printf("NVRTC %d.%d from %s\n", nv->major, nv->minor, nv->path);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvrtc_version_and_archs),
        cmocka_unit_test(test_target_choice),
        cmocka_unit_test(test_compile_cubin_and_ptx),
        cmocka_unit_test(test_compile_error_names_line),
        cmocka_unit_test(test_compile_options_and_headers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
