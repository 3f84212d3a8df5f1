/* parser.h — what the pieces of the parser share: the parser's state and its entry points.
 * parse.c holds the grammar of device code (types, expressions, statements), items.c the
 * top-level items of a file, template.c template instantiation, coop.c cooperative groups. */
#ifndef GP_TRANSLATE_PARSER_H
#define GP_TRANSLATE_PARSER_H

#include <setjmp.h>
#include <stdbool.h>

#include "translate/ast.h"

typedef struct typedef_alias {
    char *name;
    tr_type type;
    int ndims; /* an array type (`typedef unsigned row_t[8];`): its dimensions */
    tr_expr *dims[4];
} typedef_alias;

/* Tokens made by the translation (a template instantiation, a cooperative-group operation),
 * parsed as an item of their own once the item being parsed is done. */
typedef struct tp_pending {
    tr_tokens toks;
    char *name;        /* the function it defines */
    char *template_id; /* an instance: "reduce<float, 256>" (NULL otherwise) */
} tp_pending;

/* A constant of the host part (`const int N = 256;`, an enumerator) that device code may use, as
 * CUDA lets it: each use becomes its value, converted to its type. */
typedef struct tp_host_const {
    char *name;
    char *type;        /* "int", "unsigned int", "float" */
    size_t begin, end; /* its initialiser's tokens, or none (then `value`) */
    long long value;
} tp_host_const;

/* Token lists a parse step holds while it may bail: held by the parser, not on the step's stack,
 * so that the handler the longjmp reaches frees what the step could not (tp_scratch_*). */
typedef struct tp_scratch {
    struct tp_scratch *next; /* the one taken before */
    int n;
    tr_tokens lists[];
} tp_scratch;

/* A type alias of a CUB block collective the device code declares (cub.c). */
typedef struct tp_cub_alias {
    char *name;       /* the alias: BlockReduce */
    int kind;         /* cub.c's CUB_BLOCK_REDUCE, CUB_BLOCK_SCAN */
    const char *what; /* "BlockReduce" */
    const char *type; /* the element type: "float" */
    long long threads;
    long long dims[3];     /* BLOCK_DIM_X, Y, Z */
    struct tr_func *owner; /* the function that declares it (NULL: the file) */
} tp_cub_alias;

typedef struct parser {
    tr_unit *u;
    tr_token *t;
    size_t n, i, end; /* tokens of the current item: [i, end) */
    jmp_buf fail;     /* a construct outside the subset: longjmp back to the item */
    char why[512];
    int why_file, why_line, why_col;
    const char *why_construct;
    typedef_alias *aliases;
    int naliases;
    /* the file's structs as type names, for those made inside a block (a class template's
     * instance), whose alias went with the block (parse.c find_alias); index = struct's */
    typedef_alias **struct_aliases;
    int nstruct_aliases;
    /* scopes: symbols visible in the function being parsed */
    tr_sym **scope;
    int nscope, capscope;
    tr_func *func;
    /* names that stand for the cooperative_groups namespace (cg, after `namespace cg = ...`) */
    char **cg_names;
    int ncg_names;
    bool using_cg; /* `using namespace cooperative_groups;`: its names without cg:: */
    /* template structs that hand out the dynamic shared block (the CUDA samples'
     * SharedMemory<T>: an `operator T *()` returning an extern __shared__ array) */
    char **shared_accessors;
    int nshared_accessors;
    /* class templates: `template <...> struct S {...};` (instantiated where S<args> names a
     * type, template.c) */
    tr_template *stemplates;
    int nstemplates;
    /* items made by the translation, waiting to be parsed; and the names already made */
    tp_pending *pending;
    int npending, cappending;
    char **made;
    int nmade;
    tp_host_const *hconsts;
    int nhconsts;
    tp_scratch *scratch; /* the last taken first */
    char **namespaces;   /* the namespaces the file opens (their items are top-level items) */
    int nnamespaces;
    int member_of;     /* parsing a member function of struct member_of - 1 (0: none; members.c) */
    tp_cub_alias *cub; /* CUB block collectives' aliases, in order of declaration */
    int ncub;
    /* host template bodies that launch kernels, their arguments in place (template.c), read
     * for their launches once the instances are parsed (launch.c); and the tokens launch.c
     * reads now (the unit's, or one of these) */
    tr_tokens *host_bodies;
    int nhost_bodies;
    const tr_token *lt;
    size_t nlt;
} parser;

/* ---- scratch token lists (parse.c) */
/* n empty token lists, owned by the parser until dropped (aborts when memory runs out, as the
 * token pushes do). */
tr_tokens *tp_scratch_take(parser *p, int n);
/* Frees the lists tp_scratch_take gave. */
void tp_scratch_drop(parser *p, tr_tokens *lists);
/* Frees every list taken since `mark` (p->scratch when the handler was set up). */
void tp_scratch_unwind(parser *p, tp_scratch *mark);

/* What a bail handler puts back: the token list being read (a step may have switched to scratch
 * tokens of its own, as coop.c's parse_text does), the scope depth and the scratch lists. */
typedef struct tp_mark {
    tr_token *t;
    size_t n, end;
    int nscope;
    int naliases; /* typedefs and aliases declared in a block are gone with it */
    tp_scratch *scratch;
} tp_mark;
tp_mark tp_mark_here(parser *p);
void tp_back_to(parser *p, const tp_mark *m);

/* ---- tokens (parse.c) */
const tr_token *tp_cur(parser *p);
bool tp_is(parser *p, const char *s);
bool tp_is_at(parser *p, size_t k, const char *s);
bool tp_accept(parser *p, const char *s);
void tp_expect(parser *p, const char *s);
_Noreturn void tp_bail(parser *p, const char *construct, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
tr_expr *tp_new_expr(parser *p, tr_expr_kind k, const tr_token *at);
bool tp_in_list(const char *s, const char *const *list, size_t n);
/* s is a CUDA type name (half, dim3, float4, ...) */
bool tp_is_named_type(const char *s);
/* `uint`, `uchar`, `clock_t`...: the integer type that other name stands for, or NULL */
const char *tp_std_typedef(const char *w);

/* ---- the grammar (parse.c) */
typedef struct specs {
    tr_type type;
    int alias_ndims; /* the type is an array alias: its dimensions, after a declarator's own */
    tr_expr *alias_dims[4];
    bool global, device, host, shared, constant, managed, is_extern, is_static, is_typedef;
    bool is_auto;
} specs;

bool tp_is_type_start(parser *p);
specs tp_parse_specs(parser *p);
tr_type *tp_parse_type_name(parser *p);
/* `using NAME = TYPE;` (p at `using`): NAME is a type from here on. */
void tp_parse_using_alias(parser *p);
/* `typedef` specifiers parsed: the declarators, each a type from here on, and the `;`. */
void tp_parse_typedef(parser *p, const specs *s);
/* NAME is the type t from here on (typedef, using, an enumeration's name). */
void tp_add_alias(parser *p, const char *name, const tr_type *t);
/* The type the alias `name` stands for here, or NULL. */
const tr_type *tp_alias_type(parser *p, const char *name);
/* Forgets the aliases declared after the first n (a block's, at its end). */
void tp_aliases_truncate(parser *p, int n);
tr_sym *tp_lookup(parser *p, const char *name);
void tp_scope_push(parser *p, tr_sym *s);
tr_sym *tp_parse_declarator(parser *p, const specs *s, bool allow_abstract);
tr_expr *tp_parse_expr(parser *p);
tr_expr *tp_parse_assign(parser *p);
tr_expr *tp_parse_primary(parser *p);
tr_stmt *tp_parse_block(parser *p);
/* A guess of an expression's type, as the parser sees it (for template arguments and the
 * operations of cooperative groups): the base type and pointer levels, false when unknown. */
bool tp_guess_type(parser *p, const tr_expr *e, char *base, size_t cap, int *nptr);

/* ---- small trees (parse.c) */
tr_expr *tp_mk_ident(parser *p, const tr_token *at, const char *name);
tr_expr *tp_mk_num(parser *p, const tr_token *at, const char *text);
tr_expr *tp_mk_binary(parser *p, const char *op, tr_expr *a, tr_expr *b);
tr_expr *tp_mk_call(parser *p, const tr_token *at, const char *name, int nargs, tr_expr **args);
tr_expr *tp_mk_member(parser *p, const tr_token *at, const char *obj, const char *member);

/* ---- items (items.c) */
/* Queues `text` (CUDA source the translation wrote) as an item defining `name`, unless an
 * item of that name was made already; its tokens carry the position `at`. */
void tp_make_item(parser *p, const char *name, const char *text, const tr_token *at);
/* __popc, __clz, __ffs, __brev (and the 64-bit forms), __umulhi called at t: the name of the
 * device function the translation writes for it (made once); NULL for any other name. */
const char *tp_bit_intrinsic(parser *p, const tr_token *t);
bool tp_made(parser *p, const char *name);
/* A use of a host constant as an expression, or NULL when `name` is none. */
tr_expr *tp_host_constant(parser *p, const tr_token *at, const char *name);
/* The value of an integer constant the host code defines (`const int threads = 256;`), as text,
 * or NULL (template.c). */
const char *tp_host_const_value(parser *p, const char *name);
/* The value of the integer constant expression in tokens [t, t + n): numbers, operators, local
 * constants with a known value, the host's constants, kept macros, enumerators, true/false. */
bool tp_const_tokens(parser *p, const tr_token *t, size_t n, long long *v);
/* Every word of the type name b is an integer type's (unsigned long long, int32_t, bool). */
bool tp_integer_type_name(const char *b);
/* Whether the file opens a namespace of this name. */
bool tp_is_namespace(parser *p, const char *name);
/* The plain struct of the file with this tag or name (NULL: none). */
tr_struct *tp_find_struct(tr_unit *u, const char *name);

/* ---- C++ members of structs (members.c) */
/* The struct body [from, close) of st: its fields' tokens appended to `fields`, its member
 * functions and constructors recorded in st. false, with the reason in why: a member outside
 * what is lowered (the struct is then not translated). */
bool tp_struct_members(parser *p, tr_struct *st, size_t from, size_t close, tr_tokens *fields,
                       char *why, size_t cap);
/* The struct whose member the pending item `name` writes: its index + 1 (0: none). */
int tp_member_owner(parser *p, const tr_tokens *toks, const char *name);
/* Queues the functions written for st's device members (st is u->structs[index]). */
void tp_struct_queue_members(parser *p, int index, size_t from, size_t close);
/* The struct a type names (`struct S`, no pointer), if it has C++ members; NULL otherwise. */
tr_struct *tp_member_struct(parser *p, const tr_type *t);
/* `S(args)` / `S{args}` at the current token (S's name): the constructor call; NULL when S has
 * no constructor. */
tr_expr *tp_ctor_expr(parser *p);
/* At `(` or `{` after the name of st, which has constructors: the call of the one taken. */
tr_expr *tp_ctor_expr_of(parser *p, const tr_token *at, const tr_struct *st);
/* A call x whose callee is `o.f` / `o->f`, or a bare `f` inside a member function: the call of
 * the function written for the member; x itself when it is none. */
tr_expr *tp_member_call(parser *p, tr_expr *x);
/* o[i] on a struct value with operator[] (members.c): the member's call; NULL for others. */
tr_expr *tp_member_index(parser *p, tr_expr *o, tr_expr *index);
/* S::name at `::` for struct st: a static constant's value or a static member's call. */
tr_expr *tp_static_member(parser *p, const tr_token *at, const tr_struct *st);
/* The static constant `name` of st as a number expression; NULL where it has none. */
tr_expr *tp_struct_constant(parser *p, const tr_token *at, const tr_struct *st, const char *name);
/* Inside a member function: `this`, and a name that is a field of the struct and nothing
 * nearer (`this->name`); NULL otherwise. */
tr_expr *tp_member_name(parser *p, const tr_token *t);
/* The initialiser of `S s;`, `S s(args);`, `S s{args};`, `S s = {args};` for a struct with a
 * constructor (the current token follows the name); NULL: S has none, nothing to do. */
tr_expr *tp_ctor_init(parser *p, tr_sym *sym);
/* Records each kernel's <<<grid, block, shared>>> launch sites in host code (launch.c). */
void tp_scan_launches(parser *p);

/* ---- cooperative groups (coop.c) */
bool tp_is_cg_namespace(parser *p, const char *name);
/* After `cg::` (the namespace token consumed, at the name): a type (in a declaration) or a
 * value (an expression). */
bool tp_cg_type(parser *p, const char *name, tr_type *out);
tr_expr *tp_cg_qualified(parser *p, const tr_token *at, const char *name);
/* obj.name(args...) on a group object */
tr_expr *tp_cg_method(parser *p, tr_expr *call, tr_sym *obj, const char *name);
/* __shfl*_sync with a width other than a written 32: a call of a helper keeping CUDA's segments
 * (coop.c); the call itself where it is not one. */
tr_expr *tp_width_shuffle(parser *p, tr_expr *call);
/* __syncthreads_count/_and/_or: a call of a helper counting in shared memory (coop.c); the call
 * itself where it is none of these. */
tr_expr *tp_sync_count_call(parser *p, tr_expr *call);
/* memcpy(dst, src, n) in device code: a call of a byte-copying helper (stdlib.c); the call
 * itself where it is not that (or the file defines its own memcpy). */
tr_expr *tp_memcpy_call(parser *p, tr_expr *call);

/* A device function with a thread_group parameter (the item at [i, end)): recorded as a
 * template instantiated per group passed; true when it is one. */
bool tp_record_group_function(parser *p, size_t i, size_t end);
bool tp_is_group_function_item(parser *p, size_t i);
/* The instance of such a function for the group a call passes (NULL: t is not one). */
const char *tp_cg_instantiate(parser *p, tr_template *t, const tr_expr *group, const tr_token *at);

/* ---- CUB block collectives (cub.c) */
/* At a statement: a cub::BlockReduce/BlockScan alias (consumed; true) or its TempStorage
 * declaration (consumed; *decl is the declaration to parse in its place). False: neither. */
bool tp_cub_stmt(parser *p, char **decl);
bool tp_is_cub_alias(parser *p, const char *name);
/* At `Alias(storage).Method(args)`: the expression it becomes. */
tr_expr *tp_cub_call(parser *p);

/* ---- the standard library's constants (stdlib.c) */
/* At the name after `std::`: std::numeric_limits<T>::max() and its siblings, std::is_same<A,
 * B>::value and std::is_same_v<A, B>, read as the constant they are (p->i moved past); NULL when
 * the name is none of them. */
tr_expr *tp_std_constant(parser *p);
/* The C++ type a type's name stands for (typedefs followed; int32_t is int, long is not long
 * long, as on LP64 Linux): what two names are compared by. */
void tp_canon_type(parser *p, const char *text, char *out, size_t cap);

/* ---- templates (template.c) */
tr_template *tp_template_find(parser *p, const char *name);
/* The class template of that name (NULL: none). */
tr_template *tp_struct_template_find(parser *p, const char *name);
/* At `S<args>` of a class template: the struct made for those arguments (instantiated and
 * parsed on first use), its name; bails where it cannot be made. */
const char *tp_struct_template_ref(parser *p);
/* Parses the struct item [i, end) of p's tokens (items.c). */
void tp_parse_struct_item(parser *p, size_t i, size_t end);
/* At `<` after the template's name: reads the arguments, queues the instantiation and returns
 * the instantiated name. */
const char *tp_template_ref(parser *p, tr_template *t, const tr_token *at);
/* A call of a function template without arguments: deduces them from the call's arguments. */
const char *tp_template_deduce(parser *p, tr_template *t, tr_expr *call);
/* Instantiates t with the argument texts given (the name it gets, or NULL with why). */
const char *tp_template_instantiate(parser *p, tr_template *t, tr_tokens *args, int nargs,
                                    const tr_token *at, char *why, size_t whylen);
/* Records an explicit specialisation of t for the written arguments (nargs ranges of the unit's
 * tokens), whose item is [begin, end) of the unit's tokens. */
void tp_template_specialise(parser *p, tr_template *t, const size_t *abegin, const size_t *aend,
                            int nargs, size_t begin, size_t end, int line);
/* The number of function parameters a function template declares. */
int tp_template_arity(parser *p, const tr_template *t);
/* Among the device function templates named like t, the one taking nargs arguments (t when
 * none is overloaded, or none matches). */
tr_template *tp_template_overload(parser *p, tr_template *t, int nargs);
/* Reads `name<a, b>` from text (an --instantiate request or a launch site). */
void tp_template_scan_host(parser *p);

#endif
