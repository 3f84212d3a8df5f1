/* lex_c.c — see lex_c.h. Byte-oriented and bounded by the source size everywhere; a malformed
 * file (unterminated comment or string, stray #endif) degrades to fewer tokens, never a crash. */
#include "audit/lex_c.h"

#include <string.h>

#include "audit/bytescan.h"

void gp_c_lexer_init(gp_c_lexer *lx, gp_audit_source *src, gp_audit_result *res)
{
    memset(lx, 0, sizeof *lx);
    lx->src = src;
    lx->res = res;
    lx->line = 1;
    lx->bol = true;
    lx->pos = lx->line_off = gp_audit_source_bom(src);
}

/* Character classes: 1 starts an identifier, 2 continues one (bytes >= 0x80 are both, so
 * UTF-8 identifiers and invalid bytes alike stay inside one token). */
static const unsigned char id_class[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0,
    0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 3,
    0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
};

static inline bool id_start(unsigned char c)
{
    return id_class[c] & 1;
}

static inline bool id_char(unsigned char c)
{
    return id_class[c] & 2;
}

bool gp_c_is_ident_char(unsigned char c)
{
    return id_char(c);
}

static void nl(gp_c_lexer *lx, size_t at)
{
    lx->line++;
    lx->line_off = at + 1;
    lx->bol = true;
    lx->directive = false;
}

/* At a block comment opener: skips to its end; hands the text to the suppression reader. */
static void block_comment(gp_c_lexer *lx)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size, st = lx->pos;
    uint32_t line = lx->line;
    bool alone = lx->bol;
    lx->pos += 2;
    while (lx->pos < n) { /* jump from '*' to '*', counting the lines in between */
        size_t lim = lx->src->mapped && n - lx->pos > GP_AUDIT_CHUNK ? lx->pos + GP_AUDIT_CHUNK : n;
        const char *star = memchr(d + lx->pos, '*', lim - lx->pos);
        size_t end = star ? (size_t)(star - d) : lim;
        for (const char *q = d + lx->pos; (q = memchr(q, '\n', (size_t)(d + end - q))) != NULL;
             q++) {
            lx->line++;
            lx->line_off = (size_t)(q - d) + 1;
        }
        lx->pos = end;
        if (!star && lim < n) { /* a long comment: release behind it */
            gp_audit_source_release(lx->src, end);
            continue;
        }
        if (!star) break;
        if (lx->pos + 1 < n && d[lx->pos + 1] == '/') {
            lx->pos += 2;
            break;
        }
        lx->pos++;
    }
    if (lx->pos > n) lx->pos = n;
    if (lx->res) gp_audit_note_comment(lx->res, d + st, lx->pos - st, line, alone);
}

static void line_comment(gp_c_lexer *lx)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size, st = lx->pos;
    uint32_t line = lx->line;
    size_t p = st;
    for (;;) { /* a backslash at the end of the line continues the comment (translation phase 2) */
        const char *e = gp_audit_source_memchr(lx->src, p, n, '\n');
        size_t end = e ? (size_t)(e - d) : n;
        size_t last = end;
        while (last > p && d[last - 1] == '\r')
            last--;
        if (e && last > p && d[last - 1] == '\\') {
            lx->line++;
            lx->line_off = end + 1;
            p = end + 1;
            continue;
        }
        lx->pos = end;
        break;
    }
    if (lx->res) gp_audit_note_comment(lx->res, d + st, lx->pos - st, line, lx->bol);
}

/* A backslash-newline (translation phase 2) at p: its length ("\\\n" 2, "\\\r\n" 3, as Windows
 * files have it), or 0. */
static inline size_t splice_len(const char *d, size_t p, size_t n)
{
    if (d[p] != '\\') return 0;
    if (p + 1 < n && d[p + 1] == '\n') return 2;
    return p + 2 < n && d[p + 1] == '\r' && d[p + 2] == '\n' ? 3 : 0;
}

/* Skips whitespace, comments and escaped newlines within a directive line; stops at '\n'. */
static void dir_space(gp_c_lexer *lx)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    while (lx->pos < n) {
        char c = d[lx->pos];
        size_t k;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v')
            lx->pos++;
        else if ((k = splice_len(d, lx->pos, n)) != 0) {
            lx->line++;
            lx->line_off = lx->pos + k;
            lx->pos += k;
        } else if (c == '/' && lx->pos + 1 < n && d[lx->pos + 1] == '*') {
            bool b = lx->bol;
            block_comment(lx);
            lx->bol = b;
        } else
            break;
    }
}

/* The rest of a directive line (with continuations), for condition analysis. */
static void dir_rest(gp_c_lexer *lx, size_t *st, size_t *en)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    *st = lx->pos;
    while (lx->pos < n && d[lx->pos] != '\n') {
        size_t k = splice_len(d, lx->pos, n);
        if (k) {
            lx->line++;
            lx->line_off = lx->pos + k;
            lx->pos += k;
            continue;
        }
        if (d[lx->pos] == '/' && lx->pos + 1 < n && d[lx->pos + 1] == '/') {
            *en = lx->pos;
            line_comment(lx);
            return;
        }
        if (d[lx->pos] == '/' && lx->pos + 1 < n && d[lx->pos + 1] == '*') {
            *en = lx->pos;
            block_comment(lx);
            while (lx->pos < n && d[lx->pos] != '\n')
                lx->pos++; /* rest is ignored */
            return;
        }
        lx->pos++;
    }
    *en = lx->pos;
}

/* Looks at an #if/#elif condition: constant 0/1, CUDA-ish, negated. */
static void cond_eval(const char *p, size_t n, int *konst, bool *cuda, bool *inv)
{
    *konst = -1;
    *cuda = false;
    *inv = false;
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '('))
        i++;
    if (i < n && (p[i] == '0' || p[i] == '1')) {
        size_t j = i + 1;
        while (j < n && (p[j] == ' ' || p[j] == '\t' || p[j] == ')' || p[j] == '\r'))
            j++;
        if (j == n) {
            *konst = p[i] - '0';
            return;
        }
    }
    bool neg = false;
    for (i = 0; i < n;) {
        unsigned char c = (unsigned char)p[i];
        if (c == '!' && !(i + 1 < n && p[i + 1] == '=')) {
            neg = true;
            i++;
            continue;
        }
        if (id_start(c)) {
            size_t st = i;
            while (i < n && id_char((unsigned char)p[i]))
                i++;
            if (i - st == 7 && memcmp(p + st, "defined", 7) == 0) continue;
            if (gp_audit_word_is_cuda_switch(p + st, i - st)) {
                *cuda = true;
                *inv = neg;
                return;
            }
            neg = false;
            continue;
        }
        if (c != ' ' && c != '(' && c != '\t') neg = false;
        i++;
    }
}

static bool cond_active_skip(const gp_c_lexer *lx)
{
    for (int i = 0; i < lx->ncond; i++)
        if (lx->cond[i].mode == 1) return true;
    return false;
}

bool gp_c_lexer_guarded(const gp_c_lexer *lx);
bool gp_c_lexer_guarded(const gp_c_lexer *lx)
{
    for (int i = 0; i < lx->ncond; i++)
        if (lx->cond[i].mode == 2) return true;
    return false;
}

static void cond_set(gp_c_cond *c, int konst, bool cuda, bool inv, bool first)
{
    if (first) c->konst = konst >= 0;
    if (konst >= 0) {
        c->mode = (konst == 1 && !c->taken) ? 0 : 1;
        if (konst == 1) c->taken = 1;
        return;
    }
    c->konst = 0;
    if (c->taken) {
        c->mode = 1;
        return;
    }
    c->cuda = cuda;
    c->inv = inv;
    c->mode = cuda && !inv ? 2 : 0;
}

static void directive(gp_c_lexer *lx, gp_c_tok *t, bool *emit)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    *emit = false;
    lx->pos++; /* '#' */
    dir_space(lx);
    size_t st = lx->pos;
    while (lx->pos < n && id_char((unsigned char)d[lx->pos]))
        lx->pos++;
    size_t k = lx->pos - st;
    const char *w = d + st;
#define IS(s) (k == sizeof(s) - 1 && memcmp(w, s, k) == 0)
    bool skipping = cond_active_skip(lx);
    size_t cs, ce;
    if (IS("if") || IS("ifdef") || IS("ifndef")) {
        dir_space(lx);
        dir_rest(lx, &cs, &ce);
        if (lx->ncond == GP_C_MAX_COND) {
            lx->overflow++;
            return;
        }
        gp_c_cond *c = &lx->cond[lx->ncond++];
        memset(c, 0, sizeof *c);
        if (skipping) {
            c->mode = 1;
            c->taken = 1;
            return;
        }
        int konst;
        bool cuda, inv;
        cond_eval(d + cs, ce - cs, &konst, &cuda, &inv);
        if (IS("ifdef") || IS("ifndef")) konst = -1;
        if (IS("ifndef")) inv = !inv;
        cond_set(c, konst, cuda, inv, true);
        return;
    }
    if (IS("elif") || IS("elifdef") || IS("elifndef") || IS("else")) {
        bool is_else = IS("else");
        dir_space(lx);
        dir_rest(lx, &cs, &ce);
        if (lx->overflow || lx->ncond == 0) return;
        gp_c_cond *c = &lx->cond[lx->ncond - 1];
        lx->ncond--;
        bool outer_skip = cond_active_skip(lx);
        lx->ncond++;
        if (outer_skip) return;
        if (is_else) {
            if (c->konst)
                c->mode = c->taken ? 1 : 0;
            else if (c->taken)
                c->mode = 1;
            else if (c->cuda)
                c->mode = c->inv ? 2 : 0;
            else
                c->mode = 0;
            return;
        }
        if (c->mode == 0 && c->konst == 1) c->taken = 1;
        int konst;
        bool cuda, inv;
        cond_eval(d + cs, ce - cs, &konst, &cuda, &inv);
        if (!IS("elif")) konst = -1;
        if (IS("elifndef")) inv = !inv;
        if (c->taken)
            c->mode = 1;
        else
            cond_set(c, konst, cuda, inv, false);
        return;
    }
    if (IS("endif")) {
        dir_rest(lx, &cs, &ce);
        if (lx->overflow)
            lx->overflow--;
        else if (lx->ncond > 0)
            lx->ncond--;
        return;
    }
    if (skipping) {
        dir_rest(lx, &cs, &ce);
        return;
    }
    if (IS("include") || IS("include_next") || IS("import")) {
        dir_space(lx);
        if (lx->pos < n && (d[lx->pos] == '<' || d[lx->pos] == '"')) {
            char close = d[lx->pos] == '<' ? '>' : '"';
            size_t hs = lx->pos + 1, he = hs;
            while (he < n && d[he] != close && d[he] != '\n')
                he++;
            if (he < n && d[he] == close) {
                t->kind = GP_C_INCLUDE;
                t->off = hs;
                t->len = he - hs;
                t->line = lx->line; /* the header name's line (a split directive goes on) */
                t->line_off = lx->line_off;
                *emit = true;
                /* the project's own headers, for resolve.c (whether tokens are made or not) */
                if (close == '"' && lx->res)
                    gp_audit_fact(lx->res, GP_FACT_INCLUDE, lx->guarded ? GP_FACTF_GUARDED : 0,
                                  d + hs, he - hs);
            }
        }
        dir_rest(lx, &cs, &ce);
        return;
    }
    if (IS("define") || IS("undef")) {
        lx->directive = true; /* macro bodies are code: keep lexing tokens */
        return;
    }
    dir_rest(lx, &cs, &ce); /* pragma, error, warning, line, ... */
#undef IS
}

/* In a skipped region: only directives matter; comments are honoured so that a '#' inside one
 * does not count. */
static void skip_region_char(gp_c_lexer *lx)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    char c = d[lx->pos];
    if (c == '\n') {
        nl(lx, lx->pos);
        lx->pos++;
    } else if (c == '/' && lx->pos + 1 < n && d[lx->pos + 1] == '*') {
        block_comment(lx);
    } else if (c == '/' && lx->pos + 1 < n && d[lx->pos + 1] == '/') {
        line_comment(lx);
    } else {
        if (c != ' ' && c != '\t') lx->bol = false;
        const char *e = memchr(d + lx->pos, '\n', n - lx->pos);
        size_t end = e ? (size_t)(e - d) : n;
        /* jump to the next newline or comment start */
        size_t p = lx->pos + 1;
        while (p < end && !(d[p] == '/' && p + 1 < n && (d[p + 1] == '*' || d[p + 1] == '/')))
            p++;
        lx->pos = p;
    }
}

static void lex_quoted(gp_c_lexer *lx, char q)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    lx->pos++;
    size_t rel = lx->pos + GP_AUDIT_CHUNK; /* a long literal: release behind it */
    while (lx->pos < n) {
        if (lx->pos >= rel) {
            gp_audit_source_release(lx->src, lx->pos);
            rel = lx->pos + GP_AUDIT_CHUNK;
        }
        char c = d[lx->pos];
        if (c == '\\') {
            size_t k = splice_len(d, lx->pos, n);
            if (k) {
                lx->line++;
                lx->line_off = lx->pos + k;
            }
            lx->pos += k ? k : 2;
            continue;
        }
        if (c == '\n') return; /* unterminated: stop at the line end */
        lx->pos++;
        if (c == q) return;
    }
    if (lx->pos > n) lx->pos = n;
}

/* R"delim( ... )delim" — pos at the opening quote. */
static void lex_raw(gp_c_lexer *lx)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    size_t p = lx->pos + 1, ds = p;
    while (p < n && p - ds <= 16 && d[p] != '(' && d[p] != '"' && d[p] != '\n' && d[p] != ' ')
        p++;
    if (p >= n || d[p] != '(') {
        lex_quoted(lx, '"');
        return;
    }
    size_t dl = p - ds;
    p++;
    size_t rel = p + GP_AUDIT_CHUNK; /* a long literal: release behind it */
    while (p < n) {
        if (p >= rel) {
            gp_audit_source_release(lx->src, p);
            rel = p + GP_AUDIT_CHUNK;
        }
        if (d[p] == '\n') {
            lx->line++;
            lx->line_off = p + 1;
        }
        if (d[p] == ')' && p + dl + 1 < n && memcmp(d + p + 1, d + ds, dl) == 0 &&
            d[p + 1 + dl] == '"') {
            lx->pos = p + dl + 2;
            return;
        }
        p++;
    }
    lx->pos = n;
}

static bool raw_prefix(const char *w, size_t k)
{
    return (k == 1 && w[0] == 'R') ||
           (k == 2 && (w[1] == 'R') && (w[0] == 'u' || w[0] == 'U' || w[0] == 'L')) ||
           (k == 3 && memcmp(w, "u8R", 3) == 0);
}

static bool enc_prefix(const char *w, size_t k)
{
    return (k == 1 && (w[0] == 'u' || w[0] == 'U' || w[0] == 'L')) ||
           (k == 2 && memcmp(w, "u8", 2) == 0);
}

enum { TRIVIA_NONE, TRIVIA_MORE, TRIVIA_INCLUDE };

/* What comes between tokens, as the token loop reads it: a newline, a line continuation, a
 * directive (which may give an #include token in *t), a byte of a compiled-out group, blanks or
 * a comment. TRIVIA_NONE: a token starts at pos. */
static inline __attribute__((always_inline)) int trivia(gp_c_lexer *lx, gp_c_tok *t)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    char c = d[lx->pos];
    if (c == '\n') {
        nl(lx, lx->pos);
        lx->pos++;
        return TRIVIA_MORE;
    }
    size_t k = splice_len(d, lx->pos, n);
    if (k) {
        lx->line++;
        lx->line_off = lx->pos + k;
        lx->pos += k;
        return TRIVIA_MORE;
    }
    if (c == '#' && lx->bol && !lx->directive) {
        bool emit;
        directive(lx, t, &emit);
        lx->skipping = cond_active_skip(lx);
        lx->guarded = gp_c_lexer_guarded(lx);
        if (!emit) return TRIVIA_MORE;
        t->guarded = lx->guarded;
        return TRIVIA_INCLUDE;
    }
    if (lx->skipping) {
        skip_region_char(lx);
        return TRIVIA_MORE;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        size_t p = lx->pos + 1; /* a run of blanks in one loop, through a local index */
        while (p < n &&
               (d[p] == ' ' || d[p] == '\t' || d[p] == '\r' || d[p] == '\f' || d[p] == '\v'))
            p++;
        lx->pos = p;
        return TRIVIA_MORE;
    }
    if (c == '/' && lx->pos + 1 < n && d[lx->pos + 1] == '*') {
        bool b = lx->bol;
        block_comment(lx);
        lx->bol = b;
        return TRIVIA_MORE;
    }
    if (c == '/' && lx->pos + 1 < n && d[lx->pos + 1] == '/') {
        line_comment(lx);
        return TRIVIA_MORE;
    }
    return TRIVIA_NONE;
}

void gp_c_lexer_next(gp_c_lexer *lx, gp_c_tok *t)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    memset(t, 0, sizeof *t);
    while (lx->pos < n) {
        int tv = trivia(lx, t);
        if (tv == TRIVIA_INCLUDE) return;
        if (tv == TRIVIA_MORE) continue;
        char c = d[lx->pos];
        lx->bol = false;
        size_t st = lx->pos;
        t->line = lx->line;
        t->line_off = lx->line_off;
        t->guarded = lx->guarded;
        t->in_define = lx->directive;
        if (id_start((unsigned char)c)) {
            size_t p = lx->pos + 1;
            while (p < n && id_char((unsigned char)d[p]))
                p++;
            lx->pos = p;
            size_t k = lx->pos - st;
            if (lx->pos < n && d[lx->pos] == '"' && raw_prefix(d + st, k)) {
                lex_raw(lx);
                t->kind = GP_C_STRING;
            } else if (lx->pos < n && (d[lx->pos] == '"' || d[lx->pos] == '\'') &&
                       enc_prefix(d + st, k)) {
                lex_quoted(lx, d[lx->pos]);
                t->kind = GP_C_STRING;
            } else {
                t->kind = GP_C_IDENT;
            }
        } else if (c >= '0' && c <= '9') {
            lx->pos++;
            while (lx->pos < n) {
                char e = d[lx->pos];
                if (id_char((unsigned char)e) || e == '.')
                    lx->pos++;
                else if (e == '\'' && lx->pos + 1 < n && id_char((unsigned char)d[lx->pos + 1]))
                    lx->pos++;
                else if ((e == '+' || e == '-') &&
                         ((d[lx->pos - 1] | 0x20) == 'e' || (d[lx->pos - 1] | 0x20) == 'p'))
                    lx->pos++;
                else
                    break;
            }
            t->kind = GP_C_NUMBER;
        } else if (c == '"' || c == '\'') {
            lex_quoted(lx, c);
            t->kind = GP_C_STRING;
        } else {
            size_t k = 1;
            if (lx->pos + 2 < n && ((c == '<' && d[lx->pos + 1] == '<' && d[lx->pos + 2] == '<') ||
                                    (c == '>' && d[lx->pos + 1] == '>' && d[lx->pos + 2] == '>')))
                k = 3;
            else if (lx->pos + 1 < n &&
                     ((c == ':' && d[lx->pos + 1] == ':') || (c == '-' && d[lx->pos + 1] == '>')))
                k = 2;
            lx->pos += k;
            t->kind = GP_C_PUNCT;
        }
        t->off = st;
        t->len = lx->pos - st;
        return;
    }
    t->kind = GP_C_END;
    t->off = n;
    t->line = lx->line;
}

/* ---- skipping ------------------------------------------------------------------------------ */

/* Inside a token, the first byte that may end the run of inert ones (names, numbers,
 * punctuation, blanks): newline, '/', the quotes and backslash. */
static size_t next_special(const char *d, size_t pos, size_t n)
{
    return gp_bytescan(d, pos, n, "\n/\"'\\", 5);
}

/* The end of the number token that starts at s, as the token loop reads it. */
static size_t number_end(const char *d, size_t s, size_t n)
{
    size_t q = s + 1;
    while (q < n) {
        char e = d[q];
        if (id_char((unsigned char)e) || e == '.')
            q++;
        else if (e == '\'' && q + 1 < n && id_char((unsigned char)d[q + 1]))
            q++;
        else if ((e == '+' || e == '-') && ((d[q - 1] | 0x20) == 'e' || (d[q - 1] | 0x20) == 'p'))
            q++;
        else
            break;
    }
    return q;
}

enum { SQ_UNSURE, SQ_LITERAL, SQ_NUMBER };

/* At a quote at p, met in a run of inert bytes that began at a token start `from`: SQ_LITERAL,
 * the literal was lexed as the token loop would; SQ_NUMBER, the quote is a digit separator
 * inside a number (pos is left at the number's end: a token start); SQ_UNSURE, the bytes before
 * the quote could belong to a number that runs on through '.', '\'', or '+' and '-' after an
 * exponent, which a skip cannot tell without tokens. */
static int skip_quote(gp_c_lexer *lx, size_t from, size_t p)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    char q = d[p];
    size_t s = p;
    while (s > from && id_char((unsigned char)d[s - 1]))
        s--;
    if (s < p) { /* a name or a number right before the quote */
        bool digit = d[s] >= '0' && d[s] <= '9';
        if (s > 0 && (d[s - 1] == '.' || d[s - 1] == '\'' || d[s - 1] == '+' || d[s - 1] == '-'))
            return SQ_UNSURE;
        if (digit) {
            size_t e = number_end(d, s, n);
            if (e > p) {
                lx->pos = e;
                return SQ_NUMBER;
            }
        } else if (q == '"' && raw_prefix(d + s, p - s)) {
            lx->pos = p;
            lex_raw(lx);
            return SQ_LITERAL;
        }
    } else if (q == '\'' && p >= 2 &&
               ((d[p - 1] == '.' && id_char((unsigned char)d[p - 2])) ||
                ((d[p - 1] == '+' || d[p - 1] == '-') &&
                 ((d[p - 2] | 0x20) == 'e' || (d[p - 2] | 0x20) == 'p')))) {
        return SQ_UNSURE;
    }
    lx->pos = p; /* a plain or prefixed (u8, L, u, U) literal */
    lex_quoted(lx, q);
    return SQ_LITERAL;
}

gp_c_skip gp_c_lexer_skip(gp_c_lexer *lx, size_t until)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    while (lx->pos < n) {
        /* every pass starts between tokens: after a newline, a comment, a literal that may have
         * run over several lines, a directive, blanks or a run of inert tokens */
        if (lx->pos >= until) return GP_C_SKIP_STOPPED;
        if (d[lx->pos] == '\n') gp_audit_source_release(lx->src, lx->pos); /* large files */
        gp_c_tok t;
        int tv = trivia(lx, &t);
        if (tv == TRIVIA_INCLUDE && t.off + t.len >= until) return GP_C_SKIP_UNSURE;
        if (tv != TRIVIA_NONE) continue;
        char c = d[lx->pos];
        lx->bol = false;
        if (c == '"' || c == '\'') { /* a literal at a token start */
            lex_quoted(lx, c);
            continue;
        }
        size_t from = lx->pos; /* inert bytes up to a special one */
        size_t p = next_special(d, from, n);
        if (p >= n) {
            lx->pos = n;
        } else if (d[p] != '"' && d[p] != '\'') {
            lx->pos = p > from ? p : from + 1; /* '/' or '\\' starting a token: one byte */
        } else if (skip_quote(lx, from, p) == SQ_UNSURE) {
            return GP_C_SKIP_UNSURE;
        } /* else after the literal, or the number with a digit separator */
    }
    return GP_C_SKIP_EOF;
}
