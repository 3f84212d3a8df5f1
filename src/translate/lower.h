/* lower.h — turning the analysed CUDA tree into dialect source, one kernel at a time (the
 * device functions it calls are cloned per combination of pointer address spaces). */
#ifndef GP_TRANSLATE_LOWER_H
#define GP_TRANSLATE_LOWER_H

#include <stdbool.h>

#include "translate/ast.h"
#include "util/strbuf.h"

typedef struct tr_lower_options {
    bool partial;   /* refusals become GP_TODO("...") markers instead of failing the file */
    int simd_width; /* the SIMD width the caller vouches for (32), or 0: warp intrinsics refused */
    bool line_directives; /* #line FILE's line before each statement */
    bool checked_run;     /* no warp-lockstep check: a checked run finds such races itself */
} tr_lower_options;

typedef struct tr_param_info {
    char kind[16]; /* GP_BUF, GP_CBUF, GP_VAL, GP_DYN_SHARED */
    char type[64];
    char name[64];
} tr_param_info;

typedef struct tr_kernel_info {
    tr_func *func;
    tr_param_info *params;
    int nparams;
    char *text;          /* the kernel's dialect source */
    bool todo;           /* the text holds GP_TODO markers */
    tr_clone_ref *calls; /* the clones its body calls (each clone lists its own) */
    int ncalls;
} tr_kernel_info;

void tr_kernel_info_add_param(tr_kernel_info *k, const char *kind, const char *type,
                              const char *name);
void tr_kernel_info_set_text(tr_kernel_info *k, const char *text);
void tr_kernel_info_free(tr_kernel_info *k);

/* Analyses and prints one kernel; the device-function clones it needs get their text (in
 * u->emitted, callees first); `helpers` receives the few support functions the translation
 * writes (atomicInc/atomicDec loops). Refusals go to the unit's diagnostics. */
void tr_lower_kernel(tr_unit *u, const tr_lower_options *opt, tr_func *kernel, gp_strbuf *helpers,
                     tr_kernel_info *info);
/* The file's plain structs as typedefs of the dialect (structs.c). */
void tr_emit_structs(const tr_unit *u, gp_strbuf *sb);
/* A launch's configuration as CUDA writes it: "<<<dim3(a, b), 256, bytes>>>" (launch.c). */
char *tr_launch_config(tr_unit *u, const tr_launch *l);
/* A `gpuport run` command line for kernel f of the file `gpk`, with what its first launch gives
 * (work-items, group size, argument values, buffer sizes) and '<placeholders>' for the rest. */
char *tr_run_line(tr_unit *u, const tr_func *f, const tr_param_info *params, int nparams,
                  const char *gpk);
/* Prints a file-scope __constant__ array with its initialiser as GP_CONSTANT_DECL. */
void tr_emit_constant(tr_unit *u, tr_sym *s, tr_expr *init, gp_strbuf *out);
/* Renames identifiers that are reserved words on some target (a note says so for each). */
void tr_rename_reserved(tr_unit *u);
/* Same-named functions (C++ overloads, and functions named like a built-in the dialect maps) get
 * names of their own, made of their parameter types; calls that the argument count decides are
 * renamed here, the others when their argument types are known (tl_resolve_overload). */
void tr_rename_overloads(tr_unit *u);
/* Marks the device functions' integer parameters that every call in the file gives the same
 * constant (and the body never changes) with that value (overload.c). */
void tr_constant_params(tr_unit *u);
const char *tr_space_name(tr_space sp);

#endif
