/* assemble.c — the dialect source of a translation, from its pieces: the head (what the file
 * requires, kept macros, __constant__ tables, support functions), the device-function clones in
 * the order they were printed (callees first), then the kernels. Any subset of the kernels can be
 * assembled with exactly the clones they reach: a target builds the kernels it can run, and a
 * kernel left out does not keep the others from building. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/assemble.h"
#include "util/strbuf.h"

static int emitted_index(const tr_unit *u, tr_clone_ref r)
{
    for (int i = 0; i < u->nemitted; i++)
        if (u->emitted[i].g == r.g && u->emitted[i].k == r.k) return i;
    return -1;
}

static void reach_clone(const tr_unit *u, tr_clone_ref r, bool *mark)
{
    int i = emitted_index(u, r);
    if (i < 0 || mark[i]) return;
    mark[i] = true;
    const tr_clone *c = &r.g->clones[r.k];
    for (int j = 0; j < c->ncalls; j++)
        reach_clone(u, c->calls[j], mark);
}

void tr_reach(const tr_assembly *as, int k, bool *mark)
{
    for (int j = 0; j < as->ki[k].ncalls; j++)
        reach_clone(as->u, as->ki[k].calls[j], mark);
}

static int count_lines(const char *s, size_t n)
{
    int l = 0;
    for (size_t i = 0; i < n; i++)
        l += s[i] == '\n';
    return l;
}

typedef struct builder {
    gp_strbuf sb;
    int line; /* lines written so far */
    tr_span *spans;
    int nspans, cap;
} builder;

static void put(builder *b, const char *text, int kernel, tr_clone_ref clone)
{
    size_t n = strlen(text);
    int first = b->line + 1;
    gp_strbuf_append(&b->sb, text, n);
    b->line += count_lines(text, n);
    if (b->nspans == b->cap) {
        int cap = b->cap ? b->cap * 2 : 32;
        tr_span *s = realloc(b->spans, (size_t)cap * sizeof *s);
        if (!s) return;
        b->spans = s;
        b->cap = cap;
    }
    b->spans[b->nspans++] = (tr_span){first, b->line, kernel, clone};
}

/* Text left out of the build, as line comments: the runtime (and every compiler) skips it, and
 * taking the comment marks away brings it back with its GP_TODO markers. */
static void put_left_out(builder *b, const char *text, int kernel, tr_clone_ref clone)
{
    gp_strbuf c = GP_STRBUF_INIT;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        if (n) gp_strbuf_printf(&c, "// %.*s", (int)n, p);
        gp_strbuf_putc(&c, '\n');
        p += n + (p[n] == '\n');
    }
    put(b, gp_strbuf_cstr(&c), kernel, clone);
    gp_strbuf_free(&c);
}

static void putf(builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(builder *b, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    put(b, buf, -2, (tr_clone_ref){0});
}

char *tr_assemble_pieces(const tr_assembly *as, const bool *include, int refusals, tr_span **spans,
                         int *nspans)
{
    tr_unit *u = as->u;
    bool *mark = calloc((size_t)(u->nemitted ? u->nemitted : 1), sizeof *mark);
    bool *refused_mark = calloc((size_t)(u->nemitted ? u->nemitted : 1), sizeof *refused_mark);
    bool fp64 = false, atomic64 = false, simd = false, todo = false;
    for (int k = 0; mark && refused_mark && k < as->nk; k++) {
        tr_func *f = as->ki[k].func;
        if (include[k]) {
            tr_reach(as, k, mark);
            fp64 |= f->uses_fp64;
            atomic64 |= f->uses_atomic64;
            simd |= f->uses_simd;
        } else if (refusals) {
            tr_reach(as, k, refused_mark);
        }
    }
    builder b = {GP_STRBUF_INIT, 0, NULL, 0, 0};
    putf(&b,
         "/* Translated from %s by gpuport translate: the portable kernel dialect "
         "(docs/dialect.md).\n * Review before use; the report lists every change that needs a "
         "look. */\n",
         as->path);
    if (refusals) {
        putf(&b,
             "/* INCOMPLETE: %d construct%s could not be translated. The kernels that hold them "
             "are below as\n * comments, with each construct marked GP_TODO(\"...\"): the other "
             "kernels build; uncommented,\n * a kernel stops its build at each marker with the "
             "reason. */\n",
             refusals, refusals == 1 ? "" : "s");
        put(&b,
            "#define GP__TODO_STR(x) #x\n"
            "#define GP_TODO(why) _Pragma(GP__TODO_STR(GCC error why)) GP_TODO_not_translated\n",
            -2, (tr_clone_ref){0});
    }
    if (fp64) putf(&b, "GP_REQUIRES_FP64\n");
    if (atomic64) putf(&b, "GP_REQUIRES_ATOMIC64\n");
    if (simd) putf(&b, "GP_REQUIRES_SIMD_WIDTH(%d)\n", as->simd_width);
    for (size_t i = 0; i < u->pp.nkept; i++)
        putf(&b, "#define %s %s\n", u->pp.kept[i].name, u->pp.kept[i].body);
    if (u->pp.nkept || fp64 || atomic64 || simd) putf(&b, "\n");
    bool any_constant = false;
    for (int i = 0; i < u->nconstants; i++) {
        tr_sym *s = u->constants[i];
        if (s->as_buffer || !u->constant_inits[i]) continue;
        gp_strbuf one = GP_STRBUF_INIT;
        tr_emit_constant(u, s, u->constant_inits[i], &one);
        put(&b, gp_strbuf_cstr(&one), -2, (tr_clone_ref){0});
        gp_strbuf_free(&one);
        any_constant = true;
    }
    if (any_constant) putf(&b, "\n");
    if (u->nstructs) {
        gp_strbuf st = GP_STRBUF_INIT;
        tr_emit_structs(u, &st);
        put(&b, gp_strbuf_cstr(&st), -2, (tr_clone_ref){0});
        gp_strbuf_free(&st);
    }
    if (as->support && as->support[0]) put(&b, as->support, -2, (tr_clone_ref){0});
    for (int i = 0; mark && i < u->nemitted; i++) {
        tr_clone_ref r = u->emitted[i];
        const tr_clone *c = &r.g->clones[r.k];
        if (mark[i] && !c->todo) {
            put(&b, c->text, -1, r);
        } else if (refused_mark[i] && !mark[i]) {
            /* only refused kernels reach it */
            if (c->todo) {
                put(&b,
                    "// GP_TODO: not translated, left out of the build (used only by kernels "
                    "that are not translated)\n",
                    -2, (tr_clone_ref){0});
                put_left_out(&b, c->text, -1, r);
            } else {
                put(&b, c->text, -1, r);
            }
        } else if (mark[i]) {
            put(&b, c->text, -1, r); /* cannot happen: a kernel reaching a marker is refused */
        }
    }
    for (int k = 0; k < as->nk; k++) {
        const tr_kernel_info *ki = &as->ki[k];
        const tr_func *f = ki->func;
        if (include[k] && ki->text) {
            if (f->needs_block)
                putf(&b, "GP_REQUIRES_GROUP_SIZE(%s, %lld, %lld, %lld)\n", f->name, f->block[0],
                     f->block[1], f->block[2]);
            put(&b, ki->text, k, (tr_clone_ref){0});
        } else if (!include[k] && refusals) {
            if (!ki->text) { /* its body was refused as it was read: nothing to show */
                gp_strbuf t = GP_STRBUF_INIT;
                gp_strbuf_printf(&t,
                                 "/* %s:%d: kernel %s is not translated: ", u->pp.files[f->file],
                                 f->line, f->name);
                for (const char *c = f->refused ? f->refused : "refused"; *c; c++) {
                    if (*c == '*' && c[1] == '/') continue;
                    gp_strbuf_putc(&t, *c);
                }
                gp_strbuf_puts(&t, " */\n\n");
                put(&b, gp_strbuf_cstr(&t), k, (tr_clone_ref){0});
                gp_strbuf_free(&t);
            } else {
                todo = true;
                gp_strbuf t = GP_STRBUF_INIT;
                /* its first refusal, on the header line (what the runtime says of it) */
                const char *why = NULL;
                for (int d = 0; d < u->ndiags && !why; d++)
                    if (u->diags[d].refusal && tr_diag_counts(u, &u->diags[d]) &&
                        (u->diags[d].kernel == f || u->diags[d].func == f))
                        why = u->diags[d].reason;
                gp_strbuf_printf(&t,
                                 "// GP_TODO: kernel %s is not translated and left out of the "
                                 "build: ",
                                 f->name);
                for (const char *c = why ? why : "its markers say why"; *c; c++)
                    gp_strbuf_putc(&t, *c == '\n' || *c == '\r' ? ' ' : *c);
                gp_strbuf_putc(&t, '\n');
                put(&b, gp_strbuf_cstr(&t), -2, (tr_clone_ref){0});
                gp_strbuf_free(&t);
                put_left_out(&b, ki->text, k, (tr_clone_ref){0});
            }
        }
    }
    (void)todo;
    free(mark);
    free(refused_mark);
    if (spans) {
        *spans = b.spans;
        *nspans = b.nspans;
    } else {
        free(b.spans);
    }
    return gp_strbuf_take(&b.sb);
}

char *tr_assemble(const tr_assembly *as, const bool *include, tr_span **spans, int refusals)
{
    int n = 0;
    return tr_assemble_pieces(as, include, refusals, spans, spans ? &n : NULL);
}
