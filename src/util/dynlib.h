/* dynlib.h — loading shared libraries at run time: dlopen on POSIX (dynlib_posix.c),
 * LoadLibraryEx on Windows (dynlib_win.c). GPU runtimes are never linked, always loaded. */
#ifndef GP_UTIL_DYNLIB_H
#define GP_UTIL_DYNLIB_H

#include <stddef.h>

/* Opens `name` (a bare file name, searched the platform's way, or a path), every symbol bound
 * now and none made global. NULL on failure, with the reason in gp_dl_error(). On Windows a
 * path is UTF-8, and the folder of a library given by path is searched for the libraries it
 * needs (LOAD_WITH_ALTERED_SEARCH_PATH), as its installer expects. */
void *gp_dl_open(const char *name);
/* The address of `symbol` in `lib`, NULL when it is not exported (and gp_dl_error() says so). */
void *gp_dl_sym(void *lib, const char *symbol);
void gp_dl_close(void *lib);
/* This thread's last gp_dl_open/gp_dl_sym failure as text naming the file, "" when none. */
const char *gp_dl_error(void);
/* The file that the library holding `addr` (a function or object in it) was loaded from, into
 * buf; 0, or -1 when that cannot be told. */
int gp_dl_path_of(const void *addr, char *buf, size_t cap);

/* How this platform names a shared library: "lib" "so" (Linux), "lib" "dylib" (macOS), ""
 * "dll" (Windows). */
extern const char gp_dl_prefix[];
extern const char gp_dl_suffix[];

#endif
