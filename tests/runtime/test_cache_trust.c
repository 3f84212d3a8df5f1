/* test_cache_trust.c — the kernel cache holds code this process runs (the CPU backend dlopens its
 * entries), so it is used only when no one but the user can put a file there: a folder that is
 * writable by others, whose parent is, or that another user owns is not used (kernels still build
 * and run, without the disk cache, and GPUPORT_LOG=info says why once); an entry another user
 * owns is not run. The planted entry is a real attack: a shared object whose constructor leaves a
 * marker file, with a valid checksum; the same entry owned by the user is loaded (the marker
 * appears), owned by a second user it is not. The second user is created with useradd when the
 * test runs as root (CI does). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/cache.h"
#include "runtime/conformance.h"
#include "runtime/cache_kernel.h"
#include "skip.h"
#include "util/sha256.h"

static char g_dir[256];
static char g_log[300];
static int g_saved_stderr = -1;

static uint64_t entries(void)
{
    uint64_t e = 0, bytes = 0;
    GPT_CHECK(gp_cache_stats(&e, &bytes));
    return e;
}

/* stderr into a file while `salt` builds twice; returns what was said (static buffer). */
static const char *build_twice_logged(const char *salt)
{
    static char said[8192];
    fflush(stderr);
    int fd = open(g_log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    g_saved_stderr = dup(2);
    dup2(fd, 2);
    close(fd);
    build_and_run(salt);
    build_and_run(salt);
    fflush(stderr);
    dup2(g_saved_stderr, 2);
    close(g_saved_stderr);
    FILE *f = fopen(g_log, "r");
    assert_non_null(f);
    size_t n = fread(said, 1, sizeof said - 1, f);
    said[n] = '\0';
    fclose(f);
    return said;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static void subdir(char *out, size_t n, const char *name, mode_t mode)
{
    snprintf(out, n, "%s/%s", g_dir, name);
    assert_int_equal(mkdir(out, 0700), 0);
    assert_int_equal(chmod(out, mode), 0); /* exactly, whatever the umask */
}

/* Not used: no entry is written there, the kernel runs all the same, and the reason is said once.
 */
static void expect_refused(const char *dir, const char *salt, const char *why)
{
    GPT_CHECK(gp_cache_set_dir(dir));
    const char *said = build_twice_logged(salt);
    assert_int_equal(entries(), 0);
    char want[700];
    snprintf(want, sizeof want, "gpuport: kernel cache: not using %s: %s", dir, why);
    if (count(said, want) != 1) fail_msg("wanted once '%s', got:\n%s", want, said);
}

static void world_writable_folder_is_not_used(void **state)
{
    (void)state;
    char d[300];
    subdir(d, sizeof d, "open", 0777);
    expect_refused(d, "open", "it is writable by group and others (mode 0777)");
    subdir(d, sizeof d, "group", 0770);
    expect_refused(d, "group", "it is writable by its group (mode 0770)");
}

static void parent_writable_by_others_is_not_used(void **state)
{
    (void)state;
    char parent[300], d[400];
    subdir(parent, sizeof parent, "shared", 0777);
    snprintf(d, sizeof d, "%s/cache", parent);
    assert_int_equal(mkdir(d, 0700), 0);
    char why[600];
    snprintf(why, sizeof why,
             "the folder above it, %s, is writable by group and others (mode 0777)", parent);
    expect_refused(d, "parent", why);
    /* a sticky parent (as /tmp) is fine: no one may replace what another user owns there */
    subdir(parent, sizeof parent, "sticky", 01777);
    snprintf(d, sizeof d, "%s/cache", parent);
    assert_int_equal(mkdir(d, 0700), 0);
    GPT_CHECK(gp_cache_set_dir(d));
    const char *said = build_twice_logged("sticky");
    assert_int_equal(entries(), 1);
    assert_null(strstr(said, "not using"));
}

/* The second user: created with useradd as root; else any other account sudo may act as. */
static uid_t g_other = (uid_t)-1;
static bool g_sudo; /* not root: files are made the second user's with sudo -n */

static void find_second_user(void)
{
    struct passwd *pw;
    if (geteuid() == 0) {
        if (!getpwnam("gpuport-test") &&
            system("useradd --system --no-create-home --shell /usr/sbin/nologin gpuport-test "
                   ">/dev/null 2>&1") != 0)
            fprintf(stderr, "note: useradd failed; using the account every system has\n");
        pw = getpwnam("gpuport-test");
        if (!pw) pw = getpwnam("nobody");
        if (pw) g_other = pw->pw_uid;
        return;
    }
    pw = getpwnam("nobody");
    if (pw && system("sudo -n -u nobody true >/dev/null 2>&1") == 0) {
        g_other = pw->pw_uid;
        g_sudo = true;
    }
}

/* Gives `path` to the second user. */
static void give_away(const char *path)
{
    if (!g_sudo) {
        assert_int_equal(chown(path, g_other, (gid_t)-1), 0);
        return;
    }
    /* without root: the second user copies the file, and the copy replaces it */
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "sudo -n -u nobody cp '%s' '%s.theirs' && mv -f '%s.theirs' '%s'",
             path, path, path, path);
    assert_int_equal(system(cmd), 0);
}

static void folder_of_another_user_is_not_used(void **state)
{
    (void)state;
    if (g_other == (uid_t)-1) {
        /* a folder owned by root is another user's for anyone else */
        expect_refused("/", "root-owned", "it is owned by another user (uid 0; you are");
        return;
    }
    char d[300];
    subdir(d, sizeof d, "theirs", 0755);
    if (g_sudo) {
        snprintf(d, sizeof d, "%s/theirs-sudo", g_dir);
        char cmd[700];
        assert_int_equal(chmod(g_dir, 0755), 0);
        snprintf(cmd, sizeof cmd, "sudo -n -u nobody mkdir -m 755 '%s'", d);
        if (system(cmd) != 0) GP_TEST_SKIP("sudo -u nobody cannot write %s", g_dir);
    } else {
        assert_int_equal(chown(d, g_other, (gid_t)-1), 0);
    }
    char why[200];
    snprintf(why, sizeof why, "it is owned by another user (uid %u; you are %u)", (unsigned)g_other,
             (unsigned)geteuid());
    expect_refused(d, "theirs", why);
}

/* A shared object that leaves `marker` behind when it is loaded, planted as the entry at `so`
 * with a checksum that matches it. */
static void plant(const char *so, const char *marker)
{
    char src[400], built[400], cmd[1400];
    snprintf(src, sizeof src, "%s/evil.c", g_dir);
    snprintf(built, sizeof built, "%s/evil.so", g_dir);
    FILE *f = fopen(src, "w");
    assert_non_null(f);
    fprintf(f,
            "#include <stdio.h>\n"
            "__attribute__((constructor)) static void planted(void)\n"
            "{ FILE *m = fopen(\"%s\", \"w\"); if (m) fclose(m); }\n",
            marker);
    fclose(f);
    const char *cc = getenv("CC");
    snprintf(cmd, sizeof cmd, "%s -shared -fPIC -o '%s' '%s'", cc && *cc ? cc : "cc", built, src);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", built, so);
    assert_int_equal(system(cmd), 0);
    char hex[65], err[256], sum[400];
    uint64_t size;
    assert_int_equal(gp_sha256_file(so, hex, &size, err, sizeof err), 0);
    snprintf(sum, sizeof sum, "%s.sha256", so);
    f = fopen(sum, "w");
    assert_non_null(f);
    fprintf(f, "%s\n", hex);
    fclose(f);
    chmod(so, 0600);
    chmod(sum, 0600);
}

static void planted_entry_of_another_user_is_not_run(void **state)
{
    (void)state;
    if (g_other == (uid_t)-1)
        GP_TEST_SKIP("not root, and no second user that sudo -n may act as: no file can be "
                     "given to another user here");
    char d[300], marker[400], so[600];
    subdir(d, sizeof d, "mine", 0700);
    if (g_sudo) assert_int_equal(chmod(g_dir, 0755), 0); /* the second user must reach it */
    if (g_sudo) assert_int_equal(chmod(d, 0755), 0);
    GPT_CHECK(gp_cache_set_dir(d));
    snprintf(marker, sizeof marker, "%s/planted-code-ran", g_dir);
    build_and_run("planted"); /* the entry the next build would load */
    assert_int_equal(entries(), 1);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "ls %s/*.so", d);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    assert_non_null(fgets(so, sizeof so, p));
    pclose(p);
    so[strcspn(so, "\n")] = '\0';

    /* the attack works on an entry the user owns: the planted code runs (this is why the owner
     * check matters; the folder check keeps anyone else from planting it) */
    plant(so, marker);
    build_and_run("planted");
    assert_int_equal(access(marker, F_OK), 0);
    unlink(marker);

    /* owned by the second user: not run; the kernel is built again and runs */
    plant(so, marker);
    char sum[700];
    snprintf(sum, sizeof sum, "%s.sha256", so);
    give_away(so);
    give_away(sum);
    const char *said = build_twice_logged("planted");
    if (access(marker, F_OK) == 0) fail_msg("the planted entry of another user was loaded");
    char want[800];
    snprintf(want, sizeof want, "gpuport: kernel cache: ignoring %s", so);
    if (!strstr(said, want) || !strstr(said, "owned by another user"))
        fail_msg("wanted '%s: ... owned by another user', got:\n%s", want, said);
    struct stat st;
    assert_int_equal(stat(so, &st), 0);
    assert_int_equal(st.st_uid, geteuid()); /* rebuilt and stored: the user's own again */
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/gpuport-cache-trust-XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    snprintf(g_log, sizeof g_log, "%s.log", g_dir);
    find_second_user();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", g_dir, g_log);
    if (g_sudo) {
        snprintf(cmd, sizeof cmd, "sudo -n -u nobody rm -rf %s/theirs-sudo; rm -rf %s %s", g_dir,
                 g_dir, g_log);
    }
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    setenv("GPUPORT_LOG", "info", 1); /* read once, at the first message */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(world_writable_folder_is_not_used),
        cmocka_unit_test(parent_writable_by_others_is_not_used),
        cmocka_unit_test(folder_of_another_user_is_not_used),
        cmocka_unit_test(planted_entry_of_another_user_is_not_run),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
