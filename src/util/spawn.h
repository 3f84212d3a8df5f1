/* spawn.h — running another program without a shell (posix_spawnp), capturing its output with
 * a size cap and a time limit. Used only where a fact or a job exists nowhere else (a compiler,
 * ssh, rsync, `nvcc --version` on old toolkits); every caller says why. */
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

#endif
