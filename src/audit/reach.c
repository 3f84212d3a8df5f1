/* reach.c — which of the project's functions its entry points reach, and on which paths. The
 * entry points are the programs (a `__main__` block), the console scripts of setup.py,
 * setup.cfg and pyproject.toml (`name = pkg.cli:main`) and the commands the README and docs
 * run (`python train.py`, `torchrun ... train.py`, `python -m pkg.tool`). From the functions
 * that hold errors or stop-condition findings (the scanner's GP_FACT_DEF facts), the mentions
 * of each name are looked for in its own file, the files that import its module (and those
 * that import a package re-exporting it) and the files the prefilter decided without tokens;
 * a mention inside another top-level function makes that function a caller to follow in turn,
 * one in a `__main__` block or at a module's top level is reached. A mention behind a CUDA or
 * distributed check (found by a full scan of that file) reaches its callee only on that path,
 * unless another mention from the same caller sits on another branch of the same switch (then
 * the call happens whichever way it goes). A function with stop findings reached only behind
 * checks has them counted as guarded (a conditional stop); one no entry point reaches, in a
 * project that has entry points, as guarded and unreached. Bounded: at most R_MAX_NODES
 * functions, R_MAX_ROUNDS levels of calls, R_NODE_EDGES mentions of one function and R_BUDGET
 * bytes read; past that, a function counts as reached. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/lex_python.h"
#include "audit/scanners.h"
#include "audit/state.h"

#define R_MAX_NODES  1024
#define R_MAX_EDGES  (64u * 1024u)
#define R_MAX_ROUNDS 8
#define R_FILE_MAX   (8u << 20)
#define R_DOC_MAX    (1u << 20)
#define R_SIG_WORDS  32         /* a file's names, hashed into 2,048 bits */
#define R_BUDGET     (8u << 20) /* bytes the search of mentions reads, at most */
#define R_NODE_EDGES 256 /* mentions of one function followed; past them it counts as reached */

enum { R_NONE, R_COND, R_ALL };
enum { FROM_NODE, FROM_MAIN, FROM_MODULE, FROM_ENTRY };

typedef struct r_node {
    uint32_t file;
    char *name; /* a function or class; a method is "Class.method" */
    size_t n;
    const char *word; /* the name its callers write (the method's own for a method) */
    size_t wn;
    bool method;
    uint32_t lo, hi; /* a target's findings' lines */
    bool target, searched;
    bool saturated; /* too many mentions to follow: counts as reached */
    uint32_t nedges;
    int reach;
} r_node;

typedef struct r_edge {
    uint32_t callee;
    uint8_t kind;  /* FROM_* */
    uint32_t from; /* the caller node (FROM_NODE) or file (FROM_MODULE, FROM_MAIN) */
    bool guarded, around, split;
    uint32_t chain, branch;
} r_edge;

typedef struct r_range {
    size_t a, b;
    uint32_t chain, branch;
} r_range;

typedef struct r_ctx {
    gp_audit_state *st;
    char *const *dotted;
    r_node *nodes;
    size_t nn;
    r_edge *edges;
    size_t ne, cape;
    bool full;                    /* a table filled up: what is not followed counts as reached */
    uint32_t *imp_off, *imp_list; /* the files importing each file (CSR) */
    bool *main_block, *entry_file;
    uint64_t (*sig)[R_SIG_WORDS]; /* prefiltered Python files: their names' bits */
    bool any_entry;
    uint32_t *pre, *pinit; /* the prefiltered Python files; those of them that are __init__.py */
    size_t npre, npinit;
    size_t preread;      /* bytes the prefiltered files' pass read */
    size_t work, budget; /* bytes read by the search so far, and the most it may read */
    uint8_t *modmemo;    /* module_reach's answers + 1 (0: not asked yet) */
    char *buf;
} r_ctx;

static size_t r_hash(const char *s, size_t n)
{
    size_t h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

static bool is_py(const gp_audit_state *st, size_t f)
{
    return st->files[f].lang == GP_AL_PYTHON || st->files[f].lang == GP_AL_SETUP_PY;
}

static const char *base_of(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

bool gp_audit_gdef_add(gp_audit_state *st, uint32_t file, uint32_t lo, uint32_t hi, bool unreached)
{
    if (st->ngdefs == st->capgdefs) {
        size_t ncap = st->capgdefs ? st->capgdefs * 2 : 8;
        gp_line_span *ns = realloc(st->gdefs, ncap * sizeof *ns);
        if (!ns) return false;
        st->gdefs = ns;
        st->capgdefs = ncap;
    }
    st->gdefs[st->ngdefs++] = (gp_line_span){file, lo, hi, unreached};
    st->files[file].flags |= GP_FF_CALLS_GUARDED;
    return true;
}

/* The node for function name[0, n) of file f (made when new), or -1 when the table is full. */
static long node_get(r_ctx *c, uint32_t f, const char *name, size_t n)
{
    for (size_t i = 0; i < c->nn; i++)
        if (c->nodes[i].file == f && c->nodes[i].n == n && memcmp(c->nodes[i].name, name, n) == 0)
            return (long)i;
    if (c->nn == R_MAX_NODES) {
        c->full = true;
        return -1;
    }
    char *s = malloc(n + 1);
    if (!s) {
        c->full = true;
        return -1;
    }
    memcpy(s, name, n);
    s[n] = '\0';
    const char *dot = memchr(s, '.', n);
    c->nodes[c->nn] = (r_node){f,
                               s,
                               n,
                               dot ? dot + 1 : s,
                               dot ? n - (size_t)(dot + 1 - s) : n,
                               dot != NULL,
                               0,
                               0,
                               false,
                               false,
                               false,
                               0,
                               R_NONE};
    return (long)c->nn++;
}

static void edge_add(r_ctx *c, r_edge e)
{
    if (++c->nodes[e.callee].nedges > R_NODE_EDGES) { /* called from everywhere: reached */
        c->nodes[e.callee].reach = R_ALL;
        c->nodes[e.callee].saturated = true;
        return;
    }
    if (c->ne == c->cape) {
        if (c->cape >= R_MAX_EDGES) {
            c->full = true;
            /* the callee is reached for all we know */
            c->nodes[e.callee].reach = R_ALL;
            return;
        }
        size_t nc = c->cape ? c->cape * 2 : 256;
        r_edge *ne = realloc(c->edges, nc * sizeof *ne);
        if (!ne) {
            c->full = true;
            c->nodes[e.callee].reach = R_ALL;
            return;
        }
        c->edges = ne;
        c->cape = nc;
    }
    c->edges[c->ne++] = e;
}

/* Reads file p (at most cap bytes; *over when it is longer), NUL-terminated, into c->buf. */
static long read_file(r_ctx *c, const char *p, size_t cap, bool *over)
{
    FILE *in = fopen(p, "rb");
    if (!in) return -1;
    size_t got = fread(c->buf, 1, cap, in);
    int extra = fgetc(in);
    fclose(in);
    if (over) *over = extra != EOF;
    c->buf[got] = '\0';
    return (long)got;
}

static bool word_at(const char *d, size_t len, size_t at, size_t n)
{
    bool left = at == 0 || !gp_py_is_name_char((unsigned char)d[at - 1]);
    bool right = at + n >= len || !gp_py_is_name_char((unsigned char)d[at + n]);
    return left && right;
}

static bool has_word(const char *d, size_t len, const char *w, size_t n)
{
    for (const char *q = d; (q = memchr(q, w[0], len - (size_t)(q - d))) != NULL; q++) {
        size_t at = (size_t)(q - d);
        if (at + n > len) return false;
        if (memcmp(q, w, n) == 0 && word_at(d, len, at, n)) return true;
    }
    return false;
}

/* A name's bit in a file's signature: from its length and three of its bytes (cheap: every
 * name of the file is hashed). */
static unsigned sig_bit(const char *w, size_t n)
{
    unsigned h = (unsigned)n * 2654435761u ^ (unsigned char)w[0] * 40503u ^
                 (unsigned char)w[n - 1] * 9973u ^ (unsigned char)w[n / 2] * 331u;
    return (h ^ h >> 15) % (R_SIG_WORDS * 64);
}

/* ---- entry points ------------------------------------------------------------------------- */

/* The Python file whose module name is m[0, n) (or its package's __main__), or -1. */
static long file_of_module(const r_ctx *c, const char *m, size_t n)
{
    for (size_t f = 0; f < c->st->nfiles; f++) {
        const char *d = c->dotted[f];
        if (!d) continue;
        if (strncmp(d, m, n) == 0 && (d[n] == '\0' || strcmp(d + n, ".__main__") == 0))
            return (long)f;
    }
    return -1;
}

/* The Python file a command names as rel[0, n) (a path from the document's folder or from the
 * top): the one whose path ends with it. */
static long file_of_script(const r_ctx *c, const char *rel, size_t n)
{
    while (n > 2 && rel[0] == '.' && rel[1] == '/') {
        rel += 2;
        n -= 2;
    }
    long best = -1;
    for (size_t f = 0; f < c->st->nfiles; f++) {
        if (!c->dotted[f]) continue;
        const char *p = gp_audit_path(c->st, (uint32_t)f);
        size_t pl = strlen(p);
        if (pl < n || memcmp(p + pl - n, rel, n) != 0) continue;
        if (pl > n && p[pl - n - 1] != '/') continue;
        if (best < 0 || strlen(gp_audit_path(c->st, (uint32_t)best)) > pl) best = (long)f;
    }
    return best;
}

/* `name = pkg.mod:func` (setup.py's entry_points strings, setup.cfg, [project.scripts]): the
 * function is an entry point. */
static void console_scripts(r_ctx *c, const char *d, size_t len)
{
    for (size_t i = 1; i + 1 < len; i++) {
        if (d[i] != ':') continue;
        size_t a = i;
        while (a > 0 && (isalnum((unsigned char)d[a - 1]) || d[a - 1] == '_' || d[a - 1] == '.'))
            a--;
        size_t b = i + 1;
        while (b < len && d[b] == ' ')
            b++;
        size_t fs = b;
        while (b < len && (isalnum((unsigned char)d[b]) || d[b] == '_'))
            b++;
        if (a == i || b == fs || !isalpha((unsigned char)d[a]) || d[i - 1] == '.') continue;
        size_t q = a;
        while (q > 0 && (d[q - 1] == ' ' || d[q - 1] == '"' || d[q - 1] == '\''))
            q--;
        if (q == 0 || d[q - 1] != '=') continue;
        long f = file_of_module(c, d + a, i - a);
        if (f < 0) continue;
        long k = node_get(c, (uint32_t)f, d + fs, b - fs);
        if (k < 0) continue;
        c->any_entry = true;
        edge_add(c, (r_edge){(uint32_t)k, FROM_ENTRY, 0, false, false, false, 0, 0});
    }
}

/* A command in a document: on a line that runs Python (`python`, `python3`, `torchrun`,
 * `accelerate launch`, `deepspeed`, `mpirun`), the first `*.py` word is a program, and so is
 * the module after `-m` (not torch's own launchers). */
static void doc_commands(r_ctx *c, const char *d, size_t len)
{
    size_t i = 0;
    while (i < len) {
        size_t e = i;
        while (e < len && d[e] != '\n')
            e++;
        const char *ln = d + i;
        size_t ll = e - i;
        bool runs = false;
        static const char *const runners[] = {"python", "torchrun",   "accelerate", "deepspeed",
                                              "mpirun", "horovodrun", "srun python"};
        for (size_t r = 0; r < sizeof runners / sizeof runners[0] && !runs; r++) {
            size_t rn = strlen(runners[r]);
            for (size_t k = 0; k + rn <= ll && !runs; k++)
                runs = memcmp(ln + k, runners[r], rn) == 0 &&
                       (k == 0 || !isalnum((unsigned char)ln[k - 1]));
        }
        if (runs) {
            bool prev_m = false, found = false;
            for (size_t k = 0; k < ll && !found;) {
                while (k < ll && (ln[k] == ' ' || ln[k] == '\t' || ln[k] == '`' || ln[k] == '$'))
                    k++;
                size_t ws = k;
                while (k < ll && ln[k] != ' ' && ln[k] != '\t' && ln[k] != '`')
                    k++;
                const char *w = ln + ws;
                size_t wn = k - ws;
                while (wn && (w[wn - 1] == '"' || w[wn - 1] == '\'' || w[wn - 1] == ';'))
                    wn--;
                while (wn && (w[0] == '"' || w[0] == '\'')) {
                    w++;
                    wn--;
                }
                if (!wn) continue;
                if (prev_m) {
                    prev_m = false;
                    if (wn > 6 && memcmp(w, "torch.", 6) == 0) continue;
                    long f = file_of_module(c, w, wn);
                    if (f >= 0) {
                        c->entry_file[f] = true;
                        c->any_entry = true;
                    }
                    found = true;
                } else if (wn == 2 && memcmp(w, "-m", 2) == 0) {
                    prev_m = true;
                } else if (wn > 3 && memcmp(w + wn - 3, ".py", 3) == 0 && w[0] != '-') {
                    long f = file_of_script(c, w, wn);
                    if (f >= 0) {
                        c->entry_file[f] = true;
                        c->any_entry = true;
                    }
                    found = true;
                }
            }
        }
        i = e + 1;
    }
}

static void doc_file(r_ctx *c, const char *path)
{
    long n = read_file(c, path, R_DOC_MAX, NULL);
    if (n > 0) doc_commands(c, c->buf, (size_t)n);
}

/* README* at the top of each path argument, and the Markdown and reStructuredText files of its
 * docs/ folder. */
static void doc_entries(r_ctx *c)
{
    const gp_audit_options *o = c->st->o;
    static const char *const dot[] = {"."};
    const char *const *roots = o && o->npaths ? o->paths : dot;
    size_t nroots = o && o->npaths ? o->npaths : 1;
    char p[4096];
    for (size_t r = 0; r < nroots; r++) {
        for (int pass = 0; pass < 2; pass++) {
            int k = snprintf(p, sizeof p, "%s%s", roots[r], pass ? "/docs" : "");
            if (k <= 0 || (size_t)k >= sizeof p) continue;
            DIR *dir = opendir(p);
            if (!dir) continue;
            struct dirent *de;
            while ((de = readdir(dir)) != NULL) {
                const char *nm = de->d_name;
                size_t nl = strlen(nm);
                bool want = pass ? (nl > 3 && (strcmp(nm + nl - 3, ".md") == 0 ||
                                               (nl > 4 && strcmp(nm + nl - 4, ".rst") == 0)))
                                 : strncmp(nm, "README", 6) == 0;
                if (!want) continue;
                char fp[4096];
                int m = snprintf(fp, sizeof fp, "%s/%s", p, nm);
                if (m > 0 && (size_t)m < sizeof fp) doc_file(c, fp);
            }
            closedir(dir);
        }
    }
}

/* ---- the mentions of names in one file ------------------------------------------------------ */

/* The checks of the file in c->buf[0, len): a full scan of it (the shortcut's stretches may
 * be cut differently) gives where the code behind a CUDA or distributed check is; *unknown
 * when they are not all known. */
static size_t file_ranges(r_ctx *c, size_t f, size_t len, r_range *out, size_t cap, bool *unknown)
{
    gp_strbuf gb;
    memset(&gb, 0, sizeof gb);
    gp_audit_result rr;
    gp_audit_result_init(&rr);
    rr.guard_out = &gb;
    gp_audit_source src = {c->buf, len, 0, false};
    gp_audit_scan_python_how(&src, &rr, c->st->files[f].lang == GP_AL_SETUP_PY,
                             base_of(gp_audit_path(c->st, (uint32_t)f)), false);
    gp_audit_result_free(&rr);
    size_t nr = 0;
    *unknown = false;
    for (size_t i = 0; i < gb.len;) {
        const char *ln = gb.data + i, *e = memchr(ln, '\n', gb.len - i);
        size_t ll = e ? (size_t)(e - ln) : gb.len - i;
        char num[80];
        if (ll == 1 && ln[0] == '?') *unknown = true;
        if (ll < sizeof num && nr < cap) {
            memcpy(num, ln, ll);
            num[ll] = '\0';
            size_t a, b;
            unsigned ch, br;
            if (sscanf(num, "%zu-%zu:%u:%u", &a, &b, &ch, &br) == 4)
                out[nr++] = (r_range){a, b, ch, br};
            else if (ll != 1 || ln[0] != '?')
                *unknown = true;
        } else if (nr == cap) {
            *unknown = true;
        }
        i += ll + 1;
    }
    gp_strbuf_free(&gb);
    return nr;
}

/* The wanted nodes' words in a small open-addressing table: slot -> index into want + 1. */
typedef struct r_words {
    uint32_t *slot;
    size_t cap;
} r_words;

static long words_find(const r_ctx *c, const r_words *wt, const uint32_t *want, const char *w,
                       size_t n, size_t from)
{
    for (size_t k = (from == (size_t)-1 ? r_hash(w, n) : from + 1) & (wt->cap - 1); wt->slot[k];
         k = (k + 1) & (wt->cap - 1)) {
        const r_node *nd = &c->nodes[want[wt->slot[k] - 1]];
        if (nd->wn == n && memcmp(nd->word, w, n) == 0) return (long)k;
    }
    return -1;
}

/* Looks for the names of the wanted nodes in file f and records an edge for each mention. */
static void search_file(r_ctx *c, uint32_t f, const uint32_t *want, size_t nw)
{
    gp_audit_state *st = c->st;
    bool over = false;
    long got = read_file(c, gp_audit_path(st, f), R_FILE_MAX, &over);
    if (got > 0) c->work += (size_t)got;
    bool any = false;
    bool *hit = calloc(nw, sizeof *hit);
    r_words wt = {NULL, 16};
    while (wt.cap < nw * 2)
        wt.cap *= 2;
    wt.slot = calloc(wt.cap, sizeof *wt.slot);
    if (!hit || !wt.slot) {
        free(hit);
        free(wt.slot);
        return;
    }
    for (size_t i = 0; i < nw; i++) {
        const r_node *nd = &c->nodes[want[i]];
        size_t k = r_hash(nd->word, nd->wn) & (wt.cap - 1);
        while (wt.slot[k])
            k = (k + 1) & (wt.cap - 1);
        wt.slot[k] = (uint32_t)i + 1;
        if (got < 0) hit[i] = any = true;
    }
    /* one pass over the file's names (a name in a string or comment too: the lexer decides);
     * a name of a length no wanted one has is passed at once */
    uint64_t lens = 0;
    for (size_t i = 0; i < nw; i++)
        lens |= 1ull << (c->nodes[want[i]].wn < 63 ? c->nodes[want[i]].wn : 63);
    for (size_t i = 0; got > 0 && i < (size_t)got;) {
        if (!gp_py_is_name_char((unsigned char)c->buf[i])) {
            i++;
            continue;
        }
        size_t s = i;
        while (i < (size_t)got && gp_py_is_name_char((unsigned char)c->buf[i]))
            i++;
        if (!(lens >> (i - s < 63 ? i - s : 63) & 1u)) continue;
        for (long k = words_find(c, &wt, want, c->buf + s, i - s, (size_t)-1); k >= 0;
             k = words_find(c, &wt, want, c->buf + s, i - s, (size_t)k)) {
            hit[wt.slot[k] - 1] = true;
            any = true;
        }
    }
    if (!any || got < 0 || over) free(wt.slot);
    if (!any) {
        free(hit);
        return;
    }
    if (got < 0 || over) { /* cannot tell where: a mention at the top level */
        for (size_t i = 0; i < nw; i++)
            if (hit[i]) edge_add(c, (r_edge){want[i], FROM_MODULE, f, false, false, false, 0, 0});
        free(hit);
        return;
    }
    r_range rg[256];
    bool unknown = false, ranged = false; /* the checks, read at the first mention */
    size_t nr = 0;
    gp_audit_source src = {c->buf, (size_t)got, 0, false};
    gp_py_lexer lx;
    gp_py_lexer_init(&lx, &src, NULL);
    gp_py_tok t, prev = {0};
    size_t top_off = 0, top_len = 0; /* the top-level def or class the line is in */
    bool in_main = false, skip_line = false, expect_def = false, deco = false, line_if0 = false;
    bool top_deco = false; /* that def has decorators */
    for (;;) {
        gp_py_lexer_next(&lx, &t);
        if (t.kind == GP_PY_END) break;
        if (t.kind == GP_PY_NEWLINE) {
            prev = t;
            continue;
        }
        const char *w = c->buf + t.off;
        if (t.first) {
            skip_line = (t.len == 6 && memcmp(w, "import", 6) == 0) ||
                        (t.len == 4 && memcmp(w, "from", 4) == 0);
            line_if0 = false;
            if (t.indent == 0) {
                bool is_deco = t.len == 1 && w[0] == '@';
                bool is_def = (t.len == 3 && memcmp(w, "def", 3) == 0) ||
                              (t.len == 5 && memcmp(w, "class", 5) == 0) ||
                              (t.len == 5 && memcmp(w, "async", 5) == 0);
                top_len = 0;
                in_main = false;
                if (is_def) {
                    expect_def = true;
                    top_deco = deco;
                }
                deco = is_deco;
                line_if0 = t.len == 2 && memcmp(w, "if", 2) == 0;
            }
        }
        if (line_if0 && t.kind == GP_PY_STRING && t.blen == 8 &&
            memcmp(c->buf + t.body, "__main__", 8) == 0)
            in_main = true;
        if (t.kind != GP_PY_NAME) {
            prev = t;
            continue;
        }
        if (expect_def && !(t.len == 3 && memcmp(w, "def", 3) == 0) &&
            !(t.len == 5 && (memcmp(w, "class", 5) == 0 || memcmp(w, "async", 5) == 0))) {
            expect_def = false;
            top_off = t.off;
            top_len = t.len;
            /* a decorated target: registered where its module is imported */
            for (size_t i = 0; i < nw && top_deco; i++) {
                const r_node *nd = &c->nodes[want[i]];
                if (nd->file == f && !nd->method && nd->n == t.len &&
                    memcmp(nd->name, w, t.len) == 0)
                    edge_add(c, (r_edge){want[i], FROM_MODULE, f, false, false, false, 0, 0});
            }
            prev = t;
            continue;
        }
        if (skip_line || (prev.kind == GP_PY_NAME && prev.len == 3 &&
                          memcmp(c->buf + prev.off, "def", 3) == 0)) {
            prev = t;
            continue;
        }
        for (long ks = words_find(c, &wt, want, w, t.len, (size_t)-1); ks >= 0;
             ks = words_find(c, &wt, want, w, t.len, (size_t)ks)) {
            uint32_t k = want[wt.slot[ks] - 1];
            const r_node *nd = &c->nodes[k];
            /* a method is called as an attribute (obj.method(...), self.method(...)) */
            if (nd->method && !(prev.kind == GP_PY_OP && prev.len == 1 && c->buf[prev.off] == '.'))
                continue;
            const char *cont = c->buf + top_off;
            if (top_len && f == nd->file && !nd->method && top_len == t.len &&
                memcmp(cont, w, t.len) == 0)
                continue; /* inside itself */
            r_edge e = {k, FROM_MODULE, f, false, false, false, 0, 0};
            if (top_len) {
                long g = node_get(c, f, cont, top_len);
                if (g < 0) {
                    c->nodes[k].reach = R_ALL;
                    continue;
                }
                e.kind = FROM_NODE;
                e.from = (uint32_t)g;
            } else if (in_main) {
                e.kind = FROM_MAIN;
            }
            if (!ranged) {
                /* (a tokenized file without checks has none to find; a prefiltered one may
                 * test a distributed switch, which holds no prefilter word) */
                const gp_audit_file *fi = &st->files[f];
                bool may = (fi->flags & GP_FF_CHECKS) ||
                           ((fi->flags & GP_FF_PREFILTERED) &&
                            (strstr(c->buf, "distributed") || strstr(c->buf, "ddp") ||
                             strstr(c->buf, "world") || strstr(c->buf, "rank") ||
                             strstr(c->buf, "_available") || strstr(c->buf, "fsdp")));
                if (may) nr = file_ranges(c, f, (size_t)got, rg, 256, &unknown);
                ranged = true;
            }
            if (!unknown) {
                size_t inner = (size_t)-1, width = (size_t)-1;
                for (size_t r = 0; r < nr; r++)
                    if (t.off >= rg[r].a && t.off < rg[r].b && rg[r].b - rg[r].a < width) {
                        inner = r;
                        width = rg[r].b - rg[r].a;
                    }
                if (inner != (size_t)-1) {
                    e.guarded = true;
                    e.chain = rg[inner].chain;
                    e.branch = rg[inner].branch;
                    for (size_t r = 0; r < nr; r++)
                        if (r != inner && t.off >= rg[r].a && t.off < rg[r].b &&
                            rg[r].chain != rg[inner].chain)
                            e.around = true;
                }
            }
            edge_add(c, e);
        }
        prev = t;
    }
    free(wt.slot);
    free(hit);
}

/* ---- the search, round by round ----------------------------------------------------------- */

typedef struct r_pair {
    uint32_t file, node;
} r_pair;

static int pair_cmp(const void *a, const void *b)
{
    const r_pair *x = a, *y = b;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

/* The files that may call node k: its own, its module's importers (through the packages that
 * re-export it, three levels up), and the prefiltered files holding its name. */
static int candidates(r_ctx *c, uint32_t k, r_pair **pairs, size_t *np, size_t *cap, uint8_t *mark)
{
    const gp_audit_state *st = c->st;
    uint32_t f0 = c->nodes[k].file;
    size_t np0 = *np; /* the pairs of the nodes before this one in the round */
    uint32_t q[64];
    size_t nq = 0, head = 0;
    q[nq++] = f0;
    mark[f0] = 1;
    /* a package that was not tokenized and names it may re-export it (`from .train_utils import
     * setup` in an __init__.py): its importers may use it */
    /* (for a method, its class is what a package re-exports) */
    const r_node *nd = &c->nodes[k];
    unsigned bit0 = nd->method ? sig_bit(nd->name, (size_t)(nd->word - 1 - nd->name))
                               : sig_bit(nd->word, nd->wn);
    for (size_t i = 0; i < c->npinit && nq < 64; i++) {
        uint32_t f = c->pinit[i];
        if (!mark[f] && (c->sig[f][bit0 / 64] >> (bit0 % 64) & 1u)) {
            mark[f] = 1;
            q[nq++] = f;
        }
    }
    while (head < nq) {
        uint32_t f = q[head++];
        for (uint32_t i = c->imp_off[f]; i < c->imp_off[f + 1]; i++) {
            uint32_t g = c->imp_list[i];
            if (mark[g]) continue;
            mark[g] = 1;
            const char *gp = gp_audit_path(st, g);
            if (strcmp(base_of(gp), "__init__.py") == 0 && nq < 64) q[nq++] = g;
            if (*np == *cap) {
                size_t ncap = *cap ? *cap * 2 : 64;
                r_pair *nv = realloc(*pairs, ncap * sizeof *nv);
                if (!nv) return -1;
                *pairs = nv;
                *cap = ncap;
            }
            (*pairs)[(*np)++] = (r_pair){g, k};
        }
    }
    unsigned bit = sig_bit(c->nodes[k].word, c->nodes[k].wn);
    for (size_t i = 0; i < c->npre; i++) {
        uint32_t f = c->pre[i];
        if (mark[f]) continue;
        if (!(c->sig[f][bit / 64] >> (bit % 64) & 1u)) continue;
        if (*np == *cap) {
            size_t ncap = *cap ? *cap * 2 : 64;
            r_pair *nv = realloc(*pairs, ncap * sizeof *nv);
            if (!nv) return -1;
            *pairs = nv;
            *cap = ncap;
        }
        (*pairs)[(*np)++] = (r_pair){(uint32_t)f, k};
    }
    /* its own file */
    if (*np == *cap) {
        size_t ncap = *cap ? *cap * 2 : 64;
        r_pair *nv = realloc(*pairs, ncap * sizeof *nv);
        if (!nv) return -1;
        *pairs = nv;
        *cap = ncap;
    }
    (*pairs)[(*np)++] = (r_pair){f0, k};
    for (size_t i = 0; i < nq; i++)
        mark[q[i]] = 0;
    for (size_t i = np0; i < *np; i++) /* (only this node's: the others' are cleared) */
        mark[(*pairs)[i].file] = 0;
    return 0;
}

/* Is file f's top level run: a program, a documented command, a package, or a module some
 * file imports (a prefiltered file, whose imports are not known, naming its module counts)? */
static int module_reach(r_ctx *c, uint32_t f)
{
    if (c->modmemo[f]) return c->modmemo[f] - 1;
    int v = R_NONE;
    const gp_audit_state *st = c->st;
    if (c->entry_file[f] || c->main_block[f] || c->imp_off[f + 1] > c->imp_off[f] ||
        strcmp(base_of(gp_audit_path(st, f)), "__init__.py") == 0 || !c->dotted[f])
        v = R_ALL;
    if (v == R_NONE) {
        const char *d = c->dotted[f], *last = strrchr(d, '.');
        last = last ? last + 1 : d;
        unsigned bit = sig_bit(last, strlen(last));
        for (size_t i = 0; i < c->npre && v == R_NONE; i++)
            if (c->pre[i] != f && (c->sig[c->pre[i]][bit / 64] >> (bit % 64) & 1u)) v = R_ALL;
    }
    c->modmemo[f] = (uint8_t)(v + 1);
    return v;
}

/* Two mentions from one caller on different branches of one switch (no other check around
 * either): the call happens whichever way the switch goes. */
static int edge_cmp(const void *x, const void *y)
{
    const r_edge *a = x, *b = y;
    if (a->callee != b->callee) return a->callee < b->callee ? -1 : 1;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->from != b->from) return a->from < b->from ? -1 : 1;
    return a->chain < b->chain ? -1 : a->chain > b->chain;
}

static void mark_splits(r_ctx *c)
{
    if (c->ne) qsort(c->edges, c->ne, sizeof *c->edges, edge_cmp);
    for (size_t i = 0; i < c->ne;) {
        size_t j = i; /* one callee, one caller, one chain */
        while (j < c->ne && edge_cmp(&c->edges[i], &c->edges[j]) == 0)
            j++;
        for (size_t a = i; a < j; a++) {
            r_edge *ea = &c->edges[a];
            if (!ea->guarded || ea->around || !ea->chain) continue;
            for (size_t b = i; b < j; b++)
                if (b != a && c->edges[b].guarded && !c->edges[b].around &&
                    c->edges[b].branch != ea->branch)
                    ea->split = c->edges[b].split = true;
        }
        i = j;
    }
}

static void fixpoint(r_ctx *c)
{
    for (size_t round = 0; round <= c->nn + 1; round++) {
        bool changed = false;
        for (size_t i = 0; i < c->ne; i++) {
            const r_edge *e = &c->edges[i];
            int v;
            switch (e->kind) {
            case FROM_NODE:
                v = c->nodes[e->from].reach;
                break;
            case FROM_MODULE:
                v = module_reach(c, e->from);
                break;
            default:
                v = R_ALL;
                break;
            }
            if (e->guarded && !e->split && v > R_COND) v = R_COND;
            if (v > c->nodes[e->callee].reach) {
                c->nodes[e->callee].reach = v;
                changed = true;
            }
        }
        if (!changed) break;
    }
}

/* A prefiltered file's names into its signature, and whether it has a `__main__` block. */
static void prefiltered_pass(r_ctx *c)
{
    gp_audit_state *st = c->st;
    for (size_t f = 0; f < st->nfiles; f++) {
        if (!(st->files[f].flags & GP_FF_PREFILTERED) || !is_py(st, f)) continue;
        long n = read_file(c, gp_audit_path(st, f), R_FILE_MAX, NULL);
        if (n < 0) {
            memset(c->sig[f], 0xff, sizeof c->sig[f]);
            continue;
        }
        const char *d = c->buf;
        for (size_t i = 0; i < (size_t)n;) {
            if (!gp_py_is_name_char((unsigned char)d[i])) {
                i++;
                continue;
            }
            size_t s = i;
            while (i < (size_t)n && gp_py_is_name_char((unsigned char)d[i]))
                i++;
            unsigned b = sig_bit(d + s, i - s);
            c->sig[f][b / 64] |= 1ull << (b % 64);
        }
        if (has_word(d, (size_t)n, "__main__", 8)) c->main_block[f] = true;
        c->preread += (size_t)n;
    }
}

/* Only a distinctive method name is followed (prepare_distributed, not step): a common one is
 * matched by objects of every class. t[0, n): "Class.method:lo-hi". */
static bool method_followed(const char *t, size_t n)
{
    const char *colon = memchr(t, ':', n);
    const char *dot = colon ? memchr(t, '.', (size_t)(colon - t)) : NULL;
    if (!dot) return false;
    size_t mn = (size_t)(colon - dot - 1);
    return mn >= 8 && memchr(dot + 1, '_', mn) != NULL;
}

void gp_audit_reach(gp_audit_state *st, const gp_import_edge *ie, size_t nie, char *const *dotted)
{
    /* the targets first: without one there is nothing to decide */
    size_t ntargets = 0;
    for (size_t f = 0; f < st->nfiles; f++) {
        if (!is_py(st, f) || !st->files[f].nfacts) continue;
        size_t at = 0, n;
        unsigned fl;
        const char *t;
        int k;
        const gp_audit_file *fi = &st->files[f];
        while ((k = gp_audit_fact_next(st->facts.data + fi->facts, fi->nfacts, &at, &fl, &t, &n)) !=
               0)
            if (k == GP_FACT_DEF) ntargets++;
    }
    if (!ntargets) return;
    r_ctx c;
    memset(&c, 0, sizeof c);
    c.st = st;
    c.dotted = dotted;
    c.budget = R_BUDGET;
    size_t nf = st->nfiles;
    c.nodes = calloc(R_MAX_NODES, sizeof *c.nodes);
    c.imp_off = calloc(nf + 1, sizeof *c.imp_off);
    c.imp_list = calloc(nie ? nie : 1, sizeof *c.imp_list);
    c.main_block = calloc(nf ? nf : 1, sizeof *c.main_block);
    c.entry_file = calloc(nf ? nf : 1, sizeof *c.entry_file);
    c.sig = calloc(nf ? nf : 1, sizeof *c.sig);
    c.buf = malloc(R_FILE_MAX + 1);
    c.modmemo = calloc(nf ? nf : 1, 1);
    uint8_t *mark = calloc(nf ? nf : 1, 1);
    r_pair *pairs = NULL;
    size_t np = 0, capp = 0;
    if (!c.nodes || !c.imp_off || !c.imp_list || !c.main_block || !c.entry_file || !c.sig ||
        !c.buf || !c.modmemo || !mark)
        goto out;
    /* importers per file */
    for (size_t i = 0; i < nie; i++)
        c.imp_off[ie[i].to + 1]++;
    for (size_t f = 0; f < nf; f++)
        c.imp_off[f + 1] += c.imp_off[f];
    {
        uint32_t *fill = calloc(nf ? nf : 1, sizeof *fill);
        if (!fill) goto out;
        for (size_t i = 0; i < nie; i++)
            c.imp_list[c.imp_off[ie[i].to] + fill[ie[i].to]++] = ie[i].from;
        free(fill);
    }
    for (size_t f = 0; f < nf; f++)
        if (st->files[f].flags & GP_FF_MAIN_GUARD) c.main_block[f] = true;
    c.pre = calloc(nf ? nf : 1, sizeof *c.pre);
    c.pinit = calloc(nf ? nf : 1, sizeof *c.pinit);
    if (!c.pre || !c.pinit) goto out;
    for (size_t f = 0; f < nf; f++)
        if ((st->files[f].flags & GP_FF_PREFILTERED) && is_py(st, f)) {
            c.pre[c.npre++] = (uint32_t)f;
            if (strcmp(base_of(gp_audit_path(st, (uint32_t)f)), "__init__.py") == 0)
                c.pinit[c.npinit++] = (uint32_t)f;
        }
    prefiltered_pass(&c);
    /* the targets */
    for (size_t f = 0; f < nf; f++) {
        if (!is_py(st, f) || !st->files[f].nfacts) continue;
        size_t at = 0, n;
        unsigned fl;
        const char *t;
        int k;
        const gp_audit_file *fi = &st->files[f];
        while ((k = gp_audit_fact_next(st->facts.data + fi->facts, fi->nfacts, &at, &fl, &t, &n)) !=
               0) {
            if (k != GP_FACT_DEF) continue;
            const char *colon = memchr(t, ':', n);
            if (!colon || colon == t) continue;
            char num[32];
            size_t rest = n - (size_t)(colon + 1 - t);
            if (rest >= sizeof num) continue;
            memcpy(num, colon + 1, rest);
            num[rest] = '\0';
            unsigned lo, hi;
            if (sscanf(num, "%u-%u", &lo, &hi) != 2) continue;
            if ((fl & GP_FACTF_METHOD) && !method_followed(t, n)) continue;
            long g = node_get(&c, (uint32_t)f, t, (size_t)(colon - t));
            if (g < 0) continue;
            c.nodes[g].target = true;
            c.nodes[g].lo = lo;
            c.nodes[g].hi = hi;
        }
    }
    /* entry points besides the programs: console scripts, documented commands */
    for (size_t f = 0; f < nf; f++) {
        const char *b = base_of(gp_audit_path(st, f));
        if (strcmp(b, "setup.py") == 0 || strcmp(b, "setup.cfg") == 0 ||
            strcmp(b, "pyproject.toml") == 0) {
            long n = read_file(&c, gp_audit_path(st, f), R_DOC_MAX, NULL);
            if (n > 0) console_scripts(&c, c.buf, (size_t)n);
        }
    }
    doc_entries(&c);
    for (size_t f = 0; f < nf; f++)
        if (c.main_block[f]) c.any_entry = true;
    /* the rounds: each follows the callers found in the one before */
    for (int round = 0; round < R_MAX_ROUNDS; round++) {
        np = 0;
        for (size_t k = 0; k < c.nn; k++) {
            if (c.nodes[k].searched) continue;
            c.nodes[k].searched = true;
            if (candidates(&c, (uint32_t)k, &pairs, &np, &capp, mark) != 0) goto out;
        }
        if (!np) break;
        if (c.work > c.budget) { /* the rest counts as reached */
            c.full = true;
            for (size_t i = 0; i < np; i++)
                c.nodes[pairs[i].node].reach = R_ALL;
            break;
        }
        qsort(pairs, np, sizeof *pairs, pair_cmp);
        uint32_t *want = malloc(np * sizeof *want);
        if (!want) goto out;
        for (size_t i = 0; i < np;) {
            size_t j = i, nw = 0;
            while (j < np && pairs[j].file == pairs[i].file) {
                if (!nw || want[nw - 1] != pairs[j].node) want[nw++] = pairs[j].node;
                j++;
            }
            if (c.work > c.budget) { /* the rest counts as reached */
                c.full = true;
                for (size_t k = i; k < np; k++)
                    c.nodes[pairs[k].node].reach = R_ALL;
                break;
            }
            search_file(&c, pairs[i].file, want, nw);
            i = j;
        }
        free(want);
    }
    /* what is still unsearched after the last round counts as reached */
    for (size_t k = 0; k < c.nn; k++)
        if (!c.nodes[k].searched) c.nodes[k].reach = R_ALL;
    mark_splits(&c);
    fixpoint(&c);
    for (size_t k = 0; k < c.nn; k++) {
        const r_node *nd = &c.nodes[k];
        if (!nd->target || nd->reach == R_ALL) continue;
        if (nd->reach == R_NONE && (!c.any_entry || c.full)) continue;
        if (!gp_audit_gdef_add(st, nd->file, nd->lo, nd->hi, nd->reach == R_NONE)) break;
    }
out:
    for (size_t k = 0; k < c.nn; k++)
        free(c.nodes[k].name);
    free(c.nodes);
    free(c.edges);
    free(c.imp_off);
    free(c.imp_list);
    free(c.main_block);
    free(c.entry_file);
    free(c.sig);
    free(c.buf);
    free(c.modmemo);
    free(c.pre);
    free(c.pinit);
    free(mark);
    free(pairs);
}
