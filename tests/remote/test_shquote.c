/* test_shquote.c — quoting for the remote shell (src/remote/shquote.c) and the run wrapper
 * (src/remote/run.c), checked by handing the quoted line to a real /bin/sh the way sshd hands
 * it to the login shell, and comparing what the program received. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#include "remote/cluster.h"
#include "remote/run.h"
#include "remote/shquote.h"
#include "remote/ssh.h"

static const char *const tricky[] = {
    "plain",   "two words", "it's",      "'",  "''", "\"dq\"",    "$HOME",
    "${HOME}", "$(id)",     "`id`",      "*",  "?",  "[a-z]*",    "~",
    "~root",   "a\\b",      "\\",        ";",  "&&", "|",         ">x",
    "<x",      "#c",        "!x",        "-n", "--", "tab\there", "new\nline",
    "",        " leading",  "trailing ", "%s", "a=b"};

/* Runs `line` with sh -c as sshd would: in a process group of its own (the wrapper's watcher
 * signals its whole group) and with a stdin that stays open until it ends. Returns its stdout
 * (free() it). */
static char *sh_run(const char *line, int *code)
{
    char *const argv[] = {"sh", "-c", (char *)line, NULL};
    char path[] = "/tmp/gp-shq-XXXXXX";
    int out = mkstemp(path);
    assert_true(out >= 0);
    unlink(path);
    int in[2];
    assert_int_equal(pipe(in), 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out, 1);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    pid_t pid;
    assert_int_equal(posix_spawnp(&pid, "sh", &fa, &at, argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(in[0]);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    close(in[1]);
    *code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    char *buf = calloc(1, 1 << 16);
    ssize_t n = pread(out, buf, (1 << 16) - 1, 0);
    assert_true(n >= 0);
    close(out);
    return buf;
}

/* Every tricky word, quoted by `quote`, comes back verbatim from a real sh. */
static void check_words_survive(void (*quote)(gp_strbuf *, const char *))
{
    gp_strbuf line = GP_STRBUF_INIT, want = GP_STRBUF_INIT;
    gp_strbuf_puts(&line, "printf '%s\\0'");
    for (size_t i = 0; i < sizeof tricky / sizeof *tricky; i++) {
        gp_strbuf_putc(&line, ' ');
        quote(&line, tricky[i]);
        gp_strbuf_append(&want, tricky[i], strlen(tricky[i]) + 1);
    }
    int code;
    char *out = sh_run(gp_strbuf_cstr(&line), &code);
    assert_int_equal(code, 0);
    assert_memory_equal(out, want.data, want.len);
    free(out);
    gp_strbuf_free(&line);
    gp_strbuf_free(&want);
}

static void words_survive_the_shell(void **state)
{
    (void)state;
    check_words_survive(gp_shquote_append);
}

/* What gpuport shows a user to paste: every word comes back verbatim from a real sh, plain
 * words stay bare, and the shown command is exactly the words (no injected one). */
static void shown_commands_paste_safely(void **state)
{
    (void)state;
    check_words_survive(gp_shquote_display);
    char buf[256];
    assert_string_equal(gp_shquote_cmd(buf, sizeof buf, "ssh", "me@gpu1.lab", "true", NULL),
                        "ssh me@gpu1.lab true");
    assert_string_equal(
        gp_shquote_cmd(buf, sizeof buf, "ssh", "gpu1;touch${IFS}/tmp/x", "true", NULL),
        "ssh 'gpu1;touch${IFS}/tmp/x' true");
    assert_string_equal(gp_shquote_cmd(buf, sizeof buf, "a", "=x", "", NULL), "a '=x' ''");
}

/* A batch job's script, run by sh as the compute node would: the command's words and the
 * exported values arrive verbatim and nothing in them runs; the exit code is the command's. */
static void batch_script_quotes_everything(void **state)
{
    (void)state;
    char dir[] = "/tmp/gp-batch-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char mark[128];
    snprintf(mark, sizeof mark, "%s/injected", dir);
    char envv[400], arg[300];
    snprintf(envv, sizeof envv, "GP_V=$(touch %s)'`touch %s`'", mark, mark);
    snprintf(arg, sizeof arg, "$(touch %s);x", mark);
    char *env[] = {envv};
    char *cmd[] = {"sh", "-c", "printf '%s|%s' \"$GP_V\" \"$1\"; exit 3", "sh", arg, NULL};
    char *script = gp_cluster_batch_script("c1", env, 1, cmd, NULL, ".");
    assert_non_null(script);
    int code;
    char *out = sh_run(script, &code);
    char want[800];
    snprintf(want, sizeof want, "%s|%s", envv + 5, arg);
    assert_string_equal(out, want);
    assert_int_equal(code, 3);
    assert_false(access(mark, F_OK) == 0);
    free(out);
    free(script);
    rmdir(dir);
}

static void join_and_rsync_quoting(void **state)
{
    (void)state;
    gp_strbuf sb = GP_STRBUF_INIT;
    char *const words[] = {"a", "b c", "d'e", NULL};
    gp_shquote_join(&sb, words);
    assert_string_equal(gp_strbuf_cstr(&sb), "'a' 'b c' 'd'\\''e'");
    gp_strbuf_reset(&sb);
    gp_shquote_rsync_append(&sb, "/tmp/it's here");
    assert_string_equal(gp_strbuf_cstr(&sb), "'/tmp/it''s here'");
    gp_strbuf_free(&sb);
}

static void script_line_passes_arguments(void **state)
{
    (void)state;
    char *const args[] = {"x y", "$z", "'q'", NULL};
    char *line = gp_ssh_script_line("printf '[%s]' \"$@\"; printf '%s' \"$#\"", args);
    int code;
    char *out = sh_run(line, &code);
    assert_int_equal(code, 0);
    assert_string_equal(out, "[x y][$z]['q']3");
    free(out);
    free(line);
}

/* The wrapper, run here by sh as the remote login shell would: folder, env, exit codes. */
static void wrapper_runs_in_the_folder(void **state)
{
    (void)state;
    char dir[] = "/tmp/gp-wrap-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[64];
    snprintf(sub, sizeof sub, "%s/s d", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    char *env[] = {"GP_A=one $two", "GP_B=*"};
    char *argv[] = {"sh", "-c",    "printf '%s|%s|%s|' \"$GP_A\" \"$GP_B\" \"$1\"; pwd; exit 5",
                    "sh", "arg 1", NULL};
    gp_remote_cmd c = {dir, "s d/", false, env, 2, argv, NULL, NULL, NULL, NULL};
    char *line = gp_remote_run_line(&c);
    int code;
    char *out = sh_run(line, &code);
    char want[256];
    snprintf(want, sizeof want, "one $two|*|arg 1|%s\n", sub);
    assert_string_equal(out, want);
    assert_int_equal(code, 5);
    free(out);
    free(line);

    char *missing[] = {"gp-surely-not-a-command", NULL};
    gp_remote_cmd m = {dir, "", false, NULL, 0, missing, NULL, NULL, NULL, NULL};
    line = gp_remote_run_line(&m);
    out = sh_run(line, &code);
    assert_int_equal(code, 127);
    free(out);
    free(line);

    char *t[] = {"true", NULL};
    gp_remote_cmd nodir = {dir, "nope/", false, NULL, 0, t, NULL, NULL, NULL, NULL};
    line = gp_remote_run_line(&nodir);
    out = sh_run(line, &code);
    assert_int_equal(code, 2);
    free(out);
    free(line);
    rmdir(sub);
    rmdir(dir);
}

/* A run's mark is older than what the command writes at once, and newer than what was there. */
static void wrapper_marks_the_run(void **state)
{
    (void)state;
    char dir[] = "/tmp/gp-mark-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char old[128], cmd[512];
    snprintf(old, sizeof old, "%s/old.txt", dir);
    FILE *f = fopen(old, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "echo new >new.txt; K=.gpuport-remote/runs/m1.start; "
             "printf '%%s|%%s' \"$(find new.txt -newer $K)\" \"$(find old.txt -newer $K)\"");
    char *argv[] = {"sh", "-c", cmd, NULL};
    gp_remote_cmd c = {dir, "", false, NULL, 0, argv, NULL, NULL, "m1", NULL};
    char *line = gp_remote_run_line(&c);
    int code;
    char *out = sh_run(line, &code);
    assert_int_equal(code, 0);
    assert_string_equal(out, "new.txt|");
    free(out);
    free(line);
    char rm[256];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    assert_int_equal(system(rm), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(words_survive_the_shell),
        cmocka_unit_test(shown_commands_paste_safely),
        cmocka_unit_test(batch_script_quotes_everything),
        cmocka_unit_test(join_and_rsync_quoting),
        cmocka_unit_test(script_line_passes_arguments),
        cmocka_unit_test(wrapper_runs_in_the_folder),
        cmocka_unit_test(wrapper_marks_the_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
