/* lex.c — see lex.h. One pass over the bytes; line splices (backslash-newline) are honoured inside
 * directives, where they matter; every token carries the line it starts on. */
#include "translate/lex.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TR_MAX_TOKENS = 4 << 20, TR_MAX_TOKEN = 1 << 16 };

int tr_tokens_push(tr_tokens *ts, const tr_token *t)
{
    if (ts->n == ts->cap) {
        size_t cap = ts->cap ? ts->cap * 2 : 1024;
        tr_token *p = realloc(ts->v, cap * sizeof *p);
        if (!p) return -1;
        ts->v = p;
        ts->cap = cap;
    }
    ts->v[ts->n] = *t;
    ts->v[ts->n].text = strdup(t->text);
    if (!ts->v[ts->n].text) return -1;
    ts->n++;
    return 0;
}

void tr_tokens_free(tr_tokens *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i].text);
    free(t->v);
    t->v = NULL;
    t->n = t->cap = 0;
}

static const char *const puncts[] = {
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
    "&&",  "||",  "+=",  "-=", "*=", "/=", "%=", "&=", "^=", "|=", "::", "##",
};

static int add(tr_tokens *out, tr_tok_kind k, const char *s, size_t n, int file, int line, int col,
               bool bol)
{
    if (out->n >= TR_MAX_TOKENS || n > TR_MAX_TOKEN) return -2;
    char *text = malloc(n + 1);
    if (!text) return -1;
    memcpy(text, s, n);
    text[n] = '\0';
    tr_token t = {k, text, file, line, col, bol};
    if (out->n == out->cap) {
        size_t cap = out->cap ? out->cap * 2 : 1024;
        tr_token *p = realloc(out->v, cap * sizeof *p);
        if (!p) {
            free(text);
            return -1;
        }
        out->v = p;
        out->cap = cap;
    }
    out->v[out->n++] = t;
    return 0;
}

int tr_lex(const char *name, int file, const char *src, size_t len, tr_tokens *out, char *err,
           size_t errlen)
{
    size_t i = 0;
    int line = 1;
    size_t line_start = 0;
    bool bol = true;
    int rc = 0;
#define FAIL(...)                                                                                  \
    do {                                                                                           \
        snprintf(err, errlen, __VA_ARGS__);                                                        \
        return -1;                                                                                 \
    } while (0)
    if (len >= 3 && (unsigned char)src[0] == 0xef && (unsigned char)src[1] == 0xbb &&
        (unsigned char)src[2] == 0xbf)
        i = 3, line_start = 3; /* a UTF-8 byte order mark, as compilers accept */
    while (i < len) {
        char c = src[i];
        if (c == '\n') {
            line++;
            line_start = ++i;
            bol = true;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            i++;
            continue;
        }
        if (c == '\\' && i + 1 < len && (src[i + 1] == '\n' || src[i + 1] == '\r')) {
            i += src[i + 1] == '\r' && i + 2 < len && src[i + 2] == '\n' ? 3 : 2;
            line++;
            line_start = i;
            continue;
        }
        int col = (int)(i - line_start) + 1;
        if (c == '/' && i + 1 < len && src[i + 1] == '/') {
            while (i < len && src[i] != '\n')
                i++;
            continue;
        }
        if (c == '/' && i + 1 < len && src[i + 1] == '*') {
            int start = line;
            i += 2;
            while (i + 1 < len && !(src[i] == '*' && src[i + 1] == '/')) {
                if (src[i] == '\n') line++, line_start = i + 1;
                i++;
            }
            if (i + 1 >= len) FAIL("%s:%d: unterminated comment", name, start);
            i += 2;
            continue;
        }
        if (c == '#' && bol) {
            /* A directive: the rest of the line, splices joined, comments dropped. */
            int start = line;
            i++;
            char *buf = malloc(len - i + 1);
            if (!buf) FAIL("%s: out of memory", name);
            size_t n = 0;
            while (i < len && src[i] != '\n') {
                if (src[i] == '\\' && i + 1 < len && (src[i + 1] == '\n' || src[i + 1] == '\r')) {
                    i += src[i + 1] == '\r' && i + 2 < len && src[i + 2] == '\n' ? 3 : 2;
                    line++;
                    line_start = i;
                    buf[n++] = ' ';
                    continue;
                }
                if (src[i] == '/' && i + 1 < len && src[i + 1] == '/') {
                    while (i < len && src[i] != '\n')
                        i++;
                    break;
                }
                if (src[i] == '/' && i + 1 < len && src[i + 1] == '*') {
                    i += 2;
                    while (i + 1 < len && !(src[i] == '*' && src[i + 1] == '/')) {
                        if (src[i] == '\n') line++, line_start = i + 1;
                        i++;
                    }
                    if (i + 1 >= len) {
                        free(buf);
                        FAIL("%s:%d: unterminated comment", name, start);
                    }
                    i += 2;
                    buf[n++] = ' ';
                    continue;
                }
                buf[n++] = src[i++];
            }
            rc = add(out, TR_DIRECTIVE, buf, n, file, start, col, true);
            free(buf);
            if (rc) break;
            continue;
        }
        bol = false;
        size_t s = i;
        if (isalpha((unsigned char)c) || c == '_') {
            while (i < len && (isalnum((unsigned char)src[i]) || src[i] == '_'))
                i++;
            /* a C++11 raw string (R"d(...)d", also u8R, uR, UR, LR): host code only, one token */
            if (i < len && src[i] == '"' && src[i - 1] == 'R' && i - s <= 3) {
                size_t d0 = i + 1, d1 = d0;
                while (d1 < len && src[d1] != '(' && d1 - d0 <= 16)
                    d1++;
                size_t k = d1 + 1;
                bool closed = false;
                for (; d1 < len && src[d1] == '(' && k < len; k++) {
                    if (src[k] == '\n') line++, line_start = k + 1;
                    if (src[k] == ')' && k + (d1 - d0) + 1 < len &&
                        !memcmp(src + k + 1, src + d0, d1 - d0) && src[k + 1 + (d1 - d0)] == '"') {
                        k += (d1 - d0) + 2;
                        closed = true;
                        break;
                    }
                }
                if (!closed) FAIL("%s:%d:%d: unterminated raw string literal", name, line, col);
                i = k;
                if ((rc = add(out, TR_STRING, "\"\"", 2, file, line, col, false))) break;
                continue;
            }
            if ((rc = add(out, TR_IDENT, src + s, i - s, file, line, col, false))) break;
            continue;
        }
        if (isdigit((unsigned char)c) ||
            (c == '.' && i + 1 < len && isdigit((unsigned char)src[i + 1]))) {
            /* pp-number: digits, letters, '.', exponent signs and C++14 digit separators
             * (1'000'000, which host code uses) */
            while (i < len &&
                   (isalnum((unsigned char)src[i]) || src[i] == '.' || src[i] == '_' ||
                    (src[i] == '\'' && i + 1 < len && isalnum((unsigned char)src[i + 1])) ||
                    ((src[i] == '+' || src[i] == '-') && i > s && strchr("eEpP", src[i - 1]) &&
                     !(src[s] == '0' && i > s + 1 && (src[s + 1] == 'x' || src[s + 1] == 'X') &&
                       (src[i - 1] == 'e' || src[i - 1] == 'E')))))
                i++;
            if (memchr(src + s, '\'', i - s)) { /* the separators go: C and OpenCL have none */
                char num[128];
                size_t n = 0;
                for (size_t k = s; k < i && n < sizeof num; k++)
                    if (src[k] != '\'') num[n++] = src[k];
                if ((rc = add(out, TR_NUMBER, num, n, file, line, col, false))) break;
                continue;
            }
            if ((rc = add(out, TR_NUMBER, src + s, i - s, file, line, col, false))) break;
            continue;
        }
        if (c == '"' || c == '\'') {
            i++;
            while (i < len && src[i] != c && src[i] != '\n') {
                if (src[i] == '\\' && i + 1 < len) i++;
                i++;
            }
            if (i >= len || src[i] != c)
                FAIL("%s:%d:%d: unterminated %s literal", name, line, col,
                     c == '"' ? "string" : "character");
            i++;
            if ((rc = add(out, c == '"' ? TR_STRING : TR_CHAR, src + s, i - s, file, line, col,
                          false)))
                break;
            continue;
        }
        size_t plen = 0;
        for (size_t p = 0; p < sizeof puncts / sizeof puncts[0]; p++) {
            if (puncts[p][0] != c) continue; /* most characters start no multi-character one */
            size_t l = strlen(puncts[p]);
            if (l > plen && i + l <= len && memcmp(src + i, puncts[p], l) == 0) plen = l;
        }
        if (!plen) {
            if (!strchr("{}[]()<>;:,.?!~+-*/%&|^=#", c)) {
                if ((unsigned char)c >= 0x80 || !isprint((unsigned char)c))
                    FAIL("%s:%d:%d: unexpected byte 0x%02x", name, line, col, (unsigned char)c);
                FAIL("%s:%d:%d: unexpected character '%c'", name, line, col, c);
            }
            plen = 1;
        }
        i += plen;
        if ((rc = add(out, TR_PUNCT, src + s, plen, file, line, col, false))) break;
    }
    if (rc == -2)
        FAIL("%s:%d: too large to translate (over %d tokens or a token over %d bytes)", name, line,
             TR_MAX_TOKENS, TR_MAX_TOKEN);
    if (rc) FAIL("%s: out of memory", name);
    tr_token eof = {TR_EOF, (char *)"", file, line, 1, true};
    if (tr_tokens_push(out, &eof)) FAIL("%s: out of memory", name);
    return 0;
#undef FAIL
}

const char *const tr_binary_ops[TR_BINARY_LEVELS][4] = {
    {"||"},       {"&&"},     {"|"},           {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="},
    {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
};

int tr_binary_level(const char *op)
{
    if (!op[0] || !strchr("|&^=!<>+-*/%", op[0])) return -1;
    for (int l = 0; l < TR_BINARY_LEVELS; l++)
        for (int k = 0; k < 4 && tr_binary_ops[l][k]; k++)
            if (op[0] == tr_binary_ops[l][k][0] && !strcmp(op, tr_binary_ops[l][k])) return l;
    return -1;
}
