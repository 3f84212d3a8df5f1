/* cmd_version.c — `gpuport version`: the CLI's and the library's versions (also as JSON). */
#include <getopt.h>
#include <string.h>

#include "cli/cli.h"
#include "gp_version.h"
#include "gpuport/gpuport.h"
#include "util/json.h"

static int version_run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0}};
    bool json = false;
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'j') json = true;
        else if (c == 'V') return gp_cli_finish("version", gp_cli_print_version());
        else if (c == 'h') {
            printf("usage: gpuport version [--json]\n\nPrints the versions of the gpuport CLI "
                   "and of the libgpuport it runs with.\n");
            return gp_cli_finish("version", GP_EXIT_OK);
        } else
            return gp_cli_usage_error("version", "unknown option");
    }
    if (optind < argc) return gp_cli_usage_error("version", "unexpected argument '%s'", argv[optind]);
    if (json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "schema", "gpuport.version/1");
        cJSON_AddStringToObject(o, "cli", GP_VERSION_STRING);
        cJSON_AddStringToObject(o, "library", gp_version_string());
        int rc = gp_json_print(stdout, o);
        cJSON_Delete(o);
        if (rc != 0) return gp_cli_internal_error("version", "cannot render JSON");
    } else {
        printf("gpuport %s (libgpuport %s)\n", GP_VERSION_STRING, gp_version_string());
    }
    return gp_cli_finish("version", GP_EXIT_OK);
}

const gp_command gp_cmd_version = {"version", "print the versions of the CLI and the library",
                                   version_run};
