/* test_cli_conventions.c — what src/cli/cli.c gives every command: a closed stdout ends the process
 * by SIGPIPE without a word even when SIGPIPE was ignored (as a command that talks to a child
 * through pipes does), a full disk is still an error; refused options are named once; with --json
 * an error is also one JSON object on stdout, and only when no document came before it; messages
 * have control characters escaped. Each case runs in a child with its own stdout and stderr. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "skip.h"
#include "util/json.h"

typedef struct child {
    int status;
    char out[8192], err[8192];
} child;

static void slurp(int fd, char *buf, size_t cap)
{
    size_t n = 0;
    ssize_t k;
    while (n + 1 < cap && (k = read(fd, buf + n, cap - 1 - n)) > 0)
        n += (size_t)k;
    buf[n] = '\0';
    close(fd);
}

/* Runs fn in a child whose stdout and stderr go to files, and collects both and the status. */
static void run_child(void (*fn)(void), child *c)
{
    char po[] = "/tmp/gp-cli-out-XXXXXX", pe[] = "/tmp/gp-cli-err-XXXXXX";
    int fo = mkstemp(po), fe = mkstemp(pe);
    assert_true(fo >= 0 && fe >= 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fo, 1);
        dup2(fe, 2);
        fn();
        fflush(stdout);
        _exit(0);
    }
    assert_int_equal(waitpid(pid, &c->status, 0), pid);
    lseek(fo, 0, SEEK_SET);
    lseek(fe, 0, SEEK_SET);
    slurp(fo, c->out, sizeof c->out);
    slurp(fe, c->err, sizeof c->err);
    unlink(po);
    unlink(pe);
}

/* stdout is a pipe whose reader is gone; SIGPIPE ignored, as `remote` ignores it for ssh. */
static void closed_pipe_body(void)
{
    int p[2];
    if (pipe(p) != 0) _exit(90);
    close(p[0]);
    dup2(p[1], 1);
    close(p[1]);
    signal(SIGPIPE, SIG_IGN);
    for (int i = 0; i < 20000; i++)
        printf("line %d of a long report\n", i);
    _exit(gp_cli_finish("test", 0));
}

static void closed_stdout_ends_quietly(void **state)
{
    (void)state;
    child c;
    run_child(closed_pipe_body, &c);
    assert_true(WIFSIGNALED(c.status));
    assert_int_equal(WTERMSIG(c.status), SIGPIPE);
    assert_string_equal(c.err, ""); /* no "Broken pipe", no exit 3 */
}

static void full_disk_body(void)
{
    int fd = open("/dev/full", O_WRONLY);
    if (fd < 0) _exit(91);
    dup2(fd, 1);
    printf("the report\n");
    _exit(gp_cli_finish("test", 0));
}

static void full_disk_is_an_error(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0) GP_TEST_SKIP("no /dev/full on this system");
    child c;
    run_child(full_disk_body, &c);
    assert_true(WIFEXITED(c.status));
    assert_int_equal(WEXITSTATUS(c.status), GP_EXIT_INTERNAL);
    assert_non_null(
        strstr(c.err, "gpuport test: cannot write the output: No space left on device"));
}

static char *parse_argv[8];
static int parse_argc;
static const char *parse_short;

static void parse_body(void)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'}, {"cc", required_argument, NULL, 'c'}, {NULL, 0, NULL, 0}};
    gp_cli_detect_json(parse_argc, parse_argv);
    gp_cli_getopt_reset();
    int c;
    while ((c = getopt_long(parse_argc, parse_argv, parse_short, opts, NULL)) != -1)
        if (c == '?') _exit(gp_cli_bad_option("tool", parse_argv, parse_short));
    _exit(0);
}

static void parse(child *c, const char *shortopts, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    parse_argv[0] = "tool";
    for (int i = 0; i < n; i++)
        parse_argv[i + 1] = va_arg(ap, char *);
    va_end(ap);
    parse_argv[n + 1] = NULL;
    parse_argc = n + 1;
    parse_short = shortopts;
    run_child(parse_body, c);
    assert_true(WIFEXITED(c->status));
}

/* One line naming the problem (and the --help hint): getopt says nothing of its own. */
static void expect_once(const child *c, const char *line)
{
    char want[256];
    snprintf(want, sizeof want, "%s\nTry 'gpuport tool --help' for more information.\n", line);
    assert_string_equal(c->err, want);
    assert_int_equal(WEXITSTATUS(c->status), GP_EXIT_USAGE);
}

static void refused_options_are_named_once(void **state)
{
    (void)state;
    child c;
    parse(&c, "hj:", 1, "--bogus");
    expect_once(&c, "gpuport tool: unknown option '--bogus'");
    parse(&c, "hj:", 1, "--bogus=3");
    expect_once(&c, "gpuport tool: unknown option '--bogus'");
    parse(&c, "hj:", 1, "--cc");
    expect_once(&c, "gpuport tool: option '--cc' needs a value");
    parse(&c, "hj:", 1, "--json=yes");
    expect_once(&c, "gpuport tool: option '--json' takes no value");
    parse(&c, "hj:", 1, "-x");
    expect_once(&c, "gpuport tool: unknown option '-x'");
    parse(&c, "hj:", 2, "--json", "-hx");
    expect_once(&c, "gpuport tool: unknown option '-x'");
    parse(&c, "hj:", 1, "-j");
    expect_once(&c, "gpuport tool: option '-j' needs a value");
    assert_string_equal(c.out, ""); /* no --json: nothing on stdout */
}

static void json_error_object(void **state)
{
    (void)state;
    child c;
    parse(&c, "h", 2, "--json", "--bogus");
    expect_once(&c, "gpuport tool: unknown option '--bogus'");
    cJSON *j = cJSON_Parse(c.out);
    assert_non_null(j);
    assert_string_equal(gp_json_str(j, "schema", ""), "gpuport.error/1");
    assert_string_equal(gp_json_str(j, "command", ""), "tool");
    assert_string_equal(gp_json_str(j, "error", ""), "unknown option '--bogus'");
    assert_int_equal(cJSON_GetObjectItem(j, "exit_code")->valueint, 2);
    cJSON_Delete(j);
    /* after "--" the words belong to another program */
    parse(&c, "h", 3, "--bogus", "--", "--json");
    assert_string_equal(c.out, "");
}

static void after_document_body(void)
{
    char *argv[] = {"tool", "--json", NULL};
    gp_cli_detect_json(2, argv);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "schema", "gpuport.tool/1");
    gp_json_print(stdout, doc);
    cJSON_Delete(doc);
    int rc = gp_cli_input_error("tool", "%s: cannot write the report", "out.xml");
    fflush(stdout); /* _exit does not flush, exit() from main would */
    _exit(rc);
}

static void internal_body(void)
{
    char *argv[] = {"tool", "--json", NULL};
    gp_cli_detect_json(2, argv);
    _exit(gp_cli_internal_error("tool", "out of memory"));
}

static void one_document_at_most(void **state)
{
    (void)state;
    child c;
    run_child(after_document_body, &c);
    assert_int_equal(WEXITSTATUS(c.status), GP_EXIT_USAGE);
    assert_string_equal(c.err, "gpuport tool: out.xml: cannot write the report\n");
    cJSON *j = cJSON_Parse(c.out); /* the command's own document, alone */
    assert_non_null(j);
    assert_string_equal(gp_json_str(j, "schema", ""), "gpuport.tool/1");
    cJSON_Delete(j);
    run_child(internal_body, &c);
    assert_int_equal(WEXITSTATUS(c.status), GP_EXIT_INTERNAL);
    j = cJSON_Parse(c.out);
    assert_non_null(j);
    assert_string_equal(gp_json_str(j, "error", ""), "internal error: out of memory");
    assert_int_equal(cJSON_GetObjectItem(j, "exit_code")->valueint, 3);
    cJSON_Delete(j);
}

static void escape_body(void)
{
    char *argv[] = {"tool", "--json", NULL};
    gp_cli_detect_json(2, argv);
    _exit(gp_cli_input_error("tool", "%s: is a named pipe\nsecond line\tend",
                             "evil\033[2J\033]0;title\007.npy"));
}

static void messages_are_escaped(void **state)
{
    (void)state;
    child c;
    run_child(escape_body, &c);
    assert_string_equal(c.err, "gpuport tool: evil\\x1b[2J\\x1b]0;title\\x07.npy: is a named pipe\n"
                               "second line\tend\n");
    assert_null(strchr(c.err, '\033'));
    cJSON *j = cJSON_Parse(c.out); /* JSON keeps the bytes: its own escapes make them safe */
    assert_non_null(j);
    assert_non_null(strstr(gp_json_str(j, "error", ""), "evil\033[2J"));
    cJSON_Delete(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(closed_stdout_ends_quietly),     cmocka_unit_test(full_disk_is_an_error),
        cmocka_unit_test(refused_options_are_named_once), cmocka_unit_test(json_error_object),
        cmocka_unit_test(one_document_at_most),           cmocka_unit_test(messages_are_escaped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
