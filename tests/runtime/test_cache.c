/* test_cache.c — the kernel cache: entries appear where the folder rules say (setter, then
 * GPUPORT_CACHE_DIR, then the per-user folder created 0700), a second build is served from the
 * cache, a corrupted entry is rebuilt, clear empties the folder, and processes building the same
 * kernel at the same moment all succeed and leave one valid entry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/cache.h"
#include "runtime/conformance.h"
#include "runtime/cache_kernel.h"

static char g_dir[256];

static uint64_t entries(void)
{
    uint64_t e = 0, bytes = 0;
    GPT_CHECK(gp_cache_stats(&e, &bytes));
    assert_true(e == 0 || bytes > 0);
    return e;
}

/* The one .so entry of the folder. */
static void so_entry(char *path, size_t cap)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ls %s/*.so", g_dir);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    assert_non_null(fgets(path, (int)cap, f));
    path[strcspn(path, "\n")] = '\0';
    pclose(f);
}

static void setter_and_stats(void **state)
{
    (void)state;
    GPT_CHECK(gp_cache_set_dir(g_dir));
    char got[256];
    size_t need;
    GPT_CHECK(gp_cache_get_dir(got, sizeof got, &need));
    assert_string_equal(got, g_dir);
    assert_int_equal(gp_cache_get_dir(got, 3, &need), GP_ERR_INVALID_ARGUMENT);
    assert_int_equal(need, strlen(g_dir) + 1);
    GPT_CHECK(gp_cache_clear());
    assert_int_equal(entries(), 0);
    build_and_run("stats");
    assert_int_equal(entries(), 1);
    build_and_run("stats"); /* the same source: served from the cache, no new entry */
    assert_int_equal(entries(), 1);
    build_and_run("stats-other");
    assert_int_equal(entries(), 2);
    GPT_CHECK(gp_cache_clear());
    assert_int_equal(entries(), 0);
}

static void corrupt_entry_is_rebuilt(void **state)
{
    (void)state;
    GPT_CHECK(gp_cache_set_dir(g_dir));
    GPT_CHECK(gp_cache_clear());
    build_and_run("corrupt");
    char path[512];
    so_entry(path, sizeof path);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 100, SEEK_SET);
    fputs("garbage", f);
    fclose(f);
    build_and_run("corrupt"); /* detected by its checksum, rebuilt, stored again */
    void *data;
    size_t len;
    char key[65];
    const char *base = strrchr(path, '/') + 1;
    memcpy(key, base, 64);
    key[64] = '\0';
    GPT_CHECK(gp_cache_load(key, "so", &data, &len));
    assert_true(len > 100 && memcmp((char *)data + 100, "garbage", 7) != 0);
    free(data);
    /* a truncated entry is a miss too */
    assert_int_equal(truncate(path, 10), 0);
    assert_int_equal(gp_cache_load(key, "so", &data, &len), GP_ERR_NOT_FOUND);
    build_and_run("corrupt");
    GPT_CHECK(gp_cache_load(key, "so", &data, &len));
    free(data);
}

/* An entry whose checksum is right but which the loader refuses (not a shared object) is rejected,
 * rebuilt and replaced. */
static void rejected_entry_is_rebuilt(void **state)
{
    (void)state;
    GPT_CHECK(gp_cache_set_dir(g_dir));
    GPT_CHECK(gp_cache_clear());
    build_and_run("rejected");
    char path[512], key[65];
    so_entry(path, sizeof path);
    memcpy(key, strrchr(path, '/') + 1, 64);
    key[64] = '\0';
    const char junk[] = "not an ELF file";
    GPT_CHECK(gp_cache_store(key, "so", junk, sizeof junk)); /* valid checksum, useless content */
    void *data;
    size_t len;
    GPT_CHECK(gp_cache_load(key, "so", &data, &len));
    assert_int_equal(len, sizeof junk);
    free(data);
    build_and_run("rejected"); /* dlopen refuses it: discarded, rebuilt, stored */
    GPT_CHECK(gp_cache_load(key, "so", &data, &len));
    assert_true(len > sizeof junk);
#if !defined(__APPLE__)
    assert_memory_equal(data, "\177ELF", 4);
#endif
    free(data);
}

static void env_and_default_folders(void **state)
{
    (void)state;
    GPT_CHECK(gp_cache_set_dir(NULL));
    char envdir[300], got[512];
    snprintf(envdir, sizeof envdir, "%s/env", g_dir);
    setenv("GPUPORT_CACHE_DIR", envdir, 1);
    GPT_CHECK(gp_cache_get_dir(got, sizeof got, NULL));
    assert_string_equal(got, envdir);
    unsetenv("GPUPORT_CACHE_DIR");
    char home[300];
    snprintf(home, sizeof home, "%s/home", g_dir);
    setenv("HOME", home, 1);
    unsetenv("XDG_CACHE_HOME");
    build_and_run("default-folder");
    GPT_CHECK(gp_cache_get_dir(got, sizeof got, NULL));
#if defined(__APPLE__)
    assert_non_null(strstr(got, "/home/Library/Caches/gpuport"));
#else
    assert_non_null(strstr(got, "/home/.cache/gpuport"));
#endif
    struct stat sb;
    assert_int_equal(stat(got, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0700);
    assert_int_equal(entries(), 1);
}

static void processes_race_on_one_entry(void **state)
{
    (void)state;
    char dir[300];
    snprintf(dir, sizeof dir, "%s/race", g_dir);
    GPT_CHECK(gp_cache_set_dir(dir));
    enum { P = 4 };
    pid_t pids[P];
    for (int i = 0; i < P; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            build_and_run("race"); /* a failure exits non-zero through cmocka's handlers */
            _exit(0);
        }
    }
    for (int i = 0; i < P; i++) {
        int status;
        assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    assert_int_equal(entries(), 1);
    build_and_run("race");
    assert_int_equal(entries(), 1);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/gpuport-cache-test-XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(setter_and_stats),          cmocka_unit_test(corrupt_entry_is_rebuilt),
        cmocka_unit_test(rejected_entry_is_rebuilt), cmocka_unit_test(processes_race_on_one_entry),
        cmocka_unit_test(env_and_default_folders),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
