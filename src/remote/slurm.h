/* slurm.h — a Slurm cluster as a remote target. The login node is reached over ssh like any
 * target and holds the work tree on the filesystem it shares with the compute nodes; the
 * command runs on a compute node through the scheduler: srun for `remote run` and `remote
 * doctor`, sbatch for `remote run --batch`. This file holds what gpuport says to Slurm (a
 * target's srun/sbatch options, the scripts run on the login node) and what it reads back
 * (sinfo's partitions, scontrol's and sacct's job records), and turns the way a job ended
 * into a message that says what to change. */
#ifndef GP_REMOTE_SLURM_H
#define GP_REMOTE_SLURM_H

#include <stdbool.h>
#include <stddef.h>

#include "remote/config.h"
#include <limits.h>

#include "remote/proc.h"

/* Seconds of a Slurm time ("M", "M:S", "H:M:S", "D-H", "D-H:M", "D-H:M:S"); "infinite" and
 * "UNLIMITED" give GP_SLURM_TIME_INFINITE; -1 when it is none of these. */
#define GP_SLURM_TIME_INFINITE LONG_MAX
long gp_slurm_time_seconds(const char *t);

/* Appends the srun/sbatch options of a request (--partition=, --gpus=, --gres=, --time=,
 * --account=, then the extra options), each one word. */
void gp_slurm_options(const gp_remote_slurm *s, gp_argv *a);

/* A fresh job name, "gpuport-" and 16 hex digits from the system's random source: how the
 * scripts find the job srun submitted. */
void gp_slurm_job_name(char *buf, size_t len);

/* --- the cluster's partitions (sinfo -h -o '%P|%a|%l|%G') -------------------------------- */

typedef struct gp_slurm_partition {
    char name[64];
    bool is_default; /* sinfo marks it with '*' */
    bool up;
    long max_time;  /* seconds; GP_SLURM_TIME_INFINITE; -1 unknown */
    char gres[256]; /* the GRES of one group of its nodes ("gpu:a100:4(S:0-1)", "(null)") */
} gp_slurm_partition;

/* Reads sinfo's lines (one per partition and group of nodes). Returns the number of lines
 * read into *out (heap array), -1 when a line is malformed (or out of memory). */
long gp_slurm_partitions_parse(const char *text, size_t len, gp_slurm_partition **out);

/* The login node's answer to the pre-flight check (GP_SLURM_PREFLIGHT_SH, with its exit code),
 * checked against the target's request: 0, or 2 with the problem and the fix in msg (no
 * srun there; unknown partition; a GRES or GPU type, or a count, that no node of the partition
 * has; a time limit above the partition's). */
int gp_slurm_preflight_check(const gp_remote_entry *e, int code, const char *out, size_t out_len,
                             const char *err_text, char *msg, size_t msglen);

/* --- a job's record ----------------------------------------------------------------------- */

typedef struct gp_slurm_job {
    bool known;          /* a record was found */
    char id[32];         /* "123" */
    char state[32];      /* "COMPLETED", "TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL", ... */
    char reason[128];    /* scontrol's Reason ("TimeLimit", "None"), "" from sacct */
    char node[256];      /* NodeList */
    char partition[64];  /* Partition */
    char time_limit[32]; /* TimeLimit ("00:01:00") */
    char run_time[32];   /* RunTime or Elapsed */
    char memory[32];     /* MinMemoryNode / MinMemoryCPU / ReqMem, "" when not limited */
    int exit_code;       /* ExitCode "code:signal" */
    int exit_signal;
} gp_slurm_job;

/* One line of `scontrol show job -o ID`. 0, or -1 when it is not a job record. */
int gp_slurm_job_parse_scontrol(const char *line, gp_slurm_job *j);
/* One line of `sacct -n -P -X -o JobID,State,ExitCode,NodeList,Partition,Timelimit,Elapsed,
 * ReqMem`. 0 or -1. */
int gp_slurm_job_parse_sacct(const char *line, gp_slurm_job *j);
/* The answer of GP_SLURM_JOB_SH: "scontrol LINE", "sacct LINE" or "unknown". 0 when a record
 * was read (j->known), -1 when there was none. */
int gp_slurm_job_parse(const char *text, gp_slurm_job *j);

/* True while the job may still start or run (PENDING, RUNNING, CONFIGURING, COMPLETING,
 * SUSPENDED, REQUEUED, RESIZING, SIGNALING, STAGE_OUT). */
bool gp_slurm_job_active(const gp_slurm_job *j);

/* When the job ended for a reason of Slurm's (time limit, memory, node failure, cancelled,
 * preempted, ...), one line saying so with Slurm's state and reason and what to change (the
 * `gpuport remote add ... --replace` that asks for more, where one does), and true; false
 * when the job simply ran the command (whatever its exit code). */
bool gp_slurm_job_explain(const gp_remote_entry *e, const gp_slurm_job *j, char *msg,
                          size_t msglen);

/* --- the scripts run on the login node (POSIX sh, each one line) -------------------------- */

/* No arguments. Exit 4 with "missing CMD" when a Slurm command is not on the PATH; else
 * sinfo's partitions (exit code: sinfo's). */
extern const char GP_SLURM_PREFLIGHT_SH[];
/* $1 "name" or "id", then job names or ids: for each, "scontrol LINE", "sacct LINE" or
 * "unknown ID", one line each. */
extern const char GP_SLURM_JOB_SH[];

/* The command a step runs for `remote run` on a Slurm target: `sh -c STEP` around the user's
 * command that also records a freeze manifest in the same allocation (when gpuport is not
 * NULL) as <top>/.gpuport-remote/runs/JOBNAME.freeze.{json,err,rc}. `up` leads from the
 * folder the command runs in to the top ("." or "../.."). Appends the words to `a`. */
void gp_slurm_step_argv(gp_argv *a, const char *gpuport, const char *up, const char *job_name,
                        char *const cmd[]);

#endif
