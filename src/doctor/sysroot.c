/* sysroot.c — see sysroot.h. The resolver walks one component at a time so that an absolute
 * symlink inside a machine tree points into the tree, never at the host. */
#include "doctor/sysroot.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fs.h"

void gp_copy(char *dst, size_t n, const char *src)
{
    if (n == 0) return;
    if (!src) src = "";
    size_t l = strlen(src);
    if (l >= n) l = n - 1;
    memcpy(dst, src, l);
    dst[l] = '\0';
}

void gp_copy_line(char *dst, size_t n, const char *src)
{
    if (n == 0) return;
    if (!src) src = "";
    while (*src == ' ' || *src == '\t')
        src++;
    size_t l = strcspn(src, "\r\n");
    while (l > 0 && (src[l - 1] == ' ' || src[l - 1] == '\t'))
        l--;
    if (l >= n) l = n - 1;
    memcpy(dst, src, l);
    dst[l] = '\0';
}

void gp_path_dirname(char *p)
{
    char *s = strrchr(p, '/');
    if (!s) {
        strcpy(p, ".");
        return;
    }
    if (s == p)
        p[1] = '\0';
    else
        *s = '\0';
}

bool gp_sysroot_init(gp_sysroot *sr, const char *root)
{
    memset(sr, 0, sizeof *sr);
    if (!root || !*root || strcmp(root, "/") == 0) {
        sr->host = true;
        return true;
    }
    size_t l = strlen(root);
    while (l > 1 && root[l - 1] == '/')
        l--;
    if (l >= sizeof sr->root) return false;
    memcpy(sr->root, root, l);
    sr->root[l] = '\0';
    return true;
}

/* The host path of `p` taken literally: symlinks in it would be followed by the host. */
static bool raw_path(const gp_sysroot *sr, const char *p, char *out, size_t n)
{
    /* a Windows path of the machine itself ("C:\\Program Files\\...") is used as it is */
    bool drive = ((p[0] | 0x20) >= 'a' && (p[0] | 0x20) <= 'z') && p[1] == ':';
    int w = snprintf(out, n, "%s%s%s", sr->root, p[0] == '/' || (sr->host && drive) ? "" : "/", p);
    return w >= 0 && (size_t)w < n;
}

static bool raw_readlink(const gp_sysroot *sr, const char *p, char *out, size_t n)
{
    char hp[PATH_MAX];
    if (n == 0 || !raw_path(sr, p, hp, sizeof hp)) return false;
    ssize_t l = readlink(hp, out, n - 1);
    if (l < 0) return false;
    out[l] = '\0';
    return true;
}

static bool raw_lexists(const gp_sysroot *sr, const char *p)
{
    char hp[PATH_MAX];
    struct stat st;
    return raw_path(sr, p, hp, sizeof hp) && lstat(hp, &st) == 0;
}

static bool sysroot_walk(const gp_sysroot *sr, const char *p, char *out, size_t n, bool partial);

bool gp_sysroot_path(const gp_sysroot *sr, const char *p, char *out, size_t n)
{
    /* Under a root, resolve symlinks inside it first, so that an absolute link in a machine
     * tree never lands on the host's file. A symlink loop fails like a missing file. */
    char real[PATH_MAX];
    if (sr->host || p[0] != '/') return raw_path(sr, p, out, n);
    return sysroot_walk(sr, p, real, sizeof real, true) && raw_path(sr, real, out, n);
}

char *gp_sysroot_read(const gp_sysroot *sr, const char *p, size_t cap, size_t *len, char *err,
                      size_t errlen)
{
    char hp[PATH_MAX];
    if (!gp_sysroot_path(sr, p, hp, sizeof hp)) {
        snprintf(err, errlen, "%s: cannot be resolved (a symlink loop, or too long)", p);
        return NULL;
    }
    char e[PATH_MAX + 128];
    char *t = gp_read_file(hp, cap, true, len, e, sizeof e);
    if (!t) {
        /* name the machine path, not the fixture's host path */
        const char *colon = strstr(e, ": ");
        snprintf(err, errlen, "%s: %s", p, colon ? colon + 2 : e);
    }
    return t;
}

static bool sysroot_stat(const gp_sysroot *sr, const char *p, struct stat *st)
{
    char hp[PATH_MAX];
    return gp_sysroot_path(sr, p, hp, sizeof hp) && stat(hp, st) == 0;
}

bool gp_sysroot_exists(const gp_sysroot *sr, const char *p)
{
    struct stat st;
    return sysroot_stat(sr, p, &st);
}

bool gp_sysroot_is_dir(const gp_sysroot *sr, const char *p)
{
    struct stat st;
    return sysroot_stat(sr, p, &st) && S_ISDIR(st.st_mode);
}

bool gp_sysroot_is_file(const gp_sysroot *sr, const char *p)
{
    struct stat st;
    return sysroot_stat(sr, p, &st) && S_ISREG(st.st_mode);
}

bool gp_sysroot_is_exec(const gp_sysroot *sr, const char *p)
{
    struct stat st;
    return sysroot_stat(sr, p, &st) && S_ISREG(st.st_mode) && (st.st_mode & 0111);
}

int gp_sysroot_access(const gp_sysroot *sr, const char *p, int mode)
{
    char hp[PATH_MAX];
    if (!gp_sysroot_path(sr, p, hp, sizeof hp)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return access(hp, mode);
}

DIR *gp_sysroot_opendir(const gp_sysroot *sr, const char *p)
{
    char hp[PATH_MAX];
    if (!gp_sysroot_path(sr, p, hp, sizeof hp)) return NULL;
    return opendir(hp);
}

bool gp_sysroot_readlink(const gp_sysroot *sr, const char *p, char *out, size_t n)
{
    if (sr->host || p[0] != '/') return raw_readlink(sr, p, out, n);
    /* the folders above the link resolve inside the root; the link itself is read */
    char dir[PATH_MAX], real[PATH_MAX];
    gp_copy(dir, sizeof dir, p);
    const char *base = strrchr(p, '/') + 1;
    gp_path_dirname(dir);
    if (!gp_sysroot_resolve(sr, dir, real, sizeof real)) return raw_readlink(sr, p, out, n);
    char full[PATH_MAX];
    int w = snprintf(full, sizeof full, "%s/%s", strcmp(real, "/") ? real : "", base);
    if (w < 0 || (size_t)w >= sizeof full) return false;
    return raw_readlink(sr, full, out, n);
}

/* Walks `p` one component at a time, following symlinks inside the root. When a component
 * is missing, `partial` still succeeds with the resolved prefix plus the rest as written:
 * a path with no symlink left for the host to follow. */
static bool sysroot_walk(const gp_sysroot *sr, const char *p, char *out, size_t n, bool partial)
{
    char todo[PATH_MAX], done[PATH_MAX] = "";
    int links = 0;
    if (snprintf(todo, sizeof todo, "%s", p) >= (int)sizeof todo || p[0] != '/') return false;
    char *cur = todo;
    while (*cur) {
        while (*cur == '/')
            cur++;
        if (!*cur) break;
        size_t l = strcspn(cur, "/");
        char comp[NAME_MAX + 1];
        if (l > NAME_MAX) return false;
        memcpy(comp, cur, l);
        comp[l] = '\0';
        cur += l;
        if (strcmp(comp, ".") == 0) continue;
        if (strcmp(comp, "..") == 0) {
            char *s = strrchr(done, '/');
            if (s) *s = '\0';
            continue;
        }
        size_t dl = strlen(done);
        if (dl + 1 + l + 1 > sizeof done) return false;
        char next[PATH_MAX];
        memcpy(next, done, dl);
        next[dl] = '/';
        memcpy(next + dl + 1, comp, l + 1);
        char target[PATH_MAX];
        if (raw_readlink(sr, next, target, sizeof target)) {
            if (++links > 40) return false;
            char rest[PATH_MAX];
            int w = snprintf(rest, sizeof rest, "%s%s", target, cur);
            if (w < 0 || (size_t)w >= sizeof rest) return false;
            if (target[0] == '/') done[0] = '\0';
            memcpy(todo, rest, (size_t)w + 1);
            cur = todo;
            continue;
        }
        if (!raw_lexists(sr, next)) {
            if (!partial) return false;
            int w = snprintf(out, n, "%s%s", next, cur);
            return w >= 0 && (size_t)w < n;
        }
        memcpy(done, next, strlen(next) + 1);
    }
    if (!done[0]) strcpy(done, "/");
    if (strlen(done) >= n) return false;
    strcpy(out, done);
    return true;
}

bool gp_sysroot_resolve(const gp_sysroot *sr, const char *p, char *out, size_t n)
{
    return sysroot_walk(sr, p, out, n, false);
}

bool gp_sysroot_which(const gp_sysroot *sr, const char *name, const char *path_env, char *out,
                      size_t n)
{
    if (!path_env) return false;
    const char *s = path_env;
    while (*s) {
        size_t l = strcspn(s, ":");
        if (l > 0 && s[0] == '/' && l < PATH_MAX - 64) {
            char cand[PATH_MAX];
            snprintf(cand, sizeof cand, "%.*s/%s", (int)l, s, name);
            if (gp_sysroot_is_exec(sr, cand)) {
                gp_copy(out, n, cand);
                return true;
            }
        }
        s += l;
        if (*s == ':') s++;
    }
    return false;
}
