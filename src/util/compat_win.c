/* compat_win.c — see compat_win.h. */
#if defined(_WIN32)
#include "util/compat_win.h"

#include <stdarg.h>
#include <stdbool.h>
#include <windows.h>

#include "util/sys.h"
#include "util/win.h"

int gp_compat_fcntl(int fd, int cmd, ...)
{
    intptr_t h = _get_osfhandle(fd);
    if (h == -1) {
        errno = EBADF;
        return -1;
    }
    if (cmd == F_GETFD) {
        DWORD flags = 0;
        if (!GetHandleInformation((HANDLE)h, &flags)) return -1;
        return (flags & HANDLE_FLAG_INHERIT) ? 0 : FD_CLOEXEC;
    }
    if (cmd == F_SETFD) {
        va_list ap;
        va_start(ap, cmd);
        int v = va_arg(ap, int);
        va_end(ap);
        return SetHandleInformation((HANDLE)h, HANDLE_FLAG_INHERIT,
                                    (v & FD_CLOEXEC) ? 0 : HANDLE_FLAG_INHERIT)
                   ? 0
                   : -1;
    }
    if (cmd == F_GETFL || cmd == F_SETFL) return 0;
    errno = EINVAL;
    return -1;
}

int gp_compat_lstat(const char *path, struct stat *st)
{
    return stat(path, st);
}

/* Runs a UTF-16 file call on `path`, with errno set from a failed conversion. */
#define GP_WIDE_PATH(w, path, fail)                                                                \
    wchar_t *w = gp_win_path(path);                                                                \
    if (!w) {                                                                                      \
        errno = EINVAL;                                                                            \
        return fail;                                                                               \
    }

int gp_compat_open(const char *path, int flags, ...)
{
    int mode = 0;
    if (flags & _O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, int);
        va_end(ap);
    }
    GP_WIDE_PATH(w, path, -1)
    int fd = _wopen(w, flags | _O_BINARY, mode & (_S_IREAD | _S_IWRITE));
    free(w);
    return fd;
}

FILE *gp_compat_fopen(const char *path, const char *mode)
{
    wchar_t wmode[16];
    size_t n = 0;
    bool binary = false;
    for (const char *m = mode; *m && n + 2 < sizeof wmode / sizeof wmode[0]; m++) {
        if (*m == 'b' || *m == 't') binary = true;
        wmode[n++] = (wchar_t)(unsigned char)*m;
    }
    if (!binary) wmode[n++] = L'b';
    wmode[n] = 0;
    GP_WIDE_PATH(w, path, NULL)
    FILE *f = _wfopen(w, wmode);
    free(w);
    return f;
}

int gp_compat_rename(const char *from, const char *to)
{
    wchar_t *a = gp_win_path(from), *b = gp_win_path(to);
    BOOL ok = a && b && MoveFileExW(a, b, MOVEFILE_REPLACE_EXISTING | MOVEFILE_COPY_ALLOWED);
    DWORD code = ok ? 0 : GetLastError();
    free(a);
    free(b);
    if (ok) return 0;
    errno = code ? gp_win_errno(code) : EINVAL;
    return -1;
}

int gp_compat_unlink(const char *path)
{
    GP_WIDE_PATH(w, path, -1)
    int rc = _wunlink(w);
    free(w);
    return rc;
}

int gp_compat_rmdir(const char *path)
{
    GP_WIDE_PATH(w, path, -1)
    int rc = _wrmdir(w);
    free(w);
    return rc;
}

int gp_compat_remove(const char *path)
{
    GP_WIDE_PATH(w, path, -1)
    DWORD attr = GetFileAttributesW(w);
    int rc = attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_DIRECTORY) ? _wrmdir(w)
                                                                                  : _wunlink(w);
    free(w);
    return rc;
}

int gp_compat_access(const char *path, int mode)
{
    GP_WIDE_PATH(w, path, -1)
    int rc = _waccess(w, mode & 06);
    free(w);
    return rc;
}

#if defined(_FILE_OFFSET_BITS) && _FILE_OFFSET_BITS == 64 && defined(__MINGW32__)
#undef _stat64
int gp_compat_stat64(const char *path, struct _stat64 *st)
{
    GP_WIDE_PATH(w, path, -1)
    /* "C:\\dir\\" is refused by _wstat64: a trailing separator goes, except after "C:" */
    size_t n = wcslen(w);
    while (n > 1 && w[n - 1] == L'\\' && w[n - 2] != L':')
        w[--n] = 0;
    int rc = _wstat64(w, st);
    free(w);
    return rc;
}
#endif

ssize_t gp_compat_readlink(const char *path, char *buf, size_t n)
{
    (void)buf;
    (void)n;
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    errno = EINVAL;
    return -1;
}

#ifndef SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE
#define SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE 0x2
#endif

int gp_compat_symlink(const char *target, const char *link)
{
    wchar_t *t = gp_win_path(target), *l = gp_win_path(link);
    BOOL ok =
        t && l && CreateSymbolicLinkW(l, t, SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE) != 0;
    DWORD code = ok ? 0 : GetLastError();
    free(t);
    free(l);
    if (ok) return 0;
    errno = code == ERROR_PRIVILEGE_NOT_HELD || code == ERROR_INVALID_PARAMETER
                ? EPERM
                : gp_win_errno(code);
    return -1;
}

char *gp_compat_realpath(const char *path, char *resolved)
{
    wchar_t *w = gp_win_path(path);
    if (!w) {
        errno = ENOMEM;
        return NULL;
    }
    HANDLE h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
    free(w);
    if (h == INVALID_HANDLE_VALUE) {
        errno = gp_win_errno(GetLastError());
        return NULL;
    }
    wchar_t buf[32768];
    DWORD n = GetFinalPathNameByHandleW(h, buf, (DWORD)(sizeof buf / sizeof buf[0]),
                                        FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    CloseHandle(h);
    if (n == 0 || n >= sizeof buf / sizeof buf[0]) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    const wchar_t *p = buf;
    wchar_t unc[32768];
    if (wcsncmp(p, L"\\\\?\\UNC\\", 8) == 0) {
        unc[0] = L'\\';
        wcscpy(unc + 1, p + 7);
        p = unc;
    } else if (wcsncmp(p, L"\\\\?\\", 4) == 0) {
        p += 4;
    }
    char *u = gp_win_utf8(p);
    if (!u) {
        errno = ENOMEM;
        return NULL;
    }
    for (char *c = u; *c; c++)
        if (*c == '\\') *c = '/';
    if (!resolved) return u;
    size_t len = strlen(u);
    if (len >= PATH_MAX) {
        free(u);
        errno = ENAMETOOLONG;
        return NULL;
    }
    memcpy(resolved, u, len + 1);
    free(u);
    return resolved;
}

int gp_compat_mkdir(const char *path, int mode)
{
    (void)mode;
    wchar_t *w = gp_win_path(path);
    if (!w) {
        errno = ENOMEM;
        return -1;
    }
    BOOL ok = CreateDirectoryW(w, NULL);
    DWORD code = ok ? 0 : GetLastError();
    free(w);
    if (ok) return 0;
    errno = gp_win_errno(code);
    return -1;
}

char *gp_compat_mkdtemp(char *tmpl)
{
    size_t n = strlen(tmpl);
    if (n < 6 || strcmp(tmpl + n - 6, "XXXXXX") != 0) {
        errno = EINVAL;
        return NULL;
    }
    static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned long long r = (unsigned long long)GetTickCount64() * 6364136223846793005ull ^
                               ((unsigned long long)GetCurrentProcessId() << 20) ^
                               (unsigned long long)attempt * 1442695040888963407ull;
        LARGE_INTEGER c;
        QueryPerformanceCounter(&c);
        r ^= (unsigned long long)c.QuadPart * 0x9E3779B97F4A7C15ull;
        for (int i = 0; i < 6; i++) {
            tmpl[n - 6 + i] = chars[r % 36];
            r /= 36;
        }
        if (gp_compat_mkdir(tmpl, 0700) == 0) return tmpl;
        if (errno != EEXIST) return NULL;
    }
    errno = EEXIST;
    return NULL;
}

int gp_compat_setenv(const char *name, const char *value, int overwrite)
{
    if (!overwrite && getenv(name)) return 0;
    return gp_setenv(name, value);
}

int gp_compat_unsetenv(const char *name)
{
    return gp_setenv(name, NULL);
}

char *gp_compat_strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *p = malloc(len + 1);
    if (!p) return NULL;
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

long gp_compat_sysconf(int name)
{
    switch (name) {
    case _SC_NPROCESSORS_ONLN:
        return (long)gp_cpu_count();
    case _SC_PAGESIZE:
        return (long)gp_page_size();
    case _SC_PHYS_PAGES:
        return (long)(gp_physical_memory() / gp_page_size());
    }
    errno = EINVAL;
    return -1;
}
#endif
