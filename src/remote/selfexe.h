/* selfexe.h — the path of the running gpuport executable, so that `remote` can run sibling
 * subcommands (doctor, freeze, compare) of exactly this build rather than whatever is on PATH. */
#ifndef GP_REMOTE_SELFEXE_H
#define GP_REMOTE_SELFEXE_H

#include <stddef.h>

/* Heap string (free() it), or NULL when the platform cannot say. */
char *gp_self_exe(void);

/* Runs `<self> sub args...` capturing its output (cap bytes each). Returns the exit code, or -1
 * when it could not start (reason in err). `unknown` is set when the binary answered that it has
 * no such subcommand ("unknown command", exit 2). */
int gp_self_run(const char *tmpdir, char *const args[], size_t cap, char **out, size_t *out_len,
                char **errout, int *unknown, char *err, size_t errlen);

#endif
