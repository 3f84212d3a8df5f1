/* walk.h — the ordered tree walk: directories read whole and sorted by name (so output is
 * deterministic), default and user excludes, .gitignore on request, symlinks checked against the
 * scanned root (never followed out of it; directory links never followed, so no loops), each
 * file tagged with its module (Python package, CMake directory, or top-level directory). */
#ifndef GP_AUDIT_WALK_H
#define GP_AUDIT_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "audit/source.h"

typedef enum gp_module_kind {
    GP_MOD_PYTHON_PACKAGE,
    GP_MOD_CMAKE,
    GP_MOD_DIRECTORY
} gp_module_kind;

typedef struct gp_walk_file {
    const char *path; /* as displayed: the root argument joined with the relative path */
    gp_audit_lang lang;
    const char *module; /* module path (display form) */
    gp_module_kind module_kind;
    bool is_arg; /* the file was given as a path argument itself */
} gp_walk_file;

typedef struct gp_walk_opts {
    bool respect_gitignore;
    bool no_default_excludes;
    const char *const *excludes;
    size_t nexcludes;
} gp_walk_opts;

typedef struct gp_walk_cb {
    void *ctx;
    /* a file to scan; return non-zero to stop the walk */
    int (*file)(void *ctx, const gp_walk_file *f);
    /* something that could not be read or was not followed */
    void (*problem)(void *ctx, const char *path, const char *what);
    /* a file of no audited kind (counted only) */
    void (*other)(void *ctx);
} gp_walk_cb;

/* Walks `root` (a directory or a single file). Returns 0, or -1 when root does not exist or
 * cannot be read at all (message in err). */
int gp_audit_walk(const char *root, const gp_walk_opts *o, const gp_walk_cb *cb, char *err,
                  size_t errlen);

const char *gp_module_kind_name(gp_module_kind k);

#endif
