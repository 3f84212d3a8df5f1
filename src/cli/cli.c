/* cli.c — see cli.h. */
#include "cli/cli.h"

#include <errno.h>
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
