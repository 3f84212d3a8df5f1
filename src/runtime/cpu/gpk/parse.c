/* parse.c — the front end's parser: the preprocessed tokens of a dialect source into a gk_unit.
 * C99 declarations (with the dialect's address spaces as qualifiers and GP_SHARED_DECL,
 * GP_CONSTANT_DECL, GP_FUNC as storage), statements and expressions, plus GP_KERNEL definitions
 * and the GP_REQUIRES_* lines. Typedef names are tracked by scope, as C needs to tell a cast from
 * a parenthesised expression. Errors leave through a longjmp (everything lives in the arena) and
 * name file:line:col; nesting is bounded so hostile input cannot exhaust the stack. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cpu/gpk/gpk.h"

#define GK_MAX_NEST 200

typedef struct gk_sym {
    const char *name;
    bool is_type;
    const gk_type *type; /* typedefs: what the name stands for */
    struct gk_sym *next;
} gk_sym;

typedef struct gk_parser {
    gk_unit *u;
    gk_arena *a;
    const gk_token *t;
    size_t n, i;
    gk_sym *syms; /* innermost first */
    gk_sym *scopes[GK_MAX_NEST + 8];
    int nscopes;
    gk_record **records; /* tags, for `struct pt` after its definition */
    size_t nrecords, caprecords;
    int nest;
    /* The type words of the declaration specifiers being read, innermost last: they live here, not
     * on the stack, so that a longjmp out of a struct body can free the ones still open. */
    gp_strbuf words[GK_MAX_NEST + 16];
    int nwords;
    jmp_buf fail;
    char *err;
    size_t errlen;
} gk_parser;

static _Noreturn void gk_error(gk_parser *p, gk_pos pos, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const gk_files *f = &p->u->files;
    snprintf(p->err, p->errlen, "%s:%u:%u: %s", pos.file < f->n ? f->names[pos.file] : "?",
             pos.line, pos.col, msg);
    longjmp(p->fail, 1);
}

static void *gk_new(gk_parser *p, size_t n)
{
    void *m = gk_alloc(p->a, n);
    if (!m) {
        gk_pos none = {0, 0, 0};
        gk_error(p, p->i < p->n ? p->t[p->i].pos : none, "out of memory parsing the source");
    }
    return m;
}

static const gk_token gk_eof_tok = {GK_EOF, {0, 0, 0}, "end of file", 11, 0, 0, 0};

static const gk_token *gk_peek_at(gk_parser *p, size_t k)
{
    if (p->i + k < p->n) return &p->t[p->i + k];
    static gk_token eof;
    eof = gk_eof_tok;
    if (p->n) eof.pos = p->t[p->n - 1].pos;
    return &eof;
}

static const gk_token *gk_cur(gk_parser *p)
{
    return gk_peek_at(p, 0);
}

static bool gk_at(gk_parser *p, const char *s)
{
    const gk_token *t = gk_cur(p);
    return t->kind != GK_EOF && t->kind != GK_STRING && t->kind != GK_CHAR && gk_tok_is(t, s);
}

static const gk_token *gk_advance(gk_parser *p)
{
    const gk_token *t = gk_cur(p);
    if (p->i < p->n) p->i++;
    return t;
}

static bool gk_accept(gk_parser *p, const char *s)
{
    if (!gk_at(p, s)) return false;
    p->i++;
    return true;
}

static const gk_token *gk_expect(gk_parser *p, const char *s, const char *what)
{
    if (!gk_at(p, s)) {
        const gk_token *t = gk_cur(p);
        gk_error(p, t->pos, "expected '%s' %s, found '%.*s'", s, what,
                 (int)(t->len > 40 ? 40 : t->len), t->text);
    }
    return gk_advance(p);
}

static const char *gk_text(gk_parser *p, const gk_token *t)
{
    char *s = gk_strndup(p->a, t->text, t->len);
    if (!s) gk_error(p, t->pos, "out of memory parsing the source");
    return s;
}

static void gk_enter(gk_parser *p, gk_pos pos)
{
    if (++p->nest > GK_MAX_NEST)
        gk_error(p, pos, "the source nests deeper than %d levels", GK_MAX_NEST);
}

/* ---- scopes ---------------------------------------------------------------------------------- */
static void gk_scope_push(gk_parser *p)
{
    if (p->nscopes >= GK_MAX_NEST + 8) gk_error(p, gk_cur(p)->pos, "blocks nest too deeply");
    p->scopes[p->nscopes++] = p->syms;
}

static void gk_scope_pop(gk_parser *p)
{
    p->syms = p->scopes[--p->nscopes];
}

static void gk_declare(gk_parser *p, const char *name, bool is_type, const gk_type *type)
{
    gk_sym *s = gk_new(p, sizeof *s);
    s->name = name;
    s->is_type = is_type;
    s->type = type;
    s->next = p->syms;
    p->syms = s;
}

static const gk_sym *gk_lookup(gk_parser *p, const gk_token *t)
{
    for (const gk_sym *s = p->syms; s; s = s->next)
        if (strlen(s->name) == t->len && !memcmp(s->name, t->text, t->len)) return s;
    return NULL;
}

static bool gk_is_typedef_name(gk_parser *p, const gk_token *t)
{
    if (t->kind != GK_IDENT) return false;
    const gk_sym *s = gk_lookup(p, t);
    return s && s->is_type;
}

/* ---- types ----------------------------------------------------------------------------------- */
static gk_type *gk_type_new(gk_parser *p, gk_type_kind k, gk_type *of)
{
    gk_type *t = gk_new(p, sizeof *t);
    t->kind = k;
    t->of = of;
    return t;
}

static const char *const gk_type_words[] = {"void",     "char",  "short",    "int",
                                            "long",     "float", "double",   "signed",
                                            "unsigned", "_Bool", "_Complex", "__int128"};
static const struct {
    const char *word;
    uint32_t q;
} gk_qual_words[] = {
    {"const", GK_Q_CONST},         {"volatile", GK_Q_VOLATILE},     {"restrict", GK_Q_RESTRICT},
    {"__restrict", GK_Q_RESTRICT}, {"__restrict__", GK_Q_RESTRICT}, {"GP_GLOBAL", GK_Q_GLOBAL},
    {"GP_SHARED", GK_Q_SHARED},    {"GP_CONSTANT", GK_Q_CONSTANT},  {"GP_PRIVATE", GK_Q_PRIVATE},
};
static const struct {
    const char *word;
    uint32_t s;
} gk_storage_words[] = {
    {"typedef", GK_S_TYPEDEF},
    {"static", GK_S_STATIC},
    {"extern", GK_S_EXTERN},
    {"inline", GK_S_INLINE},
    {"__inline", GK_S_INLINE},
    {"__inline__", GK_S_INLINE},
    {"register", GK_S_REGISTER},
    {"GP_SHARED_DECL", GK_S_SHARED_DECL},
    {"GP_CONSTANT_DECL", GK_S_CONSTANT_DECL},
    {"GP_FUNC", GK_S_FUNC},
    {"_Thread_local", GK_S_THREAD_LOCAL},
};

static bool gk_is_type_word(const gk_token *t)
{
    if (t->kind != GK_IDENT) return false;
    for (size_t i = 0; i < sizeof gk_type_words / sizeof *gk_type_words; i++)
        if (gk_tok_is(t, gk_type_words[i])) return true;
    return gk_tok_is(t, "struct") || gk_tok_is(t, "union") || gk_tok_is(t, "enum");
}

static uint32_t gk_qual_of(const gk_token *t)
{
    if (t->kind != GK_IDENT) return 0;
    for (size_t i = 0; i < sizeof gk_qual_words / sizeof *gk_qual_words; i++)
        if (gk_tok_is(t, gk_qual_words[i].word)) return gk_qual_words[i].q;
    return 0;
}

static uint32_t gk_storage_of(const gk_token *t)
{
    if (t->kind != GK_IDENT) return 0;
    for (size_t i = 0; i < sizeof gk_storage_words / sizeof *gk_storage_words; i++)
        if (gk_tok_is(t, gk_storage_words[i].word)) return gk_storage_words[i].s;
    return 0;
}

/* Can a declaration or type name start at token k ahead? */
static bool gk_starts_type(gk_parser *p, size_t k)
{
    const gk_token *t = gk_peek_at(p, k);
    return gk_is_type_word(t) || gk_qual_of(t) || gk_storage_of(t) || gk_is_typedef_name(p, t) ||
           gk_tok_is(t, "__attribute__") || gk_tok_is(t, "_Alignas");
}

static gk_record *gk_find_record(gk_parser *p, const char *tag, bool is_union)
{
    for (size_t i = p->nrecords; i-- > 0;)
        if (p->records[i]->tag && !strcmp(p->records[i]->tag, tag) &&
            p->records[i]->is_union == is_union)
            return p->records[i];
    return NULL;
}

static void gk_add_record(gk_parser *p, gk_record *r)
{
    if (p->nrecords == p->caprecords) {
        size_t nc = p->caprecords ? p->caprecords * 2 : 16;
        gk_record **v = gk_new(p, nc * sizeof *v);
        if (p->nrecords) memcpy(v, p->records, p->nrecords * sizeof *v);
        p->records = v;
        p->caprecords = nc;
    }
    p->records[p->nrecords++] = r;
}

static void gk_skip_balanced(gk_parser *p)
{
    /* at '(' : skips to its ')' */
    int depth = 0;
    do {
        const gk_token *t = gk_advance(p);
        if (t->kind == GK_EOF) gk_error(p, t->pos, "'(' is never closed");
        if (gk_tok_is(t, "(")) depth++;
        if (gk_tok_is(t, ")")) depth--;
    } while (depth > 0);
}

typedef struct gk_specs {
    uint32_t storage;
    gk_type *base;
    gk_record *defines;
    const char *text; /* the type part as written (no storage words) */
    gk_pos pos;
} gk_specs;

static gk_type *gk_parse_declarator(gk_parser *p, gk_type *base, const char **name, gk_pos *npos,
                                    bool abstract);
static gk_expr *gk_assign_expr(gk_parser *p);
static gk_expr *gk_cond_expr(gk_parser *p);
static gk_expr *gk_expr_parse(gk_parser *p);
static gk_expr *gk_initializer(gk_parser *p);
static bool gk_specifiers(gk_parser *p, gk_specs *out, bool need);

static void gk_record_body(gk_parser *p, gk_record *r)
{
    gk_expect(p, "{", "to open the members");
    size_t cap = 8;
    r->members = gk_new(p, cap * sizeof *r->members);
    while (!gk_at(p, "}")) {
        gk_specs s;
        gk_specifiers(p, &s, true);
        if (gk_accept(p, ";")) continue; /* an anonymous struct member: not typed further */
        for (;;) {
            const char *name = NULL;
            gk_pos np;
            gk_type *t = gk_parse_declarator(p, s.base, &name, &np, true);
            if (gk_accept(p, ":")) (void)gk_cond_expr(p); /* a bit-field's width */
            if (r->nmembers == cap) {
                gk_member *m = gk_new(p, 2 * cap * sizeof *m);
                memcpy(m, r->members, cap * sizeof *m);
                r->members = m;
                cap *= 2;
            }
            r->members[r->nmembers].name = name;
            r->members[r->nmembers].type = t;
            r->nmembers++;
            if (!gk_accept(p, ",")) break;
        }
        gk_expect(p, ";", "after a member");
    }
    gk_expect(p, "}", "to close the members");
    r->body = true;
}

static void gk_enum_body(gk_parser *p)
{
    gk_expect(p, "{", "to open the enumerators");
    while (!gk_at(p, "}")) {
        const gk_token *t = gk_advance(p);
        if (t->kind != GK_IDENT) gk_error(p, t->pos, "expected an enumerator name");
        gk_declare(p, gk_text(p, t), false, NULL);
        if (gk_accept(p, "=")) (void)gk_cond_expr(p);
        if (!gk_accept(p, ",")) break;
    }
    gk_expect(p, "}", "to close the enumerators");
}

/* Joins tokens [from, to) into text, spaces where the source had them (storage words left out). */
static const char *gk_join(gk_parser *p, size_t from, size_t to, bool skip_storage)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    for (size_t k = from; k < to; k++) {
        const gk_token *t = &p->t[k];
        if (skip_storage && gk_storage_of(t)) continue;
        if (sb.len && (t->space || t->kind == GK_IDENT || t->kind == GK_NUMBER)) {
            char last = sb.data[sb.len - 1];
            bool word_last = (last >= 'a' && last <= 'z') || (last >= 'A' && last <= 'Z') ||
                             (last >= '0' && last <= '9') || last == '_';
            if (t->space || word_last) gp_strbuf_putc(&sb, ' ');
        }
        gp_strbuf_append(&sb, t->text, t->len);
    }
    char *s = sb.failed ? NULL : gk_strndup(p->a, sb.data ? sb.data : "", sb.len);
    gp_strbuf_free(&sb);
    if (!s) gk_error(p, gk_cur(p)->pos, "out of memory parsing the source");
    return s;
}

static void gk_words_pop(gk_parser *p)
{
    gp_strbuf_free(&p->words[--p->nwords]);
}

/* Declaration specifiers. Returns false (consuming nothing) when none start here and !need. */
static bool gk_specifiers(gk_parser *p, gk_specs *out, bool need)
{
    memset(out, 0, sizeof *out);
    out->pos = gk_cur(p)->pos;
    size_t start = p->i;
    uint32_t quals = 0;
    bool have_type = false;
    gk_type *base = gk_type_new(p, GK_T_BASE, NULL);
    if (p->nwords >= (int)(sizeof p->words / sizeof p->words[0]))
        gk_error(p, out->pos, "declarations nest too deeply");
    gp_strbuf *words = &p->words[p->nwords++];
    *words = (gp_strbuf)GP_STRBUF_INIT;
    for (;;) {
        const gk_token *t = gk_cur(p);
        uint32_t s = gk_storage_of(t), q = gk_qual_of(t);
        if (s) {
            out->storage |= s;
            p->i++;
        } else if (q) {
            quals |= q;
            p->i++;
        } else if (gk_tok_is(t, "__attribute__") || gk_tok_is(t, "_Alignas")) {
            p->i++;
            if (!gk_at(p, "("))
                gk_error(p, t->pos, "expected '(' after %.*s", (int)t->len, t->text);
            gk_skip_balanced(p);
        } else if (t->kind == GK_IDENT && (gk_tok_is(t, "struct") || gk_tok_is(t, "union"))) {
            bool is_union = gk_tok_is(t, "union");
            p->i++;
            const char *tag = NULL;
            if (gk_cur(p)->kind == GK_IDENT) tag = gk_text(p, gk_advance(p));
            gk_record *r = NULL;
            if (gk_at(p, "{")) {
                r = gk_new(p, sizeof *r);
                r->is_union = is_union;
                r->tag = tag;
                r->pos = t->pos;
                gk_enter(p, t->pos);
                gk_record_body(p, r);
                p->nest--;
                gk_add_record(p, r);
                out->defines = r;
            } else if (tag) {
                r = gk_find_record(p, tag, is_union);
                if (!r) {
                    r = gk_new(p, sizeof *r);
                    r->is_union = is_union;
                    r->tag = tag;
                    r->pos = t->pos;
                    gk_add_record(p, r);
                }
            } else {
                gk_error(p, t->pos, "expected a tag or '{' after %s",
                         is_union ? "union" : "struct");
            }
            base->record = r;
            gp_strbuf_printf(words, "%s%s%s%s", words->len ? " " : "",
                             is_union ? "union" : "struct", tag ? " " : "", tag ? tag : "");
            have_type = true;
        } else if (t->kind == GK_IDENT && gk_tok_is(t, "enum")) {
            p->i++;
            const char *tag = NULL;
            if (gk_cur(p)->kind == GK_IDENT) tag = gk_text(p, gk_advance(p));
            if (gk_at(p, "{")) gk_enum_body(p);
            gp_strbuf_printf(words, "%senum%s%s", words->len ? " " : "", tag ? " " : "",
                             tag ? tag : "");
            have_type = true;
        } else if (gk_is_type_word(t)) {
            gp_strbuf_printf(words, "%s%.*s", words->len ? " " : "", (int)t->len, t->text);
            have_type = true;
            p->i++;
        } else if (!have_type && gk_is_typedef_name(p, t)) {
            gp_strbuf_printf(words, "%s%.*s", words->len ? " " : "", (int)t->len, t->text);
            base->alias = gk_lookup(p, t)->type;
            have_type = true;
            p->i++;
        } else {
            break;
        }
    }
    if (p->i == start) {
        gk_words_pop(p);
        if (need) {
            const gk_token *t = gk_cur(p);
            gk_error(p, t->pos, "expected a type, found '%.*s'", (int)(t->len > 40 ? 40 : t->len),
                     t->text);
        }
        return false;
    }
    if (!have_type) {
        gk_words_pop(p);
        gk_error(p, out->pos, "a declaration needs a type (implicit int is not C99)");
    }
    base->spec = words->failed ? NULL : gk_strndup(p->a, words->data, words->len);
    gk_words_pop(p);
    if (!base->spec) gk_error(p, out->pos, "out of memory parsing the source");
    base->quals = quals;
    out->base = base;
    out->text = gk_join(p, start, p->i, true);
    return true;
}

static gk_type *gk_params(gk_parser *p, gk_type *ret)
{
    gk_type *f = gk_type_new(p, GK_T_FUNC, ret);
    gk_expect(p, "(", "to open the parameters");
    if (gk_at(p, "void") && gk_tok_is(gk_peek_at(p, 1), ")")) {
        p->i += 2;
        return f;
    }
    size_t cap = 4;
    f->params = gk_new(p, cap * sizeof *f->params);
    while (!gk_at(p, ")")) {
        if (gk_accept(p, "...")) {
            f->variadic = true;
            break;
        }
        gk_specs s;
        gk_specifiers(p, &s, true);
        const char *name = NULL;
        gk_pos np = gk_cur(p)->pos;
        gk_type *t = gk_parse_declarator(p, s.base, &name, &np, true);
        if (f->nparams == cap) {
            gk_param *v = gk_new(p, 2 * cap * sizeof *v);
            memcpy(v, f->params, cap * sizeof *v);
            f->params = v;
            cap *= 2;
        }
        f->params[f->nparams].type = t;
        f->params[f->nparams].name = name;
        f->params[f->nparams].pos = np;
        f->nparams++;
        if (!gk_accept(p, ",")) break;
    }
    gk_expect(p, ")", "to close the parameters");
    return f;
}

/* The suffixes [n] and (params) of a declarator, applied to base. */
static gk_type *gk_suffixes(gk_parser *p, gk_type *base)
{
    if (gk_at(p, "[")) {
        gk_pos pos = gk_advance(p)->pos;
        gk_expr *dim = NULL;
        while (gk_accept(p, "static") || gk_qual_of(gk_cur(p)))
            if (gk_qual_of(gk_cur(p))) p->i++;
        if (!gk_at(p, "]")) dim = gk_assign_expr(p);
        gk_expect(p, "]", "to close the array size");
        gk_enter(p, pos);
        gk_type *elem = gk_suffixes(p, base);
        p->nest--;
        gk_type *t = gk_type_new(p, GK_T_ARRAY, elem);
        t->dim = dim;
        return t;
    }
    if (gk_at(p, "(")) {
        gk_type *f = gk_params(p, NULL);
        gk_type *ret = gk_suffixes(p, base);
        f->of = ret;
        return f;
    }
    return base;
}

static gk_type *gk_parse_declarator(gk_parser *p, gk_type *base, const char **name, gk_pos *npos,
                                    bool abstract)
{
    gk_enter(p, gk_cur(p)->pos);
    while (gk_at(p, "*")) {
        p->i++;
        gk_type *ptr = gk_type_new(p, GK_T_PTR, base);
        for (uint32_t q; (q = gk_qual_of(gk_cur(p))) != 0; p->i++)
            ptr->quals |= q;
        while (gk_at(p, "__attribute__")) {
            p->i++;
            gk_skip_balanced(p);
        }
        base = ptr;
    }
    gk_type *result;
    const gk_token *t = gk_cur(p);
    const gk_token *t1 = gk_peek_at(p, 1);
    bool nested = gk_tok_is(t, "(") && t->kind == GK_PUNCT &&
                  (gk_tok_is(t1, "*") || gk_tok_is(t1, "(") || gk_tok_is(t1, "[") ||
                   (t1->kind == GK_IDENT && !gk_is_typedef_name(p, t1) && !gk_qual_of(t1) &&
                    !gk_is_type_word(t1) && !gk_storage_of(t1)));
    if (nested) {
        p->i++;
        gk_type *hole = gk_type_new(p, GK_T_BASE, NULL);
        gk_type *inner = gk_parse_declarator(p, hole, name, npos, abstract);
        gk_expect(p, ")", "to close the declarator");
        gk_type *outer = gk_suffixes(p, base);
        *hole = *outer;
        result = inner;
    } else {
        if (t->kind == GK_IDENT && !gk_qual_of(t)) {
            *name = gk_text(p, t);
            *npos = t->pos;
            p->i++;
        } else if (!abstract) {
            gk_error(p, t->pos, "expected a name to declare, found '%.*s'",
                     (int)(t->len > 40 ? 40 : t->len), t->text);
        }
        result = gk_suffixes(p, base);
    }
    while (gk_at(p, "__attribute__")) {
        p->i++;
        gk_skip_balanced(p);
    }
    p->nest--;
    return result;
}

/* type-name: specifiers and an abstract declarator (casts, sizeof, GP_BUF(T, ...)). */
static gk_type *gk_type_name(gk_parser *p)
{
    gk_specs s;
    gk_specifiers(p, &s, true);
    const char *name = NULL;
    gk_pos np;
    gk_type *t = gk_parse_declarator(p, s.base, &name, &np, true);
    if (name) gk_error(p, np, "a type name has no name in it ('%s')", name);
    return t;
}

/* ---- expressions ----------------------------------------------------------------------------- */
static gk_expr *gk_expr_new(gk_parser *p, gk_expr_kind k, gk_pos pos)
{
    gk_expr *e = gk_new(p, sizeof *e);
    e->kind = k;
    e->pos = pos;
    e->op_pos = pos;
    return e;
}

static gk_expr *gk_cast_expr(gk_parser *p);

static gk_expr *gk_init_list(gk_parser *p)
{
    gk_pos pos = gk_expect(p, "{", "to open the initializer")->pos;
    gk_enter(p, pos);
    gk_expr *e = gk_expr_new(p, GK_E_INIT, pos);
    size_t cap = 4;
    e->items = gk_new(p, cap * sizeof *e->items);
    while (!gk_at(p, "}")) {
        if (e->nitems == cap) {
            gk_init_item *v = gk_new(p, 2 * cap * sizeof *v);
            memcpy(v, e->items, cap * sizeof *v);
            e->items = v;
            cap *= 2;
        }
        gk_init_item *it = &e->items[e->nitems++];
        size_t dcap = 0;
        while (gk_at(p, ".") || gk_at(p, "[")) {
            if (it->ndesig == dcap) {
                size_t nc = dcap ? dcap * 2 : 2;
                gk_designator *d = gk_new(p, nc * sizeof *d);
                if (dcap) memcpy(d, it->desig, dcap * sizeof *d);
                it->desig = d;
                dcap = nc;
            }
            gk_designator *d = &it->desig[it->ndesig++];
            if (gk_accept(p, ".")) {
                const gk_token *f = gk_advance(p);
                if (f->kind != GK_IDENT) gk_error(p, f->pos, "expected a member name after '.'");
                d->field = gk_text(p, f);
            } else {
                p->i++;
                d->index = gk_cond_expr(p);
                gk_expect(p, "]", "to close the designator");
            }
        }
        if (it->ndesig) gk_expect(p, "=", "after a designator");
        it->value = gk_initializer(p);
        if (!gk_accept(p, ",")) break;
    }
    gk_expect(p, "}", "to close the initializer");
    p->nest--;
    return e;
}

static gk_expr *gk_initializer(gk_parser *p)
{
    if (gk_at(p, "{")) return gk_init_list(p);
    return gk_assign_expr(p);
}

static gk_expr *gk_primary(gk_parser *p)
{
    const gk_token *t = gk_cur(p);
    switch (t->kind) {
    case GK_IDENT: {
        p->i++;
        gk_expr *e = gk_expr_new(p, GK_E_IDENT, t->pos);
        e->name = gk_text(p, t);
        e->op = e->name;
        return e;
    }
    case GK_NUMBER:
    case GK_CHAR: {
        p->i++;
        gk_expr *e = gk_expr_new(p, t->kind == GK_NUMBER ? GK_E_NUMBER : GK_E_CHAR, t->pos);
        e->op = gk_text(p, t);
        return e;
    }
    case GK_STRING: {
        size_t from = p->i;
        while (gk_cur(p)->kind == GK_STRING)
            p->i++;
        gk_expr *e = gk_expr_new(p, GK_E_STRING, t->pos);
        e->op = gk_join(p, from, p->i, false);
        return e;
    }
    default:
        break;
    }
    if (gk_at(p, "(")) {
        gk_pos pos = gk_advance(p)->pos;
        gk_enter(p, pos);
        gk_expr *e = gk_expr_parse(p);
        gk_expect(p, ")", "to close the parenthesis");
        p->nest--;
        return e;
    }
    gk_error(p, t->pos, "expected an expression, found '%.*s'", (int)(t->len > 40 ? 40 : t->len),
             t->text);
}

static gk_expr *gk_postfix_ops(gk_parser *p, gk_expr *e)
{
    for (;;) {
        const gk_token *t = gk_cur(p);
        if (gk_at(p, "[")) {
            p->i++;
            gk_expr *x = gk_expr_new(p, GK_E_INDEX, e->pos);
            x->op_pos = t->pos;
            x->a = e;
            x->b = gk_expr_parse(p);
            gk_expect(p, "]", "to close the subscript");
            e = x;
        } else if (gk_at(p, "(")) {
            p->i++;
            gk_expr *x = gk_expr_new(p, GK_E_CALL, e->pos);
            x->op_pos = t->pos;
            x->a = e;
            size_t cap = 4;
            x->args = gk_new(p, cap * sizeof *x->args);
            while (!gk_at(p, ")")) {
                if (x->nargs == cap) {
                    gk_expr **v = gk_new(p, 2 * cap * sizeof *v);
                    memcpy(v, x->args, cap * sizeof *v);
                    x->args = v;
                    cap *= 2;
                }
                x->args[x->nargs++] = gk_assign_expr(p);
                if (!gk_accept(p, ",")) break;
            }
            gk_expect(p, ")", "to close the call");
            e = x;
        } else if (gk_at(p, ".") || gk_at(p, "->")) {
            bool arrow = gk_at(p, "->");
            p->i++;
            const gk_token *f = gk_advance(p);
            if (f->kind != GK_IDENT) gk_error(p, f->pos, "expected a member name");
            gk_expr *x = gk_expr_new(p, arrow ? GK_E_ARROW : GK_E_MEMBER, e->pos);
            x->op_pos = t->pos;
            x->a = e;
            x->name = gk_text(p, f);
            e = x;
        } else if (gk_at(p, "++") || gk_at(p, "--")) {
            p->i++;
            gk_expr *x = gk_expr_new(p, GK_E_POSTINC, e->pos);
            x->op_pos = t->pos;
            x->op = gk_tok_is(t, "++") ? "++" : "--";
            x->a = e;
            e = x;
        } else {
            return e;
        }
    }
}

static gk_expr *gk_unary(gk_parser *p)
{
    const gk_token *t = gk_cur(p);
    gk_enter(p, t->pos);
    gk_expr *r;
    if (t->kind == GK_PUNCT && (gk_tok_is(t, "++") || gk_tok_is(t, "--"))) {
        p->i++;
        r = gk_expr_new(p, GK_E_UNARY, t->pos);
        r->op = gk_tok_is(t, "++") ? "++" : "--";
        r->a = gk_unary(p);
    } else if (t->kind == GK_PUNCT &&
               (gk_tok_is(t, "-") || gk_tok_is(t, "+") || gk_tok_is(t, "!") || gk_tok_is(t, "~") ||
                gk_tok_is(t, "*") || gk_tok_is(t, "&"))) {
        p->i++;
        r = gk_expr_new(p, GK_E_UNARY, t->pos);
        r->op = gk_text(p, t);
        r->a = gk_cast_expr(p);
    } else if (t->kind == GK_IDENT && (gk_tok_is(t, "sizeof") || gk_tok_is(t, "_Alignof") ||
                                       gk_tok_is(t, "__alignof__"))) {
        p->i++;
        bool align = !gk_tok_is(t, "sizeof");
        if (gk_at(p, "(") && gk_starts_type(p, 1)) {
            p->i++;
            r = gk_expr_new(p, GK_E_SIZEOF_TYPE, t->pos);
            r->op = align ? "_Alignof" : "sizeof";
            r->type = gk_type_name(p);
            gk_expect(p, ")", "to close the type");
        } else {
            if (align) gk_error(p, t->pos, "_Alignof needs a parenthesised type");
            r = gk_expr_new(p, GK_E_SIZEOF_EXPR, t->pos);
            r->op = "sizeof";
            r->a = gk_unary(p);
        }
    } else {
        r = gk_postfix_ops(p, gk_primary(p));
    }
    p->nest--;
    return r;
}

static gk_expr *gk_cast_expr(gk_parser *p)
{
    if (gk_at(p, "(") && gk_starts_type(p, 1)) {
        gk_pos pos = gk_advance(p)->pos;
        gk_enter(p, pos);
        gk_type *t = gk_type_name(p);
        gk_expect(p, ")", "to close the cast");
        gk_expr *e;
        if (gk_at(p, "{")) {
            e = gk_expr_new(p, GK_E_COMPOUND, pos);
            e->type = t;
            e->a = gk_init_list(p);
            e = gk_postfix_ops(p, e);
        } else {
            e = gk_expr_new(p, GK_E_CAST, pos);
            e->type = t;
            e->a = gk_cast_expr(p);
        }
        p->nest--;
        return e;
    }
    return gk_unary(p);
}

int gk_binary_prec(const char *op)
{
    static const struct {
        const char *op;
        int prec;
    } t[] = {
        {"||", 4},
        {"&&", 5},
        {"|", 6},
        {"^", 7},
        {"&", 8},
        {"==", 9},
        {"!=", 9},
        {"<", 10},
        {">", 10},
        {"<=", 10},
        {">=", 10},
        {"<<", 11},
        {">>", 11},
        {"+", 12},
        {"-", 12},
        {"*", 13},
        {"/", 13},
        {"%", 13},
        {",", GK_PREC_COMMA},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        if (!strcmp(op, t[i].op)) return t[i].prec;
    return 0;
}

static gk_expr *gk_binary(gk_parser *p, int min_prec)
{
    gk_expr *lhs = gk_cast_expr(p);
    for (;;) {
        const gk_token *t = gk_cur(p);
        if (t->kind != GK_PUNCT) return lhs;
        char op[4] = {0};
        if (t->len > 2) return lhs;
        memcpy(op, t->text, t->len);
        int prec = gk_binary_prec(op);
        if (prec < min_prec || prec <= GK_PREC_COND) return lhs;
        p->i++;
        gk_enter(p, t->pos);
        gk_expr *rhs = gk_binary(p, prec + 1);
        p->nest--;
        gk_expr *e = gk_expr_new(p, GK_E_BINARY, lhs->pos);
        e->op_pos = t->pos;
        e->op = gk_text(p, t);
        e->a = lhs;
        e->b = rhs;
        lhs = e;
    }
}

static gk_expr *gk_cond_expr(gk_parser *p)
{
    gk_expr *c = gk_binary(p, 4);
    if (!gk_at(p, "?")) return c;
    gk_pos qpos = gk_advance(p)->pos;
    gk_enter(p, qpos);
    gk_expr *e = gk_expr_new(p, GK_E_COND, c->pos);
    e->op_pos = qpos;
    e->a = c;
    e->b = gk_expr_parse(p);
    gk_expect(p, ":", "in the conditional expression");
    e->c = gk_cond_expr(p);
    p->nest--;
    return e;
}

static bool gk_is_assign_op(const gk_token *t)
{
    static const char *const ops[] = {
        "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
    if (t->kind != GK_PUNCT) return false;
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (gk_tok_is(t, ops[i])) return true;
    return false;
}

static gk_expr *gk_assign_expr(gk_parser *p)
{
    gk_expr *lhs = gk_cond_expr(p);
    const gk_token *t = gk_cur(p);
    if (!gk_is_assign_op(t)) return lhs;
    p->i++;
    gk_enter(p, t->pos);
    gk_expr *e = gk_expr_new(p, GK_E_ASSIGN, lhs->pos);
    e->op_pos = t->pos;
    e->op = gk_text(p, t);
    e->a = lhs;
    e->b = gk_assign_expr(p);
    p->nest--;
    return e;
}

static gk_expr *gk_expr_parse(gk_parser *p)
{
    gk_expr *e = gk_assign_expr(p);
    while (gk_at(p, ",")) {
        gk_pos pos = gk_advance(p)->pos;
        gk_expr *c = gk_expr_new(p, GK_E_BINARY, e->pos);
        c->op_pos = pos;
        c->op = ",";
        c->a = e;
        c->b = gk_assign_expr(p);
        e = c;
    }
    return e;
}

/* ---- declarations ---------------------------------------------------------------------------- */
/* After the specifiers: declarators with initializers up to ';'. The first declarator is parsed
 * by the caller when it checked for a function definition. */
static gk_decl *gk_decl_rest(gk_parser *p, const gk_specs *s, const char *first_name,
                             gk_pos first_pos, gk_type *first_type)
{
    gk_decl *d = gk_new(p, sizeof *d);
    d->storage = s->storage;
    d->pos = s->pos;
    d->spec_text = s->text;
    d->base = s->base;
    d->defines = s->defines;
    size_t cap = 2;
    d->decls = gk_new(p, cap * sizeof *d->decls);
    bool first = true;
    if (gk_at(p, ";") && !first_type) {
        p->i++;
        return d; /* only a type: struct pt {...}; */
    }
    for (;;) {
        const char *name = NULL;
        gk_pos np = gk_cur(p)->pos;
        gk_type *t;
        if (first && first_type) {
            name = first_name;
            np = first_pos;
            t = first_type;
        } else {
            t = gk_parse_declarator(p, s->base, &name, &np, false);
        }
        first = false;
        if (d->ndecls == cap) {
            gk_declarator *v = gk_new(p, 2 * cap * sizeof *v);
            memcpy(v, d->decls, cap * sizeof *v);
            d->decls = v;
            cap *= 2;
        }
        gk_declarator *dc = &d->decls[d->ndecls++];
        dc->name = name;
        dc->pos = np;
        dc->type = t;
        /* declared before its initializer is read (C's scope rule) */
        if (name) gk_declare(p, name, (s->storage & GK_S_TYPEDEF) != 0, t);
        while (gk_at(p, "__attribute__")) {
            p->i++;
            gk_skip_balanced(p);
        }
        if (gk_accept(p, "=")) dc->init = gk_initializer(p);
        if (!gk_accept(p, ",")) break;
    }
    gk_expect(p, ";", "after the declaration");
    return d;
}

/* ---- statements ------------------------------------------------------------------------------ */
static gk_stmt *gk_stmt_new(gk_parser *p, gk_stmt_kind k, gk_pos pos)
{
    gk_stmt *s = gk_new(p, sizeof *s);
    s->kind = k;
    s->pos = pos;
    return s;
}

static gk_stmt *gk_statement(gk_parser *p);

static gk_stmt *gk_block(gk_parser *p)
{
    gk_pos pos = gk_expect(p, "{", "to open the block")->pos;
    gk_enter(p, pos);
    gk_scope_push(p);
    gk_stmt *b = gk_stmt_new(p, GK_S_BLOCK, pos);
    size_t cap = 8;
    b->items = gk_new(p, cap * sizeof *b->items);
    while (!gk_at(p, "}")) {
        if (gk_cur(p)->kind == GK_EOF) gk_error(p, pos, "this block is never closed");
        gk_stmt *s;
        /* a declaration, unless it is a label that happens to be a typedef name */
        if (gk_starts_type(p, 0) && !gk_tok_is(gk_peek_at(p, 1), ":")) {
            gk_specs sp;
            gk_specifiers(p, &sp, true);
            s = gk_stmt_new(p, GK_S_DECL, sp.pos);
            s->decl = gk_decl_rest(p, &sp, NULL, sp.pos, NULL);
        } else {
            s = gk_statement(p);
        }
        if (b->nitems == cap) {
            gk_stmt **v = gk_new(p, 2 * cap * sizeof *v);
            memcpy(v, b->items, cap * sizeof *v);
            b->items = v;
            cap *= 2;
        }
        b->items[b->nitems++] = s;
    }
    b->end = gk_advance(p)->pos;
    gk_scope_pop(p);
    p->nest--;
    return b;
}

static gk_expr *gk_paren_cond(gk_parser *p, const char *what)
{
    gk_expect(p, "(", what);
    gk_expr *e = gk_expr_parse(p);
    gk_expect(p, ")", what);
    return e;
}

static gk_stmt *gk_statement(gk_parser *p)
{
    const gk_token *t = gk_cur(p);
    gk_pos pos = t->pos;
    gk_enter(p, pos);
    gk_stmt *s = NULL;
    if (gk_at(p, "{")) {
        s = gk_block(p);
    } else if (gk_accept(p, ";")) {
        s = gk_stmt_new(p, GK_S_EMPTY, pos);
    } else if (t->kind == GK_IDENT && gk_tok_is(t, "if")) {
        p->i++;
        s = gk_stmt_new(p, GK_S_IF, pos);
        s->expr = gk_paren_cond(p, "around the condition of if");
        s->body = gk_statement(p);
        if (gk_accept(p, "else")) s->else_body = gk_statement(p);
    } else if (t->kind == GK_IDENT && gk_tok_is(t, "while")) {
        p->i++;
        s = gk_stmt_new(p, GK_S_WHILE, pos);
        s->expr = gk_paren_cond(p, "around the condition of while");
        s->body = gk_statement(p);
    } else if (t->kind == GK_IDENT && gk_tok_is(t, "do")) {
        p->i++;
        s = gk_stmt_new(p, GK_S_DO, pos);
        s->body = gk_statement(p);
        gk_expect(p, "while", "after the body of do");
        s->expr = gk_paren_cond(p, "around the condition of do-while");
        gk_expect(p, ";", "after do-while");
    } else if (t->kind == GK_IDENT && gk_tok_is(t, "for")) {
        p->i++;
        s = gk_stmt_new(p, GK_S_FOR, pos);
        gk_scope_push(p);
        gk_expect(p, "(", "after for");
        if (gk_starts_type(p, 0)) {
            gk_specs sp;
            gk_specifiers(p, &sp, true);
            s->init = gk_stmt_new(p, GK_S_DECL, sp.pos);
            s->init->decl = gk_decl_rest(p, &sp, NULL, sp.pos, NULL);
        } else if (!gk_accept(p, ";")) {
            s->init = gk_stmt_new(p, GK_S_EXPR, gk_cur(p)->pos);
            s->init->expr = gk_expr_parse(p);
            gk_expect(p, ";", "after the initialisation of for");
        }
        if (!gk_at(p, ";")) s->expr = gk_expr_parse(p);
        gk_expect(p, ";", "after the condition of for");
        if (!gk_at(p, ")")) s->step = gk_expr_parse(p);
        gk_expect(p, ")", "to close for");
        s->body = gk_statement(p);
        gk_scope_pop(p);
    } else if (t->kind == GK_IDENT && gk_tok_is(t, "switch")) {
        p->i++;
        s = gk_stmt_new(p, GK_S_SWITCH, pos);
        s->expr = gk_paren_cond(p, "around the value of switch");
        s->body = gk_statement(p);
    } else if (t->kind == GK_IDENT && gk_tok_is(t, "case")) {
        p->i++;
        s = gk_stmt_new(p, GK_S_CASE, pos);
        s->expr = gk_cond_expr(p);
        if (gk_accept(p, "...")) s->step = gk_cond_expr(p); /* GNU case ranges */
        gk_expect(p, ":", "after case");
        s->body = gk_at(p, "}") ? gk_stmt_new(p, GK_S_EMPTY, gk_cur(p)->pos) : gk_statement(p);
    } else if (t->kind == GK_IDENT && gk_tok_is(t, "default")) {
        p->i++;
        gk_expect(p, ":", "after default");
        s = gk_stmt_new(p, GK_S_DEFAULT, pos);
        s->body = gk_at(p, "}") ? gk_stmt_new(p, GK_S_EMPTY, gk_cur(p)->pos) : gk_statement(p);
    } else if (t->kind == GK_IDENT && (gk_tok_is(t, "break") || gk_tok_is(t, "continue"))) {
        p->i++;
        s = gk_stmt_new(p, gk_tok_is(t, "break") ? GK_S_BREAK : GK_S_CONTINUE, pos);
        gk_expect(p, ";", "after break or continue");
    } else if (t->kind == GK_IDENT && gk_tok_is(t, "return")) {
        p->i++;
        s = gk_stmt_new(p, GK_S_RETURN, pos);
        if (!gk_at(p, ";")) s->expr = gk_expr_parse(p);
        gk_expect(p, ";", "after return");
    } else if (t->kind == GK_IDENT && gk_tok_is(t, "goto")) {
        p->i++;
        const gk_token *l = gk_advance(p);
        if (l->kind != GK_IDENT) gk_error(p, l->pos, "expected a label after goto");
        s = gk_stmt_new(p, GK_S_GOTO, pos);
        s->label = gk_text(p, l);
        gk_expect(p, ";", "after goto");
    } else if (t->kind == GK_IDENT && gk_tok_is(gk_peek_at(p, 1), ":") &&
               !gk_is_typedef_name(p, t)) {
        p->i += 2;
        s = gk_stmt_new(p, GK_S_LABEL, pos);
        s->label = gk_text(p, t);
        s->body = gk_at(p, "}") ? gk_stmt_new(p, GK_S_EMPTY, gk_cur(p)->pos) : gk_statement(p);
    } else {
        s = gk_stmt_new(p, GK_S_EXPR, pos);
        s->expr = gk_expr_parse(p);
        gk_expect(p, ";", "after the expression");
    }
    p->nest--;
    return s;
}

/* ---- the top level --------------------------------------------------------------------------- */
static gk_top *gk_top_new(gk_parser *p, gk_top_kind k, gk_pos pos)
{
    gk_top *t = gk_new(p, sizeof *t);
    t->kind = k;
    t->pos = pos;
    return t;
}

static gk_top *gk_kernel(gk_parser *p)
{
    gk_pos pos = gk_advance(p)->pos; /* GP_KERNEL */
    gk_top *k = gk_top_new(p, GK_TOP_KERNEL, pos);
    gk_expect(p, "(", "after GP_KERNEL");
    const gk_token *name = gk_advance(p);
    if (name->kind != GK_IDENT) gk_error(p, name->pos, "GP_KERNEL needs the kernel's name first");
    k->name = gk_text(p, name);
    size_t cap = 4;
    k->params = gk_new(p, cap * sizeof *k->params);
    gk_scope_push(p);
    while (gk_accept(p, ",")) {
        const gk_token *m = gk_advance(p);
        static const struct {
            const char *w;
            gk_kparam_kind k;
        } kinds[] = {{"GP_BUF", GK_KP_BUF},
                     {"GP_CBUF", GK_KP_CBUF},
                     {"GP_VAL", GK_KP_VAL},
                     {"GP_DYN_SHARED", GK_KP_DYN}};
        int kind = -1;
        for (int j = 0; j < 4; j++)
            if (gk_tok_is(m, kinds[j].w)) kind = (int)kinds[j].k;
        if (kind < 0)
            gk_error(p, m->pos,
                     "a kernel parameter is GP_BUF, GP_CBUF, GP_VAL or GP_DYN_SHARED, "
                     "not '%.*s'",
                     (int)(m->len > 40 ? 40 : m->len), m->text);
        gk_expect(p, "(", "after the parameter's kind");
        size_t tstart = p->i;
        gk_type *t = gk_type_name(p);
        const char *ttext = gk_join(p, tstart, p->i, false);
        gk_expect(p, ",", "between the parameter's type and name");
        const gk_token *pn = gk_advance(p);
        if (pn->kind != GK_IDENT) gk_error(p, pn->pos, "expected the parameter's name");
        gk_expect(p, ")", "after the parameter's name");
        if (k->nparams == cap) {
            gk_kparam *v = gk_new(p, 2 * cap * sizeof *v);
            memcpy(v, k->params, cap * sizeof *v);
            k->params = v;
            cap *= 2;
        }
        gk_kparam *kp = &k->params[k->nparams++];
        kp->kind = (gk_kparam_kind)kind;
        kp->type = t;
        kp->type_text = ttext;
        kp->name = gk_text(p, pn);
        kp->pos = pn->pos;
        gk_declare(p, kp->name, false, NULL);
    }
    gk_expect(p, ")", "to close GP_KERNEL");
    k->body = gk_block(p);
    gk_scope_pop(p);
    return k;
}

/* The prelude's vector structs (members x, y, and z, w) and their element types. */
static const char *gk_vector_elem(const char *name)
{
    static const char *const vec[][2] = {
        {"gp_float", "float"},   {"gp_int", "int"},       {"gp_char", "int8_t"},
        {"gp_uchar", "uint8_t"}, {"gp_short", "int16_t"}, {"gp_ushort", "uint16_t"},
        {"gp_uint", "uint32_t"}, {"gp_long", "int64_t"},  {"gp_ulong", "uint64_t"},
        {"gp_double", "double"},
    };
    size_t n = strlen(name);
    /* gp_packed_float3: the struct of x, y, z of gp_float's element */
    bool packed = !strncmp(name, "gp_packed_", 10) && n > 11 && name[n - 1] == '3';
    if (n < 2 || (!packed && name[n - 1] != '2' && name[n - 1] != '4')) return NULL;
    for (size_t i = 0; i < sizeof vec / sizeof *vec; i++) {
        if (packed && strlen(vec[i][0]) - 3 == n - 11 && !strncmp(name + 10, vec[i][0] + 3, n - 11))
            return vec[i][1];
        if (!packed && strlen(vec[i][0]) == n - 1 && !strncmp(name, vec[i][0], n - 1))
            return vec[i][1];
    }
    return NULL;
}

static void gk_base_types(gk_parser *p)
{
    static const char *const names[] = {
        "int8_t",     "int16_t",          "int32_t",        "int64_t",         "uint8_t",
        "uint16_t",   "uint32_t",         "uint64_t",       "gp_half",         "gp_bf16",
        "size_t",     "ptrdiff_t",        "intptr_t",       "uintptr_t",       "bool",
        "gp_float2",  "gp_float4",        "gp_int2",        "gp_int4",         "gp_char2",
        "gp_char4",   "gp_uchar2",        "gp_uchar4",      "gp_short2",       "gp_short4",
        "gp_ushort2", "gp_ushort4",       "gp_uint2",       "gp_uint4",        "gp_long2",
        "gp_long4",   "gp_ulong2",        "gp_ulong4",      "gp_double2",      "gp_double4",
        "gp_half2",   "gp_packed_float3", "gp_packed_int3", "gp_packed_uint3", "gp_packed_uchar3",
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        gk_type *t = gk_type_new(p, GK_T_BASE, NULL);
        t->spec = names[i];
        const char *espec = gk_vector_elem(names[i]);
        if (espec) {
            gk_record *r = gk_new(p, sizeof *r);
            r->body = true;
            r->tag = names[i];
            size_t n = names[i][strlen(names[i]) - 1] - '0';
            r->members = gk_new(p, n * sizeof *r->members);
            gk_type *elem = gk_type_new(p, GK_T_BASE, NULL);
            elem->spec = espec;
            static const char *const xyzw[] = {"x", "y", "z", "w"};
            for (size_t m = 0; m < n; m++) {
                r->members[m].name = xyzw[m];
                r->members[m].type = elem;
            }
            r->nmembers = n;
            t->record = r;
        }
        gk_declare(p, names[i], true, t);
    }
}

int gk_parse(gk_unit *u, const char *src, size_t len, const char *source_name,
             const char *const *defines, uint32_t ndefines, char *err, size_t errlen)
{
    memset(u, 0, sizeof *u);
    gk_toks toks = {0};
    if (gk_preprocess(&u->arena, src, len, source_name, defines, ndefines, &toks, &u->files, err,
                      errlen) != 0)
        return -1;
    gk_parser *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    p->u = u;
    p->a = &u->arena;
    p->t = toks.v;
    p->n = toks.n;
    p->err = err;
    p->errlen = errlen;
    if (setjmp(p->fail)) {
        while (p->nwords)
            gk_words_pop(p);
        free(p);
        return -1;
    }
    gk_base_types(p);
    size_t cap = 16;
    u->tops = gk_new(p, cap * sizeof *u->tops);
    while (gk_cur(p)->kind != GK_EOF) {
        const gk_token *t = gk_cur(p);
        gk_top *top = NULL;
        if (gk_accept(p, ";")) continue;
        if (gk_tok_is(t, "GP_KERNEL") && t->kind == GK_IDENT) {
            top = gk_kernel(p);
        } else if ((gk_tok_is(t, "GP_REQUIRES_FP64") || gk_tok_is(t, "GP_REQUIRES_ATOMIC64")) &&
                   t->kind == GK_IDENT) {
            p->i++;
            top = gk_top_new(p, GK_TOP_REQUIRES, t->pos);
            top->text =
                gk_tok_is(t, "GP_REQUIRES_FP64") ? "GP_REQUIRES_FP64" : "GP_REQUIRES_ATOMIC64";
        } else if ((gk_tok_is(t, "GP_REQUIRES_SIMD_WIDTH") ||
                    gk_tok_is(t, "GP_REQUIRES_GROUP_SIZE")) &&
                   t->kind == GK_IDENT) {
            size_t from = p->i++;
            if (!gk_at(p, "("))
                gk_error(p, t->pos, "%.*s needs its arguments in parentheses", (int)t->len,
                         t->text);
            gk_skip_balanced(p);
            top = gk_top_new(p, GK_TOP_REQUIRES, t->pos);
            top->text = gk_join(p, from, p->i, false);
            gk_accept(p, ";");
        } else {
            gk_specs s;
            gk_specifiers(p, &s, true);
            if (gk_at(p, ";")) {
                top = gk_top_new(p, GK_TOP_DECL, s.pos);
                top->decl = gk_decl_rest(p, &s, NULL, s.pos, NULL);
            } else {
                const char *name = NULL;
                gk_pos np;
                gk_type *ty = gk_parse_declarator(p, s.base, &name, &np, false);
                if (ty->kind == GK_T_FUNC && gk_at(p, "{")) {
                    top = gk_top_new(p, GK_TOP_FUNCTION, s.pos);
                    gk_decl *d = gk_new(p, sizeof *d);
                    d->storage = s.storage;
                    d->pos = s.pos;
                    d->spec_text = s.text;
                    d->base = s.base;
                    d->defines = s.defines;
                    d->decls = gk_new(p, sizeof *d->decls);
                    d->decls[0].name = name;
                    d->decls[0].pos = np;
                    d->decls[0].type = ty;
                    d->ndecls = 1;
                    top->decl = d;
                    gk_declare(p, name, false, ty);
                    gk_scope_push(p);
                    for (size_t k = 0; k < ty->nparams; k++)
                        if (ty->params[k].name) gk_declare(p, ty->params[k].name, false, NULL);
                    top->body = gk_block(p);
                    gk_scope_pop(p);
                } else {
                    top = gk_top_new(p, GK_TOP_DECL, s.pos);
                    top->decl = gk_decl_rest(p, &s, name, np, ty);
                }
            }
        }
        if (u->ntops == cap) {
            gk_top **v = gk_new(p, 2 * cap * sizeof *v);
            memcpy(v, u->tops, cap * sizeof *v);
            u->tops = v;
            cap *= 2;
        }
        u->tops[u->ntops++] = top;
    }
    free(p);
    return 0;
}

void gk_unit_free(gk_unit *u)
{
    gk_arena_free(&u->arena);
    memset(u, 0, sizeof *u);
}
