/* structs.c — the file's plain structs in device code: the types of their members, and their
 * definitions in the output (one layout on every target: scalar fields only, items.c). */
#include <stdio.h>
#include <string.h>

#include "translate/lower_impl.h"
#include "translate/parser.h"

void tl_mark_struct_value(tr_expr *e, const char *elem, tr_space space)
{
    if (!elem || strncmp(elem, "struct ", 7)) return;
    e->elem = elem;
    e->space = space;
}

const char *tl_struct_value(lctx *c, const tr_expr *a)
{
    const char *base = NULL;
    if (a->kind == TR_E_IDENT && a->sym && !a->sym->type.nptr && !a->sym->ndims)
        base = a->sym->type.base;
    else if (a->vt == TR_VT_UNKNOWN && a->elem)
        base = a->elem;
    if (!base || strncmp(base, "struct ", 7) || !tp_find_struct(c->u, base + 7)) return NULL;
    return base;
}

static tr_space sym_space(const tr_sym *s)
{
    return s->as_buffer                 ? TR_SP_GLOBAL
           : s->kind == TR_SYM_SHARED   ? TR_SP_SHARED
           : s->kind == TR_SYM_CONSTANT ? TR_SP_CONSTANT
                                        : TR_SP_PRIVATE;
}

bool tl_struct_field_address(lctx *c, tr_expr *e)
{
    const tr_expr *x = e->a, *a = x->a;
    const char *base = NULL;
    tr_space sp = TR_SP_PRIVATE;
    if (!strcmp(x->text, "->")) {
        if (a->vt == TR_VT_PTR) base = a->elem, sp = a->space;
    } else if (a->kind == TR_E_IDENT && a->sym && !a->sym->type.nptr && !a->sym->ndims) {
        base = a->sym->type.base;
        sp = sym_space(a->sym);
    } else if (a->vt == TR_VT_UNKNOWN && a->elem) {
        base = a->elem;
        sp = a->space;
    }
    if (!base || strncmp(base, "struct ", 7)) return false;
    const tr_struct *st = tp_find_struct(c->u, base + 7);
    for (int i = 0; st && i < st->nfields; i++)
        if (!strcmp(st->fields[i].name, x->name)) {
            if (st->fields[i].dims[0]) return false; /* &s.array: a pointer to an array */
            e->vt = TR_VT_PTR;
            e->space = sp;
            e->elem = st->fields[i].type.base;
            return true;
        }
    return false;
}

bool tl_infer_struct_member(lctx *c, tr_expr *e)
{
    const char *base = NULL;
    tr_space sp = TR_SP_PRIVATE;
    const tr_expr *a = e->a;
    if (!strcmp(e->text, "->")) {
        if (a->vt == TR_VT_PTR) base = a->elem, sp = a->space;
    } else if (a->kind == TR_E_IDENT && a->sym && !a->sym->type.nptr && !a->sym->ndims) {
        base = a->sym->type.base;
        sp = sym_space(a->sym);
    } else if (a->vt == TR_VT_UNKNOWN && a->elem) {
        base = a->elem;
        sp = a->space;
    }
    if (!base || strncmp(base, "struct ", 7)) return false;
    const tr_struct *st = tp_find_struct(c->u, base + 7);
    if (!st) return false;
    const tr_field *f = NULL;
    for (int i = 0; i < st->nfields && !f; i++)
        if (!strcmp(st->fields[i].name, e->name)) f = &st->fields[i];
    if (!f) {
        tl_refuse(c, e, "struct", "struct %s has no field %s", st->name, e->name);
        return true;
    }
    if (f->dims[0]) { /* an array field: its first element's address */
        e->vt = TR_VT_PTR;
        e->elem = f->type.base;
        e->space = sp;
    } else {
        e->vt = tl_base_vt(f->type.base);
        if (e->vt == TR_VT_VEC) e->vec = f->type.base;
        tl_mark_struct_value(e, f->type.base, sp);
        /* a float3 field is stored packed: read as a value, unpacked (see mark_packed) */
        if (!f->type.nptr) e->packed = tl_packed3(f->type.base);
    }
    if (!strcmp(f->type.base, "double")) c->f->uses_fp64 = true;
    return true;
}

void tl_pack_struct_init(lctx *c, const char *base, tr_expr *init)
{
    if (!base || strncmp(base, "struct ", 7) || !init || init->kind != TR_E_INIT) return;
    const tr_struct *st = tp_find_struct(c->u, base + 7);
    if (!st || st->is_union) return;
    for (int k = 0; k < init->nargs && k < st->nfields; k++) {
        const tr_field *f = &st->fields[k];
        tr_expr *a = init->args[k];
        if (f->type.nptr || f->dims[0]) continue;
        if (a->kind == TR_E_INIT) /* {1, 2, 3} for a float3 field, a nested struct's braces */
            tl_pack_struct_init(c, f->type.base, a);
        else if (tl_packed3(f->type.base))
            a->pack = tl_packed3(f->type.base); /* the 4-component value packed into the field */
    }
}

void tr_emit_structs(const tr_unit *u, gp_strbuf *sb)
{
    for (int i = 0; i < u->nstructs; i++) {
        const tr_struct *st = &u->structs[i];
        gp_strbuf_printf(sb, "/* %s:%d */\ntypedef %s %s {\n", u->pp.files[st->file], st->line,
                         st->is_union ? "union" : "struct", st->name);
        for (int k = 0; k < st->nfields; k++) {
            const tr_field *f = &st->fields[k];
            const char *why = NULL;
            const char *b = tl_map_base(f->type.base, &why);
            char packed[32];
            if (!f->type.nptr && !f->dims[0] && tl_packed3(f->type.base)) {
                /* stored as CUDA lays a float3 out: 12 bytes, where the targets' take 16 */
                snprintf(packed, sizeof packed, "gp_packed_%s3", tl_packed3(f->type.base));
                b = packed;
            }
            gp_strbuf_printf(sb, "    %s%s %s", f->type.is_const ? "const " : "",
                             b ? b : f->type.base, f->name);
            for (int d = 0; d < 2 && f->dims[d]; d++)
                gp_strbuf_printf(sb, "[%s]", f->dims[d]);
            gp_strbuf_puts(sb, ";\n");
        }
        gp_strbuf_printf(sb, "} %s;\n\n", st->name);
    }
}
