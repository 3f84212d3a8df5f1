/* lex.c — the front end's arena and tokenizer: C tokens with their physical line and column
 * (backslash-newlines spliced, comments dropped), each knowing whether it starts a line (for
 * directives) and whether white space precedes it (for # in macros). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cpu/gpk/gpk.h"

#define GK_ARENA_CAP   ((size_t)512 << 20) /* a unit never needs more; a bigger one is hostile */
#define GK_ARENA_BLOCK ((size_t)64 << 10)

struct gk_arena_block {
    gk_arena_block *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

void *gk_alloc(gk_arena *a, size_t n)
{
    if (a->failed) return NULL;
    n = (n + 15) & ~(size_t)15;
    if (n > GK_ARENA_CAP || a->used_total + n > GK_ARENA_CAP) {
        a->failed = true;
        return NULL;
    }
    gk_arena_block *b = a->head;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > GK_ARENA_BLOCK ? n : GK_ARENA_BLOCK;
        b = malloc(sizeof *b + cap);
        if (!b) {
            a->failed = true;
            return NULL;
        }
        b->used = 0;
        b->cap = cap;
        b->next = a->head;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    a->used_total += n;
    memset(p, 0, n);
    return p;
}

char *gk_strndup(gk_arena *a, const char *s, size_t n)
{
    char *c = gk_alloc(a, n + 1);
    if (!c) return NULL;
    memcpy(c, s, n);
    c[n] = '\0';
    return c;
}

void gk_arena_free(gk_arena *a)
{
    gk_arena_block *b = a->head;
    while (b) {
        gk_arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
    a->used_total = 0;
}

bool gk_tok_is(const gk_token *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->text, s, n) == 0;
}

/* ---- a reader of logical characters (splices removed) with physical positions ------------- */
typedef struct gk_reader {
    const char *s;
    size_t len, i;
    uint32_t line, col;
} gk_reader;

static void gk_skip_splices(gk_reader *r)
{
    while (r->i + 1 < r->len && r->s[r->i] == '\\' &&
           (r->s[r->i + 1] == '\n' ||
            (r->s[r->i + 1] == '\r' && r->i + 2 < r->len && r->s[r->i + 2] == '\n'))) {
        r->i += r->s[r->i + 1] == '\r' ? 3 : 2;
        r->line++;
        r->col = 1;
    }
}

static int gk_peek(gk_reader *r, size_t k)
{
    /* the k-th logical character ahead, without moving */
    gk_reader c = *r;
    for (size_t j = 0;; j++) {
        gk_skip_splices(&c);
        if (c.i >= c.len) return -1;
        if (j == k) return (unsigned char)c.s[c.i];
        c.i++;
    }
}

static int gk_next(gk_reader *r)
{
    gk_skip_splices(r);
    if (r->i >= r->len) return -1;
    int ch = (unsigned char)r->s[r->i++];
    if (ch == '\n') {
        r->line++;
        r->col = 1;
    } else {
        r->col++;
    }
    return ch;
}

static int gk_push(gk_arena *a, gk_toks *out, const gk_token *t)
{
    if (out->n == out->cap) {
        size_t nc = out->cap ? out->cap * 2 : 256;
        gk_token *v = gk_alloc(a, nc * sizeof *v);
        if (!v) return -1;
        if (out->n) memcpy(v, out->v, out->n * sizeof *v);
        out->v = v;
        out->cap = nc;
    }
    out->v[out->n++] = *t;
    return 0;
}

static const char *const gk_puncts[] = {
    "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
    "&&",  "||",  "*=",  "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "[",
    "]",   "(",   ")",   "{",  "}",  ".",  "&",  "*",  "+",  "-",  "~",  "!",
    "/",   "%",   "<",   ">",  "^",  "|",  "?",  ":",  ";",  "=",  ",",  "#",
};

static bool gk_ident_char(int c, bool first)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (!first && c >= '0' && c <= '9') || c == '$';
}

int gk_lex(gk_arena *a, const char *src, size_t len, uint16_t file, gk_toks *out, char *err,
           size_t errlen)
{
    gk_reader r = {src, len, 0, 1, 1};
    bool bol = true, space = false;

    for (;;) {
        int c = gk_peek(&r, 0);
        if (c < 0) break;
        if (c == '\n') {
            gk_next(&r);
            bol = true;
            space = false;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            gk_next(&r);
            space = true;
            continue;
        }
        if (c == '/' && gk_peek(&r, 1) == '/') {
            while ((c = gk_peek(&r, 0)) >= 0 && c != '\n')
                gk_next(&r);
            space = true;
            continue;
        }
        if (c == '/' && gk_peek(&r, 1) == '*') {
            uint32_t l0 = r.line, c0 = r.col;
            gk_next(&r);
            gk_next(&r);
            for (;;) {
                c = gk_next(&r);
                if (c < 0) {
                    snprintf(err, errlen, "%u:%u: a comment is never closed", l0, c0);
                    return -1;
                }
                if (c == '*' && gk_peek(&r, 0) == '/') {
                    gk_next(&r);
                    break;
                }
            }
            space = true;
            continue;
        }
        gk_token t = {0};
        t.pos.file = file;
        t.pos.line = r.line;
        t.pos.col = r.col;
        t.bol = bol;
        t.space = space;
        bol = false;
        space = false;
        size_t start = r.i;
        /* the token's text: a view of the source when no splice lies inside it */
        gp_strbuf text = GP_STRBUF_INIT;
        bool ok = true;
#define GK_TAKE() (gp_strbuf_putc(&text, (char)gk_next(&r)))
        if (gk_ident_char(c, true)) {
            t.kind = GK_IDENT;
            while ((c = gk_peek(&r, 0)) >= 0 && gk_ident_char(c, false))
                GK_TAKE();
        } else if ((c >= '0' && c <= '9') ||
                   (c == '.' && gk_peek(&r, 1) >= '0' && gk_peek(&r, 1) <= '9')) {
            t.kind = GK_NUMBER;
            GK_TAKE();
            for (;;) {
                c = gk_peek(&r, 0);
                if ((c == '+' || c == '-') && text.len && strchr("eEpP", text.data[text.len - 1])) {
                    GK_TAKE();
                } else if (c >= 0 && (gk_ident_char(c, false) || c == '.')) {
                    GK_TAKE();
                } else {
                    break;
                }
            }
        } else if (c == '"' || c == '\'') {
            int q = c;
            t.kind = q == '"' ? GK_STRING : GK_CHAR;
            GK_TAKE();
            for (;;) {
                c = gk_peek(&r, 0);
                if (c < 0 || c == '\n') {
                    snprintf(err, errlen, "%u:%u: a %s literal is never closed", t.pos.line,
                             t.pos.col, q == '"' ? "string" : "character");
                    ok = false;
                    break;
                }
                GK_TAKE();
                if (c == '\\' && gk_peek(&r, 0) >= 0 && gk_peek(&r, 0) != '\n') {
                    GK_TAKE();
                } else if (c == q) {
                    break;
                }
            }
        } else {
            t.kind = GK_OTHER;
            for (size_t k = 0; k < sizeof gk_puncts / sizeof *gk_puncts; k++) {
                size_t pl = strlen(gk_puncts[k]);
                size_t m = 0;
                while (m < pl && gk_peek(&r, m) == (unsigned char)gk_puncts[k][m])
                    m++;
                if (m == pl) {
                    t.kind = GK_PUNCT;
                    for (size_t j = 0; j < pl; j++)
                        GK_TAKE();
                    break;
                }
            }
            if (t.kind == GK_OTHER) GK_TAKE();
        }
#undef GK_TAKE
        if (!ok || text.failed) {
            if (text.failed) snprintf(err, errlen, "out of memory reading the source");
            gp_strbuf_free(&text);
            return -1;
        }
        if (r.i - start == text.len && memcmp(src + start, text.data, text.len) == 0) {
            t.text = src + start;
        } else {
            t.text = gk_strndup(a, text.data, text.len);
        }
        t.len = (uint32_t)text.len;
        gp_strbuf_free(&text);
        if (!t.text || gk_push(a, out, &t) != 0) {
            snprintf(err, errlen, "out of memory reading the source");
            return -1;
        }
    }
    return 0;
}
