/* cli.c — see cli.h. */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "gp_version.h"

static void cli_vmsg(const char *cmd, const char *what, const char *fmt, va_list ap)
{
    fprintf(stderr, "gpuport %s: %s", cmd, what);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int gp_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmsg(cmd, "", fmt, ap);
    va_end(ap);
    fprintf(stderr, "Try 'gpuport %s --help' for more information.\n", cmd);
    return GP_EXIT_USAGE;
}

int gp_cli_input_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmsg(cmd, "", fmt, ap);
    va_end(ap);
    return GP_EXIT_USAGE;
}

int gp_cli_internal_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmsg(cmd, "internal error: ", fmt, ap);
    va_end(ap);
    return GP_EXIT_INTERNAL;
}

int gp_cli_print_version(void)
{
    printf("gpuport %s\n", GP_VERSION_STRING);
    return GP_EXIT_OK;
}

int gp_cli_finish(const char *cmd, int code)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "gpuport %s: cannot write the output: %s\n", cmd, strerror(errno));
        return GP_EXIT_INTERNAL;
    }
    return code;
}

void gp_cli_getopt_reset(void)
{
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
            return gp_cli_usage_error(cmd, "unknown option");
        }
    }
    return -1;
}
