/* scan_c.c — C/C++/CUDA rules over the lex_c token stream: headers looked up by name,
 * identifiers by exact family tables (a prefix plus the character class that must follow it, as
 * the CUDA APIs name themselves), `x::` scopes, kernel launches, and the body test of PY-EXT-003
 * for sources named as CPU implementations. */
#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "audit/cuda_api.h"
#include "audit/lex_c.h"
#include "audit/prefilter.h"
#include "audit/scanners.h"
#include "util/thread.h"

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
static gp_once first_pairs_once = GP_ONCE_INIT;

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

/* Is w[0, k) one of the names of a sorted table? */
static bool in_table(const char *const *t, size_t n, const char *w, size_t k)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strncmp(t[mid], w, k);
        if (c == 0 && t[mid][k] != '\0') c = 1;
        if (c == 0) return true;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* The runtime and driver families, and the libraries' upper-case names, name the API only with
 * the toolkit's own names (cuda_api.h): a project's cudaCheck wrapper, a CU_ASSERT macro or a
 * variable called cudaVersion has the shape but is no API. */
static bool family_is_api(int rule, const char *w, size_t k)
{
    if (rule == GP_R_C_RT_001)
        return in_table(gp_cuda_runtime_names,
                        sizeof gp_cuda_runtime_names / sizeof gp_cuda_runtime_names[0], w, k);
    if (rule == GP_R_C_DRV_001)
        return (k > 5 && memcmp(w, "CUDA_", 5) == 0) || /* CUDA_SUCCESS, CUDA_ERROR_* */
               in_table(gp_cuda_driver_names,
                        sizeof gp_cuda_driver_names / sizeof gp_cuda_driver_names[0], w, k);
    if (rule == GP_R_C_KERN_002 || rule == GP_R_C_ATEN_001) return true; /* __shfl_*, CUDA* */
    /* a library's upper-case names (CUBLAS_OP_N, NCCL_VERSION_CODE): its headers' own, not a
     * project's CUBLAS_CHECK or its include guard CUBLAS_COMMON_H */
    if (isupper((unsigned char)w[0]))
        return in_table(gp_cuda_library_constants,
                        sizeof gp_cuda_library_constants / sizeof gp_cuda_library_constants[0], w,
                        k);
    /* its functions and types: the headers' own; a project's names of that shape (cublasCheck,
     * ncclTestEngine) are not */
    return in_table(gp_cuda_library_names,
                    sizeof gp_cuda_library_names / sizeof gp_cuda_library_names[0], w, k);
}

/* The rule of an identifier, or -1; *family: it matched a family (not an exact word). */
static int ident_rule_of(const char *w, size_t k, bool *family)
{
    *family = false;
    if (k < 4) return -1;
    unsigned p = pair_of(w); /* every table entry starts with one of these pairs: most stop here */
    if (!((first_pairs[p >> 5] >> (p & 31)) & 1u)) return -1;
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        if (exact[i].len == k && memcmp(exact[i].word, w, k) == 0) return exact[i].rule;
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
        size_t pl = families[i].len;
        if (k >= pl && memcmp(w, families[i].prefix, pl) == 0 &&
            family_next_ok(families[i].next, w, k, pl)) {
            if (!family_is_api(families[i].rule, w, k)) return -1;
            *family = true;
            return families[i].rule;
        }
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

/* Dispatch on the device at run time (`if (x.is_cuda()) ... else ...`, `x.is_cuda() ? a : b`,
 * `case DeviceType::CUDA:`): the CUDA branch is guarded code. Depths are counted from where a
 * construct starts, so the state is the same whether or not the text before was tokenized; the
 * test must sit on the line of its `if` or `case` (the shortcut lexes whole lines). */
#define C_RT_MAX 16
enum { RT_BRACE = 1, RT_STMT, RT_CASE, RT_TERNARY };

typedef struct c_rt_guard {
    uint8_t kind;
    bool on;      /* the CUDA branch */
    bool else_on; /* an if's body: its else is the CUDA branch (the test was negated) */
    int depth;    /* braces (RT_BRACE, RT_CASE) or parentheses (RT_STMT, RT_TERNARY) inside */
} c_rt_guard;

typedef struct c_rt {
    int cond;                      /* 1: after `if`, 2: inside its condition */
    uint32_t cond_line;            /* the line of the `if` */
    int cond_depth;                /* parentheses open inside the condition */
    bool cond_cuda, cond_neg, neg; /* the condition tests CUDA, negated; a '!' pending */
    bool body;                     /* the next token starts the if's statement */
    bool body_on, body_else_on;
    bool else_ready, else_on; /* a closed if: an `else` may come */
    int in_case;              /* after `case` on this line: 1, 2 when it tests CUDA */
    uint32_t case_line;
    int watch; /* tokens to lex after a device test (a ternary may follow) */
    int judge; /* after an if's CUDA branch: 1 the next token says what the CPU path does, 2 the
                * first statement of its else */
    long drop; /* the finding of a device test that turned out to be a dispatch */
    int ng;
    c_rt_guard g[C_RT_MAX];
} c_rt;

typedef struct c_scan {
    gp_audit_source *s;
    gp_audit_result *r;
    const char *path; /* the file's path as walked (for its folder), or NULL */
    bool cuda;
    bool cpu_named;
    c_rt rt;
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

static bool rt_on(const c_scan *cs)
{
    for (int i = 0; i < cs->rt.ng; i++)
        if (cs->rt.g[i].on) return true;
    return false;
}

/* A finding at token t. Under #ifdef on a CUDA switch it is at most a note: the build without
 * the switch has none of that code. In the CUDA branch of a dispatch at run time it gets the
 * rule's guarded severity: that code is still compiled everywhere. */
static long rep(c_scan *cs, int rule, const gp_c_tok *t)
{
    bool runtime = rt_on(cs);
    long k = gp_audit_add(cs->r, cs->s, rule, t->guarded || runtime, t->line, t->line_off, t->off,
                          t->len);
    if (k >= 0 && t->guarded && !runtime && cs->r->f[k].severity > GP_SEV_NOTE)
        cs->r->f[k].severity = GP_SEV_NOTE;
    return k;
}

/* ---- dispatch on the device ---------------------------------------------------------------- */

/* 1 when the token tests for CUDA (is_cuda(), kCUDA, DeviceType::CUDA), 2 for MPS, else 0. */
static int device_test(const c_scan *cs, const gp_c_tok *t, const gp_c_tok *n1)
{
    if (t->kind != GP_C_IDENT) return 0;
    if ((tok_eq(cs, t, "is_cuda") && tok_eq(cs, n1, "(")) || tok_eq(cs, t, "kCUDA")) return 1;
    if ((tok_eq(cs, t, "is_mps") && tok_eq(cs, n1, "(")) || tok_eq(cs, t, "kMPS")) return 2;
    if (tok_eq(cs, &cs->prev[0], "::") && tok_eq(cs, &cs->prev[1], "DeviceType")) {
        if (tok_eq(cs, t, "CUDA")) return 1;
        if (tok_eq(cs, t, "MPS")) return 2;
    }
    return 0;
}

/* May the shortcut skip text now? Not while a dispatch construct is open. */
static bool rt_busy(const c_scan *cs)
{
    const c_rt *rt = &cs->rt;
    return rt->cond || rt->body || rt->else_ready || rt->in_case || rt->watch > 0 || rt->ng > 0 ||
           rt->judge;
}

static void rt_push(c_scan *cs, int kind, bool on, bool else_on)
{
    c_rt *rt = &cs->rt;
    if (rt->ng == C_RT_MAX) return;
    rt->g[rt->ng++] = (c_rt_guard){(uint8_t)kind, on, else_on, 0};
    /* an if's CUDA branch is a dispatch once what follows it is known to be a CPU path that does
     * more than raise (rt_judge) */
    if (on && kind != RT_BRACE && kind != RT_STMT) cs->r->cuda_dispatch = true;
}

/* A guard ended: an if's statement may be followed by its else. */
static void rt_pop(c_scan *cs)
{
    c_rt *rt = &cs->rt;
    c_rt_guard g = rt->g[--rt->ng];
    if (g.kind == RT_BRACE || g.kind == RT_STMT) {
        rt->else_ready = true;
        rt->else_on = g.else_on;
        if (g.on) rt->judge = 1;
    }
}

static bool raise_head(c_scan *cs, const gp_c_tok *t, const gp_c_tok *n1, const gp_c_tok *n2);

/* After an if's CUDA branch: the CPU path is its else, or the code after it. One that only
 * raises (`AT_ERROR("not implemented on the CPU")`, `TORCH_CHECK(false, ...)`, `throw`), or
 * none (the function ends), is no CPU path: the if is then no dispatch. */
static void rt_judge(c_scan *cs, const gp_c_tok *t, const gp_c_tok *n1, const gp_c_tok *n2)
{
    c_rt *rt = &cs->rt;
    if (t->in_define) return;
    if (rt->judge == 1 && tok_eq(cs, t, "else")) {
        if (tok_eq(cs, n1, "if")) {
            rt->judge = 0;
            cs->r->cuda_dispatch = true; /* else if: another branch of its own */
        } else {
            rt->judge = 2;
        }
        return;
    }
    if (rt->judge == 2 && tok_eq(cs, t, "{")) return;
    rt->judge = 0;
    if (tok_eq(cs, t, "}")) return;
    if (raise_head(cs, t, n1, n2)) { /* the CPU side of the dispatch is a stub */
        gp_audit_add(cs->r, cs->s, GP_R_PY_EXT_003, t->guarded, t->line, t->line_off, t->off,
                     t->len);
        return;
    }
    cs->r->cuda_dispatch = true;
}

/* Follows the dispatch constructs through token t (before the rules look at it, so that t is
 * rated with the guards it is in). Tokens of #define bodies are not code here. */
static void rt_track(c_scan *cs, const gp_c_tok *t, const gp_c_tok *n1)
{
    c_rt *rt = &cs->rt;
    if (t->in_define) return;
    bool punct = t->kind == GP_C_PUNCT;
    const char *w = cs->s->data + t->off;
    char c = w[0];
    int old_ng = rt->ng; /* the guards open before this token (their depths count it) */
    if (rt->watch > 0) rt->watch--;
    if (rt->else_ready) {
        rt->else_ready = false;
        if (t->kind == GP_C_IDENT && tok_eq(cs, t, "else")) {
            if (rt->else_on && !tok_eq(cs, n1, "if")) {
                rt->body = true;
                rt->body_on = true;
                rt->body_else_on = false;
            }
            return;
        }
    }
    if (rt->body) { /* the if's statement starts here */
        rt->body = false;
        if (punct && c == '{' && t->len == 1) {
            for (int i = 0; i < old_ng; i++)
                if (rt->g[i].kind == RT_BRACE || rt->g[i].kind == RT_CASE) rt->g[i].depth++;
            rt_push(cs, RT_BRACE, rt->body_on, rt->body_else_on);
            if (rt->ng > old_ng) rt->g[rt->ng - 1].depth = 1;
            return;
        }
        rt_push(cs, RT_STMT, rt->body_on, rt->body_else_on);
        old_ng = rt->ng; /* the statement's own tokens count for it */
    }
    int dev = device_test(cs, t, n1);
    if (dev == 2) cs->r->mps_impl = true;
    if (t->kind == GP_C_IDENT) {
        if (tok_eq(cs, t, "if") && !rt->cond) {
            rt->cond = 1;
            rt->cond_line = t->line;
            rt->cond_cuda = rt->cond_neg = rt->neg = false;
            return;
        }
        if (tok_eq(cs, t, "constexpr") && rt->cond == 1) return;
        if ((tok_eq(cs, t, "case") || tok_eq(cs, t, "default")) && rt->ng &&
            rt->g[rt->ng - 1].kind == RT_CASE && rt->g[rt->ng - 1].depth == 0)
            rt_pop(cs); /* the next label ends the CUDA case */
        if (tok_eq(cs, t, "case")) {
            rt->in_case = 1;
            rt->case_line = t->line;
            return;
        }
        if (dev == 1 && rt->cond == 2 && t->line == rt->cond_line) {
            rt->cond_cuda = true;
            rt->cond_neg |= rt->neg;
        }
        if (dev == 1 && rt->in_case && t->line == rt->case_line) rt->in_case = 2;
        if (dev == 1 && !rt->cond && !rt->in_case) rt->watch = 3;
    }
    if (rt->cond == 1) { /* `if` must be followed by its '(' */
        rt->cond = punct && c == '(' ? 2 : 0;
        rt->cond_depth = 0;
        if (rt->cond) return;
    }
    if (!punct) return;
    if (rt->cond == 2) {
        if (c == '!' && (t->len == 1 || tok_eq(cs, t, "!="))) rt->neg = true;
        if (tok_eq(cs, t, "&&") || tok_eq(cs, t, "||")) rt->neg = false;
        if (c == '(') rt->cond_depth++;
        if (c == ')' && rt->cond_depth-- == 0) { /* the end of the condition */
            rt->cond = 0;
            if (rt->cond_cuda) {
                rt->body = true;
                rt->body_on = !rt->cond_neg;
                rt->body_else_on = rt->cond_neg;
            }
        }
        return;
    }
    if (rt->in_case && tok_eq(cs, t, ":")) {
        if (rt->in_case == 2) rt_push(cs, RT_CASE, true, false);
        rt->in_case = 0;
        return;
    }
    if (tok_eq(cs, t, "?") && tok_eq(cs, &cs->prev[0], ")") && tok_eq(cs, &cs->prev[1], "(") &&
        cs->prev[2].kind == GP_C_IDENT && tok_eq(cs, &cs->prev[2], "is_cuda")) {
        rt_push(cs, RT_TERNARY, true, false); /* x.is_cuda() ? cuda_op(x) : cpu_op(x) */
        if (rt->drop >= 0 && (size_t)rt->drop < cs->r->nf)
            cs->r->f[rt->drop].severity = GP_SEV_NONE; /* the test is the dispatch, no finding */
        return;
    }
    /* depths inside the open guards, and their ends */
    for (int i = 0; i < old_ng; i++) {
        c_rt_guard *g = &rt->g[i];
        bool brace = g->kind == RT_BRACE || g->kind == RT_CASE;
        if (brace && c == '{' && t->len == 1) g->depth++;
        if (brace && c == '}') g->depth--;
        if (!brace && c == '(') g->depth++;
        if (!brace && c == ')') g->depth--;
    }
    while (rt->ng) {
        c_rt_guard *g = &rt->g[rt->ng - 1];
        bool colon = tok_eq(cs, t, ":"), comma = tok_eq(cs, t, ",");
        bool end = (g->kind == RT_BRACE && g->depth <= 0) || (g->kind == RT_CASE && g->depth < 0) ||
                   (g->kind == RT_STMT && (g->depth < 0 || (c == ';' && g->depth <= 0))) ||
                   (g->kind == RT_TERNARY &&
                    (g->depth < 0 || (g->depth == 0 && (colon || c == ';' || comma))));
        if (!end) break;
        rt_pop(cs);
        if (g->kind == RT_BRACE || c == ')') break; /* one closing token ends one construct */
    }
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
        /* a launch a formatter that does not know CUDA split: `k << <grid, block >> > (x)` (in a
         * CUDA source, where `<<` followed by `<` is nothing else) */
        if (cs->cuda && t->len == 1 && w[0] == '<' && n1->kind == GP_C_PUNCT &&
            tok_eq(cs, n1, "<") && n1->off == t->off + 1 && n2->kind == GP_C_PUNCT &&
            tok_eq(cs, n2, "<") &&
            !(cs->prev[0].kind == GP_C_PUNCT && cs->prev[0].off + 1 == t->off &&
              tok_eq(cs, &cs->prev[0], "<")))
            rep(cs, GP_R_C_KERN_001, t);
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
    bool dispatch = (cs->rt.cond == 2 && t->line == cs->rt.cond_line) ||
                    (cs->rt.in_case && t->line == cs->rt.case_line);
    if (tok_eq(cs, t, "is_cuda") &&
        (tok_eq(cs, &cs->prev[0], ".") || tok_eq(cs, &cs->prev[0], "->")) && tok_eq(cs, n1, "(")) {
        /* the test of a dispatch on the device is the fix, not a finding */
        cs->rt.drop = dispatch ? -1 : rep(cs, GP_R_C_ATEN_001, t);
        return;
    }
    if (dispatch && tok_eq(cs, t, "kCUDA")) return;
    if (cs->cuda && (tok_eq(cs, t, "asm") || tok_eq(cs, t, "__asm__") || tok_eq(cs, t, "__asm")) &&
        (tok_eq(cs, n1, "(") || tok_eq(cs, n1, "volatile") || tok_eq(cs, n1, "__volatile__"))) {
        rep(cs, GP_R_C_KERN_003, t);
        return;
    }
    bool family;
    int rule = ident_rule_of(w, t->len, &family);
    if (rule < 0) return;
    long k = rep(cs, rule, t);
    if (k >= 0 && t->len == 10 && memcmp(w, "__global__", 10) == 0)
        cs->r->f[k].marks |= GP_MARK_KERNEL; /* a kernel: counted as one (not each launch) */
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
    size_t nf, text, nsup, dropped, facts;
    c_rt rt;
    bool dispatch, mps;
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
            r->dropped = mark.dropped, r->facts.len = mark.facts;
            cs->rt = mark.rt;
            r->cuda_dispatch = mark.dispatch, r->mps_impl = mark.mps;
            have_mark = false;
            hit = 0;
            continue;
        }
        if (cs->rt.judge) rt_judge(cs, &cur, &n1, &n2);
        rt_track(cs, &cur, &n1);
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
        if (rt_busy(cs)) continue; /* a dispatch construct is open: every token counts */
        if (hit >= n) /* no word in cur, n1, n2 or after them: only comments still count */
            return gp_c_lexer_skip(lx, SIZE_MAX) != GP_C_SKIP_UNSURE;
        if (hit < lx->pos) continue; /* a word in the tokens read ahead */
        if (hit_ls == SIZE_MAX) hit_ls = line_start(d, hit, lx->pos);
        if (hit_ls <= lx->pos) continue; /* on this line: lexing on is as quick */
        size_t ls = hit_ls;
        mark = (c_mark){*lx,
                        cur,
                        n1,
                        n2,
                        {cs->prev[0], cs->prev[1], cs->prev[2]},
                        known,
                        r->nf,
                        r->text.len,
                        r->nsup,
                        r->dropped,
                        r->facts.len,
                        cs->rt,
                        r->cuda_dispatch,
                        r->mps_impl};
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
    gp_once_call(&first_pairs_once, first_pairs_build);
    /* Not for CUDA sources (inline PTX is found without a word) nor sources named as CPU
     * implementations (every function body counts). */
    if (shortcut && !cuda && !cpu_named) {
        size_t nf0 = r->nf, text0 = r->text.len, dropped0 = r->dropped, nsup0 = r->nsup;
        size_t facts0 = r->facts.len;
        bool dispatch0 = r->cuda_dispatch, mps0 = r->mps_impl;
        memset(&cs, 0, sizeof cs);
        cs.s = s;
        cs.r = r;
        cs.path = path;
        cs.body_depth = -1;
        cs.rt.drop = -1;
        gp_c_lexer lx;
        gp_c_lexer_init(&lx, s, r);
        if (scan_sparse(&cs, &lx)) return;
        s->released = 0; /* start again in full (released pages map in again when read) */
        r->nf = nf0;
        r->nsup = nsup0;
        r->text.len = text0;
        r->dropped = dropped0;
        r->facts.len = facts0;
        r->cuda_dispatch = dispatch0;
        r->mps_impl = mps0;
    }
    memset(&cs, 0, sizeof cs);
    cs.rt.drop = -1;
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
        if (cs.rt.judge) rt_judge(&cs, &cur, &n1, &n2);
        rt_track(&cs, &cur, &n1);
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
    {"<<<", 0, false},       /* kernel launch (a punctuator: may follow an identifier) */
    {"cuda", 0, true},       /* at::cuda / c10::cuda */
    {"is_cuda", 0, true},    /* .is_cuda() */
    {"DeviceType", 0, true}, /* a dispatch on DeviceType::CUDA / ::MPS */
    {"kMPS", 0, true},       /* an MPS branch */
    {"is_mps", 0, true},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define C_TRIGGERS_MAX                                                                             \
    (COUNT(families) + COUNT(exact) + COUNT(header_dirs) + COUNT(header_prefixes) +                \
     COUNT(header_nccl) + COUNT(scopes) + COUNT(code_words))
static gp_audit_trigger c_triggers[C_TRIGGERS_MAX];
static size_t c_ntriggers;
static gp_once c_triggers_once = GP_ONCE_INIT;

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
    gp_once_call(&c_triggers_once, c_triggers_build);
    *out = c_triggers;
    return c_ntriggers;
}
