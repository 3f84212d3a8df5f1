/* run.h — `remote run`'s middle step: the user's command on the remote side, its output
 * streamed live (ssh writes straight to our stdout and stderr), its exit code returned, and a
 * wrapper around it that kills it when the connection ends (Ctrl-C, a dropped link). */
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
    char **argv; /* the command, NULL-terminated */
} gp_remote_cmd;

/* The remote command line (for the remote login shell) that runs `c` under the wrapper. Heap
 * string, NULL on ENOMEM. */
char *gp_remote_run_line(const gp_remote_cmd *c);

/* Runs `c` with our stdout/stderr. Returns the command's exit code; 3 with "connection to NAME
 * lost" in msg when the connection dropped; 128+N when interrupted by signal N (the remote
 * command is stopped too). msg is empty when the command's own code is returned. */
int gp_remote_run(gp_ssh *s, const gp_remote_cmd *c, char *msg, size_t msglen);

#endif
