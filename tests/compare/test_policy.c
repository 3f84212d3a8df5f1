/* test_policy.c — tolerance resolution: the port-acceptance table, --strict (torch.testing's
 * defaults), the order in which policy file, command line and per-tensor rules apply, and the
 * errors for malformed policy files and --tol specs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare/policy.h"

static char err[512];

static void builtin_tables(void **state)
{
    (void)state;
    gp_tolerance t;
    gp_policy_builtin(GP_DTYPE_F32, false, &t);
    assert_true(t.rtol == 1e-4 && t.atol == 1e-5 && t.nmse_max == 1e-8 && t.cosine_min == 0.99999);
    assert_true(t.floor_scale == 0.01 && !t.equal_nan);
    gp_policy_builtin(GP_DTYPE_BF16, false, &t);
    assert_true(t.rtol == 3.2e-2 && t.atol == 1e-2 && t.nmse_max == 1e-4 && t.cosine_min == 0.999);
    gp_policy_builtin(GP_DTYPE_F16, false, &t);
    assert_true(t.rtol == 1e-2 && t.atol == 1e-3 && t.nmse_max == 1e-5 && t.cosine_min == 0.9999);
    gp_policy_builtin(GP_DTYPE_F64, false, &t);
    assert_true(t.rtol == 1e-7 && t.atol == 1e-7 && t.nmse_max == 1e-12);
    gp_policy_builtin(GP_DTYPE_C64, false, &t);
    assert_true(t.rtol == 1e-4);
    gp_policy_builtin(GP_DTYPE_I32, false, &t);
    assert_true(t.rtol == 0 && t.atol == 0 && isnan(t.nmse_max) && isnan(t.cosine_min));
    /* torch.testing.assert_close defaults */
    gp_policy_builtin(GP_DTYPE_F16, true, &t);
    assert_true(t.rtol == 1e-3 && t.atol == 1e-5 && t.floor_scale == 0 && isnan(t.nmse_max));
    gp_policy_builtin(GP_DTYPE_BF16, true, &t);
    assert_true(t.rtol == 1.6e-2 && t.atol == 1e-5);
    gp_policy_builtin(GP_DTYPE_F32, true, &t);
    assert_true(t.rtol == 1.3e-6 && t.atol == 1e-5);
    gp_policy_builtin(GP_DTYPE_F64, true, &t);
    assert_true(t.rtol == 1e-7 && t.atol == 1e-7);
    gp_policy_builtin(GP_DTYPE_U8, true, &t);
    assert_true(t.rtol == 0 && t.atol == 0);
}

static char path[64];

static void write_policy(const char *text)
{
    snprintf(path, sizeof(path), "/tmp/gp-policy-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

static void precedence(void **state)
{
    (void)state;
    gp_policy p;
    gp_policy_init(&p);
    write_policy(
        "{\"default\": {\"atol\": 0.5, \"rtol\": 0.25}, \"dtypes\": {\"f16\": {\"atol\": 0.75}},"
        " \"tensors\": {\"layer.*\": {\"rtol\": 0.125, \"nmse\": null}, "
        "\"layer.9\": {\"equal_nan\": true}}}");
    assert_int_equal(gp_policy_load_file(&p, path, err, sizeof(err)), 0);
    unlink(path);
    gp_tolerance t;
    gp_policy_resolve(&p, "other", GP_DTYPE_F32, &t);
    assert_true(t.atol == 0.5 && t.rtol == 0.25 && t.nmse_max == 1e-8); /* file default */
    gp_policy_resolve(&p, "other", GP_DTYPE_F16, &t);
    assert_true(t.atol == 0.75 && t.rtol == 0.25); /* dtypes over default */
    gp_policy_resolve(&p, "layer.1", GP_DTYPE_F32, &t);
    assert_true(t.rtol == 0.125 && isnan(t.nmse_max) && !t.equal_nan);
    gp_policy_resolve(&p, "layer.9", GP_DTYPE_F32, &t);
    assert_true(t.rtol == 0.125 && t.equal_nan); /* both rules match */
    /* the command line beats the file's default and dtypes, not its per-tensor rules */
    p.cli.atol = 0.0625, p.cli.has_atol = true;
    p.cli.rtol = 0.03125, p.cli.has_rtol = true;
    gp_policy_resolve(&p, "other", GP_DTYPE_F16, &t);
    assert_true(t.atol == 0.0625 && t.rtol == 0.03125);
    gp_policy_resolve(&p, "layer.1", GP_DTYPE_F16, &t);
    assert_true(t.atol == 0.0625 && t.rtol == 0.125);
    /* --tol rules come last; the pattern is what precedes the last ':' */
    assert_int_equal(
        gp_policy_add_spec(&p, "out.npz:layer.*:rtol=0.5,cosine=off", err, sizeof(err)), 0);
    gp_policy_resolve(&p, "out.npz:layer.3", GP_DTYPE_F32, &t);
    assert_true(t.rtol == 0.5 && isnan(t.cosine_min));
    gp_policy_resolve(&p, "layer.3", GP_DTYPE_F32, &t);
    assert_true(t.rtol == 0.125);
    p.strict = true;
    gp_policy_resolve(&p, "zzz", GP_DTYPE_F64, &t);
    assert_true(t.floor_scale == 0 && t.atol == 0.0625);
    gp_policy_free(&p);
}

static void expect_file_error(const char *text, const char *needle)
{
    gp_policy p;
    gp_policy_init(&p);
    write_policy(text);
    err[0] = '\0';
    assert_int_equal(gp_policy_load_file(&p, path, err, sizeof(err)), -1);
    unlink(path);
    gp_policy_free(&p);
    if (!strstr(err, needle)) fail_msg("error '%s' lacks '%s'", err, needle);
    if (!strstr(err, path)) fail_msg("error '%s' does not name the file", err);
}

static void bad_policies(void **state)
{
    (void)state;
    expect_file_error("{\"default\": {\"atoll\": 1}}", "unknown setting 'atoll'");
    expect_file_error("{\"default\": {\"atol\": -1}}", "non-negative");
    expect_file_error("{\"default\": {\"atol\": \"1\"}}", "non-negative");
    expect_file_error("{\"dtypes\": {\"f17\": {}}}", "unknown dtype");
    expect_file_error("{\"default\": {\"atol\": 1, \"atol\": 2}}", "twice");
    expect_file_error("{\"defaults\": {}}", "unknown or malformed key");
    expect_file_error("{\"default\": {\"cosine\": 2}}", "at most 1");
    expect_file_error("{\"strict\": 1}", "not a boolean");
    expect_file_error("[", "not valid JSON");
    gp_policy p;
    gp_policy_init(&p);
    assert_int_equal(gp_policy_add_spec(&p, "noseparator", err, sizeof(err)), -1);
    assert_int_equal(gp_policy_add_spec(&p, "x:atol", err, sizeof(err)), -1);
    assert_int_equal(gp_policy_add_spec(&p, "x:atol=abc", err, sizeof(err)), -1);
    assert_int_equal(gp_policy_add_spec(&p, "x:speed=1", err, sizeof(err)), -1);
    assert_int_equal(gp_policy_add_spec(&p, "x:atol=off", err, sizeof(err)), -1);
    assert_int_equal(p.ntensor_rules, 0);
    gp_policy_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builtin_tables),
        cmocka_unit_test(precedence),
        cmocka_unit_test(bad_policies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
