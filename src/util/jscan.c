/* jscan.c — see jscan.h. Every step checks the grammar and never reads past len. */
#include "util/jscan.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool jscan_fail(gp_jscan *s, const char *what)
{
    if (!s->error) s->error = what;
    return false;
}

void gp_jscan_init(gp_jscan *s, const char *text, size_t len)
{
    s->text = text;
    s->len = len;
    s->pos = 0;
    s->error = NULL;
}

char gp_jscan_peek(gp_jscan *s)
{
    while (s->pos < s->len) {
        char c = s->text[s->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return c;
        s->pos++;
    }
    return 0;
}

bool gp_jscan_expect(gp_jscan *s, char c)
{
    if (gp_jscan_peek(s) != c || s->pos >= s->len) {
        static const char *const want[] = {"expected '{'",        "expected '}'", "expected '['",
                                           "expected ']'",        "expected ':'", "expected ','",
                                           "unexpected character"};
        const char *w = c == '{'   ? want[0]
                        : c == '}' ? want[1]
                        : c == '[' ? want[2]
                        : c == ']' ? want[3]
                        : c == ':' ? want[4]
                        : c == ',' ? want[5]
                                   : want[6];
        return jscan_fail(s, s->pos >= s->len ? "unexpected end of the text" : w);
    }
    s->pos++;
    return true;
}

bool gp_jscan_accept(gp_jscan *s, char c)
{
    if (gp_jscan_peek(s) != c || s->pos >= s->len) return false;
    s->pos++;
    return true;
}

static int jscan_hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

static void jscan_put_utf8(gp_strbuf *out, unsigned cp)
{
    char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (char)cp, n = 1;
    } else if (cp < 0x800) {
        b[0] = (char)(0xc0 | cp >> 6), b[1] = (char)(0x80 | (cp & 0x3f)), n = 2;
    } else if (cp < 0x10000) {
        b[0] = (char)(0xe0 | cp >> 12), b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        b[2] = (char)(0x80 | (cp & 0x3f)), n = 3;
    } else {
        b[0] = (char)(0xf0 | cp >> 18), b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3f)), b[3] = (char)(0x80 | (cp & 0x3f)), n = 4;
    }
    gp_strbuf_append(out, b, n);
}

/* One \uXXXX escape at p (just after the backslash's 'u'), a surrogate pair taken whole. */
static bool jscan_unicode(gp_jscan *s, gp_strbuf *out, bool *has_nul)
{
    if (s->len - s->pos < 4) return jscan_fail(s, "truncated \\u escape");
    int hi = jscan_hex4(s->text + s->pos);
    if (hi < 0) return jscan_fail(s, "bad \\u escape");
    s->pos += 4;
    unsigned cp = (unsigned)hi;
    if (hi >= 0xdc00 && hi <= 0xdfff) return jscan_fail(s, "lone low surrogate in a \\u escape");
    if (hi >= 0xd800 && hi <= 0xdbff) {
        if (s->len - s->pos < 6 || s->text[s->pos] != '\\' || s->text[s->pos + 1] != 'u')
            return jscan_fail(s, "high surrogate without its low half");
        int lo = jscan_hex4(s->text + s->pos + 2);
        if (lo < 0xdc00 || lo > 0xdfff) return jscan_fail(s, "high surrogate without its low half");
        s->pos += 6;
        cp = 0x10000 + (((unsigned)hi - 0xd800) << 10) + ((unsigned)lo - 0xdc00);
    }
    if (cp == 0 && has_nul) *has_nul = true;
    if (out) jscan_put_utf8(out, cp);
    return true;
}

bool gp_jscan_string(gp_jscan *s, gp_strbuf *out, bool *has_nul)
{
    if (has_nul) *has_nul = false;
    if (out) gp_strbuf_reset(out);
    if (!gp_jscan_expect(s, '"')) return false;
    for (;;) {
        size_t run = s->pos;
        while (run < s->len) { /* the common case: a run of plain bytes */
            unsigned char c = (unsigned char)s->text[run];
            if (c == '"' || c == '\\' || c < 0x20) break;
            run++;
        }
        if (out && run > s->pos) gp_strbuf_append(out, s->text + s->pos, run - s->pos);
        s->pos = run;
        if (s->pos >= s->len) return jscan_fail(s, "unterminated string");
        unsigned char c = (unsigned char)s->text[s->pos++];
        if (c == '"') return out ? !out->failed || jscan_fail(s, "out of memory") : true;
        if (c < 0x20) {
            s->pos--;
            return jscan_fail(s, "control character in a string");
        }
        if (s->pos >= s->len) return jscan_fail(s, "unterminated string");
        char e = s->text[s->pos++];
        const char *plain = strchr("\"\\/bfnrt", e);
        if (e == 'u') {
            if (!jscan_unicode(s, out, has_nul)) return false;
        } else if (e && plain) {
            static const char decoded[] = "\"\\/\b\f\n\r\t";
            if (out) gp_strbuf_putc(out, decoded[plain - "\"\\/bfnrt"]);
        } else {
            s->pos--;
            return jscan_fail(s, "bad escape in a string");
        }
    }
}

static bool jscan_digit(const gp_jscan *s, size_t i)
{
    return i < s->len && s->text[i] >= '0' && s->text[i] <= '9';
}

bool gp_jscan_number(gp_jscan *s, double *v)
{
    gp_jscan_peek(s);
    size_t i = s->pos;
    if (i < s->len && s->text[i] == '-') i++;
    if (!jscan_digit(s, i)) return jscan_fail(s, "expected a number");
    if (s->text[i] == '0')
        i++;
    else
        while (jscan_digit(s, i))
            i++;
    if (i < s->len && s->text[i] == '.') {
        if (!jscan_digit(s, ++i)) return jscan_fail(s, "bad number");
        while (jscan_digit(s, i))
            i++;
    }
    if (i < s->len && (s->text[i] == 'e' || s->text[i] == 'E')) {
        i++;
        if (i < s->len && (s->text[i] == '+' || s->text[i] == '-')) i++;
        if (!jscan_digit(s, i)) return jscan_fail(s, "bad number");
        while (jscan_digit(s, i))
            i++;
    }
    if (v && i - s->pos <= 15 && s->text[s->pos] != '-') {
        /* the common case, a size or a count: digits only, exact in a double */
        bool digits = true;
        uint64_t u = 0;
        for (size_t k = s->pos; k < i && digits; k++) {
            digits = s->text[k] >= '0' && s->text[k] <= '9';
            u = u * 10 + (uint64_t)(s->text[k] - '0');
        }
        if (digits) {
            *v = (double)u;
            s->pos = i;
            return true;
        }
    }
    if (v) {
        char buf[64];
        size_t n = i - s->pos;
        if (n < sizeof buf) {
            memcpy(buf, s->text + s->pos, n);
            buf[n] = '\0';
            *v = strtod(buf, NULL);
        } else { /* absurdly long digits: exact enough through a heap copy */
            char *h = malloc(n + 1);
            if (!h) return jscan_fail(s, "out of memory");
            memcpy(h, s->text + s->pos, n);
            h[n] = '\0';
            *v = strtod(h, NULL);
            free(h);
        }
    }
    s->pos = i;
    return true;
}

static bool jscan_literal(gp_jscan *s, const char *word)
{
    size_t n = strlen(word);
    if (s->len - s->pos < n || memcmp(s->text + s->pos, word, n) != 0)
        return jscan_fail(s, "unexpected character");
    s->pos += n;
    return true;
}

static bool jscan_value(gp_jscan *s, int depth)
{
    if (depth > GP_JSCAN_MAX_DEPTH) return jscan_fail(s, "nested too deeply");
    switch (gp_jscan_peek(s)) {
    case '"':
        return gp_jscan_string(s, NULL, NULL);
    case '{':
        s->pos++;
        if (gp_jscan_accept(s, '}')) return true;
        do {
            if (!gp_jscan_string(s, NULL, NULL) || !gp_jscan_expect(s, ':') ||
                !jscan_value(s, depth + 1))
                return false;
        } while (gp_jscan_accept(s, ','));
        return gp_jscan_expect(s, '}');
    case '[':
        s->pos++;
        if (gp_jscan_accept(s, ']')) return true;
        do {
            if (!jscan_value(s, depth + 1)) return false;
        } while (gp_jscan_accept(s, ','));
        return gp_jscan_expect(s, ']');
    case 't':
        return jscan_literal(s, "true");
    case 'f':
        return jscan_literal(s, "false");
    case 'n':
        return jscan_literal(s, "null");
    case 0:
        return jscan_fail(s,
                          s->pos >= s->len ? "unexpected end of the text" : "unexpected character");
    default:
        return gp_jscan_number(s, NULL);
    }
}

bool gp_jscan_skip_value(gp_jscan *s)
{
    return jscan_value(s, 0);
}

void gp_jscan_error(const gp_jscan *s, char *buf, size_t n)
{
    snprintf(buf, n, "near byte %zu: %s", s->pos, s->error ? s->error : "invalid JSON");
}
