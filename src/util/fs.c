/* fs.c — see fs.h. Every read is bounded; every error names the path. */
#include "util/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if !defined(_WIN32)
#include <dirent.h>
#include <unistd.h>
#endif

/* The same file: device and inode. Windows' C runtime fills in neither (st_ino is 0, and fstat's
 * st_dev is not stat's), so there only the kind of file can be compared. */
#if defined(_WIN32)
#define FS_SAME_FILE(a, b) (((a).st_mode & S_IFMT) == ((b).st_mode & S_IFMT))
#else
#define FS_SAME_FILE(a, b) ((a).st_dev == (b).st_dev && (a).st_ino == (b).st_ino)
#endif

static void fs_err(char *err, size_t errlen, const char *path, const char *reason)
{
    if (err && errlen) snprintf(err, errlen, "%s: %s", path, reason);
}

const char *gp_file_kind(mode_t mode)
{
    if (S_ISREG(mode)) return "a regular file";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISLNK(mode)) return "a symbolic link";
    return "a special file";
}

static bool fs_kind_ok(mode_t mode, int flags)
{
    return S_ISREG(mode) || ((flags & GP_OPEN_DIR_OK) && S_ISDIR(mode));
}

static void fs_kind_err(char *err, size_t errlen, const char *path, mode_t mode, int flags)
{
    char why[96];
    snprintf(why, sizeof why, "is %s, not a regular file%s", gp_file_kind(mode),
             flags & GP_OPEN_DIR_OK ? " or a directory" : "");
    fs_err(err, errlen, path, why);
}

int gp_open_regular(const char *path, int flags, struct stat *st, char *err, size_t errlen)
{
    /* Look before opening: opening a device can have effects of its own (a tape rewinds, a
     * terminal becomes the controlling one) and opening a FIFO blocks until a writer comes. */
    struct stat before, after;
    int r = (flags & GP_OPEN_NOFOLLOW) ? lstat(path, &before) : stat(path, &before);
    if (r != 0) {
        fs_err(err, errlen, path, strerror(errno));
        return -1;
    }
    if (!fs_kind_ok(before.st_mode, flags)) {
        fs_kind_err(err, errlen, path, before.st_mode, flags);
        return -1;
    }
    int oflags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
    if (flags & GP_OPEN_NOFOLLOW) oflags |= O_NOFOLLOW;
    int fd = open(path, oflags);
    if (fd < 0) {
        fs_err(err, errlen, path, errno == ELOOP ? "is a symbolic link" : strerror(errno));
        return -1;
    }
    /* The path may have been replaced between the look and the open: judge what was opened. */
    if (fstat(fd, &after) != 0) {
        fs_err(err, errlen, path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!fs_kind_ok(after.st_mode, flags) || !FS_SAME_FILE(after, before)) {
        if (!fs_kind_ok(after.st_mode, flags))
            fs_kind_err(err, errlen, path, after.st_mode, flags);
        else
            fs_err(err, errlen, path, "was replaced while it was being opened");
        close(fd);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl != -1) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    if (st) *st = after;
    return fd;
}

char *gp_read_file(const char *path, size_t cap, bool truncate_ok, size_t *len, char *err,
                   size_t errlen)
{
    struct stat st;
    int fd = gp_open_regular(path, 0, &st, err, errlen);
    if (fd < 0) return NULL;
    if (!truncate_ok && st.st_size > 0 && (uint64_t)st.st_size > (uint64_t)cap) {
        char why[96];
        snprintf(why, sizeof why, "file is larger than %zu bytes (%lld bytes)", cap,
                 (long long)st.st_size);
        close(fd);
        fs_err(err, errlen, path, why);
        return NULL;
    }
    size_t size = 0, alloc = 4096;
    char *buf = malloc(alloc + 1);
    if (!buf) {
        close(fd);
        fs_err(err, errlen, path, "out of memory");
        return NULL;
    }
    for (;;) {
        if (size == alloc) {
            if (alloc >= cap + 1) break;
            size_t next = alloc * 2 > cap + 1 ? cap + 1 : alloc * 2;
            char *p = realloc(buf, next + 1);
            if (!p) {
                free(buf);
                close(fd);
                fs_err(err, errlen, path, "out of memory");
                return NULL;
            }
            buf = p;
            alloc = next;
        }
        ssize_t n = read(fd, buf + size, alloc - size);
        if (n < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            free(buf);
            close(fd);
            fs_err(err, errlen, path, strerror(e));
            return NULL;
        }
        if (n == 0) break;
        size += (size_t)n;
    }
    close(fd);
    if (size > cap) {
        if (!truncate_ok) {
            char why[64];
            snprintf(why, sizeof why, "file is larger than %zu bytes", cap);
            free(buf);
            fs_err(err, errlen, path, why);
            return NULL;
        }
        size = cap;
    }
    buf[size] = '\0';
    if (len) *len = size;
    return buf;
}

int gp_map_file(const char *path, gp_mapped_file *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->fd = -1;
    struct stat st;
    int fd = gp_open_regular(path, 0, &st, err, errlen);
    if (fd < 0) return -1;
    if (st.st_size > 0) {
        void *p = gp_map_fd(fd, (size_t)st.st_size);
        if (!p) {
            fs_err(err, errlen, path, strerror(errno));
            close(fd);
            return -1;
        }
        out->data = p;
        out->size = (size_t)st.st_size;
    }
    out->fd = fd;
    return 0;
}

void gp_unmap_file(gp_mapped_file *m)
{
    if (m->data) gp_unmap(m->data, m->size);
    if (m->fd >= 0) close(m->fd);
    m->data = NULL;
    m->size = 0;
    m->fd = -1;
}

char *gp_path_join(const char *a, const char *b)
{
    size_t la = strlen(a);
    while (la > 1 && a[la - 1] == '/')
        la--;
    while (*b == '/')
        b++;
    size_t lb = strlen(b);
    char *p = malloc(la + 1 + lb + 1);
    if (!p) return NULL;
    memcpy(p, a, la);
    size_t k = la;
    if (la && a[la - 1] != '/') p[k++] = '/';
    memcpy(p + k, b, lb);
    p[k + lb] = '\0';
    return p;
}

bool gp_path_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool gp_path_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool gp_path_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

int gp_mkdir_p(const char *path, unsigned mode)
{
    size_t n = strlen(path);
    char *tmp = malloc(n + 1);
    if (!tmp) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(tmp, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (tmp[i] != '/' && tmp[i] != '\0') continue;
        char saved = tmp[i];
        tmp[i] = '\0';
        if (mkdir(tmp, (mode_t)mode) != 0 && errno != EEXIST) {
            int e = errno;
            free(tmp);
            errno = e;
            return -1;
        }
        tmp[i] = saved;
    }
    free(tmp);
    return gp_path_is_dir(path) ? 0 : (errno = ENOTDIR, -1);
}

bool gp_output_taken(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return gp_path_exists(path); /* a dangling link */
    return S_ISREG(st.st_mode) || S_ISDIR(st.st_mode);
}

/* Writes all of data to fd (EINTR retried). 0 or -1 (errno). */
static int fs_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

int gp_write_file_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    /* A device, a FIFO or a socket (`-o /dev/null`, `-o /dev/stdout`) is written in place: the
     * rename below would replace the node itself with a regular file (as root, /dev/null). */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        int fd = open(path, O_WRONLY);
        if (fd < 0 || fs_write_all(fd, data, len) != 0) {
            fs_err(err, errlen, path, strerror(errno));
            if (fd >= 0) close(fd);
            return -1;
        }
        if (close(fd) != 0) {
            fs_err(err, errlen, path, strerror(errno));
            return -1;
        }
        return 0;
    }
#if !defined(_WIN32)
    /* A symbolic link keeps being one: its target is replaced, not the link. */
    char *real = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (real = realpath(path, NULL))) {
        int rc = gp_write_file_atomic(real, data, len, err, errlen);
        free(real);
        return rc;
    }
#endif
    size_t n = strlen(path);
    char *tmp = malloc(n + 32);
    if (!tmp) {
        fs_err(err, errlen, path, "out of memory");
        return -1;
    }
    snprintf(tmp, n + 32, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fs_err(err, errlen, path, strerror(errno));
        free(tmp);
        return -1;
    }
    if (fs_write_all(fd, data, len) != 0) {
        fs_err(err, errlen, path, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    if (close(fd) != 0 || rename(tmp, path) != 0) {
        fs_err(err, errlen, path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

int gp_dir_name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

#if !defined(_WIN32) /* fs_win.c lists a folder with FindFirstFileW */
int gp_dir_names(const char *dir, char ***names, size_t *count, char *err, size_t errlen)
{
    *names = NULL;
    *count = 0;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    char **v = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    errno = 0;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
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
        if (!(v[n] = strdup(e->d_name))) {
            rc = -1;
            break;
        }
        n++;
        errno = 0;
    }
    int read_errno = rc == 0 && !e ? errno : 0;
    closedir(d);
    if (rc != 0 || read_errno) {
        snprintf(err, errlen, "%s: %s", dir, rc != 0 ? "out of memory" : strerror(read_errno));
        gp_dir_names_free(v, n);
        return -1;
    }
    if (n) qsort(v, n, sizeof *v, gp_dir_name_cmp);
    *names = v;
    *count = n;
    return 0;
}
#endif

void gp_dir_names_free(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}
