/* ssh.h — one connection to a remote target for the length of a `gpuport remote` command: a
 * multiplexing master (ControlMaster) on a socket in a private 0700 folder, so the sync, the run
 * and the fetch share one login. ssh runs in BatchMode: a missing key fails at once with a
 * message we classify (unreachable, authentication, host key) instead of a password prompt. */
#ifndef GP_REMOTE_SSH_H
#define GP_REMOTE_SSH_H

#include <stdbool.h>
#include <stddef.h>

#include "remote/proc.h"

typedef struct gp_ssh {
    const char *name;   /* the target's name in the config, for messages */
    const char *target; /* the ssh destination */
    char *rundir;       /* private folder: the control socket and temporary files */
    char *control;      /* the control socket's path */
    bool master;        /* a master is running on `control` */
} gp_ssh;

/* Creates the private folder and starts the master. Returns 0, or an exit code (2: cannot
 * reach or log in, with the cause and the fix in msg; 3: could not even try). */
int gp_ssh_open(gp_ssh *s, const char *name, const char *target, char *msg, size_t msglen);
/* Stops the master and removes the private folder. */
void gp_ssh_close(gp_ssh *s);
/* True while the master connection is up (ssh -O check). */
bool gp_ssh_alive(gp_ssh *s);

/* Appends the ssh program and its options (BatchMode, the control socket, the ssh_config file
 * named by GPUPORT_SSH_CONFIG) to `a` — the target and the command are the caller's. */
void gp_ssh_base_argv(const gp_ssh *s, gp_argv *a);
/* The same as one string for rsync's -e option. Heap string (free() it). */
char *gp_ssh_rsync_shell(const gp_ssh *s);

/* Runs the POSIX sh `script` on the remote side with $1.. = args (NULL-terminated; may be NULL),
 * stdin from `in_path` (NULL: nothing), capturing stdout (up to `cap`) and stderr. Returns the
 * exit code (255: ssh itself failed), or -1 with the reason in err when ssh could not start. */
int gp_ssh_script(gp_ssh *s, const char *script, char *const args[], const char *in_path,
                  size_t cap, char **out, size_t *out_len, char **errout, char *err, size_t errlen);
/* The remote command line that runs `script` with `args` under `sh -c`, quoted for the remote
 * login shell. Heap string (free() it), NULL on ENOMEM. */
char *gp_ssh_script_line(const char *script, char *const args[]);

/* Turns ssh's stderr after a failed login into one line with the cause and the fix. */
void gp_ssh_explain(const char *name, const char *target, const char *ssh_stderr, char *msg,
                    size_t msglen);

#endif
