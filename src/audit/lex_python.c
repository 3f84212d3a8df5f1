/* lex_python.c — see lex_python.h. Works on bytes: bytes >= 0x80 are name characters, so
 * invalid UTF-8 cannot derail it; every loop is bounded by the source size. */
#include "audit/lex_python.h"

#include <stdint.h>
#include <string.h>

#include "audit/bytescan.h"

void gp_py_lexer_init(gp_py_lexer *lx, gp_audit_source *src, gp_audit_result *res)
{
    memset(lx, 0, sizeof *lx);
    lx->src = src;
    lx->res = res;
    lx->line = 1;
    lx->bol = true;
    lx->sk_at = SIZE_MAX;
    lx->pos = lx->line_off = gp_audit_source_bom(src);
}

/* What a byte starts, for the token loop's one dispatch (O operator, B blank, H comment,
 * S backslash, L newline, Q quote, N name, D digit, P dot). Bytes >= 0x80 start names: UTF-8
 * names and invalid bytes alike stay inside one token. */
enum { PK_OP, PK_BLANK, PK_HASH, PK_BSLASH, PK_NL, PK_QUOTE, PK_NAME, PK_DIGIT, PK_DOT };
#define O PK_OP
#define B PK_BLANK
#define H PK_HASH
#define S PK_BSLASH
#define L PK_NL
#define Q PK_QUOTE
#define N PK_NAME
#define D PK_DIGIT
#define P PK_DOT
static const unsigned char py_kind[256] = {
    O, O, O, O, O, O, O, O, O, B, L, O, B, B, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O,
    B, O, Q, H, O, O, O, Q, O, O, O, O, O, O, P, O, D, D, D, D, D, D, D, D, D, D, O, O, O, O, O, O,
    O, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, O, S, O, O, N,
    O, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, O, O, O, O, O,
    N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
    N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
    N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
    N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
};
#undef O
#undef B
#undef H
#undef S
#undef L
#undef Q
#undef N
#undef D
#undef P

/* clang-format off */
const bool gp_py_name_chars[256] = { /* letters, digits, '_', and every byte from 0x80 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* 0x00 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* 0x10 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* 0x20 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,  /* 0x30 */
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 0x40 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1,  /* 0x50 */
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 0x60 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,  /* 0x70 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 0x80 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 0x90 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 0xa0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 0xb0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 0xc0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 0xd0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 0xe0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 0xf0 */
};
/* clang-format on */

static inline bool name_char(unsigned char c)
{
    return gp_py_is_name_char(c); /* PK_NAME and PK_DIGIT: a name runs on through digits */
}

static void newline_at(gp_py_lexer *lx, size_t nl_pos)
{
    lx->line++;
    lx->line_off = nl_pos + 1;
}

static void skip_comment(gp_py_lexer *lx, bool alone)
{
    const char *d = lx->src->data;
    size_t st = lx->pos, n = lx->src->size;
    const char *nl = gp_audit_source_memchr(lx->src, st, n, '\n');
    size_t end = nl ? (size_t)(nl - d) : n;
    if (lx->res) gp_audit_note_comment(lx->res, d + st, end - st, lx->line, alone);
    lx->pos = end;
}

static void scan_string(gp_py_lexer *lx, char q, bool triple, bool fmt, int nest);

/* Inside an f-string's {...}: brackets and nested strings until the matching '}'. */
static void scan_fexpr(gp_py_lexer *lx, int nest)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    int depth = 1;
    size_t next_release = lx->pos + GP_AUDIT_CHUNK; /* a long field: released behind it */
    while (lx->pos < n) {
        char c = d[lx->pos];
        if (lx->pos >= next_release && lx->src->mapped) {
            gp_audit_source_release(lx->src, lx->pos);
            next_release = lx->pos + GP_AUDIT_CHUNK;
        }
        if (c == '\n') newline_at(lx, lx->pos);
        if (c == '\'' || c == '"') {
            bool f = lx->pos > 0 && (d[lx->pos - 1] == 'f' || d[lx->pos - 1] == 'F');
            bool tri = lx->pos + 2 < n && d[lx->pos + 1] == c && d[lx->pos + 2] == c;
            lx->pos += tri ? 3 : 1;
            scan_string(lx, c, tri, f && nest < 8, nest + 1);
            continue;
        }
        if (c == '{' || c == '[' || c == '(') depth++;
        if (c == '}' || c == ']' || c == ')') {
            if (--depth == 0) {
                lx->pos++;
                return;
            }
        }
        lx->pos++;
    }
}

/* Called after the opening quote(s); leaves pos after the closing quote(s). An unterminated
 * single-quoted string ends at its line's end, as Python's own recovery would report it. */
static void scan_string(gp_py_lexer *lx, char q, bool triple, bool fmt, int nest)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    const char stops[4] = {'\\', '\n', q, '{'}; /* '{' in f-strings only */
    const bool mapped = lx->src->mapped;
    size_t next_release = lx->pos + GP_AUDIT_CHUNK;
    while (lx->pos < n) {
        size_t lim = n; /* a mapped file: a megabyte at a time, released behind (a long string) */
        if (mapped && n - lx->pos > GP_AUDIT_CHUNK) lim = lx->pos + GP_AUDIT_CHUNK;
        /* (a triple-quoted string stops at each of its newlines: release every megabyte too) */
        if (mapped && lx->pos >= next_release) {
            gp_audit_source_release(lx->src, lx->pos);
            next_release = lx->pos + GP_AUDIT_CHUNK;
        }
        lx->pos = gp_bytescan(d, lx->pos, lim, stops, fmt ? 4 : 3);
        if (lx->pos >= lim && lim < n) {
            gp_audit_source_release(lx->src, lx->pos);
            continue;
        }
        if (lx->pos >= n) break;
        char c = d[lx->pos];
        if (c == '\\') {
            if (lx->pos + 1 < n && d[lx->pos + 1] == '\n') newline_at(lx, lx->pos + 1);
            lx->pos += 2;
            continue;
        }
        if (c == '\n') {
            if (!triple) return;
            newline_at(lx, lx->pos);
        } else if (c == q) {
            if (!triple) {
                lx->pos++;
                return;
            }
            if (lx->pos + 2 < n && d[lx->pos + 1] == q && d[lx->pos + 2] == q) {
                lx->pos += 3;
                return;
            }
        } else if (fmt && c == '{') {
            if (lx->pos + 1 < n && d[lx->pos + 1] == '{') {
                lx->pos += 2;
                continue;
            }
            lx->pos++;
            scan_fexpr(lx, nest);
            continue;
        }
        lx->pos++;
    }
    if (lx->pos > n) lx->pos = n;
}

/* A string prefix (r, b, u, f, t, and pairs) right before a quote. */
static bool string_prefix(const char *p, size_t k, bool *fmt)
{
    *fmt = false;
    if (k == 0 || k > 2) return false;
    for (size_t i = 0; i < k; i++) {
        char c = (char)(p[i] | 0x20);
        if (c != 'r' && c != 'b' && c != 'u' && c != 'f' && c != 't') return false;
        if (c == 'f' || c == 't') *fmt = true;
    }
    return true;
}

static void lex_string_at(gp_py_lexer *lx, gp_py_tok *t, size_t start, bool fmt)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    char q = d[lx->pos];
    bool tri = lx->pos + 2 < n && d[lx->pos + 1] == q && d[lx->pos + 2] == q;
    size_t qn = tri ? 3 : 1;
    lx->pos += qn;
    t->body = lx->pos;
    scan_string(lx, q, tri, fmt, 0);
    size_t end = lx->pos;
    size_t close = end >= t->body + qn && d[end - 1] == q ? qn : 0;
    t->kind = GP_PY_STRING;
    t->fstring = fmt;
    t->off = start;
    t->len = end - start;
    t->blen = end - close > t->body ? end - close - t->body : 0;
}

/* Indentation of a new logical line; skips blank and comment-only lines. False at EOF. */
static bool start_line(gp_py_lexer *lx)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    while (lx->pos < n) {
        int ind = 0;
        uint64_t eight;
        while (n - lx->pos >= 8 && (memcpy(&eight, d + lx->pos, 8), eight == 0x2020202020202020u)) {
            ind += 8; /* eight spaces */
            lx->pos += 8;
        }
        while (lx->pos < n && (d[lx->pos] == ' ' || d[lx->pos] == '\t' || d[lx->pos] == '\f')) {
            ind = d[lx->pos] == '\t' ? (ind / 8 + 1) * 8 : ind + 1;
            lx->pos++;
        }
        if (lx->pos >= n) return false;
        char c = d[lx->pos];
        if (c == '#') {
            skip_comment(lx, true);
            continue;
        }
        if (c == '\r') {
            lx->pos++;
            continue;
        }
        if (c == '\n') {
            newline_at(lx, lx->pos);
            lx->pos++;
            continue;
        }
        if (c == '\\' && lx->pos + 1 < n && d[lx->pos + 1] == '\n') {
            newline_at(lx, lx->pos + 1);
            lx->pos += 2;
            continue;
        }
        lx->indent = ind;
        lx->bol = false;
        return true;
    }
    return false;
}

static void lex_op(gp_py_lexer *lx, gp_py_tok *t)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    char c = d[lx->pos];
    size_t k = 1;
    if (lx->pos + 1 < n) {
        char c2 = d[lx->pos + 1];
        if (c2 == '=' && strchr("=!<>+-*/%&|^:@", c))
            k = 2;
        else if ((c == '*' || c == '/' || c == '<' || c == '>') && c2 == c)
            k = 2;
        else if (c == '-' && c2 == '>')
            k = 2;
    }
    if (c == '(' || c == '[' || c == '{') lx->depth++;
    if ((c == ')' || c == ']' || c == '}') && lx->depth > 0) lx->depth--;
    t->kind = GP_PY_OP;
    t->off = lx->pos;
    t->len = k;
    lx->pos += k;
}

void gp_py_lexer_next(gp_py_lexer *lx, gp_py_tok *t)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    memset(t, 0, sizeof *t);
    for (;;) {
        if (lx->bol) {
            if (!start_line(lx)) break;
        }
        if (lx->pos >= n) break;
        char c = d[lx->pos];
        unsigned k = py_kind[(unsigned char)c];
        switch (k) {
        case PK_BLANK: {
            size_t p = lx->pos + 1; /* a run of blanks in one loop */
            while (p < n && py_kind[(unsigned char)d[p]] == PK_BLANK)
                p++;
            lx->pos = p;
            continue;
        }
        case PK_HASH:
            skip_comment(lx, false);
            continue;
        case PK_BSLASH:
            if (lx->pos + 1 < n && (d[lx->pos + 1] == '\n' || d[lx->pos + 1] == '\r')) {
                lx->pos++;
                if (d[lx->pos] == '\r') lx->pos++;
                if (lx->pos < n && d[lx->pos] == '\n') {
                    newline_at(lx, lx->pos);
                    lx->pos++;
                }
                continue;
            }
            break;
        case PK_NL:
            newline_at(lx, lx->pos);
            lx->pos++;
            if (lx->depth > 0) continue;
            lx->bol = true;
            if (lx->pending) {
                lx->pending = false;
                t->kind = GP_PY_NEWLINE;
                t->off = lx->pos - 1;
                t->line = lx->line - 1 + lx->line_base;
                return;
            }
            continue;
        default:
            break;
        }
        t->line = lx->line + lx->line_base;
        t->line_off = lx->line_off;
        t->first = !lx->pending;
        t->indent = lx->indent;
        lx->pending = true;
        size_t start = lx->pos;
        if (k == PK_QUOTE) {
            lex_string_at(lx, t, start, false);
            return;
        }
        if (k == PK_NAME) {
            size_t p = lx->pos + 1; /* a local index: stores through lx could alias d */
            while (p < n && name_char((unsigned char)d[p]))
                p++;
            lx->pos = p;
            bool fmt;
            if (lx->pos < n && (d[lx->pos] == '\'' || d[lx->pos] == '"') &&
                string_prefix(d + start, lx->pos - start, &fmt)) {
                lex_string_at(lx, t, start, fmt);
                return;
            }
            t->kind = GP_PY_NAME;
            t->off = start;
            t->len = lx->pos - start;
            return;
        }
        if (k == PK_DIGIT ||
            (k == PK_DOT && lx->pos + 1 < n && d[lx->pos + 1] >= '0' && d[lx->pos + 1] <= '9')) {
            lx->pos++;
            while (lx->pos < n) {
                char e = d[lx->pos];
                if (name_char((unsigned char)e) || e == '.')
                    lx->pos++;
                else if ((e == '+' || e == '-') && (d[lx->pos - 1] | 0x20) == 'e')
                    lx->pos++;
                else
                    break;
            }
            t->kind = GP_PY_NUMBER;
            t->off = start;
            t->len = lx->pos - start;
            return;
        }
        lex_op(lx, t);
        return;
    }
    if (lx->pending) {
        lx->pending = false;
        t->kind = GP_PY_NEWLINE;
        t->off = n;
        t->line = lx->line + lx->line_base;
        return;
    }
    t->kind = GP_PY_END;
    t->off = n;
    t->line = lx->line + lx->line_base;
}

/* ---- skipping a logical line -------------------------------------------------------------- */

/* The bytes that change the token loop's state outside strings and comments: newline, '#',
 * backslash, the quotes and the brackets. Everything else (names, numbers, operators, blanks)
 * leaves depth, line and string state alone. */
static inline bool special(char c)
{
    return c == '\n' || c == '#' || c == '\\' || c == '\'' || c == '"' || c == '(' || c == ')' ||
           c == '[' || c == ']' || c == '{' || c == '}';
}

/* Bit i set when p[i] is special, for the 64 bytes at p. Seven compares find the eleven bytes:
 * with bit 0 set, '(' and ')' both read 0x29 and '"' and '#' both 0x23; with bit 5 set, '[' and
 * '{' read 0x7b and ']' and '}' 0x7d (no other byte reads any of these so). */
static inline uint64_t special_mask64(const char *p)
{
#if defined(__SSE2__)
    const __m128i one = _mm_set1_epi8(0x01), x20 = _mm_set1_epi8(0x20);
    uint64_t bits = 0;
    for (int c = 0; c < 4; c++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * c));
        __m128i v1 = _mm_or_si128(v, one), v20 = _mm_or_si128(v, x20);
        __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                 _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
        m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\'')));
        m = _mm_or_si128(m, _mm_cmpeq_epi8(v1, _mm_set1_epi8(0x29)));
        m = _mm_or_si128(m, _mm_cmpeq_epi8(v1, _mm_set1_epi8(0x23)));
        m = _mm_or_si128(m, _mm_cmpeq_epi8(v20, _mm_set1_epi8(0x7b)));
        m = _mm_or_si128(m, _mm_cmpeq_epi8(v20, _mm_set1_epi8(0x7d)));
        bits |= (uint64_t)(unsigned)_mm_movemask_epi8(m) << (16 * c);
    }
    return bits;
#elif defined(__ARM_NEON) && defined(__aarch64__)
    static const uint8_t weight[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x16_t one = vdupq_n_u8(0x01), x20 = vdupq_n_u8(0x20);
    uint8x16_t w = vld1q_u8(weight), m[4];
    for (int c = 0; c < 4; c++) {
        uint8x16_t v = vld1q_u8((const uint8_t *)p + 16 * c);
        uint8x16_t v1 = vorrq_u8(v, one), v20 = vorrq_u8(v, x20);
        uint8x16_t e = vorrq_u8(vceqq_u8(v, vdupq_n_u8('\n')), vceqq_u8(v, vdupq_n_u8('\\')));
        e = vorrq_u8(e, vceqq_u8(v, vdupq_n_u8('\'')));
        e = vorrq_u8(e, vceqq_u8(v1, vdupq_n_u8(0x29)));
        e = vorrq_u8(e, vceqq_u8(v1, vdupq_n_u8(0x23)));
        e = vorrq_u8(e, vceqq_u8(v20, vdupq_n_u8(0x7b)));
        e = vorrq_u8(e, vceqq_u8(v20, vdupq_n_u8(0x7d)));
        m[c] = vandq_u8(e, w);
    }
    /* pairwise sums fold each 8-byte half into one byte of bits, in order */
    uint8x16_t s = vpaddq_u8(vpaddq_u8(m[0], m[1]), vpaddq_u8(m[2], m[3]));
    s = vpaddq_u8(s, s);
    return vgetq_lane_u64(vreinterpretq_u64_u8(s), 0);
#else
    uint64_t bits = 0;
    for (int i = 0; i < 64; i++)
        bits |= (uint64_t)special(p[i]) << i;
    return bits;
#endif
}

/* The first special byte at or after pos, or n. The bits of the 64 bytes from lx->sk_at are kept
 * (the next call is mostly within them); bytes at the input's end are looked at one by one. */
static size_t next_special(gp_py_lexer *lx, size_t pos)
{
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    for (;;) {
        if (pos < lx->sk_at || pos - lx->sk_at >= 64) {
            if (n - pos < 64) {
                while (pos < n && !special(d[pos]))
                    pos++;
                return pos;
            }
            lx->sk_at = pos;
            lx->sk_bits = special_mask64(d + pos);
            if (lx->src->mapped) gp_audit_source_release(lx->src, pos); /* within long lines too */
        }
        uint64_t m = lx->sk_bits >> (pos - lx->sk_at);
        if (m) return pos + (size_t)__builtin_ctzll(m);
        pos = lx->sk_at + 64;
    }
}

static inline bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\f' || c == '\r';
}

/* The last token of the code between `from` and a special byte at p (names, numbers, operators
 * and blanks only) ends at the last non-blank byte there, if any. */
static void note_code(const char *d, size_t from, size_t p, gp_py_line *ln)
{
    while (p > from && blank(d[p - 1]))
        p--;
    if (p > from) {
        ln->last = p - 1;
        ln->last_string = false;
    }
}

gp_py_skip gp_py_lexer_skip_line(gp_py_lexer *lx, gp_py_line *ln)
{
    if (!start_line(lx)) return GP_PY_SKIP_EOF;
    const char *d = lx->src->data;
    size_t n = lx->src->size;
    ln->first = lx->pos;
    ln->last = lx->pos;
    ln->last_string = false;
    for (;;) {
        size_t p = next_special(lx, lx->pos);
        char c = p < n ? d[p] : '\n';
        /* the last token before a line end, comment or backslash (brackets and strings set it) */
        if (c == '\n' || c == '#' || c == '\\') note_code(d, lx->pos, p, ln);
        if (p >= n) {
            lx->pos = n;
            ln->end = n; /* the lexer ends the last line at the end of the input */
            break;
        }
        if (c == '\n') {
            newline_at(lx, p);
            lx->pos = p + 1;
            if (lx->depth > 0) continue;
            lx->bol = true;
            ln->end = p;
            break;
        }
        if (c == '#') {
            lx->pos = p;
            skip_comment(lx, false); /* suppression comments are noted as the token loop does */
            continue;
        }
        if (c == '\\') {
            lx->pos = p + 1;
            if (p + 1 < n && (d[p + 1] == '\n' || d[p + 1] == '\r')) { /* as the token loop does */
                if (d[lx->pos] == '\r') lx->pos++;
                if (lx->pos < n && d[lx->pos] == '\n') {
                    newline_at(lx, lx->pos);
                    lx->pos++;
                }
            } else {
                ln->last = p; /* a lone backslash is an operator token */
                ln->last_string = false;
            }
            continue;
        }
        if (c == '\'' || c == '"') {
            /* A name right before the quote is a string prefix when the token loop lexes it as
             * a name: it starts after a byte that is not a name character, unless a number
             * (which runs on through '.', and '+' or '-' after an exponent) took it in. */
            size_t s = p;
            while (s > ln->first && name_char((unsigned char)d[s - 1]))
                s--;
            bool fmt = false;
            bool prefix = p > s && string_prefix(d + s, p - s, &fmt);
            if (!prefix)
                fmt = false;
            else if (s > 0 && (d[s - 1] == '.' || d[s - 1] == '+' || d[s - 1] == '-'))
                return GP_PY_SKIP_UNSURE;
            bool tri = p + 2 < n && d[p + 1] == c && d[p + 2] == c;
            lx->pos = p + (tri ? 3 : 1);
            scan_string(lx, c, tri, fmt, 0);
            ln->last = lx->pos - 1;
            ln->last_string = true;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') /* a bracket */
            lx->depth++;
        else if (lx->depth > 0)
            lx->depth--;
        lx->pos = p + 1;
        ln->last = p;
        ln->last_string = false;
    }
    return GP_PY_SKIP_LINE;
}
