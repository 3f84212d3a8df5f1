/* test_paths.c — the lists that cross between the two machines: safe relative paths
 * (worktree.c), the sync's removed-file computation (sync.c), the fetch lister's answer
 * (fetch.c), and the one-line explanations of ssh failures (ssh.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "remote/fetch.h"
#include "remote/ssh.h"
#include "remote/sync.h"
#include "remote/worktree.h"

static void safe_paths(void **state)
{
    (void)state;
    const char *good[] = {"a", "a/b", "a b/c'd", ".hidden", "a/..b", "...", "x/.y"};
    const char *badp[] = {"",    "/abs",  "..",   "../x", "a/../b",    "a/..",   ".",
                          "./a", "a/./b", "a//b", "a/",   "new\nline", "del\x7f"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        assert_true(gp_worktree_path_safe(good[i]));
    for (size_t i = 0; i < sizeof badp / sizeof *badp; i++)
        if (gp_worktree_path_safe(badp[i])) fail_msg("accepted '%s'", badp[i]);
}

static void removed_files(void **state)
{
    (void)state;
    static const char old[] = "a\0gone\0b/c\0../evil\0/abs\0also gone\0gone\0trunc";
    static const char now[] = "b/c\0a\0new\0";
    gp_strbuf out = GP_STRBUF_INIT;
    size_t n = gp_remote_sync_removed(old, sizeof old - 1, now, sizeof now - 1, &out);
    assert_int_equal(n, 2); /* unsafe, repeated and unterminated entries are dropped */
    assert_int_equal(out.len, sizeof "gone" + sizeof "also gone");
    assert_memory_equal(out.data, "also gone\0gone\0", out.len);
    gp_strbuf_free(&out);
    n = gp_remote_sync_removed(NULL, 0, now, sizeof now - 1, &out);
    assert_int_equal(n, 0);
    gp_strbuf_free(&out);
}

static void fetch_answers(void **state)
{
    (void)state;
    static const char ans[] = "out/b\0./-dash\0out/a\0out/b\0";
    gp_strbuf out = GP_STRBUF_INIT;
    char bad[64];
    long n = gp_remote_fetch_parse(ans, sizeof ans - 1, &out, bad, sizeof bad);
    assert_int_equal(n, 3);
    assert_memory_equal(out.data, "-dash\0out/a\0out/b\0", out.len);
    gp_strbuf_free(&out);
    static const char evil[] = "ok\0../../etc/passwd\0";
    assert_int_equal(gp_remote_fetch_parse(evil, sizeof evil - 1, &out, bad, sizeof bad), -1);
    assert_string_equal(bad, "../../etc/passwd");
    gp_strbuf_free(&out);
    static const char cut[] = "ok\0partial";
    assert_int_equal(gp_remote_fetch_parse(cut, sizeof cut - 1, &out, bad, sizeof bad), -1);
    gp_strbuf_free(&out);
    static const char abs[] = "/etc/passwd\0";
    assert_int_equal(gp_remote_fetch_parse(abs, sizeof abs - 1, &out, bad, sizeof bad), -1);
    gp_strbuf_free(&out);
}

/* The lister's answer with a run's mark: this run's files, stale ones, matches per glob. */
static void fetch_answers_split_by_mark(void **state)
{
    (void)state;
    static const char ans[] = "/p\0/f\0out/a\0/s\0out/old\0/p\0/p\0/f\0b\0";
    gp_strbuf fresh = GP_STRBUF_INIT, stale = GP_STRBUF_INIT;
    size_t per[3];
    assert_int_equal(gp_remote_fetch_split(ans, sizeof ans - 1, 3, &fresh, &stale, per), 0);
    assert_memory_equal(fresh.data, "out/a\0b\0", fresh.len);
    assert_memory_equal(stale.data, "out/old\0", stale.len);
    assert_int_equal(per[0], 1);
    assert_int_equal(per[1], 0);
    assert_int_equal(per[2], 1);
    gp_strbuf_free(&fresh);
    gp_strbuf_free(&stale);
    static const char *bad[] = {
        "out/a\0",              /* a path without its mark */
        "/p\0/f\0/f\0a\0",      /* two marks in a row */
        "/p\0/f\0",             /* a mark without its path */
        "/p\0/p\0/p\0/p\0",     /* more globs than asked */
        "/p\0",                 /* fewer globs than asked */
        "/p\0/f\0a\0/p\0/p\0x", /* cut short */
    };
    static const size_t len[] = {6, 11, 6, 12, 3, 15};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(gp_remote_fetch_split(bad[i], len[i], 3, &fresh, &stale, per), -1);
        gp_strbuf_free(&fresh);
        gp_strbuf_free(&stale);
    }
}

static void explains_ssh_failures(void **state)
{
    (void)state;
    static const struct {
        const char *err, *says;
    } cases[] = {
        {"root@127.0.0.1: Permission denied (publickey).\r\n", "cannot log in to n"},
        {"Host key verification failed.\n", "host key"},
        {"ssh: Could not resolve hostname nope: Name or service not known\n", "does not resolve"},
        {"ssh: connect to host 127.0.0.1 port 9: Connection refused\n", "cannot reach n"},
        {"ssh: connect to host 10.0.0.1 port 22: Connection timed out\n", "cannot reach n"},
        {"Warning: Permanently added 'x' (ED25519) to the list of known hosts.\nweird\n",
         "ssh says: weird"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char msg[1024];
        gp_ssh_explain("n", "t", cases[i].err, msg, sizeof msg);
        if (!strstr(msg, cases[i].says)) fail_msg("case %zu: %s", i, msg);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(safe_paths),
        cmocka_unit_test(removed_files),
        cmocka_unit_test(fetch_answers),
        cmocka_unit_test(fetch_answers_split_by_mark),
        cmocka_unit_test(explains_ssh_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
