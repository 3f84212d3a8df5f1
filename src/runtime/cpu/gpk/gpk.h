/* gpk.h — the CPU backend's front end for the kernel dialect: tokens with their source
 * positions, a preprocessor that expands the user's macros (and leaves the prelude's names to
 * the C compiler), a syntax tree of the C99 subset with the GP_ forms, a parser, and a printer
 * that turns a tree back into C with #line directives. Passes over the tree (the checked build's
 * instrumentation; later ones that restructure kernels) print it through gk_printer hooks.
 * Every node keeps where it came from: a token of a macro's body has the position of the macro's
 * use, a token of a macro argument its own. The input is hostile: sizes are capped, errors name
 * file:line:col. Nodes live in one arena per unit. */
#ifndef GP_RUNTIME_CPU_GPK_GPK_H
#define GP_RUNTIME_CPU_GPK_GPK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/* The prelude's integer atomics, 32- and 64-bit: macros the preprocessor leaves to the C
 * compiler, and calls the checked build bounds-checks (an initialiser list of names). */
#define GK_INT_ATOMIC_NAMES                                                                        \
    "gp_atomic_add", "gp_atomic_sub", "gp_atomic_and", "gp_atomic_or", "gp_atomic_xor",            \
        "gp_atomic_xchg", "gp_atomic_cas", "gp_atomic_min", "gp_atomic_max", "gp_atomic64_add",    \
        "gp_atomic64_sub", "gp_atomic64_and", "gp_atomic64_or", "gp_atomic64_xor",                 \
        "gp_atomic64_xchg", "gp_atomic64_cas", "gp_atomic64_min", "gp_atomic64_max"

/* ---- memory --------------------------------------------------------------------------------- */
typedef struct gk_arena_block gk_arena_block;
typedef struct gk_arena {
    gk_arena_block *head;
    size_t used_total; /* bytes handed out, for the size cap */
    bool failed;       /* an allocation failed or went over the cap */
} gk_arena;

void *gk_alloc(gk_arena *a, size_t n); /* zeroed; NULL when out of memory or over the cap */
char *gk_strndup(gk_arena *a, const char *s, size_t n);
void gk_arena_free(gk_arena *a);

/* ---- tokens ---------------------------------------------------------------------------------- */
typedef enum gk_tk {
    GK_EOF = 0,
    GK_IDENT,
    GK_NUMBER, /* a preprocessing number: 12, 0x1f, 1.5e-3f */
    GK_CHAR,   /* 'a' */
    GK_STRING, /* "..." */
    GK_PUNCT,
    GK_OTHER, /* a stray character (an error when the parser meets it) */
} gk_tk;

typedef struct gk_pos {
    uint16_t file; /* index into the unit's file names (0: the source itself) */
    uint32_t line, col;
} gk_pos;

typedef struct gk_token {
    gk_tk kind;
    gk_pos pos;
    const char *text;
    uint32_t len;
    uint8_t bol;   /* first token of its (logical) line */
    uint8_t space; /* white space before it */
    uint8_t blue;  /* a macro's name inside its own expansion: never expanded again */
} gk_token;

typedef struct gk_toks {
    gk_token *v;
    size_t n, cap;
} gk_toks;

bool gk_tok_is(const gk_token *t, const char *s);

/* The file names a unit's positions refer to. */
typedef struct gk_files {
    char **names;
    size_t n;
} gk_files;

/* Splits `src` into tokens (comments dropped, backslash-newlines spliced). -1 with "name:line:col:
 * reason" in err for an unterminated comment or literal. */
int gk_lex(gk_arena *a, const char *src, size_t len, uint16_t file, gk_toks *out, char *err,
           size_t errlen);

/* ---- preprocessing --------------------------------------------------------------------------- */
/* Expands `src` as the dialect's C compilers would, on the CPU target: the build's defines
 * ("NAME=VALUE" or "NAME") and GP_TARGET_CPU/GP_DIALECT are macros; the prelude's names count as
 * defined (for #ifdef) but are kept as written, for the C compiler to expand with the prelude;
 * #include is refused (the dialect has none), #pragma dropped, #error reported. The file names go
 * to *files (the source is file 0). */
int gk_preprocess(gk_arena *a, const char *src, size_t len, const char *source_name,
                  const char *const *defines, uint32_t ndefines, gk_toks *out, gk_files *files,
                  char *err, size_t errlen);
/* Is `name` (n bytes) one of the prelude's macros (GP_KERNEL, gp_global_id, gp_barrier, ...)? */
bool gk_is_prelude_macro(const char *name, size_t n);

/* ---- the syntax tree ------------------------------------------------------------------------- */
typedef struct gk_expr gk_expr;
typedef struct gk_stmt gk_stmt;
typedef struct gk_type gk_type;
typedef struct gk_decl gk_decl;
typedef struct gk_record gk_record;

/* Qualifiers (the dialect's address spaces are qualifiers too). */
enum {
    GK_Q_CONST = 1u << 0,
    GK_Q_VOLATILE = 1u << 1,
    GK_Q_RESTRICT = 1u << 2,
    GK_Q_GLOBAL = 1u << 3,   /* GP_GLOBAL */
    GK_Q_SHARED = 1u << 4,   /* GP_SHARED */
    GK_Q_CONSTANT = 1u << 5, /* GP_CONSTANT */
    GK_Q_PRIVATE = 1u << 6,  /* GP_PRIVATE */
};

/* A type as a chain from the outside in: `float *a[4]` is ARRAY(4) of PTR of BASE(float). */
typedef enum gk_type_kind { GK_T_BASE, GK_T_PTR, GK_T_ARRAY, GK_T_FUNC } gk_type_kind;

typedef struct gk_param {
    gk_type *type;
    const char *name; /* NULL for an unnamed parameter */
    gk_pos pos;
} gk_param;

struct gk_type {
    gk_type_kind kind;
    uint32_t quals; /* GK_Q_* on this level (on BASE: of the base type) */
    gk_type *of;    /* PTR: pointee; ARRAY: element; FUNC: return type */
    /* BASE: the specifiers as written ("unsigned int", "gp_float4", "struct pt"), without
     * qualifiers; `record` when they name a struct or union the unit defines */
    const char *spec;
    gk_record *record;
    const gk_type *alias; /* BASE naming a typedef: the type it stands for */
    gk_expr *dim;         /* ARRAY: the size (NULL: []) */
    gk_param *params;
    size_t nparams;
    bool variadic;
};

/* A struct or union: its members, for typing member accesses. `body` is false for `struct x;`. */
typedef struct gk_member {
    const char *name;
    gk_type *type;
} gk_member;

struct gk_record {
    bool is_union, body;
    const char *tag; /* NULL when anonymous */
    gk_member *members;
    size_t nmembers;
    gk_pos pos;
};

typedef enum gk_expr_kind {
    GK_E_IDENT,
    GK_E_NUMBER,
    GK_E_CHAR,
    GK_E_STRING,
    GK_E_CALL,    /* a(args) */
    GK_E_INDEX,   /* a[b] */
    GK_E_MEMBER,  /* a.name */
    GK_E_ARROW,   /* a->name */
    GK_E_POSTINC, /* a++ a-- (op "++" / "--") */
    GK_E_UNARY,   /* op a: - + ! ~ * & ++ -- */
    GK_E_SIZEOF_EXPR,
    GK_E_SIZEOF_TYPE, /* also _Alignof (op) */
    GK_E_CAST,
    GK_E_COMPOUND, /* (type){ init } */
    GK_E_BINARY,   /* a op b, including the comma operator */
    GK_E_ASSIGN,   /* a op b with op = "=", "+=", ... */
    GK_E_COND,     /* a ? b : c */
    GK_E_INIT,     /* { ... } (in initializers and compound literals) */
} gk_expr_kind;

/* One element of an initializer list, with its designators (.x, [3]). */
typedef struct gk_designator {
    const char *field; /* .field, or NULL */
    gk_expr *index;    /* [index], or NULL */
} gk_designator;

typedef struct gk_init_item {
    gk_designator *desig;
    size_t ndesig;
    gk_expr *value;
} gk_init_item;

struct gk_expr {
    gk_expr_kind kind;
    gk_pos pos;       /* where the expression starts */
    gk_pos op_pos;    /* the operator (binary, assignment, index, call) */
    const char *op;   /* operator text; the spelling of literals and identifiers */
    const char *name; /* IDENT, MEMBER, ARROW */
    gk_expr *a, *b, *c;
    gk_expr **args; /* CALL */
    size_t nargs;
    gk_type *type;       /* CAST, COMPOUND, SIZEOF_TYPE */
    gk_init_item *items; /* INIT */
    size_t nitems;
    void *note; /* for passes: what they learned about this node */
};

/* Storage and function specifiers of a declaration. */
enum {
    GK_S_TYPEDEF = 1u << 0,
    GK_S_STATIC = 1u << 1,
    GK_S_EXTERN = 1u << 2,
    GK_S_INLINE = 1u << 3,
    GK_S_REGISTER = 1u << 4,
    GK_S_SHARED_DECL = 1u << 5,   /* GP_SHARED_DECL */
    GK_S_CONSTANT_DECL = 1u << 6, /* GP_CONSTANT_DECL */
    GK_S_FUNC = 1u << 7,          /* GP_FUNC */
    GK_S_THREAD_LOCAL = 1u << 8,
};

/* One declarator of a declaration: `int a = 1, *b;` has two. */
typedef struct gk_declarator {
    const char *name; /* NULL for a declaration that only defines a type (struct x {...};) */
    gk_pos pos;
    gk_type *type; /* the full type of `name` */
    gk_expr *init; /* NULL when none */
    void *note;    /* for passes */
} gk_declarator;

struct gk_decl {
    uint32_t storage; /* GK_S_* */
    gk_pos pos;
    /* the specifiers as written, for printing: "unsigned int", "struct pt { float x, y; }" */
    const char *spec_text;
    gk_type *base;        /* the base type the declarators derive from */
    gk_record *defines;   /* a struct/union this declaration defines, or NULL */
    gk_declarator *decls; /* each one's type already includes the base */
    size_t ndecls;
};

typedef enum gk_stmt_kind {
    GK_S_EXPR,
    GK_S_DECL,
    GK_S_BLOCK,
    GK_S_IF,
    GK_S_WHILE,
    GK_S_DO,
    GK_S_FOR,
    GK_S_SWITCH,
    GK_S_CASE,    /* case a: body */
    GK_S_DEFAULT, /* default: body */
    GK_S_LABEL,   /* name: body */
    GK_S_GOTO,
    GK_S_BREAK,
    GK_S_CONTINUE,
    GK_S_RETURN,
    GK_S_EMPTY,
} gk_stmt_kind;

struct gk_stmt {
    gk_stmt_kind kind;
    gk_pos pos;
    gk_expr *expr;      /* EXPR, RETURN (may be NULL), IF/WHILE/DO/SWITCH condition, CASE value,
                           FOR condition (may be NULL) */
    gk_expr *step;      /* FOR */
    gk_stmt *init;      /* FOR: a DECL or EXPR statement, or NULL */
    gk_stmt *body;      /* IF then, loops, SWITCH, CASE, DEFAULT, LABEL */
    gk_stmt *else_body; /* IF */
    gk_decl *decl;      /* DECL */
    gk_stmt **items;    /* BLOCK */
    size_t nitems;
    gk_pos end;        /* BLOCK: the closing brace */
    const char *label; /* LABEL, GOTO */
    void *note;
};

/* A kernel parameter: GP_BUF(T, name) and its kin. */
typedef enum gk_kparam_kind { GK_KP_BUF, GK_KP_CBUF, GK_KP_VAL, GK_KP_DYN } gk_kparam_kind;

typedef struct gk_kparam {
    gk_kparam_kind kind;
    gk_type *type; /* T */
    const char *type_text;
    const char *name;
    gk_pos pos;
} gk_kparam;

typedef enum gk_top_kind {
    GK_TOP_DECL,     /* typedefs, structs, GP_CONSTANT_DECL tables, prototypes */
    GK_TOP_FUNCTION, /* a helper: decl holds its one declarator (a FUNC type) */
    GK_TOP_KERNEL,   /* GP_KERNEL(name, params) { body } */
    GK_TOP_REQUIRES, /* GP_REQUIRES_FP64, GP_REQUIRES_SIMD_WIDTH(n): printed as written */
} gk_top_kind;

typedef struct gk_top {
    gk_top_kind kind;
    gk_pos pos;
    gk_decl *decl;    /* DECL, FUNCTION */
    gk_stmt *body;    /* FUNCTION, KERNEL: a BLOCK */
    const char *name; /* KERNEL */
    gk_kparam *params;
    size_t nparams;
    const char *text; /* REQUIRES */
    void *note;
} gk_top;

typedef struct gk_unit {
    gk_arena arena;
    gk_files files;
    gk_top **tops;
    size_t ntops;
} gk_unit;

/* Preprocesses and parses a dialect source into *u (gk_unit_free it, also after a failure).
 * -1 with "file:line:col: reason" in err. */
int gk_parse(gk_unit *u, const char *src, size_t len, const char *source_name,
             const char *const *defines, uint32_t ndefines, char *err, size_t errlen);
void gk_unit_free(gk_unit *u);

/* ---- printing -------------------------------------------------------------------------------- */
/* Prints the tree as C. A pass may take over the printing of any expression, statement or kernel
 * by setting a hook: it returns true when it printed the node itself (with gk_print_expr and the
 * others for the parts it keeps). Statements start with a #line directive where the line changes,
 * so the C compiler's messages name the user's lines. */
typedef struct gk_printer gk_printer;
struct gk_printer {
    gp_strbuf *out;
    const gk_files *files;
    int indent;
    uint32_t line; /* the line the output is at, as the compiler sees it (#line) */
    uint16_t file;
    bool need_line; /* a #line is due before the next statement */
    void *ctx;
    bool (*expr_hook)(gk_printer *p, const gk_expr *e, int prec);
    bool (*stmt_hook)(gk_printer *p, const gk_stmt *s);
    bool (*top_hook)(gk_printer *p, const gk_top *t);
    /* called after a kernel's or helper's opening brace (to declare what the pass needs) and
     * before its closing one; `t` is the function or kernel */
    void (*body_begin)(gk_printer *p, const gk_top *t);
    void (*body_end)(gk_printer *p, const gk_top *t);
    /* extra leading parameters of every helper definition and call (e.g. "ctx *c, int li"),
     * or NULL */
    const char *helper_params;
    const char *helper_args;
    /* filled by gk_print_unit: the unit's own functions (the ones that get helper_args) */
    const char **helpers;
    size_t nhelpers;
};
/* Is `name` one of the unit's functions (a helper the printer passes helper_args to)? */
bool gk_printer_is_helper(const gk_printer *p, const char *name);

void gk_print_unit(gk_printer *p, const gk_unit *u);
void gk_print_top(gk_printer *p, const gk_top *t);
void gk_print_stmt(gk_printer *p, const gk_stmt *s);
/* Prints e in a context of precedence `prec` (parenthesised when it binds less tightly). */
void gk_print_expr(gk_printer *p, const gk_expr *e, int prec);
/* The node as the parser read it, without any hook (for sizeof/typeof copies). */
void gk_print_expr_plain(gk_printer *p, const gk_expr *e, int prec);
/* `type` declaring `name` (NULL: abstract, as in a cast): "float (*name)[17]". */
void gk_print_type(gk_printer *p, const gk_type *type, const char *name);
void gk_print_decl(gk_printer *p, const gk_decl *d);
/* Emits "#line L "file"" when the output is not at pos's line already, then indentation. */
void gk_print_line(gk_printer *p, gk_pos pos);
void gk_print_newline(gk_printer *p);
void gk_print_indent(gk_printer *p);

/* Precedences for gk_print_expr: higher binds tighter. */
enum {
    GK_PREC_COMMA = 1,
    GK_PREC_ASSIGN = 2,
    GK_PREC_COND = 3,
    GK_PREC_UNARY = 14,
    GK_PREC_POSTFIX = 15,
    GK_PREC_PRIMARY = 16,
};
int gk_binary_prec(const char *op);
/* The precedence an expression has when printed. */
int gk_expr_prec(const gk_expr *e);

#endif
