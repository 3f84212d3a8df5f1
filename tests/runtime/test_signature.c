/* test_signature.c — reading kernel signatures from dialect source: kinds, types, names, sizes,
 * defines as types, barrier detection (in the body or in a helper), comments and strings that
 * only look like declarations, and malformed declarations reported at their line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core.h"

static gp_status parse(const char *src, gp_kernel_sig **ks, uint32_t *n, bool *fp64)
{
    return gp_signature_parse(src, strlen(src), "t.gpk", NULL, 0, ks, n, fp64);
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
    bool fp64 = true;
    assert_int_equal(parse(src, &ks, &n, &fp64), GP_OK);
    assert_int_equal(n, 2);
    assert_false(fp64);
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
    bool fp64 = false;
    assert_int_equal(gp_signature_parse(src, strlen(src), "t.gpk", defs, 1, &ks, &n, &fp64), GP_OK);
    assert_int_equal(n, 2);
    assert_true(fp64);
    assert_string_equal(ks[0].name, "a");
    assert_true(ks[0].uses_barrier);
    assert_false(ks[1].uses_barrier);
    assert_int_equal(ks[0].args[0].size, 8);
    free(ks);

    const char *helper = "GP_FUNC void sync_all(void) { gp_barrier(); }\n"
                         "GP_KERNEL(c, GP_BUF(float, y)) { sync_all(); }\n"
                         "GP_KERNEL(d, GP_BUF(float, y)) { }\n";
    assert_int_equal(parse(helper, &ks, &n, NULL), GP_OK);
    assert_true(ks[0].uses_barrier && ks[1].uses_barrier); /* a helper may be called by any */
    free(ks);
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
    for (int i = 0; i < 17; i++)
        snprintf(many + strlen(many), 64, ", GP_VAL(int, a%d)", i);
    strcat(many, ") {}");
    assert_int_equal(parse(many, &ks, &n, NULL), GP_ERR_BUILD);
    assert_non_null(strstr(gp_last_error(), "at most 16"));
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
        cmocka_unit_test(barriers_comments_defines),
        cmocka_unit_test(malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
