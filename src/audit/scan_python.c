/* scan_python.c — Python rules over the token stream of lex_python: one logical line at a time,
 * with a block stack (indentation) that knows which code sits under a CUDA guard, in a try whose
 * except catches ImportError, in a def, or under the `__main__` guard. Names are resolved through
 * the file's import aliases and looked up exactly. */
#include <ctype.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "audit/bytescan.h"
#include "audit/lex_python.h"
#include "audit/mps_table.h"
#include "audit/prefilter.h"
#include "audit/scanners.h"
#include "util/thread.h"

#define PY_MAX_TOKS   1024
#define PY_MAX_BLOCKS 64
#define PY_MAX_ALIAS  48 /* under half of the 128 slots of alias_slot */
#define PY_MAX_PEND   16
#define PY_NAME_MAX   128
#define PY_MAX_DEFS   256
#define PY_MAX_RANGES 256
#define PY_MAX_USES   16 /* the uses of a name compared for a split over a switch's branches */
#define PY_MAX_NAMED  32 /* `from X import name` imports whose uses are looked at */
#define PY_MAX_SWITCH 16 /* setup.py: switches set from the environment, with their defaults */
#define PY_MAX_CULIST 16 /* setup.py: names set to CUDA sources outside a build branch */
/* a file this large is not looked through again for the names of its functions, for a method of
 * its own named cuda, or for the functions its float64 arguments go to */
#define PY_DEFS_SCAN_MAX (8u << 20)
/* a name's last assignment before a float64 cast of it is looked for this far back, at most
 * PY_MAX_LOOKBACK times per file (the same whether the file is held or mapped) */
#define PY_LOOKBACK     (1u << 20)
#define PY_MAX_LOOKBACK 4096

enum { BK_OTHER, BK_GUARD, BK_TRY, BK_EXCEPT, BK_DEF, BK_MAIN };

typedef struct py_block {
    int indent;
    int kind;
    size_t try_first; /* first finding inside the try body */
    size_t try_fact;  /* the facts' length at the try body's start */
    size_t body;      /* where the block's body starts */
    int def;          /* BK_DEF: its entry in py_scan.defs, or -1 */
    bool device;      /* BK_GUARD: the condition tests CUDA (or a device, a distributed run) */
    bool typing;      /* `if TYPE_CHECKING:`: imports for type checkers only */
    bool guard;       /* BK_DEF: a decorator skips it without CUDA (skipif(not cuda...)) */
    uint64_t shadow;  /* BK_DEF: aliases its parameters hide (a bit per alias slot) */
    uint32_t chain;   /* BK_GUARD: its if/elif/else chain (0: none), and which branch of it */
    uint32_t branch;
    int8_t envdef; /* setup.py: the if's condition with the environment's defaults (1 true, 0
                    * false, -1 not one) */
    bool tdev;     /* BK_GUARD: its chain tests a tensor's device (`x.is_cuda`, `x.device.type ==
                    * "cuda"`), */
    bool tneg;     /* ... negated (`not x.is_cuda`): its first branch is the non-CUDA one */
    bool ret;      /* the last statement of its body so far is a `return` */
    bool negif;    /* BK_GUARD: an `if not ...` (its body runs where the test fails) */
    bool open;     /* BK_GUARD: a branch of a chain that runs where CUDA may be missing (the else
                    * of `if torch.cuda.is_available():`): it guards nothing */
    bool later;    /* BK_GUARD: the chain's later branches run only where CUDA is there */
    uint8_t cf;    /* BK_GUARD: CF_* bits of its if/elif/else chain */
    bool opt;      /* BK_OTHER: a branch of an if/elif/else that tests no CUDA (`if engine:`):
                    * an import in it is made only on that path */
} py_block;

enum {
    CF_RAISED = 1, /* the block's last statement so far is a raise */
    CF_ELSE = 2,   /* an else branch */
    CF_DIST = 4,   /* the chain's first branch tests a distributed run */
    CF_RAISE = 8,  /* every branch after the first so far ends in a raise */
};

/* What one search of a name found (name_find_memo): a later search from further on is answered
 * from it, or starts where it stopped. */
typedef struct gp_find_memo {
    size_t from, lim, at; /* at == lim: nothing in [from, lim) */
    bool known;
} gp_find_memo;

/* A function (or class) of the file: where it is, and the findings and facts made inside it,
 * so that a function used only behind a CUDA check can have them counted as guarded. */
typedef struct py_def {
    size_t name_off, name_len;
    size_t start, end; /* its decorators' and header's start; its block's end */
    size_t f0, f1;     /* findings made inside */
    size_t x0, x1;     /* facts recorded inside */
    bool open;
    bool top;         /* at the top of the file (not inside a class or another function) */
    gp_find_memo use; /* waits_for_rest: where its name was last looked for */
} py_def;

/* A name a `from X import name` brought in: where its import statement is, and its fact. */
typedef struct py_named {
    size_t name_off, name_len;
    size_t stmt_a, stmt_b; /* the import statement's bytes (no use of the name) */
    size_t fact;           /* its import fact's offset in the result's facts */
    gp_find_memo use;      /* waits_for_rest: where its name was last looked for */
} py_named;

/* setup.py: a name set from the environment (`WITH_CUDA = os.getenv("WITH_CUDA", "1") == "1"`)
 * and what it is when the variable is not set. */
typedef struct py_switch {
    size_t name_off, name_len;
    bool value;
} py_switch;

/* setup.py: a name set to CUDA sources outside a build branch (`cuda_sources = glob("*.cu")`):
 * the build needs them only where the name is used. */
typedef struct py_culist {
    size_t name_off, name_len;
    size_t stmt_a, stmt_b;
    size_t finding;
} py_culist;

typedef struct py_range {
    size_t a, b;
    uint32_t chain,
        branch; /* the if/elif/else chain and branch it is the body of (chain 0: none) */
} py_range;

typedef struct py_alias {
    size_t len;
    bool hot;   /* the target holds a prefilter word (see scan_sparse) */
    bool guard; /* a condition may test for CUDA through it (alias_may_guard) */
    char name[40];
    char target[PY_NAME_MAX];
} py_alias;

typedef struct py_pending {
    uint32_t line;
    size_t line_off, off, len;
} py_pending;

/* A float64 name passed to a function of the file (`to_device(betas, dev)`): reported at the
 * argument when that function moves the parameter to a device (decided at the file's end). */
typedef struct py_f64arg {
    py_pending at;
    size_t callee_off, callee_len;
    size_t kw_off, kw_len; /* a keyword argument's name, or kw_len 0 */
    int index;             /* a positional argument's place */
    bool guarded;
} py_f64arg;

typedef struct py_paren {
    char callee[PY_NAME_MAX]; /* resolved dotted name before '(' ("" for other brackets) */
    const char *last;         /* its last component */
    size_t tok;               /* index of the callee's first token */
    bool call;
    bool nw_pos; /* DataLoader: num_workers > 0 */
    bool lambda; /* DataLoader: a lambda among the arguments */
    bool req;    /* setup.py: the bracket holds requirements */
} py_paren;

typedef struct py_scan {
    gp_audit_source *s;
    gp_audit_result *r;
    bool setup_py;
    size_t nt;
    int nb;
    int nal;
    unsigned alias_gen;      /* bumped by every alias set */
    uint8_t alias_slot[128]; /* open addressing over al[] by alias_bit: index + 1, 0 empty */
    int npar;
    bool line_guarded;
    uint64_t shadow; /* aliases hidden by the parameters of the functions the line is in */
    bool continued;  /* the buffered tokens continue an overlong logical line */
    size_t f64_at;   /* the line's first float64 value (a token), or -1 */
    bool own_cuda_known, own_cuda; /* defines_cuda's answer */
    bool any_f64;                  /* a name was set to a float64 value (dtype_flow) */
    size_t f64_default;            /* set_default_dtype(torch.float64) on the line, or -1 */
    py_block line_b;               /* the block the logical line opens if its last token is ':' */
    bool part_colon;               /* the last token of the part scanned before is ':' */
    bool mentions_mps;
    int ndev004;
    int nf64arg;
    int nlookback; /* f64_recv_on_device's searches so far */
    int ndl;
    int ndefs, nranges, nnamed, nswitch, nculist;
    uint32_t nchains; /* if/elif/else chains of guards seen */
    bool defs_over, ranges_over;
    bool deco;                    /* the lines since the last statement are decorators */
    bool deco_guard, deco_device; /* one of them skips the function without CUDA */
    size_t deco_start, deco_f0, deco_x0;
    gp_find_memo main_at, import_at, raise_at; /* waits_for_rest's searches */
    gp_find_memo else_at;                      /* scan_sparse's next `else` */
    /* from here on never read past their counts above, so not cleared per file */
    py_def defs[PY_MAX_DEFS];
    py_named named[PY_MAX_NAMED];
    py_switch sw[PY_MAX_SWITCH];
    py_culist culist[PY_MAX_CULIST];
    py_range ranges[PY_MAX_RANGES]; /* code behind a CUDA check: guard bodies, guarded lines */
    py_block b[PY_MAX_BLOCKS];
    py_alias al[PY_MAX_ALIAS];
    py_paren par[32];
    py_pending dev004[PY_MAX_PEND];
    py_f64arg f64arg[PY_MAX_PEND]; /* float64 names passed to the file's own functions */
    py_pending dl[PY_MAX_PEND];
    gp_py_tok t[PY_MAX_TOKS];
} py_scan;

static const char *tx(py_scan *ps, size_t i)
{
    return ps->s->data + ps->t[i].off;
}

/* The alias table's home slot for a name: from its length and its first and last bytes. */
static inline unsigned alias_bit(const char *w, size_t n)
{
    return ((unsigned char)w[0] * 31u + (unsigned char)w[n - 1] * 7u + (unsigned)n) & 127u;
}

/* The alias named w[0, n), or -1. */
static int alias_find(const py_scan *ps, const char *w, size_t n)
{
    if (n == 0) return -1;
    for (unsigned h = alias_bit(w, n);; h = (h + 1) & 127u) {
        int a = ps->alias_slot[h] - 1;
        if (a < 0) return -1;
        if (ps->al[a].len == n && memcmp(ps->al[a].name, w, n) == 0) return a;
    }
}
/* An alias, unless a parameter of the function the line is in has its name. */
static bool is_alias(py_scan *ps, size_t i)
{
    int a = alias_find(ps, tx(ps, i), ps->t[i].len);
    return a >= 0 && !(ps->shadow >> a & 1u);
}
/* Inlined at every use: with the word's length a constant the comparison needs no call, and
 * the first byte rejects most tokens before it. */
static inline __attribute__((always_inline)) bool tok_is(py_scan *ps, size_t i, gp_py_kind k,
                                                         const char *w, size_t n)
{
    if (i >= ps->nt || ps->t[i].kind != k || ps->t[i].len != n) return false;
    const char *t = tx(ps, i);
    return t[0] == w[0] && memcmp(t, w, n) == 0;
}

/* Token tests against string literals (lengths known at compile time; "" w rejects a pointer). */
#define is_op(ps, i, w)   tok_is(ps, i, GP_PY_OP, "" w, sizeof(w) - 1)
#define is_name(ps, i, w) tok_is(ps, i, GP_PY_NAME, "" w, sizeof(w) - 1)
#define body_is(ps, i, w) body_is_n(ps, i, "" w, sizeof(w) - 1)

static inline __attribute__((always_inline)) bool body_is_n(py_scan *ps, size_t i, const char *w,
                                                            size_t n)
{
    if (i >= ps->nt) return false;
    const gp_py_tok *t = &ps->t[i];
    return t->kind == GP_PY_STRING && !t->fstring && t->blen == n &&
           memcmp(ps->s->data + t->body, w, n) == 0;
}

static void report(py_scan *ps, int rule, size_t i, bool guarded)
{
    const gp_py_tok *t = &ps->t[i];
    gp_audit_add(ps->r, ps->s, rule, guarded, t->line, t->line_off, t->off, t->len);
}

static bool any_block(py_scan *ps, int kind)
{
    for (int i = 0; i < ps->nb; i++)
        if ((ps->b[i].kind == kind && !(kind == BK_GUARD && ps->b[i].open)) ||
            (kind == BK_GUARD && ps->b[i].guard))
            return true;
    return false;
}

/* ---- names ---------------------------------------------------------------------------- */

/* Reads NAME ('.' NAME)* from token i into buf (resolving an import alias on the first part
 * unless the chain hangs off an expression). Returns the index of the last NAME. */
static size_t read_chain(py_scan *ps, size_t i, bool has_base, char *buf, size_t cap, int *ncomp,
                         const char **last)
{
    size_t j = i, len = 0;
    *ncomp = 0;
    buf[0] = '\0';
    for (;;) {
        const char *w = tx(ps, j);
        size_t n = ps->t[j].len;
        const char *piece = w;
        size_t pn = n;
        if (*ncomp == 0 && !has_base) {
            int a = alias_find(ps, w, n);
            if (a >= 0 && !(ps->shadow >> a & 1u)) {
                piece = ps->al[a].target;
                pn = strlen(piece);
            }
        }
        if (len + pn + 2 < cap) {
            if (len) buf[len++] = '.';
            *last = buf + len;
            memcpy(buf + len, piece, pn);
            len += pn;
            buf[len] = '\0';
        }
        (*ncomp)++;
        if (j + 2 < ps->nt && is_op(ps, j + 1, ".") && ps->t[j + 2].kind == GP_PY_NAME)
            j += 2;
        else
            break;
    }
    const char *l = strrchr(buf, '.');
    *last = l ? l + 1 : buf;
    return j;
}

static bool starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static gp_once guard_tables_once = GP_ONCE_INIT;
static void guard_tables_build(void);
static uint32_t switch_letters; /* bit c - 'a': a switch part starts with letter c (either case) */

/* Can a name be a switch word (word_is_switch)? Every switch word has a '_'-separated part
 * starting with the first letter of a part of the tables (here and gp_audit_cuda_switch_part):
 * a name without one is rejected at once. */
static bool may_be_switch(const char *w, size_t n)
{
    gp_once_call(&guard_tables_once, guard_tables_build);
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && w[i - 1] != '_') continue;
        unsigned c = (unsigned)((w[i] | 0x20) - 'a');
        if (c < 26 && (switch_letters >> c & 1u)) return true;
    }
    return false;
}

/* '_'-separated parts that make a name a switch besides the CUDA ones of
 * gp_audit_word_is_cuda_switch: CUDA-only packages (HAS_FLASH_ATTN), a distributed run (ddp,
 * args.distributed, world_size), and the generic availability words (is_x_available, HAS_X),
 * which guard without naming a device. */
static const struct {
    const char *w;
    size_t n;
    bool device;
} switch_parts[] = {{"FLASH", 5, true}, {"XFORMERS", 8, true},   {"APEX", 4, true},
                    {"DDP", 3, true},   {"FSDP", 4, true},       {"DISTRIBUTED", 11, true},
                    {"WORLD", 5, true}, {"AVAILABLE", 9, false}, {"HAS", 3, false},
                    {"HAVE", 4, false}};

/* The next '_'-separated part of w[0, n) from *i: its start (n when none is left), *i its end. */
static size_t word_part(const char *w, size_t n, size_t *i)
{
    while (*i < n && w[*i] == '_')
        (*i)++;
    size_t st = *i;
    while (*i < n && w[*i] != '_')
        (*i)++;
    return st;
}

/* 0: not a switch; 1: a switch that names no device (HAS_NUMPY, is_torch_available); 2: one
 * that tests CUDA, a CUDA-only package or a distributed run. */
static int switch_kind(const char *w, size_t n)
{
    if (!may_be_switch(w, n)) return 0;
    if (gp_audit_word_is_cuda_switch(w, n)) return 2;
    int kind = 0;
    for (size_t i = 0, st; (st = word_part(w, n, &i)) < n;) {
        for (size_t k = 0; k < sizeof switch_parts / sizeof switch_parts[0]; k++) {
            size_t pl = switch_parts[k].n;
            if (i - st != pl) continue;
            size_t m = 0;
            while (m < pl && toupper((unsigned char)w[st + m]) == switch_parts[k].w[m])
                m++;
            if (m == pl) {
                if (switch_parts[k].device) return 2;
                kind = 1;
            }
        }
    }
    return kind;
}

static bool word_is_switch(const char *w, size_t n)
{
    return switch_kind(w, n) != 0;
}

/* "cuda", "cuda:N", or an f-string "cuda:{...}" whose one replacement field ends it (the
 * `f"cuda:{rank}"` of distributed code). */
static bool is_device_string(py_scan *ps, size_t i)
{
    const gp_py_tok *t = &ps->t[i];
    if (t->kind != GP_PY_STRING) return false;
    const char *b = ps->s->data + t->body;
    if (t->blen == 4 && memcmp(b, "cuda", 4) == 0) return true;
    if (t->blen > 5 && memcmp(b, "cuda:", 5) == 0) {
        if (t->fstring && b[5] == '{') /* "cuda:{" + at least one byte + "}" */
            return t->blen >= 8 && b[t->blen - 1] == '}' &&
                   memchr(b + 6, '}', t->blen - 7) == NULL &&
                   memchr(b + 6, '{', t->blen - 7) == NULL;
        for (size_t k = 5; k < t->blen; k++)
            if (!isdigit((unsigned char)b[k])) return false;
        return true;
    }
    return false;
}

/* Can the name chain at tokens [i, j] (not an alias) resolve to one of the guard names tested
 * below? Each of them needs a token containing one of these words, so most chains stop here. */
static bool chain_may_guard(py_scan *ps, size_t i, size_t j)
{
    for (size_t k = i; k <= j; k += 2) {
        const char *w = tx(ps, k);
        size_t n = ps->t[k].len;
        for (size_t p = 0; p < n; p++) {
            size_t r = n - p;
            const char *q = w + p;
            switch (q[0]) {
            case 'i':
                if (r >= 3 && q[1] == 's' && q[2] == '_') return true;
                break;
            case 'd':
                if (r >= 12 && memcmp(q, "device_count", 12) == 0) return true;
                break;
            case 'c':
                if (r >= 4 && memcmp(q, "cuda", 4) == 0) return true;
                break;
            case 'e':
                if (r >= 7 && memcmp(q, "environ", 7) == 0) return true;
                break;
            case 'g':
                if (r >= 6 && memcmp(q, "getenv", 6) == 0) return true;
                break;
            default:
                break;
            }
        }
    }
    return false;
}

/* Does a name hold "local_rank" (any case)? */
static bool names_local_rank(const char *w, size_t n)
{
    for (size_t k = 0; k + 10 <= n; k++)
        if ((w[k] | 0x20) == 'l' && strncasecmp(w + k, "local_rank", 10) == 0) return true;
    return false;
}

/* Does the logical line test for CUDA (or a switch)? Looks at names and string comparisons.
 * 0: no; 1: a guard that names no device (an environment variable, is_torch_available()); 2: a
 * test of CUDA, a device, a CUDA-only package or a distributed run. */
static int line_has_guard_signal(py_scan *ps)
{
    int got = 0;
    for (size_t i = 0; i < ps->nt && got < 2; i++) {
        const gp_py_tok *t = &ps->t[i];
        if (t->kind == GP_PY_STRING) {
            bool dev = is_device_string(ps, i) || body_is(ps, i, "nccl") || body_is(ps, i, "mps");
            bool cmp = (i > 0 && (is_op(ps, i - 1, "==") || is_op(ps, i - 1, "!=") ||
                                  is_name(ps, i + 1, "in"))) ||
                       is_op(ps, i + 1, "==") || is_op(ps, i + 1, "!=");
            if (dev && cmp) return 2;
            continue;
        }
        if (t->kind != GP_PY_NAME) continue;
        bool has_base = i > 0 && is_op(ps, i - 1, ".");
        if (has_base) continue;
        size_t j = i; /* the chain's end, as read_chain walks it */
        while (j + 2 < ps->nt && is_op(ps, j + 1, ".") && ps->t[j + 2].kind == GP_PY_NAME)
            j += 2;
        if (chain_may_guard(ps, i, j) || is_alias(ps, i)) {
            char buf[PY_NAME_MAX];
            int nc;
            const char *last;
            read_chain(ps, i, false, buf, sizeof buf, &nc, &last);
            /* a project's own test of a distributed run: is_dist_avail_and_initialized() */
            if (strstr(last, "dist") && (strstr(last, "initialized") || strstr(last, "avail")))
                return 2;
            if (strcmp(last, "is_cuda") == 0 || strcmp(last, "is_initialized") == 0 ||
                strcmp(last, "device_count") == 0 || strcmp(last, "is_nccl_available") == 0 ||
                strcmp(last, "is_built") == 0 || starts(buf, "torch.cuda.is_") ||
                strcmp(buf, "torch.version.cuda") == 0)
                return 2;
            if (strcmp(last, "is_available") == 0)
                got = strstr(buf, "cuda") || strstr(buf, "mps") || strstr(buf, "nccl") ||
                              strstr(buf, "distributed") || strstr(buf, "triton")
                          ? 2
                      : got > 1 ? got
                                : 1;
            else if (starts(buf, "os.environ") || starts(buf, "os.getenv") ||
                     strcmp(buf, "getenv") == 0)
                got = got > 1 ? got : 1;
        }
        /* any part of the chain that names a switch: use_cuda, args.cuda, HAS_FLASH_ATTN; a
         * local rank tells a distributed run (`if args.local_rank == -1: ... else: ...`) */
        for (size_t k = i; k <= j; k += 2) {
            int sk = switch_kind(tx(ps, k), ps->t[k].len);
            if (sk > got) got = sk;
            if (ps->t[k].len >= 10 && names_local_rank(tx(ps, k), ps->t[k].len)) got = 2;
        }
        i = j;
    }
    return got;
}

/* ---- the direction of a guard ------------------------------------------------------------ */

/* What a guard's condition tells the branches of its if/elif/else chain: `t`, where it holds,
 * CUDA is there (or a distributed run, or a switch that selects CUDA); `f`, where it fails, it
 * is; `sig`, it tests such a thing at all. A test the reader cannot tell the direction of tells
 * both (every branch of its chain is guarded). */
typedef struct py_cond {
    bool t, f, sig;
} py_cond;

static const py_cond COND_NONE = {false, false, false}; /* no test of CUDA */
static const py_cond COND_POS = {true, false, true};    /* torch.cuda.is_available() */
static const py_cond COND_NEG = {false, true, true};    /* not torch.cuda.is_available() */
static const py_cond COND_OFF = {false, false, true};   /* device == "cpu": CUDA neither way */
static const py_cond COND_UNK = {true, true, true};     /* a test whose direction is unknown */

/* The token after the bracket opened at i, at the same depth, and below b (b when unclosed). */
static size_t cond_skip(py_scan *ps, size_t i, size_t b)
{
    int depth = 0;
    for (; i < b; i++) {
        if (is_op(ps, i, "(") || is_op(ps, i, "[") || is_op(ps, i, "{")) depth++;
        if (is_op(ps, i, ")") || is_op(ps, i, "]") || is_op(ps, i, "}")) {
            if (--depth == 0) return i + 1;
        }
    }
    return b;
}

static bool cond_open_at(py_scan *ps, size_t i)
{
    return is_op(ps, i, "(") || is_op(ps, i, "[") || is_op(ps, i, "{");
}

/* A switch word that turns CUDA off: no_cuda, disable_cuda, cpu_only, without_gpu. */
static bool switch_word_off(const char *w, size_t n)
{
    static const char *const off[] = {"no", "disable", "disabled", "without", "skip", "cpu"};
    for (size_t i = 0, st; (st = word_part(w, n, &i)) < n;)
        for (size_t k = 0; k < sizeof off / sizeof off[0]; k++)
            if (strlen(off[k]) == i - st && strncasecmp(w + st, off[k], i - st) == 0) return true;
    return false;
}

/* A switch word on a CUDA toolkit part or another GPU vendor: HAS_NVCC, use_cudnn, is_hip,
 * TRITON_AVAILABLE, WITH_CUTLASS. */
static bool switch_word_toolkit(const char *w, size_t n)
{
    static const char *const kit[] = {"nvcc",  "cudacc", "cudart",   "cublas",   "cudnn",
                                      "hip",   "rocm",   "cutlass",  "triton",   "nvidia",
                                      "cufft", "curand", "cusparse", "cusolver", "nccl"};
    for (size_t i = 0, st; (st = word_part(w, n, &i)) < n;)
        for (size_t k = 0; k < sizeof kit / sizeof kit[0]; k++)
            if (strlen(kit[k]) == i - st && strncasecmp(w + st, kit[k], i - st) == 0) return true;
    return false;
}

enum {
    SIDE_OTHER,
    SIDE_CUDA_STR,
    SIDE_MPS_STR,
    SIDE_CPU_STR,
    SIDE_MIX_STR,
    SIDE_STR,
    SIDE_NONE,
    SIDE_NUM
};

/* One side of a comparison at tokens [a, b): a device string ("cuda", "cuda:0", "nccl"; "mps";
 * "cpu"), a list or tuple of them (of one kind, or mixed), None, a number (its sign in *num), or
 * other. */
static int cond_side(py_scan *ps, size_t a, size_t b, long *num)
{
    if (a >= b) return SIDE_OTHER;
    if (b == a + 1 && is_name(ps, a, "None")) return SIDE_NONE;
    bool minus = is_op(ps, a, "-");
    size_t na = minus ? a + 1 : a;
    if (b == na + 1 && ps->t[na].kind == GP_PY_NUMBER) {
        *num = (ps->t[na].len == 1 && tx(ps, na)[0] == '0') ? 0 : minus ? -1 : 1;
        return SIDE_NUM;
    }
    size_t s0 = a, s1 = b;
    if (cond_open_at(ps, a) && cond_skip(ps, a, b) == b) {
        s0 = a + 1;
        s1 = b - 1;
    } else if (b != a + 1) {
        return SIDE_OTHER;
    }
    bool cuda = false, mps = false, cpu = false, other = false, any = false;
    for (size_t i = s0; i < s1; i++) {
        if (is_op(ps, i, ",")) continue;
        if (ps->t[i].kind != GP_PY_STRING) return SIDE_OTHER;
        any = true;
        if (is_device_string(ps, i) || body_is(ps, i, "nccl"))
            cuda = true;
        else if (body_is(ps, i, "mps"))
            mps = true;
        else if (body_is(ps, i, "cpu"))
            cpu = true;
        else
            other = true;
    }
    if (!any) return SIDE_OTHER;
    int kinds = cuda + mps + cpu + other;
    if (kinds > 1) return SIDE_MIX_STR;
    return cuda ? SIDE_CUDA_STR : mps ? SIDE_MPS_STR : cpu ? SIDE_CPU_STR : SIDE_STR;
}

/* The names at tokens [a, b) (a name chain, a call of one): a test of CUDA (COND_POS), a switch
 * that turns it off or a test of MPS (COND_NEG: where it fails, the code is written for CUDA),
 * of something without a device (COND_UNK), or no test (COND_NONE). *rank: a local rank (-1
 * when not distributed). */
static py_cond cond_names(py_scan *ps, size_t a, size_t b, bool *rank)
{
    py_cond got = COND_NONE;
    *rank = false;
    /* a test of a type or an attribute (isinstance(s, torch.cuda.Stream)) tells no direction */
    if (is_op(ps, a + 1, "(") &&
        (is_name(ps, a, "isinstance") || is_name(ps, a, "issubclass") ||
         is_name(ps, a, "hasattr") || is_name(ps, a, "getattr") || is_name(ps, a, "type")))
        return COND_UNK;
    for (size_t i = a; i < b; i++) {
        if (ps->t[i].kind != GP_PY_NAME || (i > a && is_op(ps, i - 1, "."))) continue;
        size_t j = i;
        while (j + 2 < b && is_op(ps, j + 1, ".") && ps->t[j + 2].kind == GP_PY_NAME)
            j += 2;
        if (chain_may_guard(ps, i, j) || is_alias(ps, i)) {
            char buf[PY_NAME_MAX];
            int nc;
            const char *last;
            read_chain(ps, i, false, buf, sizeof buf, &nc, &last);
            if (strcmp(last, "is_available") == 0 && strstr(buf, "mps")) return COND_NEG;
            /* tests of whether CUDA or a distributed run is there; the other torch.cuda.is_*
             * queries (is_current_stream_capturing, is_bf16_supported) tell a state of CUDA,
             * not that it is missing where they fail */
            if ((strstr(last, "dist") && (strstr(last, "initialized") || strstr(last, "avail"))) ||
                strcmp(last, "is_cuda") == 0 || strcmp(last, "is_initialized") == 0 ||
                strcmp(last, "device_count") == 0 || strcmp(last, "is_nccl_available") == 0 ||
                strcmp(buf, "torch.cuda.is_available") == 0 ||
                strcmp(buf, "torch.version.cuda") == 0 ||
                (strcmp(last, "is_available") == 0 &&
                 (strstr(buf, "cuda") || strstr(buf, "nccl") || strstr(buf, "distributed"))))
                return COND_POS;
            if (strcmp(last, "is_available") == 0 || starts(buf, "os.environ") ||
                starts(buf, "os.getenv") || strcmp(buf, "getenv") == 0 ||
                starts(buf, "torch.cuda.is_") || starts(buf, "torch.version.")) {
                got = COND_UNK;
                i = j; /* (its parts are no switch words: torch.cuda.is_bf16_supported) */
                continue;
            }
        }
        /* the switch words, the chain's last part first (cuda_env.nvcc_exist: nvcc) */
        for (size_t m = 0; m <= (j - i) / 2; m++) {
            size_t k = j - 2 * m;
            const char *w = tx(ps, k);
            size_t n = ps->t[k].len;
            if (n >= 10 && names_local_rank(w, n)) {
                *rank = true;
                return COND_POS;
            }
            int sk = switch_kind(w, n);
            /* a switch that selects CUDA, a GPU, a CUDA-only package or a distributed run;
             * one on a toolkit or another vendor (nvcc, cudnn, hip, triton) tells neither way */
            if (sk == 2 && switch_word_toolkit(w, n)) return COND_UNK;
            if (sk == 2) return switch_word_off(w, n) ? COND_NEG : COND_POS;
            if (sk == 1) got = COND_UNK;
        }
        i = j;
    }
    return got;
}

static py_cond cond_not(py_cond c)
{
    return (py_cond){c.f, c.t, c.sig};
}

static py_cond cond_range(py_scan *ps, size_t a, size_t b, int depth);

/* One term of a condition (no `and` or `or` outside brackets) at tokens [a, b). */
static py_cond cond_term(py_scan *ps, size_t a, size_t b, int depth)
{
    bool neg = false;
    while (a < b && is_name(ps, a, "not")) {
        neg = !neg;
        a++;
    }
    if (a >= b) return COND_NONE;
    py_cond c;
    if (is_op(ps, a, "(") && cond_skip(ps, a, b) == b) {
        c = cond_range(ps, a + 1, b - 1, depth + 1);
        return neg ? cond_not(c) : c;
    }
    /* the first comparison outside brackets */
    size_t op = b, opn = 0;
    for (size_t i = a; i < b && op == b; i++) {
        if (cond_open_at(ps, i)) {
            i = cond_skip(ps, i, b) - 1;
            continue;
        }
        if (is_op(ps, i, "==") || is_op(ps, i, "!=") || is_op(ps, i, "<") || is_op(ps, i, ">") ||
            is_op(ps, i, "<=") || is_op(ps, i, ">=") || is_name(ps, i, "in")) {
            op = i;
            opn = 1;
        } else if ((is_name(ps, i, "is") && is_name(ps, i + 1, "not")) ||
                   (is_name(ps, i, "not") && is_name(ps, i + 1, "in"))) {
            op = i;
            opn = 2;
        } else if (is_name(ps, i, "is")) {
            op = i;
            opn = 1;
        }
    }
    bool rank = false;
    if (op == b) {
        c = cond_names(ps, a, b, &rank);
        if (rank) c = COND_UNK; /* `if args.local_rank:` */
        return neg ? cond_not(c) : c;
    }
    long nl = 0, nr = 0;
    int l = cond_side(ps, a, op, &nl), r = cond_side(ps, op + opn, b, &nr);
    bool eq = is_op(ps, op, "=="), ne = is_op(ps, op, "!="), in = is_name(ps, op, "in") && opn == 1,
         notin = is_name(ps, op, "not"), is = is_name(ps, op, "is") && opn == 1,
         isnot = is_name(ps, op, "is") && opn == 2;
    int str = l >= SIDE_CUDA_STR && l <= SIDE_STR ? l : r >= SIDE_CUDA_STR && r <= SIDE_STR ? r : 0;
    if (str == SIDE_STR) {
        c = COND_NONE; /* args.arch == "resnet50" */
    } else if (str) {
        /* "mps" is the Mac's side (where it fails, the code is written for CUDA); "cpu", or
         * a mix, tells CUDA neither way (!= "cpu" may be "mps") */
        bool yes = eq || in, no = ne || notin;
        if ((str == SIDE_CUDA_STR && yes) || (str == SIDE_MPS_STR && no))
            c = COND_POS;
        else if ((str == SIDE_CUDA_STR && no) || (str == SIDE_MPS_STR && yes))
            c = COND_NEG;
        else if (yes || no)
            c = COND_OFF;
        else
            c = COND_UNK;
    } else {
        /* a test of CUDA, a switch or a rank against None or a number */
        bool left = l == SIDE_OTHER;
        size_t n0 = left ? a : op + opn, n1 = left ? op : b;
        int other = left ? r : l;
        long num = left ? nr : nl;
        py_cond s = cond_names(ps, n0, n1, &rank);
        if (!s.sig || (s.t && s.f)) {
            c = s;
        } else if (other == SIDE_NONE && (is || isnot)) {
            c = isnot ? s : cond_not(s); /* args.gpu is None */
        } else if (other == SIDE_NUM && left) {
            /* count > 0, rank != -1, rank >= 0: set; == 0, == -1, < 0, is 0: not */
            bool gt = is_op(ps, op, ">"), ge = is_op(ps, op, ">="), lt = is_op(ps, op, "<");
            bool pos, negv;
            if (rank) { /* -1: not distributed; 0 is the first process of a run or of none */
                pos = (ne && num < 0) || (ge && num == 0) || (gt && num < 0);
                negv = ((eq || is) && num < 0) || (lt && num == 0);
            } else {
                pos = (ne && num <= 0) || (gt && num >= 0) || (ge && num > 0);
                negv = ((eq || is) && num <= 0) || (lt && num <= 1) ||
                       (is_op(ps, op, "<=") && num <= 0);
            }
            c = pos ? s : negv ? cond_not(s) : COND_UNK;
        } else {
            c = COND_UNK;
        }
    }
    return neg ? cond_not(c) : c;
}

/* A condition at tokens [a, b): `or` of `and` of terms, as Python binds them. */
static py_cond cond_range(py_scan *ps, size_t a, size_t b, int depth)
{
    if (depth > 8 || a >= b) return COND_UNK;
    py_cond any = {true, false, false}; /* the `or` of the parts so far */
    size_t p = a;
    while (p < b) {
        py_cond all = {false, true, false}; /* the `and` of this part's terms */
        size_t q = p;
        for (;;) {
            size_t e = q;
            while (e < b && !is_name(ps, e, "and") && !is_name(ps, e, "or")) {
                if (cond_open_at(ps, e))
                    e = cond_skip(ps, e, b);
                else
                    e++;
            }
            py_cond c = cond_term(ps, q, e, depth);
            all.t |= c.t;
            all.f &= c.f;
            all.sig |= c.sig;
            q = e + 1;
            if (e >= b || is_name(ps, e, "or")) break;
        }
        any.t &= all.t;
        any.f |= all.f;
        any.sig |= all.sig;
        p = q;
    }
    return any.sig ? any : COND_UNK;
}

/* Does w[0, n) hold p (lower case letters), in any case? */
static bool strcasestr_n(const char *w, size_t n, const char *p)
{
    size_t k = strlen(p);
    for (size_t i = 0; i + k <= n; i++)
        if ((w[i] | 0x20) == p[0] && strncasecmp(w + i, p, k) == 0) return true;
    return false;
}

/* Does the line name a distributed run (args.distributed, ddp, world_size, a local rank,
 * dist.is_initialized())? */
static bool line_tests_dist(py_scan *ps)
{
    for (size_t i = 1; i < ps->nt; i++) {
        if (ps->t[i].kind != GP_PY_NAME) continue;
        const char *w = tx(ps, i);
        size_t n = ps->t[i].len;
        if (names_local_rank(w, n) || (n >= 4 && strncasecmp(w, "dist", 4) == 0) ||
            strcasestr_n(w, n, "distributed") || strcasestr_n(w, n, "ddp") ||
            strcasestr_n(w, n, "world_size"))
            return true;
    }
    return false;
}

/* The ':' that ends a compound statement's header (outside brackets), or nt. */
static size_t header_colon(py_scan *ps)
{
    size_t e = 1;
    while (e < ps->nt && !is_op(ps, e, ":")) {
        if (cond_open_at(ps, e))
            e = cond_skip(ps, e, ps->nt);
        else
            e++;
    }
    return e;
}

/* Does a compound statement's line hold its body after the ':' (`else: x = 1`)? */
static bool body_on_line(py_scan *ps)
{
    return header_colon(ps) + 1 < ps->nt;
}

/* The condition of an if or elif line (the tokens up to its ':' outside brackets). */
static py_cond line_cond(py_scan *ps)
{
    size_t e = header_colon(ps);
    if (e >= ps->nt || (ps->continued)) return COND_UNK;
    return cond_range(ps, 1, e, 0);
}

/* ---- rules on names ------------------------------------------------------------------- */

/* Top-level modules with no Mac or CPU build: importing them fails there. `cuda` is NVIDIA's
 * cuda-python (cuda.bindings, cuda.core), `nvidia` the namespace of NVIDIA's wheels (DALI, the
 * CUDA libraries), cutlass its CUTLASS Python DSL (cutlass.cute), cuml/cudf/cugraph RAPIDS. */
static const char *const cuda_only_modules[] = {"flash_attn",  "xformers",
                                                "apex",        "causal_conv1d",
                                                "mamba_ssm",   "tinycudann",
                                                "nvdiffrast",  "pycuda",
                                                "cupy",        "cupyx",
                                                "tensorrt",    "spconv",
                                                "cuml",        "cudf",
                                                "cugraph",     "cuspatial",
                                                "cutlass",     "tilelang",
                                                "cuda",        "nvidia",
                                                "flashinfer",  "transformer_engine",
                                                "tensorrt_llm"};

static bool module_is_cuda_only(const char *m)
{
    size_t top = strcspn(m, ".");
    for (size_t k = 0; k < sizeof cuda_only_modules / sizeof cuda_only_modules[0]; k++)
        if (strlen(cuda_only_modules[k]) == top && memcmp(cuda_only_modules[k], m, top) == 0)
            return true;
    return strcmp(m, "numba.cuda") == 0 || starts(m, "numba.cuda.");
}

/* bitsandbytes (LLM.int8, QLoRA, 8-bit optimizers): its kernels are CUDA's, but the fix is a
 * change of dtype or optimizer, not a rewrite: PY-QUANT-001, not PY-IMP-001. */
static bool module_is_bnb(const char *m)
{
    return strcmp(m, "bitsandbytes") == 0 || starts(m, "bitsandbytes.");
}

static bool last_is(const py_paren *p, const char *w);
static void ext_module_fact(py_scan *ps, size_t i, bool guarded, bool cpu);

/* Does the name at token i set a tensor's dtype: the value of a `dtype=` argument, or an
 * argument of `.to(...)`, `.type(...)`, `set_default_dtype(...)`? */
static bool makes_dtype(py_scan *ps, size_t i)
{
    if (i >= 2 && is_op(ps, i - 1, "=") && is_name(ps, i - 2, "dtype")) return true;
    if (ps->npar == 0 || !ps->par[ps->npar - 1].call) return false;
    const py_paren *p = &ps->par[ps->npar - 1];
    return last_is(p, "to") || last_is(p, "type") || last_is(p, "set_default_dtype") ||
           last_is(p, "astype");
}

/* A float64 value made at token i (dtype_flow decides whether it reaches a device). */
static void f64_source(py_scan *ps, size_t i)
{
    if (ps->f64_at == (size_t)-1) ps->f64_at = i;
    if (ps->npar > 0 && ps->par[ps->npar - 1].call &&
        last_is(&ps->par[ps->npar - 1], "set_default_dtype"))
        ps->f64_default = i; /* every tensor made after it, on any device */
}

static size_t name_find(const char *d, size_t n, size_t from, size_t lim, const char *w, size_t k);

/* Before a search reads a mapped file again from `from` (behind the tokenizer, or all of it):
 * the pages it brings back are dropped again by the next releases, so memory stays bounded. */
static void reread_from(py_scan *ps, size_t from)
{
    gp_audit_source_rewind(ps->s, from);
}

/* Does the file define a method of its own named cuda (`def cuda(self`)? (Not asked of a file
 * over PY_DEFS_SCAN_MAX: the search reads all of it.) */
static bool defines_cuda(py_scan *ps)
{
    if (!ps->own_cuda_known) {
        ps->own_cuda_known = true;
        if (ps->s->size > PY_DEFS_SCAN_MAX) return false;
        reread_from(ps, 0);
        const char *d = ps->s->data;
        size_t n = ps->s->size;
        for (size_t p = name_find(d, n, 0, n, "cuda", 4); p < n;
             p = name_find(d, n, p + 1, n, "cuda", 4)) {
            size_t q = p;
            while (q > 0 && (d[q - 1] == ' ' || d[q - 1] == '\t'))
                q--;
            if (q >= 3 && memcmp(d + q - 3, "def", 3) == 0 && q - 3 < p &&
                (q == 3 || !gp_py_is_name_char((unsigned char)d[q - 4]))) {
                ps->own_cuda = true;
                break;
            }
        }
    }
    return ps->own_cuda;
}

static bool np_default_f64(py_scan *ps, const char *c, size_t open);

/* Rules keyed on a resolved dotted name. Returns true when one fired. */
static bool match_name(py_scan *ps, const char *c, int ncomp, const char *last, bool has_base,
                       size_t first, size_t lasti, bool guarded)
{
    bool is_call = is_op(ps, lasti + 1, "(");
    if (!has_base && c[0] == 't' && (starts(c, "torch.") || starts(c, "triton."))) {
        if (starts(c, "torch.cuda.")) {
            const char *rest = c + 11;
            if (starts(rest, "amp")) {
                report(ps, GP_R_PY_AMP_001, first, guarded);
                return true;
            }
            if (strcmp(rest, "graph") == 0 || starts(rest, "graphs") ||
                strcmp(rest, "CUDAGraph") == 0 || strcmp(rest, "make_graphed_callables") == 0) {
                report(ps, GP_R_PY_DEV_005, first, guarded);
                return true;
            }
            /* queries, and the seeding calls PyTorch documents as safe without CUDA (silently
             * ignored there) */
            static const char *const queries[] = {
                "is_available",      "is_initialized",        "device_count",
                "is_bf16_supported", "get_device_capability", "get_arch_list",
                "manual_seed",       "manual_seed_all",       "seed",
                "seed_all"};
            for (size_t k = 0; k < sizeof queries / sizeof queries[0]; k++)
                if (strcmp(rest, queries[k]) == 0) return false;
            report(ps, GP_R_PY_DEV_003, first, guarded);
            return true;
        }
        if (starts(c, "torch.backends.cudnn.") || starts(c, "torch.backends.cuda.")) {
            report(ps, GP_R_PY_CUDNN_001, first, guarded);
            return true;
        }
        if (strcmp(c, "torch.float64") == 0 || strcmp(c, "torch.double") == 0) {
            /* only where it makes a tensor of that type: dtype=..., .to(...), .type(...),
             * set_default_dtype(...); a comparison or a list of dtypes makes none. Whether the
             * tensor reaches a device is dtype_flow's to say. */
            if (makes_dtype(ps, first)) f64_source(ps, first);
            return true;
        }
        if (strcmp(c, "torch.compile") == 0 || starts(c, "torch._inductor")) {
            /* (`torch.compile = patched` replaces it, which compiles nothing) */
            if (!(strcmp(c, "torch.compile") == 0 && is_op(ps, lasti + 1, "=")))
                report(ps, GP_R_PY_COMPILE_001, first, guarded);
            return true;
        }
        if (starts(c, "torch.distributed.") && strstr(c, "Backend.NCCL")) {
            report(ps, GP_R_PY_DIST_001, first, guarded);
            return true;
        }
        if (is_call && gp_audit_mps_op_of(c)) { /* PY-MPS-001 (mps_table.c) */
            report(ps, GP_R_PY_MPS_001, first, guarded);
            return true;
        }
        if (strcmp(c, "triton.jit") == 0 || strcmp(c, "triton.autotune") == 0 ||
            strcmp(c, "triton.heuristics") == 0) {
            report(ps, GP_R_PY_TRITON_001, first, guarded);
            return true;
        }
    }
    if (strcmp(last, "CUDAGraph") == 0) {
        report(ps, GP_R_PY_DEV_005, lasti, guarded);
        return true;
    }
    if (strcmp(last, "BitsAndBytesConfig") == 0 && is_call) {
        report(ps, GP_R_PY_QUANT_001, lasti, guarded);
        return true;
    }
    if (strcmp(last, "CUDAExtension") == 0 || (ps->setup_py && strcmp(last, "CUDA_HOME") == 0)) {
        report(ps, GP_R_PY_EXT_001, lasti, guarded);
        if (ps->setup_py && is_call) ext_module_fact(ps, lasti + 1, guarded, false);
        return true;
    }
    bool attr = has_base || ncomp > 1;
    /* `self.cuda()` in a file whose class defines its own cuda(): the project's method */
    if (attr && is_call && !has_base && strcmp(c, "self.cuda") == 0 && defines_cuda(ps))
        return true;
    if (attr && is_call && strcmp(last, "cuda") == 0 && !starts(c, "numba.")) {
        size_t nf0 = ps->r->nf;
        report(ps, GP_R_PY_DEV_001, lasti, guarded);
        if (!has_base && strcmp(c, "self.cuda") == 0 && ps->r->nf > nf0)
            ps->r->f[nf0].marks |= GP_MARK_SELF_CUDA;
        return true;
    }
    if (attr && is_call && strcmp(last, "double") == 0 && is_op(ps, lasti + 2, ")") &&
        !starts(c, "np.") && !starts(c, "numpy.") && !starts(c, "math.")) {
        f64_source(ps, lasti);
        return true;
    }
    if (is_call && !has_base && c[0] == 'n' && ps->npar > 0 && ps->par[ps->npar - 1].call &&
        (last_is(&ps->par[ps->npar - 1], "from_numpy") ||
         last_is(&ps->par[ps->npar - 1], "as_tensor")) &&
        np_default_f64(ps, c, lasti + 1)) {
        /* numpy's default dtype is float64, which from_numpy and as_tensor keep (a name set to
         * such an array is looked up where it is made a tensor: np_name_default_f64) */
        f64_source(ps, first);
        return true;
    }
    if ((strcmp(c, "numpy.float64") == 0 || strcmp(c, "numpy.double") == 0) &&
        makes_dtype(ps, first)) {
        f64_source(ps, first); /* a numpy array of float64: reported where it reaches a device */
        return true;
    }
    if (attr && is_call && strcmp(last, "pin_memory") == 0) {
        report(ps, GP_R_PY_MEM_001, lasti, guarded);
        return true;
    }
    return false;
}

/* ---- imports ---------------------------------------------------------------------------- */

/* Can a name chain starting with this alias resolve to what line_has_guard_signal looks for?
 * Each of its names and prefixes needs one of these words in the alias's target. */
static bool alias_may_guard(const char *target)
{
    return strstr(target, "cuda") || strstr(target, "environ") || strstr(target, "getenv") ||
           strstr(target, "is_") || strstr(target, "device_count");
}

/* Writes src[0, n) at dst + at, cut to what fits before the terminating NUL of a buffer of cap
 * bytes (as snprintf would cut it); returns the new length. */
static size_t cut_copy(char *dst, size_t cap, size_t at, const char *src, size_t n)
{
    if (at + 1 >= cap) return at;
    if (n > cap - 1 - at) n = cap - 1 - at;
    memcpy(dst + at, src, n);
    dst[at + n] = '\0';
    return at + n;
}

static void add_alias(py_scan *ps, const char *name, size_t n, const char *target)
{
    if (n == 0 || n >= sizeof ps->al[0].name) return;
    int slot = alias_find(ps, name, n);
    if (slot < 0) {
        if (ps->nal == PY_MAX_ALIAS) return;
        slot = ps->nal++;
        unsigned h = alias_bit(name, n);
        while (ps->alias_slot[h])
            h = (h + 1) & 127u;
        ps->alias_slot[h] = (uint8_t)(slot + 1);
    }
    memcpy(ps->al[slot].name, name, n);
    ps->al[slot].name[n] = '\0';
    ps->al[slot].len = n;
    size_t tn =
        cut_copy(ps->al[slot].target, sizeof ps->al[slot].target, 0, target, strlen(target));
    ps->alias_gen++;
    ps->al[slot].hot = gp_audit_prefilter_find(GP_PF_PYTHON, ps->al[slot].target, tn, 0) < tn;
    ps->al[slot].guard = alias_may_guard(ps->al[slot].target);
}

/* Reports an import that fails off CUDA; `fact` is its import fact (offset + 1), which lets
 * resolve.c drop it when the module is the project's own (mamba_ssm inside mamba). */
static void report_import(py_scan *ps, int rule, size_t tok, bool guarded, size_t fact)
{
    const gp_py_tok *t = &ps->t[tok];
    long k = gp_audit_add(ps->r, ps->s, rule, guarded, t->line, t->line_off, t->off, t->len);
    if (k >= 0) ps->r->f[k].fact = (uint32_t)fact;
}

static bool check_module(py_scan *ps, const char *m, size_t tok, bool guarded, size_t fact)
{
    if (module_is_cuda_only(m) || module_is_bnb(m)) {
        report_import(ps, module_is_bnb(m) ? GP_R_PY_QUANT_001 : GP_R_PY_IMP_001, tok, guarded,
                      fact);
        return true;
    }
    if (strcmp(m, "triton") == 0 || starts(m, "triton.")) {
        report_import(ps, GP_R_PY_TRITON_001, tok, guarded, fact);
        return true;
    }
    return false;
}

/* setup.py: the module a `CUDAExtension(...)` call (its '(' at token i) builds, its first
 * argument or its `name=` string, recorded for resolve.c: a package that imports it without a
 * fallback needs the extension, whatever the build's switch. `cpu`: a CppExtension (or a plain
 * Extension) that builds the module without CUDA. */
static void ext_module_fact(py_scan *ps, size_t i, bool guarded, bool cpu)
{
    int depth = 0;
    bool named = false;
    for (size_t k = i; k < ps->nt; k++) {
        const gp_py_tok *t = &ps->t[k];
        if (t->kind == GP_PY_OP && t->len == 1 && memchr("([{", tx(ps, k)[0], 3)) depth++;
        if (t->kind == GP_PY_OP && t->len == 1 && memchr(")]}", tx(ps, k)[0], 3) && --depth == 0)
            return;
        /* its sources, relative to setup.py: the CUDA branch's are optional with it (the host
         * .cpp of a CUDA extension too); a CppExtension's are built plainly */
        if (t->kind == GP_PY_STRING && !t->fstring && k > i + 1 && t->blen < 200) {
            const char *b = ps->s->data + t->body;
            const char *dot = NULL;
            for (size_t q = t->blen; q > 0 && !dot; q--)
                if (b[q - 1] == '.')
                    dot = b + q - 1;
                else if (b[q - 1] == '/')
                    break;
            size_t el = dot ? t->blen - (size_t)(dot - b) - 1 : 0;
            static const char *const exts[] = {"cu", "cuh", "cpp", "cc", "cxx", "c"};
            for (size_t x = 0; dot && x < sizeof exts / sizeof *exts; x++)
                if (strlen(exts[x]) == el && memcmp(dot + 1, exts[x], el) == 0) {
                    gp_audit_fact(ps->r, GP_FACT_SOURCE, guarded && !cpu ? GP_FACTF_GUARDED : 0, b,
                                  t->blen);
                    break;
                }
        }
        if (depth != 1 || named) continue;
        size_t at = (size_t)-1;
        if (k == i + 1 && t->kind == GP_PY_STRING &&
            (is_op(ps, k + 1, ",") || is_op(ps, k + 1, ")")))
            at = k;
        else if (is_op(ps, k - 1, ",") || k == i + 1)
            if (is_name(ps, k, "name") && is_op(ps, k + 1, "=") && k + 2 < ps->nt &&
                ps->t[k + 2].kind == GP_PY_STRING && !is_op(ps, k + 3, "."))
                at = k + 2;
        if (at == (size_t)-1) continue;
        const gp_py_tok *s = &ps->t[at];
        named = true;
        if (!s->fstring && s->blen > 0 && s->blen <= GP_AUDIT_FACT_MAX)
            gp_audit_fact(ps->r, GP_FACT_EXT_MODULE,
                          (guarded ? GP_FACTF_GUARDED : 0) | (cpu ? GP_FACTF_CPU_EXT : 0),
                          ps->s->data + s->body, s->blen);
    }
}

/* Reads a dotted module name without alias resolution. */
static size_t read_module(py_scan *ps, size_t i, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    while (i < ps->nt && ps->t[i].kind == GP_PY_NAME) {
        size_t n = ps->t[i].len;
        if (len + n + 2 < cap) {
            if (len) buf[len++] = '.';
            memcpy(buf + len, tx(ps, i), n);
            len += n;
            buf[len] = '\0';
        }
        if (is_op(ps, i + 1, ".") && i + 2 < ps->nt && ps->t[i + 2].kind == GP_PY_NAME)
            i += 2;
        else
            return i + 1;
    }
    return i;
}

/* Records an import for resolve.c: "pre" (dots and a module, either may be empty) and "name"
 * joined with a '.'. */
static void import_fact(py_scan *ps, unsigned flags, const char *pre, size_t pn, const char *name,
                        size_t nn)
{
    char b[PY_NAME_MAX * 2];
    size_t k = cut_copy(b, sizeof b, 0, pre, pn);
    if (nn) {
        if (k && b[k - 1] != '.') k = cut_copy(b, sizeof b, k, ".", 1);
        k = cut_copy(b, sizeof b, k, name, nn);
    }
    gp_audit_fact(ps->r, GP_FACT_IMPORT, flags, b, k);
}

/* Packages that are never the project's own: names imported from them are not followed. */
static const struct {
    const char *w;
    size_t n;
} foreign_tops[] = {
#define FT(s)                                                                                      \
    {                                                                                              \
        s, sizeof(s) - 1                                                                           \
    }
    FT("PIL"),
    FT("__future__"),
    FT("abc"),
    FT("accelerate"),
    FT("argparse"),
    FT("collections"),
    FT("contextlib"),
    FT("copy"),
    FT("dataclasses"),
    FT("datasets"),
    FT("diffusers"),
    FT("einops"),
    FT("enum"),
    FT("functools"),
    FT("glob"),
    FT("hydra"),
    FT("importlib"),
    FT("inspect"),
    FT("io"),
    FT("itertools"),
    FT("jax"),
    FT("json"),
    FT("lightning"),
    FT("logging"),
    FT("math"),
    FT("matplotlib"),
    FT("numpy"),
    FT("omegaconf"),
    FT("os"),
    FT("pathlib"),
    FT("pickle"),
    FT("pytorch_lightning"),
    FT("random"),
    FT("re"),
    FT("scipy"),
    FT("shutil"),
    FT("sklearn"),
    FT("subprocess"),
    FT("sys"),
    FT("tensorflow"),
    FT("threading"),
    FT("time"),
    FT("timm"),
    FT("torch"),
    FT("torchvision"),
    FT("tqdm"),
    FT("transformers"),
    FT("typing"),
    FT("typing_extensions"),
    FT("warnings"),
    FT("yaml"),
#undef FT
};

static bool module_is_foreign(const char *m)
{
    size_t top = strcspn(m, ".");
    for (size_t k = 0; k < sizeof foreign_tops / sizeof foreign_tops[0]; k++)
        if (foreign_tops[k].n == top && foreign_tops[k].w[0] == m[0] &&
            memcmp(foreign_tops[k].w, m, top) == 0)
            return true;
    return false;
}

/* Remembers a name an unguarded `from X import name` brings in (token tok), with its fact. */
static void named_add(py_scan *ps, size_t tok, size_t fact, unsigned fact_flags)
{
    if (ps->nnamed == PY_MAX_NAMED || ps->continued || (fact_flags & GP_FACTF_GUARDED) ||
        ps->nt == 0)
        return;
    const gp_py_tok *e = &ps->t[ps->nt - 1];
    py_named *nm = &ps->named[ps->nnamed++];
    *nm = (py_named){ps->t[tok].off, ps->t[tok].len, ps->t[0].off, e->off + e->len, fact, {0}};
}

static void scan_import(py_scan *ps, size_t i0, bool guarded, unsigned fact_flags)
{
    char m[PY_NAME_MAX], full[PY_NAME_MAX * 2];
    if (is_name(ps, i0, "import")) {
        size_t i = i0 + 1;
        while (i < ps->nt && ps->t[i].kind == GP_PY_NAME) {
            size_t st = i;
            i = read_module(ps, i, m, sizeof m);
            size_t fa = ps->r->facts.len + 1;
            import_fact(ps, fact_flags, m, strlen(m), NULL, 0);
            check_module(ps, m, st, guarded, fa);
            if (is_name(ps, i, "as") && i + 1 < ps->nt && ps->t[i + 1].kind == GP_PY_NAME) {
                add_alias(ps, tx(ps, i + 1), ps->t[i + 1].len, m);
                i += 2;
            }
            if (is_op(ps, i, ","))
                i++;
            else
                break;
        }
        return;
    }
    /* from M import a [as b], ... */
    size_t i = i0 + 1;
    size_t dots = 0;
    while (is_op(ps, i, ".")) {
        dots++;
        i++;
    }
    if (dots) { /* relative: the project's own modules, for resolve.c only */
        char rel[PY_NAME_MAX + 64];
        size_t k = 0;
        while (k < dots && k < 63)
            rel[k++] = '.';
        if (ps->t[i].kind == GP_PY_NAME && i < ps->nt && !is_name(ps, i, "import")) {
            i = read_module(ps, i, m, sizeof m);
            k = cut_copy(rel, sizeof rel, k, m, strlen(m));
        }
        if (!is_name(ps, i, "import")) return;
        import_fact(ps, fact_flags, rel, k, NULL, 0);
        for (i++; i < ps->nt; i++) {
            if (ps->t[i].kind != GP_PY_NAME || is_name(ps, i, "as")) continue;
            size_t fa = ps->r->facts.len;
            import_fact(ps, fact_flags | GP_FACTF_NAME, rel, k, tx(ps, i), ps->t[i].len);
            size_t local = i;
            if (is_name(ps, i + 1, "as") && i + 2 < ps->nt && ps->t[i + 2].kind == GP_PY_NAME)
                local = i + 2;
            named_add(ps, local, fa, fact_flags);
            if (is_name(ps, i + 1, "as")) i += 2;
        }
        return;
    }
    size_t mt = i;
    i = read_module(ps, i, m, sizeof m);
    if (!is_name(ps, i, "import")) return;
    i++;
    size_t mn = strlen(m), fa = ps->r->facts.len + 1;
    import_fact(ps, fact_flags, m, mn, NULL, 0);
    bool fired = check_module(ps, m, mt, guarded, fa);
    for (; i < ps->nt; i++) {
        if (ps->t[i].kind != GP_PY_NAME) continue;
        if (is_name(ps, i, "as")) continue;
        size_t fl = cut_copy(full, sizeof full, 0, m, mn);
        fl = cut_copy(full, sizeof full, fl, ".", 1);
        cut_copy(full, sizeof full, fl, tx(ps, i), ps->t[i].len);
        size_t fn = ps->r->facts.len + 1;
        gp_audit_fact(ps->r, GP_FACT_IMPORT, fact_flags | GP_FACTF_NAME, full, strlen(full));
        size_t nt = i;
        if (is_name(ps, i + 1, "as") && i + 2 < ps->nt && ps->t[i + 2].kind == GP_PY_NAME) {
            add_alias(ps, tx(ps, i + 2), ps->t[i + 2].len, full);
            if (!module_is_foreign(m)) named_add(ps, i + 2, fn - 1, fact_flags);
            i += 2;
        } else {
            add_alias(ps, tx(ps, i), ps->t[i].len, full);
            if (!module_is_foreign(m)) named_add(ps, i, fn - 1, fact_flags);
        }
        if (!fired && (module_is_cuda_only(full) || module_is_bnb(full)))
            report_import(ps, module_is_bnb(full) ? GP_R_PY_QUANT_001 : GP_R_PY_IMP_001, nt,
                          guarded, fn);
    }
}

/* ---- strings and keyword arguments ------------------------------------------------------ */

static bool last_is(const py_paren *p, const char *w)
{
    return p && p->last && p->last[0] == w[0] && strcmp(p->last, w) == 0;
}

/* Does a string name MPS: "mps" as a word of its own ("mps", "mps:0", "use mps"), not inside
 * one ("timestamps", "--word_timestamps")? */
static bool has_mps(const char *b, size_t n)
{
    for (size_t k = 0; k + 3 <= n; k++)
        if (b[k] == 'm' && b[k + 1] == 'p' && b[k + 2] == 's' &&
            (k == 0 || !gp_py_is_name_char((unsigned char)b[k - 1])) &&
            (k + 3 == n || !gp_py_is_name_char((unsigned char)b[k + 3])))
            return true;
    return false;
}

/* Is a setup.py string inside a list of requirements (install_requires=[...], extras_require=
 * {...}, REQUIREMENTS = [...], requirements.append(...))? Other strings (the package name,
 * keywords, a description) are not requirements. */
static bool in_requirements(const py_scan *ps)
{
    for (int k = 0; k < ps->npar; k++)
        if (ps->par[k].req) return true;
    return false;
}

/* A name that holds requirements: install_requires, REQUIRED, deps, dependencies, reqs. */
static bool names_requirements(const char *w, size_t n)
{
    char low[48];
    if (n >= sizeof low) return false;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)tolower((unsigned char)w[i]);
    low[n] = '\0';
    /* (not dependency_links: pip ignores them) */
    if (strstr(low, "link")) return false;
    return strstr(low, "require") || strstr(low, "dep") || strcmp(low, "reqs") == 0;
}

/* setup.py: a CUDA source. Set to a name outside a build branch (`cuda_sources = glob(...)`),
 * it is kept for finish() to see where the name is used. */
static void report_culist(py_scan *ps, size_t i, bool guarded)
{
    const gp_py_tok *t = &ps->t[i];
    long k =
        gp_audit_add(ps->r, ps->s, GP_R_PY_EXT_001, guarded, t->line, t->line_off, t->off, t->len);
    if (k < 0 || guarded || ps->continued || ps->nt < 3 || ps->t[0].kind != GP_PY_NAME ||
        !(is_op(ps, 1, "=") || is_op(ps, 1, "+=")) || ps->nculist == PY_MAX_CULIST)
        return;
    const gp_py_tok *e = &ps->t[ps->nt - 1];
    ps->culist[ps->nculist++] =
        (py_culist){ps->t[0].off, ps->t[0].len, ps->t[0].off, e->off + e->len, (size_t)k};
}

/* Does a string argument of the call before token i name a device option ("--device",
 * "--gpu")? */
static bool call_names_device(py_scan *ps, const py_paren *call, size_t i)
{
    for (size_t k = call->tok; k < i; k++) {
        const gp_py_tok *t = &ps->t[k];
        if (t->kind != GP_PY_STRING || t->blen > 64) continue;
        const char *b = ps->s->data + t->body;
        for (size_t q = 0; q + 3 <= t->blen; q++)
            if ((q + 6 <= t->blen && memcmp(b + q, "device", 6) == 0) ||
                memcmp(b + q, "gpu", 3) == 0)
                return true;
    }
    return false;
}

/* Does the call whose argument is at token i say `enabled=False` (in the arguments after i)? */
static bool call_disabled(py_scan *ps, size_t i)
{
    int depth = 0;
    for (size_t k = i + 1; k < ps->nt; k++) {
        const gp_py_tok *t = &ps->t[k];
        if (t->kind == GP_PY_OP && t->len == 1 && memchr("([{", tx(ps, k)[0], 3)) depth++;
        if (t->kind == GP_PY_OP && t->len == 1 && memchr(")]}", tx(ps, k)[0], 3) && --depth < 0)
            return false;
        if (depth == 0 && is_name(ps, k, "enabled") && is_op(ps, k + 1, "=") &&
            is_name(ps, k + 2, "False"))
            return true;
    }
    return false;
}

static void nccl_option(py_scan *ps, const py_paren *call, size_t i);

static void scan_string_tok(py_scan *ps, size_t i, bool guarded)
{
    const gp_py_tok *t = &ps->t[i];
    const char *b = ps->s->data + t->body;
    size_t n = t->blen;
    if (n < 64 && has_mps(b, n)) ps->mentions_mps = true;
    py_paren *call = ps->npar > 0 && ps->par[ps->npar - 1].call ? &ps->par[ps->npar - 1] : NULL;
    bool kw = i >= 2 && is_op(ps, i - 1, "=") && ps->t[i - 2].kind == GP_PY_NAME;
    bool positional = i >= 1 && (is_op(ps, i - 1, "(") || is_op(ps, i - 1, ","));
    if (is_device_string(ps, i)) {
        bool pos = false;
        if (kw) {
            /* the name assigned to, also past a one-name annotation: `device: str = "cuda"` */
            size_t nt =
                i >= 4 && is_op(ps, i - 3, ":") && ps->t[i - 4].kind == GP_PY_NAME ? i - 4 : i - 2;
            char name[64];
            size_t k = ps->t[nt].len < 63 ? ps->t[nt].len : 63;
            for (size_t c = 0; c < k; c++)
                name[c] = (char)tolower((unsigned char)tx(ps, nt)[c]);
            name[k] = '\0';
            pos = strstr(name, "device") || strcmp(name, "map_location") == 0;
            /* argparse: `parser.add_argument("--device", default="cuda")` */
            if (!pos && strcmp(name, "default") == 0 && call && last_is(call, "add_argument"))
                pos = call_names_device(ps, call, i);
        } else if (positional && call) {
            pos = last_is(call, "to") || last_is(call, "device") || last_is(call, "autocast") ||
                  last_is(call, "GradScaler"); /* torch.autocast("cuda"), GradScaler("cuda") */
            /* `device == torch.device("cuda:0")` tests the device; it does not choose one */
            if (last_is(call, "device") && call->tok > 0 &&
                (is_op(ps, call->tok - 1, "==") || is_op(ps, call->tok - 1, "!=") ||
                 (is_op(ps, i + 1, ")") && (is_op(ps, i + 2, "==") || is_op(ps, i + 2, "!=")))))
                pos = false;
        }
        /* `autocast("cuda", enabled=False)` turns mixed precision off: nothing runs on CUDA */
        if (pos && call && last_is(call, "autocast") && call_disabled(ps, i)) pos = false;
        if (pos) report(ps, GP_R_PY_DEV_002, i, guarded);
        return;
    }
    if (t->fstring) return; /* the rules below read a string's whole text */
    if (n == 4 && memcmp(b, "nccl", 4) == 0) {
        if (kw && call && last_is(call, "add_argument") && is_name(ps, i - 2, "default")) {
            nccl_option(ps, call, i); /* reported where it reaches init_process_group */
            return;
        }
        bool hit = kw && ps->t[i - 2].len == 7 && memcmp(tx(ps, i - 2), "backend", 7) == 0;
        if (hit && i == 2 && ps->npar == 0 && ps->nt == 3 && !guarded) {
            /* `backend = "nccl"`, a setting: reported where it reaches init_process_group */
            add_alias(ps, tx(ps, 0), ps->t[0].len, "nccl");
            return;
        }
        if (!hit && positional && call)
            hit = last_is(call, "init_process_group") || last_is(call, "new_group");
        /* `args.dist_backend = "nccl"`: the run's choice of NCCL, set where it is made */
        if (!hit && kw && ps->npar == 0 && i >= 4 && is_op(ps, i - 3, ".") &&
            ps->t[i - 2].len > 8 &&
            memcmp(tx(ps, i - 2) + ps->t[i - 2].len - 8, "_backend", 8) == 0)
            hit = true;
        if (hit) report(ps, GP_R_PY_DIST_001, i, guarded);
        return;
    }
    if (n > 5 && memcmp(b, "NCCL_", 5) == 0) {
        bool env = true;
        for (size_t k = 0; k < n; k++)
            if (!(isupper((unsigned char)b[k]) || isdigit((unsigned char)b[k]) || b[k] == '_'))
                env = false;
        /* reading a setting (os.environ.get("NCCL_X"), getenv) breaks nothing off CUDA: a note */
        bool read = i >= 2 && is_op(ps, i - 1, "(") &&
                    (is_name(ps, i - 2, "get") || is_name(ps, i - 2, "getenv"));
        if (env) report(ps, GP_R_PY_DIST_002, i, guarded || read);
        return;
    }
    if (ps->setup_py && ((n == 20 && memcmp(b, "TORCH_CUDA_ARCH_LIST", 20) == 0) ||
                         (n == 9 && memcmp(b, "CUDA_HOME", 9) == 0))) {
        report(ps, GP_R_PY_EXT_001, i, guarded);
        return;
    }
    bool cu =
        (n > 3 && memcmp(b + n - 3, ".cu", 3) == 0) || (n > 4 && memcmp(b + n - 4, ".cuh", 4) == 0);
    if (cu) {
        /* a source of a JIT build, also inside a call in its arguments:
         * `sources=[os.path.join(here, "k.cu")]` */
        bool jit = false;
        for (int k = ps->npar - 1; k >= 0 && !jit; k--)
            jit = ps->par[k].call &&
                  (strcmp(ps->par[k].callee, "torch.utils.cpp_extension.load") == 0 ||
                   last_is(&ps->par[k], "load_inline"));
        if (jit)
            report(ps, GP_R_PY_EXT_002, i, guarded);
        else if (ps->setup_py)
            report_culist(ps, i, guarded);
        return;
    }
    if (ps->setup_py && n > 0 && n < 200 && in_requirements(ps))
        gp_audit_check_requirement(ps->s, ps->r, t->line, t->line_off, t->body, n);
}

static bool names_nccl(py_scan *ps, size_t i);

/* `parser.add_argument("--dist-backend", default="nccl")` (the default at token i): its dest
 * (`dest=`, or the first long option with '-' as '_') is an alias of "nccl" for names_nccl_at
 * (`args.dist_backend`). */
static void nccl_option(py_scan *ps, const py_paren *call, size_t i)
{
    const char *best = NULL;
    size_t bl = 0;
    for (size_t k = call->tok; k < ps->nt; k++) {
        if (k != i && is_name(ps, k, "dest") && is_op(ps, k + 1, "=") && k + 2 < ps->nt &&
            ps->t[k + 2].kind == GP_PY_STRING) {
            best = ps->s->data + ps->t[k + 2].body;
            bl = ps->t[k + 2].blen;
            break;
        }
        if (k < i && !best && ps->t[k].kind == GP_PY_STRING && ps->t[k].blen > 2 &&
            memcmp(ps->s->data + ps->t[k].body, "--", 2) == 0) {
            best = ps->s->data + ps->t[k].body + 2;
            bl = ps->t[k].blen - 2;
        }
        if (is_op(ps, k, ")") && k > i) break;
    }
    char o[64];
    if (!best || bl == 0 || bl >= sizeof o) return;
    for (size_t k = 0; k < bl; k++) {
        char c = best[k] == '-' ? '_' : best[k];
        if (!gp_py_is_name_char((unsigned char)c)) return;
        o[k] = c;
    }
    add_alias(ps, o, bl, "nccl");
}

/* Is token i a name set to "nccl" in this file (`backend = "nccl"`), or an attribute named for
 * an argparse option whose default is "nccl" (`args.dist_backend`, the chain's last name ending
 * at token *end)? */
static bool names_nccl_at(py_scan *ps, size_t i, size_t *end)
{
    *end = i;
    if (i >= ps->nt || ps->t[i].kind != GP_PY_NAME) return false;
    if (is_op(ps, i + 1, ".") && i + 2 < ps->nt && ps->t[i + 2].kind == GP_PY_NAME &&
        !is_op(ps, i + 3, ".") && !is_op(ps, i + 3, "(")) {
        *end = i + 2;
        int a = alias_find(ps, tx(ps, i + 2), ps->t[i + 2].len);
        return a >= 0 && strcmp(ps->al[a].target, "nccl") == 0;
    }
    return names_nccl(ps, i);
}

/* Is token i a name set to "nccl" in this file (`backend = "nccl"`)? */
static bool names_nccl(py_scan *ps, size_t i)
{
    if (i >= ps->nt || ps->t[i].kind != GP_PY_NAME) return false;
    int a = alias_find(ps, tx(ps, i), ps->t[i].len);
    return a >= 0 && !(ps->shadow >> a & 1u) && strcmp(ps->al[a].target, "nccl") == 0;
}

static void scan_kwarg(py_scan *ps, size_t i, bool guarded)
{
    py_paren *call = ps->npar > 0 && ps->par[ps->npar - 1].call ? &ps->par[ps->npar - 1] : NULL;
    const char *w = tx(ps, i);
    size_t n = ps->t[i].len, nend;
    if (n == 7 && memcmp(w, "backend", 7) == 0 && call &&
        (last_is(call, "init_process_group") || last_is(call, "new_group")) &&
        names_nccl_at(ps, i + 2, &nend) && !is_op(ps, nend + 1, ".")) {
        report(ps, GP_R_PY_DIST_001, i + 2, guarded); /* backend=backend, set to "nccl" above */
        return;
    }
    if (n == 12 && (memcmp(w, "load_in_8bit", 12) == 0 || memcmp(w, "load_in_4bit", 12) == 0) &&
        is_name(ps, i + 2, "True")) {
        report(ps, GP_R_PY_QUANT_001, i, guarded); /* bitsandbytes (LLM.int8, 4-bit) */
        return;
    }
    if (n == 10 && memcmp(w, "pin_memory", 10) == 0 && is_name(ps, i + 2, "True")) {
        report(ps, GP_R_PY_MEM_001, i, guarded);
        return;
    }
    if (!call) return;
    if ((n == 10 && memcmp(w, "device_ids", 10) == 0) ||
        (n == 9 && memcmp(w, "device_id", 9) == 0)) {
        if (last_is(call, "DistributedDataParallel") || last_is(call, "DDP") ||
            last_is(call, "FullyShardedDataParallel") || last_is(call, "FSDP"))
            report(ps, GP_R_PY_DIST_002, i, guarded);
        return;
    }
    if (n == 12 && memcmp(w, "cuda_sources", 12) == 0 && last_is(call, "load_inline")) {
        report(ps, GP_R_PY_EXT_002, i, guarded);
        return;
    }
    if (n == 11 && memcmp(w, "num_workers", 11) == 0 && last_is(call, "DataLoader")) {
        bool zero = i + 2 < ps->nt && ps->t[i + 2].kind == GP_PY_NUMBER && ps->t[i + 2].len == 1 &&
                    tx(ps, i + 2)[0] == '0';
        if (!zero) call->nw_pos = true;
    }
}

static void pend(py_pending *arr, int *n, const gp_py_tok *t)
{
    if (*n == PY_MAX_PEND) return;
    arr[*n].line = t->line;
    arr[*n].line_off = t->line_off;
    arr[*n].off = t->off;
    arr[*n].len = t->len;
    (*n)++;
}

static void close_paren(py_scan *ps, bool guarded)
{
    py_paren *p = &ps->par[--ps->npar];
    if (!p->call || !last_is(p, "DataLoader") || !p->nw_pos) return;
    if (p->lambda)
        report(ps, GP_R_PY_DL_001, p->tok, guarded);
    else if (!any_block(ps, BK_DEF))
        pend(ps->dl, &ps->ndl, &ps->t[p->tok]);
}

/* ---- setup.py: conditions on the environment, with their defaults --------------------------
 * A build switch read from the environment (`if os.environ.get("WITH_CUDA", "1") == "1":`) is
 * evaluated as it stands when the variable is not set: a branch the default takes is no guard.
 * Only conditions made of environment reads (with their defaults), literals, the switches set
 * from them and int/bool/str/lower/upper/strip, not/and/or and comparisons are evaluated; any
 * other name makes the value unknown. */

enum { PV_UNK, PV_NONE, PV_BOOL, PV_INT, PV_STR, PV_SEQ };

typedef struct py_val {
    int k;
    long long n;     /* PV_BOOL, PV_INT */
    size_t off, len; /* PV_STR: its bytes in the source; PV_SEQ: tokens [off, len) */
} py_val;

typedef struct py_eval {
    py_scan *ps;
    size_t i, end;
    bool env; /* an environment read (or a switch set from one) was seen */
} py_eval;

static py_val ev_or(py_eval *e);

static int ev_truth(py_val v)
{
    switch (v.k) {
    case PV_NONE:
        return 0;
    case PV_BOOL:
    case PV_INT:
        return v.n != 0;
    case PV_STR:
        return v.len > 0;
    case PV_SEQ:
        return v.len > v.off; /* a non-empty token range */
    default:
        return -1;
    }
}

static py_val ev_bool(int t)
{
    py_val v = {t < 0 ? PV_UNK : PV_BOOL, t > 0, 0, 0};
    return v;
}

/* Skips a bracketed group opening at token e->i. */
static void ev_skip_group(py_eval *e)
{
    int depth = 0;
    for (; e->i < e->end; e->i++) {
        if (is_op(e->ps, e->i, "(") || is_op(e->ps, e->i, "[") || is_op(e->ps, e->i, "{"))
            depth++;
        else if (is_op(e->ps, e->i, ")") || is_op(e->ps, e->i, "]") || is_op(e->ps, e->i, "}"))
            if (--depth == 0) {
                e->i++;
                return;
            }
    }
}

static bool ev_str_eq(py_scan *ps, py_val a, py_val b)
{
    const char *d = ps->s->data;
    if (a.len != b.len) return false;
    for (size_t k = 0; k < a.len; k++)
        if (tolower((unsigned char)d[a.off + k]) != tolower((unsigned char)d[b.off + k]))
            return false;
    return true;
}

static py_val ev_to_int(py_scan *ps, py_val v)
{
    py_val r = {PV_UNK, 0, 0, 0};
    if (v.k == PV_INT || v.k == PV_BOOL) {
        r.k = PV_INT;
        r.n = v.n;
    } else if (v.k == PV_STR && v.len > 0 && v.len < 19) {
        const char *d = ps->s->data + v.off;
        long long n = 0;
        size_t k = 0;
        bool neg = d[0] == '-';
        if (neg) k = 1;
        if (k == v.len) return r;
        for (; k < v.len; k++) {
            if (!isdigit((unsigned char)d[k])) return r;
            n = n * 10 + (d[k] - '0');
        }
        r.k = PV_INT;
        r.n = neg ? -n : n;
    }
    return r;
}

/* An environment read at the chain ending at token j (os.environ.get, os.getenv, getenv): its
 * arguments start at e->i (after '('); returns the default, or None. */
static py_val ev_env_call(py_eval *e)
{
    py_val def = {PV_NONE, 0, 0, 0};
    e->env = true;
    int args = 0;
    size_t start = e->i;
    while (e->i < e->end && !is_op(e->ps, e->i, ")")) {
        if (args == 1) {
            py_val v = ev_or(e);
            def = v;
        } else {
            py_val v = ev_or(e);
            (void)v;
        }
        if (is_op(e->ps, e->i, ",")) {
            e->i++;
            args++;
        } else if (!is_op(e->ps, e->i, ")")) {
            e->i = start;
            ev_skip_group(e);
            py_val u = {PV_UNK, 0, 0, 0};
            return u;
        }
    }
    if (e->i < e->end) e->i++; /* ')' */
    return def;
}

static py_val ev_atom(py_eval *e)
{
    py_scan *ps = e->ps;
    py_val unk = {PV_UNK, 0, 0, 0};
    if (e->i >= e->end) return unk;
    const gp_py_tok *t = &ps->t[e->i];
    py_val v = unk;
    if (t->kind == GP_PY_STRING) {
        e->i++;
        if (t->fstring) return unk;
        v.k = PV_STR;
        v.off = t->body;
        v.len = t->blen;
        while (e->i < e->end && ps->t[e->i].kind == GP_PY_STRING) /* "a" "b": unknown */
            e->i++, v.k = PV_UNK;
    } else if (t->kind == GP_PY_NUMBER) {
        py_val sv = {PV_STR, 0, t->off, t->len};
        e->i++;
        v = ev_to_int(ps, sv);
    } else if (is_op(ps, e->i, "(") || is_op(ps, e->i, "[")) {
        size_t open = e->i;
        e->i++;
        py_val in = ev_or(e);
        if (is_op(ps, e->i, ")") && is_op(ps, open, "(")) {
            e->i++;
            v = in;
        } else {
            e->i = open;
            ev_skip_group(e);
            v.k = PV_SEQ;
            v.off = open + 1;
            v.len = e->i - 1; /* the closing bracket */
        }
    } else if (t->kind == GP_PY_NAME) {
        if (is_name(ps, e->i, "True") || is_name(ps, e->i, "False")) {
            v.k = PV_BOOL;
            v.n = is_name(ps, e->i, "True");
            e->i++;
        } else if (is_name(ps, e->i, "None")) {
            v.k = PV_NONE;
            e->i++;
        } else {
            char buf[PY_NAME_MAX];
            int nc;
            const char *last;
            size_t j = read_chain(ps, e->i, false, buf, sizeof buf, &nc, &last);
            size_t first = e->i;
            e->i = j + 1;
            bool call = is_op(ps, e->i, "(");
            if (call && (strcmp(buf, "os.environ.get") == 0 || strcmp(buf, "os.getenv") == 0 ||
                         strcmp(buf, "getenv") == 0 || strcmp(buf, "environ.get") == 0)) {
                e->i++;
                v = ev_env_call(e);
            } else if (call && nc == 1 &&
                       (strcmp(buf, "int") == 0 || strcmp(buf, "bool") == 0 ||
                        strcmp(buf, "str") == 0)) {
                e->i++;
                py_val in = ev_or(e);
                if (!is_op(ps, e->i, ")")) {
                    e->i = j + 1;
                    ev_skip_group(e);
                    return unk;
                }
                e->i++;
                if (buf[0] == 'i')
                    v = ev_to_int(ps, in);
                else if (buf[0] == 'b')
                    v = ev_bool(ev_truth(in));
                else
                    v = in.k == PV_STR ? in : unk;
            } else if (!call && nc == 1) {
                for (int k = 0; k < ps->nswitch; k++)
                    if (ps->sw[k].name_len == ps->t[first].len &&
                        memcmp(ps->s->data + ps->sw[k].name_off, tx(ps, first), ps->t[first].len) ==
                            0) {
                        v = ev_bool(ps->sw[k].value);
                        e->env = true;
                    }
            } else if (call) {
                ev_skip_group(e);
            }
        }
    } else {
        e->i++;
        return unk;
    }
    /* .lower() .upper() .strip() on a string */
    while (e->i + 1 < e->end && is_op(ps, e->i, ".") && ps->t[e->i + 1].kind == GP_PY_NAME) {
        bool same = is_name(ps, e->i + 1, "lower") || is_name(ps, e->i + 1, "upper") ||
                    is_name(ps, e->i + 1, "strip");
        e->i += 2;
        if (is_op(ps, e->i, "(")) ev_skip_group(e);
        if (!same || v.k != PV_STR) v = unk;
    }
    return v;
}

static int ev_eq(py_scan *ps, py_val a, py_val b)
{
    if (a.k == PV_UNK || b.k == PV_UNK) return -1;
    if ((a.k == PV_INT || a.k == PV_BOOL) && (b.k == PV_INT || b.k == PV_BOOL)) return a.n == b.n;
    if (a.k == PV_STR && b.k == PV_STR) return ev_str_eq(ps, a, b);
    if (a.k == PV_NONE || b.k == PV_NONE) return a.k == b.k;
    if (a.k == PV_SEQ || b.k == PV_SEQ) return -1;
    return 0;
}

/* Is a in the sequence (tokens [seq.off, seq.len)) or the string? */
static int ev_in(py_eval *e, py_val a, py_val seq)
{
    if (a.k == PV_UNK) return -1;
    if (seq.k == PV_STR) {
        if (a.k != PV_STR) return -1;
        const char *d = e->ps->s->data;
        for (size_t k = 0; k + a.len <= seq.len; k++)
            if (memcmp(d + seq.off + k, d + a.off, a.len) == 0) return 1;
        return 0;
    }
    if (seq.k != PV_SEQ) return -1;
    py_eval sub = {e->ps, seq.off, seq.len, false};
    int found = 0;
    while (sub.i < sub.end) {
        py_val x = ev_atom(&sub);
        int q = ev_eq(e->ps, a, x);
        if (q < 0) return -1;
        if (q) found = 1;
        if (is_op(e->ps, sub.i, ","))
            sub.i++;
        else if (sub.i < sub.end)
            return -1;
    }
    return found;
}

static py_val ev_cmp(py_eval *e)
{
    py_scan *ps = e->ps;
    py_val a = ev_atom(e);
    if (e->i >= e->end) return a;
    bool neg = false;
    if (is_op(ps, e->i, "==") || is_op(ps, e->i, "!=")) {
        neg = is_op(ps, e->i, "!=");
        e->i++;
        int q = ev_eq(ps, a, ev_atom(e));
        return ev_bool(q < 0 ? -1 : neg ? !q : q);
    }
    if (is_name(ps, e->i, "in") || (is_name(ps, e->i, "not") && is_name(ps, e->i + 1, "in"))) {
        neg = is_name(ps, e->i, "not");
        e->i += neg ? 2 : 1;
        int q = ev_in(e, a, ev_atom(e));
        return ev_bool(q < 0 ? -1 : neg ? !q : q);
    }
    if (is_op(ps, e->i, ">") || is_op(ps, e->i, "<") || is_op(ps, e->i, ">=") ||
        is_op(ps, e->i, "<=")) {
        const char *op = tx(ps, e->i);
        size_t ol = ps->t[e->i].len;
        e->i++;
        py_val b = ev_atom(e);
        if ((a.k != PV_INT && a.k != PV_BOOL) || (b.k != PV_INT && b.k != PV_BOOL))
            return ev_bool(-1);
        bool r =
            op[0] == '>' ? (ol == 2 ? a.n >= b.n : a.n > b.n) : (ol == 2 ? a.n <= b.n : a.n < b.n);
        return ev_bool(r);
    }
    if (is_name(ps, e->i, "is")) {
        neg = is_name(ps, e->i + 1, "not");
        e->i += neg ? 2 : 1;
        py_val b = ev_atom(e);
        if (a.k == PV_UNK || b.k != PV_NONE) return ev_bool(-1);
        bool r = a.k == PV_NONE;
        return ev_bool(neg ? !r : r);
    }
    return a;
}

static py_val ev_not(py_eval *e)
{
    if (is_name(e->ps, e->i, "not")) {
        e->i++;
        int t = ev_truth(ev_not(e));
        return ev_bool(t < 0 ? -1 : !t);
    }
    return ev_cmp(e);
}

static py_val ev_and(py_eval *e)
{
    py_val a = ev_not(e);
    while (is_name(e->ps, e->i, "and")) {
        e->i++;
        int x = ev_truth(a), y = ev_truth(ev_not(e));
        a = ev_bool(x == 0 || y == 0 ? 0 : x < 0 || y < 0 ? -1 : 1);
    }
    return a;
}

static py_val ev_or(py_eval *e)
{
    py_val a = ev_and(e);
    while (is_name(e->ps, e->i, "or")) {
        e->i++;
        int x = ev_truth(a), y = ev_truth(ev_and(e));
        a = ev_bool(x == 1 || y == 1 ? 1 : x < 0 || y < 0 ? -1 : 0);
    }
    return a;
}

/* The truth of tokens [from, to) as a condition on the environment's defaults: 1, 0, or -1
 * when it is not one (or cannot be told). */
static int env_default(py_scan *ps, size_t from, size_t to)
{
    py_eval e = {ps, from, to, false};
    py_val v = ev_or(&e);
    if (e.i != to || !e.env) return -1;
    return ev_truth(v);
}

/* ---- one logical line --------------------------------------------------------------------- */

typedef struct py_word {
    const char *w;
    size_t n;
} py_word;

#define PY_WORD(s)                                                                                 \
    {                                                                                              \
        s, sizeof(s) - 1                                                                           \
    }

static bool tok_in(py_scan *ps, size_t i, const py_word *words, size_t n)
{
    size_t len = ps->t[i].len;
    const char *w = tx(ps, i);
    for (size_t k = 0; k < n; k++)
        if (len == words[k].n && w[0] == words[k].w[0] && memcmp(w, words[k].w, len) == 0)
            return true;
    return false;
}

/* Can the chain NAME(.NAME)* at [i, j] match a rule? Saves building most names. */
static bool chain_interesting(py_scan *ps, size_t i, size_t j, bool has_base)
{
    static const py_word lasts[] = {PY_WORD("cuda"),
                                    PY_WORD("double"),
                                    PY_WORD("pin_memory"),
                                    PY_WORD("CUDAGraph"),
                                    PY_WORD("CUDAExtension"),
                                    PY_WORD("CUDA_HOME"),
                                    PY_WORD("BitsAndBytesConfig")};
    if (tok_in(ps, j, lasts, sizeof lasts / sizeof lasts[0])) return true;
    if (has_base) return false;
    return is_name(ps, i, "torch") || is_name(ps, i, "triton") || is_alias(ps, i);
}

/* Is the callee whose last NAME is token i one whose arguments some rule looks at? */
static bool callee_interesting(py_scan *ps, size_t i)
{
    static const py_word names[] = {PY_WORD("to"),
                                    PY_WORD("device"),
                                    PY_WORD("from_numpy"),
                                    PY_WORD("as_tensor"),
                                    PY_WORD("init_process_group"),
                                    PY_WORD("new_group"),
                                    PY_WORD("DDP"),
                                    PY_WORD("DistributedDataParallel"),
                                    PY_WORD("FSDP"),
                                    PY_WORD("load"),
                                    PY_WORD("FullyShardedDataParallel"),
                                    PY_WORD("load_inline"),
                                    PY_WORD("DataLoader"),
                                    PY_WORD("type"),
                                    PY_WORD("set_default_dtype"),
                                    PY_WORD("astype"),
                                    PY_WORD("autocast"),
                                    PY_WORD("GradScaler"),
                                    PY_WORD("add_argument")};
    return tok_in(ps, i, names, sizeof names / sizeof names[0]);
}

/* Is the ':' at token i the start of an annotation: of a def's parameter (inside its own
 * parentheses), or of an annotated assignment (`x: T = v`, `self.s: T = v`, at the top of the
 * line, in a statement that is no compound one)? */
static bool annotation_colon(py_scan *ps, size_t i)
{
    bool def = is_name(ps, 0, "def") || (is_name(ps, 0, "async") && is_name(ps, 1, "def"));
    if (def) return ps->npar == 1;
    if (ps->npar != 0 || ps->t[0].kind != GP_PY_NAME) return false;
    static const py_word compound[] = {PY_WORD("if"),    PY_WORD("elif"),   PY_WORD("else"),
                                       PY_WORD("for"),   PY_WORD("while"),  PY_WORD("with"),
                                       PY_WORD("try"),   PY_WORD("except"), PY_WORD("finally"),
                                       PY_WORD("class"), PY_WORD("match"),  PY_WORD("case")};
    if (tok_in(ps, 0, compound, sizeof compound / sizeof compound[0])) return false;
    for (size_t k = 1; k < i; k++) /* the first ':' of the line, no lambda before it */
        if (is_op(ps, k, ":") || is_name(ps, k, "lambda")) return false;
    return true;
}

static void scan_tokens(py_scan *ps, size_t from, bool guarded)
{
    size_t chain_start = (size_t)-1;
    /* inside a type annotation (a parameter's, a return's, an annotated assignment's): the
     * names there are types, not uses (`stream: torch.cuda.Stream`, `-> torch.cuda.CUDAGraph`) */
    bool ann = false;
    int ann_level = 0;
    for (size_t i = from; i < ps->nt; i++) {
        const gp_py_tok *t = &ps->t[i];
        if (t->kind == GP_PY_STRING) {
            scan_string_tok(ps, i, guarded);
            continue;
        }
        if (t->kind == GP_PY_OP) {
            if (ann && ps->npar == ann_level &&
                (is_op(ps, i, ",") || is_op(ps, i, "=") || is_op(ps, i, ":")))
                ann = false;
            else if (!ann &&
                     ((is_op(ps, i, ":") && annotation_colon(ps, i)) || is_op(ps, i, "->"))) {
                ann = true;
                ann_level = ps->npar;
            }
        }
        if (t->kind == GP_PY_OP) {
            char c = tx(ps, i)[0];
            if (t->len == 1 && (c == '(' || c == '[' || c == '{')) {
                if (ps->npar == (int)(sizeof ps->par / sizeof ps->par[0])) continue;
                py_paren *p = &ps->par[ps->npar++];
                p->callee[0] = '\0'; /* not a memset: the name buffer is large */
                p->last = NULL;
                p->tok = 0;
                p->call = p->nw_pos = p->lambda = p->req = false;
                p->req = ps->setup_py &&
                         (in_requirements(ps) ||
                          (i >= 2 && (is_op(ps, i - 1, "=") || is_op(ps, i - 1, "+=")) &&
                           ps->t[i - 2].kind == GP_PY_NAME &&
                           names_requirements(tx(ps, i - 2), ps->t[i - 2].len)) ||
                          (c == '(' && i > 0 && ps->t[i - 1].kind == GP_PY_NAME &&
                           chain_start != (size_t)-1 &&
                           names_requirements(tx(ps, chain_start), ps->t[chain_start].len)));
                if (c == '(' && i > 0 && ps->t[i - 1].kind == GP_PY_NAME &&
                    chain_start != (size_t)-1) {
                    p->call = true;
                    p->tok = chain_start;
                    p->last = "";
                    if (callee_interesting(ps, i - 1) ||
                        (chain_start == i - 1 && is_alias(ps, i - 1))) { /* DL = DataLoader */
                        int nc;
                        const char *last;
                        bool hb = chain_start > 0 && is_op(ps, chain_start - 1, ".");
                        read_chain(ps, chain_start, hb, p->callee, sizeof p->callee, &nc, &last);
                        p->last = strrchr(p->callee, '.') ? strrchr(p->callee, '.') + 1 : p->callee;
                    }
                }
            } else if (t->len == 1 && (c == ')' || c == ']' || c == '}')) {
                if (ps->npar > 0) close_paren(ps, guarded);
                if (ann && ps->npar < ann_level) ann = false;
            }
            continue;
        }
        if (t->kind != GP_PY_NAME) continue;
        if (t->len == 3 && memcmp(tx(ps, i), "mps", 3) == 0) ps->mentions_mps = true;
        size_t nend;
        if (i > 0 && is_op(ps, i - 1, "(") && ps->npar > 0 && ps->par[ps->npar - 1].call &&
            (last_is(&ps->par[ps->npar - 1], "init_process_group") ||
             last_is(&ps->par[ps->npar - 1], "new_group")) &&
            names_nccl_at(ps, i, &nend) && (is_op(ps, nend + 1, ")") || is_op(ps, nend + 1, ",")))
            report(ps, GP_R_PY_DIST_001, i, guarded); /* init_process_group(backend) */
        if (is_name(ps, i, "lambda")) {
            for (int k = 0; k < ps->npar; k++)
                if (last_is(&ps->par[k], "DataLoader")) ps->par[k].lambda = true;
            continue;
        }
        if (is_op(ps, i + 1, "=") && ps->npar > 0) {
            scan_kwarg(ps, i, guarded);
            continue;
        }
        bool has_base = i > 0 && is_op(ps, i - 1, ".");
        size_t j = i;
        while (j + 2 < ps->nt && is_op(ps, j + 1, ".") && ps->t[j + 2].kind == GP_PY_NAME) {
            j += 2;
            if (ps->t[j].len == 3 && memcmp(tx(ps, j), "mps", 3) == 0) ps->mentions_mps = true;
        }
        if (ps->setup_py && is_op(ps, j + 1, "(") &&
            (is_name(ps, j, "CppExtension") || is_name(ps, j, "Extension") ||
             is_name(ps, j, "Pybind11Extension")))
            ext_module_fact(ps, j + 1, false, true); /* a build that needs no CUDA */
        chain_start = i;
        if (!ann && chain_interesting(ps, i, j, has_base)) {
            char buf[PY_NAME_MAX];
            int nc;
            const char *last;
            read_chain(ps, i, has_base, buf, sizeof buf, &nc, &last);
            match_name(ps, buf, nc, last, has_base, i, j, guarded);
        }
        i = j;
    }
}

static bool catches_import_error(py_scan *ps)
{
    if (ps->nt <= 2) return true; /* bare except: */
    for (size_t i = 1; i < ps->nt; i++)
        if (is_name(ps, i, "ImportError") || is_name(ps, i, "ModuleNotFoundError") ||
            is_name(ps, i, "Exception") || is_name(ps, i, "BaseException") ||
            is_name(ps, i, "OSError"))
            return true;
    return false;
}

/* The first place in d[from, lim) where w[0, k) stands as a whole name (not inside a longer one),
 * or lim. A NAME token starts after a byte that is not a name character (a number takes the
 * ones after it in) and ends before one. */
static size_t name_find(const char *d, size_t n, size_t from, size_t lim, const char *w, size_t k)
{
    for (size_t p = from;; p++) {
        p = gp_bytescan_pair(d, p, lim, w[0], w[k - 1], k - 1);
        if (p >= lim) return lim;
        /* (a word may start right after a byte-order mark, whose bytes are name bytes) */
        if (memcmp(d + p, w, k) == 0 &&
            (p == 0 || !gp_py_is_name_char((unsigned char)d[p - 1]) ||
             (p == 3 && memcmp(d, "\xEF\xBB\xBF", 3) == 0)) &&
            (p + k == n || !gp_py_is_name_char((unsigned char)d[p + k])))
            return p;
    }
}

/* ---- functions, guard ranges, facts ------------------------------------------------------ */

static void range_add(py_scan *ps, size_t a, size_t b, uint32_t chain, uint32_t branch)
{
    if (a >= b) return;
    if (ps->nranges == PY_MAX_RANGES) {
        ps->ranges_over = true;
        return;
    }
    ps->ranges[ps->nranges++] = (py_range){a, b, chain, branch};
}

/* Sets `flag` on the facts recorded from byte `from` of the result's facts on. */
static void facts_flag(gp_audit_result *r, size_t from, unsigned flag)
{
    for (size_t at = from; at + 3 <= r->facts.len; at += 3 + (unsigned char)r->facts.data[at + 2])
        r->facts.data[at + 1] = (char)((unsigned char)r->facts.data[at + 1] | flag);
}

static void f64_forget_locals(py_scan *ps);

/* A def or class line: its entry, from its decorators on (or -1 when the table is full). */
static int def_open(py_scan *ps, size_t line_start, size_t name_off, size_t name_len)
{
    if (ps->ndefs == PY_MAX_DEFS) {
        ps->defs_over = true;
        return -1;
    }
    py_def *d = &ps->defs[ps->ndefs];
    d->name_off = name_off;
    d->name_len = name_len;
    d->start = ps->deco ? ps->deco_start : line_start;
    d->f0 = ps->deco ? ps->deco_f0 : ps->r->nf;
    d->x0 = ps->deco ? ps->deco_x0 : ps->r->facts.len;
    d->end = SIZE_MAX;
    d->open = true;
    d->top = ps->nb == 0;
    if (d->top && ps->any_f64) f64_forget_locals(ps);
    d->use.known = false;
    ps->deco = false;
    return ps->ndefs++;
}

static void def_close(py_scan *ps, int k, size_t at)
{
    py_def *d = &ps->defs[k];
    if (!d->open) return;
    d->open = false;
    d->end = at;
    d->f1 = ps->r->nf;
    d->x1 = ps->r->facts.len;
}

/* A closed if/elif/else chain whose first branch tests a distributed run and whose other
 * branches, an else among them, all raise (`if args.distributed: ... else: raise
 * NotImplementedError("Only DistributedDataParallel is supported.")`): the file has no
 * single-device path. */
static void chain_closed(py_scan *ps, const py_block *b)
{
    unsigned want = CF_ELSE | CF_DIST | CF_RAISE | CF_RAISED;
    if (b->kind == BK_GUARD && (b->cf & want) == want) ps->r->dist_required = true;
}

/* The line at `indent` starting at `at` closes the blocks at that indentation or deeper; the
 * deepest closed at the same indentation is returned (kind -1 when none). */
static py_block blocks_pop(py_scan *ps, int indent, size_t at)
{
    py_block prev = {-1, -1, 0,     0,     0,     -1,    false, false, false, 0,    0,
                     0,  -1, false, false, false, false, false, false, 0,     false};
    while (ps->nb > 0 && ps->b[ps->nb - 1].indent >= indent) {
        py_block *b = &ps->b[--ps->nb];
        if (b->kind == BK_DEF && b->def >= 0) def_close(ps, b->def, at);
        if (((b->kind == BK_GUARD && !b->open) || b->guard) && (b->device || ps->setup_py))
            range_add(ps, b->body, at, b->chain, b->branch);
        /* (a chain at the line's own indentation may go on with an elif or else: the caller) */
        if (b->indent > indent) chain_closed(ps, b);
        if (b->indent == indent) prev = *b;
    }
    return prev;
}

/* A line's decorator bookkeeping: decorators belong to the def or class that follows. */
static void deco_line(py_scan *ps, bool is_deco, bool is_def, size_t at)
{
    if (is_deco) {
        if (!ps->deco) {
            ps->deco = true;
            ps->deco_start = at;
            ps->deco_f0 = ps->r->nf;
            ps->deco_x0 = ps->r->facts.len;
        }
    } else if (!is_def) {
        ps->deco = false;
    }
    if (!ps->deco) ps->deco_guard = ps->deco_device = false;
}

/* The aliases hidden by the parameters of the functions the line is in. */
static uint64_t shadowed(const py_scan *ps)
{
    uint64_t m = 0;
    for (int i = 0; i < ps->nb; i++)
        if (ps->b[i].kind == BK_DEF) m |= ps->b[i].shadow;
    return m;
}

/* The aliases a def line's parameters are named like: inside the function those names are its
 * parameters, not the imports (`def f(config)` after `from x import config`). */
static uint64_t param_shadow(py_scan *ps, size_t from)
{
    uint64_t m = 0;
    int depth = 0;
    for (size_t i = from; i < ps->nt; i++) {
        if (is_op(ps, i, "(") || is_op(ps, i, "[") || is_op(ps, i, "{")) {
            depth++;
            continue;
        }
        if (is_op(ps, i, ")") || is_op(ps, i, "]") || is_op(ps, i, "}")) {
            if (--depth <= 0) break;
            continue;
        }
        if (depth != 1 || ps->t[i].kind != GP_PY_NAME) continue;
        if (!(is_op(ps, i - 1, "(") || is_op(ps, i - 1, ",") || is_op(ps, i - 1, "*") ||
              is_op(ps, i - 1, "**")))
            continue;
        /* (only aliases a rule or a guard can resolve through: a line naming one is always
         * lexed, so the shortcut sees the same parameters) */
        int a = alias_find(ps, tx(ps, i), ps->t[i].len);
        if (a >= 0 && (ps->al[a].hot || ps->al[a].guard)) m |= 1ull << a;
    }
    return m;
}

static bool any_device_block(py_scan *ps)
{
    for (int i = 0; i < ps->nb; i++)
        if (((ps->b[i].kind == BK_GUARD && !ps->b[i].open) || ps->b[i].guard) && ps->b[i].device)
            return true;
    return false;
}

/* A decorator that skips the function where CUDA is missing: pytest.mark.skipif(not
 * torch.cuda.is_available()), unittest.skipIf(...), requires_cuda, onlyCUDA. */
static bool deco_skips(py_scan *ps)
{
    for (size_t i = 1; i < ps->nt; i++) {
        if (ps->t[i].kind != GP_PY_NAME) continue;
        char low[48];
        size_t n = ps->t[i].len < sizeof low - 1 ? ps->t[i].len : sizeof low - 1;
        for (size_t k = 0; k < n; k++)
            low[k] = (char)tolower((unsigned char)tx(ps, i)[k]);
        low[n] = '\0';
        if (strstr(low, "skip") || strstr(low, "require") || strncmp(low, "only", 4) == 0)
            return true;
    }
    return false;
}

static bool any_typing_block(py_scan *ps)
{
    for (int i = 0; i < ps->nb; i++)
        if (ps->b[i].typing) return true;
    return false;
}

/* ---- dtype flow: float64 is reported where it reaches a device ------------------------------
 * MPS has no float64: a float64 tensor on the Apple GPU fails, one on the CPU does not. A value
 * made float64 (dtype=torch.float64, .double(), .to(torch.float64), a numpy float64 array) is
 * reported where the same line puts it on a device (.cuda(), .to(device), device=...) without a
 * cast back (.float(), float32 ...). Set to a name (`betas = torch.linspace(..., dtype=
 * torch.float64)`), the name is followed through the file (an alias whose target is F64_MOD, or
 * F64_DEF when set inside a function: forgotten at the next top-level def): its uses are reported
 * where the value itself goes to a device (`betas.to(device)`, `torch.from_numpy(betas).cuda()`,
 * `self.register_buffer("b", betas)`, `nn.Parameter(betas)`), and a name set from it without a
 * cast is followed too. A value passed through any other call first (`to_torch(betas)`) is not
 * followed. */
#define F64_MOD "float64"
#define F64_DEF "float64.def"

static bool alias_is_f64(py_scan *ps, size_t i)
{
    if (i >= ps->nt || ps->t[i].kind != GP_PY_NAME || (i > 0 && is_op(ps, i - 1, ".")))
        return false;
    int a = alias_find(ps, tx(ps, i), ps->t[i].len);
    return a >= 0 && !(ps->shadow >> a & 1u) && ps->al[a].target[0] == 'f' &&
           strncmp(ps->al[a].target, F64_MOD, 7) == 0;
}

/* The last NAME of the callee whose '(' is at token i, or -1. */
static long callee_last(py_scan *ps, size_t i)
{
    return i > 0 && ps->t[i - 1].kind == GP_PY_NAME ? (long)i - 1 : -1;
}

/* The names of dtypes, torch's and numpy's */
static const py_word dtype_words[] = {
    PY_WORD("float"),      PY_WORD("float16"), PY_WORD("float32"),  PY_WORD("float64"),
    PY_WORD("double"),     PY_WORD("half"),    PY_WORD("bfloat16"), PY_WORD("long"),
    PY_WORD("int"),        PY_WORD("int32"),   PY_WORD("int64"),    PY_WORD("bool"),
    PY_WORD("uint8"),      PY_WORD("int8"),    PY_WORD("int16"),    PY_WORD("complex64"),
    PY_WORD("complex128"), PY_WORD("float_"),  PY_WORD("uint16"),   PY_WORD("uint32"),
    PY_WORD("uint64"),     PY_WORD("bool_"),   PY_WORD("intc"),     PY_WORD("single")};
#define DTYPE_WORDS (sizeof dtype_words / sizeof dtype_words[0])

/* numpy's functions whose arrays are float64 unless given a dtype: np.random's (and those of a
 * RandomState or default_rng generator), and the array makers */
static const char *const np_random_f64[] = {
    "randn",           "rand",      "random",      "random_sample", "normal", "uniform", "laplace",
    "standard_normal", "lognormal", "exponential", "gamma",         "beta"};
static const char *const np_makers_f64[] = {"zeros", "ones",     "empty",   "linspace",  "logspace",
                                            "eye",   "identity", "loadtxt", "genfromtxt"};
#define NP_RANDOM_F64 (sizeof np_random_f64 / sizeof np_random_f64[0])
#define NP_MAKERS_F64 (sizeof np_makers_f64 / sizeof np_makers_f64[0])

/* A float literal at d[i, i + n): a number with a '.' or an exponent (not hex). */
static bool float_literal(const char *d, size_t n)
{
    if (n >= 2 && d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) return false;
    for (size_t i = 0; i < n; i++)
        if (d[i] == '.' || d[i] == 'e' || d[i] == 'E') return true;
    return false;
}

/* Is the call of np.array/np.asarray whose '(' is at token open given a list or tuple written
 * out with a float literal in it (`np.array([0.5, 1.0])`: float64)? */
static bool np_array_of_floats(py_scan *ps, size_t open)
{
    if (open + 1 >= ps->nt || !(is_op(ps, open + 1, "[") || is_op(ps, open + 1, "("))) return false;
    int depth = 0;
    for (size_t i = open + 1; i < ps->nt; i++) {
        if (is_op(ps, i, "(") || is_op(ps, i, "[") || is_op(ps, i, "{")) depth++;
        if ((is_op(ps, i, ")") || is_op(ps, i, "]") || is_op(ps, i, "}")) && --depth == 0)
            return false;
        if (ps->t[i].kind == GP_PY_NUMBER && float_literal(tx(ps, i), ps->t[i].len)) return true;
    }
    return false;
}

/* Is c (a resolved name called with '(' at token open) a numpy function whose array is float64
 * when no dtype is given (np.random.randn, np.zeros, np.linspace, np.loadtxt...), called here
 * without a dtype other than float64? (np.full and np.arange take their dtype from their
 * values; np.array from its elements.) */
static bool np_default_f64(py_scan *ps, const char *c, size_t open)
{
    bool hit = false;
    if (!strcmp(c, "numpy.random.RandomState") || !strcmp(c, "numpy.random.default_rng")) {
        /* np.random.RandomState(seed).randn(...): the generator's method is the call */
        int depth = 0;
        size_t k = open;
        for (; k < ps->nt; k++) {
            if (is_op(ps, k, "(") || is_op(ps, k, "[") || is_op(ps, k, "{")) depth++;
            if ((is_op(ps, k, ")") || is_op(ps, k, "]") || is_op(ps, k, "}")) && --depth == 0)
                break;
        }
        if (k + 3 >= ps->nt || !is_op(ps, k + 1, ".") || ps->t[k + 2].kind != GP_PY_NAME ||
            !is_op(ps, k + 3, "("))
            return false;
        for (size_t m = 0; !hit && m < NP_RANDOM_F64; m++)
            hit = tok_is(ps, k + 2, GP_PY_NAME, np_random_f64[m], strlen(np_random_f64[m]));
        open = k + 3;
    } else if (starts(c, "numpy.random.")) {
        for (size_t k = 0; !hit && k < NP_RANDOM_F64; k++)
            hit = strcmp(c + 13, np_random_f64[k]) == 0;
    } else if (!strcmp(c, "numpy.array") || !strcmp(c, "numpy.asarray")) {
        hit = np_array_of_floats(ps, open);
    } else if (starts(c, "numpy.")) {
        for (size_t k = 0; !hit && k < NP_MAKERS_F64; k++)
            hit = strcmp(c + 6, np_makers_f64[k]) == 0;
    }
    if (!hit) return false;
    /* numpy's float64: `float` is float64 there, as are `np.double` and `float_` */
    static const py_word f64[] = {PY_WORD("float"), PY_WORD("float64"), PY_WORD("double"),
                                  PY_WORD("float_")};
    int depth = 0;
    for (size_t i = open + 1; i < ps->nt; i++) {
        if (is_op(ps, i, "(") || is_op(ps, i, "[") || is_op(ps, i, "{")) depth++;
        if ((is_op(ps, i, ")") || is_op(ps, i, "]") || is_op(ps, i, "}")) && depth-- == 0) break;
        if (ps->t[i].kind == GP_PY_STRING && i >= 2 && is_op(ps, i - 1, "=") &&
            is_name(ps, i - 2, "dtype")) /* dtype="float32" */
            return body_is(ps, i, "float64") || body_is(ps, i, "float") ||
                   body_is(ps, i, "double") || body_is(ps, i, "f8");
        if (depth == 0 && is_name(ps, i, "dtype") && is_op(ps, i + 1, "=") && i + 2 < ps->nt &&
            ps->t[i + 2].kind == GP_PY_NAME) {
            /* dtype=np.float64 keeps it; dtype=dt or dtype=self.dtype: not known, not reported */
            size_t j = i + 2;
            while (j + 2 < ps->nt && is_op(ps, j + 1, ".") && ps->t[j + 2].kind == GP_PY_NAME)
                j += 2;
            return tok_in(ps, j, f64, sizeof f64 / sizeof f64[0]);
        }
        if (ps->t[i].kind == GP_PY_NAME && tok_in(ps, i, dtype_words, DTYPE_WORDS) &&
            !tok_in(ps, i, f64, sizeof f64 / sizeof f64[0]))
            return false; /* np.float32, torch.int64, int, bool ... */
    }
    return true;
}

/* Does the call whose '(' is at token open take a device (its first argument not a dtype, not
 * "cpu": `.to(device)`, `.to("cuda")`, `.to(x.device)`)? */
static bool to_takes_device(py_scan *ps, size_t open)
{
    size_t i = open + 1;
    if (i >= ps->nt || is_op(ps, i, ")")) return false;
    if (ps->t[i].kind == GP_PY_NAME && is_op(ps, i + 1, "=")) /* keywords only */
        return is_name(ps, i, "device") && !body_is(ps, i + 2, "cpu");
    if (ps->t[i].kind == GP_PY_STRING) return !body_is(ps, i, "cpu");
    /* a dtype: torch.float32, torch.double, dtype, self.dtype, np.float64 ... */
    size_t j = i;
    while (j + 2 < ps->nt && is_op(ps, j + 1, ".") && ps->t[j + 2].kind == GP_PY_NAME)
        j += 2;
    if (ps->t[j].kind != GP_PY_NAME) return true;
    const char *w = tx(ps, j);
    size_t n = ps->t[j].len;
    if (tok_in(ps, j, dtype_words, DTYPE_WORDS)) return false;
    for (size_t k = 0; k + 5 <= n; k++)
        if (memcmp(w + k, "dtype", 5) == 0) return false;
    return true;
}

/* Where the line moves values to a device (.cuda(), .to(device), device=...) and casts them away
 * from float64 (.float(), .half(), float32, ...), by token. */
#define PY_FLOW_MAX 16
typedef struct py_flow {
    size_t move[PY_FLOW_MAX], cast[PY_FLOW_MAX];
    int nmove, ncast;
} py_flow;

static void line_flow(py_scan *ps, py_flow *f)
{
    f->nmove = f->ncast = 0;
    for (size_t i = 0; i < ps->nt; i++) {
        const gp_py_tok *t = &ps->t[i];
        if (t->kind != GP_PY_NAME) continue;
        bool attr = i > 0 && is_op(ps, i - 1, ".");
        bool call = is_op(ps, i + 1, "(");
        bool move =
            (attr && call && is_name(ps, i, "cuda")) ||
            (attr && call && is_name(ps, i, "to") && to_takes_device(ps, i + 1)) ||
            (is_name(ps, i, "device") && is_op(ps, i + 1, "=") && i > 0 &&
             (is_op(ps, i - 1, "(") || is_op(ps, i - 1, ",")) && !body_is(ps, i + 2, "cpu"));
        bool cast =
            (attr && call &&
             (is_name(ps, i, "float") || is_name(ps, i, "half") || is_name(ps, i, "bfloat16"))) ||
            (attr && (is_name(ps, i, "float32") || is_name(ps, i, "float16") ||
                      (is_name(ps, i, "bfloat16") && !call) || (is_name(ps, i, "half") && !call)));
        if (move && f->nmove < PY_FLOW_MAX) f->move[f->nmove++] = i;
        if (cast && f->ncast < PY_FLOW_MAX) f->cast[f->ncast++] = i;
    }
}

/* Is a value float64 at token `from` moved to a device later on the line with no cast before the
 * move (`torch.from_numpy(a).to(device)[t].float()` moves float64; `.float().to(device)` does
 * not)? */
static bool moved_after(const py_flow *f, size_t from)
{
    for (int m = 0; m < f->nmove; m++) {
        if (f->move[m] <= from) continue;
        bool cast = false;
        for (int c = 0; c < f->ncast; c++)
            cast |= f->cast[c] > from && f->cast[c] < f->move[m];
        if (!cast) return true;
    }
    return false;
}

static bool moved_before(const py_flow *f, size_t at)
{
    return f->nmove > 0 && f->move[0] < at;
}

static bool cast_after(const py_flow *f, size_t from)
{
    for (int c = 0; c < f->ncast; c++)
        if (f->cast[c] > from) return true;
    return false;
}

/* Is the name at token i an argument of a call of its own (`f(a, i)`, not `f(a + i)`)? *callee:
 * the callee's last NAME, or -1 (a subscript, a callee not named). */
static bool arg_of_call(py_scan *ps, size_t i, long *callee)
{
    *callee = -1;
    if (!(i > 0 && (is_op(ps, i - 1, "(") || is_op(ps, i - 1, ",")) &&
          (is_op(ps, i + 1, ")") || is_op(ps, i + 1, ","))))
        return false;
    size_t k = i - 1; /* the call's '(' */
    int depth = 0;
    for (;; k--) {
        if (is_op(ps, k, ")") || is_op(ps, k, "]")) depth++;
        if (is_op(ps, k, "(") || is_op(ps, k, "[")) {
            if (depth == 0) break;
            depth--;
        }
        if (k == 0) return true;
    }
    if (is_op(ps, k, "(")) *callee = callee_last(ps, k);
    return true;
}

/* Does the float64 name at token i itself go to a device on this line: the receiver of
 * .cuda()/.to(device), or the argument of register_buffer/Parameter, or of from_numpy/tensor/
 * as_tensor whose result moves? *carry: the name's value goes on in another tensor
 * (`t = torch.from_numpy(v)`, `w = v * 2`). */
static bool f64_use_reaches(py_scan *ps, size_t i, const py_flow *fl, bool *carry)
{
    *carry = false;
    if (is_op(ps, i + 1, ".") && i + 3 < ps->nt && is_op(ps, i + 3, "(")) {
        if (is_name(ps, i + 2, "cuda")) return true;
        if (is_name(ps, i + 2, "to") && to_takes_device(ps, i + 3)) return true;
        if (is_name(ps, i + 2, "float") || is_name(ps, i + 2, "half")) return false;
    }
    long c;
    if (arg_of_call(ps, i, &c)) {
        if (c < 0) return false;
        if (is_name(ps, (size_t)c, "register_buffer") || is_name(ps, (size_t)c, "Parameter"))
            return true;
        if (is_name(ps, (size_t)c, "from_numpy") || is_name(ps, (size_t)c, "tensor") ||
            is_name(ps, (size_t)c, "as_tensor")) { /* (torch.Tensor(a) makes float32) */
            if (moved_after(fl, i)) return true;
            *carry = !cast_after(fl, i);
        }
        return false;
    }
    /* v * 2, v[idx], v.sqrt(): the value goes on */
    *carry = !cast_after(fl, i);
    return false;
}

/* ---- float64 through a later line and through parameters ---------------------------------- */

static bool text_at(const char *d, size_t i, size_t b, const char *w)
{
    size_t k = strlen(w);
    return i + k <= b && memcmp(d + i, w, k) == 0;
}

/* Does `.to(` at d[i, b) (i just past the '(') take a device: not a dtype, not "cpu"? */
static bool text_to_device(const char *d, size_t i, size_t b)
{
    while (i < b && d[i] == ' ')
        i++;
    if (i >= b || d[i] == ')') return false;
    static const char *const no[] = {"torch.float", "torch.double", "torch.half", "torch.bfloat",
                                     "torch.int",   "torch.long",   "torch.bool", "torch.uint",
                                     "dtype",       "np.",          "numpy.",     "\"cpu\"",
                                     "'cpu'"};
    for (size_t k = 0; k < sizeof no / sizeof no[0]; k++)
        if (text_at(d, i, b, no[k])) return false;
    for (size_t j = i; j < b && d[j] != ')' && d[j] != ','; j++)
        if (text_at(d, j, b, "dtype")) return false;
    return true;
}

/* A move to a device at d[i] (`.cuda(`, `.to(device`, `device=` not "cpu"): its length, or 0. */
static size_t text_move_at(const char *d, size_t i, size_t b)
{
    if (text_at(d, i, b, ".cuda(")) return 6;
    if (text_at(d, i, b, ".to(") && text_to_device(d, i + 4, b)) return 4;
    if (text_at(d, i, b, "device=") && (i == 0 || !gp_py_is_name_char((unsigned char)d[i - 1])) &&
        !text_at(d, i + 7, b, "\"cpu\"") && !text_at(d, i + 7, b, "'cpu'"))
        return 7;
    return 0;
}

/* Is the value made by the code at d[a, b) (one line) on a device: moved there, and not
 * brought back (.cpu(), .numpy(), .item(), .tolist()) after? */
static bool text_on_device(const char *d, size_t a, size_t b)
{
    bool on = false;
    for (size_t i = a; i < b; i++) {
        if (text_move_at(d, i, b)) on = true;
        if (text_at(d, i, b, ".cpu()") || text_at(d, i, b, ".numpy()") ||
            text_at(d, i, b, ".item()") || text_at(d, i, b, ".tolist()"))
            on = false;
    }
    return on;
}

/* Does a float64 value at d[a] reach a device on the line d[a, b) before a cast (`.float()`,
 * `.half()`, float32, `.cpu()`)? */
static bool text_moves_f64(const char *d, size_t a, size_t b)
{
    for (size_t i = a; i < b; i++) {
        if (text_move_at(d, i, b)) return true;
        if (text_at(d, i, b, ".float()") || text_at(d, i, b, ".half()") ||
            text_at(d, i, b, ".bfloat16()") || text_at(d, i, b, "float32") ||
            text_at(d, i, b, "float16") || text_at(d, i, b, ".cpu()") ||
            text_at(d, i, b, ".numpy()"))
            return false;
    }
    return false;
}

/* The end of the physical line at p (its '\n' or n). */
static size_t line_end_at(const char *d, size_t n, size_t p)
{
    const char *e = memchr(d + p, '\n', n - p);
    return e ? (size_t)(e - d) : n;
}

static size_t line_start_at(const char *d, size_t p)
{
    while (p > 0 && d[p - 1] != '\n')
        p--;
    return p;
}

/* `.double()` or `.to(torch.float64)` on a tensor named at tokens [r0, r1] (a name, or
 * self.name): was the name last set, in the same function, to a value on a device
 * (`x = batch.to(device)`, `self.w = torch.randn(3, device=dev)`)? The file's bytes before the
 * line are read again, at most PY_LOOKBACK of them (mapped files too: their pages come back and
 * are released again). */
static size_t last_set_at(py_scan *ps, size_t r0, size_t r1);

static bool f64_recv_on_device(py_scan *ps, size_t r0, size_t r1)
{
    size_t last = last_set_at(ps, r0, r1);
    if (last == (size_t)-1) return false;
    const char *d = ps->s->data;
    size_t n = ps->s->size;
    size_t span = n - last > PY_LOOKBACK ? PY_LOOKBACK : n - last;
    const char *le = memchr(d + last, '\n', span);
    return text_on_device(d, last, le ? (size_t)(le - d) : last + span);
}

/* The name at tokens [r0, r1] (a name, or self.name): where its last assignment in the same
 * function before this line starts its value (after the '='), or -1. The file's bytes before the
 * line are read again, at most PY_LOOKBACK of them (mapped files too: their pages come back and
 * are released again), at most PY_MAX_LOOKBACK times per file. */
static size_t last_set_in(const char *d, size_t from, size_t lim, const char *w, size_t wn,
                          bool self_attr);

static size_t last_set_at_from(py_scan *ps, size_t r0, size_t r1, size_t *from_out)
{
    if (r0 >= ps->nt || ps->nlookback == PY_MAX_LOOKBACK) return (size_t)-1;
    bool self_attr = r1 == r0 + 2 && is_name(ps, r0, "self") && is_op(ps, r0 + 1, ".");
    if (r1 != r0 && !self_attr) return (size_t)-1;
    const char *d = ps->s->data;
    size_t n = ps->s->size;
    const gp_py_tok *nt = &ps->t[r1];
    size_t lim = ps->t[0].line_off, from = 0;
    /* the innermost function's start; for self.name, the outermost one's (its class) */
    for (int k = self_attr ? 0 : ps->nb - 1; self_attr ? k < ps->nb : k >= 0;
         k += self_attr ? 1 : -1)
        if (ps->b[k].kind == BK_DEF) {
            from = ps->b[k].body;
            break;
        }
    if (lim > PY_LOOKBACK && from < lim - PY_LOOKBACK) from = lim - PY_LOOKBACK;
    ps->nlookback++;
    reread_from(ps, from);
    (void)n;
    if (from_out) *from_out = from;
    return last_set_in(d, from, lim, d + nt->off, nt->len, self_attr);
}

static size_t last_set_at(py_scan *ps, size_t r0, size_t r1)
{
    return last_set_at_from(ps, r0, r1, NULL);
}

/* Where the last assignment to the name w (self.w) in d[from, lim) starts its value, or -1. */
static size_t last_set_in(const char *d, size_t from, size_t lim, const char *w, size_t wn,
                          bool self_attr)
{
    size_t last = (size_t)-1;
    for (size_t p = name_find(d, lim, from, lim, w, wn); p < lim;
         p = name_find(d, lim, p + 1, lim, w, wn)) {
        /* at a line's start, after its indentation (and `self.`) */
        size_t q = p;
        if (self_attr) {
            if (q < 5 || memcmp(d + q - 5, "self.", 5) != 0) continue;
            q -= 5;
        }
        while (q > 0 && (d[q - 1] == ' ' || d[q - 1] == '\t'))
            q--;
        if (q > 0 && d[q - 1] != '\n') continue;
        size_t e = p + wn;
        while (e < lim && d[e] == ' ')
            e++;
        if (e < lim && d[e] == ':') { /* an annotation: x: Tensor = ... */
            while (e < lim && d[e] != '=' && d[e] != '\n')
                e++;
        }
        if (e + 1 < lim && d[e] == '=' && d[e + 1] != '=') last = e + 1;
    }
    return last;
}

static bool text_word_at(const char *d, size_t i, size_t b, const char *w)
{
    size_t k = strlen(w);
    return text_at(d, i, b, w) && (i == 0 || !gp_py_is_name_char((unsigned char)d[i - 1])) &&
           (i + k >= b || !gp_py_is_name_char((unsigned char)d[i + k]));
}

/* Is the array made before d[q] cast on the rest of its line (`.astype(...)`, float32)? */
static bool cast_on_line(const char *d, size_t b, size_t q)
{
    size_t e = line_end_at(d, b, q);
    for (size_t i = q; i < e; i++)
        if (text_at(d, i, e, ".astype(") || text_at(d, i, e, "float32") ||
            text_at(d, i, e, "float16"))
            return true;
    return false;
}

/* Does the assignment's value at d[p...] make a numpy array float64 by default
 * (`np.random.randn(n, d)`, `numpy.zeros(shape)`, `np.linspace(0, 1, k)`), with no dtype but
 * float64's in its call and no cast after it on its line (`.astype(np.float32)`)? The call may
 * continue on the next lines, up to 1,024 bytes. */
static bool text_np_default_f64(const char *d, size_t n, size_t p)
{
    static const char *const other[] = {"float32",   "float16",    "bfloat16", "half",  "int",
                                        "int8",      "int16",      "int32",    "int64", "uint8",
                                        "uint16",    "uint32",     "uint64",   "bool",  "bool_",
                                        "complex64", "complex128", "single",   "intc",  "long"};
    size_t b = n - p > 1024 ? p + 1024 : n;
    while (p < b && (d[p] == ' ' || d[p] == '\t'))
        p++;
    if (text_at(d, p, b, "np."))
        p += 3;
    else if (text_at(d, p, b, "numpy."))
        p += 6;
    else
        return false;
    bool rnd = text_at(d, p, b, "random.");
    p += rnd ? 7 : 0;
    if (!rnd && (text_at(d, p, b, "array(") || text_at(d, p, b, "asarray("))) {
        /* np.array([0.5, 1.0]): float64 where a float literal is among the values */
        p += d[p] == 'a' && d[p + 1] == 's' ? 8 : 6;
        if (p >= b || (d[p] != '[' && d[p] != '(')) return false;
        int depth = 0;
        bool flt = false;
        size_t q = p;
        for (; q < b; q++) {
            if (d[q] == '(' || d[q] == '[' || d[q] == '{') depth++;
            if ((d[q] == ')' || d[q] == ']' || d[q] == '}') && --depth == 0) break;
            if (d[q] == '#' || d[q] == '"' || d[q] == '\'') return false; /* not read */
            if (gp_py_is_name_char((unsigned char)d[q]) &&
                (q == p || !gp_py_is_name_char((unsigned char)d[q - 1]))) {
                size_t e = q;
                while (e < b &&
                       (gp_py_is_name_char((unsigned char)d[e]) || d[e] == '.' ||
                        ((d[e] == '-' || d[e] == '+') && (d[e - 1] == 'e' || d[e - 1] == 'E'))))
                    e++;
                if (d[q] >= '0' && d[q] <= '9' && float_literal(d + q, e - q)) flt = true;
                q = e - 1;
            } else if (d[q] == '.' && q + 1 < b && d[q + 1] >= '0' && d[q + 1] <= '9') {
                flt = true; /* .5 */
            }
        }
        if (!flt || q >= b) return false;
        /* then the call's own arguments: a dtype other than float64 clears it */
        depth = 1;
        for (q++; q < b; q++) {
            if (d[q] == '(' || d[q] == '[' || d[q] == '{') depth++;
            if ((d[q] == ')' || d[q] == ']' || d[q] == '}') && --depth == 0) break;
            if (d[q] == '#') return false;
            if (text_word_at(d, q, b, "dtype")) return false;
        }
        return q < b && !cast_on_line(d, b, q);
    }
    if (rnd && (text_at(d, p, b, "RandomState(") || text_at(d, p, b, "default_rng("))) {
        /* np.random.RandomState(seed).randn(...): the generator's method */
        p += 11; /* both names have 11 characters: at their '(' */
        int depth = 0;
        for (; p < b; p++) {
            if (d[p] == '(') depth++;
            if (d[p] == ')' && --depth == 0) break;
        }
        if (p + 1 >= b || d[p + 1] != '.') return false;
        p += 2;
    }
    const char *const *names = rnd ? np_random_f64 : np_makers_f64;
    size_t nn = rnd ? NP_RANDOM_F64 : NP_MAKERS_F64, k = 0;
    for (; k < nn; k++) {
        size_t l = strlen(names[k]);
        if (text_at(d, p, b, names[k]) && p + l < b && d[p + l] == '(') {
            p += l;
            break;
        }
    }
    if (k == nn) return false;
    int depth = 0;
    size_t q = p;
    for (; q < b; q++) {
        if (d[q] == '(' || d[q] == '[' || d[q] == '{') depth++;
        if ((d[q] == ')' || d[q] == ']' || d[q] == '}') && --depth == 0) break;
        if (d[q] == '#') return false; /* a comment inside the call: not read */
        if (depth == 1 && text_word_at(d, q, b, "dtype")) {
            /* dtype=np.float64 keeps it; dtype=dt or dtype=self.dtype: not known */
            size_t v = q + 5;
            while (v < b && (d[v] == ' ' || d[v] == '=' || d[v] == '"' || d[v] == '\''))
                v++;
            size_t last = v;
            while (v < b && (gp_py_is_name_char((unsigned char)d[v]) || d[v] == '.'))
                if (d[v++] == '.') last = v;
            static const char *const f64[] = {"float", "float64", "double", "float_", "f8"};
            bool keeps = false;
            for (size_t w = 0; w < sizeof f64 / sizeof f64[0]; w++)
                keeps |= v - last == strlen(f64[w]) && memcmp(d + last, f64[w], v - last) == 0;
            if (!keeps) return false;
        }
        for (size_t w = 0; w < sizeof other / sizeof other[0]; w++)
            if (text_word_at(d, q, b, other[w])) return false; /* dtype=np.float32, int */
    }
    return q < b && !cast_on_line(d, b, q);
}

/* Is the name at tokens [r0, r1] (a name, or self.name) set, last before this line in the same
 * function, to a numpy array float64 by default? */
static bool np_name_default_f64(py_scan *ps, size_t r0, size_t r1)
{
    size_t from = 0, last = last_set_at_from(ps, r0, r1, &from);
    if (last == (size_t)-1) return false;
    const char *d = ps->s->data;
    size_t n = ps->s->size;
    if (text_np_default_f64(d, n, last)) return true;
    /* x = rng.normal(...), rng set before to np.random.default_rng(...) (or RandomState): read
     * as np.random.default_rng(0).normal(...) */
    size_t g = last;
    while (g < n && (d[g] == ' ' || d[g] == '\t'))
        g++;
    size_t ge = g;
    while (ge < n && gp_py_is_name_char((unsigned char)d[ge]))
        ge++;
    if (ge == g || ge >= n || d[ge] != '.' || (d[g] >= '0' && d[g] <= '9')) return false;
    size_t set = last_set_in(d, from, line_start_at(d, last), d + g, ge - g, false);
    if (set == (size_t)-1) return false;
    while (set < n && (d[set] == ' ' || d[set] == '\t'))
        set++;
    size_t q = set + (text_at(d, set, n, "np.") ? 3 : text_at(d, set, n, "numpy.") ? 6 : 0);
    if (q == set || !text_at(d, q, n, "random.") ||
        !(text_at(d, q + 7, n, "default_rng(") || text_at(d, q + 7, n, "RandomState(")))
        return false;
    char as[1100];
    size_t rest = n - (ge + 1) > 1024 ? 1024 : n - (ge + 1);
    int k = snprintf(as, sizeof as, "np.random.default_rng(0).");
    memcpy(as + k, d + ge + 1, rest);
    return text_np_default_f64(as, (size_t)k + rest, 0);
}

/* The float64 value made at token `at` is a cast of a name (`x.double()`, `x.to(torch.float64)`,
 * `x.type(torch.double)`) that holds a tensor on a device? */
static bool f64_cast_of_device_name(py_scan *ps, size_t at)
{
    size_t r1;
    if (at >= 2 && is_name(ps, at, "double") && is_op(ps, at - 1, "."))
        r1 = at - 2;
    else if (at >= 4 && is_op(ps, at - 1, "(") &&
             (is_name(ps, at - 2, "to") || is_name(ps, at - 2, "type")) && is_op(ps, at - 3, "."))
        r1 = at - 4;
    else if (at >= 6 && is_op(ps, at - 1, "=") && is_name(ps, at - 2, "dtype") &&
             is_op(ps, at - 3, "(") && is_name(ps, at - 4, "to") && is_op(ps, at - 5, "."))
        r1 = at - 6;
    else
        return false;
    if (ps->t[r1].kind != GP_PY_NAME) return false;
    size_t r0 = r1;
    while (r0 >= 2 && is_op(ps, r0 - 1, ".") && ps->t[r0 - 2].kind == GP_PY_NAME)
        r0 -= 2;
    if (r0 > 0 && (is_op(ps, r0 - 1, ".") || is_op(ps, r0 - 1, ")") || is_op(ps, r0 - 1, "]")))
        return false;
    return f64_recv_on_device(ps, r0, r1);
}

/* A float64 name at token i passed to a function named by a plain name (`to_device(betas)`,
 * `prepare(x, arr=betas)`): kept until the file's end, when that function's body is read. */
static void f64_arg_pending(py_scan *ps, size_t i, bool guarded)
{
    if (ps->nf64arg == PY_MAX_PEND || ps->s->size > PY_DEFS_SCAN_MAX) return;
    size_t kw_off = 0, kw_len = 0, k;
    if (i >= 2 && is_op(ps, i - 1, "=") && ps->t[i - 2].kind == GP_PY_NAME &&
        (is_op(ps, i - 3, "(") || is_op(ps, i - 3, ","))) {
        kw_off = ps->t[i - 2].off;
        kw_len = ps->t[i - 2].len;
        k = i - 3;
    } else if (i > 0 && (is_op(ps, i - 1, "(") || is_op(ps, i - 1, ","))) {
        k = i - 1;
    } else {
        return;
    }
    if (!(is_op(ps, i + 1, ")") || is_op(ps, i + 1, ","))) return;
    int index = 0, depth = 0;
    for (;; k--) {
        if (is_op(ps, k, ")") || is_op(ps, k, "]") || is_op(ps, k, "}")) depth++;
        if (is_op(ps, k, "(") || is_op(ps, k, "[") || is_op(ps, k, "{")) {
            if (depth == 0) break;
            depth--;
        }
        if (depth == 0 && is_op(ps, k, ",")) index++;
        if (k == 0) return;
    }
    if (!is_op(ps, k, "(")) return;
    long c = callee_last(ps, k);
    if (c < 0 || (c > 0 && is_op(ps, (size_t)c - 1, "."))) return; /* a plain name only */
    if (is_alias(ps, (size_t)c)) return;                           /* an imported function */
    py_f64arg *a = &ps->f64arg[ps->nf64arg++];
    a->at = (py_pending){ps->t[i].line, ps->t[i].line_off, ps->t[i].off, ps->t[i].len};
    a->callee_off = ps->t[c].off;
    a->callee_len = ps->t[c].len;
    a->kw_off = kw_off;
    a->kw_len = kw_len;
    a->index = kw_len ? -1 : index;
    a->guarded = guarded;
}

/* Does the file's function named d[off, off+len) move the parameter that the argument fills
 * to a device (`torch.from_numpy(arr).to(device)`, `arr.cuda()`, `torch.tensor(arr,
 * device=dev)`, `register_buffer("b", arr)`) before a cast? */
static bool f64_param_moves(py_scan *ps, const py_f64arg *a)
{
    reread_from(ps, 0);
    const char *d = ps->s->data;
    size_t n = ps->s->size;
    const char *w = d + a->callee_off;
    size_t wl = a->callee_len;
    for (size_t p = name_find(d, n, 0, n, w, wl); p < n; p = name_find(d, n, p + 1, n, w, wl)) {
        size_t ls = line_start_at(d, p), q = ls;
        while (q < p && (d[q] == ' ' || d[q] == '\t'))
            q++;
        size_t ind = q - ls;
        if (p < q + 4 || memcmp(d + q, "def", 3) != 0) continue;
        size_t s = q + 3;
        while (s < p && (d[s] == ' ' || d[s] == '\t'))
            s++;
        if (s != p || p + wl >= n || d[p + wl] != '(') continue;
        /* the parameters */
        size_t i = p + wl + 1, pstart = i;
        int depth = 0, idx = 0;
        size_t pn_off = 0, pn_len = 0;
        for (; i < n; i++) {
            char ch = d[i];
            bool end = depth == 0 && (ch == ',' || ch == ')');
            if (end) {
                size_t a0 = pstart;
                while (a0 < i && (d[a0] == ' ' || d[a0] == '\t' || d[a0] == '\n' || d[a0] == '*'))
                    a0++;
                size_t a1 = a0;
                while (a1 < i && gp_py_is_name_char((unsigned char)d[a1]))
                    a1++;
                bool match = a->kw_len ? (a1 - a0 == a->kw_len &&
                                          memcmp(d + a0, d + a->kw_off, a->kw_len) == 0)
                                       : idx == a->index;
                if (match && a1 > a0) {
                    pn_off = a0;
                    pn_len = a1 - a0;
                }
                idx++;
                pstart = i + 1;
                if (ch == ')') break;
            }
            if (ch == '(' || ch == '[' || ch == '{') depth++;
            if (ch == ')' || ch == ']' || ch == '}') depth--;
        }
        if (!pn_len || i >= n) return false;
        /* the body: the lines after the header indented deeper than the def */
        size_t body = line_end_at(d, n, i);
        size_t end = body;
        for (size_t l = body; l < n;) {
            size_t ln = l + 1, le = ln < n ? line_end_at(d, n, ln) : n, k2 = ln;
            while (k2 < le && (d[k2] == ' ' || d[k2] == '\t'))
                k2++;
            if (ln >= n) break;
            if (k2 < le && d[k2] != '#' && k2 - ln <= ind) break;
            end = le;
            l = le;
        }
        const char *pw = d + pn_off;
        for (size_t u = name_find(d, n, body, end, pw, pn_len); u < end;
             u = name_find(d, n, u + 1, end, pw, pn_len)) {
            size_t le = line_end_at(d, n, u), us = line_start_at(d, u);
            if (u > 0 && d[u - 1] == '.') continue;
            /* the parameter itself moved, or the value made from it on its line */
            if (text_moves_f64(d, u + pn_len, le)) {
                /* (a cast made before the parameter on the line: `torch.tensor(x).float()`
                 * is checked after it; a dtype given to the maker casts too) */
                bool cast_kw = false;
                for (size_t k = us; k < le; k++)
                    if (text_at(d, k, le, "dtype=torch.float32") ||
                        text_at(d, k, le, "dtype=torch.float16") ||
                        text_at(d, k, le, "dtype=torch.float)") ||
                        text_at(d, k, le, "dtype=torch.half"))
                        cast_kw = true;
                if (!cast_kw) return true;
            }
            for (size_t k = us; k < u; k++)
                if (text_at(d, k, u, "register_buffer(") || text_at(d, k, u, "Parameter("))
                    return true;
        }
        return false;
    }
    return false;
}

/* Sets name token 0's alias to what the line makes of it: followed as float64, or not. */
static void f64_assign(py_scan *ps, bool f64)
{
    const char *w = tx(ps, 0);
    size_t n = ps->t[0].len;
    int a = alias_find(ps, w, n);
    bool was = a >= 0 && strncmp(ps->al[a].target, F64_MOD, 7) == 0;
    if (f64) {
        add_alias(ps, w, n, any_block(ps, BK_DEF) ? F64_DEF : F64_MOD);
        ps->any_f64 = true;
    } else if (was) {
        char self[48];
        if (n >= sizeof self) return;
        memcpy(self, w, n);
        self[n] = '\0';
        add_alias(ps, w, n, self); /* no longer float64 */
    }
}

/* The first argument of a from_numpy/as_tensor call on the line that is a name (or self.name)
 * set to a numpy array float64 by default: the token of its name, or -1. */
static size_t np64_arg_at(py_scan *ps)
{
    for (size_t i = 1; i + 3 < ps->nt; i++) {
        if (ps->t[i].kind != GP_PY_NAME || (ps->t[i].len != 10 && ps->t[i].len != 9) ||
            !(is_name(ps, i, "from_numpy") || is_name(ps, i, "as_tensor")) ||
            !is_op(ps, i + 1, "("))
            continue;
        size_t r0 = i + 2, r1 = r0;
        if (is_name(ps, r0, "self") && is_op(ps, r0 + 1, ".") && r0 + 2 < ps->nt) r1 = r0 + 2;
        if (ps->t[r1].kind != GP_PY_NAME || !(is_op(ps, r1 + 1, ")") || is_op(ps, r1 + 1, ",")))
            continue;
        if (r1 == r0 && alias_is_f64(ps, r0)) continue; /* followed as float64 already */
        if (np_name_default_f64(ps, r0, r1)) return r1;
    }
    return (size_t)-1;
}

static void dtype_flow(py_scan *ps, bool guarded)
{
    if (ps->f64_default != (size_t)-1) report(ps, GP_R_PY_DTYPE_001, ps->f64_default, guarded);
    size_t np_at = np64_arg_at(ps);
    if (ps->f64_at == (size_t)-1 && !ps->any_f64 && np_at == (size_t)-1)
        return; /* no float64 here, no name to follow */
    bool assign = ps->nt > 2 && ps->t[0].kind == GP_PY_NAME && is_op(ps, 1, "=") && !ps->continued;
    bool has_var = false;
    for (size_t i = assign ? 2 : 0; i < ps->nt && !has_var; i++)
        has_var = alias_is_f64(ps, i);
    if (ps->f64_at == (size_t)-1 && !has_var && np_at == (size_t)-1) {
        if (assign && alias_find(ps, tx(ps, 0), ps->t[0].len) >= 0) f64_assign(ps, false);
        return;
    }
    py_flow fl;
    line_flow(ps, &fl);
    bool carry = false;
    if (ps->f64_at != (size_t)-1 && ps->f64_default == (size_t)-1) {
        /* made float64 before a move without a cast between, or after one (`.cuda().double()`) */
        if (moved_after(&fl, ps->f64_at) || moved_before(&fl, ps->f64_at) ||
            f64_cast_of_device_name(ps, ps->f64_at))
            report(ps, GP_R_PY_DTYPE_001, ps->f64_at, guarded);
        else
            carry = !cast_after(&fl, ps->f64_at);
    }
    if (np_at != (size_t)-1) { /* torch.from_numpy(noise), noise = np.random.randn(n) */
        if (moved_after(&fl, np_at)) {
            report(ps, GP_R_PY_DTYPE_001, np_at, guarded);
            has_var = false;
        } else {
            carry |= !cast_after(&fl, np_at);
        }
    }
    for (size_t i = assign ? 2 : 0; i < ps->nt && has_var; i++) {
        if (!alias_is_f64(ps, i)) continue;
        bool c;
        if (f64_use_reaches(ps, i, &fl, &c)) {
            report(ps, GP_R_PY_DTYPE_001, i, guarded);
            break;
        }
        f64_arg_pending(ps, i, guarded);
        carry |= c;
    }
    if (assign) f64_assign(ps, carry);
}

/* A top-level def or class: the float64 names set inside the function before are forgotten. */
static void f64_forget_locals(py_scan *ps)
{
    for (int a = 0; a < ps->nal; a++)
        if (strcmp(ps->al[a].target, F64_DEF) == 0) {
            char self[48];
            memcpy(self, ps->al[a].name, ps->al[a].len + 1);
            add_alias(ps, self, ps->al[a].len, self);
        }
}

/* Does an if line test a tensor's device (`x.is_cuda`, `x.device.type == "cuda"`)? *neg: the
 * test is negated (`not x.is_cuda`, `!= "cuda"`). */
static bool tests_tensor_device(py_scan *ps, bool *neg)
{
    bool hit = false;
    *neg = false;
    for (size_t i = 1; i < ps->nt; i++) {
        if (is_name(ps, i, "is_cuda") && is_op(ps, i - 1, ".")) {
            hit = true;
            size_t k = i;
            while (k >= 2 && is_op(ps, k - 1, ".") && ps->t[k - 2].kind == GP_PY_NAME)
                k -= 2;
            if (k >= 1 && is_name(ps, k - 1, "not")) *neg = true;
        } else if (is_device_string(ps, i) && ps->t[i].blen == 4) {
            if (is_op(ps, i - 1, "==") || is_op(ps, i + 1, "==")) {
                hit = true;
            } else if (is_op(ps, i - 1, "!=") || is_op(ps, i + 1, "!=")) {
                hit = true;
                *neg = true;
            }
        }
    }
    return hit;
}

/* `if NAME:` on a parameter of the enclosing function whose default is False or None (`def
 * decode(model, x, cg=False):` ... `if cg:`): an opt-in its callers make, so the body is a path of
 * its own, a guard whose else is the default. Read from the def's header text, which the line
 * shortcut (which lexes every `if NAME:` line) sees as scan_line does. */
static bool opt_in_name(py_scan *ps, const char *name, size_t nl, size_t line_at);

static bool opt_in_param(py_scan *ps, size_t line_at)
{
    if (ps->nt != 3 || !is_name(ps, 0, "if") || ps->t[1].kind != GP_PY_NAME || !is_op(ps, 2, ":"))
        return false;
    return opt_in_name(ps, tx(ps, 1), ps->t[1].len, line_at);
}

/* Is `name` a parameter of the innermost function open at line_at whose default is False or
 * None? Read from the text (the line shortcut asks it before lexing the `if name:` line). */
static bool opt_in_name(py_scan *ps, const char *name, size_t nl, size_t line_at)
{
    int def = -1;
    for (int k = ps->nb - 1; k >= 0 && def < 0; k--)
        if (ps->b[k].kind == BK_DEF) def = ps->b[k].def;
    if (def < 0) return false;
    /* from its name (its decorators come before it: `@torch.inference_mode()`) */
    size_t from = ps->defs[def].name_len ? ps->defs[def].name_off : ps->defs[def].start;
    char nm[64];
    if (nl >= sizeof nm || line_at <= from || line_at - from > 65536) return false;
    memcpy(nm, name, nl);
    reread_from(ps, from);
    const char *d = ps->s->data;
    /* the parameter list: from the first '(' after `def` to its ')' */
    size_t q = from;
    while (q < line_at && d[q] != '(')
        q++;
    int depth = 0;
    for (size_t k = q; k < line_at; k++) {
        char c = d[k];
        if (c == '(' || c == '[' || c == '{') depth++;
        if (c == ')' || c == ']' || c == '}') {
            if (--depth == 0) break;
            continue;
        }
        if (c == '#') { /* a comment to its line's end */
            while (k < line_at && d[k] != '\n')
                k++;
            continue;
        }
        if (depth != 1 || k + nl > line_at || memcmp(d + k, nm, nl) != 0 ||
            gp_py_is_name_char((unsigned char)d[k - 1]) ||
            gp_py_is_name_char((unsigned char)d[k + nl]))
            continue;
        size_t b = k; /* the parameter starts its item: after '(' or ',' */
        while (b > q &&
               (d[b - 1] == ' ' || d[b - 1] == '\t' || d[b - 1] == '\n' || d[b - 1] == '\r'))
            b--;
        if (d[b - 1] != '(' && d[b - 1] != ',') continue;
        size_t e = k + nl;
        if (e < line_at && d[e] == ':') /* an annotation: to its '=' */
            while (e < line_at && d[e] != '=' && d[e] != ',' && d[e] != ')')
                e++;
        while (e < line_at && (d[e] == ' ' || d[e] == '\t'))
            e++;
        if (e >= line_at || d[e] != '=' || d[e + 1] == '=') return false;
        e++;
        while (e < line_at && (d[e] == ' ' || d[e] == '\t'))
            e++;
        size_t w = e;
        while (w < line_at && gp_py_is_name_char((unsigned char)d[w]))
            w++;
        return (w - e == 5 && memcmp(d + e, "False", 5) == 0) ||
               (w - e == 4 && memcmp(d + e, "None", 4) == 0);
    }
    return false;
}

/* A `raise` on the non-CUDA side of a test of a tensor's device: in the first branch of a
 * negated test, in an else of one, or right after a test's CUDA branch at its indentation
 * (`if x.is_cuda: return _C.op(x)` then `raise NotImplementedError`). */
static bool raise_is_stub(const py_scan *ps, const py_block *prev)
{
    if (ps->nb > 0) {
        const py_block *b = &ps->b[ps->nb - 1];
        if (b->kind == BK_GUARD && b->tdev && (b->branch == 0) == b->tneg) return true;
    }
    return prev->kind == BK_GUARD && prev->tdev && prev->branch == 0 && !prev->tneg;
}

/* After an `if not CHECK: return` (or an if/elif chain whose `else:` ends in `return`), the
 * rest of the enclosing block runs only where the check held: it is guarded by it, as after an
 * assert. `prev` is the block the line at `indent` closed; the line is no elif/else of it. */
static void early_return_guard(py_scan *ps, const py_block *prev, int indent, size_t at)
{
    /* (`if world_size == 1: return`: the test's failure means the distributed run, `later`) */
    if (prev->kind != BK_GUARD || !prev->ret ||
        !(prev->branch > 0 || prev->negif || (prev->later && !ps->setup_py)) ||
        ps->nb >= PY_MAX_BLOCKS)
        return;
    py_block g = *prev;
    g.indent = indent - 1;
    g.body = at;
    g.chain = g.branch = 0;
    g.ret = g.negif = g.tdev = g.tneg = g.open = g.later = false;
    g.cf = 0;
    g.envdef = -1;
    ps->b[ps->nb++] = g;
}

/* The innermost block holding a line: its last statement so far is a return, or not. */
static void note_return(py_scan *ps, int indent, bool ret, bool raise)
{
    if (ps->nb > 0 && ps->b[ps->nb - 1].indent < indent) {
        py_block *b = &ps->b[ps->nb - 1];
        b->ret = ret;
        b->cf = (uint8_t)(raise ? b->cf | CF_RAISED : b->cf & ~CF_RAISED);
    }
}

static void scan_line(py_scan *ps)
{
    if (ps->nt == 0) return;
    ps->f64_at = ps->f64_default = (size_t)-1;
    if (ps->continued) { /* the rest of an overlong line: same guard as its start */
        scan_tokens(ps, 0, ps->line_guarded);
        dtype_flow(ps, ps->line_guarded);
        return;
    }
    ps->npar = 0;
    int indent = ps->t[0].indent;
    size_t line_at = ps->t[0].off;
    py_block prev = blocks_pop(ps, indent, line_at);
    bool kw_if = is_name(ps, 0, "if"), kw_elif = is_name(ps, 0, "elif"),
         kw_else = is_name(ps, 0, "else"), kw_except = is_name(ps, 0, "except"),
         kw_assert = is_name(ps, 0, "assert");
    if (!kw_elif && !kw_else) {
        early_return_guard(ps, &prev, indent, line_at);
        chain_closed(ps, &prev);
    }
    note_return(ps, indent, is_name(ps, 0, "return"), is_name(ps, 0, "raise"));
    ps->shadow = shadowed(ps);
    bool kw_def = is_name(ps, 0, "def") || is_name(ps, 0, "class") ||
                  (is_name(ps, 0, "async") && is_name(ps, 1, "def"));
    deco_line(ps, is_op(ps, 0, "@"), kw_def, line_at);
    if (is_op(ps, 0, "@") && deco_skips(ps)) {
        int dsig = line_has_guard_signal(ps);
        if (dsig) {
            ps->deco_guard = true;
            ps->deco_device |= dsig == 2;
        }
    }
    bool def_guard = kw_def && ps->deco_guard, def_device = kw_def && ps->deco_device;
    size_t try_first = 0, try_fact = 0;
    if (kw_except && (prev.kind == BK_TRY || prev.kind == BK_EXCEPT)) {
        try_first = prev.try_first;
        try_fact = prev.try_fact;
        if (catches_import_error(ps) && prev.kind == BK_TRY) {
            for (size_t k = prev.try_first; k < ps->r->nf; k++)
                gp_audit_guard_finding(ps->r, k);
            facts_flag(ps->r, prev.try_fact, GP_FACTF_TRY);
        }
    }
    int sig = 0;
    if (kw_if || kw_elif || kw_assert || is_name(ps, 0, "while")) sig = line_has_guard_signal(ps);
    /* an assertion guards the rest of its block only when it tests CUDA or a device: one on a
     * flag (`assert self.has_bias`) is no check of the device */
    if (kw_assert && sig < 2) sig = 0;
    /* setup.py: a switch on the environment is decided by its default (the branch the default
     * build takes is no guard; the other one is) */
    int envdef = -1;
    if (ps->setup_py && (kw_if || kw_elif) && ps->nt > 2 && is_op(ps, ps->nt - 1, ":"))
        envdef = env_default(ps, 1, ps->nt - 1);
    if (envdef >= 0) sig = envdef ? 0 : 1;
    bool optin = sig == 0 && kw_if && !ps->setup_py && opt_in_param(ps, line_at);
    if (optin) sig = 1;
    /* (an opt-in path counts as a device check does: its calls and imports are made only there) */
    bool line_guard = sig > 0, device = sig == 2 || optin;
    uint32_t chain = 0, branch = 0;
    bool open = false, later = false; /* the branch runs where CUDA may be missing; the next ones
                                       * only where it is there */
    uint8_t cf = 0;
    if ((kw_elif || kw_else) && prev.envdef == 1) {
        line_guard = true; /* the branches the default does not take */
    } else if ((kw_elif || kw_else) && prev.envdef == 0) {
        /* after a branch the default does not take: an else is what the default builds */
    } else if ((kw_elif || kw_else) && prev.kind == BK_GUARD) {
        line_guard = true;
        device |= prev.device;
        chain = prev.chain;
        branch = prev.branch + 1;
        if (!ps->setup_py) {
            /* guarded where an earlier test's failure, or its own test, means CUDA */
            py_cond c = kw_elif && sig > 0 ? line_cond(ps) : COND_NONE;
            open = !(prev.later || c.t);
            later = prev.later || c.f;
        }
        cf = (uint8_t)(prev.cf & CF_DIST);
        if ((prev.cf & CF_RAISE) && (prev.branch == 0 || (prev.cf & CF_RAISED))) cf |= CF_RAISE;
        if (kw_else) cf |= CF_ELSE;
    } else if (line_guard && (kw_if || kw_elif)) { /* (an elif after an if that tests nothing) */
        if (kw_if) chain = ++ps->nchains;
        if (optin) {
            /* the body is the opt-in path; an else is the default one */
        } else if (!ps->setup_py) {
            py_cond c = line_cond(ps);
            open = !c.t;
            later = c.f;
            if (c.t && !c.f && line_tests_dist(ps)) cf = CF_DIST;
        }
        cf |= CF_RAISE;
    }
    bool tdev = false, tneg = false;
    if (kw_if && line_guard) {
        tdev = tests_tensor_device(ps, &tneg);
    } else if (kw_else && prev.kind == BK_GUARD) {
        tdev = prev.tdev;
        tneg = prev.tneg;
    }
    if (is_name(ps, 0, "raise") && !ps->setup_py && raise_is_stub(ps, &prev))
        report(ps, GP_R_PY_EXT_003, 0, false);
    if (!line_guard && !kw_if) { /* a conditional expression: x if torch.cuda... else y */
        bool has_if = false, has_else = false;
        for (size_t i = 1; i < ps->nt; i++) {
            if (is_name(ps, i, "if")) has_if = true;
            if (is_name(ps, i, "else")) has_else = true;
        }
        if (has_if && has_else && (sig = line_has_guard_signal(ps)) > 0) {
            line_guard = true;
            device = sig == 2;
        }
    }
    bool main_guard = false;
    if (kw_if && ps->nt >= 4) {
        for (size_t i = 1; i < ps->nt; i++)
            if (body_is(ps, i, "__main__")) main_guard = true;
        if (main_guard) ps->r->has_main_guard = true;
    }
    bool typing = kw_if && ps->nt >= 2 && is_name(ps, 1, "TYPE_CHECKING");
    if (ps->setup_py && ps->nt > 2 && ps->t[0].kind == GP_PY_NAME && is_op(ps, 1, "=") &&
        ps->nswitch < PY_MAX_SWITCH) {
        int v = env_default(ps, 2, ps->nt); /* WITH_CUDA = os.getenv("WITH_CUDA", "1") == "1" */
        if (v >= 0) ps->sw[ps->nswitch++] = (py_switch){ps->t[0].off, ps->t[0].len, v == 1};
    }
    if (line_guard && !(open && body_on_line(ps)) && (device || ps->setup_py)) {
        const gp_py_tok *lt = &ps->t[ps->nt - 1];
        range_add(ps, line_at, lt->off + lt->len, chain, branch);
    }
    int def = -1;
    uint64_t shadow = 0;
    if (kw_def) {
        size_t ni = is_name(ps, 0, "async") ? 2 : 1;
        bool named = ni < ps->nt && ps->t[ni].kind == GP_PY_NAME;
        def = def_open(ps, line_at, named ? ps->t[ni].off : 0, named ? ps->t[ni].len : 0);
        if (named && ps->t[ni].len == 4 && memcmp(tx(ps, ni), "cuda", 4) == 0)
            for (int k = 0; k < ps->nb; k++) /* `def cuda(self...)` in a class: its own method */
                if (ps->b[k].kind == BK_DEF && ps->b[k].def >= 0) {
                    const py_def *cl = &ps->defs[ps->b[k].def];
                    reread_from(ps, cl->name_off); /* (a mapped file may have released it) */
                    if (cl->name_len)
                        gp_audit_fact(ps->r, GP_FACT_CUDA_METHOD, 0, ps->s->data + cl->name_off,
                                      cl->name_len);
                    break;
                }
        if (ps->nal && !is_name(ps, 0, "class")) shadow = param_shadow(ps, ni + 1); /* not bases */
        ps->shadow |= shadow; /* the parameters named in the header are no uses either */
    }
    /* the test itself is part of the check (`if not isinstance(s, torch.cuda.Stream):`); a body
     * on the line of a branch that runs without CUDA (`else: x.cuda()`) is not */
    bool own = line_guard && !(open && body_on_line(ps));
    bool guarded = own || any_block(ps, BK_GUARD);
    bool dev_guarded = (own && device) || any_device_block(ps);
    ps->line_guarded = guarded;
    /* an import on one branch of a switch (`if engine: import tensorrt`) fails only on that
     * path: its rules take it as guarded (an optional backend), its facts do not */
    bool opt_branch = false;
    for (int k = 0; k < ps->nb && !opt_branch; k++)
        opt_branch = ps->b[k].opt;
    if (is_name(ps, 0, "import") || is_name(ps, 0, "from"))
        scan_import(ps, 0, guarded || opt_branch,
                    (dev_guarded ? GP_FACTF_GUARDED : 0) |
                        (any_typing_block(ps) ? GP_FACTF_TYPE : 0));
    else {
        scan_tokens(ps, 0, guarded);
        dtype_flow(ps, guarded);
    }

    /* cuda-or-cpu choice without an mps branch: decided at the end of the file */
    bool cuda_s = false, cpu_s = false;
    for (size_t i = 0; line_guard && i < ps->nt; i++) {
        if (is_device_string(ps, i)) cuda_s = true;
        if (body_is(ps, i, "cpu")) cpu_s = true;
    }
    if (cuda_s && cpu_s && line_guard) pend(ps->dev004, &ps->ndev004, &ps->t[0]);

    /* the block the line opens if it ends with ':' (lex_line pushes it at the line's end, which
     * an overlong line reaches in a later part) */
    py_block nb = {indent, BK_OTHER, 0,     0,     0,     -1,    false, typing, false, 0,    0,
                   0,      -1,       false, false, false, false, false, false,  0,     false};
    if (is_name(ps, 0, "try")) {
        nb.kind = BK_TRY;
        nb.try_first = ps->r->nf;
        nb.try_fact = ps->r->facts.len;
    } else if (kw_except) {
        nb.kind = BK_EXCEPT;
        nb.try_first = try_first;
        nb.try_fact = try_fact;
    } else if (main_guard) {
        nb.kind = BK_MAIN;
    } else if (line_guard && (kw_if || kw_elif || kw_else || is_name(ps, 0, "while"))) {
        nb.kind = BK_GUARD;
        nb.device = device;
        nb.chain = chain;
        nb.branch = branch;
        nb.envdef = (int8_t)envdef;
        nb.tdev = tdev;
        nb.tneg = tneg;
        nb.negif = kw_if && is_name(ps, 1, "not");
        nb.open = open;
        nb.later = later;
        nb.cf = cf;
        /* a body on the guard's own line: `if not dist_ok(): return` */
        for (size_t k = 1; k + 1 < ps->nt; k++)
            if (is_op(ps, k, ":") && is_name(ps, k + 1, "return")) nb.ret = true;
    } else if (line_guard && kw_assert) {
        /* the rest of the enclosing block runs only where the assertion holds */
        nb.indent = indent - 1;
        nb.kind = BK_GUARD;
        nb.device = device;
    } else if (envdef == 1) {
        nb.envdef = 1; /* taken by default: no guard, but its elif/else are */
    } else if (kw_def) {
        nb.kind = BK_DEF;
        nb.def = def;
        nb.shadow = shadow;
        nb.guard = def_guard;
        nb.device = def_device;
    } else if (kw_if || kw_elif || kw_else) {
        nb.opt = true; /* a branch on something else than CUDA: a path of its own */
    }
    ps->line_b = nb;
}

/* Is byte offset p inside code behind a CUDA check? */
static bool in_ranges(const py_scan *ps, size_t p)
{
    for (int i = 0; i < ps->nranges; i++)
        if (p >= ps->ranges[i].a && p < ps->ranges[i].b) return true;
    return false;
}

/* Are two of the uses at p[0, n) on different branches of one if/elif/else chain, with no other
 * check around both? Then the name is used whichever way the switch goes (`if args.distributed:
 * spawn(worker) else: worker()`): the switch does not guard it. */
static bool uses_split(const py_scan *ps, const size_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            for (int a = 0; a < ps->nranges; a++) {
                const py_range *ra = &ps->ranges[a];
                if (!ra->chain || p[i] < ra->a || p[i] >= ra->b) continue;
                for (int b = 0; b < ps->nranges; b++) {
                    const py_range *rb = &ps->ranges[b];
                    if (rb->chain != ra->chain || rb->branch == ra->branch || p[j] < rb->a ||
                        p[j] >= rb->b)
                        continue;
                    bool around = false;
                    for (int c = 0; c < ps->nranges && !around; c++) {
                        const py_range *rc = &ps->ranges[c];
                        around = rc->chain != ra->chain && p[i] >= rc->a && p[i] < rc->b &&
                                 p[j] >= rc->a && p[j] < rc->b;
                    }
                    if (!around) return true;
                }
            }
    return false;
}

/* Does def k hold something a guard would lower: an unguarded finding, an unguarded import? */
static bool def_has_unguarded(const py_scan *ps, const py_def *d)
{
    size_t f1 = d->open ? ps->r->nf : d->f1, x1 = d->open ? ps->r->facts.len : d->x1;
    for (size_t f = d->f0; f < f1 && f < ps->r->nf; f++)
        if (!ps->r->f[f].guarded && ps->r->f[f].severity != GP_SEV_NONE) return true;
    for (size_t at = d->x0; at + 3 <= x1 && at + 3 <= ps->r->facts.len;
         at += 3 + (unsigned char)ps->r->facts.data[at + 2])
        if (ps->r->facts.data[at] == GP_FACT_IMPORT &&
            !(ps->r->facts.data[at + 1] & GP_FACTF_GUARDED))
            return true;
    return false;
}

/* Is the name of def d[0, n) used anywhere but inside itself, and only behind a CUDA check? */
static bool def_guard_only(const py_scan *ps, const py_def *d)
{
    const char *data = ps->s->data;
    size_t n = ps->s->size, hits = 0;
    const char *w = data + d->name_off;
    /* first in the guarded code alone (small): a function never used there is not guard-only */
    bool seen = false;
    for (int i = 0; i < ps->nranges && !seen; i++) {
        size_t a = ps->ranges[i].a, b = ps->ranges[i].b;
        for (size_t p = name_find(data, n, a, b, w, d->name_len); p < b && !seen;
             p = name_find(data, n, p + 1, b, w, d->name_len))
            seen = !(p >= d->start && p < d->end);
    }
    if (!seen) return false;
    size_t uses[PY_MAX_USES];
    for (size_t p = name_find(data, n, 0, n, w, d->name_len); p < n;
         p = name_find(data, n, p + 1, n, w, d->name_len)) {
        if (p >= d->start && p < d->end) continue;
        if (!in_ranges(ps, p)) return false;
        if (hits < PY_MAX_USES) uses[hits] = p;
        hits++;
    }
    return hits > 0 && !uses_split(ps, uses, hits < PY_MAX_USES ? hits : PY_MAX_USES);
}

/* Functions whose every use sits behind a CUDA check (a Triton kernel launched only on CUDA
 * tensors, a helper that imports the CUDA module) have their findings and imports counted as
 * guarded; a function used only from such a function counts too. */
static void guard_only_defs(py_scan *ps)
{
    if (ps->defs_over || ps->ranges_over || ps->s->size > PY_DEFS_SCAN_MAX || !ps->nranges) return;
    for (int k = 0; k < ps->ndefs; k++)
        if (ps->defs[k].open) {
            ps->defs[k].open = false;
            ps->defs[k].end = ps->s->size;
            ps->defs[k].f1 = ps->r->nf;
            ps->defs[k].x1 = ps->r->facts.len;
        }
    bool done[PY_MAX_DEFS] = {false};
    for (int round = 0; round < 4; round++) {
        bool more = false;
        for (int k = 0; k < ps->ndefs; k++) {
            py_def *d = &ps->defs[k];
            if (done[k] || !d->name_len || !def_has_unguarded(ps, d) || !def_guard_only(ps, d))
                continue;
            done[k] = true;
            more = true;
            for (size_t f = d->f0; f < d->f1 && f < ps->r->nf; f++)
                gp_audit_guard_finding(ps->r, f);
            for (size_t at = d->x0; at + 3 <= d->x1 && at + 3 <= ps->r->facts.len;
                 at += 3 + (unsigned char)ps->r->facts.data[at + 2])
                ps->r->facts.data[at + 1] |= GP_FACTF_GUARDED;
            range_add(ps, d->start, d->end, 0, 0);
            if (ps->ranges_over) return;
        }
        if (!more) break;
    }
}

/* Does def d hold an unguarded error or stop-condition finding (what its callers' checks
 * would make conditional)? Others are not followed across files. */
static bool def_has_stop(const py_scan *ps, const py_def *d)
{
    size_t f1 = d->open ? ps->r->nf : d->f1;
    for (size_t f = d->f0; f < f1 && f < ps->r->nf; f++) {
        const gp_audit_finding *x = &ps->r->f[f];
        if (!x->guarded && (x->severity == GP_SEV_ERROR || gp_audit_rule_get(x->rule)->stop))
            return true;
    }
    return false;
}

/* Are the uses of w[0, k) outside [skip_a, skip_b) all behind a CUDA check, and not on two
 * branches of one switch? 1: yes (and there is one); 0: there is none; -1: one is not. */
static int uses_guarded(const py_scan *ps, const char *w, size_t k, size_t skip_a, size_t skip_b)
{
    const char *data = ps->s->data;
    size_t n = ps->s->size, hits = 0;
    size_t uses[PY_MAX_USES];
    for (size_t p = name_find(data, n, 0, n, w, k); p < n; p = name_find(data, n, p + 1, n, w, k)) {
        if (p >= skip_a && p < skip_b) continue;
        if (!in_ranges(ps, p)) return -1;
        if (hits < PY_MAX_USES) uses[hits] = p;
        hits++;
    }
    if (!hits) return 0;
    return uses_split(ps, uses, hits < PY_MAX_USES ? hits : PY_MAX_USES) ? -1 : 1;
}

/* The methods of class k (a top-level class) that hold its unguarded errors or stop findings
 * themselves (`def prepare_distributed(self): ... DDP(...)`): "Class.method:first-last", so
 * that the callers of the method, not of the class, decide (reach.c). Dunder methods and
 * forward run whenever the class is used: they stay with it. */
static void method_facts(py_scan *ps, int k)
{
    const py_def *t = &ps->defs[k];
    const char *data = ps->s->data;
    /* a class: `class` before its name */
    size_t q = t->name_off;
    if (q < 6) return;
    reread_from(ps, q - 6); /* (a mapped file may have released its bytes) */
    while (q > 0 && (data[q - 1] == ' ' || data[q - 1] == '\t'))
        q--;
    if (q < 5 || memcmp(data + q - 5, "class", 5) != 0) return;
    for (int j = k + 1; j < ps->ndefs; j++) {
        const py_def *m = &ps->defs[j];
        if (m->start >= t->end) break;
        if (m->top || !m->name_len || m->name_len > 100) continue;
        bool nested = false; /* directly in the class, not in one of its methods */
        for (int i = k + 1; i < j && !nested; i++)
            nested = ps->defs[i].start <= m->start && m->end <= ps->defs[i].end;
        if (nested || (m->name_len >= 2 && memcmp(data + m->name_off, "__", 2) == 0) ||
            (m->name_len == 7 && memcmp(data + m->name_off, "forward", 7) == 0) ||
            !def_has_stop(ps, m))
            continue;
        uint32_t lo = UINT32_MAX, hi = 0;
        size_t f1 = m->open ? ps->r->nf : m->f1;
        for (size_t f = m->f0; f < f1 && f < ps->r->nf; f++) {
            if (ps->r->f[f].guarded) continue;
            if (ps->r->f[f].line < lo) lo = ps->r->f[f].line;
            if (ps->r->f[f].line > hi) hi = ps->r->f[f].line;
        }
        if (lo > hi) continue;
        char b[300];
        int n = snprintf(b, sizeof b, "%.*s.%.*s:%u-%u", (int)t->name_len, data + t->name_off,
                         (int)m->name_len, data + m->name_off, lo, hi);
        if (n > 0 && (size_t)n < sizeof b && n <= GP_AUDIT_FACT_MAX)
            gp_audit_fact(ps->r, GP_FACT_DEF, GP_FACTF_METHOD, b, (size_t)n);
    }
}

/* The facts the calls between the project's modules are decided with (resolve.c): a name
 * imported from another module and used only behind a CUDA or distributed check, and the
 * top-level functions whose findings are not behind one here and that this file uses only
 * behind one or not at all (so that their callers elsewhere decide). */
static void call_facts(py_scan *ps)
{
    if (ps->r->cell) return;
    if (ps->nranges || ps->ranges_over) ps->r->has_checks = true;
    if (ps->r->guard_out && (ps->ranges_over || ps->s->size > PY_DEFS_SCAN_MAX))
        gp_strbuf_append(ps->r->guard_out, "?\n", 2);
    if (ps->ranges_over || ps->s->size > PY_DEFS_SCAN_MAX) return;
    const char *data = ps->s->data;
    if (ps->nranges)
        for (int i = 0; i < ps->nnamed; i++) {
            const py_named *nm = &ps->named[i];
            /* (first in the guarded code alone, which is small: a name never used there is not
             * used only there) */
            bool seen = false;
            for (int r = 0; r < ps->nranges && !seen; r++)
                seen = name_find(data, ps->s->size, ps->ranges[r].a, ps->ranges[r].b,
                                 data + nm->name_off, nm->name_len) < ps->ranges[r].b;
            if (seen &&
                uses_guarded(ps, data + nm->name_off, nm->name_len, nm->stmt_a, nm->stmt_b) == 1 &&
                nm->fact + 3 <= ps->r->facts.len)
                ps->r->facts.data[nm->fact + 1] |= GP_FACTF_USED_GUARDED;
        }
    /* the checks themselves, for the calls reach.c follows from the entry points */
    for (int i = 0; i < ps->nranges && ps->r->guard_out; i++) {
        char b[80];
        int m = snprintf(b, sizeof b, "%zu-%zu:%u:%u\n", ps->ranges[i].a, ps->ranges[i].b,
                         ps->ranges[i].chain, ps->ranges[i].branch);
        if (m > 0 && (size_t)m < sizeof b) gp_strbuf_append(ps->r->guard_out, b, (size_t)m);
    }
    if (ps->defs_over) return;
    for (int k = 0; k < ps->ndefs; k++) {
        const py_def *d = &ps->defs[k];
        if (!d->top || !d->name_len || d->name_len > 128 || !def_has_stop(ps, d)) continue;
        unsigned own = uses_guarded(ps, data + d->name_off, d->name_len, d->start, d->end) < 0
                           ? GP_FACTF_OWN_PLAIN
                           : 0;
        uint32_t lo = UINT32_MAX, hi = 0;
        size_t f1 = d->open ? ps->r->nf : d->f1;
        for (size_t f = d->f0; f < f1 && f < ps->r->nf; f++) {
            if (ps->r->f[f].guarded) continue;
            if (ps->r->f[f].line < lo) lo = ps->r->f[f].line;
            if (ps->r->f[f].line > hi) hi = ps->r->f[f].line;
        }
        if (lo > hi) continue;
        char b[160];
        int m = snprintf(b, sizeof b, "%.*s:%u-%u", (int)d->name_len, data + d->name_off, lo, hi);
        if (m > 0 && (size_t)m < sizeof b) gp_audit_fact(ps->r, GP_FACT_DEF, own, b, (size_t)m);
        method_facts(ps, k);
    }
}

static void finish(py_scan *ps)
{
    /* the blocks still open end with the file */
    blocks_pop(ps, -2, ps->s->size);
    guard_only_defs(ps);
    call_facts(ps);
    /* setup.py: CUDA sources set to a name that only a build branch uses */
    for (int k = 0; k < ps->nculist; k++) {
        const py_culist *c = &ps->culist[k];
        if (!ps->ranges_over &&
            uses_guarded(ps, ps->s->data + c->name_off, c->name_len, c->stmt_a, c->stmt_b) == 1 &&
            c->finding < ps->r->nf)
            gp_audit_guard_finding(ps->r, c->finding);
    }
    /* float64 names passed to the file's own functions that move them to a device */
    for (int k = 0; k < ps->nf64arg; k++)
        if (f64_param_moves(ps, &ps->f64arg[k]))
            gp_audit_add(ps->r, ps->s, GP_R_PY_DTYPE_001, ps->f64arg[k].guarded,
                         ps->f64arg[k].at.line, ps->f64arg[k].at.line_off, ps->f64arg[k].at.off,
                         ps->f64arg[k].at.len);
    if (!ps->mentions_mps)
        for (int k = 0; k < ps->ndev004; k++)
            gp_audit_add(ps->r, ps->s, GP_R_PY_DEV_004, false, ps->dev004[k].line,
                         ps->dev004[k].line_off, ps->dev004[k].off, ps->dev004[k].len);
    if (!ps->r->has_main_guard)
        for (int k = 0; k < ps->ndl; k++)
            gp_audit_add(ps->r, ps->s, GP_R_PY_DL_001, false, ps->dl[k].line, ps->dl[k].line_off,
                         ps->dl[k].off, ps->dl[k].len);
}

bool gp_audit_python_name_is_cpu_impl(const char *name)
{
    return strstr(name, "cpu") || strstr(name, "fallback") || strstr(name, "reference") ||
           strstr(name, "naive") || strstr(name, "_ref.");
}

/* Lexes one logical line into the token buffer and scans it; false at the end of the input. */
static bool lex_line(py_scan *ps, gp_py_lexer *lx)
{
    for (;;) {
        gp_py_tok *t = &ps->t[ps->nt];
        gp_py_lexer_next(lx, t);
        if (t->kind == GP_PY_END) return false;
        if (t->kind == GP_PY_NEWLINE) {
            scan_line(ps);
            bool colon = ps->nt > 0 ? is_op(ps, ps->nt - 1, ":") : ps->continued && ps->part_colon;
            /* a guard with its body on the same line (`if cuda_ok: x = 1`) still guards the
             * `elif`/`else` below it: its block is kept for the next line to close */
            if ((colon || ps->line_b.kind == BK_GUARD) && ps->nb < PY_MAX_BLOCKS) {
                ps->line_b.body = lx->pos;
                ps->b[ps->nb++] = ps->line_b;
            } else if (ps->line_b.kind == BK_DEF && ps->line_b.def >= 0) {
                def_close(ps, ps->line_b.def, lx->pos); /* a one-line def: its body is its line */
            }
            ps->nt = 0;
            ps->continued = false;
            gp_audit_source_release(ps->s, lx->pos);
            return true;
        }
        if (++ps->nt == PY_MAX_TOKS) {
            scan_line(ps);
            ps->part_colon = is_op(ps, ps->nt - 1, ":");
            ps->nt = 0;
            ps->continued = true;
            gp_audit_source_release(ps->s, lx->pos); /* the part's tokens are done with */
        }
    }
}

/* ---- the line shortcut ----------------------------------------------------------------------
 * Most logical lines of a file can give no finding and change nothing a later line depends on,
 * except the block stack, whose pops only need the line's indentation. scan_sparse skips such
 * lines without making tokens and lexes the rest. A line is lexed when
 *  - a prefilter word is in it (GP_PF_PYTHON): every finding, and every pending one, needs one
 *    on its own line, since a resolved name is made of the line's tokens and its alias's target;
 *  - it names an alias whose target holds a prefilter word (`from torch import cuda as tc`);
 *  - it opens with if, elif, else or while and may test for CUDA (cond_may_guard), or with
 *    elif or else after a guard's block;
 *  - it opens with try, except, async or an import (blocks the rules look at, aliases, the
 *    import rules);
 *  - the skip is unsure of its tokens (gp_py_lexer_skip_line).
 * A skipped line pops the blocks at its indentation or deeper and, when its last token is ':',
 * pushes a block of kind BK_DEF (def, class) or BK_OTHER, as scan_line and lex_line would (an
 * overlong line too: lex_line pushes at the line's end, whatever its parts). Once the rest of
 * the file holds no prefilter word and no hot alias name, and no finding waits for a later line
 * (waits_for_rest), the rest is not walked. The file is scanned
 * in full instead when a PY-DEV-004 finding is pending at the end without an MPS mention in the
 * lexed lines (a skipped line may mention MPS; such findings are rare). */

#define PY_HOT_MAX 8
/* a mapped file is searched this far ahead; a line reaching past it is lexed: nothing is missed */
#define PY_FIND_SPAN ((2u << 20) >> GP_AUDIT_SCALE_DOWN)

typedef struct py_names {
    const char *name[PY_HOT_MAX];
    size_t len[PY_HOT_MAX];
    size_t next[PY_HOT_MAX]; /* names_next: where the name was found (or the limit looked to) */
    bool known[PY_HOT_MAX];
    int n;
    bool overflow; /* more names than slots: every line may name one */
} py_names;

typedef struct py_sparse {
    py_names hot;   /* aliases whose targets hold a prefilter word */
    py_names guard; /* aliases through which a condition may test for CUDA (alias_may_guard) */
} py_sparse;

/* Adds an alias's name; where it was found before (old) is kept: it depends on the name only. */
static void names_add(py_names *ns, const py_names *old, const py_alias *a)
{
    if (ns->n == PY_HOT_MAX) {
        ns->overflow = true;
        return;
    }
    int h = ns->n++;
    ns->name[h] = a->name;
    ns->len[h] = a->len;
    ns->known[h] = false;
    for (int o = 0; o < old->n; o++)
        if (old->name[o] == a->name && old->len[o] == a->len) {
            ns->next[h] = old->next[o];
            ns->known[h] = old->known[o];
        }
}

/* Re-reads the alias table after a lexed line (imports add aliases and retarget old ones). */
static void hot_refresh(py_scan *ps, py_sparse *sp)
{
    py_sparse old = *sp;
    memset(sp, 0, sizeof *sp);
    for (int a = 0; a < ps->nal; a++) {
        if (ps->al[a].hot) names_add(&sp->hot, &old.hot, &ps->al[a]);
        if (ps->al[a].guard) names_add(&sp->guard, &old.guard, &ps->al[a]);
    }
}

/* Does d[first, end) hold one of the names as a whole name? */
static bool names_any(const py_names *ns, const char *d, size_t n, size_t first, size_t end)
{
    if (ns->overflow) return true;
    for (int h = 0; h < ns->n; h++)
        if (name_find(d, n, first, end, ns->name[h], ns->len[h]) < end) return true;
    return false;
}

/* The first place at or after `from` where one of the names stands as a whole name, looking no
 * further than lim (lim when none is found before). Each name's place is kept until a line
 * passes it, so a file is looked through once per name, not once per line. */
static size_t names_next(py_names *ns, const char *d, size_t n, size_t from, size_t lim)
{
    if (ns->overflow) return from;
    size_t best = lim;
    for (int h = 0; h < ns->n; h++) {
        if (!ns->known[h] || ns->next[h] < from) {
            ns->next[h] = name_find(d, n, from, lim, ns->name[h], ns->len[h]);
            ns->known[h] = true;
        }
        if (ns->next[h] < best) best = ns->next[h];
    }
    return best;
}

/* What a line's first token says: KW_LEX for the keywords whose lines are always lexed, KW_COND
 * for if, elif, else and while (lexed when they may guard), KW_DEF for def and class (a block of
 * kind BK_DEF when the line ends with ':'), KW_NONE otherwise. */
enum { KW_NONE, KW_LEX, KW_DEF, KW_COND, KW_ELSE, KW_RAISE };

static int first_keyword(const char *d, size_t first, size_t end)
{
    switch (d[first]) { /* the keywords' first letters */
    case 'i':
    case 'd':
    case 't':
    case 'e':
    case 'f':
    case 'c':
    case 'w':
    case 'a':
    case 'r':
        break;
    default:
        return KW_NONE;
    }
    size_t k = 0; /* no keyword is longer than six bytes */
    while (k < 7 && first + k < end && gp_py_is_name_char((unsigned char)d[first + k]))
        k++;
    const char *w = d + first;
    switch (k) {
    case 2:
        return memcmp(w, "if", 2) == 0 ? KW_COND : KW_NONE;
    case 3:
        return memcmp(w, "def", 3) == 0 ? KW_DEF : memcmp(w, "try", 3) == 0 ? KW_LEX : KW_NONE;
    case 4:
        if (memcmp(w, "elif", 4) == 0 || memcmp(w, "else", 4) == 0) return KW_ELSE;
        return memcmp(w, "from", 4) == 0 ? KW_LEX : KW_NONE;
    case 5:
        if (memcmp(w, "class", 5) == 0) return KW_DEF;
        if (memcmp(w, "while", 5) == 0) return KW_COND;
        if (memcmp(w, "raise", 5) == 0) return KW_RAISE;
        return memcmp(w, "async", 5) == 0 ? KW_LEX : KW_NONE;
    case 6:
        if (memcmp(w, "assert", 6) == 0) return KW_COND; /* it guards the rest of its block */
        return memcmp(w, "except", 6) == 0 || memcmp(w, "import", 6) == 0 ? KW_LEX : KW_NONE;
    default:
        return KW_NONE;
    }
}

/* Is the run of name characters other than '_' at w[0, n) one that line_has_guard_signal, the
 * `__main__` test or the cuda-or-cpu choice of scan_line may look for? A switch part (the run
 * is one part of word_is_switch), or, compared without case, a part of the names the guard
 * tests end with (is_available, is_cuda, is_initialized, device_count, is_nccl_available,
 * is_built), the start of environ or getenv, a device string ("cuda", "cuda:N", "nccl", "mps")
 * or "__main__". Every one of them starts with two letters: guard_starts holds those pairs,
 * taken from the same tables, and turns most runs away before a comparison. */
static const py_word guard_exact[] = {
    PY_WORD("available"), PY_WORD("initialized"), PY_WORD("count"), PY_WORD("built"),
    PY_WORD("nccl"),      PY_WORD("mps"),         PY_WORD("main")};
/* (a name holding local_rank may go on after it: local_ranks, local_rank2) */
static const py_word guard_prefix[] = {PY_WORD("cuda"), PY_WORD("environ"), PY_WORD("getenv"),
                                       PY_WORD("rank")};
static uint32_t guard_starts[26]; /* bit b of [a]: a run may start with letters 'a'+a, 'a'+b */

static void guard_start_add(const char *w)
{
    unsigned a = (unsigned)((w[0] | 0x20) - 'a'), b = (unsigned)((w[1] | 0x20) - 'a');
    if (a < 26 && b < 26) guard_starts[a] |= 1u << b;
}

static void switch_add(const char *w)
{
    unsigned a = (unsigned)((w[0] | 0x20) - 'a');
    if (a < 26) switch_letters |= 1u << a;
    guard_start_add(w);
}

static void guard_tables_build(void)
{
    for (size_t i = 0; gp_audit_cuda_switch_part(i); i++)
        switch_add(gp_audit_cuda_switch_part(i));
    switch_add("CUDA"); /* gp_audit_word_is_cuda_switch: any part that starts with it */
    for (size_t i = 0; i < sizeof switch_parts / sizeof switch_parts[0]; i++)
        switch_add(switch_parts[i].w);
    for (size_t i = 0; i < sizeof guard_exact / sizeof guard_exact[0]; i++)
        guard_start_add(guard_exact[i].w);
    for (size_t i = 0; i < sizeof guard_prefix / sizeof guard_prefix[0]; i++)
        guard_start_add(guard_prefix[i].w);
}

static bool run_may_guard(const char *w, size_t n)
{
    if (n < 3) return false;
    /* a project's own test of a distributed run: *dist*avail*, *dist*initialized* */
    for (size_t i = 0; i + 5 <= n; i++) {
        char c = (char)(w[i] | 0x20);
        if ((c == 'a' && strncasecmp(w + i, "avail", 5) == 0) ||
            (c == 'i' && i + 11 <= n && strncasecmp(w + i, "initialized", 11) == 0))
            return true;
    }
    unsigned a = (unsigned)((w[0] | 0x20) - 'a'), b = (unsigned)((w[1] | 0x20) - 'a');
    if (a >= 26 || b >= 26 || !(guard_starts[a] >> b & 1u)) return false;
    if (word_is_switch(w, n)) return true;
    char low[16];
    size_t m = n < sizeof low ? n : sizeof low;
    for (size_t i = 0; i < m; i++)
        low[i] = (char)((unsigned char)w[i] | 0x20); /* a letter's lower case (others: no match) */
    for (size_t i = 0; i < sizeof guard_prefix / sizeof guard_prefix[0]; i++)
        if (n >= guard_prefix[i].n && memcmp(low, guard_prefix[i].w, guard_prefix[i].n) == 0)
            return true;
    for (size_t i = 0; i < sizeof guard_exact / sizeof guard_exact[0]; i++)
        if (guard_exact[i].n == n && memcmp(low, guard_exact[i].w, n) == 0) return true;
    return false;
}

/* May an if, elif, else or while line test for CUDA or a switch, be the `__main__` guard, or make
 * a cuda-or-cpu choice? Looks at every run of name characters between '_'s in the line's bytes
 * (strings and comments too, which only makes it lex more) and at the guard aliases. */
static bool cond_may_guard(const py_sparse *sp, const char *d, size_t first, size_t end)
{
    gp_once_call(&guard_tables_once, guard_tables_build);
    for (size_t i = first; i < end;) {
        unsigned char c = (unsigned char)d[i];
        if (c == '_' || !gp_py_is_name_char(c)) {
            i++;
            continue;
        }
        size_t st = i;
        while (i < end && d[i] != '_' && gp_py_is_name_char((unsigned char)d[i]))
            i++;
        if (run_may_guard(d + st, i - st)) return true;
    }
    return names_any(&sp->guard, d, end, first, end);
}

/* The kind of the block a line at this indentation closes (the deepest popped at the same
 * indentation, as scan_line reads it), or -1. */
static int closed_kind(const py_scan *ps, int indent)
{
    int kind = -1;
    for (int k = ps->nb - 1; k >= 0 && ps->b[k].indent >= indent; k--)
        if (ps->b[k].indent == indent) kind = ps->b[k].kind;
    return kind;
}

/* Does the line at d[a, b) start with the word w[0, n)? */
static bool line_starts_word(const char *d, size_t a, size_t b, const char *w, size_t n)
{
    return b - a >= n && memcmp(d + a, w, n) == 0 &&
           (b - a == n || !gp_py_is_name_char((unsigned char)d[a + n]));
}

/* May a raise be on the non-CUDA side of a test of a tensor's device (raise_is_stub)? Only
 * while such a test's block is open (the line may close it and come right after it). */
static bool raise_may_stub(const py_scan *ps)
{
    for (int k = 0; k < ps->nb; k++)
        if (ps->b[k].tdev) return true;
    return false;
}

#define PY_NO_WAIT SIZE_MAX

/* name_find(d, n, from, lim, w, k), from what m remembers of the last search of w: the calls come
 * with `from` never decreasing. */
static size_t name_find_memo(gp_find_memo *m, const char *d, size_t n, size_t from, size_t lim,
                             const char *w, size_t k)
{
    size_t start = from;
    if (m->known && from >= m->from && from <= m->at) {
        if (m->at < m->lim) return m->at < lim ? m->at : lim;
        if (lim <= m->lim) return lim;
        /* nothing up to the old limit: a name starting before it is one that ran past it */
        if (m->lim >= k - 1 && m->lim - (k - 1) > from) start = m->lim - (k - 1);
    }
    size_t at = name_find(d, n, start, lim, w, k);
    *m = (gp_find_memo){from, lim, at, true};
    return at;
}

/* Can the lines from `from` on, which hold no prefilter word, change what was found before them
 * or the file's facts? An `except ImportError` after a try body with findings or imports guards
 * them; a chain on a distributed run whose other branches raise makes the file need one; a main
 * guard sets has_main_guard (and drops PY-DL-001); PY-DEV-004 waits for an MPS mention
 * (scan_sparse's own rule: without one in the lexed lines, the file is scanned in full); an import
 * is a fact; a use of a function that holds findings decides whether it is used only behind a CUDA
 * check. Returns PY_NO_WAIT when nothing waits, else the place to walk past before asking again. */
static size_t waits_for_rest(py_scan *ps, size_t from)
{
    if (ps->ndev004 > 0 && !ps->mentions_mps) return from;
    if (ps->deco) return from; /* decorators wait for their def (a fact of the def's findings) */
    if (raise_may_stub(ps)) return from; /* a raise may follow a test of a tensor's device */
    for (int k = 0; k < ps->nb && !ps->r->dist_required; k++)
        if (ps->b[k].cf & CF_DIST) return from; /* its other branches may all raise */
    for (int k = 0; k < ps->nb; k++)
        if (ps->b[k].kind == BK_TRY &&
            (ps->b[k].try_first < ps->r->nf || ps->b[k].try_fact < ps->r->facts.len))
            return from;
    /* a mapped file is walked to its end: the searches below would read all of the rest at
     * once, which its memory bound forbids */
    if (ps->s->mapped) return from;
    const char *d = ps->s->data;
    size_t n = ps->s->size, first = n;
    if (!ps->r->has_main_guard) first = name_find_memo(&ps->main_at, d, n, from, n, "__main__", 8);
    size_t q = name_find_memo(&ps->import_at, d, n, from, n, "import", 6);
    if (q < first) first = q;
    /* a raise may end the other branches of a chain on a distributed run (chain_closed) */
    if (!ps->r->dist_required) {
        q = name_find_memo(&ps->raise_at, d, n, from, first, "raise", 5);
        if (q < first) first = q;
    }
    /* a use of a name imported from the project's own modules: whether a check guards it is a
     * fact (GP_FACTF_USED_GUARDED) */
    for (int k = 0; k < ps->nnamed && first > from; k++) {
        py_named *nm = &ps->named[k];
        q = name_find_memo(&nm->use, d, n, from, first, d + nm->name_off, nm->name_len);
        if (q < first) first = q;
    }
    for (int k = 0; k < ps->ndefs && first > from; k++) {
        py_def *df = &ps->defs[k];
        if (!df->name_len || !def_has_unguarded(ps, df)) continue;
        q = name_find_memo(&df->use, d, n, from, first, d + df->name_off, df->name_len);
        if (q < first) first = q;
    }
    return first < n ? first + 1 : PY_NO_WAIT;
}

/* Is the line d[a, e) `if NAME:` (and a comment at most)? */
static bool if_one_name(const char *d, size_t a, size_t e)
{
    if (e - a < 5 || memcmp(d + a, "if", 2) != 0 || (d[a + 2] != ' ' && d[a + 2] != '\t'))
        return false;
    size_t q = a + 2;
    while (q < e && (d[q] == ' ' || d[q] == '\t'))
        q++;
    size_t w = q;
    while (q < e && gp_py_is_name_char((unsigned char)d[q]))
        q++;
    if (q == w) return false;
    while (q < e && (d[q] == ' ' || d[q] == '\t'))
        q++;
    if (q >= e || d[q] != ':') return false;
    for (q++; q < e && (d[q] == ' ' || d[q] == '\t' || d[q] == '\r');)
        q++;
    return q >= e || d[q] == '#' || d[q] == '\n';
}

/* Scans the file through the line shortcut; false when it has to be scanned in full instead
 * (nothing was kept then). */
static bool scan_sparse(py_scan *ps, gp_py_lexer *lx)
{
    const char *d = ps->s->data;
    size_t n = ps->s->size;
    py_sparse sp;
    memset(&sp, 0, sizeof sp);
    size_t hit = 0; /* the earliest prefilter word at or after the last place looked from (or
                     * the end of the span looked at) */
    bool hit_known = false;
    size_t wait_at = 0; /* waits_for_rest is asked again from here */
    for (;;) {
        gp_py_lexer saved = *lx;
        size_t nsup = ps->r->nsup; /* a lexed line notes its comments again */
        gp_py_line ln;
        gp_py_skip k = gp_py_lexer_skip_line(lx, &ln);
        if (k == GP_PY_SKIP_EOF) return ps->ndev004 == 0 || ps->mentions_mps;
        int kw = KW_LEX;
        if (k == GP_PY_SKIP_LINE) {
            /* a mapped file is searched 2 MB at a time */
            size_t lim = ps->s->mapped && n - ln.first > PY_FIND_SPAN ? ln.first + PY_FIND_SPAN : n;
            if (!hit_known || hit < ln.first) {
                hit = gp_audit_prefilter_find_before(GP_PF_PYTHON, d, n, ln.first, lim);
                hit_known = true;
            }
            if (hit == n && ln.first >= wait_at && names_next(&sp.hot, d, n, ln.first, n) == n) {
                wait_at = waits_for_rest(ps, ln.first);
                if (wait_at == PY_NO_WAIT)
                    return true; /* the rest can give no finding and nothing found depends on it */
            }
            /* (a line longer than the span is lexed: the tests below read all of it at once) */
            if (hit >= ln.end && ln.end - ln.first <= PY_FIND_SPAN &&
                names_next(&sp.hot, d, n, ln.first, lim) >= ln.end) {
                kw = first_keyword(d, ln.first, ln.end);
                if (kw == KW_ELSE && closed_kind(ps, lx->indent) == BK_GUARD) kw = KW_LEX;
                if ((kw == KW_COND || kw == KW_ELSE) && cond_may_guard(&sp, d, ln.first, ln.end))
                    kw = KW_LEX;
                /* `if flag:` may test an opt-in parameter (opt_in_param) */
                if (kw == KW_COND && if_one_name(d, ln.first, ln.end)) {
                    size_t w = ln.first + 2;
                    while (d[w] == ' ' || d[w] == '\t')
                        w++;
                    size_t e = w;
                    while (gp_py_is_name_char((unsigned char)d[e]))
                        e++;
                    if (opt_in_name(ps, d + w, e - w, ln.first)) kw = KW_LEX;
                    d = ps->s->data; /* (read again from the def: the same mapping) */
                }
                /* `if TYPE_CHECKING:` marks its imports; a parameter may hide a guard alias */
                if (kw == KW_COND &&
                    name_find(d, ln.end, ln.first, ln.end, "TYPE_CHECKING", 13) < ln.end)
                    kw = KW_LEX;
                if (kw == KW_DEF && names_any(&sp.guard, d, ln.end, ln.first, ln.end)) kw = KW_LEX;
                /* a raise where a test of a tensor's device may make it a stub */
                if (kw == KW_RAISE) kw = raise_may_stub(ps) ? KW_LEX : KW_NONE;
                /* a decorator that may skip its function without CUDA */
                if (kw == KW_NONE && d[ln.first] == '@' && cond_may_guard(&sp, d, ln.first, ln.end))
                    kw = KW_LEX;
                /* a conditional expression that may test CUDA (`x = f() if local_rank else
                 * g()`: its line is guarded code), on any line */
                if (kw != KW_LEX &&
                    name_find_memo(&ps->else_at, d, n, ln.first, lim, "else", 4) < ln.end &&
                    name_find(d, ln.end, ln.first, ln.end, "if", 2) < ln.end &&
                    cond_may_guard(&sp, d, ln.first, ln.end))
                    kw = KW_LEX;
            }
        }
        if (kw != KW_LEX) { /* what scan_line does with a line that has nothing for the rules */
            unsigned gen0 = ps->alias_gen; /* a top-level def forgets float64 names */
            int indent = lx->indent;
            if (ps->nb > 0 && ps->b[ps->nb - 1].indent >= indent) {
                py_block prev = blocks_pop(ps, indent, ln.first);
                if (kw != KW_ELSE) {
                    early_return_guard(ps, &prev, indent, ln.first);
                    chain_closed(ps, &prev);
                }
            }
            note_return(ps, indent, line_starts_word(d, ln.first, ln.end, "return", 6),
                        line_starts_word(d, ln.first, ln.end, "raise", 5));
            deco_line(ps, d[ln.first] == '@', kw == KW_DEF, ln.first);
            if (!ln.last_string && d[ln.last] == ':' && ps->nb < PY_MAX_BLOCKS) {
                py_block b = {indent, BK_OTHER, 0,     0,     lx->pos, -1, false,
                              false,  false,    0,     0,     0,       -1, false,
                              false,  false,    false, false, false,   0,  false};
                /* a branch of a switch scan_line would not take for a guard */
                b.opt = (kw == KW_COND || kw == KW_ELSE) &&
                        !line_starts_word(d, ln.first, ln.end, "while", 5);
                if (kw == KW_DEF) {
                    b.kind = BK_DEF;
                    b.guard = ps->deco_guard;
                    b.device = ps->deco_device;
                    size_t q = ln.first;
                    while (q < ln.end && gp_py_is_name_char((unsigned char)d[q]))
                        q++; /* def or class */
                    while (q < ln.end && (d[q] == ' ' || d[q] == '\t'))
                        q++;
                    size_t nm = q;
                    while (q < ln.end && gp_py_is_name_char((unsigned char)d[q]))
                        q++;
                    b.def = def_open(ps, ln.first, nm, q - nm);
                }
                ps->b[ps->nb++] = b;
            } else if (kw == KW_DEF) {
                /* a one-line def (`def f(): return 1`): as lex_line does */
                size_t q = ln.first;
                while (q < ln.end && gp_py_is_name_char((unsigned char)d[q]))
                    q++;
                while (q < ln.end && (d[q] == ' ' || d[q] == '\t'))
                    q++;
                size_t nm = q;
                while (q < ln.end && gp_py_is_name_char((unsigned char)d[q]))
                    q++;
                int k2 = def_open(ps, ln.first, nm, q - nm);
                if (k2 >= 0) def_close(ps, k2, lx->pos);
            }
            gp_audit_source_release(ps->s, lx->pos); /* as lex_line does after a line */
            if (ps->alias_gen != gen0) hot_refresh(ps, &sp);
            continue;
        }
        *lx = saved;
        gp_audit_source_rewind(ps->s, lx->pos); /* a long line's pages are read again */
        ps->r->nsup = nsup;
        unsigned gen = ps->alias_gen;
        if (!lex_line(ps, lx)) return ps->ndev004 == 0 || ps->mentions_mps;
        if (ps->alias_gen != gen) hot_refresh(ps, &sp);
    }
}

void gp_audit_scan_python_how(gp_audit_source *s, gp_audit_result *r, bool setup_py,
                              const char *name, bool shortcut)
{
    py_scan *ps = malloc(sizeof *ps);
    if (!ps) return;
    /* Not for setup.py: every string is read as a requirement there. */
    bool sparse = shortcut && !setup_py;
    size_t nf0 = r->nf, text0 = r->text.len, dropped0 = r->dropped, nsup0 = r->nsup;
    size_t facts0 = r->facts.len;
    bool main0 = r->has_main_guard;
    for (int pass = sparse ? 0 : 1; pass < 2; pass++) {
        memset(ps, 0, offsetof(py_scan, defs));
        ps->s = s;
        ps->r = r;
        ps->setup_py = setup_py;
        gp_py_lexer lx;
        gp_py_lexer_init(&lx, s, r);
        if (pass == 0) {
            if (scan_sparse(ps, &lx)) break;
            s->released = 0; /* start again in full (released pages map in again when read) */
            r->nf = nf0;
            r->nsup = nsup0;
            r->text.len = text0;
            r->dropped = dropped0;
            r->facts.len = facts0;
            r->has_main_guard = main0;
            continue;
        }
        while (lex_line(ps, &lx))
            ;
    }
    finish(ps);
    if (name && gp_audit_python_name_is_cpu_impl(name)) r->cpu_impl = true;
    free(ps);
}

void gp_audit_scan_python(gp_audit_source *s, gp_audit_result *r, bool setup_py, const char *name)
{
    gp_audit_scan_python_how(s, r, setup_py, name, true);
}

/* The prefilter's words (setup.py is always lexed: its strings go through the dependency rules).
 * Every finding above needs one of them in the file's bytes. A resolved name is made of the
 * file's own NAME tokens (an alias's target is copied from its import line, perhaps cut short
 * at its end, never at its start), so every rule below needs a token (or a string body) that
 * starts with its word, whatever the aliases:
 *   PY-DEV-001/002/003/004, PY-AMP-001, numba.cuda, cuda_sources: "cuda"   PY-CUDNN-001 "cuda",
 *   "cudn"    PY-DEV-005 "cuda", "CUDAGraph"   PY-DTYPE-001 "float64", "double"
 *   (a numpy array float64 by default reaches a device only through "from_numpy", "as_tensor")
 *   PY-COMPILE-001 "compile", "_inductor"    PY-DIST-001 "nccl", "NCCL"
 *   PY-DIST-002 "NCCL", "device_id"          PY-MEM-001 "pin_memory"   PY-EXT-001 "CUDAExtension"
 *   PY-DL-001 "num_workers"  PY-TRITON-001 "triton"  PY-IMP-001/002: the names of cuda_only_modules
 *   PY-QUANT-001 "load_in_", "BitsAndBytes", "bitsandbytes"
 *   (no rule) "ImportError": a file that imports the project's own modules in try/except is
 *   lexed, so that its imports' facts say which are optional (resolve.c)
 *   PY-EXT-003: "is_cuda" or a device string ("cuda") on the test before the raise
 *   PY-EXT-002: "cuda" (cuda_sources), or a string body ending in ".cu" or ".cuh". A body ends
 *   right before its closing quote, before the newline that cuts an unterminated one short, or
 *   at the end of the file; an unterminated triple-quoted string at the end of the file ending
 *   in a quote loses its last three bytes. So ".cu" is followed by a quote or a newline, or lies
 *   within the file's last six bytes ('$'). */
static const gp_audit_trigger py_words[] = {
    {"cuda", 0, true},          {"cudn", 0, true},        {"CUDAGraph", 0, true},
    {"CUDAExtension", 0, true}, {"float64", 0, true},     {"double", 0, true},
    {"compile", 0, true},       {"_inductor", 0, true},   {"nccl", 0, true},
    {"NCCL", 0, true},          {"device_id", 0, true},   {"pin_memory", 0, true},
    {"num_workers", 0, true},   {"triton", 0, true},      {".cu'", 0, false},
    {".cu\"", 0, false},        {".cu\n", 0, false},      {".cuh", 0, false},
    {".cu", '$', false},        {"is_cuda", 0, true},     {"load_in_", 0, true},
    {"BitsAndBytes", 0, true},  {"ImportError", 0, true}, {"from_numpy", 0, true},
    {"as_tensor", 0, true},
};

#define PY_TRIGGERS_MAX 128
static gp_audit_trigger py_triggers[PY_TRIGGERS_MAX];
static size_t py_ntriggers;
static gp_once py_triggers_once = GP_ONCE_INIT;

_Static_assert(sizeof py_words / sizeof py_words[0] +
                       sizeof cuda_only_modules / sizeof cuda_only_modules[0] + 1 <=
                   PY_TRIGGERS_MAX,
               "PY_TRIGGERS_MAX too small");

static void py_triggers_build(void)
{
    for (size_t i = 0; i < sizeof py_words / sizeof py_words[0]; i++)
        py_triggers[py_ntriggers++] = py_words[i];
    for (size_t i = 0; i < sizeof cuda_only_modules / sizeof cuda_only_modules[0]; i++)
        py_triggers[py_ntriggers++] = (gp_audit_trigger){cuda_only_modules[i], 0, true};
    py_triggers[py_ntriggers++] = (gp_audit_trigger){"bitsandbytes", 0, true}; /* PY-QUANT-001 */
    /* PY-MPS-001: the last part of each name of its table (its line holds it, or an import does) */
    for (size_t i = 0; gp_audit_mps_trigger(i) && py_ntriggers < PY_TRIGGERS_MAX; i++)
        py_triggers[py_ntriggers++] = (gp_audit_trigger){gp_audit_mps_trigger(i), 0, true};
}

size_t gp_audit_python_triggers(const gp_audit_trigger **out)
{
    gp_once_call(&py_triggers_once, py_triggers_build);
    *out = py_triggers;
    return py_ntriggers;
}
