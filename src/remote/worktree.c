/* worktree.c — see worktree.h. git is run without a shell (posix_spawnp); its NUL-separated
 * output keeps file names with spaces or newlines intact. */
#include "remote/worktree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
