/* fetch.h — `remote run --fetch GLOB`: copies the remote files matching the globs (expanded by
 * the remote shell, in the folder the command ran in) into remote/NAME/ of the local work tree,
 * refusing to overwrite anything local unless forced; then records a `gpuport freeze` manifest
 * of both machines next to them. */
#ifndef GP_REMOTE_FETCH_H
#define GP_REMOTE_FETCH_H

#include <stdbool.h>
#include <stddef.h>

#include "remote/ssh.h"
#include "util/strbuf.h"

typedef struct gp_remote_fetch_job {
    const char *dir;    /* the remote folder */
    const char *prefix; /* the subfolder the command ran in ("" or "a/b/") */
    char **globs;       /* relative POSIX sh patterns; `n_globs` of them */
    size_t n_globs;
    bool force;             /* replace local files */
    const char *local_root; /* <work tree>/remote/NAME */
} gp_remote_fetch_job;

/* Returns 0 (with the number of files copied in *n), or an exit code with msg: 2 when local
 * files would be overwritten (msg lists them; nothing was copied) or the remote answer is
 * unusable, 3 when the connection was lost. */
int gp_remote_fetch(gp_ssh *s, const gp_remote_fetch_job *job, size_t *n, char *msg, size_t msglen);

/* Splits the remote lister's NUL-separated answer into `out` (NUL-separated, "./" stripped,
 * duplicates kept out). Returns the count, or -1 with the offending path in `bad` when a path
 * is absolute, climbs out with "..", or holds control characters. */
long gp_remote_fetch_parse(const char *text, size_t len, gp_strbuf *out, char *bad, size_t badlen);

/* Runs `gpuport freeze --json` here (the running executable) and on the remote side, and
 * writes gpuport-freeze.local.json / gpuport-freeze.remote.json into `local_root` (an existing
 * one only when `force`). Prints on stderr what was recorded and, for each side that was not,
 * why. Returns the number of sides recorded (0..2). */
int gp_remote_freeze(gp_ssh *s, const char *remote_gpuport, const char *dir, const char *local_root,
                     bool force);

#endif
