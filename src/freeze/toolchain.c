/* toolchain.c — the compilers a run's native code may have been built with. Their versions exist
 * nowhere but in their own `--version` output, so each found on PATH is run once (no shell). */
#include <stdlib.h>
#include <string.h>

#include "freeze/collect.h"
#include "util/spawn.h"

char *gp_freeze_tool_version(const char *prog, const char *flag, const char *pick)
{
    char *argv[] = {(char *)prog, (char *)flag, NULL};
    gp_spawn_result r;
    char err[256];
    if (gp_spawn_capture(argv, NULL, 10.0, 64 * 1024, &r, err, sizeof err) != 0) return NULL;
    char *line = NULL;
    if (r.exit_code == 0) {
        const char *text = r.out_len ? r.out : r.err;
        const char *p = text;
        while (p && *p) {
            const char *e = strchr(p, '\n');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            if (len) {
                char *cand = strndup(p, len);
                if (cand && (!pick || strstr(cand, pick))) {
                    line = cand;
                    break;
                }
                free(cand);
            }
            p = e ? e + 1 : NULL;
        }
    }
    gp_spawn_result_free(&r);
    return line;
}

cJSON *gp_freeze_compilers(void)
{
    static const struct {
        const char *name, *flag, *pick;
    } tools[] = {
        {"cc", "--version", NULL},       {"c++", "--version", NULL},
        {"clang", "--version", NULL},    {"nvcc", "--version", "release"},
        {"gfortran", "--version", NULL},
    };
    cJSON *list = cJSON_CreateObject();
    const char *cc = getenv("CC");
    if (cc && *cc && !strchr(cc, ' ')) {
        char *v = gp_freeze_tool_version(cc, "--version", NULL);
        if (v) cJSON_AddStringToObject(list, "$CC", v);
        free(v);
    }
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
        char *v = gp_freeze_tool_version(tools[i].name, tools[i].flag, tools[i].pick);
        if (v) cJSON_AddStringToObject(list, tools[i].name, v);
        free(v);
    }
    return list;
}
