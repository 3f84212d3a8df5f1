/* run.h — `remote run`'s middle step: the user's command on the remote side, its output
 * streamed live (ssh writes straight to our stdout and stderr), its exit code returned, and a
 * wrapper around it that kills it when the connection ends (Ctrl-C, a dropped link). On a
 * Slurm target the wrapper runs srun instead, reports the time a job waits, and cancels the
 * job (scancel) when the connection ends. */
#ifndef GP_REMOTE_RUN_H
#define GP_REMOTE_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "remote/ssh.h"

typedef struct gp_remote_cmd {
    const char *dir;    /* the remote folder (home-relative or absolute) */
    const char *prefix; /* the subfolder to run in ("" or "a/b/") */
    bool synced;        /* a sync just succeeded: adopt its manifest, clear the incomplete mark */
    char **env;         /* NAME=VALUE words to export there; `n_env` of them */
    size_t n_env;
    char **argv; /* the command, NULL-terminated; on a Slurm target srun's words: its options,
                    "--", then the step's command (gp_slurm_step_argv) */
    const char *slurm_job; /* NULL: run on the host; else srun's job name (gp_slurm_job_name) */
    const char *slurm_up;  /* Slurm: the way from the subfolder up to the folder ("." or "..");
                              "" when the step records nothing there */
    const char *mark;      /* NULL, or the run's mark (a random name): the wrapper writes
                              <folder>/.gpuport-remote/runs/MARK.start before the command, older
                              than every file the command writes (what the fetch takes) */
    const char *project;   /* NULL, or the project's id (gp_worktree_project_id): the command
                              is refused in a folder another project's sync marked as its own */
} gp_remote_cmd;

/* The remote command line (for the remote login shell) that runs `c` under the wrapper. Heap
 * string, NULL on ENOMEM. */
char *gp_remote_run_line(const gp_remote_cmd *c);

/* Runs `c` with our stderr, and our stdout or `out_fd` (>= 0). Returns the command's exit code;
 * 3 with "connection to NAME lost" in msg when the connection dropped; 128+N when interrupted
 * by signal N (the remote command is stopped too, a Slurm job cancelled). msg is empty when the
 * command's own code is returned. */
int gp_remote_run(gp_ssh *s, const gp_remote_cmd *c, int out_fd, char *msg, size_t msglen);

/* Submits a batch job on a Slurm target: `c` as for a run (argv: sbatch's options, slurm_job
 * the job name), the job script in the file `script_path` (sent as sbatch's stdin); the job's
 * output goes to <folder>/.gpuport-remote/jobs/job-ID.out. Returns the exit code with sbatch's
 * stdout (the job id) in *out and its stderr in *errout, or -1 with the reason in err. */
int gp_remote_batch_submit(gp_ssh *s, const gp_remote_cmd *c, const char *script_path, char **out,
                           char **errout, char *err, size_t errlen);

#endif
