/* translate.h — `gpuport translate`: CUDA C kernels (a documented subset) rewritten into the
 * portable dialect, with a report of what was translated, cloned and refused. */
#ifndef GP_TRANSLATE_TRANSLATE_H
#define GP_TRANSLATE_TRANSLATE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct gp_translate_options {
    const char *const *include_dirs; /* -I folders for #include "..." */
    size_t ninclude_dirs;
    const char *const *defines; /* -D NAME[=VALUE] */
    size_t ndefines;
    bool partial;   /* leave GP_TODO("...") markers for refused constructs instead of failing */
    int simd_width; /* 32: translate warp shuffles and votes to gp_simd_* (the result then needs
                       SIMD groups of 32); 0: refuse them */
    const char *const *instantiate; /* template instances to make: "reduce<float, 256>" */
    size_t ninstantiate;
    bool verify; /* build the result for every target this machine can build for before the
                    report says a kernel runs there (without it, no target is claimed) */
    const char *metal_standin; /* verify Metal with the stand-in <metal_stdlib> in this folder
                                  where there is no Metal device (NULL: not checked) */
    bool line_directives;      /* #line before each kernel statement: messages about the result (a
                                  checked run's reports) name the .cu file's lines */
    bool checked_run; /* the result runs checked: shared-memory ordering is left to the checker
                         (no warp-lockstep refusal, no rewrite of a warp-synchronous tail) */
} gp_translate_options;

typedef enum gp_translate_status {
    GP_TRANSLATE_OK = 0,        /* everything translated */
    GP_TRANSLATE_REFUSED = 1,   /* some construct was refused (output only with `partial`) */
    GP_TRANSLATE_BAD_INPUT = 2, /* unreadable or malformed input: `error` says where */
} gp_translate_status;

typedef struct gp_translate_result {
    gp_translate_status status;
    char *output;  /* the dialect source; NULL when refused without `partial` or on bad input */
    cJSON *report; /* schema gpuport.translate/1 (NULL on bad input) */
    char *error;   /* bad input: "FILE:LINE: reason" */
} gp_translate_result;

/* Translates `path` (read from disk, or from `source` when not NULL). */
void gp_translate(const char *path, const char *source, size_t source_len,
                  const gp_translate_options *opt, gp_translate_result *res);
void gp_translate_result_free(gp_translate_result *res);

#endif
