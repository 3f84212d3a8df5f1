/* spawn.h — running another program without a shell (posix_spawnp; Windows: CreateProcessW,
 * spawn_win.c), capturing its output with a size cap and a time limit, or handing it our
 * descriptors and waiting for it. Used only where a fact or a job exists nowhere else (a
 * compiler, ssh, rsync, `nvcc --version` on old toolkits); every caller says why. */
#ifndef GP_UTIL_SPAWN_H
#define GP_UTIL_SPAWN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct gp_spawn_result {
    int exit_code;   /* the program's exit status, or -1 when it was killed by a signal */
    int term_signal; /* the signal that ended it, or 0 */
    bool timed_out;  /* killed because the time limit passed */
    char *out;       /* captured stdout, NUL-terminated (free() it); at most `cap` bytes */
    size_t out_len;
    char *err; /* captured stderr, likewise */
    size_t err_len;
} gp_spawn_result;

/* Runs argv[0] (looked up on PATH) with argv, stdin from /dev/null, stdout and stderr captured
 * up to `cap` bytes each (the rest is read and dropped). `envp` NULL means this environment.
 * `timeout_s` <= 0 means no limit. Returns 0 when the program ran (whatever its exit code), -1
 * when it could not be started, with the reason in err ("cc: No such file or directory"). */
int gp_spawn_capture(char *const argv[], char *const envp[], double timeout_s, size_t cap,
                     gp_spawn_result *res, char *err, size_t errlen);
void gp_spawn_result_free(gp_spawn_result *res);

/* Starts argv[0] (looked up on PATH) with fds[0], fds[1], fds[2] as its stdin, stdout and stderr
 * (-1: this process's own), with default signal handling; the child's id in *pid. 0, or -1 with
 * "PROGRAM: reason" in err. Every started child is polled until it has ended. */
int gp_spawn_fds(char *const argv[], const int fds[3], long *pid, char *err, size_t errlen);
/* 1 when child `pid` has ended, with its exit code in *code (128+N when signal N ended it), and
 * the child is then gone; 0 while it runs; -1 when there is no such child. Never blocks. */
int gp_spawn_poll(long pid, int *code);
/* Asks child `pid` to stop (SIGTERM), or (hard) ends it (SIGKILL). Windows has no polite form
 * for a console program started without a console of its own: both end it. */
void gp_spawn_stop(long pid, bool hard);

/* Ctrl-C and termination requests are recorded instead of ending the process (POSIX: SIGINT and
 * SIGTERM, without SA_RESTART, and SIGPIPE ignored; Windows: the console's Ctrl-C, Ctrl-Break and
 * close events). gp_interrupted returns the signal number seen (SIGINT, SIGTERM), or 0. */
void gp_interrupt_install(void);
int gp_interrupted(void);

#endif
