/* test_sysroot.c — the root-aware path layer (src/doctor/sysroot.c): symlinks resolve inside
 * the root (absolute ones too), loops end, nothing escapes to the host's files, and errors
 * name the machine's path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doctor/sysroot.h"

static void touch(const char *p)
{
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
}

static void test_sysroot_resolve(void **state)
{
    (void)state;
    char tmpl[] = "/tmp/gp-sysroot-XXXXXX";
    char *root = mkdtemp(tmpl);
    assert_non_null(root);
    char p[600];
    snprintf(p, sizeof p, "%s/usr", root);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/usr/bin", root);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/usr/bin/python3.11", root);
    touch(p);
    char l1[600], l2[600], l3[600];
    snprintf(l1, sizeof l1, "%s/usr/bin/python3", root);
    assert_int_equal(symlink("/usr/bin/python3.11", l1), 0); /* absolute: inside the root */
    snprintf(l2, sizeof l2, "%s/loop", root);
    assert_int_equal(symlink("loop", l2), 0);
    snprintf(l3, sizeof l3, "%s/usr/up", root);
    assert_int_equal(symlink("../../../../etc", l3), 0); /* cannot climb out of the root */

    gp_sysroot sr;
    assert_true(gp_sysroot_init(&sr, root));
    char out[512];
    assert_true(gp_sysroot_resolve(&sr, "/usr/bin/python3", out, sizeof out));
    assert_string_equal(out, "/usr/bin/python3.11");
    assert_false(gp_sysroot_resolve(&sr, "/loop", out, sizeof out));
    assert_false(gp_sysroot_resolve(&sr, "/usr/up/passwd", out, sizeof out));
    assert_false(gp_sysroot_resolve(&sr, "relative", out, sizeof out));
    assert_true(gp_sysroot_which(&sr, "python3.11", "/nope:/usr/bin", out, sizeof out) == false);
    chmod(p, 0755);
    assert_true(gp_sysroot_which(&sr, "python3.11", "/nope:/usr/bin", out, sizeof out));
    assert_string_equal(out, "/usr/bin/python3.11");
    /* an absolute link to a file the host has but the root does not: absent, not the host's */
    char l4[600];
    snprintf(l4, sizeof l4, "%s/usr/bin/sh", root);
    assert_int_equal(symlink("/bin/sh", l4), 0);
    assert_false(gp_sysroot_exists(&sr, "/usr/bin/sh"));
    assert_false(gp_sysroot_which(&sr, "sh", "/usr/bin", out, sizeof out));
    assert_true(gp_sysroot_readlink(&sr, "/usr/bin/sh", out, sizeof out));
    assert_string_equal(out, "/bin/sh");
    unlink(l4);
    char err[256];
    assert_null(gp_sysroot_read(&sr, "/etc/os-release", 100, NULL, err, sizeof err));
    assert_true(strncmp(err, "/etc/os-release: ", 17) == 0); /* names the machine's path */
    unlink(l1);
    unlink(l2);
    unlink(l3);
    unlink(p);
    snprintf(p, sizeof p, "%s/usr/bin", root);
    rmdir(p);
    snprintf(p, sizeof p, "%s/usr", root);
    rmdir(p);
    rmdir(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sysroot_resolve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
