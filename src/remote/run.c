/* run.c — see run.h. Why a wrapper: without a terminal, sshd does not signal the remote command
 * when the connection ends, so a `sleep 1000` would outlive Ctrl-C. The wrapper keeps a watcher
 * reading the channel's stdin (which we hold open and never write); when the channel closes —
 * we closed the pipe, ssh died, the link dropped — read sees EOF and the watcher kills the whole
 * process group (sshd makes the session a group of its own). The command itself gets
 * /dev/null as stdin. The script is one line so csh-like login shells parse the quoting too. */
#include "remote/run.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "remote/shquote.h"
#include "remote/sync.h"

/* $1 folder, $2 subfolder, $3 1 when a sync just succeeded, $4 the run's mark ("" none), $5 the
 * project's id ("" none), $6 number of NAME=VALUE words, then those words, then the rest (below).
 * Exit 2 with a message when the folder is missing, belongs to another project (its
 * .gpuport-remote/project names another id) or the mark cannot be written. The mark,
 * <folder>/.gpuport-remote/runs/MARK.start, is older than every file the command writes: after
 * touching it the wrapper waits until a newly touched file is newer (file times are coarser
 * than the clock, 1 s on some file systems), so the fetch can take only the files newer than
 * the mark (find -newer). */
#define RUN_PREFIX_SH                                                                              \
    "d=$1; p=$2; s=$3; k=$4; j=$5; n=$6; shift 6; m=$d/" GP_REMOTE_META_DIR "; "                   \
    "if [ -n \"$j\" ] && [ -f \"$m/project\" ]; then o=$(cat -- \"$m/project\"); "                 \
    "[ \"$o\" = \"$j\" ] || { echo \"gpuport remote: the folder $d on this host belongs to "       \
    "another project (its id: $o, in $m/project; this project's: $j): not running there; give "    \
    "this project a folder of its own (remote add --path DIR --replace)\" >&2; exit 2; }; fi; "    \
    "if [ \"$s\" = 1 ]; then mv -f -- \"$m/manifest.next\" \"$m/manifest\" && "                    \
    "rm -f -- \"$m/sync-incomplete\"; fi; "                                                        \
    "if [ -n \"$k\" ]; then K=$m/runs/$k.start; { mkdir -p -- \"$m/runs\" && touch -- \"$K\" && "  \
    "touch -- \"$K.probe\"; } 2>/dev/null || { echo \"gpuport remote: cannot write the run's "     \
    "mark "                                                                                        \
    "$K on this host\" >&2; exit 2; }; i=0; "                                                      \
    "while [ -z \"$(find \"$K.probe\" -newer \"$K\")\" ] && [ $i -lt 400 ]; do i=$((i+1)); "       \
    "sleep 0.01 2>/dev/null || sleep 1; touch -- \"$K.probe\"; done; rm -f -- \"$K.probe\"; fi; "  \
    "if [ -f \"$m/sync-incomplete\" ]; then echo \"gpuport remote: "                               \
    "warning: the last sync into $d did not finish; run with --sync\" >&2; fi; "                   \
    "cd -- \"$d/$p\" 2>/dev/null || { echo \"gpuport remote: no folder $d/$p on this host: "       \
    "run with --sync first\" >&2; exit 2; }; "                                                     \
    "while [ \"$n\" -gt 0 ]; do export \"$1\" || exit 2; shift; n=$((n-1)); done; "

/* The command itself; 127 when it is not found. */
static const char run_wrapper_sh[] = RUN_PREFIX_SH
    "exec 3<&0; ( while IFS= read -r _; do :; done <&3; kill -s TERM 0 ) >/dev/null 2>&1 & w=$!; "
    "exec 3<&-; "
    "command -v \"$1\" >/dev/null 2>&1 || { echo \"gpuport remote: $1: command not found on "
    "this host\" >&2; kill \"$w\" 2>/dev/null; exit 127; }; "
    "\"$@\" </dev/null; rc=$?; kill \"$w\" 2>/dev/null; exit $rc";

/* Slurm: then the job name, the way up to the folder, and srun's words. srun runs in the
 * background so that the wrapper can say, while the job waits, why it waits (squeue's reason,
 * each time it changes; polls 1, 2, 4, then every 4 seconds) and on which node it runs; the
 * watcher cancels the job — waiting or running — when the connection ends. */
static const char run_slurm_sh[] = RUN_PREFIX_SH
    "J=$1; u=$2; shift 2; "
    "exec 3<&0; ( while IFS= read -r _; do :; done <&3; scancel --name=\"$J\" >/dev/null 2>&1; "
    "kill -s TERM 0 ) >/dev/null 2>&1 & w=$!; exec 3<&-; "
    "command -v srun >/dev/null 2>&1 || { echo \"gpuport remote: srun: command not found on "
    "this host\" >&2; kill \"$w\" 2>/dev/null; exit 127; }; "
    "[ -z \"$u\" ] || mkdir -p -- \"$u/" GP_REMOTE_META_DIR "/runs\"; "
    "srun --job-name=\"$J\" \"$@\" </dev/null & r=$!; q=; z=1; "
    "while kill -0 \"$r\" 2>/dev/null; do "
    "x=$(squeue -h -n \"$J\" -o '%i|%T|%r|%N' 2>/dev/null); "
    "i=${x%%|*}; x=${x#*|}; t=${x%%|*}; x=${x#*|}; y=${x%%|*}; o=${x#*|}; "
    "case $t in PENDING) if [ \"$y\" != \"$q\" ]; then q=$y; "
    "echo \"gpuport remote: waiting for resources: job $i pending ($y)\" >&2; fi;; "
    "RUNNING|COMPLETING) echo \"gpuport remote: job $i running on $o\" >&2; break;; esac; "
    "sleep $z; [ \"$z\" -ge 4 ] || z=$((z*2)); done; "
    "wait \"$r\"; rc=$?; kill \"$w\" 2>/dev/null; exit $rc";

/* Batch: then the job name, the way up to the folder, and sbatch's options; the job script
 * on stdin. Prints what `sbatch --parsable` prints (the job id); 3 when the folder for the
 * job's output cannot be made. */
static const char run_batch_sh[] =
    RUN_PREFIX_SH "J=$1; u=$2; shift 2; o=$(cd -- \"$u\" && pwd)/" GP_REMOTE_META_DIR "/jobs; "
                  "mkdir -p -- \"$o\" || exit 3; "
                  "exec sbatch --parsable --job-name=\"$J\" --output=\"$o/job-%j.out\" \"$@\"";

/* The wrapper's arguments: folder, subfolder, sync flag, mark, project id, env words, [job name,
 * up], words. */
static void run_args(const gp_remote_cmd *c, gp_argv *a)
{
    gp_argv_push(a, c->dir);
    gp_argv_push(a, c->prefix);
    gp_argv_push(a, c->synced ? "1" : "0");
    gp_argv_push(a, c->mark ? c->mark : "");
    gp_argv_push(a, c->project ? c->project : "");
    gp_argv_pushf(a, "%zu", c->n_env);
    for (size_t i = 0; i < c->n_env; i++)
        gp_argv_push(a, c->env[i]);
    if (c->slurm_job) {
        gp_argv_push(a, c->slurm_job);
        gp_argv_push(a, c->slurm_up ? c->slurm_up : "");
    }
    for (size_t i = 0; c->argv && c->argv[i]; i++)
        gp_argv_push(a, c->argv[i]);
}

int gp_remote_batch_submit(gp_ssh *s, const gp_remote_cmd *c, const char *script_path, char **out,
                           char **errout, char *err, size_t errlen)
{
    gp_argv a = {0};
    run_args(c, &a);
    int code = a.failed ? -1
                        : gp_ssh_script(s, run_batch_sh, a.v, script_path, 4096, out, NULL, errout,
                                        err, errlen);
    if (a.failed) snprintf(err, errlen, "out of memory");
    gp_argv_free(&a);
    return code;
}

char *gp_remote_run_line(const gp_remote_cmd *c)
{
    gp_argv a = {0};
    run_args(c, &a);
    char *line =
        a.failed ? NULL : gp_ssh_script_line(c->slurm_job ? run_slurm_sh : run_wrapper_sh, a.v);
    gp_argv_free(&a);
    return line;
}

int gp_remote_run(gp_ssh *s, const gp_remote_cmd *c, int out_fd, char *msg, size_t msglen)
{
    msg[0] = '\0';
    if (gp_proc_interrupted()) {
        snprintf(msg, msglen, "interrupted before the command started on %s", s->name);
        return 128 + gp_proc_interrupted();
    }
    char *line = gp_remote_run_line(c);
    gp_argv a = {0};
    gp_ssh_base_argv(s, &a);
    gp_argv_push(&a, s->target);
    gp_argv_push(&a, line ? line : "");
    free(line);
    int pfd[2] = {-1, -1};
    if (a.failed || !line || pipe(pfd) != 0) {
        gp_argv_free(&a);
        snprintf(msg, msglen, "cannot start ssh: out of memory or file descriptors");
        return 3;
    }
    /* Only ssh gets the read end; the write end stays ours alone (no other child inherits it),
     * so the remote side sees EOF exactly when we close it or exit. */
    fcntl(pfd[0], F_SETFD, FD_CLOEXEC);
    fcntl(pfd[1], F_SETFD, FD_CLOEXEC);
    fflush(stdout);
    fflush(stderr);
    pid_t pid;
    char why[512];
    int rc = gp_proc_spawn(a.v, pfd[0], out_fd, -1, &pid, why, sizeof why);
    gp_argv_free(&a);
    close(pfd[0]);
    if (rc != 0) {
        close(pfd[1]);
        snprintf(msg, msglen, "cannot run ssh: %s", why);
        return 2;
    }
    int code = gp_proc_wait(pid, &pfd[1], 5.0);
    if (pfd[1] >= 0) close(pfd[1]);
    if (gp_proc_interrupted()) {
        snprintf(msg, msglen,
                 c->slurm_job ? "interrupted: the job on %s was cancelled (scancel)"
                              : "interrupted: the command on %s was stopped",
                 s->name);
        return 128 + gp_proc_interrupted();
    }
    /* 255 is also what ssh exits with when the link breaks; the master tells the two apart. */
    if (code == 255 && !gp_ssh_alive(s)) {
        snprintf(msg, msglen,
                 c->slurm_job ? "connection to %s lost: the job's outcome is unknown (it was "
                                "cancelled when the connection ended)"
                              : "connection to %s lost: the command's outcome there is unknown "
                                "(it was stopped when the connection ended)",
                 s->name);
        return 3;
    }
    return code;
}
