/* prefilter.c — see prefilter.h. A multi-word search: every word (with its class character
 * expanded into concrete words) is keyed on 3-byte windows; a 64 Ki-entry filter over a hash of
 * a window rejects almost every position with a load, a multiply and a test, and the few that
 * pass are checked exactly. When every word has at least L bytes, only every (L-2)th position is
 * looked at, each word being keyed on its windows at offsets 0 .. L-3: any occurrence covers one
 * of the looked-at positions with one of those windows. Where the CPU has byte shuffles (AVX2
 * on x86-64, NEON on AArch64) a second set keys every word on one window, its rarest (by the
 * list of common 3-byte strings in trigrams.h: `tensorrt` on "rrt", not on the "ten" of every
 * `tensor`), and the positions are screened 32 or 16 at a time by nibble tables (the "Teddy"
 * method of Hyperscan and ripgrep): each word is given one of eight buckets, each table byte
 * holds a bit per bucket, and a position passes when its three bytes agree on some bucket; the
 * few that pass go through the filter and the exact check. A word is found at its window, up to
 * max_anchor bytes after its start, so the search looks that far past the first start it finds
 * for an earlier one. Built once per language, read-only afterwards. */
#include "audit/prefilter.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "audit/lex_c.h"
#include "audit/lex_python.h"
#include "audit/scanners.h"
#include "audit/trigrams.h"
#include "util/thread.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define PF_AVX2 1
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#define PF_NEON 1
#endif

#define PF_MAX_PATS 4096
#define PF_MAX_LEN  47
#define PF_SLOTS    1024
#define PF_MAX_TAIL 8
#define PF_MAX_STEP 4

typedef struct pf_pat {
    uint32_t gram;            /* the keyed window's three bytes, little-endian */
    uint64_t head, head_mask; /* the first eight bytes (fewer for short words), as loaded */
    uint8_t len;
    char next;      /* a class the byte after the word must be in (see class_has), or 0 */
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
    bool rare_window;    /* each word keyed on its rarest window only (the vector set) */
    size_t max_anchor;   /* the largest window offset of any word */
    /* the vector screen (sets of step 1): bucket bits by nibble, for each of the first three
     * bytes of a word */
    uint8_t lo[3][16], hi[3][16];
} pf_set;

typedef struct pf_lang {
    pf_set sampled; /* step-sampled, for CPUs without byte shuffles */
    pf_set vec;     /* every position, screened by the nibble tables */
    bool use_vec;   /* the CPU has the screen's instructions */
} pf_lang;

static pf_lang py_set, c_set;
static gp_once py_once = GP_ONCE_INIT, c_once = GP_ONCE_INIT;

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

static void set_add(pf_set *s, const char *text, size_t len, char next, bool word, size_t anchor)
{
    if (len < 3 || len > PF_MAX_LEN || anchor + 3 > len || s->n == PF_MAX_PATS) {
        s->always = true; /* cannot be keyed (or no room): stay exact by matching everything */
        return;
    }
    pf_pat *p = &s->pats[s->n++];
    memcpy(p->text, text, len);
    p->len = (uint8_t)len;
    size_t h = len < 8 ? len : 8;
    unsigned char hb[8] = {0}, mb[8] = {0};
    memcpy(hb, text, h);
    memset(mb, 0xff, h);
    memcpy(&p->head, hb, 8);
    memcpy(&p->head_mask, mb, 8);
    p->next = next;
    p->word = word;
    p->anchor = (uint8_t)anchor;
    p->gram = gram_of(text + anchor);
}

/* The offset of a word's least common 3-byte window: one not in common_trigrams, or the one
 * furthest down it (the first such window when several are alike). */
static size_t rarest_window(const char *text, size_t len)
{
    const size_t ncommon = sizeof common_trigrams / sizeof common_trigrams[0];
    size_t best = 0, best_rank = 0;
    for (size_t a = 0; a + 3 <= len; a++) {
        uint32_t g = gram_of(text + a);
        size_t rank = 0;
        while (rank < ncommon && common_trigrams[rank] != g)
            rank++;
        if (a == 0 || rank > best_rank) {
            best = a;
            best_rank = rank;
        }
    }
    return best;
}

/* The words of a trigger list, through `add`. A word of three bytes or more keeps its class
 * character as a check on the byte after it; a shorter one is expanded into a concrete word for
 * every byte of its class, so that it can be keyed on three bytes. */
static void set_expand(pf_set *s, const gp_audit_trigger *t, size_t nt, size_t *minlen, bool add)
{
    for (size_t i = 0; i < nt; i++) {
        size_t len = strlen(t[i].text);
        if (t[i].next == '$') continue; /* tail words are searched apart */
        bool expand = t[i].next && len < 3;
        size_t wl = expand ? len + 1 : len; /* the bytes that can be keyed */
        if (wl < *minlen) *minlen = wl;
        if (!add) continue;
        if (!expand) {
            if (s->rare_window)
                set_add(s, t[i].text, len, t[i].next, t[i].word, rarest_window(t[i].text, len));
            else
                for (size_t a = 0; a < s->step; a++)
                    set_add(s, t[i].text, len, t[i].next, t[i].word, a);
            continue;
        }
        char buf[4];
        memcpy(buf, t[i].text, len);
        for (int c = 0; c < 256; c++)
            if (class_has(t[i].next, c)) {
                buf[len] = (char)c;
                for (size_t a = 0; a < s->step; a++)
                    set_add(s, buf, len + 1, 0, t[i].word, a);
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

/* A bucket's nibble sets for the first three bytes of its words. */
typedef struct pf_bucket {
    uint16_t lo[3], hi[3];
} pf_bucket;

/* What a bucket's tables let through: the common 3-byte strings among them, weighted by how
 * common (the list is most frequent first), then how many strings in all. */
static double bucket_cost(const pf_bucket *b)
{
    double c = 1;
    for (int k = 0; k < 3; k++)
        c *= (double)__builtin_popcount(b->lo[k]) * (double)__builtin_popcount(b->hi[k]);
    const size_t ncommon = sizeof common_trigrams / sizeof common_trigrams[0];
    double common = 0;
    for (size_t r = 0; r < ncommon; r++) {
        uint32_t g = common_trigrams[r];
        bool in = true;
        for (int k = 0; k < 3 && in; k++) {
            unsigned byte = g >> (8 * k) & 0xffu;
            in = (b->lo[k] >> (byte & 15) & 1u) && (b->hi[k] >> (byte >> 4) & 1u);
        }
        if (in) common += (double)(ncommon - r);
    }
    return common * 1e6 + c;
}

static void bucket_add(pf_bucket *b, const pf_bucket *g)
{
    for (int k = 0; k < 3; k++) {
        b->lo[k] |= g->lo[k];
        b->hi[k] |= g->hi[k];
    }
}

/* Gives the words of a step-1 set their buckets. A position passes when its three bytes are
 * in some bucket's nibble sets, so a bucket should admit few strings beyond its words, and
 * above all few common ones: the words are grouped by the first two bytes of their windows, and
 * each group (largest first) goes to the bucket whose cost (bucket_cost) grows the least with
 * it. */
static void set_buckets(pf_set *s)
{
    enum { MAXG = 512 }; /* on the stack: the Python and C sets may be built at once */
    uint16_t key[MAXG];
    unsigned cnt[MAXG];
    pf_bucket grp[MAXG];
    size_t ng = 0;
    for (size_t i = 0; i < s->n; i++) {
        const unsigned char *w = (const unsigned char *)s->pats[i].text + s->pats[i].anchor;
        uint16_t k = (uint16_t)(w[0] << 8 | w[1]);
        size_t g = 0;
        while (g < ng && key[g] != k)
            g++;
        if (g == ng) {
            if (ng == MAXG) {
                s->always = true; /* not expected: stay exact by matching everything */
                return;
            }
            key[ng] = k;
            cnt[ng] = 0;
            memset(&grp[ng], 0, sizeof grp[ng]);
            ng++;
        }
        cnt[g]++;
        for (int b = 0; b < 3; b++) {
            grp[g].lo[b] |= (uint16_t)(1u << (w[b] & 15));
            grp[g].hi[b] |= (uint16_t)(1u << (w[b] >> 4));
        }
    }
    size_t order[MAXG];
    for (size_t g = 0; g < ng; g++)
        order[g] = g;
    for (size_t a = 0; a < ng; a++) /* largest groups first */
        for (size_t b = a + 1; b < ng; b++)
            if (cnt[order[b]] > cnt[order[a]]) {
                size_t t = order[a];
                order[a] = order[b];
                order[b] = t;
            }
    pf_bucket bk[8];
    memset(bk, 0, sizeof bk);
    double cost[8] = {0}; /* each bucket's cost as it stands */
    uint8_t bit_of[MAXG];
    for (size_t o = 0; o < ng; o++) {
        size_t g = order[o];
        int best = 0;
        double best_growth = 0, best_cost = 0;
        for (int b = 0; b < 8; b++) {
            pf_bucket t = bk[b];
            bucket_add(&t, &grp[g]);
            double c = bucket_cost(&t);
            if (b == 0 || c - cost[b] < best_growth) {
                best = b;
                best_growth = c - cost[b];
                best_cost = c;
            }
        }
        bucket_add(&bk[best], &grp[g]);
        cost[best] = best_cost;
        bit_of[g] = (uint8_t)(1u << best);
    }
    for (size_t i = 0; i < s->n; i++) {
        const unsigned char *w = (const unsigned char *)s->pats[i].text + s->pats[i].anchor;
        uint16_t k = (uint16_t)(w[0] << 8 | w[1]);
        size_t g = 0;
        while (key[g] != k)
            g++;
        for (int b = 0; b < 3; b++) {
            s->lo[b][w[b] & 15] |= bit_of[g];
            s->hi[b][w[b] >> 4] |= bit_of[g];
        }
    }
}

static void set_build(pf_set *s, const gp_audit_trigger *t, size_t nt, bool every_position)
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
    if (s->step > PF_MAX_STEP || every_position) s->step = every_position ? 1 : PF_MAX_STEP;
    s->rare_window = every_position;
    set_expand(s, t, nt, &minlen, true);
    for (size_t i = 0; i < s->n; i++)
        if (s->pats[i].anchor > s->max_anchor) s->max_anchor = s->pats[i].anchor;
    qsort(s->pats, s->n, sizeof *s->pats, pat_cmp);
    for (size_t i = s->n; i-- > 0;) {
        unsigned k = pf_slot(s->pats[i].gram);
        s->first[k] = (uint16_t)i;
        s->count[k]++;
        uint32_t h = pf_hash(s->pats[i].gram) >> 16;
        s->filter[h] = 1;
    }
    if (every_position) set_buckets(s);
}

static bool vec_ok(void);

static void lang_build(pf_lang *l, const gp_audit_trigger *t, size_t nt,
                       bool (*name_char)(unsigned char))
{
    for (int c = 0; c < 256; c++)
        l->sampled.name_char[c] = l->vec.name_char[c] = name_char((unsigned char)c);
    set_build(&l->sampled, t, nt, false);
    set_build(&l->vec, t, nt, true);
    l->use_vec = vec_ok();
}

static void py_build(void)
{
    const gp_audit_trigger *t;
    size_t n = gp_audit_python_triggers(&t);
    lang_build(&py_set, t, n, gp_py_is_name_char);
}

static void c_build(void)
{
    const gp_audit_trigger *t;
    size_t n = gp_audit_c_triggers(&t);
    lang_build(&c_set, t, n, gp_c_is_ident_char);
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
        size_t m = 0;
        if (n - at >= 8) { /* the first eight bytes in one compare */
            uint64_t v;
            memcpy(&v, d + at, 8);
            if ((v & p->head_mask) != p->head) continue;
            m = p->len < 8 ? p->len : 8;
        }
        while (m < p->len && d[at + m] == p->text[m]) /* words are short: no library call */
            m++;
        if (m < p->len || (p->word && at > 0 && s->name_char[(unsigned char)d[at - 1]])) continue;
        if (p->next && !(at + m < n && class_has(p->next, (unsigned char)d[at + m]))) continue;
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
static size_t set_find(const pf_set *s, const char *d, size_t n, size_t from, size_t lim)
{
    if (from >= n) return n;
    if (s->always) return from;
    size_t best = tail_find(s, d, n, from);
    if (best > lim) best = lim; /* nothing at or past lim is looked for */
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

/* Checks the windows whose bits are set in `bits` (position i + bit): the earliest start of a
 * word keyed on one of them, or SIZE_MAX. */
static inline size_t check_bits(const pf_set *s, const char *d, size_t n, size_t i, uint64_t bits,
                                unsigned shift, size_t from)
{
    size_t best = SIZE_MAX;
    while (bits) {
        unsigned b = (unsigned)__builtin_ctzll(bits);
        size_t p = i + (b >> shift);
        bits &= ~((((uint64_t)1 << (1u << shift)) - 1) << (b & ~((1u << shift) - 1)));
        uint32_t g = gram_of(d + p);
        if (!s->filter[pf_hash(g) >> 16]) continue;
        size_t at = set_check(s, d, n, p, g, from);
        if (at < best) best = at;
    }
    return best;
}

/* A word starting before `best` has its window before best + max_anchor: where to stop. */
static inline void found(const pf_set *s, size_t at, size_t *best, size_t *stop)
{
    if (at >= *best) return;
    *best = at;
    if (at + s->max_anchor < *stop) *stop = at + s->max_anchor;
}

#if defined(PF_AVX2)
/* Screens the windows at [*ip, *stop) 32 at a time while 34 bytes remain, lowering *best (the
 * earliest start found) and *stop with what it finds; sets *ip to where it stopped. */
__attribute__((target("avx2"))) static void vec_find(const pf_set *s, const char *d, size_t n,
                                                     size_t *ip, size_t *best, size_t *stop,
                                                     size_t from)
{
    const __m256i nib = _mm256_set1_epi8(0x0f), zero = _mm256_setzero_si256();
    __m256i lo[3], hi[3];
    for (int b = 0; b < 3; b++) {
        lo[b] =
            _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)s->lo[b]));
        hi[b] =
            _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)s->hi[b]));
    }
    size_t i = *ip;
    for (; i + 34 <= n && i < *stop; i += 32) {
        __m256i m = _mm256_set1_epi8(-1);
        for (int b = 0; b < 3; b++) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(d + i + b));
            __m256i l = _mm256_shuffle_epi8(lo[b], _mm256_and_si256(v, nib));
            __m256i h = _mm256_shuffle_epi8(hi[b], _mm256_and_si256(_mm256_srli_epi16(v, 4), nib));
            m = _mm256_and_si256(m, _mm256_and_si256(l, h));
        }
        uint32_t bits = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(m, zero));
        if (bits) found(s, check_bits(s, d, n, i, bits, 0, from), best, stop);
    }
    *ip = i;
}

static bool vec_ok(void)
{
    return __builtin_cpu_supports("avx2");
}
#elif defined(PF_NEON)
static void vec_find(const pf_set *s, const char *d, size_t n, size_t *ip, size_t *best,
                     size_t *stop, size_t from)
{
    const uint8x16_t nib = vdupq_n_u8(0x0f);
    uint8x16_t lo[3], hi[3];
    for (int b = 0; b < 3; b++) {
        lo[b] = vld1q_u8(s->lo[b]);
        hi[b] = vld1q_u8(s->hi[b]);
    }
    size_t i = *ip;
    for (; i + 18 <= n && i < *stop; i += 16) {
        uint8x16_t m = vdupq_n_u8(0xff);
        for (int b = 0; b < 3; b++) {
            uint8x16_t v = vld1q_u8((const uint8_t *)d + i + b);
            uint8x16_t l = vqtbl1q_u8(lo[b], vandq_u8(v, nib));
            uint8x16_t h = vqtbl1q_u8(hi[b], vshrq_n_u8(v, 4));
            m = vandq_u8(m, vandq_u8(l, h));
        }
        uint8x16_t nz = vtstq_u8(m, m);
        uint64_t bits =
            vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(nz), 4)), 0);
        if (bits) /* four bits a position */
            found(s, check_bits(s, d, n, i, bits, 2, from), best, stop);
    }
    *ip = i;
}

static bool vec_ok(void)
{
    return true;
}
#endif

#if !defined(PF_AVX2) && !defined(PF_NEON)
static bool vec_ok(void)
{
    return false;
}
#endif

/* The vector screen where the CPU has it, then every remaining position one by one. */
static size_t vec_set_find(const pf_set *s, const char *d, size_t n, size_t from, size_t lim,
                           bool use_vec)
{
    if (from >= n) return n;
    if (s->always) return from;
    size_t best = tail_find(s, d, n, from);
    if (best > lim) best = lim;                   /* nothing at or past lim is looked for */
    size_t i = from, stop = best + s->max_anchor; /* windows of words starting before best */
#if defined(PF_AVX2) || defined(PF_NEON)
    if (use_vec) vec_find(s, d, n, &i, &best, &stop, from);
#else
    (void)use_vec;
#endif
    for (; i + 3 <= n && i < stop; i++) {
        uint32_t g = gram_of(d + i);
        if (s->filter[pf_hash(g) >> 16]) found(s, set_check(s, d, n, i, g, from), &best, &stop);
    }
    return best < n ? best : n;
}

static const pf_lang *lang_of(gp_audit_pf which)
{
    switch (which) {
    case GP_PF_PYTHON:
        gp_once_call(&py_once, py_build);
        return &py_set;
    case GP_PF_C:
        gp_once_call(&c_once, c_build);
        return &c_set;
    }
    return NULL;
}

size_t gp_audit_prefilter_find_before(gp_audit_pf which, const char *data, size_t size, size_t from,
                                      size_t lim)
{
    const pf_lang *l = lang_of(which);
    if (lim > size) lim = size;
    if (l->use_vec) return vec_set_find(&l->vec, data, size, from, lim, true);
    return set_find(&l->sampled, data, size, from, lim);
}

size_t gp_audit_prefilter_find(gp_audit_pf which, const char *data, size_t size, size_t from)
{
    return gp_audit_prefilter_find_before(which, data, size, from, size);
}

/* For the tests: the two searches side by side. */
size_t gp_audit_prefilter_find_how(gp_audit_pf which, const char *data, size_t size, size_t from,
                                   bool vector)
{
    const pf_lang *l = lang_of(which);
    return vector ? vec_set_find(&l->vec, data, size, from, size, l->use_vec)
                  : set_find(&l->sampled, data, size, from, size);
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
