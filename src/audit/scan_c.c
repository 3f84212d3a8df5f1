/* scan_c.c — C/C++/CUDA rules over the lex_c token stream: headers looked up by name,
 * identifiers by exact family tables (a prefix plus the character class that must follow it, as
 * the CUDA APIs name themselves), `x::` scopes, kernel launches, and the body test of PY-EXT-003
 * for sources named as CPU implementations. */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "audit/lex_c.h"
#include "audit/prefilter.h"
#include "audit/scanners.h"

/* Identifier families: `prefix` then a character of class `next` (U upper, L lower, A any,
 * E '_', upper or digit). */
typedef struct c_family {
    const char *prefix;
    char next;
    int rule;
    size_t len; /* filled in by C_FAM */
} c_family;

#define C_FAM(p, nx, r)                                                                            \
    {                                                                                              \
        p, nx, r, sizeof(p) - 1                                                                    \
    }

static const c_family families[] = {
    C_FAM("cuda", 'U', GP_R_C_RT_001),         C_FAM("CUDA_SUCCESS", 'E', GP_R_C_DRV_001),
    C_FAM("CUDA_ERROR_", 'A', GP_R_C_DRV_001), C_FAM("cu", 'U', GP_R_C_DRV_001),
    C_FAM("CU", 'L', GP_R_C_DRV_001),          C_FAM("CU_", 'U', GP_R_C_DRV_001),
    C_FAM("cublas", 'E', GP_R_C_LIB_001),      C_FAM("CUBLAS_", 'A', GP_R_C_LIB_001),
    C_FAM("cudnn", 'E', GP_R_C_LIB_002),       C_FAM("CUDNN_", 'A', GP_R_C_LIB_002),
    C_FAM("cufft", 'E', GP_R_C_LIB_003),       C_FAM("CUFFT_", 'A', GP_R_C_LIB_003),
    C_FAM("curand", 'E', GP_R_C_LIB_003),      C_FAM("CURAND_", 'A', GP_R_C_LIB_003),
    C_FAM("cusparse", 'E', GP_R_C_LIB_003),    C_FAM("CUSPARSE_", 'A', GP_R_C_LIB_003),
    C_FAM("cusolver", 'E', GP_R_C_LIB_003),    C_FAM("CUSOLVER_", 'A', GP_R_C_LIB_003),
    C_FAM("nccl", 'U', GP_R_C_LIB_004),        C_FAM("NCCL_", 'U', GP_R_C_LIB_004),
    C_FAM("__shfl_", 'A', GP_R_C_KERN_002),    C_FAM("getCurrentCUDA", 'A', GP_R_C_ATEN_001),
};

#define C_WORD(w, r)                                                                               \
    {                                                                                              \
        w, r, sizeof(w) - 1                                                                        \
    }

static const struct {
    const char *word;
    int rule;
    size_t len;
} exact[] = {
    C_WORD("__global__", GP_R_C_KERN_001),
    C_WORD("__device__", GP_R_C_KERN_001),
    C_WORD("__shared__", GP_R_C_KERN_001),
    C_WORD("__constant__", GP_R_C_KERN_001),
    C_WORD("__managed__", GP_R_C_KERN_001),
    C_WORD("__launch_bounds__", GP_R_C_KERN_001),
    C_WORD("__ballot_sync", GP_R_C_KERN_002),
    C_WORD("__activemask", GP_R_C_KERN_002),
    C_WORD("__any_sync", GP_R_C_KERN_002),
    C_WORD("__all_sync", GP_R_C_KERN_002),
    C_WORD("__match_any_sync", GP_R_C_KERN_002),
    C_WORD("__syncwarp", GP_R_C_KERN_002),
    C_WORD("CUDAGuard", GP_R_C_ATEN_001),
    C_WORD("OptionalCUDAGuard", GP_R_C_ATEN_001),
    C_WORD("CUDAStreamGuard", GP_R_C_ATEN_001),
    C_WORD("CUDAStream", GP_R_C_ATEN_001),
    C_WORD("kCUDA", GP_R_C_ATEN_001),
    C_WORD("cublasLtHandle_t", GP_R_C_LIB_001),
    C_WORD("CUdeviceptr", GP_R_C_DRV_001),
};

static bool family_next_ok(char cls, const char *w, size_t k, size_t pl)
{
    if (cls == 'A') return true;
    if (pl == k) return false; /* the bare word (a variable called cublas) is not the API */
    unsigned char c = (unsigned char)w[pl];
    if (cls == 'U') return isupper(c);
    if (cls == 'L') return islower(c);
    return c == '_' || isupper(c) || isdigit(c); /* 'E' */
}

/* The first two bytes of every word and prefix in the tables above: an identifier that starts
 * with none of these pairs cannot match any entry, so most stop at one bit test. */
static uint32_t first_pairs[65536 / 32];
static pthread_once_t first_pairs_once = PTHREAD_ONCE_INIT;

static unsigned pair_of(const char *w)
{
    return (unsigned)(unsigned char)w[0] << 8 | (unsigned char)w[1];
}

static void first_pairs_build(void)
{
    unsigned p;
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++) {
        p = pair_of(exact[i].word);
        first_pairs[p >> 5] |= 1u << (p & 31);
    }
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
        p = pair_of(families[i].prefix);
        first_pairs[p >> 5] |= 1u << (p & 31);
    }
}

static int ident_rule(const char *w, size_t k)
{
    if (k < 4) return -1;
    unsigned p = pair_of(w); /* every table entry starts with one of these pairs: most stop here */
    if (!((first_pairs[p >> 5] >> (p & 31)) & 1u)) return -1;
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        if (exact[i].len == k && memcmp(exact[i].word, w, k) == 0) return exact[i].rule;
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
        size_t pl = families[i].len;
        if (k >= pl && memcmp(w, families[i].prefix, pl) == 0 &&
            family_next_ok(families[i].next, w, k, pl))
            return families[i].rule;
    }
    return -1;
}

/* Header folders and base-name prefixes that only the CUDA toolkit (or a CUDA library) has. */
static const char *const header_dirs[] = {"thrust/",          "cub/",
                                          "cutlass/",         "cute/",
                                          "ATen/cuda/",       "ATen/native/cuda/",
                                          "ATen/cudnn/",      "ATen/native/cudnn/",
                                          "c10/cuda/",        "cuda/",
                                          "nvtx3/",           "cooperative_groups/",
                                          "torch/csrc/cuda/", "crt/"};
static const char *const header_prefixes[] = {"cuda",     "cublas",
                                              "cudnn",    "cufft",
                                              "curand",   "cusparse",
                                              "cusolver", "nvrtc",
                                              "nvml",     "nvToolsExt",
                                              "npp",      "cupti",
                                              "nvjpeg",   "cooperative_groups",
                                              "mma.h",    "device_launch_parameters",
                                              "sm_",      "nvfunctional"};
/* NCCL's header base names. */
static const char *const header_nccl[] = {"nccl.h", "nccl_"};

/* Scopes (`x::`) that are CUDA template libraries or tensor-core APIs. */
#define C_SCOPE(w, r)                                                                              \
    {                                                                                              \
        w, sizeof(w) - 1, r                                                                        \
    }

static const struct {
    const char *word;
    size_t len;
    int rule;
} scopes[] = {C_SCOPE("thrust", GP_R_C_LIB_005), C_SCOPE("cub", GP_R_C_LIB_005),
              C_SCOPE("cutlass", GP_R_C_LIB_005), C_SCOPE("cute", GP_R_C_LIB_005),
              C_SCOPE("wmma", GP_R_C_KERN_003)};

static int header_rule(const char *h, size_t n)
{
    char b[128];
    if (n == 0 || n >= sizeof b) return -1;
    memcpy(b, h, n);
    b[n] = '\0';
    const char *base = strrchr(b, '/');
    base = base ? base + 1 : b;
    if (strcmp(base, header_nccl[0]) == 0 ||
        strncmp(base, header_nccl[1], strlen(header_nccl[1])) == 0)
        return GP_R_C_LIB_004;
    for (size_t i = 0; i < sizeof header_dirs / sizeof header_dirs[0]; i++)
        if (strncmp(b, header_dirs[i], strlen(header_dirs[i])) == 0) return GP_R_C_INC_001;
    for (size_t i = 0; i < sizeof header_prefixes / sizeof header_prefixes[0]; i++)
        if (strncmp(base, header_prefixes[i], strlen(header_prefixes[i])) == 0)
            return GP_R_C_INC_001;
    return -1;
}

typedef struct c_scan {
    gp_audit_source *s;
    gp_audit_result *r;
    const char *path; /* the file's path as walked (for its folder), or NULL */
    bool cuda;
    bool cpu_named;
    gp_c_tok prev[3]; /* the three tokens before the current one, most recent first */
    /* PY-EXT-003: function bodies of a CPU-named source */
    int depth;
    int body_depth; /* depth inside the function body being read, or -1 */
    int nfunc, nraise;
    bool at_first_stmt;
    gp_c_tok first_raise;
    gp_c_tok look[2]; /* lookahead for TORCH_CHECK(false */
} c_scan;

/* Is a quoted include a header that sits next to the including file (the project's own
 * "cuda_utils.h", not the toolkit's)? Its own includes are reported where they are. */
static bool project_header(const c_scan *cs, const gp_c_tok *t)
{
    if (!cs->path || t->off == 0 || cs->s->data[t->off - 1] != '"') return false;
    const char *slash = strrchr(cs->path, '/');
    size_t dn = slash ? (size_t)(slash - cs->path) + 1 : 0;
    char p[1024];
    if (dn + t->len >= sizeof p) return false;
    memcpy(p, cs->path, dn);
    memcpy(p + dn, cs->s->data + t->off, t->len);
    p[dn + t->len] = '\0';
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Inlined at every use, so that with `n` a constant the comparison is a few instructions. */
static inline __attribute__((always_inline)) bool tok_eq_n(const c_scan *cs, const gp_c_tok *t,
                                                           const char *w, size_t n)
{
    return t->len == n && cs->s->data[t->off] == w[0] && memcmp(cs->s->data + t->off, w, n) == 0;
}

/* Compares a token with a string literal (its length known at compile time). */
#define tok_eq(cs, t, w) tok_eq_n(cs, t, w, sizeof(w) - 1)

static void rep(c_scan *cs, int rule, const gp_c_tok *t)
{
    gp_audit_add(cs->r, cs->s, rule, t->guarded, t->line, t->line_off, t->off, t->len);
}

static bool raise_head(c_scan *cs, const gp_c_tok *t, const gp_c_tok *n1, const gp_c_tok *n2)
{
    if (tok_eq(cs, t, "AT_ERROR") || tok_eq(cs, t, "throw") ||
        tok_eq(cs, t, "TORCH_CHECK_NOT_IMPLEMENTED"))
        return true;
    if (tok_eq(cs, t, "TORCH_CHECK") || tok_eq(cs, t, "TORCH_INTERNAL_ASSERT") ||
        tok_eq(cs, t, "AT_ASSERTM") || tok_eq(cs, t, "AT_ASSERT"))
        return tok_eq(cs, n1, "(") && (tok_eq(cs, n2, "false") || tok_eq(cs, n2, "0"));
    return false;
}

/* Function-body bookkeeping (PY-EXT-003), fed every token with two tokens of lookahead. */
static void body_track(c_scan *cs, const gp_c_tok *t, const gp_c_tok *n1, const gp_c_tok *n2)
{
    if (t->kind == GP_C_PUNCT && tok_eq(cs, t, "{")) {
        const gp_c_tok *p = &cs->prev[0];
        bool fn = cs->body_depth < 0 && (tok_eq(cs, p, ")") || tok_eq(cs, p, "const") ||
                                         tok_eq(cs, p, "override") || tok_eq(cs, p, "noexcept"));
        cs->depth++;
        if (fn) {
            cs->body_depth = cs->depth;
            cs->nfunc++;
            cs->at_first_stmt = true;
        }
        return;
    }
    if (t->kind == GP_C_PUNCT && tok_eq(cs, t, "}")) {
        if (cs->body_depth == cs->depth) {
            if (cs->at_first_stmt) cs->nfunc--; /* an empty body says nothing */
            cs->body_depth = -1;
        }
        if (cs->depth > 0) cs->depth--;
        return;
    }
    if (cs->body_depth >= 0 && cs->at_first_stmt) {
        cs->at_first_stmt = false;
        if (raise_head(cs, t, n1, n2)) {
            if (cs->nraise == 0) cs->first_raise = *t;
            cs->nraise++;
        }
    }
}

static void check_tok(c_scan *cs, const gp_c_tok *t, const gp_c_tok *n1, const gp_c_tok *n2)
{
    const char *w = cs->s->data + t->off;
    if (t->kind == GP_C_INCLUDE) {
        int rule = header_rule(w, t->len);
        if (rule == GP_R_C_INC_001 && project_header(cs, t)) return; /* its own "cuda_utils.h" */
        if (rule >= 0) rep(cs, rule, t);
        return;
    }
    if (t->kind == GP_C_PUNCT) {
        if (t->len == 3 && memcmp(w, "<<<", 3) == 0) rep(cs, GP_R_C_KERN_001, t);
        return;
    }
    if (t->kind != GP_C_IDENT) return;
    bool scope = n1->kind == GP_C_PUNCT && tok_eq(cs, n1, "::");
    if (scope) {
        for (size_t i = 0; i < sizeof scopes / sizeof scopes[0]; i++)
            if (tok_eq_n(cs, t, scopes[i].word, scopes[i].len)) {
                rep(cs, scopes[i].rule, t);
                return;
            }
        if ((tok_eq(cs, t, "at") || tok_eq(cs, t, "c10")) && tok_eq(cs, n2, "cuda")) {
            rep(cs, GP_R_C_ATEN_001, t);
            return;
        }
    }
    /* `at::cuda::x`, `nvcuda::wmma`: the scope already reported */
    if (cs->prev[0].kind == GP_C_PUNCT && tok_eq(cs, &cs->prev[0], "::") &&
        (tok_eq(cs, &cs->prev[1], "at") || tok_eq(cs, &cs->prev[1], "c10") ||
         tok_eq(cs, &cs->prev[1], "nvcuda")))
        if (tok_eq(cs, t, "cuda") || tok_eq(cs, t, "wmma")) {
            if (tok_eq(cs, t, "wmma")) rep(cs, GP_R_C_KERN_003, t);
            return;
        }
    if (tok_eq(cs, t, "is_cuda") &&
        (tok_eq(cs, &cs->prev[0], ".") || tok_eq(cs, &cs->prev[0], "->")) && tok_eq(cs, n1, "(")) {
        rep(cs, GP_R_C_ATEN_001, t);
        return;
    }
    if (cs->cuda && (tok_eq(cs, t, "asm") || tok_eq(cs, t, "__asm__") || tok_eq(cs, t, "__asm")) &&
        (tok_eq(cs, n1, "(") || tok_eq(cs, n1, "volatile") || tok_eq(cs, n1, "__volatile__"))) {
        rep(cs, GP_R_C_KERN_003, t);
        return;
    }
    int rule = ident_rule(w, t->len);
    if (rule >= 0) rep(cs, rule, t);
}

/* A CPU implementation is a source file (not a header: headers hold declarations and default
 * bodies of virtual methods) with "cpu" in its name or in a folder named cpu/. */
bool gp_audit_c_path_is_cpu_named(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot || !(strcmp(dot, ".c") == 0 || strcmp(dot, ".cc") == 0 || strcmp(dot, ".cpp") == 0 ||
                  strcmp(dot, ".cxx") == 0))
        return false;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char low[256];
    size_t n = strlen(base) < sizeof low - 1 ? strlen(base) : sizeof low - 1;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)tolower((unsigned char)base[i]);
    low[n] = '\0';
    if (strstr(low, "cpu")) return true;
    /* a folder named cpu/ */
    for (const char *p = path; (p = strstr(p, "cpu/")) != NULL; p++)
        if (p == path || p[-1] == '/') return true;
    return false;
}

void gp_audit_scan_c(gp_audit_source *s, gp_audit_result *r, bool cuda, const char *path)
{
    gp_audit_scan_c_how(s, r, cuda, path, true);
}

/* ---- the shortcut ----------------------------------------------------------------------------
 * Every finding of check_tok is made at a token that starts with a prefilter word (GP_PF_C), or
 * at `at`/`c10` two tokens before a `cuda` one. scan_sparse lexes from the start of the line of
 * the next prefilter word and skips the lines between without making tokens
 * (gp_c_lexer_skip), which keeps the lexer's state (comments, strings, the #if stack, lines)
 * exact. It leaves a lexed stretch once no word starts in the tokens it has read ahead; those
 * hold none, so check_tok would find nothing in them. A token whose rule looks two tokens back
 * (cuda, wmma, is_cuda) is checked only when both were lexed since the last skip; otherwise the
 * skipped stretch is lexed after all, from a mark left where the skip began (the results made
 * since are dropped and made again). When the skip is unsure the file is scanned in full. Past
 * the last word the rest is skipped to the end for its suppression comments. */

static bool needs_lookbehind(const c_scan *cs, const gp_c_tok *t)
{
    return t->kind == GP_C_IDENT &&
           (tok_eq(cs, t, "cuda") || tok_eq(cs, t, "wmma") || tok_eq(cs, t, "is_cuda"));
}

/* The start of p's line, or `floor` when that is further back (the lexer is past it anyway). */
static size_t line_start(const char *d, size_t p, size_t floor)
{
    while (p > floor && d[p - 1] != '\n')
        p--;
    return p;
}

/* The end of a span searched without a word stands for one: the lexer starts again on its line
 * and reads on, which is exact wherever it starts. */
#define C_FIND_SPAN ((2u << 20) >> GP_AUDIT_SCALE_DOWN)

/* Where a skip began: the lexer, the token window and what the result held, so that the skipped
 * stretch can be lexed after all when a later token needs the tokens before it. */
typedef struct c_mark {
    gp_c_lexer lx;
    gp_c_tok cur, n1, n2, prev[3];
    int known;
    size_t nf, text, nsup, dropped;
} c_mark;

/* False when the file has to be scanned in full instead (nothing was kept then). */
static bool scan_sparse(c_scan *cs, gp_c_lexer *lx)
{
    const char *d = cs->s->data;
    size_t n = cs->s->size;
    gp_audit_result *r = cs->r;
    gp_c_tok cur, n1, n2;
    gp_c_lexer_next(lx, &cur);
    gp_c_lexer_next(lx, &n1);
    gp_c_lexer_next(lx, &n2);
    int known = 2; /* tokens before cur known in prev[] (at the start there are none to know) */
    size_t hit = 0, hit_ls = SIZE_MAX, relex_until = 0, count = 0;
    c_mark mark;
    bool have_mark = false;
    while (cur.kind != GP_C_END) {
        if (known < 2 && needs_lookbehind(cs, &cur)) {
            if (!have_mark) return false;
            /* lex the skipped stretch after all, from where the skip began to this token */
            relex_until = cur.off;
            gp_audit_source_rewind(cs->s, mark.cur.off);
            *lx = mark.lx;
            cur = mark.cur, n1 = mark.n1, n2 = mark.n2;
            memcpy(cs->prev, mark.prev, sizeof cs->prev);
            known = mark.known;
            r->nf = mark.nf, r->text.len = mark.text, r->nsup = mark.nsup;
            r->dropped = mark.dropped;
            have_mark = false;
            hit = 0;
            continue;
        }
        check_tok(cs, &cur, &n1, &n2);
        cs->prev[2] = cs->prev[1];
        cs->prev[1] = cs->prev[0];
        cs->prev[0] = cur;
        known++;
        cur = n1;
        n1 = n2;
        gp_c_lexer_next(lx, &n2);
        if ((++count & 1023) == 0) gp_audit_source_release(cs->s, cs->prev[2].off);
        if (cur.off <= relex_until) continue;
        if (hit < cur.off) { /* a mapped file is searched 2 MB at a time */
            size_t lim = cs->s->mapped && n - cur.off > C_FIND_SPAN ? cur.off + C_FIND_SPAN : n;
            hit = gp_audit_prefilter_find_before(GP_PF_C, d, n, cur.off, lim);
            hit_ls = SIZE_MAX; /* its line's start: looked for once, below */
        }
        if (hit >= n) /* no word in cur, n1, n2 or after them: only comments still count */
            return gp_c_lexer_skip(lx, SIZE_MAX) != GP_C_SKIP_UNSURE;
        if (hit < lx->pos) continue; /* a word in the tokens read ahead */
        if (hit_ls == SIZE_MAX) hit_ls = line_start(d, hit, lx->pos);
        if (hit_ls <= lx->pos) continue; /* on this line: lexing on is as quick */
        size_t ls = hit_ls;
        mark = (c_mark){*lx,   cur,   n1,          n2,      {cs->prev[0], cs->prev[1], cs->prev[2]},
                        known, r->nf, r->text.len, r->nsup, r->dropped};
        have_mark = true;
        gp_c_skip k = gp_c_lexer_skip(lx, ls);
        if (k == GP_C_SKIP_UNSURE) return false;
        if (k == GP_C_SKIP_EOF) return true;
        known = 0;
        gp_c_lexer_next(lx, &cur);
        gp_c_lexer_next(lx, &n1);
        gp_c_lexer_next(lx, &n2);
    }
    return true;
}

void gp_audit_scan_c_how(gp_audit_source *s, gp_audit_result *r, bool cuda, const char *path,
                         bool shortcut)
{
    c_scan cs;
    bool cpu_named = !cuda && path && gp_audit_c_path_is_cpu_named(path);
    pthread_once(&first_pairs_once, first_pairs_build);
    /* Not for CUDA sources (inline PTX is found without a word) nor sources named as CPU
     * implementations (every function body counts). */
    if (shortcut && !cuda && !cpu_named) {
        size_t nf0 = r->nf, text0 = r->text.len, dropped0 = r->dropped, nsup0 = r->nsup;
        memset(&cs, 0, sizeof cs);
        cs.s = s;
        cs.r = r;
        cs.path = path;
        cs.body_depth = -1;
        gp_c_lexer lx;
        gp_c_lexer_init(&lx, s, r);
        if (scan_sparse(&cs, &lx)) return;
        s->released = 0; /* start again in full (released pages map in again when read) */
        r->nf = nf0;
        r->nsup = nsup0;
        r->text.len = text0;
        r->dropped = dropped0;
    }
    memset(&cs, 0, sizeof cs);
    cs.s = s;
    cs.r = r;
    cs.path = path;
    cs.cuda = cuda;
    cs.cpu_named = cpu_named;
    cs.body_depth = -1;
    gp_c_lexer lx;
    gp_c_lexer_init(&lx, s, r);
    gp_c_tok cur, n1, n2;
    gp_c_lexer_next(&lx, &cur);
    gp_c_lexer_next(&lx, &n1);
    gp_c_lexer_next(&lx, &n2);
    size_t count = 0;
    while (cur.kind != GP_C_END) {
        check_tok(&cs, &cur, &n1, &n2);
        if (cs.cpu_named) body_track(&cs, &cur, &n1, &n2);
        cs.prev[2] = cs.prev[1];
        cs.prev[1] = cs.prev[0];
        cs.prev[0] = cur;
        cur = n1;
        n1 = n2;
        gp_c_lexer_next(&lx, &n2);
        if ((++count & 1023) == 0) gp_audit_source_release(s, cs.prev[2].off);
    }
    if (cs.cpu_named && cs.nfunc > 0) {
        if (cs.nraise == cs.nfunc)
            gp_audit_add(r, s, GP_R_PY_EXT_003, cs.first_raise.guarded, cs.first_raise.line,
                         cs.first_raise.line_off, cs.first_raise.off, cs.first_raise.len);
        else
            r->cpu_impl = true;
    }
}

/* The prefilter's words: every table above, plus the words check_tok tests in code. A C/C++
 * finding needs its identifier, header name or `<<<` in the file's bytes, so a file with none of
 * these yields none. (The inline-PTX check is made only in CUDA sources, which are always lexed;
 * PY-EXT-003 sources named as CPU implementations are always lexed too.) */
static const gp_audit_trigger code_words[] = {
    {"<<<", 0, false},    /* kernel launch (a punctuator: may follow an identifier) */
    {"cuda", 0, true},    /* at::cuda / c10::cuda */
    {"is_cuda", 0, true}, /* .is_cuda() */
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define C_TRIGGERS_MAX                                                                             \
    (COUNT(families) + COUNT(exact) + COUNT(header_dirs) + COUNT(header_prefixes) +                \
     COUNT(header_nccl) + COUNT(scopes) + COUNT(code_words))
static gp_audit_trigger c_triggers[C_TRIGGERS_MAX];
static size_t c_ntriggers;
static pthread_once_t c_triggers_once = PTHREAD_ONCE_INIT;

/* Every C word starts a token (identifiers) or follows '<', '"' or '/' (header names). The array
 * is sized from the tables, so it always has room. */
static void c_trigger_add(const char *text, char next, bool word)
{
    c_triggers[c_ntriggers++] = (gp_audit_trigger){text, next, word};
}

static void c_triggers_build(void)
{
    for (size_t i = 0; i < COUNT(families); i++)
        c_trigger_add(families[i].prefix, families[i].next == 'A' ? 0 : families[i].next, true);
    for (size_t i = 0; i < COUNT(exact); i++)
        c_trigger_add(exact[i].word, 0, true);
    for (size_t i = 0; i < COUNT(header_dirs); i++)
        c_trigger_add(header_dirs[i], 0, true);
    for (size_t i = 0; i < COUNT(header_prefixes); i++)
        c_trigger_add(header_prefixes[i], 0, true);
    for (size_t i = 0; i < COUNT(header_nccl); i++)
        c_trigger_add(header_nccl[i], 0, true);
    for (size_t i = 0; i < COUNT(scopes); i++)
        c_trigger_add(scopes[i].word, 0, true);
    for (size_t i = 0; i < COUNT(code_words); i++)
        c_trigger_add(code_words[i].text, code_words[i].next, code_words[i].word);
}

size_t gp_audit_c_triggers(const gp_audit_trigger **out)
{
    pthread_once(&c_triggers_once, c_triggers_build);
    *out = c_triggers;
    return c_ntriggers;
}
