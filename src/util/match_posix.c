/* match_posix.c — see match.h: the C library's fnmatch and glob. */
#if !defined(_WIN32)
#include "util/match.h"

#include <fnmatch.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

int gp_fnmatch(const char *pattern, const char *string, int flags)
{
    return fnmatch(pattern, string, (flags & GP_FNM_PATHNAME) ? FNM_PATHNAME : 0);
}

int gp_glob(const char *pattern, char ***paths, size_t *count)
{
    *paths = NULL;
    *count = 0;
    glob_t g;
    memset(&g, 0, sizeof g);
    int rc = glob(pattern, 0, NULL, &g);
    if (rc == GLOB_NOMATCH) {
        globfree(&g);
        return 0;
    }
    if (rc != 0) {
        globfree(&g);
        return -1;
    }
    char **v = calloc(g.gl_pathc ? g.gl_pathc : 1, sizeof *v);
    for (size_t i = 0; v && i < g.gl_pathc; i++) {
        if (!(v[i] = strdup(g.gl_pathv[i]))) {
            gp_glob_free(v, i);
            v = NULL;
        }
    }
    size_t n = g.gl_pathc;
    globfree(&g);
    if (!v) return -1;
    *paths = v;
    *count = n;
    return 0;
}

void gp_glob_free(char **paths, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(paths[i]);
    free(paths);
}
#endif
