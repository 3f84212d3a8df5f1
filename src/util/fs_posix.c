/* fs_posix.c — see fs.h: the mapping primitives with mmap and madvise. */
#if !defined(_WIN32)
#include "util/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/sys.h"

int gp_stat_entry(int dfd, const char *name, const char *path, struct stat *st)
{
    (void)path;
    return fstatat(dfd, name, st, AT_SYMLINK_NOFOLLOW);
}

void *gp_map_fd(int fd, size_t len)
{
    void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    return p == MAP_FAILED ? NULL : p;
}

void gp_unmap(const void *p, size_t len)
{
    if (p && len) munmap((void *)p, len);
}

void gp_map_advise(const void *p, size_t len, gp_map_advice advice)
{
    uintptr_t page = gp_page_size(), a = (uintptr_t)p & ~(page - 1), b = (uintptr_t)p + len;
    if (!p || b <= a) return;
    int how = advice == GP_MAP_SEQUENTIAL ? MADV_SEQUENTIAL
              : advice == GP_MAP_RANDOM   ? MADV_RANDOM
                                          : MADV_DONTNEED;
    madvise((void *)a, b - a, how);
}
static const char *gp_dir_writers(mode_t m)
{
    return (m & 022) == 022 ? "group and others" : (m & 020) ? "its group" : "others";
}

/* Owners and mode bits: the folder and each folder above it. */
void gp_dir_untrusted_why(const char *real, char *why, size_t n)
{
    uid_t me = geteuid();
    struct stat st;
    why[0] = '\0';
    if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(why, n, "it is not a folder");
        return;
    }
    if (st.st_uid != me) {
        snprintf(why, n, "it is owned by another user (uid %u; you are %u)", (unsigned)st.st_uid,
                 (unsigned)me);
        return;
    }
    if (st.st_mode & 022) {
        snprintf(why, n, "it is writable by %s (mode %04o)", gp_dir_writers(st.st_mode),
                 (unsigned)(st.st_mode & 07777));
        return;
    }
    /* every folder above: the user's or root's, and not writable by others unless sticky (as
     * /tmp is: there no one may rename or remove what another user owns) */
    char *up = strdup(real);
    if (!up) {
        snprintf(why, n, "out of memory");
        return;
    }
    for (char *slash = strrchr(up, '/'); slash; slash = strrchr(up, '/')) {
        if (slash == up)
            slash[1] = '\0'; /* "/" itself */
        else
            *slash = '\0';
        if (stat(up, &st) != 0) {
            snprintf(why, n, "the folder above it, %s, cannot be read: %s", up, strerror(errno));
            break;
        }
        if (st.st_uid != me && st.st_uid != 0) {
            snprintf(why, n, "the folder above it, %s, is owned by another user (uid %u)", up,
                     (unsigned)st.st_uid);
            break;
        }
        if ((st.st_mode & 022) && !(st.st_mode & S_ISVTX)) {
            snprintf(why, n, "the folder above it, %s, is writable by %s (mode %04o)", up,
                     gp_dir_writers(st.st_mode), (unsigned)(st.st_mode & 07777));
            break;
        }
        if (slash == up) break;
    }
    free(up);
}

void gp_file_untrusted_why(const char *path, char *why, size_t n)
{
    struct stat st;
    const char *w = lstat(path, &st) != 0     ? strerror(errno)
                    : !S_ISREG(st.st_mode)    ? "it is not a regular file"
                    : st.st_uid != geteuid()  ? "it is owned by another user"
                    : (st.st_mode & 022) != 0 ? "it is writable by group or others"
                                              : "";
    snprintf(why, n, "%s", w);
}

#endif
