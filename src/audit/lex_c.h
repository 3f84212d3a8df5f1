/* lex_c.h — a C/C++/CUDA tokenizer: identifiers, numbers, string and character literals (with
 * encoding prefixes and C++ raw strings), punctuation (`<<<`, `>>>`, `::`), and the
 * preprocessor: `#include` names become tokens, `#if 0` regions are skipped, and code inside
 * `#if`/`#ifdef` on a CUDA switch (USE_CUDA, __CUDACC__, ...) is marked guarded. Comments never
 * become tokens; `gpuport: ignore[...]` comments become suppressions. */
#ifndef GP_AUDIT_LEX_C_H
#define GP_AUDIT_LEX_C_H

#include "audit/source.h"

typedef enum gp_c_kind {
    GP_C_END,
    GP_C_IDENT,
    GP_C_NUMBER,
    GP_C_STRING,
    GP_C_PUNCT,
    GP_C_INCLUDE
} gp_c_kind;

typedef struct gp_c_tok {
    gp_c_kind kind;
    size_t off, len; /* GP_C_INCLUDE: the header name without <> or "" */
    uint32_t line;
    size_t line_off;
    bool guarded;
    bool in_define; /* a token of a #define's body */
} gp_c_tok;

#define GP_C_MAX_COND 64

typedef struct gp_c_cond {
    uint8_t mode;  /* 0 normal, 1 skipped, 2 guarded (CUDA branch) */
    uint8_t cuda;  /* the condition names a CUDA switch */
    uint8_t inv;   /* ... negated (#ifndef, !defined) */
    uint8_t taken; /* a constant-true branch was taken (for #if 0/1 chains) */
    uint8_t konst; /* the chain so far is constant (#if 0 / #if 1) */
} gp_c_cond;

typedef struct gp_c_lexer {
    gp_audit_source *src;
    gp_audit_result *res;
    size_t pos;
    uint32_t line;
    size_t line_off;
    bool bol;       /* only whitespace so far on this line */
    bool directive; /* inside a #define (tokens continue until the line ends) */
    gp_c_cond cond[GP_C_MAX_COND];
    int ncond;
    int overflow;  /* nesting deeper than GP_C_MAX_COND */
    bool skipping; /* inside a group that is compiled out (#if 0) */
    bool guarded;  /* inside a group on a CUDA switch */
} gp_c_lexer;

/* Is byte c part of an identifier (the lexer's own class: a token never starts after one)? */
bool gp_c_is_ident_char(unsigned char c);

void gp_c_lexer_init(gp_c_lexer *lx, gp_audit_source *src, gp_audit_result *res);
void gp_c_lexer_next(gp_c_lexer *lx, gp_c_tok *t);

/* Moves on as gp_c_lexer_next would, dropping tokens, and stops between tokens at the first
 * place at or after `until` (a line start, or the end of a comment or literal that ran past it).
 * STOPPED: stopped there. EOF: the input ended first. UNSURE: the bytes ahead could be read two
 * ways without tokens (a number running on into a string prefix or a quote), or an #include to be
 * reported lies across `until`; the lexer's state is then undefined: start the file again with
 * gp_c_lexer_next. */
typedef enum gp_c_skip { GP_C_SKIP_STOPPED, GP_C_SKIP_EOF, GP_C_SKIP_UNSURE } gp_c_skip;
gp_c_skip gp_c_lexer_skip(gp_c_lexer *lx, size_t until);

#endif
