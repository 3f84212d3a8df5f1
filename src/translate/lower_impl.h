/* lower_impl.h — what the pieces of the lowering (lower.c, types.c, infer.c, calls.c, clone.c,
 * print.c, rename.c) share: the context of the function being lowered and their entry points. */
#ifndef GP_TRANSLATE_LOWER_IMPL_H
#define GP_TRANSLATE_LOWER_IMPL_H

#include "translate/lower.h"
#include "util/strbuf.h"

typedef struct lctx {
    tr_unit *u;
    const tr_lower_options *opt;
    tr_func *f;
    tr_clone *clone; /* NULL for a kernel */
    bool kernel;
    bool final; /* the last analysis pass: resolve calls, report */
    bool changed;
    gp_strbuf *helpers;
    /* per kernel */
    tr_sym **hoist;
    int nhoist;
    tr_sym *dyn;
    tr_kernel_info *info;
} lctx;

extern const char *const tl_space_macro[];
extern const char *const tl_space_name[];
extern const char *const tl_builtin_cuda[];
extern const char *const tl_builtin_dialect[];

/* lower.c: diagnostics, reported only in the final pass */
void tl_refuse(lctx *c, tr_expr *e, const char *construct, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void tl_note(lctx *c, int file, int line, const char *construct, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void tl_lower_function(lctx *parent, tr_func *f, tr_clone *clone);

/* types.c */
const char *tl_map_base(const char *b, const char **why);
tr_vt tl_base_vt(const char *b);
bool tl_is_int_vt(tr_vt v);
tr_vt tl_arith(tr_vt a, tr_vt b);
tr_vt tl_number_vt(const char *t);
bool tl_const_int(lctx *c, const tr_expr *e, long long *v);
/* An integer literal's value (0x..., octal, with u/l suffixes); false for anything else. */
bool tl_number_value(const char *text, long long *v);
/* An array dimension that names a local: 1 with its value where it is a constant C can be
 * given as a number, -1 where it is not; 0: it names no local. */
int tl_local_dim(lctx *c, const tr_expr *x, long long *v);
bool tl_is_warp_size(lctx *c, const tr_expr *e);

/* vectors.c: a CUDA vector type's component value type (TR_VT_UNKNOWN: not a vector type) */
tr_vt tl_vector_elem_vt(const char *cuda);
/* whether it is a 3-component vector type (held in 16 bytes, 12 in CUDA's memory) */
bool tl_is_vec3(const char *cuda);
/* A 3-component vector type that buffers hold packed (gp_packed_float3 ...): "float", "int",
 * "uint" or "uchar"; NULL for the others (char3, short3, double3 ...: refused in buffers). */
const char *tl_packed3(const char *cuda);
/* a + b, -a or a += b on a vector value: made a call of the file's operator function (refused
 * when it has none); true when e was handled */
bool tl_vector_operator(lctx *c, tr_expr *e);
/* "struct S" when a is a value of one of the file's structs (a variable, an element, a field),
 * else NULL. */
const char *tl_struct_value(lctx *c, const tr_expr *a);
bool tl_operator_arg_fits(const tr_sym *p, const tr_expr *a);

/* infer.c */
tr_space tl_sym_space(lctx *c, tr_sym *s);
bool tl_side_effect_free(const tr_expr *e);
void tl_give_space(lctx *c, tr_sym *s, tr_space sp, const tr_expr *at);
void tl_infer_expr(lctx *c, tr_expr *e);
void tl_infer_stmt(lctx *c, tr_stmt *s);
void tl_collect_locals(tr_stmt *s, tr_sym ***out, int *n, tr_unit *u);

/* calls.c */
void tl_infer_call(lctx *c, tr_expr *e);

/* clone.c */
tr_func *tl_find_func(lctx *c, const char *name);
/* A struct-valued expression (an element of a struct array or buffer) records the struct's type
 * in elem and its storage in space, for the member accesses on it (structs.c). */
void tl_mark_struct_value(tr_expr *e, const char *elem, tr_space space);
/* e is a member of a plain struct of the file: its type inferred (true), or not a struct. */
bool tl_infer_struct_member(lctx *c, tr_expr *e);
/* A brace initialiser of a struct value: each value for a float3 (int3...) field, which the
 * struct stores packed, marked to be packed into it. */
void tl_pack_struct_init(lctx *c, const char *base, tr_expr *init);
/* `&s.f`, `&p->f` (e is the `&`): its address space and element type; false where it is not a
 * field of one of the file's structs (or an array field). */
bool tl_struct_field_address(lctx *c, tr_expr *e);
/* An implicit conversion between half (stored as its bits) and another arithmetic type at `at`
 * (from: the converted expression; to: the type it becomes): marked to convert the value. */
void tl_half_mix(lctx *c, const tr_expr *at, tr_vt to, const tr_expr *from);
/* Whether `name` is the source name of renamed overloads. */
bool tl_is_overloaded(const tr_unit *u, const char *name);
/* The overload of e's callee its argument types (already inferred) match exactly; NULL: none, or
 * more than one (*ambiguous). */
tr_func *tl_resolve_overload(lctx *c, const tr_expr *e, bool *ambiguous);
void tl_add_hoist(tr_func *f, tr_unit *u, tr_sym *s);
void tl_infer_call_user(lctx *c, tr_expr *e, tr_func *g);

/* print.c */
void tl_emit_expr(lctx *c, gp_strbuf *sb, tr_expr *e, int prec);
void tl_emit_todo(gp_strbuf *sb, const char *why);
void tl_emit_type_prefix(gp_strbuf *sb, const tr_type *t, tr_space sp);
void tl_emit_decl(lctx *c, gp_strbuf *sb, tr_sym *s, tr_expr *init);
void tl_emit_stmt(lctx *c, gp_strbuf *sb, tr_stmt *s, int lvl);
void tl_emit_kernel_shared(lctx *c, gp_strbuf *sb, tr_stmt *s);
void tl_emit_signature_kernel(lctx *c, gp_strbuf *sb);
void tl_emit_signature_helper(lctx *c, gp_strbuf *sb);
void tl_emit_hoisted_arg(lctx *c, gp_strbuf *sb, tr_sym *s);
void tl_emit_builtin(lctx *c, gp_strbuf *sb, int bk, int dim);
void tl_indent(gp_strbuf *sb, int n);
const char *tl_sym_name(lctx *c, tr_sym *s);

#endif
