/* cluster.c — see cluster.h. Each conversation is one gp_ssh_script round trip over the master
 * connection; answers are parsed by slurm.c, never echoed raw into a decision. */
#include "remote/cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/shquote.h"

int gp_cluster_preflight(gp_ssh *s, const gp_remote_entry *e, char *msg, size_t msglen)
{
    char *out = NULL, *eout = NULL, why[512];
    size_t len = 0;
    int code = gp_ssh_script(s, GP_SLURM_PREFLIGHT_SH, NULL, NULL, 1u << 20, &out, &len, &eout, why,
                             sizeof why);
    int rc;
    if (code < 0) {
        snprintf(msg, msglen, "cannot run ssh: %s", why);
        rc = 3;
    } else if (code == 255 && !gp_ssh_alive(s)) {
        snprintf(msg, msglen, "connection to %s lost", s->name);
        rc = 3;
    } else if (gp_proc_interrupted()) {
        snprintf(msg, msglen, "interrupted");
        rc = 128 + gp_proc_interrupted();
    } else {
        rc = gp_slurm_preflight_check(e, code, out, len, eout, msg, msglen);
    }
    free(out);
    free(eout);
    return rc;
}

int gp_cluster_jobs(gp_ssh *s, const char *kind, char *const keys[], size_t n, gp_slurm_job *j,
                    char *msg, size_t msglen)
{
    gp_argv a = {0};
    gp_argv_push(&a, kind);
    for (size_t i = 0; i < n; i++)
        gp_argv_push(&a, keys[i]);
    char *out = NULL, why[512];
    int code = a.failed ? -1
                        : gp_ssh_script(s, GP_SLURM_JOB_SH, a.v, NULL, 4u << 20, &out, NULL, NULL,
                                        why, sizeof why);
    if (a.failed) snprintf(why, sizeof why, "out of memory");
    gp_argv_free(&a);
    int rc = 0;
    if (code != 0) {
        snprintf(msg, msglen, "cannot ask %s about its jobs (%s)", s->name,
                 code < 0 ? why : "squeue, scontrol and sacct failed");
        rc = code == 255 && !gp_ssh_alive(s) ? 3 : 2;
    }
    const char *p = out ? out : "";
    for (size_t i = 0; i < n; i++) {
        const char *nl = strchr(p, '\n');
        size_t l = nl ? (size_t)(nl - p) : strlen(p);
        char *line = strndup(p, l);
        if (!line || gp_slurm_job_parse(line, &j[i]) != 0) memset(&j[i], 0, sizeof j[i]);
        free(line);
        p = nl ? nl + 1 : p + l;
    }
    free(out);
    return rc;
}

void gp_cluster_srun_argv(gp_argv *a, const gp_remote_entry *e, const char *gpuport, const char *up,
                          const char *job_name, char *const cmd[])
{
    gp_slurm_options(e->slurm, a);
    gp_argv_push(a, "--");
    gp_slurm_step_argv(a, gpuport, up, job_name, cmd);
}

const char *gp_cluster_up(const char *prefix, char *buf, size_t len)
{
    size_t depth = 0;
    for (const char *p = prefix; *p; p++)
        if (*p == '/') depth++;
    if (depth == 0) {
        snprintf(buf, len, ".");
        return buf;
    }
    buf[0] = '\0';
    for (size_t i = 0; i < depth && strlen(buf) + 4 < len; i++)
        strcat(buf, i ? "/.." : "..");
    return buf;
}

char *gp_cluster_batch_script(const char *target_name, char *const env[], size_t n_env,
                              char *const cmd[], const char *gpuport, const char *up)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_puts(&sb, "#!/bin/sh\n# gpuport remote run --batch on ");
    gp_strbuf_puts(&sb, target_name);
    gp_strbuf_puts(&sb, ": every word below is quoted for sh; nothing in it is expanded.\n");
    for (size_t i = 0; i < n_env; i++) {
        gp_strbuf_puts(&sb, "export ");
        gp_shquote_append(&sb, env[i]);
        gp_strbuf_putc(&sb, '\n');
    }
    gp_shquote_join(&sb, cmd);
    gp_strbuf_puts(&sb, " </dev/null\nrc=$?\n");
    if (gpuport) {
        gp_strbuf_puts(&sb, "f=.gpuport-remote/jobs/job-$SLURM_JOB_ID.freeze\ncd -- ");
        gp_shquote_append(&sb, up);
        gp_strbuf_puts(&sb, " && { ");
        gp_shquote_append(&sb, gpuport);
        gp_strbuf_puts(&sb, " freeze --json >\"$f.json.tmp\" 2>\"$f.err\"; echo $? >\"$f.rc\"; "
                            "mv -f -- \"$f.json.tmp\" \"$f.json\"; }\n");
    }
    gp_strbuf_puts(&sb, "exit $rc\n");
    return gp_strbuf_take(&sb);
}

const char *gp_cluster_job_summary(const gp_slurm_job *j, char *buf, size_t len)
{
    if (!j->known) {
        snprintf(buf, len, "unknown to the cluster (it forgets ended jobs after a while)");
    } else if (strcmp(j->state, "PENDING") == 0) {
        snprintf(buf, len, "PENDING (%s)", j->reason[0] ? j->reason : "no reason given");
    } else if (gp_slurm_job_active(j)) {
        snprintf(buf, len, "%s on %s for %s of %s", j->state, j->node[0] ? j->node : "?",
                 j->run_time[0] ? j->run_time : "?", j->time_limit[0] ? j->time_limit : "?");
    } else {
        char sig[32] = "";
        if (j->exit_signal) snprintf(sig, sizeof sig, ", signal %d", j->exit_signal);
        snprintf(buf, len, "%s on %s, exit %d%s", j->state, j->node[0] ? j->node : "no node",
                 j->exit_code, sig);
    }
    return buf;
}
