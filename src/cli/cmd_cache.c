/* cmd_cache.c — `gpuport cache info|clear`: where compiled kernels are kept, how many and how
 * big, and emptying the folder (only gpuport's own entries are removed). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "gpuport/gpuport.h"
#include "util/json.h"

static void cache_usage(void)
{
    printf("usage: gpuport cache info [--json]\n       gpuport cache clear [--json]\n\n"
           "The kernel cache keeps compiled kernels so that later runs skip the compiler. Its\n"
           "folder: $GPUPORT_CACHE_DIR, else $XDG_CACHE_HOME/gpuport or ~/.cache/gpuport\n"
           "(~/Library/Caches/gpuport on macOS).\n\n"
           "  info    the folder, the number of entries and their size\n"
           "  clear   removes every entry (files gpuport did not write are left alone)\n"
           "  --json  one JSON object (schema gpuport.cache/1)\n\n"
           "Exit codes: 0 done, 2 usage, 3 the folder could not be read or emptied.\n");
}

static int cache_run(int argc, char **argv)
{
    bool json;
    int parsed = gp_cli_parse_plain("cache", argc, argv, cache_usage, &json);
    if (parsed >= 0) return parsed;
    if (optind != argc - 1)
        return gp_cli_usage_error("cache", optind >= argc ? "say info or clear"
                                                          : "one action: info or clear");
    const char *action = argv[optind];
    bool clear = !strcmp(action, "clear");
    if (!clear && strcmp(action, "info") != 0)
        return gp_cli_usage_error("cache", "unknown action '%s' (use info or clear)", action);
    char dir[4096];
    if (gp_cache_get_dir(dir, sizeof dir, NULL) != GP_OK)
        return gp_cli_internal_error("cache", "%s", gp_last_error());
    uint64_t entries = 0, bytes = 0;
    if (gp_cache_stats(&entries, &bytes) != GP_OK)
        return gp_cli_internal_error("cache", "%s", gp_last_error());
    if (clear && gp_cache_clear() != GP_OK)
        return gp_cli_internal_error("cache", "%s", gp_last_error());
    if (json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "schema", "gpuport.cache/1");
        cJSON_AddStringToObject(o, "action", action);
        cJSON_AddStringToObject(o, "dir", dir);
        cJSON_AddNumberToObject(o, clear ? "removed_entries" : "entries", (double)entries);
        cJSON_AddNumberToObject(o, clear ? "removed_bytes" : "bytes", (double)bytes);
        int rc = gp_json_print(stdout, o);
        cJSON_Delete(o);
        if (rc != 0) return gp_cli_internal_error("cache", "cannot render JSON");
    } else if (clear) {
        printf("removed %llu entries (%llu bytes) from %s\n", (unsigned long long)entries,
               (unsigned long long)bytes, dir);
    } else {
        printf("folder:  %s\nentries: %llu\nbytes:   %llu\n", dir, (unsigned long long)entries,
               (unsigned long long)bytes);
    }
    return gp_cli_finish("cache", GP_EXIT_OK);
}

const gp_command gp_cmd_cache = {"cache", "show or clear the compiled-kernel cache", cache_run};
