/* pp.h — the translator's own small C preprocessor: #include of local headers, object- and
 * function-like macros (# and ##, __VA_ARGS__), conditional compilation with constant
 * expressions, `#pragma unroll` kept for the output. Object-like macros whose body is one number
 * are kept by name (the translation keeps `TILE`, not `16`); every other macro is expanded.
 * The names C and CUDA headers define for constants (NULL, INFINITY, FLT_MAX, M_PI, INT_MAX...)
 * are predefined with their values, so kernels need no stubs and the output no #define that a
 * target's own headers would clash with. */
#ifndef GP_TRANSLATE_PP_H
#define GP_TRANSLATE_PP_H

#include <stddef.h>

#include "translate/lex.h"

typedef struct tr_kept_macro {
    char *name;
    char *body; /* the number as written, e.g. "16" or "(-1)" */
    int file, line;
} tr_kept_macro;

typedef struct tr_pp_note {
    int file, line;
    char *construct;
    char *text;
} tr_pp_note;

typedef struct tr_pp_result {
    tr_tokens toks; /* the expanded program; TR_DIRECTIVE tokens only for "pragma ..." */
    char **files;   /* file table: index -> path as opened */
    size_t nfiles;
    char **system_includes; /* <...> names seen, in order, deduplicated */
    size_t nsystem;
    char *missing;       /* the first "header" not found (not read: what it declares is unknown) */
    tr_kept_macro *kept; /* constant macros kept by name, in definition order */
    size_t nkept;
    tr_pp_note *notes; /* what the preprocessor skipped and why (quoted system headers) */
    size_t nnotes;
    size_t context_end; /* toks[0, context_end): the including file's part (options' context) */
    size_t tail_begin;  /* toks[tail_begin, EOF): the including file's part after its #include */
    int main_file;      /* the file table index of `path` */
} tr_pp_result;

typedef struct tr_pp_options {
    const char *const *include_dirs; /* searched after the including file's folder */
    size_t ninclude_dirs;
    const char *const *defines; /* "NAME" or "NAME=VALUE" */
    size_t ndefines;
    const char *source; /* NULL: read `path` from disk; else these bytes are its contents */
    size_t source_len;
    /* the files that include `path` (`#include "kernels.cu"` in main.cu; and the one that
     * includes main.cu...), outermost first, each one's text before its #include: preprocessed
     * first, in this order, as the compiler sees them */
    const char *const *context_paths;
    const char *const *contexts;
    const size_t *context_lens;
    size_t ncontexts;
    /* the innermost including file's text after its #include (NULL: none), preprocessed after
     * `path`: where the host code that launches this file's kernels usually is */
    const char *tail_path;
    const char *tail;
    size_t tail_len;
} tr_pp_options;

/* Preprocesses `path`. 0, or -1 with "FILE:LINE: reason" in err (unreadable file, include depth,
 * malformed directive, unterminated #if, #error reached, runaway expansion). */
int tr_preprocess(const char *path, const tr_pp_options *opt, tr_pp_result *out, char *err,
                  size_t errlen);
void tr_pp_result_free(tr_pp_result *r);
/* The value of an integer constant expression of numbers and operators (as #if reads them; no
 * names): false when t[0..n) is not one. */
bool tr_const_eval(const tr_token *t, size_t n, long long *value);

#endif
