/* cli.c — see cli.h. */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gp_version.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/term.h"

/* --json was given to the command being run (process-wide: one command runs per process). */
static bool cli_json;

void gp_cli_detect_json(int argc, char **argv)
{
    cli_json = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) break;
        if (strcmp(argv[i], "--json") == 0) cli_json = true;
    }
}

static void cli_json_error(const char *cmd, int code, const char *msg)
{
    if (!cli_json || gp_json_printed_to_stdout()) return;
    cJSON *o = cJSON_CreateObject();
    if (!o) return;
    cJSON_AddStringToObject(o, "schema", "gpuport.error/1");
    cJSON_AddStringToObject(o, "command", cmd);
    cJSON_AddNumberToObject(o, "exit_code", code);
    cJSON_AddStringToObject(o, "error", msg);
    gp_json_print(stdout, o);
    cJSON_Delete(o);
    fflush(stdout);
}

static int cli_vmsg(const char *cmd, int code, const char *what, const char *fmt, va_list ap)
{
    gp_strbuf raw = GP_STRBUF_INIT, shown = GP_STRBUF_INIT;
    gp_strbuf_vprintf(&raw, fmt, ap);
    const char *msg = raw.failed ? "out of memory" : gp_strbuf_cstr(&raw);
    gp_term_escape(&shown, msg, true);
    fprintf(stderr, "gpuport %s: %s%s\n", cmd, what,
            shown.failed ? "out of memory" : gp_strbuf_cstr(&shown));
    if (code == GP_EXIT_INTERNAL) {
        gp_strbuf full = GP_STRBUF_INIT;
        gp_strbuf_printf(&full, "%s%s", what, msg);
        cli_json_error(cmd, code, full.failed ? msg : gp_strbuf_cstr(&full));
        gp_strbuf_free(&full);
    } else {
        cli_json_error(cmd, code, msg);
    }
    gp_strbuf_free(&raw);
    gp_strbuf_free(&shown);
    return code;
}

int gp_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmsg(cmd, GP_EXIT_USAGE, "", fmt, ap);
    va_end(ap);
    fprintf(stderr, "Try 'gpuport %s --help' for more information.\n", cmd);
    return GP_EXIT_USAGE;
}

int gp_cli_input_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmsg(cmd, GP_EXIT_USAGE, "", fmt, ap);
    va_end(ap);
    return GP_EXIT_USAGE;
}

int gp_cli_internal_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmsg(cmd, GP_EXIT_INTERNAL, "internal error: ", fmt, ap);
    va_end(ap);
    return GP_EXIT_INTERNAL;
}

/* Whether `a` is a cluster of short options ("-xz") holding option character c. */
static bool cli_short_has(const char *a, int c)
{
    return a && a[0] == '-' && a[1] && a[1] != '-' && c > 0 && c < 0x100 && strchr(a + 1, c);
}

int gp_cli_bad_option(const char *cmd, char **argv, const char *shortopts)
{
    const char *prev = optind > 0 ? argv[optind - 1] : NULL, *cur = argv[optind];
    /* getopt leaves optind on a cluster it has not finished ("-xz" refused at x) */
    if (cli_short_has(cur, optopt) || cli_short_has(prev, optopt)) {
        const char *at = shortopts ? strchr(shortopts, optopt) : NULL;
        if (at && optopt != ':' && at[1] == ':')
            return gp_cli_usage_error(cmd, "option '-%c' needs a value", optopt);
        return gp_cli_usage_error(cmd, "unknown option '-%c'", optopt);
    }
    if (prev && strncmp(prev, "--", 2) == 0 && prev[2]) {
        int len = (int)strcspn(prev, "=");
        if (optopt == 0) return gp_cli_usage_error(cmd, "unknown option '%.*s'", len, prev);
        /* a known long option: its value is missing, or it takes none */
        if (prev[len] == '=')
            return gp_cli_usage_error(cmd, "option '%.*s' takes no value", len, prev);
        return gp_cli_usage_error(cmd, "option '%s' needs a value", prev);
    }
    return gp_cli_usage_error(cmd, "unknown option '%s'", prev ? prev : "?");
}

int gp_cli_print_version(void)
{
    printf("gpuport %s\n", GP_VERSION_STRING);
    return GP_EXIT_OK;
}

/* The reader of stdout is gone: end as a Unix tool ends there, by the signal and without a
 * word (a pipeline with `set -o pipefail` sees 141, the status of `yes | head`). */
static void cli_end_by_sigpipe(void)
{
#if defined(SIGPIPE) /* Windows has none: a write to a closed pipe fails with EPIPE */
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGPIPE);
    signal(SIGPIPE, SIG_DFL);
    sigprocmask(SIG_UNBLOCK, &s, NULL);
    raise(SIGPIPE);
    _exit(128 + SIGPIPE);
#else
    _exit(GP_EXIT_INTERNAL);
#endif
}

int gp_cli_finish(const char *cmd, int code)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (gp_term_reader_gone(stdout)) cli_end_by_sigpipe();
        fprintf(stderr, "gpuport %s: cannot write the output: %s\n", cmd,
                errno ? strerror(errno) : "write error");
        return GP_EXIT_INTERNAL;
    }
    return code;
}

void gp_cli_getopt_reset(void)
{
    opterr = 0; /* the command prints one message, naming the option (gp_cli_bad_option) */
#if defined(__GLIBC__)
    optind = 0; /* glibc: a full re-initialisation */
#else
    optind = 1;
#endif
#if defined(__APPLE__) || defined(__FreeBSD__)
    extern int optreset;
    optreset = 1;
#endif
}

int gp_cli_parse_plain(const char *cmd, int argc, char **argv, void (*usage)(void), bool *json)
{
    static const struct option opts[] = {{"json", no_argument, NULL, 'j'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    *json = false;
    gp_cli_getopt_reset();
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'j') {
            *json = true;
        } else if (c == 'h') {
            usage();
            return gp_cli_finish(cmd, GP_EXIT_OK);
        } else if (c == 'V') {
            return gp_cli_finish(cmd, gp_cli_print_version());
        } else {
            return gp_cli_bad_option(cmd, argv, "h");
        }
    }
    return -1;
}
