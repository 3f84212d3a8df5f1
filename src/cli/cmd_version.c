/* cmd_version.c — `gpuport version`: the CLI's and the library's versions (also as JSON). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "gp_version.h"
#include "gpuport/gpuport.h"
#include "util/json.h"

static void version_usage(void)
{
    printf("usage: gpuport version [--json]\n\nPrints the versions of the gpuport CLI and of the "
           "libgpuport it runs with.\n");
}

static int version_run(int argc, char **argv)
{
    bool json;
    int parsed = gp_cli_parse_plain("version", argc, argv, version_usage, &json);
    if (parsed >= 0) return parsed;
    if (optind < argc)
        return gp_cli_usage_error("version", "unexpected argument '%s'", argv[optind]);
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
