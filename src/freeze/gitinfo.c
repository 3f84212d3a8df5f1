/* gitinfo.c — the commit a run was made from and whether the work tree differed from it. git's
 * own view (index, ignore rules, worktrees) exists only inside git, so git is run (no shell). */
#include <stdlib.h>
#include <string.h>

#include "freeze/collect.h"
#include "util/spawn.h"

/* Runs `git -C dir ARGS`; returns trimmed stdout or NULL; *lines gets the number of lines. */
static char *git_out(const char *dir, const char *a1, const char *a2, const char *a3, int *lines)
{
    char *argv[] = {"git", "-C", (char *)dir, (char *)a1, (char *)a2, (char *)a3, NULL};
    gp_spawn_result r;
    char err[256];
    if (gp_spawn_capture(argv, NULL, 30.0, 16 << 20, &r, err, sizeof err) != 0) return NULL;
    char *out = NULL;
    if (r.exit_code == 0) {
        if (lines) {
            *lines = 0;
            for (size_t i = 0; i < r.out_len; i++)
                *lines += r.out[i] == '\n';
        }
        while (r.out_len && (r.out[r.out_len - 1] == '\n' || r.out[r.out_len - 1] == '\r'))
            r.out[--r.out_len] = '\0';
        out = strdup(r.out);
    }
    gp_spawn_result_free(&r);
    return out;
}

cJSON *gp_freeze_git(const char *dir)
{
    const char *d = dir ? dir : ".";
    char *root = git_out(d, "rev-parse", "--show-toplevel", NULL, NULL);
    if (!root) return gp_freeze_unavailable("not inside a git work tree (or git is not installed)");
    cJSON *g = cJSON_CreateObject();
    cJSON_AddStringToObject(g, "root", root);
    char *head = git_out(d, "rev-parse", "--verify", "HEAD", NULL);
    if (head)
        cJSON_AddStringToObject(g, "commit", head);
    else
        cJSON_AddNullToObject(g, "commit"); /* a repository without commits */
    char *branch = git_out(d, "symbolic-ref", "--short", "HEAD", NULL);
    if (branch && *branch)
        cJSON_AddStringToObject(g, "branch", branch);
    else
        cJSON_AddNullToObject(g, "branch");
    int changed = 0;
    char *status = git_out(d, "status", "--porcelain", NULL, &changed);
    if (status) {
        cJSON_AddBoolToObject(g, "dirty", changed > 0);
        cJSON_AddNumberToObject(g, "changed_files", changed);
    }
    free(root);
    free(head);
    free(branch);
    free(status);
    return g;
}
