/* fs_win.c — see fs.h: the mapping primitives with CreateFileMapping and MapViewOfFile. The
 * mapping object is closed at once: the view keeps it, and the file, alive. "Don't need" is
 * VirtualUnlock on pages that were never locked, which takes them out of the working set.
 * Folders are listed with FindFirstFileExW, in UTF-16, so any name comes back as UTF-8. */
#if defined(_WIN32)
#include "util/fs.h"

#include <errno.h>
#include <io.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <wchar.h>

#include "util/sys.h"
#include "util/win.h"

int gp_stat_entry(int dfd, const char *name, const char *path, struct stat *st)
{
    (void)dfd;
    (void)name;
    return lstat(path, st);
}

void *gp_map_fd(int fd, size_t len)
{
    intptr_t fh = _get_osfhandle(fd);
    if (fh == -1) {
        errno = EBADF;
        return NULL;
    }
    unsigned long long size = len;
    HANDLE m =
        CreateFileMappingW((HANDLE)fh, NULL, PAGE_READONLY, (DWORD)(size >> 32), (DWORD)size, NULL);
    if (!m) {
        errno = gp_win_errno(GetLastError());
        return NULL;
    }
    void *p = MapViewOfFile(m, FILE_MAP_READ, 0, 0, len);
    DWORD code = p ? 0 : GetLastError();
    CloseHandle(m);
    if (!p) errno = gp_win_errno(code);
    return p;
}

void gp_unmap(const void *p, size_t len)
{
    (void)len;
    if (p) UnmapViewOfFile(p);
}

void gp_map_advise(const void *p, size_t len, gp_map_advice advice)
{
    uintptr_t page = gp_page_size(), a = (uintptr_t)p & ~(page - 1), b = (uintptr_t)p + len;
    if (!p || b <= a || advice != GP_MAP_DONTNEED) return;
    VirtualUnlock((void *)a, b - a);
}

int gp_dir_names(const char *dir, char ***names, size_t *count, char *err, size_t errlen)
{
    *names = NULL;
    *count = 0;
    size_t dl = strlen(dir);
    char *pattern = malloc(dl + 3);
    if (!pattern) {
        snprintf(err, errlen, "%s: out of memory", dir);
        return -1;
    }
    memcpy(pattern, dir, dl);
    memcpy(pattern + dl, dl && (dir[dl - 1] == '/' || dir[dl - 1] == '\\') ? "*" : "/*", 3);
    wchar_t *w = gp_win_path(pattern);
    free(pattern);
    WIN32_FIND_DATAW fd;
    HANDLE h = w ? FindFirstFileExW(w, FindExInfoBasic, &fd, FindExSearchNameMatch, NULL, 0)
                 : INVALID_HANDLE_VALUE;
    free(w);
    if (h == INVALID_HANDLE_VALUE) {
        DWORD code = GetLastError();
        /* an existing empty folder has no entries at all; a file is not a folder */
        char why[256];
        gp_win_error_text(code, why, sizeof why);
        snprintf(err, errlen, "%s: %s", dir,
                 code == ERROR_DIRECTORY || code == ERROR_PATH_NOT_FOUND ||
                         code == ERROR_FILE_NOT_FOUND
                     ? (gp_path_is_file(dir) ? "Not a directory" : "No such file or directory")
                     : why);
        return -1;
    }
    char **v = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    do {
        if (wcscmp(fd.cFileName, L".") == 0 || wcscmp(fd.cFileName, L"..") == 0) continue;
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 32;
            char **g = realloc(v, nc * sizeof *g);
            if (!g) {
                rc = -1;
                break;
            }
            v = g;
            cap = nc;
        }
        if (!(v[n] = gp_win_utf8(fd.cFileName))) {
            rc = -1;
            break;
        }
        n++;
    } while (FindNextFileW(h, &fd));
    FindClose(h);
    if (rc != 0) {
        snprintf(err, errlen, "%s: out of memory", dir);
        gp_dir_names_free(v, n);
        return -1;
    }
    if (n) qsort(v, n, sizeof *v, gp_dir_name_cmp);
    *names = v;
    *count = n;
    return 0;
}
#endif
