/* fs_posix.c — see fs.h: the mapping primitives with mmap and madvise. */
#if !defined(_WIN32)
#include "util/fs.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>

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
#endif
