/* prelude.h — the checked CPU build's second prelude, placed after the dialect's (kernel.h) in
 * front of an instrumented kernel source, and the ABI between such a program and the runtime's
 * checker (the runtime includes it with GP_CK_ABI_ONLY for the types).
 *
 * The instrumentation rewrites every memory access of the kernels and helpers into a call of the
 * hooks below, naming its site (a row of the program's site table: file, line, column, what it
 * accesses) and the work-item (its linear local id `li`, passed explicitly so the hooks do not
 * care whether work-items run as fibers or as loops). A hook checks the address against the
 * launch's region the access is known to point into (a kernel parameter, a shared array) or
 * searches the regions, updates the shadow state of racecheck and initcheck, and returns the
 * address to use: the real one, or a sink when the access must not happen (out of bounds). The
 * fast paths are inline; anything to report goes to the runtime through the context's function
 * pointers. */
#ifndef GPUPORT_CHECK_PRELUDE_H
#define GPUPORT_CHECK_PRELUDE_H

#include <stdint.h>

#define GP_CK_ABI 2

/* the checks (the same bits as GP_CHECK_* of gpuport.h) */
enum { GP_CK_MEM = 1, GP_CK_RACE = 2, GP_CK_SYNC = 4, GP_CK_INIT = 8, GP_CK_UNIFORM = 16 };

/* what a site does */
enum {
    GP_CK_READ = 1,
    GP_CK_WRITE = 2,
    GP_CK_RMW = 3,    /* read and write: +=, ++ */
    GP_CK_ATOMIC = 4, /* with READ, and WRITE when it writes (a compare-exchange may not) */
    GP_CK_CAS = 16,   /* with ATOMIC: a compare-exchange */
    GP_CK_SITE_BARRIER = 8,
    GP_CK_SITE_SIMD = 9, /* a gp_simd_* operation */
    GP_CK_SITE_SIMD_BARRIER = 10,
    GP_CK_SITE_RETURN = 11, /* a return of the kernel body */
    GP_CK_SITE_END = 12,    /* the end of the kernel body */
    GP_CK_SITE_INDEX = 13,  /* an index of a private or constant array */
    GP_CK_SITE_CALL = 14,   /* a kernel's call of a helper that reaches a barrier */
};

#define GP__CK_AK (GP_CK_ATOMIC | GP_CK_READ | GP_CK_WRITE) /* an atomic that writes */

/* the regions of a launch: kernel parameters 0..15, static shared arrays from 16, then the
 * program's constant tables */
#define GP_CK_REG_SHARED(k) (16u + (k))
#define GP_CK_MAX_SHARED    32u
#define GP_CK_REG_CONST0    (16u + GP_CK_MAX_SHARED)
#define GP_CK_MAX_CONST     32u
#define GP_CK_MAX_REGIONS   (GP_CK_REG_CONST0 + GP_CK_MAX_CONST)
#define GP_CK_REG_SEARCH    0xffffu /* provenance unknown: the hook searches */

enum {
    GP_CK_R_BOUND = 1,    /* the region exists in this launch */
    GP_CK_R_SHARED = 2,   /* shared memory: 16-byte shadow cells, one thread */
    GP_CK_R_READONLY = 4, /* GP_CBUF, constant tables */
};

typedef struct gp_ck_region {
    uintptr_t base, size; /* bytes */
    uint64_t *race;       /* racecheck cells: global one u64 per 4-byte word, shared three */
    uint64_t *arace;      /* global racecheck: the atomics' cells, one u64 per 4-byte word */
    uint32_t *aseen;      /* global racecheck: set once an atomic touched the buffer */
    uint32_t *init;       /* global initcheck: a bit per word, set when written (NULL: untracked) */
    uint32_t flags;       /* GP_CK_R_* */
    uint32_t esize;       /* the element size the object was declared with (for messages) */
} gp_ck_region;

typedef struct gp_ck_site {
    uint32_t kind; /* GP_CK_READ .. GP_CK_SITE_INDEX */
    uint32_t line, col;
    uint32_t file;      /* index into the program's file names */
    const char *object; /* what it names: "out", "tile", "*p", "gp_barrier" */
    uint32_t helper;    /* it lies in a helper (GP_FUNC), not in a kernel's body */
} gp_ck_site;

typedef struct gp_ck_shared_decl {
    const char *name;
    uint64_t size;
    uint32_t align, esize;
    uint32_t site; /* its declaration */
    uint32_t ndims;
    long long dims[4];
} gp_ck_shared_decl;

enum { GP_CK_K_FIBERS = 1 }; /* the kernel reaches a barrier or SIMD-group operation */

typedef struct gp_ck_kernel {
    uint32_t abi;
    uint32_t flags;
    const char *name;
    uint32_t nshared;
    const gp_ck_shared_decl *shared;
} gp_ck_kernel;

typedef struct gp_ck_program {
    uint32_t abi;
    uint32_t nsites;
    const gp_ck_site *sites;
    uint32_t nfiles;
    const char *const *files;
    uint32_t nconst;
    const void *const *const_addr; /* GP_CONSTANT_DECL tables and other file-scope data */
    const uint64_t *const_size;
    const char *const *const_name;
} gp_ck_program;

/* what a hook reports */
enum {
    GP_CK_EV_OOB = 1,  /* outside the region it points into */
    GP_CK_EV_WILD,     /* in no region, no private variable */
    GP_CK_EV_DIM,      /* an index outside a dimension of a named array */
    GP_CK_EV_READONLY, /* a write to a GP_CBUF buffer or constant table */
    GP_CK_EV_RAW,      /* racecheck: read after another item's write */
    GP_CK_EV_WAR,      /* write after another item's read */
    GP_CK_EV_WAW,      /* write after another item's write */
    GP_CK_EV_UNINIT,   /* initcheck */
    GP_CK_EV_STRAY,    /* a barrier reached where the runtime runs items as a loop */
    GP_CK_EV_DIV,      /* an integer division by zero (or of the minimum by -1) */
    GP_CK_EV_PUNINIT,  /* initcheck: a private variable read before it was written */
    GP_CK_EV_POOB,     /* through a pointer into a private array, outside it (index: the byte
                          offset, extent: the array's bytes, dim: the site naming the array) */
};

typedef struct gp_ck_event {
    uint32_t code; /* GP_CK_EV_* */
    uint32_t li;   /* the work-item (linear local id) */
    uint32_t site;
    uint32_t reg;   /* the region, or GP_CK_REG_SEARCH */
    uint32_t kind;  /* GP_CK_READ / WRITE / RMW / ATOMIC */
    uint32_t size;  /* bytes accessed */
    uintptr_t addr; /* the address */
    long long index;
    uint32_t dim;
    uint32_t other_site; /* races: the other access (0xffffffff: not known) */
    uint64_t other;      /* races: the other work-item: global linear id + 1 (0: not known) */
    uint32_t other_many; /* races: 1 several other items read it; 2 the other side is atomic */
    long long extent;    /* DIM: the dimension's size */
} gp_ck_event;

typedef struct gp_ck_ctx gp_ck_ctx;
struct gp_ck_ctx {
    gp_ck_region reg[GP_CK_MAX_REGIONS];
    void *shared[GP_CK_MAX_SHARED]; /* this group's static shared arrays */
    uint32_t checks;                /* GP_CK_* enabled */
    uint32_t epoch;                 /* the group's barrier interval */
    uint64_t item0;                 /* global linear id of the group's first item */
    uint32_t group_items;
    uint32_t last_reg; /* where the last search ended */
    uint16_t cell_gen; /* the running group's generation of shared cells */
    uint32_t nbound;   /* the bound regions, for the search */
    uint8_t bound[GP_CK_MAX_REGIONS];
    uint32_t *bad;       /* per item: site + 1 of an index fault waiting for its access */
    uint32_t *at_site;   /* per item: the barrier or SIMD-group operation it is at */
    uint32_t *end_site;  /* per item: site + 1 where it ended; GP_CK_END_RETURN if by return */
    uint32_t *call_site; /* per item: site + 1 of the kernel's call into the helper it is in */
    uint8_t *simd_epoch; /* per item: SIMD barriers passed since the group started */
    uint8_t *simd_since; /* per item: a SIMD barrier since the last group barrier */
    const void *group;   /* the running gp_cpu_group */
    uint32_t loop_mode;  /* work-items run as a loop: a barrier here was not expected */
    uintptr_t stack_hi;  /* the running work-item's stack: [current sp, stack_hi) */
    const void *wval;    /* a plain store's value, while its hook runs (uniform writes) */
    uintptr_t waddr;     /* ... and where it goes */
    uint32_t wsize;
    /* a plain read that raced with another item's atomic write, held back: the compare-exchange
     * loop (`old = *p; while ((seen = cas(p, old, ..)) != old) ...`) reads the word plainly and
     * then lets a compare-exchange validate what it read; that read is no race */
    uint32_t spec_code, spec_li, spec_site, spec_reg, spec_kind, spec_other_site;
    uintptr_t spec_addr;
    uint64_t spec_other;
    void *(*slow)(gp_ck_ctx *c, uint32_t li, uint32_t site, uint32_t reg, uint32_t kind,
                  uintptr_t addr, uint32_t size);
    void (*event)(gp_ck_ctx *c, const gp_ck_event *ev);
    void *rt; /* the runtime's state of the launch */
    _Alignas(64) unsigned char sink[4096];
};
#define GP_CK_END_RETURN 0x80000000u

/* Global racecheck cells: 64 bits per 4-byte word.
 *   bits  0..32  the work-item of the recorded access (global linear id + 1; 0: none)
 *   bits 33..45  its group's barrier interval (mod 8192)
 *   bits 46..56  its site (2047: a site past the table's reach)
 *   bits 57..60  the bytes of the word it touched
 *   bit  61      it wrote; bit 62: other items of its group read the word too;
 *   bit  63      items of more than one group read it */
#define GP_CK_G_ITEM(c)  ((c)&0x1ffffffffull)
#define GP_CK_G_EPOCH(c) ((uint32_t)((c) >> 33) & 0x1fffu)
#define GP_CK_G_SITE(c)  ((uint32_t)((c) >> 46) & 0x7ffu)
#define GP_CK_G_MASK(c)  ((uint32_t)((c) >> 57) & 0xfu)
#define GP_CK_G_W        (1ull << 61)
#define GP_CK_G_M        (1ull << 62)
#define GP_CK_G_C        (1ull << 63)

/* Global racecheck cells of atomics (a second shadow, touched only where atomics go):
 *   bits  0..32  the work-item of the last atomic (global linear id + 1; 0: none)
 *   bits 33..45  its group's barrier interval; bits 46..56 its site
 *   bit  57      an atomic of the record wrote; bit 58: atomics of other items of its group in
 *                that interval too; bit 59: atomics of more than one group */
#define GP_CK_A_W (1ull << 57)
#define GP_CK_A_M (1ull << 58)
#define GP_CK_A_C (1ull << 59)

/* Shared cells: 24 bytes per 4-byte word, written by one thread (a group runs on one). */
typedef struct gp_ck_scell {
    uint16_t epoch;        /* the barrier interval of w and r */
    uint16_t w;            /* last writer: local id + 1 */
    uint16_t r;            /* reader: local id + 1; 0x8000 | warp: several of one SIMD group;
                              0xffff: several of different SIMD groups */
    uint16_t wsite, rsite; /* their sites (0xffff: past the reach) */
    uint8_t ws, rs;        /* their SIMD-barrier counts */
    uint8_t masks;         /* bytes written (low four bits), read (high four) */
    uint8_t init;          /* bytes some work-item of the group wrote */
    uint16_t gen;          /* the group it belongs to: cells of earlier groups read as empty */
    uint16_t aw, ar;       /* atomics of the interval that wrote / only read: local id + 1,
                              0xffff: several items */
    uint16_t asite;        /* the last atomic's site */
    uint8_t as, pad;       /* its SIMD-barrier count */
} gp_ck_scell;

#if !defined(GP_CK_ABI_ONLY)
#define GP__CK_INLINE      static inline __attribute__((always_inline, unused))
#define GP__CK_COLD        static __attribute__((noinline, cold, unused))
#define GP__CK_EXPORT      __attribute__((visibility("default")))
#define GP__CK_LIKELY(x)   __builtin_expect(!!(x), 1)
#define GP__CK_UNLIKELY(x) __builtin_expect(!!(x), 0)

GP__CK_COLD void gp__ck_spec_flush(gp_ck_ctx *c)
{
    if (!c->spec_code) return;
    gp_ck_event ev = {c->spec_code,
                      c->spec_li,
                      c->spec_site,
                      c->spec_reg,
                      c->spec_kind,
                      4,
                      c->spec_addr,
                      0,
                      0,
                      c->spec_other_site,
                      c->spec_other,
                      2,
                      0};
    c->spec_code = 0;
    c->event(c, &ev);
}

GP__CK_COLD void gp__ck_race_event(gp_ck_ctx *c, uint32_t code, uint32_t li, uint32_t site,
                                   uint32_t reg, uint32_t kind, uintptr_t addr, uint32_t size,
                                   uint64_t other, uint32_t other_site, uint32_t many)
{
    if (code == GP_CK_EV_RAW && many == 2 && !(kind & GP_CK_ATOMIC)) {
        /* a plain read against one item's atomic write: held until that item's next
         * compare-exchange of the word (or the next barrier) */
        gp__ck_spec_flush(c);
        c->spec_code = code, c->spec_li = li, c->spec_site = site, c->spec_reg = reg;
        c->spec_kind = kind, c->spec_addr = addr & ~(uintptr_t)3, c->spec_other = other;
        c->spec_other_site = other_site;
        return;
    }
    if (code == GP_CK_EV_WAR && (kind & GP_CK_CAS)) return; /* its speculative reads */
    gp_ck_event ev = {code, li, site, reg, kind, size, addr, 0, 0, other_site, other, many, 0};
    c->event(c, &ev);
}

/* A plain store of the value the word already holds (several work-items writing the same value):
 * every GPU gives the same result, so it is no race unless asked for (GP_CHECK_UNIFORM). */
GP__CK_INLINE int gp__ck_uniform(const gp_ck_ctx *c)
{
    return !(c->checks & GP_CK_UNIFORM) && c->wval &&
           !__builtin_memcmp((const void *)c->waddr, c->wval, c->wsize);
}

/* One global word: the recorded access against this one. */
static __attribute__((noinline, unused)) void gp__ck_gword(gp_ck_ctx *c, uint32_t li, uint32_t site,
                                                           uint32_t reg, uint32_t kind,
                                                           uint64_t *cell, uint32_t mask,
                                                           uintptr_t addr)
{
    const uint64_t me = c->item0 + li + 1, lo = c->item0 + 1, hi = c->item0 + c->group_items;
    const uint64_t ep = c->epoch & 0x1fffu, st = site < 2047 ? site : 2047;
    const int write = (kind & GP_CK_WRITE) != 0;
    const uint64_t mine = me | ep << 33 | st << 46 | (uint64_t)mask << 57 | (write ? GP_CK_G_W : 0);
    uint64_t cur = __atomic_load_n(cell, __ATOMIC_RELAXED);
    uint32_t code;
    uint64_t other;
    uint32_t osite, many;
    for (;;) {
        uint64_t next;
        code = 0, other = 0, osite = 0xffffffffu, many = 0;
        if (cur == 0) {
            next = mine;
        } else {
            const uint64_t x = GP_CK_G_ITEM(cur);
            const int overlap = (GP_CK_G_MASK(cur) & mask) != 0, wrote = (cur & GP_CK_G_W) != 0;
            const uint64_t keep = cur & GP_CK_G_C;
            if (x < lo || x > hi) { /* recorded by another group: never ordered with us */
                if (overlap && (write || wrote)) {
                    code = write ? (wrote ? GP_CK_EV_WAW : GP_CK_EV_WAR) : GP_CK_EV_RAW;
                    other = x, osite = GP_CK_G_SITE(cur);
                }
                next = write ? mine | keep : cur | GP_CK_G_C;
            } else if (GP_CK_G_EPOCH(cur) != ep) { /* an earlier barrier interval */
                if (write && (cur & GP_CK_G_C) && overlap)
                    code = GP_CK_EV_WAR, other = x, osite = GP_CK_G_SITE(cur), many = 1;
                next = mine | keep;
            } else if (x == me) {
                if (write && (cur & (GP_CK_G_M | GP_CK_G_C)) && overlap)
                    code = GP_CK_EV_WAR, many = 1, osite = GP_CK_G_SITE(cur);
                next = write ? mine | keep : (cur | ((uint64_t)mask << 57));
            } else {
                /* the same group and interval: a race unless a SIMD barrier of our SIMD group
                 * ordered the two (approximated: any since the group's last barrier) */
                const int same_warp = ((x - lo) >> 5) == (li >> 5);
                const int ordered = same_warp && c->simd_since[li];
                if (overlap && !ordered && (write || wrote)) {
                    code = write ? (wrote ? GP_CK_EV_WAW : GP_CK_EV_WAR) : GP_CK_EV_RAW;
                    other = x, osite = GP_CK_G_SITE(cur);
                }
                if (!code && write && (cur & GP_CK_G_C) && overlap)
                    code = GP_CK_EV_WAR, other = x, osite = GP_CK_G_SITE(cur), many = 1;
                next = write ? mine | keep : (wrote ? cur : cur | GP_CK_G_M);
            }
        }
        if (next == cur ||
            __atomic_compare_exchange_n(cell, &cur, next, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            break;
    }
    if (code == GP_CK_EV_WAW && gp__ck_uniform(c)) code = 0;
    if (code && (c->checks & GP_CK_RACE))
        gp__ck_race_event(c, code, li, site, reg, kind, addr, 4, other,
                          osite == 2047 ? 0xffffffffu : osite, many);
}

/* A global atomic: against the recorded plain access (never against other atomics), then
 * recorded in the atomics' cell. */
static __attribute__((noinline, unused)) void
gp__ck_gatomic(gp_ck_ctx *c, uint32_t li, uint32_t site, uint32_t reg, uint32_t kind,
               uint64_t *cell, uint64_t *acell, uint32_t mask, uintptr_t addr)
{
    const uint64_t me = c->item0 + li + 1, lo = c->item0 + 1, hi = c->item0 + c->group_items;
    const uint64_t ep = c->epoch & 0x1fffu, st = site < 2047 ? site : 2047;
    const int write = (kind & GP_CK_WRITE) != 0;
    const uint64_t cur = __atomic_load_n(cell, __ATOMIC_RELAXED);
    uint32_t *seen = c->reg[reg].aseen;
    if (seen && !__atomic_load_n(seen, __ATOMIC_RELAXED))
        __atomic_store_n(seen, 1, __ATOMIC_RELAXED);
    uint32_t code = 0, many = 0, osite = 0xffffffffu;
    uint64_t other = 0;
    if (cur && (GP_CK_G_MASK(cur) & mask) && (write || (cur & GP_CK_G_W))) {
        const uint64_t x = GP_CK_G_ITEM(cur);
        const int same_ep = GP_CK_G_EPOCH(cur) == ep;
        if (x < lo || x > hi) {
            code = 1, other = x, osite = GP_CK_G_SITE(cur);
        } else if (same_ep && x != me) {
            const int ordered = ((x - lo) >> 5) == (li >> 5) && c->simd_since[li];
            if (!ordered) code = 1, other = x, osite = GP_CK_G_SITE(cur);
        } else if (write && ((cur & GP_CK_G_C) || (same_ep && (cur & GP_CK_G_M)))) {
            code = 1, many = 1, osite = GP_CK_G_SITE(cur);
        }
        if (code) code = write ? ((cur & GP_CK_G_W) ? GP_CK_EV_WAW : GP_CK_EV_WAR) : GP_CK_EV_RAW;
    }
    uint64_t a = __atomic_load_n(acell, __ATOMIC_RELAXED);
    for (;;) {
        const uint64_t mine = me | ep << 33 | st << 46 | (write ? GP_CK_A_W : 0);
        uint64_t next;
        if (a == 0) {
            next = mine;
        } else {
            const uint64_t x = GP_CK_G_ITEM(a);
            if (x < lo || x > hi)
                next = mine | GP_CK_A_C | (a & GP_CK_A_W);
            else if (GP_CK_G_EPOCH(a) != ep)
                next = mine | (a & GP_CK_A_C ? a & (GP_CK_A_C | GP_CK_A_W) : 0);
            else
                next = mine | (a & (GP_CK_A_C | GP_CK_A_M | GP_CK_A_W)) | (x != me ? GP_CK_A_M : 0);
        }
        if (next == a ||
            __atomic_compare_exchange_n(acell, &a, next, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            break;
    }
    if (code && (c->checks & GP_CK_RACE))
        gp__ck_race_event(c, code, li, site, reg, kind, addr, 4, other,
                          osite == 2047 ? 0xffffffffu : osite, many);
}

/* A plain access of a global word that atomics touched: against their record. */
static __attribute__((noinline, unused)) void gp__ck_gplain(gp_ck_ctx *c, uint32_t li,
                                                            uint32_t site, uint32_t reg,
                                                            uint32_t kind, const uint64_t *acell,
                                                            uintptr_t addr)
{
    const uint64_t a = __atomic_load_n(acell, __ATOMIC_RELAXED);
    const int write = (kind & GP_CK_WRITE) != 0;
    if (!a || !(write || (a & GP_CK_A_W))) return;
    const uint64_t me = c->item0 + li + 1, lo = c->item0 + 1, hi = c->item0 + c->group_items;
    const uint64_t x = GP_CK_G_ITEM(a);
    const int same_ep = GP_CK_G_EPOCH(a) == (c->epoch & 0x1fffu);
    uint64_t other = 0;
    uint32_t many = 2;
    if (x < lo || x > hi) {
        other = x;
    } else if (same_ep && x != me) {
        if (((x - lo) >> 5) == (li >> 5) && c->simd_since[li]) return;
        other = x;
    } else if ((a & GP_CK_A_C) || (same_ep && (a & GP_CK_A_M))) {
        many = 3;
    } else {
        return;
    }
    if (!(c->checks & GP_CK_RACE)) return;
    uint32_t code = write ? ((a & GP_CK_A_W) ? GP_CK_EV_WAW : GP_CK_EV_WAR) : GP_CK_EV_RAW;
    const uint32_t os = GP_CK_G_SITE(a);
    gp__ck_race_event(c, code, li, site, reg, kind, addr, 4, other, os == 2047 ? 0xffffffffu : os,
                      many);
}

/* One shared word. */
static __attribute__((noinline, unused)) void gp__ck_sword(gp_ck_ctx *c, uint32_t li, uint32_t site,
                                                           uint32_t reg, uint32_t kind,
                                                           gp_ck_scell *s, uint32_t mask,
                                                           uintptr_t addr)
{
    const uint16_t ep = (uint16_t)c->epoch, me = (uint16_t)(li + 1),
                   st = site < 0xffff ? (uint16_t)site : 0xffff;
    const uint8_t S = c->simd_epoch[li];
    const uint32_t warp = li >> 5;
    if (s->gen != c->cell_gen) { /* first touch in this group */
        gp_ck_scell fresh = {0};
        fresh.gen = c->cell_gen;
        *s = fresh;
    }
    if (s->epoch != ep) {
        s->epoch = ep;
        s->w = s->r = 0;
        s->aw = s->ar = 0;
        s->masks = 0;
    }
    if ((kind & (GP_CK_READ | GP_CK_ATOMIC)) && (c->checks & GP_CK_INIT) &&
        (s->init & mask) != mask)
        gp__ck_race_event(c, GP_CK_EV_UNINIT, li, site, reg, kind, addr, 4, 0, 0xffffffffu, 0);
    if (kind & (GP_CK_WRITE | GP_CK_ATOMIC)) s->init |= (uint8_t)mask;
    if (!(c->checks & GP_CK_RACE)) return;
    const uint32_t wmask = s->masks & 0xfu, rmask = s->masks >> 4;
    if (kind & GP_CK_ATOMIC) { /* against plain accesses only; atomics never race each other */
        const int aw = (kind & GP_CK_WRITE) != 0;
        if (s->w && s->w != me && (wmask & mask) &&
            !(((uint32_t)(s->w - 1) >> 5) == warp && s->ws != S))
            gp__ck_race_event(c, aw ? GP_CK_EV_WAW : GP_CK_EV_RAW, li, site, reg, kind, addr, 4,
                              c->item0 + s->w, s->wsite == 0xffff ? 0xffffffffu : s->wsite, 0);
        else if (aw && s->r && s->r != me && (rmask & mask) &&
                 !(s->r <= 1024 && ((uint32_t)(s->r - 1) >> 5) == warp && s->rs != S))
            gp__ck_race_event(c, GP_CK_EV_WAR, li, site, reg, kind, addr, 4,
                              s->r <= 1024 ? c->item0 + s->r : 0,
                              s->rsite == 0xffff ? 0xffffffffu : s->rsite, s->r > 1024);
        uint16_t *rec = aw ? &s->aw : &s->ar;
        *rec = (*rec == 0 || *rec == me) ? me : 0xffff;
        s->asite = st;
        s->as = S;
        return;
    }
    { /* a plain access against the interval's atomics */
        const uint16_t other = (kind & GP_CK_WRITE) && s->aw == 0 ? s->ar : s->aw;
        if (other && other != me &&
            !(other <= 1024 && ((uint32_t)(other - 1) >> 5) == warp && s->as != S))
            gp__ck_race_event(
                c, (kind & GP_CK_WRITE) ? (s->aw ? GP_CK_EV_WAW : GP_CK_EV_WAR) : GP_CK_EV_RAW, li,
                site, reg, kind, addr, 4, other <= 1024 ? c->item0 + other : 0,
                s->asite == 0xffff ? 0xffffffffu : s->asite, other > 1024 ? 3 : 2);
    }
    if (kind & GP_CK_READ && !(kind & GP_CK_WRITE)) {
        if (s->w && s->w != me && (wmask & mask) &&
            !(((uint32_t)(s->w - 1) >> 5) == warp && s->ws != S))
            gp__ck_race_event(c, GP_CK_EV_RAW, li, site, reg, kind, addr, 4, c->item0 + s->w,
                              s->wsite == 0xffff ? 0xffffffffu : s->wsite, 0);
        if (s->r == 0 || s->r == me) {
            s->r = me;
        } else if (s->r <= 1024) {
            uint32_t rw = (uint32_t)(s->r - 1) >> 5;
            if (rw != warp)
                s->r = 0xffff;
            else if (s->rs != S)
                s->r = me; /* the older read is ordered before this SIMD group */
            else
                s->r = (uint16_t)(0x8000u | warp);
        } else if (s->r != 0xffff) {
            if ((s->r & 0x7fffu) != warp)
                s->r = 0xffff;
            else if (s->rs != S)
                s->r = me;
        }
        s->rs = S;
        s->rsite = st;
        s->masks = (uint8_t)(wmask | ((rmask | mask) << 4));
        return;
    }
    /* a write (or read-modify-write) */
    if (s->w && s->w != me && (wmask & mask) &&
        !(((uint32_t)(s->w - 1) >> 5) == warp && s->ws != S)) {
        if (!gp__ck_uniform(c))
            gp__ck_race_event(c, GP_CK_EV_WAW, li, site, reg, kind, addr, 4, c->item0 + s->w,
                              s->wsite == 0xffff ? 0xffffffffu : s->wsite, 0);
    } else if (s->r && (rmask & mask)) {
        int race;
        uint64_t other = 0;
        uint32_t many = 0;
        if (s->r <= 1024) {
            race = s->r != me && !(((uint32_t)(s->r - 1) >> 5) == warp && s->rs != S);
            other = c->item0 + s->r;
        } else if (s->r == 0xffff) {
            race = 1, many = 1;
        } else {
            race = !((s->r & 0x7fffu) == warp && s->rs != S), many = 1;
        }
        if (race)
            gp__ck_race_event(c, GP_CK_EV_WAR, li, site, reg, kind, addr, 4, other,
                              s->rsite == 0xffff ? 0xffffffffu : s->rsite, many);
    }
    s->w = me;
    s->ws = S;
    s->wsite = st;
    s->r = (kind & GP_CK_READ) ? me : 0;
    s->rs = S;
    if (kind & GP_CK_READ) s->rsite = st;
    s->masks = (uint8_t)(mask | ((kind & GP_CK_READ) ? mask << 4 : 0));
}

/* The shadow of an access of `size` bytes at byte `off` of region r. */
static __attribute__((noinline, unused)) void gp__ck_shadow(gp_ck_ctx *c, uint32_t li,
                                                            uint32_t site, uint32_t reg,
                                                            uint32_t kind, uintptr_t off,
                                                            uint32_t size)
{
    const gp_ck_region *r = &c->reg[reg];
    uintptr_t w0 = off >> 2, w1 = (off + size - 1) >> 2;
    for (uintptr_t w = w0; w <= w1; w++) {
        uint32_t lo = w == w0 ? (uint32_t)(off & 3u) : 0;
        uint32_t hi = w == w1 ? (uint32_t)((off + size - 1) & 3u) : 3;
        uint32_t mask = ((2u << hi) - 1u) & ~((1u << lo) - 1u);
        uintptr_t addr = r->base + (w << 2);
        if (r->flags & GP_CK_R_SHARED) {
            gp__ck_sword(c, li, site, reg, kind, (gp_ck_scell *)(void *)r->race + w, mask, addr);
            continue;
        }
        if (r->init) {
            uint32_t bit = 1u << (w & 31u),
                     word = __atomic_load_n(&r->init[w >> 5], __ATOMIC_RELAXED);
            if ((kind & (GP_CK_READ | GP_CK_ATOMIC)) && !(word & bit) && (c->checks & GP_CK_INIT))
                gp__ck_race_event(c, GP_CK_EV_UNINIT, li, site, reg, kind, addr, 4, 0, 0xffffffffu,
                                  0);
            if ((kind & (GP_CK_WRITE | GP_CK_ATOMIC)) && !(word & bit))
                __atomic_fetch_or(&r->init[w >> 5], bit, __ATOMIC_RELAXED);
        }
        if (r->race && (kind & GP_CK_ATOMIC)) {
            if (r->arace)
                gp__ck_gatomic(c, li, site, reg, kind, r->race + w, r->arace + w, mask, addr);
        } else if (r->race) {
            if (r->aseen && __atomic_load_n(r->aseen, __ATOMIC_RELAXED))
                gp__ck_gplain(c, li, site, reg, kind, r->arace + w, addr);
            gp__ck_gword(c, li, site, reg, kind, r->race + w, mask, addr);
        }
    }
}

/* The region holding [a, a + size), or GP_CK_REG_SEARCH. */
GP__CK_INLINE uint32_t gp__ck_find(gp_ck_ctx *c, uintptr_t a)
{
    const gp_ck_region *r = &c->reg[c->last_reg];
    if (GP__CK_LIKELY(a - r->base < r->size)) return c->last_reg;
    for (uint32_t k = 0; k < c->nbound; k++) {
        uint32_t i = c->bound[k];
        if (a - c->reg[i].base < c->reg[i].size) {
            c->last_reg = i;
            return i;
        }
    }
    return GP_CK_REG_SEARCH;
}

/* Every access: checks [p, p + size) against region `reg` (searched when unknown) and updates the
 * shadow. Returns the address to access: p, or the sink. */
GP__CK_INLINE void *gp__ck_acc(gp_ck_ctx *c, uint32_t li, uint32_t site, uint32_t reg,
                               uint32_t kind, const void *p, uint32_t size)
{
    uintptr_t a = (uintptr_t)p;
    if (reg == GP_CK_REG_SEARCH) {
        reg = gp__ck_find(c, a);
        if (GP__CK_UNLIKELY(reg == GP_CK_REG_SEARCH))
            return c->slow(c, li, site, GP_CK_REG_SEARCH, kind, a, size);
    }
    const gp_ck_region *r = &c->reg[reg];
    uintptr_t off = a - r->base;
    if (GP__CK_UNLIKELY(off >= r->size || r->size - off < size ||
                        ((kind & (GP_CK_WRITE | GP_CK_ATOMIC)) && (r->flags & GP_CK_R_READONLY))))
        return c->slow(c, li, site, reg, kind, a, size);
    if (!(r->race || r->init)) return (void *)p;
    if (GP__CK_UNLIKELY(size != 4 || (off & 3u))) {
        gp__ck_shadow(c, li, site, reg, kind, off, size);
        return (void *)p;
    }
    /* one aligned word, the common case: nothing to do when the shadow already says it */
    const uintptr_t w = off >> 2;
    if (r->flags & GP_CK_R_SHARED) {
        gp__ck_sword(c, li, site, reg, kind, (gp_ck_scell *)(void *)r->race + w, 0xfu, a);
        return (void *)p;
    }
    if (r->init) {
        const uint32_t bit = 1u << (w & 31u);
        if (GP__CK_UNLIKELY(!(__atomic_load_n(&r->init[w >> 5], __ATOMIC_RELAXED) & bit))) {
            if (kind != GP_CK_WRITE) { /* a read of a word nothing wrote yet: the slow path */
                gp__ck_shadow(c, li, site, reg, kind, off, size);
                return (void *)p;
            }
            __atomic_fetch_or(&r->init[w >> 5], bit, __ATOMIC_RELAXED);
        }
    }
    if (r->race && (kind & GP_CK_ATOMIC)) {
        if (r->arace) gp__ck_gatomic(c, li, site, reg, kind, &r->race[w], &r->arace[w], 0xfu, a);
        return (void *)p;
    }
    if (r->race) {
        uint64_t cur = __atomic_load_n(&r->race[w], __ATOMIC_RELAXED);
        const uint64_t me = (c->item0 + li + 1) | (uint64_t)(c->epoch & 0x1fffu) << 33;
        const int known =
            (cur & 0x3fffffffffffull) == me && GP_CK_G_MASK(cur) == 0xfu &&
            (!(kind & GP_CK_WRITE) || (cur & (GP_CK_G_W | GP_CK_G_M | GP_CK_G_C)) == GP_CK_G_W);
        if (known) return (void *)p;
        if (GP__CK_UNLIKELY(r->aseen && __atomic_load_n(r->aseen, __ATOMIC_RELAXED)))
            gp__ck_gplain(c, li, site, reg, kind, &r->arace[w], a);
        /* the first access of the word in the launch: nothing to compare it with */
        const uint64_t st = site < 2047 ? site : 2047;
        const uint64_t mine =
            me | st << 46 | (uint64_t)0xfu << 57 | ((kind & GP_CK_WRITE) ? GP_CK_G_W : 0);
        if (cur == 0 && __atomic_compare_exchange_n(&r->race[w], &cur, mine, 0, __ATOMIC_RELAXED,
                                                    __ATOMIC_RELAXED))
            return (void *)p;
        gp__ck_gword(c, li, site, reg, kind, &r->race[w], 0xfu, a);
    }
    return (void *)p;
}

/* The kind of a compare-exchange's access: a write when the word (in its region) holds *e. */
GP__CK_INLINE uint32_t gp__ck_cas_kind(gp_ck_ctx *c, uint32_t li, uint32_t reg,
                                       const volatile void *p, const void *e, uint32_t size)
{
    uintptr_t a = (uintptr_t)p;
    if (GP__CK_UNLIKELY(c->spec_code) && c->spec_li == li && c->spec_addr == (a & ~(uintptr_t)3))
        c->spec_code = 0;
    if (reg == GP_CK_REG_SEARCH) reg = gp__ck_find(c, a);
    if (reg == GP_CK_REG_SEARCH) return GP__CK_AK | GP_CK_CAS;
    const gp_ck_region *r = &c->reg[reg];
    if (a - r->base >= r->size || r->size - (a - r->base) < size) return GP__CK_AK | GP_CK_CAS;
    return __builtin_memcmp((const void *)a, e, size) ? (GP_CK_ATOMIC | GP_CK_READ | GP_CK_CAS)
                                                      : GP__CK_AK | GP_CK_CAS;
}

/* An element of a shared array indexed by name: its indices went through gp__ck_ix. */
GP__CK_INLINE void *gp__ck_arr(gp_ck_ctx *c, uint32_t li, uint32_t site, uint32_t reg,
                               uint32_t kind, const void *p, uint32_t size)
{
    if (GP__CK_UNLIKELY(c->bad[li] == site + 1)) {
        c->bad[li] = 0;
        for (uint32_t i = 0; i < size && i < sizeof c->sink; i++)
            c->sink[i] = 0;
        return c->sink;
    }
    return gp__ck_acc(c, li, site, reg, kind, p, size);
}

GP__CK_COLD long long gp__ck_ix_fault(gp_ck_ctx *c, uint32_t li, uint32_t site, uint32_t dim,
                                      long long i, long long n, int flag)
{
    gp_ck_event ev = {
        GP_CK_EV_DIM, li, site, GP_CK_REG_SEARCH, 0, 0, 0, i, dim, 0xffffffffu, 0, 0, n};
    c->event(c, &ev);
    if (flag) c->bad[li] = site + 1;
    return 0;
}

/* An index of dimension `dim` of a shared array: itself, or 0 with the access marked to skip. */
GP__CK_INLINE long long gp__ck_ix(gp_ck_ctx *c, uint32_t li, uint32_t site, uint32_t dim,
                                  long long i, long long n)
{
    if (GP__CK_LIKELY((unsigned long long)i < (unsigned long long)n)) return i;
    return gp__ck_ix_fault(c, li, site, dim, i, n, 1);
}

/* An index of a private or constant array: itself, or 0 (the access goes to element 0). */
GP__CK_INLINE long long gp__ck_ixp(gp_ck_ctx *c, uint32_t li, uint32_t site, uint32_t dim,
                                   long long i, long long n)
{
    if (GP__CK_LIKELY((unsigned long long)i < (unsigned long long)n)) return i;
    return gp__ck_ix_fault(c, li, site, dim, i, n, 0);
}

/* Private scalars and arrays declared without a value: a shadow byte per byte (gp__in_NAME)
 * says what was written. A read of bytes nothing wrote is reported and reads 0. */
GP__CK_COLD void gp__ck_puninit(gp_ck_ctx *c, uint32_t li, uint32_t site, void *p, uint32_t size)
{
    gp_ck_event ev = {GP_CK_EV_PUNINIT,
                      li,
                      site,
                      GP_CK_REG_SEARCH,
                      GP_CK_READ,
                      size,
                      (uintptr_t)p,
                      0,
                      0,
                      0xffffffffu,
                      0,
                      0,
                      0};
    c->event(c, &ev);
    __builtin_memset(p, 0, size);
}

GP__CK_INLINE void *gp__ck_pv(gp_ck_ctx *c, uint32_t li, uint32_t site, uint32_t kind, void *p,
                              const void *base, unsigned char *sh, uint32_t size)
{
    const uintptr_t off = (uintptr_t)p - (uintptr_t)base;
    if (kind & GP_CK_READ)
        for (uint32_t i = 0; i < size; i++)
            if (GP__CK_UNLIKELY(!sh[off + i])) {
                if (c->checks & GP_CK_INIT) gp__ck_puninit(c, li, site, p, size);
                break;
            }
    if (kind & GP_CK_WRITE) __builtin_memset(sh + off, 1, size);
    return p;
}

/* An access through a pointer into a private array `base` of n bytes: outside it, reported, and
 * the access goes to the array's first bytes instead (as an index of a private array does). */
GP__CK_COLD void *gp__ck_pfault(gp_ck_ctx *c, uint32_t li, uint32_t site, uint32_t asite,
                                uint32_t kind, const void *p, const void *base, uintptr_t n,
                                uint32_t size)
{
    gp_ck_event ev = {GP_CK_EV_POOB,
                      li,
                      site,
                      GP_CK_REG_SEARCH,
                      kind,
                      size,
                      (uintptr_t)p,
                      (long long)((uintptr_t)p - (uintptr_t)base),
                      asite,
                      0xffffffffu,
                      0,
                      0,
                      (long long)n};
    c->event(c, &ev);
    if (size <= n) return (void *)(uintptr_t)base;
    for (uint32_t i = 0; i < size && i < sizeof c->sink; i++)
        c->sink[i] = 0;
    return c->sink;
}

GP__CK_INLINE void *gp__ck_pp(gp_ck_ctx *c, uint32_t li, uint32_t site, uint32_t asite,
                              uint32_t kind, const void *p, const void *base, uintptr_t n,
                              uint32_t size)
{
    const uintptr_t off = (uintptr_t)p - (uintptr_t)base;
    if (GP__CK_LIKELY(off < n && n - off >= size)) return (void *)(uintptr_t)p;
    return gp__ck_pfault(c, li, site, asite, kind, p, base, n, size);
}

/* Synchronisation: where each work-item waits, and the SIMD-barrier count. */
GP__CK_INLINE void gp__ck_note(gp_ck_ctx *c, uint32_t li, uint32_t site)
{
    c->at_site[li] = site;
}

/* A kernel calls a helper that reaches a barrier or SIMD-group operation: a finding there is
 * placed at this call, the kernel's line that decides who gets there. */
GP__CK_INLINE void gp__ck_call(gp_ck_ctx *c, uint32_t li, uint32_t site)
{
    c->call_site[li] = site + 1;
}

GP__CK_COLD void gp__ck_stray(gp_ck_ctx *c, uint32_t li, uint32_t site)
{
    gp_ck_event ev = {
        GP_CK_EV_STRAY, li, site, GP_CK_REG_SEARCH, 0, 0, 0, 0, 0, 0xffffffffu, 0, 0, 0};
    c->event(c, &ev);
}

GP__CK_INLINE void gp__ck_barrier(gp_ck_ctx *c, uint32_t li, uint32_t site)
{
    c->at_site[li] = site;
    if (GP__CK_UNLIKELY(c->loop_mode)) gp__ck_stray(c, li, site);
    const gp_cpu_group *g = (const gp_cpu_group *)c->group;
    g->barrier(g->barrier_ctx);
}

GP__CK_INLINE void gp__ck_simd_barrier(gp_ck_ctx *c, uint32_t li, uint32_t site)
{
    c->at_site[li] = site;
    if (GP__CK_UNLIKELY(c->loop_mode)) gp__ck_stray(c, li, site);
    const gp_cpu_group *g = (const gp_cpu_group *)c->group;
    (void)g->simd(g->barrier_ctx, GP_CPU_SIMD_BARRIER, 0, 0);
    c->simd_epoch[li]++;
    c->simd_since[li] = 1;
}

GP__CK_INLINE void gp__ck_ret(gp_ck_ctx *c, uint32_t li, uint32_t site)
{
    c->end_site[li] = (site + 1) | GP_CK_END_RETURN;
}

GP__CK_INLINE void gp__ck_end(gp_ck_ctx *c, uint32_t li, uint32_t site)
{
    if (!c->end_site[li]) c->end_site[li] = site + 1;
}

/* The forms the instrumentation writes. TP is the pointer type of the access (typeof &lvalue). */
#define GP__CK_P(TP, S, R, K, ADDR)                                                                \
    (*(TP)gp__ck_acc(gp__ck, gp__li, (S), (R), (K), (const void *)(ADDR), (uint32_t)sizeof(*(TP)0)))
#define GP__CK_Q(TP, S, R, K, ADDR)                                                                \
    (*(TP)gp__ck_arr(gp__ck, gp__li, (S), (R), (K), (const void *)(ADDR), (uint32_t)sizeof(*(TP)0)))
#define GP__CK_A(TP, S, R, ADDR)                                                                   \
    ((TP)gp__ck_acc(gp__ck, gp__li, (S), (R), GP__CK_AK, (const void *)(ADDR),                     \
                    (uint32_t)sizeof(*(TP)0)))
#define GP__CK_AQ(TP, S, R, ADDR)                                                                  \
    ((TP)gp__ck_arr(gp__ck, gp__li, (S), (R), GP__CK_AK, (const void *)(ADDR),                     \
                    (uint32_t)sizeof(*(TP)0)))
/* a compare-exchange writes only when the word holds the expected value (*E) */
#define GP__CK_AC(TP, S, R, ADDR, E)                                                               \
    ((TP)gp__ck_acc(gp__ck, gp__li, (S), (R),                                                      \
                    gp__ck_cas_kind(gp__ck, gp__li, (R), (ADDR), (E), sizeof(*(TP)0)),             \
                    (const void *)(ADDR), (uint32_t)sizeof(*(TP)0)))
#define GP__CK_ACQ(TP, S, R, ADDR, E)                                                              \
    ((TP)gp__ck_arr(gp__ck, gp__li, (S), (R),                                                      \
                    gp__ck_cas_kind(gp__ck, gp__li, (R), (ADDR), (E), sizeof(*(TP)0)),             \
                    (const void *)(ADDR), (uint32_t)sizeof(*(TP)0)))
/* A plain store `L = V` that carries its value, for uniform writes: *(TP)HOOK = value. */
#define GP__CK_SET(HOOK, TP, S, R, ADDR, V)                                                        \
    ({                                                                                             \
        __typeof__(*(TP)0) gp__v = (V);                                                            \
        const void *gp__a = (const void *)(ADDR);                                                  \
        gp__ck->wval = (const void *)&gp__v;                                                       \
        gp__ck->waddr = (uintptr_t)gp__a;                                                          \
        gp__ck->wsize = (uint32_t)sizeof gp__v;                                                    \
        TP gp__q = (TP)HOOK(gp__ck, gp__li, (S), (R), GP_CK_WRITE, gp__a, (uint32_t)sizeof gp__v); \
        gp__ck->wval = 0;                                                                          \
        *gp__q = gp__v;                                                                            \
    })
#define GP__CK_IX(S, D, I, N)  gp__ck_ix(gp__ck, gp__li, (S), (D), (long long)(I), (long long)(N))
#define GP__CK_IXP(S, D, I, N) gp__ck_ixp(gp__ck, gp__li, (S), (D), (long long)(I), (long long)(N))
#define GP__CK_NOTE(S, OP)     (gp__ck_note(gp__ck, gp__li, (S)), OP)

/* Integer division and remainder, which trap on the CPU (and give undefined values on GPUs) when
 * the divisor is 0 or the minimum is divided by -1: reported, and 0 instead. Floats divide as they
 * are. A and B are evaluated once each. */
GP__CK_COLD int gp__ck_div_fault(gp_ck_ctx *c, uint32_t li, uint32_t site)
{
    gp_ck_event ev = {
        GP_CK_EV_DIV, li, site, GP_CK_REG_SEARCH, 0, 0, 0, 0, 0, 0xffffffffu, 0, 0, 0};
    c->event(c, &ev);
    return 0;
}
#define GP__CK_ISINT(x)  _Generic((x), float : 0, double : 0, long double : 0, default : 1)
#define GP__CK_MIN_OF(T) ((T)(-(long long)((1ull << (sizeof(T) * 8 - 1)) - 1) - 1))
#define GP__CK_BAD_DIV(a, b)                                                                       \
    (GP__CK_ISINT((a) / (b)) && ((b) == 0 || ((__typeof__((a) / (b)))-1 < 0 && (b) == -1 &&        \
                                              (a) == GP__CK_MIN_OF(__typeof__((a) / (b))))))
#define GP__CK_DIV(S, OP, A, B)                                                                    \
    ({                                                                                             \
        __typeof__(A) gp__x = (A);                                                                 \
        __typeof__(B) gp__y = (B);                                                                 \
        GP__CK_UNLIKELY(GP__CK_BAD_DIV(gp__x, gp__y))                                              \
        ? (__typeof__(gp__x OP gp__y))gp__ck_div_fault(gp__ck, gp__li, (S)) : gp__x OP gp__y;      \
    })
/* x OP= y through a pointer to x, so that x is evaluated once */
#define GP__CK_DIV_ASSIGN(S, OP, P, B)                                                             \
    ({                                                                                             \
        __typeof__(P) gp__p = (P);                                                                 \
        *gp__p = GP__CK_DIV(S, OP, *gp__p, B);                                                     \
    })
#endif /* !GP_CK_ABI_ONLY */
#endif /* GPUPORT_CHECK_PRELUDE_H */
