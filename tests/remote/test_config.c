/* test_config.c — the per-user list of remote targets (src/remote/config.c): what the reader
 * accepts and refuses, the file's location, and a save/load round trip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "remote/config.h"

static int parse(const char *text, gp_remote_config *cfg, char *err, size_t errlen)
{
    return gp_remote_config_parse("remotes.json", text, strlen(text), cfg, err, errlen);
}

static void parses_a_valid_file(void **state)
{
    (void)state;
    gp_remote_config cfg;
    char err[512] = "";
    const char *text = "{\"schema\":\"gpuport.remotes/1\",\"remotes\":["
                       "{\"name\":\"gpu1\",\"target\":\"me@gpu1.lab\",\"path\":\"~/w\"},"
                       "{\"name\":\"b-2.x_y\",\"target\":\"alias\",\"gpuport\":\"/opt/gp\","
                       "\"future\":1}]}";
    assert_int_equal(parse(text, &cfg, err, sizeof err), 0);
    assert_int_equal(cfg.count, 2);
    const gp_remote_entry *e = gp_remote_config_find(&cfg, "gpu1");
    assert_non_null(e);
    assert_string_equal(e->target, "me@gpu1.lab");
    assert_string_equal(e->path, "~/w");
    assert_null(e->gpuport);
    e = gp_remote_config_find(&cfg, "b-2.x_y");
    assert_string_equal(e->gpuport, "/opt/gp");
    assert_null(e->path);
    assert_null(gp_remote_config_find(&cfg, "gpu"));
    gp_remote_config_free(&cfg);
}

static void refuses_bad_files(void **state)
{
    (void)state;
    static const struct {
        const char *text, *says;
    } cases[] = {
        {"", "not valid JSON"},
        {"{\"schema\":\"gpuport.remotes/1\",\"remotes\":[", "not valid JSON"},
        {"[]", "not a JSON object"},
        {"{\"remotes\":[]}", "\"schema\""},
        {"{\"schema\":\"gpuport.remotes/2\",\"remotes\":[]}", "\"schema\""},
        {"{\"schema\":\"gpuport.remotes/1\",\"remotes\":{}}", "must be an array"},
        {"{\"schema\":\"gpuport.remotes/1\",\"remotes\":[1]}", "remotes[0]"},
        {"{\"schema\":\"gpuport.remotes/1\",\"remotes\":[{\"name\":\"a\"}]}", "remotes[0]"},
        {"{\"schema\":\"gpuport.remotes/1\",\"remotes\":[{\"name\":\"a\",\"target\":7}]}",
         "remotes[0]"},
        {"{\"schema\":\"gpuport.remotes/1\",\"remotes\":[{\"name\":\"a b\",\"target\":\"h\"}]}",
         "a name is"},
        {"{\"schema\":\"gpuport.remotes/1\",\"remotes\":[{\"name\":\"a\",\"target\":\"-oX=y\"}]}",
         "cannot start with '-'"},
        {"{\"schema\":\"gpuport.remotes/1\",\"remotes\":[{\"name\":\"a\",\"target\":\"h h\"}]}",
         "spaces"},
        {"{\"schema\":\"gpuport.remotes/1\",\"remotes\":[{\"name\":\"a\",\"target\":\"h\","
         "\"path\":\"x\\ny\"}]}",
         "control characters"},
        {"{\"schema\":\"gpuport.remotes/1\",\"remotes\":[{\"name\":\"a\",\"target\":\"h\"},"
         "{\"name\":\"a\",\"target\":\"i\"}]}",
         "appears twice"},
        {"{\"schema\":\"gpuport.remotes/1\",\"schema\":\"gpuport.remotes/1\",\"remotes\":[]}",
         "appears twice"},
        {"{\"schema\":\"gpuport.remotes/1\",\"remotes\":[]} x", "after the JSON value"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gp_remote_config cfg;
        char err[512] = "";
        if (parse(cases[i].text, &cfg, err, sizeof err) != -1 || !strstr(err, cases[i].says) ||
            strncmp(err, "remotes.json", 12) != 0) {
            print_error("case %zu: '%s' -> '%s'\n", i, cases[i].text, err);
            fail();
        }
        assert_int_equal(cfg.count, 0);
    }
}

static void checks_names_targets_paths(void **state)
{
    (void)state;
    assert_null(gp_remote_name_check("gpu1"));
    assert_null(gp_remote_name_check("A.b_c-d"));
    assert_non_null(gp_remote_name_check(""));
    assert_non_null(gp_remote_name_check("-x"));
    assert_non_null(gp_remote_name_check(".x"));
    assert_non_null(gp_remote_name_check("a/b"));
    assert_non_null(gp_remote_name_check("a b"));
    char longname[70];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_non_null(gp_remote_name_check(longname));
    assert_null(gp_remote_target_check("user@host.example"));
    assert_null(gp_remote_target_check("ssh://user@host:2222"));
    assert_non_null(gp_remote_target_check("-oProxyCommand=x"));
    assert_non_null(gp_remote_target_check("a\tb"));
    assert_non_null(gp_remote_target_check(""));
    assert_null(gp_remote_path_check("~/work dir/x"));
    assert_non_null(gp_remote_path_check("-rf"));
    assert_non_null(gp_remote_path_check("a\x01"));
}

static void finds_the_file(void **state)
{
    (void)state;
    char err[256];
    setenv("GPUPORT_CONFIG_DIR", "/cfg/dir", 1);
    char *f = gp_remote_config_file(err, sizeof err);
    assert_string_equal(f, "/cfg/dir/remotes.json");
    free(f);
    unsetenv("GPUPORT_CONFIG_DIR");
#if !defined(__APPLE__)
    setenv("XDG_CONFIG_HOME", "/xdg", 1);
    f = gp_remote_config_file(err, sizeof err);
    assert_string_equal(f, "/xdg/gpuport/remotes.json");
    free(f);
    setenv("XDG_CONFIG_HOME", "relative", 1); /* the spec says to ignore a relative one */
    setenv("HOME", "/home/u", 1);
    f = gp_remote_config_file(err, sizeof err);
    assert_string_equal(f, "/home/u/.config/gpuport/remotes.json");
    free(f);
#endif
}

static void saves_and_loads(void **state)
{
    (void)state;
    char dir[] = "/tmp/gp-remote-cfg-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char file[256], err[512];
    snprintf(file, sizeof file, "%s/sub/remotes.json", dir);
    gp_remote_config cfg;
    assert_int_equal(gp_remote_config_load(file, &cfg, err, sizeof err), 0); /* missing: empty */
    assert_int_equal(cfg.count, 0);
    gp_remote_entry a = {"one", "host1", "~/p q", NULL}, b = {"two", "u@h2", NULL, "/x/gpuport"};
    assert_int_equal(gp_remote_config_add(&cfg, &a), 0);
    assert_int_equal(gp_remote_config_add(&cfg, &b), 0);
    assert_int_equal(gp_remote_config_save(file, &cfg, err, sizeof err), 0);
    gp_remote_config_free(&cfg);
    struct stat st;
    char sub[256];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    assert_int_equal(stat(sub, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_int_equal(gp_remote_config_load(file, &cfg, err, sizeof err), 0);
    assert_int_equal(cfg.count, 2);
    assert_string_equal(gp_remote_config_find(&cfg, "one")->path, "~/p q");
    assert_string_equal(gp_remote_config_find(&cfg, "two")->gpuport, "/x/gpuport");
    assert_true(gp_remote_config_remove(&cfg, "one"));
    assert_false(gp_remote_config_remove(&cfg, "one"));
    assert_int_equal(cfg.count, 1);
    assert_string_equal(cfg.items[0].name, "two");
    gp_remote_config_free(&cfg);
    /* A file that is not ours is reported with its name. */
    FILE *f = fopen(file, "w");
    fputs("{\"schema\": 1}", f);
    fclose(f);
    assert_int_equal(gp_remote_config_load(file, &cfg, err, sizeof err), -1);
    assert_non_null(strstr(err, file));
    unlink(file);
    rmdir(sub);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_a_valid_file),
        cmocka_unit_test(refuses_bad_files),
        cmocka_unit_test(checks_names_targets_paths),
        cmocka_unit_test(finds_the_file),
        cmocka_unit_test(saves_and_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
