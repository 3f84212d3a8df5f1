/* audit.c — the run: the walk (main thread) feeds a ring of jobs to N scanner threads; results
 * are taken back strictly in walk order, so the output is the same for any -j. Each result is
 * folded into the state (counts, modules, stop evidence) and its findings go to the spool. */
#include "audit/audit.h"

#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <string.h>
#include <unistd.h>

#include "audit/state.h"
#include "util/term.h"
#include "util/thread.h"

#define READ_BUF (256u * 1024u)
/* The ring holds this many files a thread (the walk runs ahead; the main thread wakes once a
 * quarter of it is done), and results held for folding stay under POOL_HELD_MAX bytes: workers
 * take no new file while more is held, whatever the files. */
#define POOL_JOBS_PER_THREAD 64
#define POOL_HELD_MAX        (16u << 20)

typedef struct job {
    char *path;
    char *module;
    gp_module_kind module_kind;
    gp_audit_lang lang;
    bool is_arg; /* the file is a path argument itself */
    gp_audit_result res;
    size_t bytes; /* what its result holds, once done */
    int state;    /* 0 free, 1 queued, 2 taken, 3 done */
} job;

typedef struct pool {
    gp_audit_state *st;
    job *ring;
    size_t q;
    size_t pushed, taken, emitted;
    bool finished;
    bool main_waits; /* the main thread sleeps until the job at the head is done */
    size_t held;     /* bytes in the results of done jobs not folded yet */
    int mem_waits;   /* workers waiting for `held` to fall under POOL_HELD_MAX */
    gp_mutex mu;
    gp_cond cv_work, cv_done;
} pool;

/* ---- folding results into the state --------------------------------------------------- */

static size_t str_hash(const char *s)
{
    size_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

/* The walk module's index (made on first sight). */
static long wmod_get(gp_audit_state *st, const char *path, gp_module_kind kind)
{
    if (!path[0]) path = ".";
    if (st->nwmods * 2 >= st->modhash_cap) {
        size_t nc = st->modhash_cap ? st->modhash_cap * 2 : 64;
        size_t *nh = calloc(nc, sizeof *nh);
        if (!nh) return -1;
        for (size_t i = 0; i < st->nwmods; i++) {
            size_t k = str_hash(st->wmods[i].path) & (nc - 1);
            while (nh[k])
                k = (k + 1) & (nc - 1);
            nh[k] = i + 1;
        }
        free(st->modhash);
        st->modhash = nh;
        st->modhash_cap = nc;
    }
    size_t k = str_hash(path) & (st->modhash_cap - 1);
    while (st->modhash[k]) {
        const gp_walk_mod *m = &st->wmods[st->modhash[k] - 1];
        if (strcmp(m->path, path) == 0) return (long)(st->modhash[k] - 1);
        k = (k + 1) & (st->modhash_cap - 1);
    }
    if (st->nwmods == st->capwmods) {
        size_t nc = st->capwmods ? st->capwmods * 2 : 16;
        gp_walk_mod *nm = realloc(st->wmods, nc * sizeof *nm);
        if (!nm) return -1;
        st->wmods = nm;
        st->capwmods = nc;
    }
    gp_walk_mod *m = &st->wmods[st->nwmods];
    m->path = strdup(path);
    m->kind = kind;
    if (!m->path) return -1;
    st->modhash[k] = ++st->nwmods;
    return (long)(st->nwmods - 1);
}

static void add_problem(gp_audit_state *st, const char *path, const char *what)
{
    st->problems_total++;
    if (st->nproblems >= GP_PROBLEMS_LISTED) return;
    if (st->nproblems == st->capproblems) {
        size_t nc = st->capproblems ? st->capproblems * 2 : 8;
        gp_problem *np = realloc(st->problems, nc * sizeof *np);
        if (!np) return;
        st->problems = np;
        st->capproblems = nc;
    }
    st->problems[st->nproblems].path = strdup(path);
    st->problems[st->nproblems].what = strdup(what);
    st->nproblems++;
}

static int finding_cmp(const void *a, const void *b)
{
    const gp_audit_finding *x = a, *y = b;
    if (x->cell != y->cell) return x->cell < y->cell ? -1 : 1;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    if (x->col != y->col) return x->col < y->col ? -1 : 1;
    return (int)x->rule - (int)y->rule;
}

/* Fingerprint: rule, file, the matched code and its occurrence number among identical ones in
 * the file — stable when lines move. Two independent 64-bit FNV-1a streams (not a security
 * hash: it only has to tell findings apart, fast). */
static void fp_mix(uint64_t h[2], const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h[0] = (h[0] ^ b[i]) * 1099511628211u;
        h[1] = (h[1] ^ b[i]) * 0x100000001b3u * 31u + 0x9e3779b97f4a7c15u;
    }
}

/* The streams after the rule id and the path: the same for every finding of one rule in one
 * file, so fold mixes them once per rule and file. */
static void fingerprint_head(const char *rule, const char *path, uint64_t h[2])
{
    h[0] = 1469598103934665603u;
    h[1] = 0x84222325cbf29ce4u;
    fp_mix(h, rule, strlen(rule) + 1);
    fp_mix(h, path, strlen(path) + 1);
}

/* The streams after the code, from the rule's head: `h` also tells findings of one file apart by
 * rule and code (see occ_next). */
static void fingerprint_code(const uint64_t head[2], const char *snip, size_t sn, uint64_t h[2])
{
    h[0] = head[0];
    h[1] = head[1];
    fp_mix(h, snip, sn);
}

static void fingerprint(uint64_t h[2], unsigned occ, char out[33])
{
    fp_mix(h, &occ, sizeof occ);
    static const char hx[] = "0123456789abcdef";
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 16; i++)
            out[k * 16 + i] = hx[(h[k] >> (60 - 4 * i)) & 15];
    out[32] = '\0';
}

typedef struct occ_slot {
    uint64_t key;
    unsigned count;
} occ_slot;

/* How many findings with the same rule and code came before this one in the file (`code`: the
 * fingerprint streams after the rule, the path and the code, fingerprint_code). */
static unsigned occ_next(occ_slot *t, size_t cap, const uint64_t code[2])
{
    uint64_t h = code[0] ^ (code[1] << 1);
    if (h == 0) h = 1;
    size_t k = (size_t)h & (cap - 1);
    while (t[k].key && t[k].key != h)
        k = (k + 1) & (cap - 1);
    t[k].key = h;
    return t[k].count++;
}

/* A new entry in the file table; -1 when out of memory. */
static long file_add(gp_audit_state *st, const job *j, long mod)
{
    if (st->nfiles == st->capfiles) {
        size_t nc = st->capfiles ? st->capfiles * 2 : 256;
        gp_audit_file *nf = realloc(st->files, nc * sizeof *nf);
        if (!nf) return -1;
        st->files = nf;
        st->capfiles = nc;
    }
    gp_audit_file *f = &st->files[st->nfiles];
    memset(f, 0, sizeof *f);
    f->path = (uint32_t)st->paths.len;
    gp_strbuf_append(&st->paths, j->path, strlen(j->path) + 1);
    if (st->paths.failed) return -1;
    f->module = (uint32_t)mod;
    f->lang = (uint8_t)j->lang;
    f->wkind = (uint8_t)j->module_kind;
    const gp_audit_result *r = &j->res;
    f->flags =
        (uint16_t)((r->cpu_impl ? GP_FF_CPU_IMPL : 0) | (r->metal_impl ? GP_FF_METAL_IMPL : 0) |
                   (r->has_main_guard ? GP_FF_MAIN_GUARD : 0) |
                   (r->cuda_dispatch ? GP_FF_CUDA_DISPATCH : 0) |
                   (r->mps_impl ? GP_FF_MPS_IMPL : 0) | (r->prefiltered ? GP_FF_PREFILTERED : 0) |
                   (r->has_checks ? GP_FF_CHECKS : 0) |
                   (r->dist_required ? GP_FF_DIST_REQUIRED : 0));
    f->facts = (uint32_t)st->facts.len;
    f->nfacts = (uint32_t)r->facts.len;
    if (r->facts.len) gp_strbuf_append(&st->facts, r->facts.data, r->facts.len);
    if (st->facts.failed) return -1;
    f->first_rec = st->nrec;
    f->spool_at = st->spool_pos;
    return (long)st->nfiles++;
}

static void fold(gp_audit_state *st, job *j)
{
    gp_audit_result *r = &j->res;
    if (r->problem) {
        char what[256];
        snprintf(what, sizeof what, "%s (%s)", r->problem, r->problem_detail);
        add_problem(st, j->path, what);
        if (j->is_arg) st->arg_problems++;
        return;
    }
    if (r->skipped_binary) {
        st->binary++;
        return;
    }
    long mod = wmod_get(st, j->module, j->module_kind);
    long fid = mod < 0 ? -1 : file_add(st, j, mod);
    if (fid < 0) {
        st->failed_alloc = true;
        return;
    }
    st->scanned++;
    st->by_lang[j->lang]++;
    st->dropped += r->dropped;
    if (r->nf == 0) return;
    /* the scanners report mostly in order: sort only when they did not */
    for (size_t i = 1; i < r->nf; i++)
        if (finding_cmp(&r->f[i - 1], &r->f[i]) > 0) {
            qsort(r->f, r->nf, sizeof *r->f, finding_cmp);
            break;
        }
    size_t occ_cap = 16;
    while (occ_cap < r->nf * 2)
        occ_cap *= 2;
    occ_slot *occ_tab = calloc(occ_cap, sizeof *occ_tab);
    if (!occ_tab) {
        st->failed_alloc = true;
        return;
    }
    uint64_t heads[GP_R_COUNT][2];
    bool have_head[GP_R_COUNT] = {false};
    for (size_t i = 0; i < r->nf; i++) {
        const gp_audit_finding *f = &r->f[i];
        const char *snip = r->text.data ? r->text.data + f->snip_off : "";
        const gp_audit_rule *ru = gp_audit_rule_get(f->rule);
        if (!have_head[f->rule]) {
            fingerprint_head(ru->id, j->path, heads[f->rule]);
            have_head[f->rule] = true;
        }
        uint64_t code[2];
        fingerprint_code(heads[f->rule], snip, f->snip_len, code);
        unsigned occ = occ_next(occ_tab, occ_cap, code);
        gp_spool_rec rec;
        memset(&rec, 0, sizeof rec); /* its padding goes to the spool too */
        rec.rule = (uint16_t)f->rule;
        rec.severity = (uint8_t)f->severity;
        rec.flags = (uint8_t)((f->guarded ? 1 : 0) | (f->marks << 2));
        rec.line = f->line;
        rec.col = f->col;
        rec.cell = f->cell;
        rec.file = (uint32_t)fid;
        rec.snip_len = f->snip_len;
        rec.file_line = f->file_line;
        rec.file_col = f->file_col;
        rec.fact = f->fact;
        fingerprint(code, occ, rec.fp);
        if (st->nbaseline && gp_audit_baseline_has(st, rec.fp)) {
            rec.flags |= 2;
            st->baselined++;
        }
        /* what resolve.c reads per file: CUDA build findings, imports that fail off CUDA */
        gp_audit_file *fi = &st->files[fid];
        if (f->rule == GP_R_CMK_001 || f->rule == GP_R_CMK_002 || f->rule == GP_R_MK_001 ||
            f->rule == GP_R_PY_EXT_001 || f->rule == GP_R_PY_EXT_002) {
            if (f->guarded || ru->severity != GP_SEV_ERROR)
                fi->build_guarded += fi->build_guarded < UINT16_MAX;
            else
                fi->build_unguarded += fi->build_unguarded < UINT16_MAX;
        }
        if ((f->rule == GP_R_PY_IMP_001 || f->rule == GP_R_PY_TRITON_001) && !f->guarded &&
            f->severity == GP_SEV_ERROR)
            fi->blockers += fi->blockers < UINT16_MAX;
        st->spool_pos += (long)(sizeof rec + f->snip_len);
        char one[sizeof rec + 512]; /* record and code in one write when they fit */
        if (f->snip_len <= sizeof one - sizeof rec) {
            memcpy(one, &rec, sizeof rec);
            memcpy(one + sizeof rec, snip, f->snip_len);
            if (fwrite(one, sizeof rec + f->snip_len, 1, st->spool) != 1) st->failed_alloc = true;
        } else if (fwrite(&rec, sizeof rec, 1, st->spool) != 1 ||
                   fwrite(snip, f->snip_len, 1, st->spool) != 1) {
            st->failed_alloc = true;
        }
        st->nrec++;
    }
    st->files[fid].nrec = st->nrec - st->files[fid].first_rec;
    free(occ_tab);
}

int gp_spool_begin(gp_spool_reader *rd, FILE *f)
{
    rd->f = f;
    rd->len = rd->at = 0;
    rd->pos = 0;
    return fseek(f, 0, SEEK_SET) == 0 ? 0 : -1;
}

/* At least n bytes buffered from rd->at (false at the end of the spool). */
static bool spool_fill(gp_spool_reader *rd, size_t n)
{
    if (rd->len - rd->at >= n) return true;
    memmove(rd->buf, rd->buf + rd->at, rd->len - rd->at);
    rd->len -= rd->at;
    rd->at = 0;
    while (rd->len < n) {
        size_t k = fread(rd->buf + rd->len, 1, sizeof rd->buf - rd->len, rd->f);
        if (k == 0) return false;
        rd->len += k;
    }
    return true;
}

int gp_spool_next(gp_spool_reader *rd, gp_spool_rec *rec, char *snip, size_t cap, long *at)
{
    if (!spool_fill(rd, sizeof *rec)) return -1;
    memcpy(rec, rd->buf + rd->at, sizeof *rec);
    size_t n = rec->snip_len;
    if (n >= cap || n > sizeof rd->buf - sizeof *rec || !spool_fill(rd, sizeof *rec + n)) return -1;
    if (snip) {
        memcpy(snip, rd->buf + rd->at + sizeof *rec, n);
        snip[n] = '\0';
    }
    rd->at += sizeof *rec + n;
    if (at) *at = rd->pos;
    rd->pos += (long)(sizeof *rec + n);
    return 0;
}

int gp_spool_read(FILE *f, gp_spool_rec *rec, char *snip, size_t cap)
{
    if (fread(rec, sizeof *rec, 1, f) != 1) return -1;
    size_t n = rec->snip_len;
    if (n >= cap) return -1;
    if (n && fread(snip, n, 1, f) != 1) return -1;
    snip[n] = '\0';
    return 0;
}

/* ---- the worker pool ------------------------------------------------------------------- */

/* Is it worth waking the main thread (called with the mutex held when a job is done)? Only
 * when the head of the ring is done and either a quarter of the ring is done in a row from it,
 * or everything pushed is: one wake-up folds several files, and the main thread never sleeps
 * while nothing more can finish (a run that reaches `pushed` always wakes it). */
static bool head_ready(const pool *p)
{
    if (p->held > POOL_HELD_MAX && p->ring[p->emitted % p->q].state == 3) return true;
    size_t run = 0, want = p->q / 4 ? p->q / 4 : 1;
    while (p->emitted + run < p->pushed && p->ring[(p->emitted + run) % p->q].state == 3) {
        if (++run >= want) return true;
    }
    return run > 0 && p->emitted + run == p->pushed;
}

static void *worker(void *arg)
{
    pool *p = arg;
    char *buf = malloc(READ_BUF + 1);
    if (!buf) return NULL;
    gp_mutex_lock(&p->mu);
    for (;;) {
        /* with too much held, the head is taken or done (jobs are taken in order), so the main
         * thread can always fold and make room */
        while (p->taken == p->pushed ? !p->finished : p->held > POOL_HELD_MAX) {
            bool mem = p->taken < p->pushed;
            p->mem_waits += mem;
            gp_cond_wait(&p->cv_work, &p->mu);
            p->mem_waits -= mem;
        }
        if (p->taken == p->pushed) break;
        job *j = &p->ring[p->taken % p->q];
        p->taken++;
        j->state = 2;
        gp_mutex_unlock(&p->mu);
        gp_audit_scan_path(j->path, j->lang, &j->res, buf, READ_BUF);
        size_t bytes = j->res.capf * sizeof *j->res.f + j->res.text.cap;
        gp_mutex_lock(&p->mu);
        j->bytes = bytes;
        p->held += bytes;
        j->state = 3;
        if (p->main_waits && head_ready(p)) gp_cond_signal(&p->cv_done);
    }
    gp_mutex_unlock(&p->mu);
    free(buf);
    return NULL;
}

static void job_clear(job *j)
{
    free(j->path);
    free(j->module);
    gp_audit_result_free(&j->res);
    memset(j, 0, sizeof *j);
}

/* Folds every finished job at the head of the ring; with `wait`, waits for the head. Called
 * with the mutex held; folding happens unlocked (only this thread touches emitted jobs). */
static void drain(pool *p, bool wait_one)
{
    for (;;) {
        if (p->emitted == p->pushed) return;
        job *j = &p->ring[p->emitted % p->q];
        if (j->state != 3) {
            if (!wait_one) return;
            p->main_waits = true;
            gp_cond_wait(&p->cv_done, &p->mu);
            p->main_waits = false;
            continue;
        }
        size_t bytes = j->bytes;
        gp_mutex_unlock(&p->mu);
        fold(p->st, j);
        job_clear(j);
        gp_mutex_lock(&p->mu);
        p->emitted++;
        p->held -= bytes;
        if (p->mem_waits && p->held <= POOL_HELD_MAX) gp_cond_broadcast(&p->cv_work);
        wait_one = false;
    }
}

typedef struct walk_ctx {
    pool *p;
    int threads;
    char *sbuf;
    size_t files_seen;
} walk_ctx;

static int on_file(void *ctx, const gp_walk_file *f)
{
    walk_ctx *w = ctx;
    pool *p = w->p;
    w->files_seen++;
    if (p->st->o->progress && (w->files_seen & 255) == 0)
        gp_term_progress("audit: %zu %s", w->files_seen, gp_plural(w->files_seen, "file", "files"));
    if (w->threads <= 1) {
        job j;
        memset(&j, 0, sizeof j);
        j.path = strdup(f->path);
        j.module = strdup(f->module);
        j.module_kind = f->module_kind;
        j.lang = f->lang;
        j.is_arg = f->is_arg;
        if (!j.path || !j.module) {
            p->st->failed_alloc = true;
            job_clear(&j);
            return 1;
        }
        gp_audit_scan_path(j.path, j.lang, &j.res, w->sbuf, READ_BUF);
        fold(p->st, &j);
        job_clear(&j);
        return 0;
    }
    gp_mutex_lock(&p->mu);
    while (p->pushed - p->emitted == p->q)
        drain(p, true);
    job *j = &p->ring[p->pushed % p->q];
    j->path = strdup(f->path);
    j->module = strdup(f->module);
    j->module_kind = f->module_kind;
    j->lang = f->lang;
    j->is_arg = f->is_arg;
    j->state = 1;
    p->pushed++;
    gp_cond_signal(&p->cv_work);
    drain(p, false);
    gp_mutex_unlock(&p->mu);
    return 0;
}

static void on_problem(void *ctx, const char *path, const char *what)
{
    walk_ctx *w = ctx;
    /* problems found by the walk are recorded in walk order too: fold what is ready first */
    if (w->threads > 1) {
        gp_mutex_lock(&w->p->mu);
        while (w->p->emitted < w->p->pushed)
            drain(w->p, true);
        gp_mutex_unlock(&w->p->mu);
    }
    add_problem(w->p->st, path, what);
}

static void on_other(void *ctx)
{
    walk_ctx *w = ctx;
    w->p->st->other++;
}

static void state_free(gp_audit_state *st)
{
    gp_strbuf_free(&st->paths);
    gp_strbuf_free(&st->facts);
    free(st->files);
    for (size_t i = 0; i < st->nproblems; i++) {
        free(st->problems[i].path);
        free(st->problems[i].what);
    }
    free(st->problems);
    for (size_t i = 0; i < st->nmods; i++)
        free(st->mods[i].path);
    free(st->mods);
    for (size_t i = 0; i < st->nwmods; i++)
        free(st->wmods[i].path);
    free(st->wmods);
    free(st->modhash);
    free(st->baseline);
    for (size_t i = 0; i < st->ntops; i++)
        free(st->tops[i]);
    free(st->tops);
    free(st->gdefs);
    free(st->owncuda);
    if (st->spool) fclose(st->spool);
}

/* Is path argument i the same file or folder as another argument, or inside one? (A repeated
 * or nested argument would have its files scanned and counted twice.) Of two equal arguments
 * the first is kept. Paths that do not resolve are never covered: the walk reports them. */
static bool covered(const char *const *paths, size_t n, size_t i)
{
    char *me = realpath(paths[i], NULL);
    if (!me) return false;
    bool hit = false;
    for (size_t j = 0; j < n && !hit; j++) {
        if (j == i) continue;
        char *other = realpath(paths[j], NULL);
        if (!other) continue;
        size_t k = strlen(other);
        if (strcmp(me, other) == 0)
            hit = j < i;
        else if (strncmp(me, other, k) == 0 && (me[k] == '/' || (k == 1 && other[0] == '/')))
            hit = true;
        free(other);
    }
    free(me);
    return hit;
}

static int scan_all(gp_audit_state *st, int threads, char *err, size_t errlen, bool *bad_path)
{
    pool p;
    memset(&p, 0, sizeof p);
    p.st = st;
    p.q = (size_t)threads * POOL_JOBS_PER_THREAD + POOL_JOBS_PER_THREAD;
    p.ring = calloc(p.q, sizeof *p.ring);
    gp_mutex_init(&p.mu);
    gp_cond_init(&p.cv_work);
    gp_cond_init(&p.cv_done);
    walk_ctx w = {&p, threads, NULL, 0};
    gp_thread *tids = calloc((size_t)threads, sizeof *tids);
    int started = 0;
    if (threads <= 1) w.sbuf = malloc(READ_BUF + 1);
    if (!p.ring || !tids || (threads <= 1 && !w.sbuf)) {
        snprintf(err, errlen, "out of memory");
        free(p.ring);
        free(tids);
        free(w.sbuf);
        return -1;
    }
    if (threads > 1)
        for (; started < threads; started++)
            if (gp_thread_create(&tids[started], worker, &p) != 0) break;
    if (threads > 1 && started == 0) {
        w.threads = 1;
        w.sbuf = malloc(READ_BUF + 1);
    }
    gp_walk_opts wo = {st->o->respect_gitignore, st->o->no_default_excludes, st->o->excludes,
                       st->o->nexcludes};
    gp_walk_cb cb = {&w, on_file, on_problem, on_other};
    static const char *const dot[] = {"."};
    const char *const *paths = st->o->npaths ? st->o->paths : dot;
    size_t npaths = st->o->npaths ? st->o->npaths : 1;
    int rc = 0;
    for (size_t i = 0; i < npaths; i++) {
        char e[512];
        if (covered(paths, npaths, i)) continue; /* scanned under another argument */
        if (gp_audit_walk(paths[i], &wo, &cb, e, sizeof e) != 0) {
            snprintf(err, errlen, "%s", e);
            *bad_path = true;
            rc = -1;
            break;
        }
    }
    gp_mutex_lock(&p.mu);
    p.finished = true;
    gp_cond_broadcast(&p.cv_work);
    while (p.emitted < p.pushed)
        drain(&p, true);
    gp_mutex_unlock(&p.mu);
    for (int i = 0; i < started; i++)
        gp_thread_join(tids[i]);
    if (st->o->progress) gp_term_progress_done();
    gp_mutex_destroy(&p.mu);
    gp_cond_destroy(&p.cv_work);
    gp_cond_destroy(&p.cv_done);
    free(p.ring);
    free(tids);
    free(w.sbuf);
    return rc;
}

int gp_audit_run(const gp_audit_options *o, FILE *out, char *msg, size_t msglen)
{
#if defined(__GLIBC__)
    /* A file's findings and snippets can take megabytes; freed from several threads, glibc
     * would keep such blocks in its arenas (its mmap threshold rises after the first free) and
     * the resident set would grow with the thread count. A fixed threshold maps them each time
     * and gives them back on free. */
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
    gp_audit_state st;
    memset(&st, 0, sizeof st);
    st.o = o;
    msg[0] = '\0';
    char err[600];
    /* every path must exist before anything is printed */
    for (size_t i = 0; i < o->npaths; i++)
        if (access(o->paths[i], F_OK) != 0) {
            snprintf(msg, msglen, "%s: no such file or directory", o->paths[i]);
            return 2;
        }
    if (o->baseline && gp_audit_baseline_load(&st, o->baseline, msg, msglen) != 0) {
        state_free(&st);
        return 2;
    }
    st.spool = tmpfile();
    if (!st.spool) {
        snprintf(msg, msglen, "cannot create a temporary file");
        state_free(&st);
        return 3;
    }
    int threads = o->jobs > 0 ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1) threads = 1;
    if (threads > 256) threads = 256;
    bool bad_path = false;
    if (scan_all(&st, threads, msg, msglen, &bad_path) != 0) {
        state_free(&st);
        return bad_path ? 2 : 3;
    }
    if (st.failed_alloc) {
        snprintf(msg, msglen, "out of memory or temporary space");
        state_free(&st);
        return 3;
    }
    if (st.arg_problems) {
        /* a file named on the command line that cannot be read is bad input, not a clean file */
        size_t at = 0;
        for (size_t i = 0; i < st.nproblems && at + 1 < msglen; i++) {
            int w = snprintf(msg + at, msglen - at, "%s%s: %s", i ? "; " : "", st.problems[i].path,
                             st.problems[i].what);
            if (w < 0) break;
            at += (size_t)w;
        }
        state_free(&st);
        return 2;
    }
    if (st.scanned == 0) {
        snprintf(msg, msglen,
                 "nothing was scanned: no file of a kind the audit reads (%zu other "
                 "file%s, %zu binary, %zu not readable)",
                 st.other, st.other == 1 ? "" : "s", st.binary, st.problems_total);
        state_free(&st);
        return 2;
    }
    if (gp_audit_resolve(&st) != 0) {
        snprintf(msg, msglen, "out of memory or temporary space");
        state_free(&st);
        return 3;
    }
    int rc = 0;
    switch (o->format) {
    case GP_AUDIT_HUMAN:
        rc = gp_audit_report_human(&st, out);
        break;
    case GP_AUDIT_JSON:
        rc = gp_audit_report_json(&st, out);
        break;
    case GP_AUDIT_SARIF:
        rc = gp_audit_report_sarif(&st, out);
        break;
    }
    if (rc != 0) {
        /* a reader that went away ends the command quietly (where no SIGPIPE ended the process
         * first, as on Windows) */
        if (!gp_term_reader_gone(out))
            fprintf(stderr, "gpuport audit: internal error: cannot write the report\n");
        state_free(&st);
        return 3;
    }
    if (o->write_baseline &&
        gp_audit_baseline_write(&st, o->write_baseline, err, sizeof err) != 0) {
        /* the report is out already: the message goes to stderr only */
        fprintf(stderr, "gpuport audit: %s\n", err);
        state_free(&st);
        return 2;
    }
    int code = 0;
    if (o->fail_on != GP_SEV_NONE)
        for (int s = o->fail_on; s <= GP_SEV_ERROR; s++)
            if (st.count[s]) code = 1;
    state_free(&st);
    return code;
}
