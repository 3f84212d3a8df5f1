/* test_signature.c — reading kernel signatures from dialect source: kinds, types, names, sizes,
 * defines as types, barrier and SIMD-group operation detection (in the body or in a helper),
 * GP_REQUIRES_* requirements, comments and strings that only look like declarations, and
 * malformed declarations reported at their line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core.h"

static gp_status parse(const char *src, gp_kernel_sig **ks, uint32_t *n, gp_source_needs *needs)
{
    return gp_signature_parse(src, strlen(src), "t.gpk", NULL, 0, ks, n, needs);
}

static void kinds_types_sizes(void **state)
{
    (void)state;
    const char *src = "GP_KERNEL( k1 ,GP_BUF(float, y), GP_CBUF( const  uint32_t ,x),\n"
                      "  GP_VAL(gp_half, h), GP_DYN_SHARED(double, tmp), GP_VAL(my_t, s))\n"
                      "{ y[0] = 1; }\n"
                      "GP_KERNEL(k2) {}\n";
    gp_kernel_sig *ks;
    uint32_t n;
    gp_source_needs needs = {.fp64 = true, .simd_width = 7};
    assert_int_equal(parse(src, &ks, &n, &needs), GP_OK);
    assert_int_equal(n, 2);
    assert_false(needs.fp64);
    assert_int_equal(needs.simd_width, 0);
    assert_string_equal(needs.simd_op, "");
    assert_string_equal(ks[0].name, "k1");
    assert_int_equal(ks[0].num_args, 5);
    assert_int_equal(ks[0].args[0].kind, GP_ARG_BUFFER);
    assert_string_equal(ks[0].args[0].type_name, "float");
    assert_int_equal(ks[0].args[0].size, 4);
    assert_int_equal(ks[0].args[1].kind, GP_ARG_CONST_BUFFER);
    assert_string_equal(ks[0].args[1].type_name, "const uint32_t");
    assert_string_equal(ks[0].args[1].name, "x");
    assert_int_equal(ks[0].args[1].size, 4);
    assert_int_equal(ks[0].args[2].size, 2);
    assert_int_equal(ks[0].args[3].kind, GP_ARG_DYN_SHARED);
    assert_int_equal(ks[0].args[3].size, 8);
    assert_int_equal(ks[0].args[4].size, 0); /* unknown type: checked by the backend if it can */
    assert_string_equal(ks[1].name, "k2");
    assert_int_equal(ks[1].num_args, 0);
    assert_false(ks[0].uses_barrier);
    free(ks);
}

/* A buffer the body only indexes would be dereferenced if null (refused at launch); one it tests,
 * passes on or never names is optional. */
static void buffers_only_indexed(void **state)
{
    (void)state;
    const char *src = "GP_KERNEL(k, GP_BUF(float, y), GP_CBUF(float, b), GP_CBUF(float, c),\n"
                      "          GP_CBUF(float, unused), GP_CBUF(float, d), GP_VAL(int, n))\n"
                      "{\n"
                      "    int i = gp_global_id(0);\n"
                      "    if (i < n) y [i] = (b != 0 ? b[i] : 0.0f) + (c ? c[i] : 1.0f);\n"
                      "    y[i] += helper(d, i);\n"
                      "}\n";
    gp_kernel_sig *ks;
    uint32_t n;
    assert_int_equal(parse(src, &ks, &n, NULL), GP_OK);
    assert_int_equal(ks[0].indexed_only, 1u); /* y only */
    free(ks);
}

static void barriers_comments_defines(void **state)
{
    (void)state;
    const char *src = "// GP_KERNEL(fake, GP_BUF(float, y))\n"
                      "/* GP_KERNEL(fake2) */ const char *s = \"GP_KERNEL(fake3)\";\n"
                      "#define WRAP GP_KERNEL(fake4)\n"
                      "GP_REQUIRES_FP64\n"
                      "GP_KERNEL(a, GP_BUF(REAL, y)) { gp_barrier(); }\n"
                      "GP_KERNEL(b, GP_BUF(REAL, y)) { y[0] = 0; /* gp_barrier() */ }\n";
    const char *defs[] = {"REAL=double"};
    gp_kernel_sig *ks;
    uint32_t n;
    gp_source_needs needs = {0};
    assert_int_equal(gp_signature_parse(src, strlen(src), "t.gpk", defs, 1, &ks, &n, &needs),
                     GP_OK);
    assert_int_equal(n, 2);
    assert_true(needs.fp64);
    assert_string_equal(ks[0].name, "a");
    assert_true(ks[0].uses_barrier);
    assert_false(ks[1].uses_barrier);
    assert_int_equal(ks[0].args[0].size, 8);
    free(ks);

    /* through helpers: directly, through another helper (defined later), not when not called */
    const char *helper = "GP_FUNC void sync_all(void) { gp_barrier(); }\n"
                         "GP_FUNC void step(GP_SHARED float *t);\n"
                         "GP_KERNEL(c, GP_BUF(float, y)) { sync_all(); }\n"
                         "GP_KERNEL(d, GP_BUF(float, y)) { }\n"
                         "GP_KERNEL(e, GP_BUF(float, y)) { y[0] = 1; step(0); }\n"
                         "GP_FUNC void step(GP_SHARED float *t)\n{\n  if (t) sync_all();\n}\n";
    assert_int_equal(parse(helper, &ks, &n, NULL), GP_OK);
    assert_true(ks[0].uses_barrier);
    assert_false(ks[1].uses_barrier);
    assert_true(ks[2].uses_barrier);
    free(ks);
    /* a barrier the scan cannot place in a helper (a macro) counts for every kernel */
    const char *macro = "#define SYNC gp_barrier()\n"
                        "GP_KERNEL(c, GP_BUF(float, y)) { SYNC; }\n"
                        "GP_KERNEL(d, GP_BUF(float, y)) { }\n";
    assert_int_equal(parse(macro, &ks, &n, NULL), GP_OK);
    assert_true(ks[0].uses_barrier && ks[1].uses_barrier);
    free(ks);
}

static void simd_operations(void **state)
{
    (void)state;
    const char *src = "GP_REQUIRES_SIMD_WIDTH( 32)\n"
                      "// gp_simd_ballot(1)\n"
                      "GP_KERNEL(a, GP_BUF(int, y)) { y[0] = gp_simd_lane() + gp_simd_width(); }\n"
                      "GP_KERNEL(b, GP_BUF(int, y)) {\n"
                      "  y[0] = gp_simd_shuffle_down(y[0], 1); }\n"
                      "GP_KERNEL(c, GP_BUF(int, y)) { int my_gp_simd_any = 0; y[0] = "
                      "my_gp_simd_any; const char *s = \"gp_simd_all(1)\"; }\n";
    gp_kernel_sig *ks;
    uint32_t n;
    gp_source_needs needs;
    assert_int_equal(parse(src, &ks, &n, &needs), GP_OK);
    assert_int_equal(n, 3);
    assert_false(ks[0].uses_simd); /* lane and width are values, not a meeting of the lanes */
    assert_true(ks[1].uses_simd);
    assert_false(ks[2].uses_simd);
    assert_false(ks[1].uses_barrier);
    assert_int_equal(needs.simd_width, 32);
    assert_string_equal(needs.simd_op, "gp_simd_shuffle_down");
    assert_int_equal(needs.simd_line, 5);
    free(ks);

    const char *helper = "GP_FUNC int total(int v) { return v + gp_simd_shuffle_xor(v, 1); }\n"
                         "GP_KERNEL(c, GP_BUF(int, y)) { y[0] = total(y[0]); }\n"
                         "GP_KERNEL(d, GP_BUF(int, y)) { }\n";
    assert_int_equal(parse(helper, &ks, &n, &needs), GP_OK);
    assert_true(ks[0].uses_simd);
    assert_false(ks[1].uses_simd); /* d calls no helper: its groups need not be whole SIMD groups */
    assert_int_equal(needs.simd_width, 0);
    assert_int_equal(needs.simd_line, 1);
    free(ks);

    const char *defs[] = {"VOTE=gp_simd_any(1)"};
    const char *viadef = "GP_KERNEL(e) { int v = VOTE; }";
    assert_int_equal(gp_signature_parse(viadef, strlen(viadef), "t.gpk", defs, 1, &ks, &n, &needs),
                     GP_OK);
    assert_true(ks[0].uses_simd);
    assert_string_equal(needs.simd_op, "gp_simd_any");
    assert_int_equal(needs.simd_line, 0);
    free(ks);

    ks = NULL;
    assert_int_equal(parse("\nGP_REQUIRES_SIMD_WIDTH(wide)\nGP_KERNEL(k) {}", &ks, &n, &needs),
                     GP_ERR_BUILD);
    assert_non_null(strstr(gp_last_error(), "t.gpk:2: GP_REQUIRES_SIMD_WIDTH takes"));
    assert_int_equal(parse("GP_REQUIRES_SIMD_WIDTH(0)\nGP_KERNEL(k) {}", &ks, &n, &needs),
                     GP_ERR_BUILD);
    assert_int_equal(
        parse("GP_REQUIRES_SIMD_WIDTH(32)\nGP_REQUIRES_SIMD_WIDTH(64)\nGP_KERNEL(k) {}", &ks, &n,
              &needs),
        GP_ERR_BUILD);
    assert_non_null(strstr(gp_last_error(), "t.gpk:2: GP_REQUIRES_SIMD_WIDTH(64) contradicts"));
    assert_null(ks);
}

static void malformed(void **state)
{
    (void)state;
    gp_kernel_sig *ks = NULL;
    uint32_t n;
    assert_int_equal(parse("\n\nGP_KERNEL(k, GP_BUF(float))\n{}\n", &ks, &n, NULL), GP_ERR_BUILD);
    assert_non_null(strstr(gp_last_error(), "t.gpk:3:"));
    assert_int_equal(parse("GP_KERNEL(k, GP_BUF(float, y)", &ks, &n, NULL), GP_ERR_BUILD);
    assert_non_null(strstr(gp_last_error(), "never closed"));
    assert_int_equal(parse("GP_KERNEL(3k)", &ks, &n, NULL), GP_ERR_BUILD);
    assert_int_equal(parse("GP_KERNEL(k){}\nGP_KERNEL(k){}", &ks, &n, NULL), GP_ERR_BUILD);
    assert_non_null(strstr(gp_last_error(), "declared twice"));
    assert_int_equal(
        parse("GP_KERNEL(k, GP_DYN_SHARED(float, a), GP_DYN_SHARED(float, b)){}", &ks, &n, NULL),
        GP_ERR_BUILD);
    char many[2048] = "GP_KERNEL(k";
    for (int i = 0; i < 24; i++)
        snprintf(many + strlen(many), 64, ", GP_VAL(int, a%d)", i);
    strcat(many, ") {}");
    assert_int_equal(parse(many, &ks, &n, NULL), GP_OK); /* 24: the most there may be */
    free(ks);
    ks = NULL;
    many[strlen(many) - 4] = '\0';
    strcat(many, ", GP_VAL(int, a24)) {}");
    assert_int_equal(parse(many, &ks, &n, NULL), GP_ERR_BUILD);
    assert_non_null(strstr(gp_last_error(), "at most 24"));
    assert_null(ks);
    /* an unterminated comment or string is not a crash */
    assert_int_equal(parse("GP_KERNEL(k) {} /* open", &ks, &n, NULL), GP_OK);
    free(ks);
    assert_int_equal(parse("GP_KERNEL(k) {} \"open", &ks, &n, NULL), GP_OK);
    free(ks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kinds_types_sizes),
        cmocka_unit_test(buffers_only_indexed),
        cmocka_unit_test(barriers_comments_defines),
        cmocka_unit_test(simd_operations),
        cmocka_unit_test(malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
