/* collect.h — the end of a run on this side: its fetched files, both freeze manifests and its
 * record put into the run's own folder (runs.h), for `remote run` and, for a batch job, for
 * `remote fetch`. On a Slurm target the remote manifest (and a batch job's output) are files the
 * job wrote on the compute node into the remote folder's .gpuport-remote/, fetched from there. */
#ifndef GP_REMOTE_COLLECT_H
#define GP_REMOTE_COLLECT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "remote/config.h"
#include "remote/slurm.h"
#include "remote/ssh.h"

typedef struct gp_remote_collect {
    gp_ssh *s;
    const gp_remote_entry *e;
    const char *gpuport; /* the remote gpuport, for its manifest */
    const char *dir;     /* the remote folder */
    const char *prefix;  /* the subfolder the command ran in ("" or "a/b/") */
    char *const *env;    /* the run's --env words: an SSH target's manifest runs with them */
    size_t n_env;
    const char *job_name;    /* Slurm, interactive: srun's job name */
    const gp_slurm_job *job; /* Slurm: the job's record */
    bool batch;              /* a batch job: its output and manifest are under jobs/ */
    const char *mark;        /* NULL, or the run's mark: only files this run wrote are fetched */
    const char *here; /* the current folder in the work tree ("" or "a/b/"): the paths shown are
                         relative to it */
} gp_remote_collect;

/* Fetches `globs` (relative to the subfolder) into `staging`, adds both manifests (and a batch
 * job's output, as job-ID.out), writes `rec` with its "fetched" count and puts the folder in
 * place as runs/ID under `root`, `latest` pointing at it; says where on stderr. Returns 0, 1 when
 * a match was not written by this run or a glob matched none of its files (each named on
 * stderr, none fetched), or the exit code of a fetch that failed (the folder then holds what
 * came, and rec says so). */
int gp_remote_collect_run(const gp_remote_collect *c, cJSON *rec, const char *root, const char *id,
                          const char *staging, char *const *globs, size_t n_globs);

/* The way from `here` (a folder in the work tree: "" or "a/b/") up to the work tree's root, for
 * paths shown relative to the current folder: "" or "../../". Into buf; returns buf. */
const char *gp_remote_up(const char *here, char *buf, size_t len);

/* Sets rec's "job" object (id, state, reason, node, partition) from the job's record. */
void gp_remote_record_job(cJSON *rec, const gp_slurm_job *j);

#endif
