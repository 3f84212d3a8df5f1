/* assemble.h — putting the pieces of a translation together into dialect source (assemble.c),
 * for the whole file or for the kernels one target builds, and building those for each target
 * before the report says a kernel runs there (verify.c). */
#ifndef GP_TRANSLATE_ASSEMBLE_H
#define GP_TRANSLATE_ASSEMBLE_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "translate/lower.h"
#include "translate/translate.h"

typedef struct tr_assembly {
    tr_unit *u;
    tr_kernel_info *ki;
    int nk;
    const char *support; /* functions the translation wrote (atomicInc loops) */
    const char *path;
    int simd_width;
} tr_assembly;

/* Where a piece of the assembled text lies: lines [first, last]; kernel >= 0, or -1 for a clone
 * (g, k), or -2 for what every kernel needs (prelude lines, constants). */
typedef struct tr_span {
    int first, last;
    int kernel;
    tr_clone_ref clone;
} tr_span;

/* The source of the kernels `include` marks (and the clones they reach). With `refusals`, the
 * refused kernels (include false) are written too, as line comments holding their GP_TODO
 * markers: the rest builds, and a kernel taken out of its comment stops the build at each marker
 * with its reason. `spans` (may be NULL) receives where each piece lies. */
char *tr_assemble_pieces(const tr_assembly *as, const bool *include, int refusals, tr_span **spans,
                         int *nspans);
char *tr_assemble(const tr_assembly *as, const bool *include, tr_span **spans, int refusals);
/* Which clones (indices into u->emitted) kernel k reaches. */
void tr_reach(const tr_assembly *as, int k, bool *mark);

typedef enum tr_target { TR_T_CUDA, TR_T_CPU, TR_T_OPENCL, TR_T_METAL, TR_NTARGETS } tr_target;
typedef enum tr_build_status {
    TR_BUILD_UNCHECKED, /* not built here (no such device or compiler) */
    TR_BUILD_OK,
    TR_BUILD_FAILED, /* detail: the compiler's message */
    TR_BUILD_NOT_TARGET,
} tr_build_status;

typedef struct tr_build {
    tr_build_status status;
    char *detail;
} tr_build;

/* Builds the translated kernels for every target this machine can build for: the runtime's
 * devices (the CPU backend's C compiler, OpenCL, CUDA, Metal), and for Metal on other machines
 * the syntax check against a stand-in <metal_stdlib> when opt->metal_standin names one. Returns
 * nk * TR_NTARGETS results (kernel-major). */
tr_build *tr_verify(const tr_assembly *as, const bool *ok, const gp_translate_options *opt);
/* Adds "verification": what was built where, and how long it took. */
void tr_verify_summary(cJSON *report, const tr_build *b, int nk);
void tr_builds_free(tr_build *b, int nk);

#endif
