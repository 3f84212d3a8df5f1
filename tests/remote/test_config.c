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
         "'-' at character 1"},
        {"{\"schema\":\"gpuport.remotes/1\",\"remotes\":[{\"name\":\"a\",\"target\":\"h h\"}]}",
         "a space (character 2)"},
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
            print_error("case %u: '%s' -> '%s'\n", (unsigned)i, cases[i].text, err);
            fail();
        }
        assert_int_equal(cfg.count, 0);
    }
}

#define OK(f, v) assert_null(f(v, why, sizeof why))
#define BAD(f, v, says)                                                                            \
    do {                                                                                           \
        const char *w_ = f(v, why, sizeof why);                                                    \
        if (!w_ || !strstr(w_, says)) fail_msg("%s('%s') -> '%s'", #f, v, w_ ? w_ : "(accepted)"); \
    } while (0)

static void checks_names_targets_paths(void **state)
{
    (void)state;
    char why[1024];
    OK(gp_remote_name_check, "gpu1");
    OK(gp_remote_name_check, "A.b_c-d");
    BAD(gp_remote_name_check, "", "empty");
    BAD(gp_remote_name_check, "-x", "'-' (character 1)");
    BAD(gp_remote_name_check, ".x", "'.' (character 1)");
    BAD(gp_remote_name_check, "a/b", "'/' (character 2)");
    BAD(gp_remote_name_check, "a b", "a space (character 2)");
    BAD(gp_remote_name_check, "gpu1;touch", "';' (character 5)");
    char longname[70];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    BAD(gp_remote_name_check, longname, "64");
    /* Destinations: a host, user@host or an ssh_config alias, and nothing a shell reads. */
    OK(gp_remote_target_check, "user@host.example");
    OK(gp_remote_target_check, "gpu-box_1");
    OK(gp_remote_target_check, "10.0.0.7");
    OK(gp_remote_target_check, "me@fe80::1%eth0");
    BAD(gp_remote_target_check, "-oProxyCommand=x", "'-' at character 1");
    BAD(gp_remote_target_check, "me@-oProxyCommand=x", "'-' at character 4");
    BAD(gp_remote_target_check, "gpu1;touch${IFS}/tmp/x", "';' (character 5)");
    BAD(gp_remote_target_check, "a$(id)", "'$' (character 2)");
    BAD(gp_remote_target_check, "a`id`", "'`' (character 2)");
    BAD(gp_remote_target_check, "ssh://user@host:2222", "':' (character 4)");
    BAD(gp_remote_target_check, "host:22", "':' (character 5)");
    BAD(gp_remote_target_check, "a@b@c", "'@' (character 4)");
    BAD(gp_remote_target_check, "@host", "'@' (character 1)");
    BAD(gp_remote_target_check, "user@", "no host");
    BAD(gp_remote_target_check, "a\tb", "\\x09 (character 2)");
    BAD(gp_remote_target_check, "a b", "a space");
    BAD(gp_remote_target_check, "", "empty");
    OK(gp_remote_path_check, "~/work dir/x");
    BAD(gp_remote_path_check, "-rf", "'-'");
    BAD(gp_remote_path_check, "a\x01", "control");
}

/* The Slurm request of a target, and the `remote add` command that recreates it (quoted). */
static void checks_slurm_requests(void **state)
{
    (void)state;
    char why[1024];
    char *args[] = {"--qos=high", "--comment=$(touch x);'q'"};
    gp_remote_slurm ok = {"gpu,debug", NULL, "gpu:a100:2", "1-00:00:00", "lab_1", args, 2};
    assert_null(gp_remote_slurm_check(&ok, why, sizeof why));
    static const struct {
        gp_remote_slurm s;
        const char *says;
    } bad[] = {
        {{"gpu;rm", NULL, NULL, NULL, NULL, NULL, 0}, "--partition"},
        {{NULL, "2", "gpu:1", NULL, NULL, NULL, 0}, "give one of them"},
        {{NULL, "0", NULL, NULL, NULL, NULL, 0}, "--gpus '0'"},
        {{NULL, "a100:x", NULL, NULL, NULL, NULL, 0}, "--gpus"},
        {{NULL, NULL, "gpu:a100:2:3", NULL, NULL, NULL, 0}, "--gres"},
        {{NULL, NULL, "gpu:$(x):1", NULL, NULL, NULL, 0}, "--gres"},
        {{NULL, NULL, NULL, "1:2:3:4", NULL, NULL, 0}, "--time"},
        {{NULL, NULL, NULL, "soon", NULL, NULL, 0}, "--time"},
        {{NULL, NULL, NULL, NULL, "a b", NULL, 0}, "--account"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *w = gp_remote_slurm_check(&bad[i].s, why, sizeof why);
        if (!w || !strstr(w, bad[i].says)) fail_msg("case %zu: %s", i, w ? w : "(accepted)");
    }
    const char *refused[] = {"qos",   "--job-name=x", "-Jx",       "--output=/x", "--partition=p",
                             "-pgpu", "--time=5",     "--chdir=/", "--wrap=id",   "--qos=a\nb"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char *one[] = {(char *)refused[i]};
        gp_remote_slurm s = {NULL, NULL, NULL, NULL, NULL, one, 1};
        if (!gp_remote_slurm_check(&s, why, sizeof why)) fail_msg("accepted '%s'", refused[i]);
    }
    gp_remote_entry e = {"c1", "me@login", "~/my proj", NULL, &ok};
    char buf[2048];
    assert_string_equal(gp_remote_add_command(&e, "--time", "2:00:00", buf, sizeof buf),
                        "gpuport remote add c1 me@login --path '~/my proj' --slurm --partition "
                        "gpu,debug --gres gpu:a100:2 --time 2:00:00 --account lab_1 --slurm-arg "
                        "--qos=high --slurm-arg '--comment=$(touch x);'\\''q'\\''' --replace");
    gp_remote_slurm bare = {0};
    gp_remote_entry b = {"c2", "login", NULL, NULL, &bare};
    assert_string_equal(gp_remote_add_command(&b, "--gpus", "1", buf, sizeof buf),
                        "gpuport remote add c2 login --slurm --gpus 1 --replace");
    assert_non_null(strstr(gp_remote_add_command(&e, "--gpus", "2", buf, sizeof buf),
                           "--account lab_1 --slurm-arg --qos=high"));
    assert_null(strstr(buf, "--gres")); /* --gpus replaces --gres */
    gp_remote_entry plain = {"g", "h", NULL, NULL, NULL};
    assert_string_equal(gp_remote_add_command(&plain, "--gpuport", "PATH", buf, sizeof buf),
                        "gpuport remote add g h --gpuport PATH --replace");
}

/* A Slurm entry survives the file, and a bad field in a hand-edited file is refused. */
static void slurm_entries_in_the_file(void **state)
{
    (void)state;
    gp_remote_config cfg;
    char err[512] = "";
    const char *text = "{\"schema\":\"gpuport.remotes/1\",\"remotes\":[{\"name\":\"c\",\"target\":"
                       "\"login\",\"slurm\":{\"partition\":\"gpu\",\"gres\":\"gpu:1\",\"args\":["
                       "\"--qos=x\"]}}]}";
    assert_int_equal(parse(text, &cfg, err, sizeof err), 0);
    const gp_remote_entry *e = gp_remote_config_find(&cfg, "c");
    assert_non_null(e->slurm);
    assert_string_equal(e->slurm->partition, "gpu");
    assert_string_equal(e->slurm->gres, "gpu:1");
    assert_null(e->slurm->time);
    assert_int_equal(e->slurm->n_args, 1);
    assert_string_equal(e->slurm->args[0], "--qos=x");
    gp_remote_config_free(&cfg);
    const char *bad[] = {
        "{\"schema\":\"gpuport.remotes/1\",\"remotes\":[{\"name\":\"c\",\"target\":\"l\","
        "\"slurm\":{\"partition\":\"a;b\"}}]}",
        "{\"schema\":\"gpuport.remotes/1\",\"remotes\":[{\"name\":\"c\",\"target\":\"l\","
        "\"slurm\":{\"args\":[\"--job-name=x\"]}}]}",
        "{\"schema\":\"gpuport.remotes/1\",\"remotes\":[{\"name\":\"c\",\"target\":\"l\","
        "\"slurm\":{\"args\":\"--qos=x\"}}]}",
        "{\"schema\":\"gpuport.remotes/1\",\"remotes\":[{\"name\":\"c\",\"target\":\"l\","
        "\"slurm\":7}]}",
        "{\"schema\":\"gpuport.remotes/1\",\"remotes\":[{\"name\":\"c\",\"target\":"
        "\"gpu1;touch${IFS}/tmp/x\"}]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (parse(bad[i], &cfg, err, sizeof err) != -1 || strncmp(err, "remotes.json", 12))
            fail_msg("case %zu accepted (%s)", i, err);
    }
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
    char *sargs[] = {"--qos=high"};
    gp_remote_slurm sl = {"gpu", "1", NULL, "30", NULL, sargs, 1};
    gp_remote_entry a = {"one", "host1", "~/p q", NULL, NULL},
                    b = {"two", "u@h2", NULL, "/x/gpuport", &sl};
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
    const gp_remote_slurm *back = gp_remote_config_find(&cfg, "two")->slurm;
    assert_non_null(back);
    assert_string_equal(back->gpus, "1");
    assert_string_equal(back->time, "30");
    assert_string_equal(back->args[0], "--qos=high");
    assert_null(gp_remote_config_find(&cfg, "one")->slurm);
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
        cmocka_unit_test(checks_slurm_requests),
        cmocka_unit_test(slurm_entries_in_the_file),
        cmocka_unit_test(finds_the_file),
        cmocka_unit_test(saves_and_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
