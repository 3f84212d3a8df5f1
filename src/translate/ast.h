/* ast.h — the translator's syntax tree of the accepted CUDA C subset: types with address spaces,
 * expressions, statements, functions and file-scope data, plus the diagnostics (refusals and
 * notes) every stage appends to. Nodes live in one arena owned by the unit. */
#ifndef GP_TRANSLATE_AST_H
#define GP_TRANSLATE_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "translate/pp.h"

typedef enum tr_space {
    TR_SP_NONE = 0, /* not a pointer / not known yet */
    TR_SP_GLOBAL,
    TR_SP_SHARED,
    TR_SP_CONSTANT,
    TR_SP_PRIVATE,
} tr_space;

/* Cooperative groups: objects that exist only at translation time (their operations become the
 * dialect's barriers, indices and SIMD-group operations). */
typedef enum tr_cg_kind {
    TR_CG_NONE = 0,
    TR_CG_BLOCK, /* thread_block */
    TR_CG_TILE,  /* thread_block_tile<N> (width in cg_width) */
    TR_CG_OP,    /* cg::plus<T>() and friends: the operation of cg::reduce (op in cg_op) */
} tr_cg_kind;

typedef struct tr_type {
    char *base; /* "float", "unsigned int", "float2", "gp_half" after mapping */
    bool is_const, is_volatile;
    bool is_ref;       /* declared T &x (becomes a pointer, or a value for const scalars) */
    tr_cg_kind cg;     /* a cooperative group (base is then "cg") */
    int cg_width;      /* TILE: lanes per tile */
    int nptr;          /* pointer levels */
    tr_space space;    /* pointers: where the pointee lives; arrays: where the array lives */
    bool restrict_ptr; /* __restrict__ was written (dropped in the output) */
} tr_type;

typedef enum tr_expr_kind {
    TR_E_IDENT,
    TR_E_NUM,
    TR_E_STR,
    TR_E_CHAR,
    TR_E_CALL,
    TR_E_INDEX,
    TR_E_MEMBER, /* a.b or a->b (text "." or "->", b in name) */
    TR_E_UNARY,  /* prefix: & * - + ! ~ ++ -- */
    TR_E_POSTFIX,
    TR_E_BINARY,
    TR_E_ASSIGN,
    TR_E_COND,
    TR_E_CAST,
    TR_E_SIZEOF_TYPE,
    TR_E_SIZEOF_EXPR,
    TR_E_COMMA,
    TR_E_INIT,    /* { a, b, ... } */
    TR_E_BUILTIN, /* threadIdx.x and friends: bkind, dim */
    TR_E_RAW,     /* emitted as text (translation results) */
    TR_E_CG,      /* a cooperative group value (this_thread_block(), tiled_partition<32>(b)) */
} tr_expr_kind;

typedef enum tr_builtin {
    TR_B_THREAD = 0, /* threadIdx */
    TR_B_BLOCK,      /* blockIdx */
    TR_B_BLOCKDIM,   /* blockDim */
    TR_B_GRIDDIM,    /* gridDim */
    TR_B_COUNT
} tr_builtin;

/* Value types for the little type inference the translation needs (min/max, atomics, double). */
typedef enum tr_vt {
    TR_VT_UNKNOWN = 0,
    TR_VT_BOOL,
    TR_VT_INT,
    TR_VT_UINT,
    TR_VT_LONG,
    TR_VT_ULONG,
    TR_VT_HALF,
    TR_VT_BF16, /* __nv_bfloat16: a storage type like half */
    TR_VT_FLOAT,
    TR_VT_DOUBLE,
    TR_VT_VEC, /* float2, float4, int2, int4 */
    TR_VT_PTR,
} tr_vt;

struct tr_sym;
struct tr_func;

typedef struct tr_expr {
    tr_expr_kind kind;
    int file, line, col;
    char *text; /* identifier, number, operator, member name */
    char *name; /* MEMBER: the member */
    struct tr_expr *a, *b, *c;
    struct tr_expr **args;
    int nargs;
    tr_type *type; /* CAST, SIZEOF_TYPE */
    /* filled by analysis */
    struct tr_sym *sym;
    struct tr_func *callee; /* CALL of a user device function */
    int callee_clone;       /* which clone of callee this call uses */
    tr_builtin bkind;
    int dim;
    tr_vt vt;
    tr_space space;     /* pointer-valued expressions: where they point */
    const char *elem;   /* pointer-valued: the pointee's base type */
    char *todo;         /* a refusal at this expression: emitted as GP_TODO("...") with --partial */
    const char *origin; /* what the source wrote, when this node was made from it (a
                           cooperative-group method): named in refusals */
    tr_cg_kind cg;      /* TR_E_CG: the group or operation; cg_width its width */
    int cg_width;
    const char *cg_op; /* TR_CG_OP: "plus", "greater", ... */
    bool refs_done;    /* CALL: reference arguments already passed by address */
    char convert;      /* an implicit conversion CUDA makes of this value: 'h' to half, 'f' from
                          half to float (half is stored as its bits; infer.c) */
    const char *vec;   /* a vector value (vt TR_VT_VEC): its CUDA type, "float3" (NULL: unknown) */
    /* an element of a buffer of 3-component vectors, stored packed as CUDA stores them (infer.c):
     * `packed` read as a value ("float": gp_unpack_float3(p[i])); `pack` an assignment that
     * writes one (gp_pack_float3 of the value) */
    const char *packed, *pack;
    /* an operator of cuda_fp16.h on two halves (BINARY, compound ASSIGN, unary '-'): the
     * prelude's gp_half_<op> ("add", "lt", "ne" ...), computed in float and rounded to half */
    const char *half_op;
} tr_expr;

typedef enum tr_sym_kind {
    TR_SYM_LOCAL,
    TR_SYM_PARAM,
    TR_SYM_SHARED,        /* __shared__ array (static) */
    TR_SYM_DYN_SHARED,    /* extern __shared__ T name[] */
    TR_SYM_CONSTANT,      /* __constant__ file-scope data */
    TR_SYM_BUILTIN_PARAM, /* added by the translation: a built-in index passed to a helper */
    TR_SYM_GLOBALVAR,     /* __device__ file-scope data: passed to kernels as a buffer */
} tr_sym_kind;

typedef struct tr_sym {
    char *name;
    char *out_name; /* renamed on a clash after hoisting; NULL = name */
    tr_sym_kind kind;
    tr_type type;
    int ndims;
    struct tr_expr *dims[4]; /* array dimensions (NULL = []) */
    int file, line, col;
    /* address-space inference for pointers: the spaces seen in initializers and assignments */
    unsigned seen_spaces; /* bit (1 << tr_space) */
    int conflict_line;
    struct tr_func *owner; /* function that declares it (NULL: file scope) */
    bool assigned;         /* a value parameter assigned in the body (copied on entry) */
    bool ref;              /* a C++ reference, held as a pointer: uses read through it */
    bool as_buffer;        /* CONSTANT filled by the host, or GLOBALVAR: a buffer parameter */
    bool used;             /* file-scope data some kernel reads */
    bool managed;          /* GLOBALVAR declared __managed__ (the host reads it as memory) */
    bool texture;          /* CONSTANT that is a texture reference (texture<T, dim, mode>) */
    bool texref;           /* ... of one dimension, read as its elements: the bound memory */
    struct tr_expr *init;  /* file-scope data: its initialiser (NULL: none) */
    /* a local `constexpr int E = ...;` (or const) whose initialiser is an integer constant the
     * translation reads: its value, for template arguments written with it (template.c) */
    bool has_cvalue;
    long long cvalue;
    /* a local that is not const, initialised with such a constant: its value, taken as
     * cvalue where the function never changes the local (overload.c) */
    bool has_init_cvalue;
    long long init_cvalue;
    /* a multi-dimensional array parameter `T a[][Y][Z]`, held as a T pointer: Y and Z (each
     * a[i][j][k] is a[(i * Y + j) * Z + k]) */
    int nrow_dims;
    struct tr_expr *row_dims[3];
} tr_sym;

typedef enum tr_stmt_kind {
    TR_S_BLOCK,
    TR_S_DECL,
    TR_S_EXPR,
    TR_S_IF,
    TR_S_FOR,
    TR_S_WHILE,
    TR_S_DO,
    TR_S_RETURN,
    TR_S_BREAK,
    TR_S_CONTINUE,
    TR_S_EMPTY,
    TR_S_PRAGMA,
    TR_S_SWITCH,
    TR_S_CASE,
    TR_S_DEFAULT,
    TR_S_TODO, /* a refused construct kept as GP_TODO("...") under --partial */
} tr_stmt_kind;

typedef struct tr_decl {
    tr_sym *sym;
    tr_expr *init;
} tr_decl;

typedef struct tr_stmt {
    tr_stmt_kind kind;
    int file, line;
    tr_expr *e, *cond, *step;
    struct tr_stmt *init, *body, *els;
    struct tr_stmt **list;
    int n;
    tr_decl *decls;
    int ndecls;
    char *text; /* PRAGMA text, TODO reason */
} tr_stmt;

typedef enum tr_func_kind { TR_F_GLOBAL, TR_F_DEVICE, TR_F_HOST } tr_func_kind;

/* A call of clone k of function g. */
typedef struct tr_clone_ref {
    struct tr_func *g;
    int k;
} tr_clone_ref;

typedef struct tr_clone {
    tr_space *spaces; /* per parameter (NONE for non-pointers) */
    char *name;
    char *text;          /* its dialect source */
    bool todo;           /* the text holds GP_TODO markers */
    tr_clone_ref *calls; /* the clones its body calls */
    int ncalls;
    /* a function returning a pointer: where its returns point (all alike), for its signature
     * and its callers */
    tr_space ret_space;
    bool ret_spaces_differ;
} tr_clone;

/* A plain C struct of the file (scalar fields, fixed arrays of them, other such structs): one
 * layout on every target, so it may live in buffers. */
typedef struct tr_field {
    char *name;
    tr_type type;
    char *dims[2]; /* array dimensions as numbers (NULL: none) */
} tr_field;

/* A C++ member function or constructor of a struct, lowered to a function of its own
 * (members.c): `p.f(a)` calls out(&p, a), `S(a, b)` calls out(a, b). */
typedef struct tr_member {
    char *name; /* the source's name; NULL: a constructor */
    char *out;  /* the function written for it; NULL: host-only, or not lowered (why says) */
    int nparams, nrequired;
    const char *why; /* not lowered: the reason a use of it is refused */
    /* where it is in the file's tokens: its head, '(' and ')', the initialiser list, the body's
     * '{' and '}' (0: none) */
    size_t head, lparen, rparen, inits, body, body_end;
    bool is_const;
    const char *op; /* an operator member: its operator ("+", "+=", "=="); NULL: none */
    size_t op_at;   /* its `operator` token */
    bool is_static; /* a static member function: no object, no this_ */
    bool ref_ret;   /* returns a reference: written returning a pointer, each call dereferenced */
} tr_member;

typedef struct tr_struct {
    char *tag;  /* `struct TAG` (NULL: none) */
    char *name; /* its name in the output (the typedef's name, else the tag) */
    tr_field *fields;
    int nfields;
    int file, line;
    int align;     /* __align__(n) beyond its fields' alignment: n (its size is padded to it) */
    bool is_union; /* `union TAG { ... }`: its fields share their storage */
    /* C++ members (members.c) */
    tr_member *members;
    int nmembers;
    bool has_ctor;     /* a user constructor: no aggregate initialisation, `S s;` runs one */
    bool trivial_init; /* `S s;` runs nothing (no default constructor, or an empty one) */
    /* static integer constants: `static constexpr int size = sizeof(int4) / sizeof(T);` */
    char **cnames;
    long long *cvalues;
    int nconsts;
} tr_struct;

/* A <<<grid, block, shared>>> launch of a kernel in the file's host code: each part as the
 * source wrote it (dim3 variables followed to their definitions), and the call's arguments. */
typedef struct tr_launch {
    int file, line;
    char *grid[3], *block[3]; /* per dimension; NULL: 1 */
    char *shared;             /* bytes of dynamic shared memory, NULL: none */
    char **args;
    int nargs;
    char **arg_counts; /* per argument: the element count of the buffer it names, from its
                          cudaMalloc in the file (NULL: not found) */
} tr_launch;

typedef struct tr_func {
    char *name;
    char *src_name; /* an overload (or a function named like a built-in): the source's name,
                       `name` being the output's, made of the parameter types; NULL: name */
    tr_func_kind kind;
    tr_type ret;
    tr_sym **params;
    int nparams;
    tr_stmt *body; /* NULL: a declaration only */
    int file, line;
    /* analysis */
    unsigned builtins; /* bit (bkind * 3 + dim): built-ins read here or in callees */
    tr_sym **hoisted;  /* shared arrays declared here or in callees, passed in from the kernel */
    int nhoisted;
    tr_clone *clones;
    int nclones;
    bool uses_fp64;
    bool uses_atomic64; /* 64-bit atomics (gp_atomic64_*, gp_atomic_add_double) */
    bool uses_simd;     /* warp shuffles or votes, here or in callees */
    char *refused;      /* the parser refused its body: the reason (the function is not lowered) */
    int refused_line;
    char *template_id; /* an instantiated template: "reduce<float, 256>" */
    bool synthetic;    /* made by the translation (a cooperative-group operation) */
    bool is_operator;  /* an operator on vector types, named operator_<op> (vectors.c) */
    bool used;         /* called by some kernel (its refusals count) */
    /* the lockstep check (lockstep.c): being walked, calls from outside a `tid < 32` region,
     * and which parameters every call binds to the work-item's index */
    bool visiting_lockstep, ls_called;
    int ls_outside;
    unsigned ls_lane_params;
    bool visiting; /* recursion detection */
    bool done;
    tr_launch *launch; /* the first launch of this kernel in the file (NULL: none found) */
    int nlaunches;
    /* the block every launch in the file gives it, when they all give the same constant one
     * (block_known); block_varies: some launch gives another or one the file does not fix */
    long long block[3];
    bool block_known, block_varies;
    bool needs_block; /* the lockstep check needed that block: GP_REQUIRES_GROUP_SIZE */
} tr_func;

typedef struct tr_diag {
    int file, line, col;
    char *construct; /* "texture object", "inline PTX", ... */
    char *reason;
    bool refusal;           /* false: a note or warning */
    struct tr_func *func;   /* the function whose parsing recorded it (NULL: none) */
    struct tr_func *kernel; /* the kernel being lowered when it was recorded (NULL: none) */
} tr_diag;

enum { TR_MAX_TPARAMS = 12 }; /* template parameters (and arguments) read */

/* An explicit specialisation `template <> ... name<args>(...)`: its written arguments and its
 * item's tokens, used in place of the template's body for those arguments. The arguments are
 * read when the template is first instantiated (the file's typedefs are known then). */
typedef struct tr_spec {
    size_t abegin[TR_MAX_TPARAMS],
        aend[TR_MAX_TPARAMS]; /* each argument's tokens, in the unit's token array */
    int nargs;
    char *texts[TR_MAX_TPARAMS]; /* read: each argument as arg_text reads it, in canonical form */
    bool read, unreadable;
    size_t begin, end; /* the item after `template <>`, in the unit's token array */
    int line;
} tr_spec;

/* A template of the file: its parameters and the tokens of the item after `template <...>`. */
typedef struct tr_template {
    char *name;
    int nparams;
    char *pnames[TR_MAX_TPARAMS];
    bool ptype[TR_MAX_TPARAMS]; /* a type parameter (typename/class), else a value */
    struct tr_token
        *pdefault[TR_MAX_TPARAMS]; /* default argument tokens (NULL: none), ndefault[i] long */
    int ndefault[TR_MAX_TPARAMS];
    size_t begin, end; /* [begin, end) in the unit's token array */
    bool device, kernel;
    int file, line;
    int ninstances;
    int specialised_line; /* the first `template <>` specialisation of it (0: none) */
    char *iname;          /* an overload after the first: the name its instances are named after */
    bool launches;        /* a host template whose body launches a kernel, or calls one that does */
    tr_spec *specs;       /* explicit specialisations with their arguments written (arena) */
    int nspecs, capspecs;
} tr_template;

typedef struct tr_unit {
    tr_pp_result pp;
    tr_func **funcs;
    int nfuncs;
    tr_sym **constants; /* __constant__ data */
    tr_expr **constant_inits;
    int nconstants;
    tr_diag *diags;
    int ndiags;
    tr_func **sorted_funcs; /* defined functions by name, for lookups (lower.c) */
    int nsorted;
    tr_struct *structs; /* the file's plain structs, in order of definition */
    int nstructs;
    tr_sym **globals; /* __device__ file-scope data (passed as buffers) */
    int nglobals;
    tr_template *templates;
    int ntemplates;
    /* a filter of the templates' names (two bits a name), for lookups of every identifier of a
     * file; templates [0, tmpl_filtered) are in it */
    uint64_t tmpl_filter[128];
    int tmpl_filtered;
    tr_func *cur_func;       /* the function being parsed (diagnostics belong to it) */
    tr_func *cur_kernel;     /* the kernel being lowered */
    unsigned atomic_helpers; /* atomicInc/atomicDec helpers written (bit: op * 2 + shared) */
    tr_clone_ref *emitted;   /* every clone, in the order it was printed (callees first) */
    int nemitted;
    const char *const *instantiate; /* --instantiate requests ("k<float, 256>") */
    size_t ninstantiate;
    /* arena: zeroed chunks handed out in order (a large allocation is a chunk of its own) */
    void **blocks;
    size_t nblocks;
    char *next;  /* the free part of the current chunk */
    size_t left; /* its size */
} tr_unit;

void *tr_alloc(tr_unit *u, size_t size);
char *tr_strdup(tr_unit *u, const char *s);
/* Records a refusal (refusal = true) or a note at a source position. */
void tr_diag_add(tr_unit *u, bool refusal, int file, int line, int col, const char *construct,
                 const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;
int tr_refusal_count(const tr_unit *u);
void tr_unit_free(tr_unit *u);

/* Parses the preprocessed tokens into functions and file-scope data. Syntax errors: -1 with
 * "FILE:LINE:COL: reason" in err. Unsupported but well-formed constructs are refusals. */
int tr_parse(tr_unit *u, char *err, size_t errlen);
/* Renames, in the preprocessed tokens, the type names the file declares that are built-in types
 * of OpenCL C or Metal (`typedef struct {...} int8;`): every use gets a trailing '_' (rename.c;
 * tr_parse calls it first). */
void tr_rename_type_names(tr_unit *u);
/* Kernels' texture objects read by tex1Dfetch/tex1D/tex2D made buffers the translation samples
 * (textures.c), on the unit's tokens before they are parsed. */
void tr_texture_objects(tr_unit *u);
/* The index of the bracket closing the one at t[i] ("(", "{" or "["), or n (launch.c). */
size_t tr_closing(const tr_token *t, size_t i, size_t n);
/* The diagnostics that count against kernel k: its own, those recorded while it was lowered, and
 * the parse refusals of the functions it calls. */
bool tr_diag_counts(const tr_unit *u, const tr_diag *d);

#endif
