/* cmd_mps_check.c — `gpuport mps-check [options] -- python SCRIPT [ARGS]`: which operators and
 * dtypes of a PyTorch program Apple's MPS backend would refuse or run on the CPU. The tracing
 * lives in Python (python/gpuport/mps, it must run inside the program's interpreter), so this
 * command checks the options, finds the gpuport package beside this executable and becomes
 * `PYTHON -m gpuport mps-check OPTIONS -- SCRIPT ARGS` in the program's own interpreter. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(_WIN32)
#include <process.h>
#include <stdint.h>
#endif

#include "cli/cli.h"
#include "remote/selfexe.h"

static const char mps_usage[] =
    "usage: gpuport mps-check [--json] [--as mps|cpu] [--timeout S] [--fallback]\n"
    "                         [--output FILE] -- python SCRIPT [ARGS...]\n"
    "\n"
    "Runs a PyTorch program (a small slice: one batch, one optimizer step) and reports every\n"
    "operator call that would fail on Apple's MPS backend or run on the CPU there, with its\n"
    "dtypes, count and line in your code. Off a Mac the program sees a Mac (mps is available,\n"
    "tensors on mps are computed on the CPU) and the prediction comes from the installed torch's\n"
    "own tables; on a Mac it runs on the device and PyTorch's own fallback messages are kept.\n"
    "\n"
    "  --json          the report as JSON (schema gpuport.mps-check/1)\n"
    "  --as mps|cpu    trace the program's MPS path (default) or its CPU path\n"
    "  --timeout S     stop the program after S seconds and report what was seen\n"
    "  --fallback      judge as if PYTORCH_ENABLE_MPS_FALLBACK=1 were set\n"
    "  --output FILE   also write the JSON report to FILE\n"
    "\n"
    "The interpreter is the program's (python3 when the program is a bare SCRIPT); it needs\n"
    "torch. Exit: 0 ready or runs with CPU fallback, 1 fails (or the program raised),\n"
    "2 bad input. docs/mps-check.md\n";

static bool mps_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The folder holding the gpuport Python package that belongs to this executable: the source
 * tree's python/ beside a build folder, or the installed package around its bundled CLI. */
static char *mps_package_dir(void)
{
    char *self = gp_self_exe();
    if (!self) return NULL;
    char *slash = strrchr(self, '/');
    if (!slash) {
        free(self);
        return NULL;
    }
    *slash = '\0';
    static const char *const rel[] = {"/../python", "/../..", "/../../.."};
    size_t cap = strlen(self) + 64;
    char *dir = malloc(cap), *probe = malloc(cap + 32);
    for (size_t i = 0; dir && probe && i < sizeof rel / sizeof rel[0]; i++) {
        snprintf(dir, cap, "%s%s", self, rel[i]);
        snprintf(probe, cap + 32, "%s/gpuport/mps/cli.py", dir);
        if (mps_file_exists(probe)) {
            free(self);
            free(probe);
            return dir;
        }
    }
    free(self);
    free(dir);
    free(probe);
    return NULL;
}

static void mps_prepend_pythonpath(void)
{
    char *dir = mps_package_dir();
    if (!dir) return; /* an installed package: the interpreter finds it itself */
    const char *old = getenv("PYTHONPATH");
    size_t n = strlen(dir) + (old ? strlen(old) : 0) + 2;
    char *v = malloc(n);
    if (v) {
        snprintf(v, n, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
#if defined(_WIN32)
        _putenv_s("PYTHONPATH", v);
#else
        setenv("PYTHONPATH", v, 1);
#endif
        free(v);
    }
    free(dir);
}

static bool mps_is_python(const char *word)
{
    const char *base = strrchr(word, '/');
    base = base ? base + 1 : word;
    return strncmp(base, "python", 6) == 0;
}

static int mps_run(int argc, char **argv)
{
    enum { OPT_JSON = 256, OPT_AS, OPT_TIMEOUT, OPT_FALLBACK, OPT_OUTPUT, OPT_VERSION };
    static const struct option opts[] = {{"json", no_argument, NULL, OPT_JSON},
                                         {"as", required_argument, NULL, OPT_AS},
                                         {"timeout", required_argument, NULL, OPT_TIMEOUT},
                                         {"fallback", no_argument, NULL, OPT_FALLBACK},
                                         {"output", required_argument, NULL, OPT_OUTPUT},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, OPT_VERSION},
                                         {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_JSON:
        case OPT_FALLBACK:
        case OPT_OUTPUT:
            break;
        case OPT_AS:
            if (strcmp(optarg, "mps") != 0 && strcmp(optarg, "cpu") != 0)
                return gp_cli_usage_error("mps-check", "--as takes mps or cpu, not '%s'", optarg);
            break;
        case OPT_TIMEOUT: {
            char *end = NULL;
            errno = 0;
            double s = strtod(optarg, &end);
            if (errno || end == optarg || *end || !(s > 0))
                return gp_cli_usage_error(
                    "mps-check", "--timeout needs a positive number of seconds, not '%s'", optarg);
            break;
        }
        case 'h':
            printf("%s", mps_usage);
            return gp_cli_finish("mps-check", GP_EXIT_OK);
        case OPT_VERSION:
            return gp_cli_print_version();
        default:
            return gp_cli_bad_option("mps-check", argv, "+h");
        }
    }
    if (optind >= argc)
        return gp_cli_usage_error("mps-check",
                                  "no program given: gpuport mps-check [options] -- python SCRIPT");
    /* PYTHON -m gpuport mps-check OPTIONS -- PROGRAM... (the program without its interpreter) */
    int first = optind;
    const char *python = "python3";
    if (mps_is_python(argv[first])) python = argv[first++];
    if (first >= argc)
        return gp_cli_usage_error("mps-check", "no script given after '%s'", argv[first - 1]);
    size_t n = 0;
    char **args = calloc((size_t)argc + 8, sizeof *args);
    if (!args) return gp_cli_internal_error("mps-check", "out of memory");
    args[n++] = (char *)python;
    args[n++] = "-m";
    args[n++] = "gpuport";
    args[n++] = "mps-check";
    for (int i = 1; i < optind; i++)
        if (strcmp(argv[i], "--") != 0) args[n++] = argv[i];
    args[n++] = "--";
    for (int i = first; i < argc; i++)
        args[n++] = argv[i];
    args[n] = NULL;
    mps_prepend_pythonpath();
    fflush(stdout);
    fflush(stderr);
#if defined(_WIN32)
    intptr_t rc = _spawnvp(_P_WAIT, python, (const char *const *)args);
    if (rc >= 0) {
        free(args);
        return (int)rc;
    }
#else
    execvp(python, args);
#endif
    int e = errno;
    free(args);
    return gp_cli_input_error("mps-check",
                              "%s: cannot run it (%s): install Python 3 with torch, or name the "
                              "interpreter after '--' (gpuport mps-check -- /path/to/python "
                              "SCRIPT)",
                              python, strerror(e));
}

const gp_command gp_cmd_mps_check = {
    "mps-check", "predict which PyTorch operators fail or fall back to the CPU on Apple MPS",
    mps_run};
