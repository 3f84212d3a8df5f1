/* match.h — shell-style wildcards without a shell: fnmatch(3) and glob(3) on POSIX
 * (match_posix.c), the same rules implemented on Windows (match_win.c), which has neither.
 * Patterns are written with '/' on every platform; on Windows '\\' in a path being matched
 * counts as '/'. */
#ifndef GP_UTIL_MATCH_H
#define GP_UTIL_MATCH_H

#include <stddef.h>

/* '*' and '?' do not match '/', as FNM_PATHNAME */
#define GP_FNM_PATHNAME 1

/* 0 when `string` matches `pattern` ('*', '?', '[...]', '[!...]', '\' escapes), else non-zero:
 * fnmatch's contract. */
int gp_fnmatch(const char *pattern, const char *string, int flags);

/* The existing paths that match `pattern`, sorted, in a heap array of heap strings; 0 (also
 * when none match: *count is then 0), -1 on ENOMEM or a read error. */
int gp_glob(const char *pattern, char ***paths, size_t *count);
void gp_glob_free(char **paths, size_t count);

#endif
