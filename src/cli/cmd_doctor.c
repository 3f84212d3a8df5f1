/* cmd_doctor.c — `gpuport doctor`: what this machine can do for GPU work, what is broken, and
 * the exact fix. Options and output are described in docs/doctor.md; the work is in
 * src/doctor/ (gp_doctor_report_json), shared with `freeze` and `remote`. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "doctor/doctor.h"
#include "doctor/report.h"
#include "util/json.h"

static void doctor_usage(void)
{
    printf("usage: gpuport doctor [--json] [--deep] [--verbose] [--root DIR]\n"
           "\n"
           "Diagnoses this machine for GPU development: the NVIDIA driver, CUDA toolkit, PyTorch,\n"
           "Metal/MPS on a Mac, Visual Studio and WSL on Windows, OpenCL and the CPU. Prints what\n"
           "the machine can do, then every check with its status; each warning and failure comes\n"
           "with the fix for this machine.\n"
           "\n"
           "  --json       print the gpuport.doctor/1 JSON report\n"
           "  --deep       also start the drivers: cuInit(0) and the CUDA devices, and the\n"
           "               OpenCL platforms and devices (slower)\n"
           "  --verbose    also list the checks that did not apply (skip)\n"
           "  --root DIR   read the machine under DIR instead of / (a copied or fixture tree;\n"
           "               one holding Windows/System32 is a Windows machine's system drive,\n"
           "               with the tools' outputs in DIR/captured/; also $GPUPORT_SYSROOT)\n"
           "  --help, --version\n"
           "\n"
           "Driver libraries are looked for first in $GPUPORT_DRIVER_PATH (colon-separated).\n"
           "Exit status: 0 nothing failed, 1 a check failed, 2 usage error, 3 internal error.\n");
}

static int doctor_run(int argc, char **argv)
{
    static const struct option opts[] = {{"json", no_argument, NULL, 'j'},
                                         {"deep", no_argument, NULL, 'd'},
                                         {"verbose", no_argument, NULL, 'v'},
                                         {"root", required_argument, NULL, 'r'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    gp_doctor_options o = {NULL, false, NULL};
    bool json = false, verbose = false;
    int c;
    while ((c = getopt_long(argc, argv, "hv", opts, NULL)) != -1) {
        switch (c) {
        case 'j':
            json = true;
            break;
        case 'd':
            o.deep = true;
            break;
        case 'v':
            verbose = true;
            break;
        case 'r':
            o.root = optarg;
            break;
        case 'h':
            doctor_usage();
            return gp_cli_finish("doctor", GP_EXIT_OK);
        case 'V':
            gp_cli_print_version();
            return gp_cli_finish("doctor", GP_EXIT_OK);
        default:
            return gp_cli_bad_option("doctor", argv, "hv");
        }
    }
    if (optind < argc)
        return gp_cli_usage_error("doctor", "unexpected argument '%s'", argv[optind]);
    const char *root = o.root ? o.root : getenv("GPUPORT_SYSROOT");
    if (root && *root) {
        struct stat st;
        if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode))
            return gp_cli_input_error("doctor", "%s: the root is not a directory", root);
        if (strlen(root) >= 400)
            return gp_cli_input_error("doctor", "%s: the root path is too long", root);
    }
    bool failed = false;
    cJSON *rep = gp_doctor_report_json(&o, &failed);
    if (!rep) return gp_cli_internal_error("doctor", "out of memory building the report");
    int rc = 0;
    if (json)
        rc = gp_json_print(stdout, rep);
    else
        gp_report_print(stdout, rep, verbose);
    cJSON_Delete(rep);
    if (rc != 0) return gp_cli_internal_error("doctor", "cannot write the JSON report");
    return gp_cli_finish("doctor", failed ? GP_EXIT_FAIL : GP_EXIT_OK);
}

const gp_command gp_cmd_doctor = {
    "doctor", "what this machine can do for GPU work, what is broken, and the fix", doctor_run};
