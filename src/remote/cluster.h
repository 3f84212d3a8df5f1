/* cluster.h — the conversations with a Slurm cluster's login node over the shared ssh
 * connection: the pre-flight check of a target's request, a job's record by name or id, the
 * srun words of a step, and the job script of a batch run. What they send and read is slurm.h's;
 * the order of the steps is the command's (cmd_remote.c). */
#ifndef GP_REMOTE_CLUSTER_H
#define GP_REMOTE_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>

#include "remote/config.h"
#include "remote/slurm.h"
#include "remote/ssh.h"

/* Checks on the login node that Slurm's commands are there and that the partition, GRES and
 * time limit of the request exist. 0, or an exit code (2) with the problem and the fix in msg. */
int gp_cluster_preflight(gp_ssh *s, const gp_remote_entry *e, char *msg, size_t msglen);

/* The records of jobs by "name" (srun's job name) or "id": one per key, in order (`j` holds
 * `n` of them; j[i].known false when the cluster has none). 0, or an exit code with msg. */
int gp_cluster_jobs(gp_ssh *s, const char *kind, char *const keys[], size_t n, gp_slurm_job *j,
                    char *msg, size_t msglen);

/* The words after `srun` for a step on target `e`: the request's options, "--", then `cmd`
 * wrapped by gp_slurm_step_argv (freeze manifest recorded when `gpuport` is not NULL). */
void gp_cluster_srun_argv(gp_argv *a, const gp_remote_entry *e, const char *gpuport, const char *up,
                          const char *job_name, char *const cmd[]);

/* The text of a batch job's script: exports `env`, runs `cmd`, then records the freeze manifest
 * (with `gpuport`) as .gpuport-remote/jobs/job-ID.freeze.{json,err,rc} above `up`, and exits
 * with the command's code. Heap string. */
char *gp_cluster_batch_script(const char *target_name, char *const env[], size_t n_env,
                              char *const cmd[], const char *gpuport, const char *up);

/* "." for "", else one "../" per folder of `prefix` ("a/b/" -> "../.."). Into buf. */
const char *gp_cluster_up(const char *prefix, char *buf, size_t len);

/* The one-line summary of a job record for `remote status` ("PENDING (Resources)",
 * "RUNNING on n1 for 00:01:02 of 01:00:00", "COMPLETED on n1, exit 0"). Into buf. */
const char *gp_cluster_job_summary(const gp_slurm_job *j, char *buf, size_t len);

#endif
