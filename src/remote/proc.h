/* proc.h — the child processes of `gpuport remote` (ssh, rsync, git, gpuport itself): an argv
 * builder, posix_spawnp with chosen file descriptors (no shell), and a wait that honours Ctrl-C
 * by first closing the child's stdin (which ends the remote side, see run.c), then stopping it. */
#ifndef GP_REMOTE_PROC_H
#define GP_REMOTE_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/strbuf.h"

typedef struct gp_argv {
    char **v; /* NULL-terminated */
    size_t n, cap;
    bool failed; /* an allocation failed */
} gp_argv;

void gp_argv_push(gp_argv *a, const char *s);
void gp_argv_pushf(gp_argv *a, const char *fmt, ...) GP_PRINTF_LIKE(2, 3);
void gp_argv_free(gp_argv *a);

/* Installs SIGINT/SIGTERM handlers that only record the signal (no SA_RESTART), so waits below
 * notice it. Returns the signal seen so far, or 0. */
void gp_proc_interrupt_install(void);
int gp_proc_interrupted(void);

/* Starts argv[0] from PATH. Each fd is dup'ed onto stdin, stdout, stderr; -1 means "inherit". 0, or
 * -1 with "PROGRAM: reason" in err. */
int gp_proc_spawn(char *const argv[], int in_fd, int out_fd, int err_fd, pid_t *pid, char *err,
                  size_t errlen);

/* Waits for `pid`. When SIGINT/SIGTERM arrives meanwhile: closes *stdin_w (when >= 0; the
 * child's stdin pipe, so the remote side sees EOF), waits `grace_s`, then SIGTERM, then SIGKILL.
 * Returns the exit code, 128+N when killed by signal N. */
int gp_proc_wait(pid_t pid, int *stdin_w, double grace_s);

/* Runs argv with stdin from `in_path` (NULL: /dev/null), stdout and stderr captured through
 * temporary files in `tmpdir`, each up to `cap` bytes (*out and *errout get NUL-terminated heap
 * strings; either pointer may be NULL to drop that stream). Returns the exit code as
 * gp_proc_wait does, or -1 with the reason in err when it could not start. */
int gp_proc_capture(char *const argv[], const char *in_path, const char *tmpdir, size_t cap,
                    char **out, size_t *out_len, char **errout, char *err, size_t errlen);

#endif
