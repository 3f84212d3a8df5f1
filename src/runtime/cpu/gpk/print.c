/* print.c — the front end's printer: a gk_unit back to C. Expressions are parenthesised by
 * precedence (never more than needed to keep the tree's meaning), every statement sits on its own
 * line behind a #line directive when the source line changes, and a pass can take over any node
 * through the printer's hooks while the printer does the rest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cpu/gpk/gpk.h"

static void gk_puts(gk_printer *p, const char *s)
{
    gp_strbuf_puts(p->out, s);
}

void gk_print_newline(gk_printer *p)
{
    gp_strbuf_putc(p->out, '\n');
    p->line++;
}

void gk_print_indent(gk_printer *p)
{
    for (int i = 0; i < p->indent; i++)
        gk_puts(p, "    ");
}

void gk_print_line(gk_printer *p, gk_pos pos)
{
    if (pos.line && (pos.line != p->line || pos.file != p->file || p->need_line)) {
        const char *f = pos.file < p->files->n ? p->files->names[pos.file] : "?";
        gp_strbuf_printf(p->out, "#line %u \"%s\"\n", pos.line, f);
        p->line = pos.line;
        p->file = pos.file;
        p->need_line = false;
    }
    gk_print_indent(p);
}

bool gk_printer_is_helper(const gk_printer *p, const char *name)
{
    for (size_t i = 0; i < p->nhelpers; i++)
        if (!strcmp(p->helpers[i], name)) return true;
    return false;
}

int gk_expr_prec(const gk_expr *e)
{
    switch (e->kind) {
    case GK_E_IDENT:
    case GK_E_NUMBER:
    case GK_E_CHAR:
    case GK_E_STRING:
    case GK_E_INIT:
        return GK_PREC_PRIMARY;
    case GK_E_CALL:
    case GK_E_INDEX:
    case GK_E_MEMBER:
    case GK_E_ARROW:
    case GK_E_POSTINC:
    case GK_E_COMPOUND:
        return GK_PREC_POSTFIX;
    case GK_E_UNARY:
    case GK_E_SIZEOF_EXPR:
    case GK_E_SIZEOF_TYPE:
    case GK_E_CAST:
        return GK_PREC_UNARY;
    case GK_E_BINARY:
        return gk_binary_prec(e->op);
    case GK_E_ASSIGN:
        return GK_PREC_ASSIGN;
    case GK_E_COND:
        return GK_PREC_COND;
    }
    return GK_PREC_PRIMARY;
}

/* The qualifier words of q: "const GP_GLOBAL " (trailing) or " const GP_GLOBAL" (leading). */
static void gk_quals(gk_printer *p, uint32_t q, bool trailing_space)
{
    static const struct {
        uint32_t q;
        const char *w;
    } words[] = {{GK_Q_CONST, "const"},       {GK_Q_VOLATILE, "volatile"},
                 {GK_Q_RESTRICT, "restrict"}, {GK_Q_GLOBAL, "GP_GLOBAL"},
                 {GK_Q_SHARED, "GP_SHARED"},  {GK_Q_CONSTANT, "GP_CONSTANT"},
                 {GK_Q_PRIVATE, "GP_PRIVATE"}};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        if (!(q & words[i].q)) continue;
        if (!trailing_space) gk_puts(p, " ");
        gk_puts(p, words[i].w);
        if (trailing_space) gk_puts(p, " ");
    }
}

static void gk_print_any(gk_printer *p, const gk_expr *e, int prec, bool hooks);

/* The declarator of `type` down to its base, around `name` (which may be ""). */
static void gk_declarator_text(gk_printer *p, const gk_type *type, const char *name)
{
    gp_strbuf d = GP_STRBUF_INIT;
    gp_strbuf_puts(&d, name ? name : "");
    bool last_ptr = false;
    gp_strbuf *saved = p->out;
    uint32_t saved_line = p->line;
    for (const gk_type *c = type; c && c->kind != GK_T_BASE; c = c->of) {
        if (c->kind == GK_T_PTR) {
            gp_strbuf n = GP_STRBUF_INIT;
            p->out = &n;
            gk_puts(p, "*");
            if (c->quals) {
                gk_quals(p, c->quals, false);
                if (d.len) gk_puts(p, " ");
            }
            gp_strbuf_append(&n, d.data ? d.data : "", d.len);
            gp_strbuf_free(&d);
            d = n;
            last_ptr = true;
            continue;
        }
        if (last_ptr) {
            gp_strbuf n = GP_STRBUF_INIT;
            gp_strbuf_putc(&n, '(');
            gp_strbuf_append(&n, d.data ? d.data : "", d.len);
            gp_strbuf_putc(&n, ')');
            gp_strbuf_free(&d);
            d = n;
            last_ptr = false;
        }
        p->out = &d;
        if (c->kind == GK_T_ARRAY) {
            gk_puts(p, "[");
            if (c->dim) gk_print_any(p, c->dim, GK_PREC_ASSIGN, false);
            gk_puts(p, "]");
        } else {
            gk_puts(p, "(");
            for (size_t i = 0; i < c->nparams; i++) {
                if (i) gk_puts(p, ", ");
                gk_print_type(p, c->params[i].type, c->params[i].name);
            }
            if (c->variadic) gk_puts(p, c->nparams ? ", ..." : "...");
            if (!c->nparams && !c->variadic) gk_puts(p, "void");
            gk_puts(p, ")");
        }
    }
    p->out = saved;
    p->line = saved_line;
    gp_strbuf_append(p->out, d.data ? d.data : "", d.len);
    gp_strbuf_free(&d);
}

static const gk_type *gk_base_of(const gk_type *t)
{
    while (t && t->kind != GK_T_BASE)
        t = t->of;
    return t;
}

void gk_print_type(gk_printer *p, const gk_type *type, const char *name)
{
    const gk_type *b = gk_base_of(type);
    if (b) {
        if (b->quals) gk_quals(p, b->quals, true);
        gk_puts(p, b->spec ? b->spec : "int");
    }
    bool has_decl = (name && *name) || type->kind != GK_T_BASE;
    if (has_decl) gk_puts(p, " ");
    gk_declarator_text(p, type, name);
}

static void gk_storage(gk_printer *p, uint32_t s)
{
    static const struct {
        uint32_t s;
        const char *w;
    } words[] = {{GK_S_TYPEDEF, "typedef"},
                 {GK_S_EXTERN, "extern"},
                 {GK_S_STATIC, "static"},
                 {GK_S_THREAD_LOCAL, "_Thread_local"},
                 {GK_S_REGISTER, "register"},
                 {GK_S_INLINE, "inline"},
                 {GK_S_SHARED_DECL, "GP_SHARED_DECL"},
                 {GK_S_CONSTANT_DECL, "GP_CONSTANT_DECL"},
                 {GK_S_FUNC, "GP_FUNC"}};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (s & words[i].s) {
            gk_puts(p, words[i].w);
            gk_puts(p, " ");
        }
}

static void gk_print_init_items(gk_printer *p, const gk_expr *e, bool hooks)
{
    gk_puts(p, "{");
    for (size_t i = 0; i < e->nitems; i++) {
        const gk_init_item *it = &e->items[i];
        if (i) gk_puts(p, ",");
        gk_puts(p, " ");
        for (size_t d = 0; d < it->ndesig; d++) {
            if (it->desig[d].field) {
                gk_puts(p, ".");
                gk_puts(p, it->desig[d].field);
            } else {
                gk_puts(p, "[");
                gk_print_any(p, it->desig[d].index, GK_PREC_COND, hooks);
                gk_puts(p, "]");
            }
        }
        if (it->ndesig) gk_puts(p, " = ");
        gk_print_any(p, it->value, GK_PREC_ASSIGN, hooks);
    }
    gk_puts(p, e->nitems ? " }" : "}");
}

static void gk_print_any(gk_printer *p, const gk_expr *e, int prec, bool hooks)
{
    if (hooks && p->expr_hook && p->expr_hook(p, e, prec)) return;
    int mine = gk_expr_prec(e);
    bool paren = mine < prec;
    if (paren) gk_puts(p, "(");
    switch (e->kind) {
    case GK_E_IDENT:
        gk_puts(p, e->name);
        break;
    case GK_E_NUMBER:
    case GK_E_CHAR:
    case GK_E_STRING:
        gk_puts(p, e->op);
        break;
    case GK_E_CALL: {
        gk_print_any(p, e->a, GK_PREC_POSTFIX, hooks);
        gk_puts(p, "(");
        bool helper =
            p->helper_args && e->a->kind == GK_E_IDENT && gk_printer_is_helper(p, e->a->name);
        if (helper) {
            gk_puts(p, p->helper_args);
            if (e->nargs) gk_puts(p, ", ");
        }
        for (size_t i = 0; i < e->nargs; i++) {
            if (i) gk_puts(p, ", ");
            gk_print_any(p, e->args[i], GK_PREC_ASSIGN, hooks);
        }
        gk_puts(p, ")");
        break;
    }
    case GK_E_INDEX:
        gk_print_any(p, e->a, GK_PREC_POSTFIX, hooks);
        gk_puts(p, "[");
        gk_print_any(p, e->b, GK_PREC_COMMA, hooks);
        gk_puts(p, "]");
        break;
    case GK_E_MEMBER:
    case GK_E_ARROW:
        gk_print_any(p, e->a, GK_PREC_POSTFIX, hooks);
        gk_puts(p, e->kind == GK_E_MEMBER ? "." : "->");
        gk_puts(p, e->name);
        break;
    case GK_E_POSTINC:
        gk_print_any(p, e->a, GK_PREC_POSTFIX, hooks);
        gk_puts(p, e->op);
        break;
    case GK_E_UNARY:
        gk_puts(p, e->op);
        /* "- -x" and "& &x" must not fuse into "--x" and "&&x" */
        if ((e->a->kind == GK_E_UNARY || e->a->kind == GK_E_CAST) &&
            (e->op[0] == '-' || e->op[0] == '+' || e->op[0] == '&'))
            gk_puts(p, " ");
        gk_print_any(p, e->a, GK_PREC_UNARY, hooks);
        break;
    case GK_E_SIZEOF_EXPR:
        gk_puts(p, "sizeof(");
        gk_print_any(p, e->a, GK_PREC_COMMA, hooks);
        gk_puts(p, ")");
        break;
    case GK_E_SIZEOF_TYPE:
        gk_puts(p, e->op);
        gk_puts(p, "(");
        gk_print_type(p, e->type, NULL);
        gk_puts(p, ")");
        break;
    case GK_E_CAST:
        gk_puts(p, "(");
        gk_print_type(p, e->type, NULL);
        gk_puts(p, ")");
        gk_print_any(p, e->a, GK_PREC_UNARY, hooks);
        break;
    case GK_E_COMPOUND:
        gk_puts(p, "(");
        gk_print_type(p, e->type, NULL);
        gk_puts(p, ")");
        gk_print_init_items(p, e->a, hooks);
        break;
    case GK_E_BINARY: {
        int bp = gk_binary_prec(e->op);
        gk_print_any(p, e->a, bp, hooks);
        gk_puts(p, e->op[0] == ',' ? ", " : " ");
        if (e->op[0] != ',') {
            gk_puts(p, e->op);
            gk_puts(p, " ");
        }
        gk_print_any(p, e->b, bp + 1, hooks);
        break;
    }
    case GK_E_ASSIGN:
        gk_print_any(p, e->a, GK_PREC_UNARY, hooks);
        gk_puts(p, " ");
        gk_puts(p, e->op);
        gk_puts(p, " ");
        gk_print_any(p, e->b, GK_PREC_ASSIGN, hooks);
        break;
    case GK_E_COND:
        gk_print_any(p, e->a, GK_PREC_COND + 1, hooks);
        gk_puts(p, " ? ");
        gk_print_any(p, e->b, GK_PREC_COMMA, hooks);
        gk_puts(p, " : ");
        gk_print_any(p, e->c, GK_PREC_COND, hooks);
        break;
    case GK_E_INIT:
        gk_print_init_items(p, e, hooks);
        break;
    }
    if (paren) gk_puts(p, ")");
}

void gk_print_expr(gk_printer *p, const gk_expr *e, int prec)
{
    gk_print_any(p, e, prec, true);
}

void gk_print_expr_plain(gk_printer *p, const gk_expr *e, int prec)
{
    gk_print_any(p, e, prec, false);
}

void gk_print_decl(gk_printer *p, const gk_decl *d)
{
    gk_storage(p, d->storage);
    gk_puts(p, d->spec_text);
    for (size_t i = 0; i < d->ndecls; i++) {
        const gk_declarator *dc = &d->decls[i];
        gk_puts(p, i ? ", " : " ");
        gk_declarator_text(p, dc->type, dc->name);
        if (dc->init) {
            gk_puts(p, " = ");
            gk_print_expr(p, dc->init, GK_PREC_ASSIGN);
        }
    }
    gk_puts(p, ";");
}

static void gk_print_body(gk_printer *p, const gk_stmt *s)
{
    /* a substatement as a block: same meaning, one layout */
    if (s->kind == GK_S_BLOCK) {
        gk_print_stmt(p, s);
        return;
    }
    gk_puts(p, "{");
    gk_print_newline(p);
    p->indent++;
    gk_print_stmt(p, s);
    p->indent--;
    gk_print_indent(p);
    gk_puts(p, "}");
    gk_print_newline(p);
}

/* "keyword (cond) " then the body on the lines after */
static void gk_print_head(gk_printer *p, const char *kw, const gk_expr *cond)
{
    gk_puts(p, kw);
    gk_puts(p, " (");
    gk_print_expr(p, cond, GK_PREC_COMMA);
    gk_puts(p, ") ");
}

void gk_print_stmt(gk_printer *p, const gk_stmt *s)
{
    if (p->stmt_hook && p->stmt_hook(p, s)) return;
    switch (s->kind) {
    case GK_S_BLOCK:
        if (p->out->len && p->out->data[p->out->len - 1] == '\n') gk_print_line(p, s->pos);
        gk_puts(p, "{");
        gk_print_newline(p);
        p->indent++;
        for (size_t i = 0; i < s->nitems; i++)
            gk_print_stmt(p, s->items[i]);
        p->indent--;
        gk_print_line(p, s->end);
        gk_puts(p, "}");
        gk_print_newline(p);
        return;
    case GK_S_EXPR:
        gk_print_line(p, s->pos);
        gk_print_expr(p, s->expr, GK_PREC_COMMA);
        gk_puts(p, ";");
        break;
    case GK_S_DECL:
        gk_print_line(p, s->pos);
        gk_print_decl(p, s->decl);
        break;
    case GK_S_EMPTY:
        gk_print_line(p, s->pos);
        gk_puts(p, ";");
        break;
    case GK_S_IF:
        gk_print_line(p, s->pos);
        gk_print_head(p, "if", s->expr);
        gk_print_body(p, s->body);
        if (s->else_body) {
            gk_print_indent(p);
            gk_puts(p, "else ");
            gk_print_body(p, s->else_body);
        }
        return;
    case GK_S_WHILE:
        gk_print_line(p, s->pos);
        gk_print_head(p, "while", s->expr);
        gk_print_body(p, s->body);
        return;
    case GK_S_DO:
        gk_print_line(p, s->pos);
        gk_puts(p, "do ");
        gk_print_body(p, s->body);
        gk_print_indent(p);
        gk_puts(p, "while (");
        gk_print_expr(p, s->expr, GK_PREC_COMMA);
        gk_puts(p, ");");
        break;
    case GK_S_FOR:
        gk_print_line(p, s->pos);
        gk_puts(p, "for (");
        if (s->init && s->init->kind == GK_S_DECL) {
            gk_print_decl(p, s->init->decl);
        } else {
            if (s->init) gk_print_expr(p, s->init->expr, GK_PREC_COMMA);
            gk_puts(p, ";");
        }
        gk_puts(p, " ");
        if (s->expr) gk_print_expr(p, s->expr, GK_PREC_COMMA);
        gk_puts(p, "; ");
        if (s->step) gk_print_expr(p, s->step, GK_PREC_COMMA);
        gk_puts(p, ") ");
        gk_print_body(p, s->body);
        return;
    case GK_S_SWITCH:
        gk_print_line(p, s->pos);
        gk_print_head(p, "switch", s->expr);
        gk_print_body(p, s->body);
        return;
    case GK_S_CASE:
        gk_print_line(p, s->pos);
        gk_puts(p, "case ");
        gk_print_expr(p, s->expr, GK_PREC_COND);
        if (s->step) {
            gk_puts(p, " ... ");
            gk_print_expr(p, s->step, GK_PREC_COND);
        }
        gk_puts(p, ":");
        gk_print_newline(p);
        gk_print_stmt(p, s->body);
        return;
    case GK_S_DEFAULT:
        gk_print_line(p, s->pos);
        gk_puts(p, "default:");
        gk_print_newline(p);
        gk_print_stmt(p, s->body);
        return;
    case GK_S_LABEL:
        gk_print_line(p, s->pos);
        gk_puts(p, s->label);
        gk_puts(p, ":");
        gk_print_newline(p);
        gk_print_stmt(p, s->body);
        return;
    case GK_S_GOTO:
        gk_print_line(p, s->pos);
        gk_puts(p, "goto ");
        gk_puts(p, s->label);
        gk_puts(p, ";");
        break;
    case GK_S_BREAK:
        gk_print_line(p, s->pos);
        gk_puts(p, "break;");
        break;
    case GK_S_CONTINUE:
        gk_print_line(p, s->pos);
        gk_puts(p, "continue;");
        break;
    case GK_S_RETURN:
        gk_print_line(p, s->pos);
        gk_puts(p, "return");
        if (s->expr) {
            gk_puts(p, " ");
            gk_print_expr(p, s->expr, GK_PREC_COMMA);
        }
        gk_puts(p, ";");
        break;
    }
    gk_print_newline(p);
}

static void gk_print_function_body(gk_printer *p, const gk_top *t)
{
    const gk_stmt *b = t->body;
    gk_puts(p, "{");
    gk_print_newline(p);
    p->indent++;
    if (p->body_begin) p->body_begin(p, t);
    for (size_t i = 0; i < b->nitems; i++)
        gk_print_stmt(p, b->items[i]);
    if (p->body_end) p->body_end(p, t);
    p->indent--;
    gk_print_line(p, b->end);
    gk_puts(p, "}");
    gk_print_newline(p);
}

/* `storage spec name(extra, params)` of a function declarator. */
static void gk_print_function_head(gk_printer *p, const gk_decl *d, const gk_declarator *dc)
{
    const gk_type *f = dc->type;
    gk_storage(p, d->storage);
    gk_puts(p, d->spec_text);
    gk_puts(p, " ");
    gp_strbuf inner = GP_STRBUF_INIT;
    gp_strbuf *saved = p->out;
    uint32_t saved_line = p->line;
    p->out = &inner;
    gk_puts(p, dc->name ? dc->name : "");
    gk_puts(p, "(");
    bool any = false;
    if (p->helper_params) {
        gk_puts(p, p->helper_params);
        any = true;
    }
    for (size_t i = 0; i < f->nparams; i++) {
        if (any) gk_puts(p, ", ");
        gk_print_type(p, f->params[i].type, f->params[i].name);
        any = true;
    }
    if (f->variadic) gk_puts(p, any ? ", ..." : "...");
    if (!any && !f->variadic) gk_puts(p, "void");
    gk_puts(p, ")");
    p->out = saved;
    p->line = saved_line;
    gk_declarator_text(p, f->of, inner.data ? inner.data : "");
    gp_strbuf_free(&inner);
}

void gk_print_top(gk_printer *p, const gk_top *t)
{
    if (p->top_hook && p->top_hook(p, t)) return;
    switch (t->kind) {
    case GK_TOP_REQUIRES:
        gk_print_line(p, t->pos);
        gk_puts(p, t->text);
        gk_print_newline(p);
        return;
    case GK_TOP_DECL: {
        gk_print_line(p, t->pos);
        const gk_decl *d = t->decl;
        bool protos = p->helper_params && !(d->storage & GK_S_TYPEDEF);
        for (size_t i = 0; protos && i < d->ndecls; i++)
            if (d->decls[i].type->kind != GK_T_FUNC) protos = false;
        if (protos && d->ndecls) {
            /* prototypes of helpers take the pass's parameters too */
            for (size_t i = 0; i < d->ndecls; i++) {
                gk_print_function_head(p, d, &d->decls[i]);
                gk_puts(p, ";");
            }
        } else {
            gk_print_decl(p, d);
        }
        gk_print_newline(p);
        return;
    }
    case GK_TOP_FUNCTION:
        gk_print_line(p, t->pos);
        gk_print_function_head(p, t->decl, &t->decl->decls[0]);
        gk_print_newline(p);
        gk_print_function_body(p, t);
        return;
    case GK_TOP_KERNEL:
        gk_print_line(p, t->pos);
        gk_puts(p, "GP_KERNEL(");
        gk_puts(p, t->name);
        for (size_t i = 0; i < t->nparams; i++) {
            static const char *const kinds[] = {"GP_BUF", "GP_CBUF", "GP_VAL", "GP_DYN_SHARED"};
            gp_strbuf_printf(p->out, ", %s(%s, %s)", kinds[t->params[i].kind],
                             t->params[i].type_text, t->params[i].name);
        }
        gk_puts(p, ")");
        gk_print_newline(p);
        gk_print_function_body(p, t);
        return;
    }
}

void gk_print_unit(gk_printer *p, const gk_unit *u)
{
    size_t n = 0;
    for (size_t i = 0; i < u->ntops; i++) {
        const gk_top *t = u->tops[i];
        if (t->kind == GK_TOP_FUNCTION) n++;
        if (t->kind == GK_TOP_DECL && !(t->decl->storage & GK_S_TYPEDEF))
            for (size_t k = 0; k < t->decl->ndecls; k++)
                if (t->decl->decls[k].type->kind == GK_T_FUNC) n++;
    }
    const char **names = n ? calloc(n, sizeof *names) : NULL;
    size_t k = 0;
    for (size_t i = 0; names && i < u->ntops; i++) {
        const gk_top *t = u->tops[i];
        if (t->kind == GK_TOP_FUNCTION) names[k++] = t->decl->decls[0].name;
        if (t->kind == GK_TOP_DECL && !(t->decl->storage & GK_S_TYPEDEF))
            for (size_t j = 0; j < t->decl->ndecls; j++)
                if (t->decl->decls[j].type->kind == GK_T_FUNC) names[k++] = t->decl->decls[j].name;
    }
    p->helpers = names;
    p->nhelpers = names ? k : 0;
    p->need_line = true;
    for (size_t i = 0; i < u->ntops; i++)
        gk_print_top(p, u->tops[i]);
    free(names);
    p->helpers = NULL;
    p->nhelpers = 0;
}
