/* win.c — see win.h. */
#if defined(_WIN32)
#include "util/win.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

wchar_t *gp_win_wide(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
    if (n <= 0) return NULL;
    wchar_t *w = malloc((size_t)n * sizeof *w);
    if (!w) return NULL;
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n);
    return w;
}

char *gp_win_utf8(const wchar_t *w)
{
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    if (n <= 0) return NULL;
    char *s = malloc((size_t)n);
    if (!s) return NULL;
    WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
    return s;
}

wchar_t *gp_win_path(const char *path)
{
    wchar_t *w = gp_win_wide(path);
    if (!w) return NULL;
    for (wchar_t *p = w; *p; p++)
        if (*p == L'/') *p = L'\\';
    size_t n = wcslen(w);
    if (n < MAX_PATH - 12 || wcsncmp(w, L"\\\\?\\", 4) == 0) return w;
    DWORD full = GetFullPathNameW(w, 0, NULL, NULL);
    if (full == 0) return w;
    /* \\?\C:\... or \\?\UNC\server\share\... */
    wchar_t *out = malloc(((size_t)full + 8) * sizeof *out);
    if (!out) {
        free(w);
        return NULL;
    }
    wchar_t *body = out + 4;
    wcscpy(out, L"\\\\?\\");
    GetFullPathNameW(w, full, body, NULL);
    if (body[0] == L'\\' && body[1] == L'\\') {
        memmove(out + 8, body + 2, (wcslen(body + 2) + 1) * sizeof *out);
        memcpy(out + 4, L"UNC\\", 4 * sizeof *out);
    }
    free(w);
    return out;
}

void gp_win_error_text(DWORD code, char *buf, size_t cap)
{
    wchar_t *msg = NULL;
    DWORD n = FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                                 FORMAT_MESSAGE_IGNORE_INSERTS,
                             NULL, code, 0, (LPWSTR)&msg, 0, NULL);
    char *u = n && msg ? gp_win_utf8(msg) : NULL;
    if (msg) LocalFree(msg);
    if (u) {
        size_t len = strlen(u);
        while (len &&
               (u[len - 1] == '\n' || u[len - 1] == '\r' || u[len - 1] == ' ' || u[len - 1] == '.'))
            u[--len] = '\0';
        snprintf(buf, cap, "%s (error %lu)", u, (unsigned long)code);
        free(u);
    } else {
        snprintf(buf, cap, "Windows error %lu", (unsigned long)code);
    }
}

int gp_win_errno(DWORD code)
{
    switch (code) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_MOD_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
        return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
        return EACCES;
    case ERROR_ALREADY_EXISTS:
    case ERROR_FILE_EXISTS:
        return EEXIST;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
        return ENOMEM;
    case ERROR_DIRECTORY:
        return ENOTDIR;
    case ERROR_DIR_NOT_EMPTY:
        return ENOTEMPTY;
    case ERROR_BUFFER_OVERFLOW:
    case ERROR_FILENAME_EXCED_RANGE:
        return ENAMETOOLONG;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
        return ENOSPC;
    case ERROR_BROKEN_PIPE:
    case ERROR_NO_DATA:
        return EPIPE;
    default:
        return EIO;
    }
}
#endif
