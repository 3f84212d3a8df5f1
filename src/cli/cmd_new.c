/* cmd_new.c — `gpuport new NAME [--python]`: a project that builds and runs unchanged on a CUDA
 * machine, a Mac and a CPU-only box. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "remote/selfexe.h"
#include "scaffold/scaffold.h"
#include "util/json.h"
#include "util/shquote.h"

static const char new_usage[] =
    "usage: gpuport new NAME [--python] [--dir DIR] [--json]\n"
    "\n"
    "Writes the project NAME (in ./NAME, or DIR): a CMake project with its kernel in gpuport's\n"
    "portable dialect (kernels/saxpy.gpk), C host code that runs it on the best device of the\n"
    "machine and says why that one (src/main.c), tests on that device and on the CPU, a "
    ".gitignore,\n"
    "and a README with the two commands that build, run and test it. It builds unchanged on a\n"
    "Linux machine with an NVIDIA GPU, on an Apple Silicon Mac and on a CPU-only box.\n"
    "\n"
    "  --python    also python/run.py and a pytest test: the same kernel from Python with numpy\n"
    "  --dir DIR   write into DIR instead of ./NAME (DIR must not exist)\n"
    "  --json      print what was written as JSON (schema gpuport.new/1)\n"
    "  -h, --help  this help;  --version  the version\n"
    "\n"
    "Exit codes: 0 written, 2 bad name or the folder exists (nothing is written), 3 internal "
    "error.\n";

static int new_run(int argc, char **argv)
{
    enum { OPT_PYTHON = 256, OPT_DIR, OPT_JSON, OPT_VERSION };
    static const struct option opts[] = {
        {"python", no_argument, NULL, OPT_PYTHON},   {"dir", required_argument, NULL, OPT_DIR},
        {"json", no_argument, NULL, OPT_JSON},       {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION}, {NULL, 0, NULL, 0}};
    bool python = false, json = false;
    const char *dir = NULL;
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_PYTHON:
            python = true;
            break;
        case OPT_DIR:
            dir = optarg;
            break;
        case OPT_JSON:
            json = true;
            break;
        case 'h':
            printf("%s", new_usage);
            return gp_cli_finish("new", GP_EXIT_OK);
        case OPT_VERSION:
            return gp_cli_print_version();
        default:
            return gp_cli_bad_option("new", argv, "h");
        }
    }
    if (argc - optind != 1)
        return gp_cli_usage_error("new", "which project name? (gpuport new NAME)");
    const char *name = argv[optind];
    if (!gp_scaffold_name_ok(name))
        return gp_cli_usage_error("new",
                                  "'%s' is not a usable project name: start with a letter, then "
                                  "letters, digits, '_' or '-' (at most 64)",
                                  name);
    if (!dir) dir = name;
    char err[1024];
    if (gp_scaffold_write(dir, name, python, err, sizeof err) != 0)
        return gp_cli_input_error("new", "%s", err);
    /* the first cmake must find gpuport: name the package that came with this executable */
    char *exe = gp_self_exe(), hint[4200];
    gp_scaffold_package_hint(exe, hint, sizeof hint);
    free(exe);
    char *qhint = gp_shell_quote(hint), *qdir = gp_shell_quote(dir), configure[4400];
    if (!qhint || !qdir) {
        free(qhint);
        free(qdir);
        return gp_cli_internal_error("new", "out of memory");
    }
    snprintf(configure, sizeof configure, "cmake -S . -B build%s%s", hint[0] ? " " : "",
             hint[0] ? qhint : "");
    if (json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "schema", "gpuport.new/1");
        cJSON_AddStringToObject(o, "name", name);
        cJSON_AddStringToObject(o, "dir", dir);
        cJSON_AddBoolToObject(o, "python", python);
        cJSON_AddStringToObject(o, "configure", configure);
        gp_json_print(stdout, o);
        cJSON_Delete(o);
    } else {
        printf("wrote %s/ (%s)\n\nnext:\n  cd %s\n  %s && cmake --build build && ./build/%s\n", dir,
               python ? "C and Python" : "C", qdir, configure, name);
    }
    free(qhint);
    free(qdir);
    return gp_cli_finish("new", GP_EXIT_OK);
}

const gp_command gp_cmd_new = {
    "new", "write a project skeleton that builds on CUDA, Metal, OpenCL and the CPU", new_run};
