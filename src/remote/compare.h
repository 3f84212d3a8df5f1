/* compare.h — `remote run --compare GLOB`: pairs each local output matching GLOB with its
 * fetched remote counterpart under remote/NAME/ and runs `gpuport compare` (a sibling
 * subcommand of this executable) on each pair, ending with one verdict. */
#ifndef GP_REMOTE_COMPARE_H
#define GP_REMOTE_COMPARE_H

/* `glob_pat` is relative to the current folder; `fetched` is remote/NAME/<subfolder>. Prints a
 * line per pair and the verdict on stdout. Returns 0 all pairs agree, 1 some differ or lack a
 * remote counterpart, 2 nothing matched or compare is not available (msg says which). */
int gp_remote_compare(const char *tmpdir, const char *glob_pat, const char *fetched,
                      const char *name, char *msg, unsigned long msglen);

#endif
