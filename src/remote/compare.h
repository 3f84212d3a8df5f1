/* compare.h — `remote run --compare GLOB`: pairs each local output matching GLOB with its
 * fetched remote counterpart in the run's folder and runs `gpuport compare` (a sibling
 * subcommand of this executable) on each pair, ending with one verdict. */
#ifndef GP_REMOTE_COMPARE_H
#define GP_REMOTE_COMPARE_H

#include <stddef.h>

/* Tolerances handed to every `gpuport compare`; NULL: compare's own defaults. */
typedef struct gp_remote_compare_opts {
    const char *rtol, *atol, *policy;
} gp_remote_compare_opts;

/* `glob_pat` is relative to the current folder; `fetched` is the run's folder/<subfolder>.
 * Prints a line per pair (a DIFFERENT one says by how much) and the verdict on stdout. Returns
 * 0 all pairs agree, 1 some differ or lack a remote counterpart, 2 nothing matched or compare
 * is not available (msg says which). */
int gp_remote_compare(const char *tmpdir, const char *glob_pat, const char *fetched,
                      const char *name, const gp_remote_compare_opts *opts, char *msg,
                      size_t msglen);

/* From `gpuport compare`'s report of a failing pair, how much it differs: the first failing
 * tensor's verdict and its max abs, max rel and would-pass lines, how many more fail, and the
 * summary. Into buf; returns buf. */
const char *gp_remote_compare_detail(const char *report, char *buf, size_t len);

#endif
