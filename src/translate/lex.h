/* lex.h — the tokenizer of CUDA C source for the translator: identifiers, numbers, strings,
 * punctuators and preprocessor lines, each with its file and line; comments are dropped. */
#ifndef GP_TRANSLATE_LEX_H
#define GP_TRANSLATE_LEX_H

#include <stdbool.h>
#include <stddef.h>

typedef enum tr_tok_kind {
    TR_EOF,
    TR_IDENT,
    TR_NUMBER,
    TR_STRING,
    TR_CHAR,
    TR_PUNCT,
    TR_DIRECTIVE, /* a whole preprocessor line, continuations joined; text starts after '#' */
} tr_tok_kind;

typedef struct tr_token {
    tr_tok_kind kind;
    char *text; /* NUL-terminated copy */
    int file;   /* index into the translator's file table */
    int line, col;
    bool bol; /* first token of its line */
} tr_token;

typedef struct tr_tokens {
    tr_token *v;
    size_t n, cap;
} tr_tokens;

/* Tokenizes `src` (`len` bytes) of file `file`. 0, or -1 with "NAME:LINE: reason" in err
 * (unterminated comment, string or character literal; a stray byte; input over the limits). */
int tr_lex(const char *name, int file, const char *src, size_t len, tr_tokens *out, char *err,
           size_t errlen);
void tr_tokens_free(tr_tokens *t);
/* Appends a copy of `t` (text duplicated). 0 or -1 on ENOMEM. */
int tr_tokens_push(tr_tokens *ts, const tr_token *t);

/* C's binary operators by precedence, loosest first: `||` is level 0, `* / %` level 9 (what the
 * parser, the printer and the preprocessor's #if arithmetic agree on). */
enum { TR_BINARY_LEVELS = 10 };
extern const char *const tr_binary_ops[TR_BINARY_LEVELS][4];
/* The level of binary operator `op`, or -1 when it is not one. */
int tr_binary_level(const char *op);

#endif
