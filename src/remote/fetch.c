/* fetch.c — see fetch.h. The remote side only lists (its shell expands the globs); we check
 * every listed path before anything is copied — a path from the remote side is outside data —
 * and rsync copies exactly that list into the run's fresh folder. */
#include "remote/fetch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "remote/selfexe.h"
#include "remote/sync.h"
#include "remote/worktree.h"
#include "util/fs.h"
#include "util/term.h"

#define FETCH_LIST_CAP (64u << 20)

/* $1 folder, $2 subfolder, $3 the run's mark ("" none: every match counts as this run's), $4 1 to
 * remove the mark once listed, then the globs. Field splitting off (IFS empty), pathname expansion
 * on; a folder that matches is listed file by file. Prints, NUL-separated, "/p" before each glob's
 * matches and "/f" (newer than the mark: this run wrote it) or "/s" (older: stale) before each
 * match. Exit 4 when the mark is gone. */
static const char fetch_list_sh[] =
    "K=; if [ -n \"$3\" ]; then K=$(cd -- \"$1\" 2>/dev/null && pwd)/" GP_REMOTE_META_DIR
    "/runs/$3.start; [ -f \"$K\" ] || { echo \"the run's mark $K is missing\" >&2; exit 4; }; fi; "
    "r=$4; cd -- \"$1/$2\" 2>/dev/null || { echo \"no folder $1/$2\" >&2; exit 3; }; shift 4; "
    "IFS=; "
    "for g in \"$@\"; do printf '/p\\0'; for f in $g; do case $f in -*) f=./$f;; esac; "
    "if [ -d \"$f\" ] && [ ! -L \"$f\" ]; then if [ -n \"$K\" ]; then "
    "find \"$f\" \\( -type f -o -type l \\) -newer \"$K\" -exec printf '/f\\0%s\\0' {} + ; "
    "find \"$f\" \\( -type f -o -type l \\) ! -newer \"$K\" -exec printf '/s\\0%s\\0' {} + ; "
    "else find \"$f\" \\( -type f -o -type l \\) -exec printf '/f\\0%s\\0' {} + ; fi; "
    "elif [ -e \"$f\" ] || [ -L \"$f\" ]; then "
    "if [ -z \"$K\" ] || [ -n \"$(find \"$f\" -prune -newer \"$K\")\" ]; then t=f; else t=s; fi; "
    "printf '/%s\\0%s\\0' \"$t\" \"$f\"; fi; done; done; [ -z \"$K\" ] || [ \"$r\" != 1 ] || rm -f "
    "-- \"$K\"";

int gp_remote_fetch_split(const char *text, size_t len, size_t n_globs, gp_strbuf *fresh,
                          gp_strbuf *stale, size_t *per_glob)
{
    size_t glob = 0;
    gp_strbuf *to = NULL;
    for (size_t i = 0; i < n_globs; i++)
        per_glob[i] = 0;
    for (size_t off = 0; off < len;) {
        const char *p = text + off;
        size_t n = strnlen(p, len - off);
        off += n + 1;
        if (off > len) return -1; /* the last entry lacks its NUL: the answer was cut short */
        if (n == 2 && p[0] == '/' && p[1] == 'p') {
            if (++glob > n_globs) return -1;
            to = NULL;
        } else if (n == 2 && p[0] == '/' && (p[1] == 'f' || p[1] == 's')) {
            if (glob == 0 || to) return -1;
            to = p[1] == 'f' ? fresh : stale;
        } else {
            if (!to) return -1; /* a path needs its mark */
            gp_strbuf_append(to, p, n + 1);
            if (to == fresh) per_glob[glob - 1]++;
            to = NULL;
        }
    }
    return to || glob != n_globs ? -1 : 0;
}

static int fetch_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

long gp_remote_fetch_parse(const char *text, size_t len, gp_strbuf *out, char *bad, size_t badlen)
{
    size_t count = 0;
    const char **v = NULL;
    for (size_t off = 0; off < len;) {
        const char *p = text + off;
        size_t n = strnlen(p, len - off);
        off += n + 1;
        if (n == 0) continue;
        if (off > len) { /* the last entry lacks its NUL: the answer was cut short */
            snprintf(bad, badlen, "(a truncated list)");
            free(v);
            return -1;
        }
        while (n > 2 && p[0] == '.' && p[1] == '/')
            p += 2, n -= 2;
        if (!gp_worktree_path_safe(p)) {
            snprintf(bad, badlen, "%.*s", (int)(n > 200 ? 200 : n), p);
            for (char *c = bad; *c; c++)
                if ((unsigned char)*c < 0x20) *c = '?';
            free(v);
            return -1;
        }
        const char **nv = realloc(v, (count + 1) * sizeof *v);
        if (!nv) {
            free(v);
            out->failed = true;
            return -1;
        }
        v = nv;
        v[count++] = p;
    }
    if (count) qsort(v, count, sizeof *v, fetch_cmp);
    long kept = 0;
    for (size_t i = 0; i < count; i++) {
        if (i > 0 && strcmp(v[i], v[i - 1]) == 0) continue;
        gp_strbuf_puts(out, v[i]);
        gp_strbuf_putc(out, '\0');
        kept++;
    }
    free(v);
    return kept;
}

static int fetch_lost_or(gp_ssh *s, int code, const char *what, const char *detail, char *msg,
                         size_t msglen)
{
    if (gp_proc_interrupted()) {
        snprintf(msg, msglen, "interrupted during %s", what);
        return 128 + gp_proc_interrupted();
    }
    if (!gp_ssh_alive(s)) {
        snprintf(msg, msglen, "connection to %s lost during %s", s->name, what);
        return 3;
    }
    snprintf(msg, msglen, "%s on %s failed (exit %d): %s", what, s->name, code,
             detail && *detail ? detail : "no message");
    return 2;
}

static void fetch_chomp(char *e)
{
    size_t n = e ? strlen(e) : 0;
    while (n && (e[n - 1] == '\n' || e[n - 1] == '\r'))
        e[--n] = '\0';
}

/* Lists what matched on the remote side: this run's files into `files` (their count in *count),
 * the stale ones (older than the run's mark) into `stale` (*n_stale), and for each glob how many
 * of this run's files it matched into per_glob. */
static int fetch_list(gp_ssh *s, const gp_remote_fetch_job *job, gp_strbuf *files, long *count,
                      gp_strbuf *stale, long *n_stale, size_t *per_glob, char *msg, size_t msglen)
{
    gp_argv a = {0};
    gp_argv_push(&a, job->dir);
    gp_argv_push(&a, job->prefix);
    gp_argv_push(&a, job->mark ? job->mark : "");
    gp_argv_push(&a, job->keep_mark ? "0" : "1");
    for (size_t i = 0; i < job->n_globs; i++)
        gp_argv_push(&a, job->globs[i]);
    char *out = NULL, *eout = NULL, why[512];
    size_t len = 0;
    int code = a.failed ? -1
                        : gp_ssh_script(s, fetch_list_sh, a.v, NULL, FETCH_LIST_CAP, &out, &len,
                                        &eout, why, sizeof why);
    gp_argv_free(&a);
    fetch_chomp(eout);
    int rc = 0;
    gp_strbuf fresh = GP_STRBUF_INIT, old = GP_STRBUF_INIT;
    if (code < 0) {
        snprintf(msg, msglen, "cannot run ssh: %s", why);
        rc = 3;
    } else if (code == 3) {
        snprintf(msg, msglen, "nothing to fetch from %s: %s (run with --sync first)", s->name,
                 eout ? eout : "");
        rc = 2;
    } else if (code == 4) {
        snprintf(msg, msglen,
                 "nothing fetched from %s: %s, so no file there can be told to be this run's "
                 "(something removed it during the run)",
                 s->name, eout ? eout : "");
        rc = 2;
    } else if (code != 0) {
        rc = fetch_lost_or(s, code, "listing the files to fetch", eout, msg, msglen);
    } else {
        char bad[256] = "(a malformed list)";
        *count = *n_stale = -1;
        if (gp_remote_fetch_split(out, len, job->n_globs, &fresh, &old, per_glob) == 0) {
            *count = gp_remote_fetch_parse(fresh.data, fresh.len, files, bad, sizeof bad);
            if (*count >= 0)
                *n_stale = gp_remote_fetch_parse(old.data, old.len, stale, bad, sizeof bad);
        }
        if (*count < 0 || *n_stale < 0) {
            if (files->failed || stale->failed || fresh.failed || old.failed)
                snprintf(msg, msglen, "out of memory reading the file list; nothing fetched");
            else if (len >= FETCH_LIST_CAP)
                snprintf(msg, msglen,
                         "the patterns match more than %u MiB of file names on %s; "
                         "narrow them; nothing fetched",
                         FETCH_LIST_CAP >> 20, s->name);
            else
                snprintf(msg, msglen, "%s answered an unusable path ('%s'); nothing fetched",
                         s->name, bad);
            rc = 2;
        }
    }
    gp_strbuf_free(&fresh);
    gp_strbuf_free(&old);
    free(out);
    free(eout);
    return rc;
}

/* Names what this run did not write: each stale match (not fetched) and each glob that matched
 * none of this run's files. Returns how many such problems there are. */
static size_t fetch_report_missing(gp_ssh *s, const gp_remote_fetch_job *job,
                                   const gp_strbuf *stale, long n_stale, const size_t *per_glob)
{
    size_t shown = 0, problems = 0;
    for (size_t off = 0; off < stale->len; off += strlen(stale->data + off) + 1, shown++) {
        if (shown == 10) {
            fprintf(stderr, "gpuport remote: ... and %ld more files older than this run\n",
                    n_stale - 10);
            break;
        }
        fprintf(stderr,
                "gpuport remote: error: %s%s on %s was not written by this run (it is older "
                "than the run's start): not fetched\n",
                job->prefix, stale->data + off, s->name);
    }
    problems += (size_t)n_stale;
    for (size_t i = 0; i < job->n_globs; i++)
        if (per_glob[i] == 0) {
            fprintf(stderr,
                    "gpuport remote: error: --fetch %s: no file on %s written by this run "
                    "matches it\n",
                    job->globs[i], s->name);
            problems++;
        }
    return problems;
}

static int fetch_copy(gp_ssh *s, const gp_remote_fetch_job *job, const char *dest,
                      const gp_strbuf *files, char *msg, size_t msglen)
{
    char *list = gp_path_join(s->rundir, "fetch-list");
    char *shell = gp_ssh_rsync_shell(s);
    int rc = 0;
    if (!list || !shell ||
        gp_write_file_atomic(list, files->data ? files->data : "", files->len, msg, msglen)) {
        if (!list || !shell) snprintf(msg, msglen, "out of memory");
        free(list);
        free(shell);
        return 3;
    }
    gp_argv a = {0};
    gp_argv_push(&a, "rsync");
    gp_argv_push(&a, "-lpt");
    gp_argv_push(&a, "-s");
    gp_argv_push(&a, "--from0");
    gp_argv_push(&a, "--files-from=-");
    gp_argv_push(&a, "-e");
    gp_argv_push(&a, shell);
    gp_argv_pushf(&a, "%s:%s/%s", s->target, job->dir, job->prefix);
    gp_argv_pushf(&a, "%s/", dest);
    char *eout = NULL, why[512];
    int code = a.failed ? -1
                        : gp_proc_capture(a.v, list, s->rundir, 64 * 1024, NULL, NULL, &eout, why,
                                          sizeof why);
    gp_argv_free(&a);
    fetch_chomp(eout);
    if (code < 0) {
        snprintf(msg, msglen, "cannot run rsync (%s): install rsync 3.1 or newer", why);
        rc = 2;
    } else if (code != 0) {
        const char *last = eout ? strrchr(eout, '\n') : NULL;
        rc = fetch_lost_or(s, code, "the fetch (rsync); some files may have been copied",
                           last ? last + 1 : eout, msg, msglen);
    }
    unlink(list);
    free(list);
    free(shell);
    free(eout);
    return rc;
}

int gp_remote_fetch(gp_ssh *s, const gp_remote_fetch_job *job, size_t *n, size_t *missing,
                    char *msg, size_t msglen)
{
    *n = 0;
    if (missing) *missing = 0;
    gp_strbuf files = GP_STRBUF_INIT, stale = GP_STRBUF_INIT;
    long count = 0, n_stale = 0;
    size_t *per_glob = calloc(job->n_globs + 1, sizeof *per_glob);
    int rc =
        per_glob ? fetch_list(s, job, &files, &count, &stale, &n_stale, per_glob, msg, msglen) : 3;
    if (!per_glob) snprintf(msg, msglen, "out of memory");
    if (rc == 0 && job->mark) {
        size_t k = fetch_report_missing(s, job, &stale, n_stale, per_glob);
        if (missing) *missing = k;
    }
    char *dest = rc == 0 ? gp_path_join(job->local_root, job->prefix) : NULL;
    if (rc == 0 && count == 0) {
        if (!job->quiet)
            fprintf(stderr, "gpuport remote: warning: nothing on %s matched the --fetch patterns\n",
                    s->name);
    } else if (rc == 0 && !dest) {
        snprintf(msg, msglen, "out of memory");
        rc = 3;
    } else if (rc == 0 && gp_mkdir_p(dest, 0755) != 0) {
        snprintf(msg, msglen, "%s: cannot create the folder: %s", dest, strerror(errno));
        rc = 2;
    } else if (rc == 0) {
        gp_term_progress("fetching %ld files from %s", count, s->name);
        rc = fetch_copy(s, job, dest, &files, msg, msglen);
        gp_term_progress_done();
        if (rc == 0) {
            *n = (size_t)count;
            if (!job->quiet)
                fprintf(stderr, "gpuport remote: fetched %ld file%s from %s into %s\n", count,
                        count == 1 ? "" : "s", s->name, dest);
        }
    }
    free(dest);
    free(per_glob);
    gp_strbuf_free(&files);
    gp_strbuf_free(&stale);
    return rc;
}

/* --- the freeze manifests ---------------------------------------------------------------- */

/* $1 folder, $2 gpuport, $3 number of NAME=VALUE words (the run's --env), those words, then the
 * arguments: the manifest describes the environment the command ran in. */
static const char freeze_remote_sh[] =
    "d=$1; g=$2; n=$3; shift 3; "
    "while [ \"$n\" -gt 0 ]; do export \"$1\" || exit 2; shift; n=$((n-1)); done; "
    "cd -- \"$d\" 2>/dev/null || :; exec \"$g\" \"$@\"";

static void freeze_write(const char *folder, const char *file, const char *text, size_t len,
                         const char *who)
{
    char *p = gp_path_join(folder, file), err[512];
    if (p && gp_write_file_atomic(p, text, len, err, sizeof err) == 0)
        fprintf(stderr, "gpuport remote: recorded the freeze manifest of %s (%s)\n", who, file);
    else
        fprintf(stderr, "gpuport remote: freeze manifest of %s not recorded: %s\n", who,
                p ? err : "out of memory");
    free(p);
}

int gp_remote_freeze_local(const char *tmpdir, const char *folder)
{
    char *const args[] = {"freeze", "--json", NULL};
    char *out = NULL, *eout = NULL, why[512];
    size_t len = 0;
    int unknown = 0, ok = 0;
    int code = gp_self_run(tmpdir, args, 16u << 20, &out, &len, &eout, &unknown, why, sizeof why);
    fetch_chomp(eout);
    if (unknown)
        fprintf(stderr, "gpuport remote: freeze manifest not recorded: this gpuport has no "
                        "`freeze`\n");
    else if (code < 0)
        fprintf(stderr, "gpuport remote: freeze manifest not recorded: %s\n", why);
    else if (code != 0)
        fprintf(stderr,
                "gpuport remote: freeze manifest not recorded: `gpuport freeze` exited %d: "
                "%s\n",
                code, eout ? eout : "");
    else {
        freeze_write(folder, "gpuport-freeze.local.json", out, len, "this machine");
        ok = 1;
    }
    free(out);
    free(eout);
    return ok;
}

/* Why the remote side recorded no manifest, from gpuport freeze's exit code and stderr. */
static void freeze_remote_failed(const char *name, const char *gpuport, int code, const char *eout)
{
    if (code == 127)
        fprintf(stderr,
                "gpuport remote: freeze manifest of %s not recorded: gpuport is not "
                "installed there (no '%s' on its PATH); install it there or give its path to "
                "'gpuport remote add' with --gpuport (and --replace)\n",
                name, gpuport);
    else if (code == 2 && eout && strstr(eout, "unknown command"))
        fprintf(stderr,
                "gpuport remote: freeze manifest of %s not recorded: the gpuport there "
                "has no `freeze`\n",
                name);
    else
        fprintf(stderr,
                "gpuport remote: freeze manifest of %s not recorded: `gpuport freeze` "
                "exited %d there: %s\n",
                name, code, eout && *eout ? eout : "no message");
}

int gp_remote_freeze_remote(gp_ssh *s, const char *gpuport, const char *dir, char *const *env,
                            size_t n_env, const char *folder)
{
    gp_argv a = {0};
    gp_argv_push(&a, dir);
    gp_argv_push(&a, gpuport);
    gp_argv_pushf(&a, "%zu", n_env);
    for (size_t i = 0; i < n_env; i++)
        gp_argv_push(&a, env[i]);
    gp_argv_push(&a, "freeze");
    gp_argv_push(&a, "--json");
    char *out = NULL, *eout = NULL, why[512];
    size_t len = 0;
    int ok = 0;
    int code = a.failed ? -1
                        : gp_ssh_script(s, freeze_remote_sh, a.v, NULL, 16u << 20, &out, &len,
                                        &eout, why, sizeof why);
    if (a.failed) snprintf(why, sizeof why, "out of memory");
    gp_argv_free(&a);
    fetch_chomp(eout);
    if (code < 0)
        fprintf(stderr, "gpuport remote: freeze manifest of %s not recorded: %s\n", s->name, why);
    else if (code != 0)
        freeze_remote_failed(s->name, gpuport, code, eout);
    else {
        freeze_write(folder, "gpuport-freeze.remote.json", out, len, s->name);
        ok = 1;
    }
    free(out);
    free(eout);
    return ok;
}

static char *freeze_read_part(const char *base, const char *ext, size_t cap, size_t *len)
{
    gp_strbuf p = GP_STRBUF_INIT;
    gp_strbuf_printf(&p, "%s%s", base, ext);
    char err[512];
    char *t = p.failed ? NULL : gp_read_file(gp_strbuf_cstr(&p), cap, true, len, err, sizeof err);
    if (!p.failed) unlink(gp_strbuf_cstr(&p));
    gp_strbuf_free(&p);
    return t;
}

int gp_remote_freeze_adopt(const char *name, const char *gpuport, const char *base,
                           const char *folder)
{
    size_t len = 0;
    char *json = freeze_read_part(base, ".json", 16u << 20, &len);
    char *rc = freeze_read_part(base, ".rc", 64, NULL);
    char *eout = freeze_read_part(base, ".err", 64 * 1024, NULL);
    int ok = 0;
    int code = rc ? atoi(rc) : -1;
    fetch_chomp(eout);
    if (!rc)
        fprintf(stderr,
                "gpuport remote: freeze manifest of %s not recorded: the job ended before it "
                "could record one\n",
                name);
    else if (code != 0 || !json)
        freeze_remote_failed(name, gpuport, code, eout);
    else {
        freeze_write(folder, "gpuport-freeze.remote.json", json, len, name);
        ok = 1;
    }
    free(json);
    free(rc);
    free(eout);
    return ok;
}
