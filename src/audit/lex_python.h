/* lex_python.h — a Python tokenizer that pulls one token at a time: names, numbers, strings
 * (all prefixes, triple quotes, f-strings with nested replacement fields), operators and logical
 * line ends (implicit joins inside brackets and backslash continuations). Comments never become
 * tokens; `gpuport: ignore[...]` comments are handed to the result as suppressions. */
#ifndef GP_AUDIT_LEX_PYTHON_H
#define GP_AUDIT_LEX_PYTHON_H

#include "audit/source.h"

typedef enum gp_py_kind {
    GP_PY_END,
    GP_PY_NAME,
    GP_PY_NUMBER,
    GP_PY_STRING,
    GP_PY_OP,
    GP_PY_NEWLINE
} gp_py_kind;

typedef struct gp_py_tok {
    gp_py_kind kind;
    size_t off, len;   /* the token's bytes */
    size_t body, blen; /* a string's contents between its quotes */
    uint32_t line;
    size_t line_off; /* offset of the token's physical line */
    int indent;      /* the logical line's indentation (first token of a line) */
    bool first;      /* the first token of a logical line */
    bool fstring;
} gp_py_tok;

typedef struct gp_py_lexer {
    gp_audit_source *src;
    gp_audit_result *res; /* suppressions go here; may be NULL */
    size_t pos;
    uint32_t line;
    size_t line_off;
    int depth;    /* open brackets */
    bool bol;     /* at the beginning of a logical line */
    bool pending; /* the logical line has tokens (a NEWLINE is due) */
    int indent;
    uint32_t line_base; /* added to line numbers (0; notebooks use cell lines) */
    size_t sk_at; /* the skip's special-byte bits of the 64 bytes from here (SIZE_MAX: none) */
    uint64_t sk_bits;
} gp_py_lexer;

/* Is byte c part of a name (the lexer's own class: a NAME token never starts after one)? Letters,
 * digits, '_' and every byte >= 0x80 (UTF-8 names and invalid bytes alike). */
extern const bool gp_py_name_chars[256];
static inline bool gp_py_is_name_char(unsigned char c)
{
    return gp_py_name_chars[c];
}

void gp_py_lexer_init(gp_py_lexer *lx, gp_audit_source *src, gp_audit_result *res);
/* The next token; GP_PY_END at the end of input (after a final NEWLINE). */
void gp_py_lexer_next(gp_py_lexer *lx, gp_py_tok *t);

/* What gp_py_lexer_skip_line tells of a logical line it skipped. */
typedef struct gp_py_line {
    size_t first;     /* offset of its first token (its indentation is in lx->indent) */
    size_t end;       /* offset of its ending newline, or the input's size */
    size_t last;      /* offset of its last token's last byte */
    bool last_string; /* the last token is a string */
} gp_py_line;

/* Moves past one logical line without making tokens, leaving the lexer where gp_py_lexer_next
 * would be after the line's NEWLINE. Call it at the start of a logical line (after a NEWLINE, or
 * at the start). LINE: skipped, *ln filled in. EOF: no line was left. UNSURE: the line holds a
 * construct whose tokens the skip cannot tell apart (a string prefix that a number may have
 * taken in); the lexer's state is then undefined: restore a copy taken before the call and lex
 * the line. */
typedef enum gp_py_skip { GP_PY_SKIP_EOF, GP_PY_SKIP_LINE, GP_PY_SKIP_UNSURE } gp_py_skip;
gp_py_skip gp_py_lexer_skip_line(gp_py_lexer *lx, gp_py_line *ln);

#endif
