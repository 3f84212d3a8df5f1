/* source.c — see source.h: bounded file views, findings with snippets, and suppressions. */
#include "audit/source.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fs.h"

#define RELEASE_MARGIN ((256u * 1024u) >> GP_AUDIT_SCALE_DOWN)

void gp_audit_source_release(gp_audit_source *s, size_t keep)
{
    if (!s->mapped || keep < RELEASE_MARGIN * 2) return;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t upto = (keep - RELEASE_MARGIN) / page * page;
    if (upto <= s->released + 4 * RELEASE_MARGIN) return; /* release in large steps */
    /* Dropping file-backed pages of a read-only private mapping: they are re-read from the
     * page cache if touched again, so this only bounds our resident set. */
    gp_map_advise(s->data + s->released, upto - s->released, GP_MAP_DONTNEED);
    s->released = upto;
}

void gp_audit_source_rewind(gp_audit_source *s, size_t pos)
{
    if (pos >= s->released) return;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    s->released = pos / page * page;
}

const char *gp_audit_source_memchr_chunked(gp_audit_source *s, size_t from, size_t to, int c)
{
    while (from < to && to - from > GP_AUDIT_CHUNK) {
        const char *hit = memchr(s->data + from, c, GP_AUDIT_CHUNK);
        if (hit) return hit;
        from += GP_AUDIT_CHUNK;
        gp_audit_source_release(s, from);
    }
    return from < to ? memchr(s->data + from, c, to - from) : NULL;
}

void gp_audit_result_init(gp_audit_result *r)
{
    memset(r, 0, sizeof *r);
}

void gp_audit_result_free(gp_audit_result *r)
{
    free(r->f);
    free(r->sup);
    gp_strbuf_free(&r->text);
    gp_strbuf_free(&r->facts);
    memset(r, 0, sizeof *r);
}

void gp_audit_fact(gp_audit_result *r, int kind, unsigned flags, const char *text, size_t n)
{
    if (n > GP_AUDIT_FACT_MAX) n = GP_AUDIT_FACT_MAX;
    char head[3] = {(char)kind, (char)flags, (char)n};
    gp_strbuf_append(&r->facts, head, 3);
    gp_strbuf_append(&r->facts, text, n);
}

int gp_audit_fact_next(const char *p, size_t n, size_t *at, unsigned *flags, const char **text,
                       size_t *len)
{
    if (*at + 3 > n) return 0;
    const unsigned char *h = (const unsigned char *)p + *at;
    size_t k = h[2];
    if (*at + 3 + k > n) return 0;
    *flags = h[1];
    *text = p + *at + 3;
    *len = k;
    *at += 3 + k;
    return h[0];
}

size_t gp_audit_utf8_len(const unsigned char *p, size_t n)
{
    unsigned c = p[0];
    if (c < 0x80) return 1;
    size_t need = c >= 0xf0 && c < 0xf5   ? 4
                  : c >= 0xe0 && c < 0xf0 ? 3
                  : c >= 0xc2 && c < 0xe0 ? 2
                                          : 0;
    if (!need || need > n) return 0;
    for (size_t k = 1; k < need; k++)
        if ((p[k] & 0xc0) != 0x80) return 0;
    if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0) || (c == 0xf0 && p[1] < 0x90) ||
        (c == 0xf4 && p[1] >= 0x90))
        return 0; /* overlong, a surrogate, or past U+10FFFF */
    return need;
}

/* Appends the UTF-8 sequence at p[0, n), or U+FFFD for a byte that starts none; its length. */
static size_t put_utf8(gp_strbuf *sb, const unsigned char *p, size_t n)
{
    size_t k = gp_audit_utf8_len(p, n);
    if (!k) {
        gp_strbuf_puts(sb, "\xef\xbf\xbd");
        return 1;
    }
    gp_strbuf_append(sb, (const char *)p, k);
    return k;
}

void gp_audit_utf8_append(gp_strbuf *sb, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;)
        i += put_utf8(sb, p + i, n - i);
}

/* A snippet: valid UTF-8 kept, other control bytes as spaces, invalid bytes as U+FFFD. */
static void snip_append(gp_strbuf *sb, const unsigned char *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = p[i];
        if (c >= 0x20 && c < 0x7f) { /* a run of printable ASCII in one append */
            size_t j = i + 1;
            while (j < n && p[j] >= 0x20 && p[j] < 0x7f)
                j++;
            gp_strbuf_append(sb, (const char *)p + i, j - i);
            i = j;
            continue;
        }
        if (c < 0x80) {
            gp_strbuf_putc(sb, ' ');
            i++;
            continue;
        }
        i += put_utf8(sb, p + i, n - i);
    }
}

/* Code points from the line's start, or bytes when that is more than RELEASE_MARGIN back: a
 * function of the positions alone (so every way through a file gives the same column), reading
 * at most RELEASE_MARGIN bytes (gp_audit_add maps them in again where the reader released them).
 */
static uint32_t column_of(const gp_audit_source *s, size_t line_off, size_t off)
{
    if (off < line_off) return 1;
    if (off - line_off > RELEASE_MARGIN) return (uint32_t)(off - line_off + 1);
    uint32_t col = 1;
    for (size_t i = line_off; i < off; i++)
        if (((unsigned char)s->data[i] & 0xc0) != 0x80) col++; /* code points, not bytes */
    return col;
}

long gp_audit_add(gp_audit_result *r, gp_audit_source *s, int rule, bool guarded, uint32_t line,
                  size_t line_off, size_t off, size_t len)
{
    const gp_audit_rule *ru = gp_audit_rule_get(rule);
    if (!ru) return -1;
    gp_audit_sev sev = ru->severity;
    if (guarded) {
        if (ru->guarded_as >= 0) {
            rule = ru->guarded_as;
            sev = gp_audit_rule_get(rule)->severity;
        } else {
            sev = ru->guarded;
        }
    }
    if (sev == GP_SEV_NONE) return -1;
    if (r->nf >= GP_AUDIT_MAX_FINDINGS_PER_FILE) {
        r->dropped++;
        return -1;
    }
    if (r->nf == r->capf) {
        size_t nc = r->capf ? r->capf * 2 : 16;
        gp_audit_finding *nf = realloc(r->f, nc * sizeof *nf);
        if (!nf) return -1;
        r->f = nf;
        r->capf = nc;
    }
    /* The snippet: up to 60 bytes before the match and 100 after, within the line. A finding
     * may be reported after the reader released its line (at the end of a long logical line):
     * the bytes read here map in again, and the next release drops them again. */
    size_t lo = off > 60 ? off - 60 : 0;
    if (lo < line_off) lo = line_off;
    size_t first = off - line_off > RELEASE_MARGIN ? lo : line_off; /* what column_of reads too */
    if (first < s->released) gp_audit_source_rewind(s, first);
    size_t hi = off + (len > 100 ? len : 100);
    if (hi > s->size) hi = s->size;
    if (hi > off + 160) hi = off + 160;
    const char *nl = memchr(s->data + off, '\n', hi - off);
    if (nl) hi = (size_t)(nl - s->data);
    while (lo < off && (s->data[lo] == ' ' || s->data[lo] == '\t'))
        lo++;
    while (hi > off + len &&
           (s->data[hi - 1] == ' ' || s->data[hi - 1] == '\t' || s->data[hi - 1] == '\r'))
        hi--;
    gp_audit_finding *f = &r->f[r->nf];
    f->marks = 0;
    if (lo - line_off > 256) /* (not read again: the bytes so far back may be released) */
        f->marks |= GP_MARK_CUT_BEFORE;
    for (size_t q = line_off; q < lo && !f->marks; q++)
        if (s->data[q] != ' ' && s->data[q] != '\t') f->marks |= GP_MARK_CUT_BEFORE;
    if (hi < s->size && s->data[hi] != '\n' && s->data[hi] != '\r') {
        size_t q = hi; /* (only blanks up to the line's end is no cut) */
        while (q < s->size && q < hi + 64 && (s->data[q] == ' ' || s->data[q] == '\t'))
            q++;
        if (q < s->size && s->data[q] != '\n' && s->data[q] != '\r') f->marks |= GP_MARK_CUT_AFTER;
    }
    f->rule = (uint16_t)rule;
    f->severity = (uint8_t)sev;
    f->guarded = guarded;
    f->line = line;
    f->col = column_of(s, line_off, off);
    f->cell = r->cell;
    f->file_line = f->file_col = f->fact = 0;
    f->snip_off = (uint32_t)r->text.len;
    snip_append(&r->text, (const unsigned char *)s->data + lo, hi - lo);
    f->snip_len = (uint32_t)(r->text.len - f->snip_off);
    return (long)r->nf++;
}

void gp_audit_guard_finding(gp_audit_result *r, size_t i)
{
    gp_audit_finding *f = &r->f[i];
    if (f->guarded) return;
    const gp_audit_rule *ru = gp_audit_rule_get(f->rule);
    f->guarded = 1;
    if (ru->guarded_as >= 0) {
        f->rule = (uint16_t)ru->guarded_as;
        f->severity = (uint8_t)gp_audit_rule_get(ru->guarded_as)->severity;
    } else {
        f->severity = (uint8_t)ru->guarded; /* NONE: dropped when suppressions apply */
    }
}

void gp_audit_note_comment(gp_audit_result *r, const char *text, size_t len, uint32_t line,
                           bool alone)
{
    static const char key[] = "gpuport: ignore";
    if (len > GP_AUDIT_NOTE_MAX) len = GP_AUDIT_NOTE_MAX;
    if (len < sizeof key - 1) return;
    const char *p = NULL;
    for (const char *q = text; (q = memchr(q, 'g', len - (size_t)(q - text))) != NULL; q++) {
        if ((size_t)(text + len - q) < sizeof key - 1) break;
        if (memcmp(q, key, sizeof key - 1) == 0) {
            p = q + sizeof key - 1;
            break;
        }
    }
    if (!p) return;
    if (r->nsup == r->capsup) {
        size_t nc = r->capsup ? r->capsup * 2 : 4;
        gp_audit_suppress *ns = realloc(r->sup, nc * sizeof *ns);
        if (!ns) return;
        r->sup = ns;
        r->capsup = nc;
    }
    gp_audit_suppress *s = &r->sup[r->nsup++];
    s->line = line;
    s->cell = r->cell;
    s->alone = alone;
    s->rules[0] = '\0';
    const char *end = text + len;
    if (p < end && *p == '[') {
        size_t k = 0;
        for (p++; p < end && *p != ']' && k + 1 < sizeof s->rules; p++)
            if (!isspace((unsigned char)*p)) s->rules[k++] = *p;
        s->rules[k] = '\0';
        if (k == 0) s->rules[0] = ','; /* "ignore[]" names no rule: ignores nothing */
        s->rules[k ? k : 1] = '\0';
    }
}

static bool suppress_names(const char *list, const char *id)
{
    if (!list[0]) return true;
    size_t n = strlen(id);
    for (const char *p = list; *p;) {
        const char *c = strchr(p, ',');
        size_t k = c ? (size_t)(c - p) : strlen(p);
        if (k == n && memcmp(p, id, n) == 0) return true;
        if (!c) break;
        p = c + 1;
    }
    return false;
}

void gp_audit_apply_suppressions(gp_audit_result *r)
{
    size_t w = 0;
    for (size_t i = 0; i < r->nf; i++) {
        gp_audit_finding *f = &r->f[i];
        bool drop = f->severity == GP_SEV_NONE;
        const char *id = gp_audit_rule_get(f->rule)->id;
        for (size_t k = 0; !drop && k < r->nsup; k++) {
            const gp_audit_suppress *s = &r->sup[k];
            if (s->cell != f->cell) continue;
            if (s->line == f->line || (s->alone && s->line + 1 == f->line))
                drop = suppress_names(s->rules, id);
        }
        if (!drop) r->f[w++] = *f;
    }
    r->nf = w;
}

/* Does s[0, k) equal the upper-case word w (of length k), ignoring case? */
static bool upper_eq(const char *s, const char *w, size_t k)
{
    for (size_t j = 0; j < k; j++)
        if (toupper((unsigned char)s[j]) != w[j]) return false;
    return true;
}

static const struct {
    const char *w;
    size_t n;
} switch_parts[] = {{"CUDA", 4},    {"CUDACC", 6},  {"NVCC", 4},   {"GPU", 3},    {"GPUS", 4},
                    {"NCCL", 4},    {"CUBLAS", 6},  {"CUDNN", 5},  {"CUDART", 6}, {"HIP", 3},
                    {"CUTLASS", 7}, {"TRITON", 6},  {"NVIDIA", 6}, {"CUFFT", 5},  {"CUSPARSE", 8},
                    {"CURAND", 6},  {"CUSOLVER", 8}};

const char *gp_audit_cuda_switch_part(size_t i)
{
    return i < sizeof switch_parts / sizeof switch_parts[0] ? switch_parts[i].w : NULL;
}

bool gp_audit_word_is_cuda_switch(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && s[i] == '_')
            i++;
        size_t st = i;
        while (i < n && s[i] != '_')
            i++;
        size_t k = i - st;
        if (k < 3 || k > 31) continue;
        char f =
            (char)toupper((unsigned char)s[st]); /* every part below starts with one of these */
        if (f != 'C' && f != 'N' && f != 'G' && f != 'H' && f != 'T') continue;
        for (size_t j = 0; j < sizeof switch_parts / sizeof switch_parts[0]; j++)
            if (switch_parts[j].n == k && switch_parts[j].w[0] == f &&
                upper_eq(s + st, switch_parts[j].w, k))
                return true;
        if (k >= 4 && upper_eq(s + st, "CUDA", 4)) return true; /* CUDAToolkit, CUDA12 */
    }
    return false;
}
