/* worktree.h — the local side of `gpuport remote run`: the git work tree it syncs from and
 * fetches into, and the list of files that make up the tree (tracked plus untracked files that
 * .gitignore does not exclude), asked from git itself so every ignore rule is honoured. */
#ifndef GP_REMOTE_WORKTREE_H
#define GP_REMOTE_WORKTREE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

typedef struct gp_worktree {
    char *root;   /* absolute path of the work tree */
    char *prefix; /* the current folder relative to root: "" or "sub/dir/" */
    char *name;   /* the root's last component, for the default remote folder */
} gp_worktree;

/* Finds the work tree around the current folder. 0, or -1 with the reason in err. */
int gp_worktree_find(gp_worktree *wt, const char *tmpdir, char *err, size_t errlen);
void gp_worktree_free(gp_worktree *wt);

/* The git config key that holds the project's id (in the repository's .git/config). */
#define GP_WORKTREE_ID_KEY "gpuport.remote-project"

/* The project's id, which marks the remote folders it syncs to as its own: the value of git
 * config GP_WORKTREE_ID_KEY, made (32 random hex digits) and kept there the first time. 0, or
 * -1 with the reason in err. */
int gp_worktree_project_id(const gp_worktree *wt, const char *tmpdir, char *id, size_t idlen,
                           char *err, size_t errlen);

/* The files to sync, each NUL-terminated, in `out`: `git ls-files --cached` (which keeps
 * files deleted from the disk but not from the index, so their deletion reaches the remote)
 * plus `--others --exclude-standard`, less untracked files under remote/ (what earlier fetches
 * brought back). *count receives the number of paths. 0 or -1 with the reason in err. */
int gp_worktree_list(const gp_worktree *wt, const char *tmpdir, gp_strbuf *out, size_t *count,
                     char *err, size_t errlen);

/* True when `p` is a safe relative path: not empty, not absolute, no "." or ".." component,
 * no control characters. Paths that come from the remote side are checked with it. */
bool gp_worktree_path_safe(const char *p);

#endif
