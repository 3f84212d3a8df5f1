/* prefilter.c — see prefilter.h. A multi-word search: every word (with its class character
 * expanded into concrete words) is keyed on 3-byte windows; a 64 Ki-entry filter over a hash of
 * a window rejects almost every position with a load, a multiply and a test, and the few that
 * pass are checked exactly. When every word has at least L bytes, only every (L-2)th position is
 * looked at, each word being keyed on its windows at offsets 0 .. L-3: any occurrence covers one
 * of the looked-at positions with one of those windows. Built once per language, read-only
 * afterwards. */
#include "audit/prefilter.h"

#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "audit/lex_c.h"
#include "audit/lex_python.h"
#include "audit/scanners.h"

#define PF_MAX_PATS 4096
#define PF_MAX_LEN  47
#define PF_SLOTS    1024
#define PF_MAX_TAIL 8
#define PF_MAX_STEP 4

typedef struct pf_pat {
    uint32_t gram; /* the keyed window's three bytes, little-endian */
    uint8_t len;
    bool word;      /* must not follow a name character */
    uint8_t anchor; /* the keyed window's offset in the word */
    char text[PF_MAX_LEN];
} pf_pat;

typedef struct pf_set {
    bool always;                               /* a word too short to key on: every file matches */
    uint8_t filter[65536];                     /* a byte per hash value: one load and a test */
    uint16_t first[PF_SLOTS], count[PF_SLOTS]; /* patterns by slot (sorted) */
    pf_pat *pats;
    size_t n;
    const char *tail[PF_MAX_TAIL]; /* words that count only near the end of the file */
    size_t ntail;
    bool name_char[256]; /* the language's name characters (for `word`) */
    size_t step;         /* positions looked at: every step-th */
} pf_set;

static pf_set py_set, c_set;
static pthread_once_t py_once = PTHREAD_ONCE_INIT, c_once = PTHREAD_ONCE_INIT;

static inline uint32_t pf_hash(uint32_t gram)
{
    return gram * 0x9E3779B1u;
}

static inline unsigned pf_slot(uint32_t gram)
{
    return pf_hash(gram) >> 22; /* 10 bits */
}

static uint32_t gram_of(const char *p)
{
    return (uint32_t)(unsigned char)p[0] | (uint32_t)(unsigned char)p[1] << 8 |
           (uint32_t)(unsigned char)p[2] << 16;
}

static bool class_has(char cls, int c)
{
    switch (cls) {
    case 'U':
        return isupper(c);
    case 'L':
        return islower(c);
    case 'E':
        return c == '_' || isupper(c) || isdigit(c);
    default:
        return false;
    }
}

static void set_add(pf_set *s, const char *text, size_t len, bool word, size_t anchor)
{
    if (len < 3 || len > PF_MAX_LEN || anchor + 3 > len || s->n == PF_MAX_PATS) {
        s->always = true; /* cannot be keyed (or no room): stay exact by matching everything */
        return;
    }
    pf_pat *p = &s->pats[s->n++];
    memcpy(p->text, text, len);
    p->len = (uint8_t)len;
    p->word = word;
    p->anchor = (uint8_t)anchor;
    p->gram = gram_of(text + anchor);
}

/* The concrete words of a trigger list (class characters expanded), through `add`. */
static void set_expand(pf_set *s, const gp_audit_trigger *t, size_t nt, size_t *minlen, bool add)
{
    for (size_t i = 0; i < nt; i++) {
        size_t len = strlen(t[i].text);
        if (t[i].next == '$') continue; /* tail words are searched apart */
        size_t wl = t[i].next ? len + 1 : len;
        if (wl < *minlen) *minlen = wl;
        if (!add) continue;
        if (!t[i].next) {
            for (size_t a = 0; a < s->step; a++)
                set_add(s, t[i].text, len, t[i].word, a);
            continue;
        }
        char buf[PF_MAX_LEN + 1];
        if (len + 1 > PF_MAX_LEN) {
            s->always = true;
            continue;
        }
        memcpy(buf, t[i].text, len);
        for (int c = 0; c < 256; c++)
            if (class_has(t[i].next, c)) {
                buf[len] = (char)c;
                for (size_t a = 0; a < s->step; a++)
                    set_add(s, buf, len + 1, t[i].word, a);
            }
    }
}

static int pat_cmp(const void *a, const void *b)
{
    const pf_pat *x = a, *y = b;
    unsigned sx = pf_slot(x->gram), sy = pf_slot(y->gram);
    if (sx != sy) return sx < sy ? -1 : 1;
    return x->len < y->len ? -1 : x->len > y->len; /* short words first: they decide sooner */
}

static void set_build(pf_set *s, const gp_audit_trigger *t, size_t nt)
{
    s->pats = calloc(PF_MAX_PATS, sizeof *s->pats);
    if (!s->pats) {
        s->always = true;
        return;
    }
    for (size_t i = 0; i < nt; i++)
        if (t[i].next == '$') {
            size_t len = strlen(t[i].text);
            if (s->ntail == PF_MAX_TAIL || len == 0 || len > GP_AUDIT_TAIL)
                s->always = true;
            else
                s->tail[s->ntail++] = t[i].text;
        }
    size_t minlen = SIZE_MAX;
    set_expand(s, t, nt, &minlen, false);
    s->step = minlen >= 3 && minlen != SIZE_MAX ? minlen - 2 : 1;
    if (s->step > PF_MAX_STEP) s->step = PF_MAX_STEP;
    set_expand(s, t, nt, &minlen, true);
    qsort(s->pats, s->n, sizeof *s->pats, pat_cmp);
    for (size_t i = s->n; i-- > 0;) {
        unsigned k = pf_slot(s->pats[i].gram);
        s->first[k] = (uint16_t)i;
        s->count[k]++;
        uint32_t h = pf_hash(s->pats[i].gram) >> 16;
        s->filter[h] = 1;
    }
}

static void py_build(void)
{
    for (int c = 0; c < 256; c++)
        py_set.name_char[c] = gp_py_is_name_char((unsigned char)c);
    const gp_audit_trigger *t;
    size_t n = gp_audit_python_triggers(&t);
    set_build(&py_set, t, n);
}

static void c_build(void)
{
    for (int c = 0; c < 256; c++)
        c_set.name_char[c] = gp_c_is_ident_char((unsigned char)c);
    const gp_audit_trigger *t;
    size_t n = gp_audit_c_triggers(&t);
    set_build(&c_set, t, n);
}

/* The earliest start >= from of a word whose keyed window is at d[i] (three bytes `gram`), or
 * SIZE_MAX. */
static size_t set_check(const pf_set *s, const char *d, size_t n, size_t i, uint32_t gram,
                        size_t from)
{
    unsigned k = pf_slot(gram);
    size_t best = SIZE_MAX;
    for (size_t j = s->first[k], e = j + s->count[k]; j < e; j++) {
        const pf_pat *p = &s->pats[j];
        if (p->gram != gram || i < p->anchor) continue;
        size_t at = i - p->anchor;
        if (at < from || at >= best || p->len > n - at) continue;
        size_t m = 0; /* words are short: a loop beats a library call */
        while (m < p->len && d[at + m] == p->text[m])
            m++;
        if (m == p->len && !(p->word && at > 0 && s->name_char[(unsigned char)d[at - 1]]))
            best = at;
    }
    return best;
}

/* The earliest tail word at or after `from`, or SIZE_MAX. */
static size_t tail_find(const pf_set *s, const char *d, size_t n, size_t from)
{
    size_t lo = n > GP_AUDIT_TAIL ? n - GP_AUDIT_TAIL : 0;
    if (lo < from) lo = from;
    size_t best = SIZE_MAX;
    for (size_t k = 0; k < s->ntail; k++) {
        size_t len = strlen(s->tail[k]);
        for (size_t i = lo; i + len <= n && i < best; i++)
            if (memcmp(d + i, s->tail[k], len) == 0) best = i;
    }
    return best;
}

/* The start of the earliest word at or after `from`, or n. Positions are sampled every `step`
 * bytes from `from`: the first sampled position with a match holds the earliest start, since
 * every word is keyed at each of its first `step` offsets and set_check takes the minimum. */
static size_t set_find(const pf_set *s, const char *d, size_t n, size_t from)
{
    if (from >= n) return n;
    if (s->always) return from;
    size_t best = tail_find(s, d, n, from);
    size_t i = from;
    const size_t step = s->step; /* locals: stores could otherwise alias them */
    const uint8_t *filter = s->filter;
    /* a word starting before a tail word is seen within `step` positions past it */
    const size_t stop = best == SIZE_MAX ? SIZE_MAX : best + step;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; i + 4 <= n && i < stop; i += step) {
        uint32_t w;
        memcpy(&w, d + i, 4);
        uint32_t g = w & 0xFFFFFFu;
        if (filter[pf_hash(g) >> 16]) {
            size_t at = set_check(s, d, n, i, g, from);
            if (at < best) return at;
        }
    }
#endif
    for (; i + 3 <= n && i < stop; i += step) {
        uint32_t g = gram_of(d + i);
        if (filter[pf_hash(g) >> 16]) {
            size_t at = set_check(s, d, n, i, g, from);
            if (at < best) return at;
        }
    }
    return best < n ? best : n;
}

static pf_set *set_of(gp_audit_pf which)
{
    switch (which) {
    case GP_PF_PYTHON:
        pthread_once(&py_once, py_build);
        return &py_set;
    case GP_PF_C:
        pthread_once(&c_once, c_build);
        return &c_set;
    }
    return NULL;
}

size_t gp_audit_prefilter_find(gp_audit_pf which, const char *data, size_t size, size_t from)
{
    return set_find(set_of(which), data, size, from);
}

bool gp_audit_prefilter_may_match(gp_audit_lang lang, const char *data, size_t size)
{
    switch (lang) {
    case GP_AL_PYTHON:
        return gp_audit_prefilter_find(GP_PF_PYTHON, data, size, 0) < size;
    case GP_AL_C:
        return gp_audit_prefilter_find(GP_PF_C, data, size, 0) < size;
    default:
        return true;
    }
}

bool gp_audit_prefilter_skip(const gp_audit_source *s, gp_audit_lang lang, const char *path,
                             gp_audit_result *r)
{
    if (s->mapped) return false;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    switch (lang) {
    case GP_AL_PYTHON:
        if (gp_audit_prefilter_may_match(lang, s->data, s->size)) return false;
        /* what gp_audit_scan_python decides from the name alone */
        if (gp_audit_python_name_is_cpu_impl(base)) r->cpu_impl = true;
        return true;
    case GP_AL_C:
        /* a source named as a CPU implementation is judged by its function bodies: lex it */
        if (gp_audit_c_path_is_cpu_named(path)) return false;
        return !gp_audit_prefilter_may_match(lang, s->data, s->size);
    default:
        return false;
    }
}
