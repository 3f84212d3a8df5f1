/* regfile.c — see regfile.h. The export is decoded to UTF-8 once, then read one logical line at
 * a time (physical lines joined where they end with a backslash); every value is turned into
 * text before it is handed on, so callers never see raw registry bytes. */
#include "doctor/regfile.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GP_REG_KEY_MAX  1024
#define GP_REG_NAME_MAX 512
#define GP_REG_TEXT_MAX 4096
#define GP_REG_LINE_MAX (4u * 1024 * 1024)

static size_t put_utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12);
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18);
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

bool gp_looks_utf16le(const unsigned char *b, size_t len)
{
    if (len >= 2 && b[0] == 0xFF && b[1] == 0xFE) return true;
    if (len < 4) return false;
    size_t n = len < 64 ? len & ~(size_t)1 : 64;
    for (size_t i = 1; i < n; i += 2)
        if (b[i] != 0) return false;
    return true;
}

char *gp_utf16le_to_utf8(const unsigned char *b, size_t len, size_t *out_len)
{
    if (len >= 2 && b[0] == 0xFF && b[1] == 0xFE) b += 2, len -= 2;
    size_t units = len / 2, w = 0;
    char *o = malloc(units * 3 + 1); /* a pair of units makes at most 4 bytes, one at most 3 */
    if (!o) return NULL;
    for (size_t i = 0; i < units; i++) {
        uint32_t u = b[2 * i] | (uint32_t)b[2 * i + 1] << 8, cp = u;
        if (u >= 0xD800 && u < 0xDC00 && i + 1 < units) {
            uint32_t l = b[2 * i + 2] | (uint32_t)b[2 * i + 3] << 8;
            if (l >= 0xDC00 && l < 0xE000) {
                cp = 0x10000 + ((u - 0xD800) << 10) + (l - 0xDC00);
                i++;
            } else {
                cp = '?';
            }
        } else if (u >= 0xD800 && u < 0xE000) {
            cp = '?';
        }
        if (cp == 0) continue;
        w += put_utf8(o + w, cp);
    }
    o[w] = '\0';
    if (out_len) *out_len = w;
    return o;
}

typedef struct reg_reader {
    const char *s;
    size_t len, pos;
    int line; /* the physical line the current logical line starts on */
    int next_line;
    char *buf; /* the logical line */
    size_t cap;
    bool v5; /* "Windows Registry Editor Version 5.00": hex(1)/(2)/(7) hold UTF-16LE */
    char key[GP_REG_KEY_MAX];
    bool in_key, deleted;
    char *err;
    size_t errlen;
} reg_reader;

static bool fail(reg_reader *r, const char *what)
{
    snprintf(r->err, r->errlen, "line %d: %s", r->line, what);
    return false;
}

/* One physical line without its CR/LF; false at the end. */
static bool phys_line(reg_reader *r, const char **l, size_t *n)
{
    if (r->pos >= r->len) return false;
    const char *s = r->s + r->pos;
    const char *nl = memchr(s, '\n', r->len - r->pos);
    size_t k = nl ? (size_t)(nl - s) : r->len - r->pos;
    r->pos += k + (nl ? 1 : 0);
    while (k > 0 && (s[k - 1] == '\r' || s[k - 1] == ' ' || s[k - 1] == '\t'))
        k--;
    *l = s;
    *n = k;
    r->next_line++;
    return true;
}

static bool append(reg_reader *r, size_t *used, const char *s, size_t n)
{
    if (*used + n + 1 > GP_REG_LINE_MAX) return false;
    if (*used + n + 1 > r->cap) {
        size_t c = r->cap ? r->cap : 256;
        while (c < *used + n + 1)
            c *= 2;
        char *b = realloc(r->buf, c);
        if (!b) return false;
        r->buf = b;
        r->cap = c;
    }
    memcpy(r->buf + *used, s, n);
    *used += n;
    r->buf[*used] = '\0';
    return true;
}

/* The next logical line into r->buf (continuations joined); 0 at the end, -1 on error. */
static int logical_line(reg_reader *r, size_t *n)
{
    const char *l;
    size_t k, used = 0;
    r->line = r->next_line + 1;
    if (!phys_line(r, &l, &k)) return 0;
    for (;;) {
        bool more = k > 0 && l[k - 1] == '\\';
        if (!append(r, &used, l, more ? k - 1 : k)) {
            fail(r, "a value longer than 4 MiB");
            return -1;
        }
        if (!more || !phys_line(r, &l, &k)) break;
        while (k > 0 && (*l == ' ' || *l == '\t'))
            l++, k--;
    }
    if (!r->buf && !append(r, &used, "", 0)) return -1;
    *n = used;
    return 1;
}

/* A quoted string at s[*i] (the opening quote) into out, unescaping \\ and \". */
static bool quoted(const char *s, size_t n, size_t *i, char *out, size_t on)
{
    size_t w = 0, k = *i + 1;
    for (; k < n && s[k] != '"'; k++) {
        char ch = s[k];
        if (ch == '\\' && k + 1 < n) ch = s[++k];
        if (w + 1 < on) out[w++] = ch;
    }
    out[w] = '\0';
    if (k >= n) return false;
    *i = k + 1;
    return true;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* "aa,bb,cc" into bytes (in place over the text, which is longer); false when malformed. */
static bool hex_bytes(char *s, size_t n, size_t *out_n)
{
    size_t w = 0, i = 0;
    while (i < n) {
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i >= n) break;
        int hi = hexval(s[i]), lo = i + 1 < n ? hexval(s[i + 1]) : -1;
        if (hi < 0) return false;
        if (lo < 0) { /* a single digit: "0" */
            s[w++] = (char)hi;
            i += 1;
        } else {
            s[w++] = (char)(hi << 4 | lo);
            i += 2;
        }
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i < n && s[i] != ',') return false;
        i++;
    }
    *out_n = w;
    return true;
}

/* Registry string bytes as text: UTF-16LE in a version 5 export, 8-bit in REGEDIT4; NULs between
 * the strings of a multi-string become ';', the final ones are dropped. */
static void bytes_text(const reg_reader *r, const char *b, size_t n, bool multi, char *out,
                       size_t on)
{
    char *t = NULL;
    size_t tn = n;
    if (r->v5) {
        /* keep the NUL separators: decode each string of the multi-string on its own */
        size_t w = 0;
        out[0] = '\0';
        size_t start = 0;
        for (size_t i = 0; i <= n; i += 2) {
            bool end = i + 1 >= n || (b[i] == 0 && b[i + 1] == 0);
            if (!end) continue;
            size_t seg = i - start;
            if (seg > 0) {
                t = gp_utf16le_to_utf8((const unsigned char *)b + start, seg, &tn);
                if (!t) return;
                int k = snprintf(out + w, on - w, "%s%s", w && multi ? ";" : "", t);
                free(t);
                if (k < 0 || (size_t)k >= on - w) {
                    out[on - 1] = '\0';
                    return;
                }
                w += (size_t)k;
            }
            start = i + 2;
            if (!multi) break;
        }
        return;
    }
    size_t w = 0;
    for (size_t i = 0; i < tn && w + 1 < on; i++) {
        if (b[i] == 0) {
            if (!multi) break;
            if (i + 1 < tn && b[i + 1] != 0 && w) out[w++] = ';';
            continue;
        }
        out[w++] = b[i];
    }
    out[w] = '\0';
}

static uint64_t le_number(const char *b, size_t n, size_t width)
{
    uint64_t v = 0;
    for (size_t i = 0; i < width && i < n; i++)
        v |= (uint64_t)(unsigned char)b[i] << (8 * i);
    return v;
}

static bool value_line(reg_reader *r, char *s, size_t n, gp_reg_value_fn fn, void *ud, bool *stop)
{
    char name[GP_REG_NAME_MAX], text[GP_REG_TEXT_MAX];
    size_t i = 0;
    if (s[0] == '@') {
        name[0] = '\0';
        i = 1;
    } else if (!quoted(s, n, &i, name, sizeof name)) {
        return fail(r, "a value name without its closing quote");
    }
    while (i < n && s[i] == ' ')
        i++;
    if (i >= n || s[i] != '=') return fail(r, "no '=' after the value name");
    i++;
    while (i < n && s[i] == ' ')
        i++;
    if (!r->in_key) return fail(r, "a value before any [key]");
    const char *v = s + i;
    size_t vn = n - i;
    gp_reg_type type;
    if (vn > 0 && v[0] == '"') {
        size_t k = 0;
        if (!quoted(v, vn, &k, text, sizeof text))
            return fail(r, "a string value without its closing quote");
        type = GP_REG_SZ;
    } else if (vn == 1 && v[0] == '-') {
        return true; /* a deletion */
    } else if (vn >= 6 && strncmp(v, "dword:", 6) == 0) {
        if (vn != 14) return fail(r, "dword: needs 8 hex digits");
        unsigned long x = 0;
        for (size_t k = 6; k < 14; k++) {
            int h = hexval(v[k]);
            if (h < 0) return fail(r, "dword: needs 8 hex digits");
            x = x << 4 | (unsigned long)h;
        }
        snprintf(text, sizeof text, "%lu", x);
        type = GP_REG_DWORD;
    } else if (vn >= 4 && strncmp(v, "hex", 3) == 0) {
        size_t k = 3;
        int kind = 3; /* hex: is REG_BINARY */
        if (v[k] == '(') {
            kind = 0;
            size_t d = 0;
            for (k++; k < vn && hexval(v[k]) >= 0 && d < 8; k++, d++)
                kind = kind * 16 + hexval(v[k]);
            if (d == 0 || k >= vn || v[k] != ')') return fail(r, "hex(N): with a bad type number");
            k++;
        }
        if (k >= vn || v[k] != ':') return fail(r, "no ':' after hex");
        k++;
        char *bytes = s + i + k;
        size_t bn;
        if (!hex_bytes(bytes, vn - k, &bn)) return fail(r, "hex bytes that are not 'xx,xx,...'");
        switch (kind) {
        case 1:
        case 2:
        case 7:
            bytes_text(r, bytes, bn, kind == 7, text, sizeof text);
            type = kind == 1 ? GP_REG_SZ : kind == 2 ? GP_REG_EXPAND_SZ : GP_REG_MULTI_SZ;
            break;
        case 4:
            snprintf(text, sizeof text, "%llu", (unsigned long long)le_number(bytes, bn, 4));
            type = GP_REG_DWORD;
            break;
        case 11:
            snprintf(text, sizeof text, "%llu", (unsigned long long)le_number(bytes, bn, 8));
            type = GP_REG_QWORD;
            break;
        default: {
            size_t w = 0;
            for (size_t b = 0; b < bn && w + 3 <= sizeof text; b++)
                w += (size_t)snprintf(text + w, sizeof text - w, "%02x", (unsigned char)bytes[b]);
            text[w] = '\0';
            type = GP_REG_BINARY;
        }
        }
    } else {
        return fail(r, "a value that is neither \"text\", dword: nor hex:");
    }
    if (!r->deleted && !fn(ud, r->key, name, type, text)) *stop = true;
    return true;
}

static bool key_line(reg_reader *r, const char *s, size_t n)
{
    const char *end = n > 0 ? s + n - 1 : s;
    while (end > s && *end != ']')
        end--;
    if (end <= s) return fail(r, "a [key line without its ']'");
    const char *k = s + 1;
    r->deleted = *k == '-';
    if (r->deleted) k++;
    size_t kn = (size_t)(end - k);
    if (kn == 0) return fail(r, "an empty [key]");
    if (kn >= sizeof r->key) return fail(r, "a key name longer than 1 KiB");
    memcpy(r->key, k, kn);
    r->key[kn] = '\0';
    r->in_key = true;
    return true;
}

bool gp_reg_parse(const char *buf, size_t len, gp_reg_value_fn fn, void *ud, char *err,
                  size_t errlen)
{
    char *decoded = NULL;
    const unsigned char *b = (const unsigned char *)buf;
    if (len > GP_REG_MAX_INPUT) {
        snprintf(err, errlen, "larger than 16 MiB: not a registry export doctor reads");
        return false;
    }
    if (gp_looks_utf16le(b, len)) {
        decoded = gp_utf16le_to_utf8(b, len, &len);
        if (!decoded) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        buf = decoded;
    } else if (len >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) {
        buf += 3, len -= 3;
    }
    reg_reader r = {.s = buf, .len = len, .err = err, .errlen = errlen};
    bool ok = true, stop = false, header = false;
    size_t n;
    int got = 0;
    while (ok && !stop && (got = logical_line(&r, &n)) > 0) {
        char *s = r.buf;
        while (n > 0 && (*s == ' ' || *s == '\t'))
            s++, n--;
        if (n == 0 || *s == ';') continue;
        if (!header) {
            if (n == 36 && strncmp(s, "Windows Registry Editor Version 5.00", 36) == 0)
                r.v5 = true;
            else if (!(n == 8 && strncmp(s, "REGEDIT4", 8) == 0))
                ok = fail(&r, "not a registry export (the first line is neither 'Windows "
                              "Registry Editor Version 5.00' nor 'REGEDIT4')");
            header = true;
            continue;
        }
        if (*s == '[')
            ok = key_line(&r, s, n);
        else if (*s == '"' || *s == '@')
            ok = value_line(&r, s, n, fn, ud, &stop);
        else
            ok = fail(&r, "neither a [key] nor a \"name\"=value line");
    }
    if (ok && !stop && got < 0) ok = false;
    if (ok && !header) ok = fail(&r, "empty: not a registry export");
    free(r.buf);
    free(decoded);
    return ok;
}
