/* win.h — private to the Windows side of the portability layer (*_win.c): UTF-8 <-> UTF-16 at
 * the system calls, long paths, and system error codes as text. gpuport's strings are UTF-8
 * everywhere; only these functions see wide strings. */
#ifndef GP_UTIL_WIN_H
#define GP_UTIL_WIN_H
#if defined(_WIN32)

#include <stddef.h>
#include <windows.h>

/* A heap UTF-16 copy of UTF-8 `s` (free() it); NULL when `s` is not UTF-8 or on ENOMEM. */
wchar_t *gp_win_wide(const char *s);
/* A heap UTF-16 path for the file APIs: separators made '\\', and a path as long as MAX_PATH or
 * longer made absolute with the \\?\ prefix, which lifts the 260-character limit. */
wchar_t *gp_win_path(const char *path);
/* A heap UTF-8 copy of UTF-16 `w` (free() it); NULL on ENOMEM. */
char *gp_win_utf8(const wchar_t *w);
/* The system's words for error `code` (from GetLastError), without the trailing newline. */
void gp_win_error_text(DWORD code, char *buf, size_t cap);
/* errno for a GetLastError code, for functions that report like POSIX ones. */
int gp_win_errno(DWORD code);

#endif
#endif
