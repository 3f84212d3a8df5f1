/*
 * freeze.h — what a run needs to be reproduced and compared: the manifest `gpuport freeze`
 * writes (schema gpuport.freeze/1), how it is collected, read back, and compared with another.
 * Collection reads files where the facts live; it starts a program only where a fact exists
 * nowhere else (the compilers' versions, git's view of the work tree, the Python's sys.path).
 */
#ifndef GP_FREEZE_FREEZE_H
#define GP_FREEZE_FREEZE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct gp_freeze_seed {
    const char *name;
    const char *value;
} gp_freeze_seed;

typedef struct gp_freeze_options {
    const char *const *data_paths; /* files or folders to hash (folders: every file below) */
    size_t data_count;
    const gp_freeze_seed *seeds;
    size_t seed_count;
    const char *python;     /* interpreter to describe; NULL = python3 on PATH */
    const char *git_dir;    /* work tree to describe; NULL = the current directory */
    int threads;            /* hashing threads; 0 = one per core */
    bool no_python;         /* skip the Python section (no subprocess) */
    const char *mps_report; /* a gpuport mps-check report to summarise, or NULL */
} gp_freeze_options;

/* Collects the manifest. Returns NULL with "PATH: reason" in err only when a data path or the
 * mps-check report cannot be read (the run would not be reproducible); any other missing fact
 * becomes null with a reason. */
cJSON *gp_freeze_collect(const gp_freeze_options *opt, char *err, size_t errlen);

/* The "mps" section (mps.c): the PyTorch MPS fallback setting of this run and, from a
 * gpuport.mps-check/1 report, its verdict, fallback operators and first failure. NULL with
 * "PATH: reason" in err when the report cannot be read or is not one. */
cJSON *gp_freeze_mps(const char *report_path, char *err, size_t errlen);
/* The summary of a parsed report (`name` names it in the section and in messages). */
cJSON *gp_freeze_mps_summary(const cJSON *report, const char *name, char *err, size_t errlen);

/* Reads and validates a manifest file (size-capped, schema checked) as one cJSON tree. NULL with
 * "PATH: reason" in err. For manifests of ordinary size; gp_freeze_load reads any. */
cJSON *gp_freeze_read(const char *path, char *err, size_t errlen);
/* Validates a parsed manifest; 0, or -1 with the reason (without the path) in err. */
int gp_freeze_validate(const cJSON *m, char *err, size_t errlen);

/* The largest manifest file read (a data list of about a million files). */
#define GP_FREEZE_MANIFEST_CAP ((size_t)64 << 20)

/* A data entry, compact: a manifest may list hundreds of thousands of files, and a cJSON tree
 * of them costs ten times the file's size. */
typedef struct gp_freeze_file {
    size_t path; /* offset of its NUL-terminated path in the manifest's `paths` */
    double size;
    unsigned char sha256[32];
} gp_freeze_file;

/* A manifest as gp_freeze_load reads it: the data list in a compact table, the rest (small) as
 * cJSON. */
typedef struct gp_freeze_manifest {
    cJSON *rest; /* every top-level member but "data" */
    gp_freeze_file *files;
    size_t nfiles, files_cap;
    char *paths; /* the paths, one after another */
    size_t paths_len, paths_cap;
} gp_freeze_manifest;

/* Reads and validates a manifest file in one pass, in memory proportional to its entries: a
 * file that is not regular, or over GP_FREEZE_MANIFEST_CAP by its size, is refused before a
 * byte is read; the file is mapped and its pages are dropped as the data list is read. The
 * rules are gp_freeze_validate's (and no path may hold a NUL). 0, or -1 with "PATH: reason" in
 * err (m then needs no freeing). */
int gp_freeze_load(const char *path, gp_freeze_manifest *m, char *err, size_t errlen);
/* The same for text in memory; `name` names it in messages. */
int gp_freeze_load_text(const char *name, const char *text, size_t len, gp_freeze_manifest *m,
                        char *err, size_t errlen);
void gp_freeze_manifest_free(gp_freeze_manifest *m);

/* One difference between two manifests. */
typedef struct gp_freeze_change {
    char *area;   /* "python", "environment", "data", ... */
    char *key;    /* "numpy", "CUDA_VISIBLE_DEVICES", "data/x.npy" */
    char *a;      /* value in A, or NULL when absent */
    char *b;      /* value in B, or NULL when absent */
    bool matters; /* can change results (false: informational, e.g. hostname) */
} gp_freeze_change;

typedef struct gp_freeze_diff {
    gp_freeze_change *changes;
    size_t count;
} gp_freeze_diff;

/* Compares two validated manifests; changes in a stable order (area, then key). Time and memory
 * grow with the entries: the data lists are sorted by path and merged. 0, or -1 out of memory. */
int gp_freeze_diff_manifests(const gp_freeze_manifest *a, const gp_freeze_manifest *b,
                             gp_freeze_diff *out);
/* The same for two validated manifests as cJSON trees. */
int gp_freeze_diff_compute(const cJSON *a, const cJSON *b, gp_freeze_diff *out);
void gp_freeze_diff_free(gp_freeze_diff *d);
/* The diff as JSON (schema gpuport.freeze-diff/1). */
cJSON *gp_freeze_diff_json(const gp_freeze_diff *d, const char *path_a, const char *path_b);

/* The environment variables recorded, because they change results: exact names and prefixes. */
bool gp_freeze_env_is_recorded(const char *name);

#endif
