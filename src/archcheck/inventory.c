/* inventory.c — what CUDA device code a file holds: fatbin containers found through the ELF
 * sections nvcc writes (.nv_fatbin, __nv_relfatbin), containers elsewhere found by their magic
 * (cuFFT keeps them in .ldata, cuBLASLt some in .cask_resource), bare cubins, bare fatbins and
 * PTX text. Headers only: payloads are never read, so a 540 MB library costs a few page faults. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archcheck/archcheck.h"
#include "formats/ar.h"
#include "formats/elf.h"
#include "formats/fatbin.h"
#include "util/fs.h"

/* Magic scans look at 8-byte aligned offsets: nvcc and the CUDA libraries align containers
 * to 8, and the stride keeps a scan of a few hundred MB cheap. */
#define AC_SCAN_ALIGN 8u
/* Scanned pages of a mapping are handed back every this many bytes, to bound RSS. */
#define AC_SCAN_CHUNK ((size_t)8 << 20)
/* PTX directives are looked for in the first bytes of a text file only. */
#define AC_PTX_HEAD ((size_t)64 << 10)

#define AC_SEGMENT_MAGIC 0x466243B1u

typedef struct ac_walk {
    gp_ac_file *f;
    const uint8_t *data;
    size_t size;
    size_t covered_until;      /* end of the last recorded container: nothing is counted twice */
    bool mapped;               /* data is a file mapping whose scanned pages may be dropped */
    size_t next_elf, next_ptx; /* listing counters (cuobjdump numbers ELF and PTX apart) */
    size_t entry_cap, container_cap;
    char *base_noext; /* the input's basename minus its last extension */
    size_t member;    /* the archive member being read, or SIZE_MAX */
    size_t elf_base;  /* where the ELF being read starts (scans align to it) */
} ac_walk;

static char *ac_vprintf(const char *fmt, va_list ap)
{
    va_list cp;
    va_copy(cp, ap);
    int n = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    if (n < 0) return NULL;
    char *s = malloc((size_t)n + 1);
    if (s) vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

static char *ac_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = ac_vprintf(fmt, ap);
    va_end(ap);
    return s;
}

static void ac_set_error(gp_ac_file *f, gp_ac_status st, const char *fmt, ...)
{
    free(f->error);
    va_list ap;
    va_start(ap, fmt);
    f->error = ac_vprintf(fmt, ap);
    va_end(ap);
    f->status = st;
}

/* "name.ext" -> "name"; a name without a dot is kept whole. */
static char *ac_strip_ext(const char *s, size_t n)
{
    size_t cut = n;
    for (size_t i = n; i > 0; i--)
        if (s[i - 1] == '.') {
            cut = i - 1;
            break;
        }
    char *d = malloc(cut + 1);
    if (!d) return NULL;
    memcpy(d, s, cut);
    d[cut] = '\0';
    return d;
}

static gp_ac_container *ac_new_container(ac_walk *w)
{
    gp_ac_file *f = w->f;
    if (f->container_count == w->container_cap) {
        size_t cap = w->container_cap ? w->container_cap * 2 : 16;
        gp_ac_container *c = realloc(f->containers, cap * sizeof *c);
        if (!c) return NULL;
        f->containers = c;
        w->container_cap = cap;
    }
    gp_ac_container *c = &f->containers[f->container_count];
    memset(c, 0, sizeof *c);
    c->first_entry = f->entry_count;
    c->member = w->member;
    return c;
}

static gp_ac_entry *ac_new_entry(ac_walk *w)
{
    gp_ac_file *f = w->f;
    if (f->entry_count == w->entry_cap) {
        size_t cap = w->entry_cap ? w->entry_cap * 2 : 32;
        gp_ac_entry *e = realloc(f->entries, cap * sizeof *e);
        if (!e) return NULL;
        f->entries = e;
        w->entry_cap = cap;
    }
    gp_ac_entry *e = &f->entries[f->entry_count];
    memset(e, 0, sizeof *e);
    e->container = f->container_count;
    return e;
}

static void ac_drop_entries_from(gp_ac_file *f, size_t first)
{
    for (size_t i = first; i < f->entry_count; i++)
        free(f->entries[i].list_name);
    f->entry_count = first;
}

/* The name cuobjdump gives an entry: "<input>.<n>.sm_<arch>.cubin" for unnamed entries,
 * "<name minus extension>.sm_<arch>.cubin" for named ones (-G builds name them). PTX is
 * labelled sm_ too; ELF names carry the "a" variant but not "f". */
static char *ac_list_name(ac_walk *w, const gp_fatbin_entry *fe, bool is_ptx, size_t n)
{
    char v = gp_fatbin_entry_variant(fe);
    if (!is_ptx && v == 'f') v = 0;
    char vs[2] = {v, 0};
    const char *ext = is_ptx ? "ptx" : "cubin";
    if (fe->name && fe->name_len) {
        /* The name is the source path nvcc was given; cuobjdump keeps its last component. */
        const char *nm = fe->name;
        size_t nl = fe->name_len;
        for (size_t i = nl; i > 0; i--)
            if (nm[i - 1] == '/') {
                nm += i;
                nl -= i;
                break;
            }
        char *stem = ac_strip_ext(nm, nl);
        char *s = stem ? ac_printf("%s.sm_%u%s.%s", stem, fe->arch, vs, ext) : NULL;
        free(stem);
        return s;
    }
    return ac_printf("%s.%zu.sm_%u%s.%s", w->base_noext, n, fe->arch, vs, ext);
}

/* An uncompressed cubin entry without kernels or functions (its section headers say so; the
 * code is not read). A payload that is not a readable cubin counts as code. */
static bool ac_cubin_is_empty(const ac_walk *w, const gp_fatbin_entry *fe)
{
    size_t at = fe->offset + fe->header_size;
    if (at > w->size || fe->payload_size > w->size - at) return false;
    const uint8_t *p = w->data + at;
    size_t n = (size_t)fe->payload_size;
    gp_elf elf;
    char err[128];
    if (!gp_elf_is_elf(p, n) || gp_elf_open(&elf, p, n, err, sizeof err) != 0) return false;
    bool empty = gp_cubin_is_cubin(&elf) && !gp_cubin_has_code(&elf);
    gp_elf_close(&elf);
    return empty;
}

static int ac_add_entry(ac_walk *w, const gp_fatbin_entry *fe, bool listed)
{
    gp_ac_entry *e = ac_new_entry(w);
    if (!e) return -1;
    switch (fe->kind) {
    case GP_FATBIN_KIND_ELF:
        e->kind = GP_AC_SASS;
        break;
    case GP_FATBIN_KIND_PTX:
        e->kind = GP_AC_PTX;
        break;
    case GP_FATBIN_KIND_LTOIR:
        e->kind = GP_AC_LTOIR;
        break;
    default:
        e->kind = GP_AC_OTHER;
        break;
    }
    e->arch = fe->arch;
    e->variant = gp_fatbin_entry_variant(fe);
    if (e->kind == GP_AC_PTX) e->ptx_isa = fe->version_major * 10 + fe->version_minor;
    e->compression = gp_fatbin_entry_compression(fe);
    e->size = fe->payload_size;
    e->uncompressed_size = fe->uncompressed_size;
    e->debug = (fe->flags & GP_FATBIN_FLAG_DEBUG) != 0;
    e->offset = fe->offset;
    if (e->kind == GP_AC_SASS && strcmp(e->compression, "none") == 0)
        e->no_code = ac_cubin_is_empty(w, fe);
    if (listed && (e->kind == GP_AC_SASS || e->kind == GP_AC_PTX)) {
        bool ptx = e->kind == GP_AC_PTX;
        size_t n = ptx ? ++w->next_ptx : ++w->next_elf;
        e->list_name = ac_list_name(w, fe, ptx, n);
        if (!e->list_name) return -1;
    }
    w->f->entry_count++;
    return 0;
}

/* Reads one container and its entries at `off` (limit = end of its region). 0 recorded,
 * -1 malformed (message in err), -2 out of memory. */
static int ac_read_container(ac_walk *w, size_t off, size_t limit, const char *section, bool listed,
                             size_t *end, char *err, size_t errlen)
{
    gp_fatbin_container c;
    if (gp_fatbin_container_read(w->data, limit, off, &c, err, errlen) != 0) return -1;
    gp_ac_container *ac = ac_new_container(w);
    if (!ac) return -2;
    ac->offset = off;
    snprintf(ac->section, sizeof ac->section, "%s", section);
    ac->listed = listed;
    size_t cursor = 0, first = w->f->entry_count, elf0 = w->next_elf, ptx0 = w->next_ptx;
    gp_fatbin_entry fe;
    int r;
    while ((r = gp_fatbin_entry_next(w->data, &c, &cursor, &fe, err, errlen)) == 1)
        if (ac_add_entry(w, &fe, listed) != 0) return -2;
    if (r < 0) {
        ac_drop_entries_from(w->f, first);
        w->next_elf = elf0;
        w->next_ptx = ptx0;
        return -1;
    }
    ac->entry_count = w->f->entry_count - first;
    w->f->container_count++;
    *end = c.end;
    return 0;
}

/* Gives the kernel a hint about how [from, to) of a mapping will be read. */
static void ac_advise(const ac_walk *w, size_t from, size_t to, gp_map_advice advice)
{
    if (!w->mapped || to <= from) return;
    gp_map_advise(w->data + from, to - from, advice);
}

/* Drops the pages of [from, to) of a mapping from this process (they stay in the page
 * cache), so that scanning a large section does not grow the resident set. */
static void ac_release(const ac_walk *w, size_t from, size_t to)
{
    if (!w->mapped) return;
    long pg = sysconf(_SC_PAGESIZE);
    if (pg <= 0) return;
    uintptr_t a = ((uintptr_t)(w->data + from) + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
    uintptr_t b = (uintptr_t)(w->data + to) & ~((uintptr_t)pg - 1);
    if (b > a) gp_map_advise((const void *)a, b - a, GP_MAP_DONTNEED);
}

/* p rounded up to the scan alignment, counted from the start of the ELF (an archive member
 * may start at any even offset of the archive). */
static size_t ac_align_up(const ac_walk *w, size_t p)
{
    size_t rel = (p - w->elf_base) % AC_SCAN_ALIGN;
    return rel ? p + (AC_SCAN_ALIGN - rel) : p;
}

/* The next 8-aligned offset from p (aligned) that holds the container magic, stopping at
 * `limit` (where the caller releases pages) or at the end; a tight loop, since it runs over
 * hundreds of MB of library data. */
static size_t ac_scan_aligned(const uint8_t *d, size_t p, size_t end, size_t limit)
{
    size_t stop = end < limit ? end : limit;
    for (; p < stop && stop - p >= 4; p += AC_SCAN_ALIGN)
        if (d[p] == 0x50 && d[p + 1] == 0xED && d[p + 2] == 0x55 && d[p + 3] == 0xBA) return p;
    return p < stop ? stop : p;
}

/* Walks a region for containers. In a fatbin section (strict) a malformed container is an
 * error; elsewhere (scan) a magic that does not start a well-formed container is skipped. */
static int ac_walk_region(ac_walk *w, size_t start, size_t end, const char *section, bool listed,
                          bool strict)
{
    char err[256];
    size_t p = start > w->covered_until ? start : w->covered_until;
    if (!strict) p = ac_align_up(w, p);
    size_t released = p;
    if (!strict) ac_advise(w, start, end, GP_MAP_SEQUENTIAL);
    while (p < end && end - p >= GP_FATBIN_HEADER_SIZE) {
        if (p - released >= AC_SCAN_CHUNK) {
            ac_release(w, released, p);
            released = p;
        }
        if (!gp_fatbin_is_container(w->data, end, p)) {
            p = strict ? gp_fatbin_find_magic(w->data, end, p + 1)
                       : ac_scan_aligned(w->data, p + AC_SCAN_ALIGN, end, released + AC_SCAN_CHUNK);
            continue;
        }
        size_t cend = 0;
        int r = ac_read_container(w, p, end, section, listed, &cend, err, sizeof err);
        if (r == -2) {
            ac_set_error(w->f, GP_AC_MALFORMED, "out of memory");
            return -1;
        }
        if (r == -1) {
            if (strict) {
                ac_set_error(w->f, GP_AC_MALFORMED, "%s (in section %s)", err, section);
                return -1;
            }
            p += AC_SCAN_ALIGN;
            continue;
        }
        w->covered_until = cend;
        if (!strict) cend = ac_align_up(w, cend);
        p = cend;
    }
    ac_release(w, start, end);
    return 0;
}

/* The container that starts at `off` (containers are recorded in file order), or NULL. */
static gp_ac_container *ac_container_at(gp_ac_file *f, uint64_t off)
{
    size_t lo = 0, hi = f->container_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->containers[mid].offset < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < f->container_count && f->containers[lo].offset == off ? &f->containers[lo] : NULL;
}

/* Marks the containers that .nvFatBinSegment registers as device-link modules (version 2). The
 * wrapper holds the container's address; it lies in .nv_fatbin or __nv_relfatbin. */
static void ac_mark_linked(ac_walk *w, const gp_elf *elf)
{
    const gp_elf_section *seg = gp_elf_section_by_name(elf, ".nvFatBinSegment");
    const gp_elf_section *homes[2] = {gp_elf_section_by_name(elf, ".nv_fatbin"),
                                      gp_elf_section_by_name(elf, "__nv_relfatbin")};
    size_t len;
    /* In an object file (ET_REL) addresses are not assigned yet: nothing to match. */
    const uint8_t *d = seg && elf->type != 1 ? gp_elf_section_data(elf, seg, &len) : NULL;
    for (size_t i = 0; d && i + 24 <= len; i += 24) {
        if (gp_elf_u32(elf, d + i) != AC_SEGMENT_MAGIC || gp_elf_u32(elf, d + i + 4) != 2) continue;
        uint64_t addr = gp_elf_u64(elf, d + i + 8);
        for (size_t h = 0; h < 2; h++) {
            const gp_elf_section *sec = homes[h];
            if (!sec || addr < sec->addr || addr - sec->addr >= sec->size) continue;
            size_t base = (size_t)(elf->data - w->data); /* the ELF's place in the buffer */
            gp_ac_container *c = ac_container_at(w->f, base + sec->offset + (addr - sec->addr));
            if (c) c->linked = true;
            break;
        }
    }
}

static int ac_section_cmp(const void *a, const void *b)
{
    const gp_elf_section *x = *(const gp_elf_section *const *)a,
                         *y = *(const gp_elf_section *const *)b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Sections that may hold containers beyond the two nvcc names: allocated data, not code. */
static bool ac_scannable(const gp_elf_section *s)
{
    return s->type == 1 /* PROGBITS */ && (s->flags & GP_ELF_SHF_ALLOC) &&
           !(s->flags & GP_ELF_SHF_EXECINSTR) && s->size >= GP_FATBIN_HEADER_SIZE;
}

static void ac_inventory_host_elf(ac_walk *w, const gp_elf *elf)
{
    const gp_elf_section *fat = gp_elf_section_by_name(elf, ".nv_fatbin");
    const gp_elf_section *rel = gp_elf_section_by_name(elf, "__nv_relfatbin");
    w->elf_base = (size_t)(elf->data - w->data);
    /* Walk in file order so that each container is counted once and entries stay in order. */
    const gp_elf_section **order = malloc((elf->section_count + 1) * sizeof *order);
    if (!order) {
        ac_set_error(w->f, GP_AC_MALFORMED, "out of memory");
        return;
    }
    size_t n = 0;
    for (size_t i = 0; i < elf->section_count; i++) {
        const gp_elf_section *s = &elf->sections[i];
        if (s == fat || s == rel || ac_scannable(s)) order[n++] = s;
    }
    qsort(order, n, sizeof *order, ac_section_cmp);
    for (size_t i = 0; i < n; i++) {
        const gp_elf_section *s = order[i];
        size_t len;
        /* Only sections whose bytes lie in the file (the ELF reader checked them). */
        const uint8_t *d = gp_elf_section_data(elf, s, &len);
        if (!d) continue;
        bool strict = s == fat || s == rel;
        bool listed = s == fat || (s == rel && !fat);
        size_t start = (size_t)(d - w->data);
        if (ac_walk_region(w, start, start + len, s->name, listed, strict) != 0) break;
    }
    free(order);
    if (w->f->status == GP_AC_OK) ac_mark_linked(w, elf);
}

static void ac_inventory_cubin(ac_walk *w, const gp_elf *elf)
{
    gp_cubin_info ci;
    char err[256];
    if (gp_cubin_read(elf, &ci, err, sizeof err) != 0) {
        ac_set_error(w->f, GP_AC_MALFORMED, "%s", err);
        return;
    }
    gp_ac_container *c = ac_new_container(w);
    gp_ac_entry *e = c ? ac_new_entry(w) : NULL;
    if (!e) {
        ac_set_error(w->f, GP_AC_MALFORMED, "out of memory");
        return;
    }
    snprintf(c->section, sizeof c->section, "file");
    c->listed = true;
    c->entry_count = 1;
    e->kind = GP_AC_SASS;
    e->arch = ci.arch;
    e->variant = ci.variant;
    e->compression = "none";
    e->size = elf->size;
    e->debug = ci.debug;
    e->no_code = !gp_cubin_has_code(elf);
    e->list_name =
        ac_printf("%s.sm_%u%s.cubin", w->base_noext, ci.arch, ci.variant == 'a' ? "a" : "");
    w->f->entry_count++;
    w->f->container_count++;
}

/* "9.0" after ".version"; "sm_90a" after ".target" (the first target only). */
static bool ac_ptx_directive(const char *s, size_t n, const char *key, const char **val)
{
    size_t k = strlen(key);
    for (size_t i = 0; i + k < n; i++) {
        if ((i == 0 || s[i - 1] == '\n' || s[i - 1] == ' ' || s[i - 1] == '\t') &&
            memcmp(s + i, key, k) == 0 && (s[i + k] == ' ' || s[i + k] == '\t')) {
            size_t j = i + k;
            while (j < n && (s[j] == ' ' || s[j] == '\t'))
                j++;
            *val = s + j;
            return j < n;
        }
    }
    return false;
}

static bool ac_inventory_ptx(ac_walk *w)
{
    size_t n = w->size < AC_PTX_HEAD ? w->size : AC_PTX_HEAD;
    const char *s = (const char *)w->data, *ver, *tgt;
    if (n == 0 || memchr(s, '\0', n)) return false;
    if (!ac_ptx_directive(s, n, ".version", &ver) || !ac_ptx_directive(s, n, ".target", &tgt))
        return false;
    const char *end = s + n;
    unsigned maj = 0, min = 0, arch = 0;
    const char *p = ver;
    while (p < end && *p >= '0' && *p <= '9' && maj < 1000)
        maj = maj * 10 + (unsigned)(*p++ - '0');
    if (p >= end || *p != '.') return false;
    p++;
    while (p < end && *p >= '0' && *p <= '9' && min < 1000)
        min = min * 10 + (unsigned)(*p++ - '0');
    p = tgt;
    if (end - p < 4 || memcmp(p, "sm_", 3) != 0) return false;
    p += 3;
    while (p < end && *p >= '0' && *p <= '9' && arch < 100000)
        arch = arch * 10 + (unsigned)(*p++ - '0');
    if (!arch || maj == 0 || min > 9) return false;
    char variant = (p < end && (*p == 'a' || *p == 'f')) ? *p : 0;
    gp_ac_container *c = ac_new_container(w);
    gp_ac_entry *e = c ? ac_new_entry(w) : NULL;
    if (!e) return false;
    snprintf(c->section, sizeof c->section, "file");
    c->listed = true;
    c->entry_count = 1;
    e->kind = GP_AC_PTX;
    e->arch = arch;
    e->variant = variant;
    e->ptx_isa = (int)(maj * 10 + min);
    e->compression = "none";
    e->size = w->size;
    e->list_name =
        ac_printf("%s.sm_%u%s.ptx", w->base_noext, arch, variant ? (char[]){variant, 0} : "");
    w->f->entry_count++;
    w->f->container_count++;
    w->f->from_ptx_source = true;
    return true;
}

static int ac_add_member_name(gp_ac_file *f, const char *name)
{
    char **m = realloc(f->members, (f->member_count + 1) * sizeof *m);
    if (!m) return -1;
    f->members = m;
    size_t n = strlen(name) + 1;
    if (!(m[f->member_count] = malloc(n))) return -1;
    memcpy(m[f->member_count++], name, n);
    return 0;
}

/* A static library: every ELF member is read as an object file; the listing numbers continue
 * across members, as cuobjdump's do. */
static void ac_inventory_archive(ac_walk *w)
{
    gp_ac_file *f = w->f;
    gp_ar_iter it;
    gp_ar_member m;
    char err[256];
    int r;
    f->is_archive = true;
    gp_ar_iter_init(&it, w->data, w->size);
    while ((r = gp_ar_next(&it, &m, err, sizeof err)) == 1) {
        if (ac_add_member_name(f, m.name) != 0) {
            ac_set_error(f, GP_AC_MALFORMED, "out of memory");
            return;
        }
        w->member = f->member_count - 1;
        const uint8_t *d = w->data + m.offset;
        if (!gp_elf_is_elf(d, m.size)) continue;
        gp_elf elf;
        if (gp_elf_open(&elf, d, m.size, err, sizeof err) != 0) {
            ac_set_error(f, GP_AC_MALFORMED, "member %s (at offset 0x%zx): malformed ELF: %s",
                         m.name, m.offset, err);
            return;
        }
        if (gp_cubin_is_cubin(&elf))
            ac_inventory_cubin(w, &elf);
        else
            ac_inventory_host_elf(w, &elf);
        gp_elf_close(&elf);
        if (f->status != GP_AC_OK) return;
    }
    if (r < 0) ac_set_error(f, GP_AC_MALFORMED, "malformed archive: %s", err);
}

void gp_ac_inventory_buffer(gp_ac_file *f, const uint8_t *data, size_t size, bool mapped)
{
    ac_walk w = {.f = f, .data = data, .size = size, .mapped = mapped, .member = SIZE_MAX};
    const char *base = f->list_base ? f->list_base : "";
    w.base_noext = ac_strip_ext(base, strlen(base));
    if (!w.base_noext) {
        ac_set_error(f, GP_AC_MALFORMED, "out of memory");
        return;
    }
    f->status = GP_AC_OK;
    /* Headers are read here and there across the file: no read-ahead around each fault. */
    ac_advise(&w, 0, size, GP_MAP_RANDOM);
    if (gp_ar_is_archive(data, size)) {
        ac_inventory_archive(&w);
    } else if (gp_elf_is_elf(data, size)) {
        gp_elf elf;
        char err[256];
        if (gp_elf_open(&elf, data, size, err, sizeof err) != 0) {
            ac_set_error(f, GP_AC_MALFORMED, "malformed ELF: %s", err);
        } else {
            if (gp_cubin_is_cubin(&elf))
                ac_inventory_cubin(&w, &elf);
            else
                ac_inventory_host_elf(&w, &elf);
            gp_elf_close(&elf);
        }
    } else if (gp_fatbin_is_container(data, size, 0)) {
        ac_walk_region(&w, 0, size, "file", true, true);
    } else if (!ac_inventory_ptx(&w) && f->status == GP_AC_OK) {
        f->status = GP_AC_NO_CODE;
        f->unknown_format = true;
    }
    if (f->status == GP_AC_OK && f->entry_count == 0) f->status = GP_AC_NO_CODE;
    free(w.base_noext);
}
