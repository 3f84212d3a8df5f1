/* sync.h — `remote run --sync`: makes the remote folder hold the local work tree (tracked and
 * untracked-not-ignored files) with rsync over the shared ssh connection, and propagates
 * deletions through a manifest of the last sync kept on the remote side. */
#ifndef GP_REMOTE_SYNC_H
#define GP_REMOTE_SYNC_H

#include <stddef.h>

#include "remote/ssh.h"
#include "remote/worktree.h"

/* The folder on the remote side that holds gpuport's own files (manifest, incomplete marker). */
#define GP_REMOTE_META_DIR ".gpuport-remote"

/* Syncs `wt` into `dir` (home-relative or absolute) on the remote side, a folder of the project
 * `project` (gp_worktree_project_id; "" none: no check): the first sync marks it as the project's
 * own
 * (.gpuport-remote/project holds the id); a folder marked by another project is refused (exit
 * code 2, the reason and the fix in msg) before anything there changes. Prints one summary line
 * on stderr. The sync counts as complete on the remote side only once the run wrapper was
 * started with `synced` set (gp_remote_cmd), which adopts the new manifest. Returns 0, or an exit
 * code (2 the sync did not finish, 3 the connection was lost, 128+N interrupted by signal N) with
 * one line in msg that says so and what to do. */
int gp_remote_sync(gp_ssh *s, const gp_worktree *wt, const char *dir, const char *project,
                   char *msg, size_t msglen);

/* Adds to `out` each NUL-separated path of `old` (the previous manifest, `old_len` bytes) that
 * is not in `now` (the current list) and is a safe relative path. Returns the number added. */
size_t gp_remote_sync_removed(const char *old, size_t old_len, const char *now, size_t now_len,
                              gp_strbuf *out);

#endif
