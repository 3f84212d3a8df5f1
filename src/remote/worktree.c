/* worktree.c — see worktree.h. git is run without a shell (posix_spawnp); its NUL-separated
 * output keeps file names with spaces or newlines intact. */
#include "remote/worktree.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "remote/proc.h"

#define WT_LIST_CAP (256u << 20) /* 256 MiB of file names is far beyond any source tree */

static void wt_chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

int gp_worktree_find(gp_worktree *wt, const char *tmpdir, char *err, size_t errlen)
{
    memset(wt, 0, sizeof *wt);
    char *const argv[] = {"git", "rev-parse", "--show-toplevel", "--show-prefix", NULL};
    char *out = NULL, *eout = NULL;
    char why[512];
    int code = gp_proc_capture(argv, NULL, tmpdir, 1 << 16, &out, NULL, &eout, why, sizeof why);
    if (code < 0) {
        snprintf(err, errlen, "cannot run git (%s): install git", why);
    } else if (code != 0) {
        snprintf(err, errlen,
                 "not inside a git work tree: remote run syncs and fetches relative to one; run "
                 "it from your project's folder (or 'git init' there)");
        code = -1;
    } else {
        char *nl = strchr(out, '\n');
        if (nl) *nl = '\0';
        wt->root = strdup(out);
        wt->prefix = strdup(nl ? nl + 1 : "");
        if (wt->prefix) wt_chomp(wt->prefix);
        const char *slash = wt->root ? strrchr(wt->root, '/') : NULL;
        wt->name = strdup(slash && slash[1] ? slash + 1 : "work");
        if (!wt->root || !wt->prefix || !wt->name || !wt->root[0]) {
            snprintf(err, errlen, "cannot read git's answer about the work tree");
            code = -1;
        }
    }
    free(out);
    free(eout);
    if (code != 0) gp_worktree_free(wt);
    return code == 0 ? 0 : -1;
}

/* A project id of ours or the user's: 1 to 64 of [A-Za-z0-9._-]. */
static bool wt_id_ok(const char *id)
{
    size_t n = strlen(id);
    return n > 0 && n <= 64 &&
           strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n;
}

int gp_worktree_project_id(const gp_worktree *wt, const char *tmpdir, char *id, size_t idlen,
                           char *err, size_t errlen)
{
    char *const get[] = {"git", "-C", wt->root, "config", "--get", GP_WORKTREE_ID_KEY, NULL};
    char *out = NULL, why[512];
    int code = gp_proc_capture(get, NULL, tmpdir, 4096, &out, NULL, NULL, why, sizeof why);
    if (code == 0 && out) {
        wt_chomp(out);
        if (!wt_id_ok(out) || strlen(out) >= idlen) {
            snprintf(err, errlen,
                     "git config %s in %s is '%.64s': a project id is 1 to 64 letters, digits, "
                     "'.', '_' or '-' (remove it with 'git config --unset %s' for a new one)",
                     GP_WORKTREE_ID_KEY, wt->root, out, GP_WORKTREE_ID_KEY);
            free(out);
            return -1;
        }
        snprintf(id, idlen, "%s", out);
        free(out);
        return 0;
    }
    free(out);
    if (code != 1) { /* git config --get exits 1 when the key is not set */
        snprintf(err, errlen, "cannot read git config %s in %s: %s", GP_WORKTREE_ID_KEY, wt->root,
                 code < 0 ? why : "git config failed");
        return -1;
    }
    unsigned char r[16] = {0};
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    bool got = fd >= 0 && read(fd, r, sizeof r) == (ssize_t)sizeof r;
    if (fd >= 0) close(fd);
    if (!got) { /* no random source: the time, the process and the folder still differ */
        unsigned long long v = (unsigned long long)time(NULL) * 1000003u ^ (unsigned)getpid();
        for (const char *p = wt->root; *p; p++)
            v = v * 131u + (unsigned char)*p;
        memcpy(r, &v, sizeof v);
    }
    char hex[33];
    for (size_t i = 0; i < sizeof r; i++)
        snprintf(hex + 2 * i, 3, "%02x", r[i]);
    char *const set[] = {"git", "-C", wt->root, "config", GP_WORKTREE_ID_KEY, hex, NULL};
    code = gp_proc_capture(set, NULL, tmpdir, 4096, NULL, NULL, NULL, why, sizeof why);
    if (code != 0 || idlen <= strlen(hex)) {
        snprintf(err, errlen, "cannot keep the project id in git config %s in %s: %s",
                 GP_WORKTREE_ID_KEY, wt->root, code < 0 ? why : "git config failed");
        return -1;
    }
    snprintf(id, idlen, "%s", hex);
    return 0;
}

void gp_worktree_free(gp_worktree *wt)
{
    free(wt->root);
    free(wt->prefix);
    free(wt->name);
    memset(wt, 0, sizeof *wt);
}

bool gp_worktree_path_safe(const char *p)
{
    if (!*p || p[0] == '/') return false;
    for (const unsigned char *c = (const unsigned char *)p; *c; c++)
        if (*c < 0x20 || *c == 0x7f) return false;
    const char *s = p;
    while (*s) {
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
            return false;
        if (!e) break;
        s = e + 1;
        if (!*s) return false; /* a trailing slash names no file */
    }
    return true;
}

static int wt_git_list(const gp_worktree *wt, const char *tmpdir, const char *which,
                       bool skip_fetched, gp_strbuf *out, size_t *count, char *err, size_t errlen)
{
    char *const argv[] = {"git",
                          "-C",
                          wt->root,
                          "ls-files",
                          "-z",
                          (char *)which,
                          skip_fetched ? "--exclude-standard" : NULL,
                          NULL};
    char *text = NULL, *etext = NULL;
    size_t len = 0;
    int code = gp_proc_capture(argv, NULL, tmpdir, WT_LIST_CAP, &text, &len, &etext, err, errlen);
    if (code != 0) {
        if (code > 0)
            snprintf(err, errlen, "git ls-files failed in %s: %s", wt->root, etext ? etext : "");
        free(text);
        free(etext);
        return -1;
    }
    for (size_t off = 0; off < len;) {
        const char *p = text + off;
        size_t n = strnlen(p, len - off);
        bool skip = skip_fetched && strncmp(p, "remote/", 7) == 0;
        if (n && !skip) {
            gp_strbuf_append(out, p, n);
            gp_strbuf_putc(out, '\0');
            (*count)++;
        }
        off += n + 1;
    }
    free(text);
    free(etext);
    return 0;
}

int gp_worktree_list(const gp_worktree *wt, const char *tmpdir, gp_strbuf *out, size_t *count,
                     char *err, size_t errlen)
{
    *count = 0;
    if (wt_git_list(wt, tmpdir, "--cached", false, out, count, err, errlen) != 0 ||
        wt_git_list(wt, tmpdir, "--others", true, out, count, err, errlen) != 0)
        return -1;
    if (out->failed) {
        snprintf(err, errlen, "out of memory listing the work tree");
        return -1;
    }
    return 0;
}
