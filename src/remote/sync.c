/* sync.c — see sync.h. Two round trips over the shared connection: one shell script that
 * marks the folder incomplete, reads the previous manifest and widens it to cover every path
 * this sync may touch; then rsync. Only when rsync succeeded does the run wrapper (run.c) cut
 * the manifest to the current list and remove the mark; until then every run warns. */
#include "remote/sync.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "remote/shquote.h"
#include "util/fs.h"
#include "util/term.h"

#define SYNC_MANIFEST_CAP (256u << 20)

/* $1 the folder, $2 the project's id ("": no check). Refuses (exit 5, the owner's id on
 * stderr) a folder whose .gpuport-remote/project names another project, before anything there
 * changes; else marks it as this project's. stdin: the current list. Marks the folder
 * incomplete, keeps the list as manifest.next (the run wrapper adopts it once rsync has
 * succeeded), prints the previous manifest, and widens the manifest to previous + current, so an
 * interrupted sync leaves no file untracked. */
static const char sync_prepare_sh[] =
    "m=$1/" GP_REMOTE_META_DIR "; "
    "if [ -n \"$2\" ] && [ -f \"$m/project\" ]; then o=$(cat -- \"$m/project\") || exit 3; "
    "[ \"$o\" = \"$2\" ] || { printf '%s' \"$o\" >&2; exit 5; }; fi; mkdir -p -- \"$m\" || exit 3; "
    "[ -z \"$2\" ] || printf '%s\\n' \"$2\" > \"$m/project\" || exit 3; "
    ": > \"$m/sync-incomplete\" || exit 3; cat > \"$m/manifest.next\" || exit 3; "
    "if [ -f \"$m/manifest\" ]; then cat -- \"$m/manifest\" || exit 3; "
    "cat -- \"$m/manifest\" \"$m/manifest.next\" > \"$m/manifest.tmp\" || exit 3; "
    "else cp -- \"$m/manifest.next\" \"$m/manifest.tmp\" || exit 3; fi; "
    "mv -f -- \"$m/manifest.tmp\" \"$m/manifest\" || exit 3";

static int sync_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Pointers to each NUL-terminated entry of a list, sorted. */
static const char **sync_index(const char *list, size_t len, size_t *n)
{
    size_t count = 0;
    for (size_t i = 0; list && i < len; i++)
        if (list[i] == '\0') count++;
    const char **v = malloc((count + 1) * sizeof *v);
    if (!v) return NULL;
    size_t k = 0;
    for (size_t off = 0; off < len && k < count;) {
        v[k++] = list + off;
        off += strlen(list + off) + 1;
    }
    qsort(v, k, sizeof *v, sync_cmp);
    *n = k;
    return v;
}

size_t gp_remote_sync_removed(const char *old, size_t old_len, const char *now, size_t now_len,
                              gp_strbuf *out)
{
    size_t n_now = 0, n_old = 0, added = 0;
    const char **idx = sync_index(now, now_len, &n_now);
    /* Sorted, so that repeats (an interrupted sync leaves the manifest with some) go once. */
    const char **olds = idx ? sync_index(old, old_len, &n_old) : NULL;
    if (!idx || !olds) {
        free(idx);
        out->failed = true;
        return 0;
    }
    for (size_t i = 0; i < n_old; i++) {
        const char *p = olds[i];
        if (!*p || (i > 0 && strcmp(p, olds[i - 1]) == 0)) continue;
        if (!gp_worktree_path_safe(p)) continue;
        if (bsearch(&p, idx, n_now, sizeof *idx, sync_cmp)) continue;
        gp_strbuf_puts(out, p);
        gp_strbuf_putc(out, '\0');
        added++;
    }
    free(olds);
    free(idx);
    return added;
}

static int sync_write(const char *path, const gp_strbuf *sb, char *msg, size_t msglen)
{
    return gp_write_file_atomic(path, sb->data ? sb->data : "", sb->len, msg, msglen);
}

static int sync_lost_or(gp_ssh *s, int code, char *msg, size_t msglen, const char *what,
                        const char *detail)
{
    if (gp_proc_interrupted()) {
        snprintf(msg, msglen,
                 "interrupted during %s: the remote folder is marked as incompletely "
                 "synced; run again with --sync",
                 what);
        return 128 + gp_proc_interrupted();
    }
    if (!gp_ssh_alive(s)) {
        snprintf(msg, msglen,
                 "connection to %s lost during %s; the remote folder is marked as "
                 "incompletely synced: run again with --sync",
                 s->name, what);
        return 3;
    }
    snprintf(msg, msglen, "%s on %s failed (exit %d): %s", what, s->name, code,
             detail && *detail ? detail : "no message");
    return 2;
}

static char *sync_last_line(char *text)
{
    if (!text) return NULL;
    size_t n = strlen(text);
    while (n && (text[n - 1] == '\n' || text[n - 1] == '\r'))
        text[--n] = '\0';
    char *nl = strrchr(text, '\n');
    return nl ? nl + 1 : text;
}

static int sync_rsync(gp_ssh *s, const gp_worktree *wt, const char *dir, const char *list_path,
                      char *msg, size_t msglen)
{
    char *shell = gp_ssh_rsync_shell(s);
    gp_argv a = {0};
    gp_argv_push(&a, "rsync");
    gp_argv_push(&a, "-lpt"); /* links, permissions, times; no -r: the list names every file */
    gp_argv_push(&a, "-s");   /* names travel inside the protocol, not through a shell */
    gp_argv_push(&a, "--from0");
    gp_argv_push(&a, "--files-from=-");
    gp_argv_push(&a, "--delete-missing-args");
    gp_argv_push(&a, "-e");
    gp_argv_push(&a, shell ? shell : "");
    gp_argv_pushf(&a, "%s/", wt->root);
    gp_argv_pushf(&a, "%s:%s/", s->target, dir);
    free(shell);
    if (a.failed) {
        gp_argv_free(&a);
        snprintf(msg, msglen, "out of memory");
        return 3;
    }
    char *eout = NULL, why[512];
    int code =
        gp_proc_capture(a.v, list_path, s->rundir, 64 * 1024, NULL, NULL, &eout, why, sizeof why);
    gp_argv_free(&a);
    int rc = 0;
    char *last = sync_last_line(eout);
    if (code < 0) {
        snprintf(msg, msglen, "cannot run rsync (%s): install rsync 3.1 or newer", why);
        rc = 2;
    } else if (code == 24) {
        fprintf(stderr, "gpuport remote: warning: some files vanished while syncing: %s\n",
                last ? last : "");
    } else if (code != 0 && !gp_proc_interrupted() && eout &&
               (strstr(eout, "rsync: command not found") || strstr(eout, "rsync: not found") ||
                code == 127)) {
        snprintf(msg, msglen,
                 "rsync is not installed on %s: install it there (for example "
                 "'sudo apt install rsync'); nothing was synced",
                 s->name);
        rc = 2;
    } else if (code != 0) {
        rc = sync_lost_or(s, code, msg, msglen, "the sync (rsync)", last);
    }
    free(eout);
    return rc;
}

/* Runs sync_prepare_sh with the current list (the file `now_path`) as its stdin; the previous
 * manifest comes back in `old`. */
static int sync_prepare(gp_ssh *s, const char *dir, const char *project, const char *now_path,
                        char **old, size_t *old_len, char *msg, size_t msglen)
{
    char *const args[] = {(char *)dir, (char *)project, NULL};
    char *eout = NULL, why[512];
    int code = gp_ssh_script(s, sync_prepare_sh, args, now_path, SYNC_MANIFEST_CAP, old, old_len,
                             &eout, why, sizeof why);
    int rc = 0;
    if (code < 0) {
        snprintf(msg, msglen, "cannot run ssh: %s", why);
        rc = 3;
    } else if (code == 3) {
        snprintf(msg, msglen, "cannot create or write the folder %s on %s: %s", dir, s->name,
                 sync_last_line(eout));
        rc = 2;
    } else if (code == 5) {
        char *owner = sync_last_line(eout), fix[1024], other[600];
        snprintf(other, sizeof other, "%s-%.8s", dir, project);
        snprintf(msg, msglen,
                 "the folder %s on %s belongs to another project (its id: %.64s, in "
                 "%s/" GP_REMOTE_META_DIR
                 "/project; this project's: %s, git config " GP_WORKTREE_ID_KEY
                 "): nothing was synced or deleted there. Give this project a folder of its own: "
                 "%s (or, if that folder is this project's after all, remove %s/" GP_REMOTE_META_DIR
                 "/project there)",
                 dir, s->name, owner && *owner ? owner : "?", dir, project,
                 gp_shquote_cmd(fix, sizeof fix, "gpuport", "remote", "add", s->name, s->target,
                                "--path", other, "--replace", NULL),
                 dir);
        rc = 2;
    } else if (code != 0) {
        rc = sync_lost_or(s, code, msg, msglen, "preparing the sync", sync_last_line(eout));
    }
    free(eout);
    return rc;
}

int gp_remote_sync(gp_ssh *s, const gp_worktree *wt, const char *dir, const char *project,
                   char *msg, size_t msglen)
{
    gp_strbuf now = GP_STRBUF_INIT, all = GP_STRBUF_INIT;
    char *old = NULL, *list_path = gp_path_join(s->rundir, "sync-list"),
         *now_path = gp_path_join(s->rundir, "sync-now");
    size_t n_files = 0, old_len = 0, n_gone = 0;
    int rc = 0;
    if (!list_path || !now_path) {
        snprintf(msg, msglen, "out of memory");
        rc = 3;
    } else if (gp_worktree_list(wt, s->rundir, &now, &n_files, msg, msglen) != 0) {
        rc = 2;
    } else if (now.failed || sync_write(now_path, &now, msg, msglen) != 0) {
        rc = 3;
    }
    if (rc == 0) {
        gp_term_progress("syncing %zu files to %s:%s", n_files, s->name, dir);
        rc = sync_prepare(s, dir, project, now_path, &old, &old_len, msg, msglen);
    }
    if (rc == 0) {
        /* What to send: every current path, then each path of the last sync that is gone here
         * (rsync --delete-missing-args deletes those there). */
        gp_strbuf_append(&all, now.data ? now.data : "", now.len);
        n_gone = gp_remote_sync_removed(old, old_len, now.data, now.len, &all);
        if (all.failed) {
            snprintf(msg, msglen, "out of memory");
            rc = 3;
        } else if (sync_write(list_path, &all, msg, msglen) != 0) {
            rc = 3;
        }
    }
    if (rc == 0) rc = sync_rsync(s, wt, dir, list_path, msg, msglen);
    /* rsync may finish in the moment after Ctrl-C; the user still asked to stop. */
    if (rc == 0 && gp_proc_interrupted()) rc = sync_lost_or(s, 0, msg, msglen, "the sync", NULL);
    gp_term_progress_done();
    if (rc == 0)
        fprintf(stderr, "gpuport remote: synced %zu %s to %s:%s (%zu removed there)\n", n_files,
                gp_plural(n_files, "file", "files"), s->name, dir, n_gone);
    if (list_path) unlink(list_path);
    if (now_path) unlink(now_path);
    free(list_path);
    free(now_path);
    free(old);
    gp_strbuf_free(&now);
    gp_strbuf_free(&all);
    return rc;
}
