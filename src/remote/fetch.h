/* fetch.h — `remote run --fetch GLOB`: copies the remote files matching the globs (expanded by
 * the remote shell, in the folder the command ran in) into the run's own folder on this side
 * (runs.h), then records a `gpuport freeze` manifest of both machines next to them. */
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
    const char *local_root; /* the run's folder: files arrive at local_root/prefix/PATH */
    bool quiet;             /* no summary line (gpuport's own files) */
    const char *mark;       /* NULL, or the run's mark (gp_remote_cmd): only files newer than it —
                               written by this run — are fetched; the mark is removed unless: */
    bool keep_mark;         /* a batch job's mark stays for the next `remote fetch` of it */
} gp_remote_fetch_job;

/* Returns 0 (with the number of files copied in *n), or an exit code with msg: 2 when the
 * remote answer is unusable or the run's mark is gone, 3 when the connection was lost. With a
 * mark, each match older than it (a file an earlier run left) is named on stderr and not
 * fetched, and so is each glob that matched none of this run's files; *missing (may be NULL)
 * receives how many of those there were. */
int gp_remote_fetch(gp_ssh *s, const gp_remote_fetch_job *job, size_t *n, size_t *missing,
                    char *msg, size_t msglen);

/* Splits the remote lister's answer — "/p" before each of the `n_globs` globs' matches, "/f"
 * (this run's) or "/s" (stale) before each match, all NUL-separated — into the two lists of
 * raw paths (NUL-separated, for gp_remote_fetch_parse) and the count of this run's matches per
 * glob (per_glob, n_globs entries). Returns 0, or -1 when the answer is malformed or cut short. */
int gp_remote_fetch_split(const char *text, size_t len, size_t n_globs, gp_strbuf *fresh,
                          gp_strbuf *stale, size_t *per_glob);

/* Splits the remote lister's NUL-separated answer into `out` (NUL-separated, "./" stripped,
 * duplicates kept out). Returns the count, or -1 with the offending path in `bad` when a path
 * is absolute, climbs out with "..", or holds control characters. */
long gp_remote_fetch_parse(const char *text, size_t len, gp_strbuf *out, char *bad, size_t badlen);

/* The freeze manifests, written into the run's folder: gpuport-freeze.local.json from
 * `gpuport freeze --json` of this very executable (in this environment), and
 * gpuport-freeze.remote.json. Each prints on stderr what was recorded or why it was not, and
 * returns 1 when it recorded, else 0. */
int gp_remote_freeze_local(const char *tmpdir, const char *folder);
/* The remote one, run by the remote login shell in `dir` with the run's --env words exported,
 * so that it describes the environment the command ran in. */
int gp_remote_freeze_remote(gp_ssh *s, const char *remote_gpuport, const char *dir,
                            char *const *env, size_t n_env, const char *folder);
/* The remote one as a Slurm job recorded it on the compute node (gp_slurm_step_argv):
 * `base`.json, .err and .rc, fetched to this side; they are removed. */
int gp_remote_freeze_adopt(const char *name, const char *remote_gpuport, const char *base,
                           const char *folder);

#endif
