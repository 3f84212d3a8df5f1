/* collect.c — see collect.h. gpuport's own files of a Slurm job (.gpuport-remote/runs/ and
 * jobs/ in the remote folder) are fetched like results, into the staging folder, then moved to
 * their names there (or read and removed) and deleted on the remote side once they arrived. */
#include "remote/collect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "remote/fetch.h"
#include "remote/runs.h"
#include "remote/sync.h"
#include "util/fs.h"
#include "util/strbuf.h"

const char *gp_remote_up(const char *here, char *buf, size_t len)
{
    size_t n = 0;
    if (len) buf[0] = '\0';
    for (const char *p = here ? here : ""; *p; p++)
        if (*p == '/' && n + 4 <= len) {
            memcpy(buf + n, "../", 4);
            n += 3;
        }
    return buf;
}

void gp_remote_record_job(cJSON *rec, const gp_slurm_job *j)
{
    cJSON *o = cJSON_GetObjectItemCaseSensitive(rec, "job");
    if (!cJSON_IsObject(o) || !j->known) return;
    const char *k[] = {"id", "state", "reason", "node", "partition"};
    const char *v[] = {j->id, j->state, j->reason, j->node, j->partition};
    for (int i = 0; i < 5; i++)
        cJSON_ReplaceItemInObjectCaseSensitive(o, k[i], cJSON_CreateString(v[i]));
}

/* Moves <staging>/<from> to <staging>/<to> and removes the folders left empty on the way. */
static void collect_move(const char *staging, const char *from, const char *to)
{
    char *a = gp_path_join(staging, from), *b = gp_path_join(staging, to);
    if (a && b && gp_path_exists(a)) rename(a, b);
    free(a);
    free(b);
}

static void collect_rmdir(const char *staging, const char *sub)
{
    gp_strbuf p = GP_STRBUF_INIT;
    gp_strbuf_printf(&p, "%s/" GP_REMOTE_META_DIR "/%s", staging, sub);
    rmdir(gp_strbuf_cstr(&p));
    gp_strbuf_reset(&p);
    gp_strbuf_printf(&p, "%s/" GP_REMOTE_META_DIR, staging);
    rmdir(gp_strbuf_cstr(&p));
    gp_strbuf_free(&p);
}

static const char collect_rm_sh[] = "cd -- \"$1/" GP_REMOTE_META_DIR "\" 2>/dev/null && shift && "
                                    "rm -f -- \"$@\"";

/* Fetches gpuport's own files of a job (`names`, relative to the remote folder's
 * .gpuport-remote/SUB) into the staging folder, then removes them there when `remove`. */
static void collect_meta(gp_ssh *s, const char *dir, const char *sub, char **names, size_t n,
                         const char *staging, bool remove)
{
    gp_argv g = {0}, rm = {0};
    gp_argv_push(&rm, dir);
    for (size_t i = 0; i < n; i++) {
        gp_argv_pushf(&g, GP_REMOTE_META_DIR "/%s/%s", sub, names[i]);
        gp_argv_pushf(&rm, "%s/%s", sub, names[i]);
    }
    gp_remote_fetch_job job = {dir, "", g.v, g.n, staging, true, NULL, false};
    size_t got = 0;
    char msg[1024];
    if (!g.failed && gp_remote_fetch(s, &job, &got, NULL, msg, sizeof msg) == 0 && got > 0 &&
        remove && !rm.failed)
        gp_ssh_script(s, collect_rm_sh, rm.v, NULL, 4096, NULL, NULL, NULL, msg, sizeof msg);
    gp_argv_free(&g);
    gp_argv_free(&rm);
}

/* The remote manifest: on a Slurm target the step recorded it on the compute node; else the
 * remote login shell records it now. */
static void collect_freeze_remote(const gp_remote_collect *c, const char *staging)
{
    if (!c->e->slurm) {
        gp_remote_freeze_remote(c->s, c->gpuport, c->dir, c->env, c->n_env, staging);
        return;
    }
    char base[256], *names[3];
    char n0[300], n1[300], n2[300];
    if (c->batch)
        snprintf(base, sizeof base, "job-%s.freeze", c->job->id);
    else
        snprintf(base, sizeof base, "%s.freeze", c->job_name);
    snprintf(n0, sizeof n0, "%s.json", base);
    snprintf(n1, sizeof n1, "%s.err", base);
    snprintf(n2, sizeof n2, "%s.rc", base);
    names[0] = n0, names[1] = n1, names[2] = n2;
    const char *sub = c->batch ? "jobs" : "runs";
    collect_meta(c->s, c->dir, sub, names, 3, staging, true);
    gp_strbuf local = GP_STRBUF_INIT;
    gp_strbuf_printf(&local, "%s/" GP_REMOTE_META_DIR "/%s/%s", staging, sub, base);
    gp_remote_freeze_adopt(c->e->name, c->gpuport, gp_strbuf_cstr(&local), staging);
    gp_strbuf_free(&local);
}

int gp_remote_collect_run(const gp_remote_collect *c, cJSON *rec, const char *root, const char *id,
                          const char *staging, char *const *globs, size_t n_globs)
{
    char msg[2048];
    gp_remote_fetch_job job = {c->dir,  c->prefix, (char **)globs, n_globs,
                               staging, true,      c->mark,        c->batch};
    size_t n = 0, missing = 0;
    int rc = n_globs ? gp_remote_fetch(c->s, &job, &n, &missing, msg, sizeof msg) : 0;
    if (rc != 0)
        fprintf(stderr, "gpuport remote: %s\n", msg);
    else if (n_globs && n == 0 && !missing)
        fprintf(stderr, "gpuport remote: warning: nothing on %s matched the --fetch patterns\n",
                c->e->name);
    if (rc == 0) {
        if (c->batch && c->job && c->job->known) { /* the job's output, beside the results */
            char out[64], *names[1] = {out};
            snprintf(out, sizeof out, "job-%s.out", c->job->id);
            collect_meta(c->s, c->dir, "jobs", names, 1, staging, false);
            char from[128];
            snprintf(from, sizeof from, GP_REMOTE_META_DIR "/jobs/%s", out);
            collect_move(staging, from, out);
        }
        collect_freeze_remote(c, staging);
        collect_rmdir(staging, c->batch ? "jobs" : "runs");
        gp_remote_freeze_local(c->s->rundir, staging);
    }
    cJSON_ReplaceItemInObjectCaseSensitive(
        rec, "fetched", rc == 0 ? cJSON_CreateNumber((double)n) : cJSON_CreateNull());
    char err[1024];
    if (gp_run_record_write(staging, rec, err, sizeof err) != 0 ||
        gp_run_publish(root, id, staging, true, err, sizeof err) != 0)
        fprintf(stderr, "gpuport remote: %s\n", err);
    char up[1024];
    gp_remote_up(c->here, up, sizeof up);
    fprintf(stderr,
            "gpuport remote: this run's files: %sremote/%s/runs/%s/ (%sremote/%s/latest points "
            "there)\n",
            up, c->e->name, id, up, c->e->name);
    return rc == 0 && missing ? 1 : rc;
}
