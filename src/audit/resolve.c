/* resolve.c — the decisions that need every file at once, made after the walk and before any
 * report. From the facts the scanners recorded:
 *  - which CUDA sources the default build leaves out: a folder CMake adds only under a CUDA
 *    option that is off by default (also through a project function such as
 *    ggml_add_backend(CUDA)), sources named only in a CUDA branch of CMake, a Makefile or
 *    setup.py, every CUDA source under a build that compiles CUDA only in such a branch, and
 *    headers included only by such sources. Their findings are notes of an optional component;
 *  - which Python files are imported only behind a CUDA check (their findings are guarded), and
 *    which are programs of their own (a __main__ guard, imported by nothing);
 *  - the components: walk modules, Python packages split at their first sub-packages, optional
 *    parts and programs apart;
 * then every spooled finding is counted as it will be reported, and each component gets its
 * verdict, effort and stop conditions (a stop found only in guarded or optional code is a
 * conditional one: it holds for that path only). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "audit/state.h"
#include "util/match.h"

#define PATH_CAP 4096

/* ---- paths --------------------------------------------------------------------------------- */

static size_t hash_str(const char *s, size_t n)
{
    size_t h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

typedef struct path_index {
    uint32_t *slot; /* file index + 1, 0 empty */
    size_t cap;
} path_index;

static int index_build(const gp_audit_state *st, path_index *ix)
{
    ix->cap = 16;
    while (ix->cap < st->nfiles * 2)
        ix->cap *= 2;
    ix->slot = calloc(ix->cap, sizeof *ix->slot);
    if (!ix->slot) return -1;
    for (size_t i = 0; i < st->nfiles; i++) {
        const char *p = gp_audit_path(st, (uint32_t)i);
        size_t k = hash_str(p, strlen(p)) & (ix->cap - 1);
        while (ix->slot[k])
            k = (k + 1) & (ix->cap - 1);
        ix->slot[k] = (uint32_t)i + 1;
    }
    return 0;
}

static long index_find(const gp_audit_state *st, const path_index *ix, const char *p, size_t n)
{
    size_t k = hash_str(p, n) & (ix->cap - 1);
    while (ix->slot[k]) {
        const char *q = gp_audit_path(st, ix->slot[k] - 1);
        if (strncmp(q, p, n) == 0 && q[n] == '\0') return (long)ix->slot[k] - 1;
        k = (k + 1) & (ix->cap - 1);
    }
    return -1;
}

/* The last '.' in d[0, n), or NULL (memrchr is not everywhere). */
static const char *last_dot(const char *d, size_t n)
{
    while (n > 0)
        if (d[--n] == '.') return d + n;
    return NULL;
}

/* The folder part of a display path ("" for a file at the top). */
static size_t dir_len(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? (size_t)(s - p) : 0;
}

/* dir joined with rel, "." and ".." parts and `${CMAKE_CURRENT_SOURCE_DIR}/`-style prefixes
 * taken out; false when it does not fit or climbs out of the top. */
static bool join_norm(const char *dir, size_t dn, const char *rel, size_t rn, char *out, size_t cap)
{
    static const char *const here[] = {"${CMAKE_CURRENT_SOURCE_DIR}/", "${CMAKE_CURRENT_LIST_DIR}/",
                                       "${PROJECT_SOURCE_DIR}/", "$(CURDIR)/", "./"};
    for (size_t i = 0; i < sizeof here / sizeof here[0]; i++) {
        size_t k = strlen(here[i]);
        if (rn >= k && memcmp(rel, here[i], k) == 0) {
            rel += k;
            rn -= k;
            i = (size_t)-1; /* again: "./" may follow */
        }
    }
    if (rn == 0 || memchr(rel, '$', rn) || rel[0] == '/') return false;
    char buf[PATH_CAP];
    if (dn + rn + 2 >= sizeof buf) return false;
    size_t k = 0;
    if (dn) {
        memcpy(buf, dir, dn);
        k = dn;
        buf[k++] = '/';
    }
    memcpy(buf + k, rel, rn);
    k += rn;
    buf[k] = '\0';
    /* fold the parts (an absolute folder, as the command line gave it, keeps its '/') */
    size_t root = buf[0] == '/' ? 1 : 0, o = root;
    if (root) {
        if (cap < 2) return false;
        out[0] = '/';
    }
    for (size_t i = root; i <= k;) {
        size_t j = i;
        while (j < k && buf[j] != '/')
            j++;
        size_t pl = j - i;
        if (pl == 0 || (pl == 1 && buf[i] == '.')) {
            /* nothing */
        } else if (pl == 2 && buf[i] == '.' && buf[i + 1] == '.') {
            if (o == root) return false;
            while (o > root && out[o - 1] != '/')
                o--;
            if (o > root) o--;
        } else {
            if (o + pl + 2 >= cap) return false;
            if (o > root) out[o++] = '/';
            memcpy(out + o, buf + i, pl);
            o += pl;
        }
        i = j + 1;
    }
    out[o] = '\0';
    return o > root;
}

/* Does a file or folder name have a part (between '-', '_', '.') that names CUDA? */
static bool name_has_cuda(const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        while (i < n && (s[i] == '-' || s[i] == '_' || s[i] == '.'))
            i++;
        size_t st = i;
        while (i < n && s[i] != '-' && s[i] != '_' && s[i] != '.')
            i++;
        size_t k = i - st;
        if (k >= 4 && strncasecmp(s + st, "cuda", 4) == 0) return true;
        if (k == 3 && strncasecmp(s + st, "gpu", 3) == 0) return true;
    }
    return false;
}

/* Is p inside folder d (or d itself)? */
static bool under(const char *p, const char *d, size_t dn)
{
    if (dn == 0) return true;
    return strncmp(p, d, dn) == 0 && (p[dn] == '/' || p[dn] == '\0');
}

static bool ext_is(const char *p, const char *const *exts)
{
    const char *dot = strrchr(p, '.');
    const char *slash = strrchr(p, '/');
    if (!dot || (slash && dot < slash)) return false;
    for (; *exts; exts++)
        if (strcmp(dot + 1, *exts) == 0) return true;
    return false;
}

static const char *const cuda_exts[] = {"cu", "cuh", NULL};
static const char *const c_exts[] = {"c",   "cc",  "cpp", "cxx", "h",   "hh",
                                     "hpp", "hxx", "inl", "cu",  "cuh", NULL};
static const char *const header_exts[] = {"h", "hh", "hpp", "hxx", "inl", "cuh", NULL};

/* ---- the optional CUDA parts ------------------------------------------------------------- */

static bool imports_own(const gp_audit_state *st, const gp_spool_rec *r);

/* The facts of one file, one record at a time. */
typedef struct fact_it {
    const char *p;
    size_t len, at;
} fact_it;

static fact_it facts_of(const gp_audit_state *st, size_t f)
{
    fact_it it = {st->facts.data + st->files[f].facts, st->files[f].nfacts, 0};
    return it;
}

static int fact_next(fact_it *it, unsigned *fl, const char **t, size_t *n)
{
    return gp_audit_fact_next(it->p, it->len, &it->at, fl, t, n);
}

enum {
    GATE_NONE,
    GATE_CMAKE_OPTION,
    GATE_CMAKE_BRANCH,
    GATE_MAKE_BRANCH,
    GATE_SETUP_BRANCH,
    GATE_INCLUDED,
    GATE_SUBPROJECT,
    GATE_CMAKE_BUILD,
    GATE_JIT_FALLBACK,
    GATE_COUNT
};

typedef struct resolve_ctx {
    gp_audit_state *st;
    path_index ix;
    char option[64];  /* a CUDA option of the project that is off by default */
    bool option_main; /* ... the one that names the CUDA backend itself */
    uint32_t *build_guarded, *build_unguarded; /* per file: CUDA build findings */
    uint32_t *import_blockers;                 /* per file: unguarded imports that fail off CUDA */
} resolve_ctx;

/* The CUDA build findings of every build file, guarded and not, and the imports that fail off
 * CUDA (counted while folding; those of the project's own packages are taken out here, by
 * reading again the few files that have such imports). */
static int count_build_findings(resolve_ctx *c)
{
    gp_audit_state *st = c->st;
    size_t nf = st->nfiles ? st->nfiles : 1;
    c->build_guarded = calloc(nf, sizeof *c->build_guarded);
    c->build_unguarded = calloc(nf, sizeof *c->build_unguarded);
    c->import_blockers = calloc(nf, sizeof *c->import_blockers);
    if (!c->build_guarded || !c->build_unguarded || !c->import_blockers) return -1;
    gp_spool_rec r;
    char snip[4096];
    for (size_t f = 0; f < st->nfiles; f++) {
        const gp_audit_file *fi = &st->files[f];
        c->build_guarded[f] = fi->build_guarded;
        c->build_unguarded[f] = fi->build_unguarded;
        if (!fi->blockers) continue;
        if (!st->ntops) {
            c->import_blockers[f] = fi->blockers;
            continue;
        }
        if (fseek(st->spool, fi->spool_at, SEEK_SET) != 0) return -1;
        for (size_t i = 0; i < fi->nrec; i++) {
            if (gp_spool_read(st->spool, &r, snip, sizeof snip) != 0) return -1;
            if ((r.rule == GP_R_PY_IMP_001 || r.rule == GP_R_PY_TRITON_001) && !(r.flags & 1) &&
                r.severity == GP_SEV_ERROR && !imports_own(st, &r))
                c->import_blockers[f]++;
        }
    }
    return 0;
}

static void set_optional(gp_audit_state *st, size_t f, int why)
{
    if (st->files[f].flags & GP_FF_OPTIONAL) return;
    st->files[f].flags |= GP_FF_OPTIONAL;
    st->files[f].gate = (uint8_t)why;
}

static bool is_build_lang(int lang)
{
    return lang == GP_AL_CMAKE || lang == GP_AL_MAKE || lang == GP_AL_SETUP_PY ||
           lang == GP_AL_PYPROJECT;
}

/* Files under folder d[0, dn) that a CMake add_subdirectory names without a condition. */
static bool subdir_unguarded(const gp_audit_state *st, const char *d, size_t dn)
{
    char p[PATH_CAP];
    for (size_t f = 0; f < st->nfiles; f++) {
        if (!is_build_lang(st->files[f].lang) || !st->files[f].nfacts) continue;
        const char *path = gp_audit_path(st, (uint32_t)f);
        size_t n;
        unsigned fl;
        const char *t;
        int k;
        for (fact_it it = facts_of(st, f); (k = fact_next(&it, &fl, &t, &n)) != 0;)
            if (k == GP_FACT_SUBDIR && !(fl & GP_FACTF_GUARDED) &&
                join_norm(path, dir_len(path), t, n, p, sizeof p) && strlen(p) == dn &&
                memcmp(p, d, dn) == 0)
                return true;
    }
    return false;
}

/* Marks every file under folder d[0, dn) optional. */
static void gate_folder(gp_audit_state *st, const char *d, size_t dn, int why)
{
    for (size_t f = 0; f < st->nfiles; f++)
        if (under(gp_audit_path(st, (uint32_t)f), d, dn)) set_optional(st, f, why);
}

/* CMake: folders added only under a CUDA condition, or through a project function that adds
 * backends (ggml_add_backend(CUDA)) while the project's CUDA option is off by default. */
static void gate_cmake_folders(resolve_ctx *c)
{
    gp_audit_state *st = c->st;
    char p[PATH_CAP];
    for (size_t f = 0; f < st->nfiles; f++) {
        if (st->files[f].lang != GP_AL_CMAKE || !st->files[f].nfacts) continue;
        size_t n;
        unsigned fl;
        const char *t;
        int k;
        for (fact_it it = facts_of(st, f); (k = fact_next(&it, &fl, &t, &n)) != 0;)
            if (k == GP_FACT_CUDA_OPTION && n < sizeof c->option) {
                /* the option that names the backend itself (TN_CUDA, not TN_CUDA_GRAPHS) */
                const char *last = t + n;
                while (last > t && last[-1] != '_')
                    last--;
                size_t ln = (size_t)(t + n - last);
                bool main = (ln == 4 && strncasecmp(last, "CUDA", 4) == 0) ||
                            (ln == 6 && strncasecmp(last, "CUBLAS", 6) == 0);
                if (!c->option[0] || (main && !c->option_main)) {
                    memcpy(c->option, t, n);
                    c->option[n] = '\0';
                    c->option_main = main;
                }
            }
    }
    for (size_t f = 0; f < st->nfiles; f++) {
        if (st->files[f].lang != GP_AL_CMAKE || !st->files[f].nfacts) continue;
        const char *path = gp_audit_path(st, (uint32_t)f);
        size_t dn = dir_len(path);
        size_t n;
        unsigned fl;
        const char *t;
        int k;
        for (fact_it it = facts_of(st, f); (k = fact_next(&it, &fl, &t, &n)) != 0;) {
            if (k == GP_FACT_SUBDIR && (fl & GP_FACTF_GUARDED) &&
                join_norm(path, dn, t, n, p, sizeof p) && !subdir_unguarded(st, p, strlen(p)))
                gate_folder(st, p, strlen(p), GATE_CMAKE_OPTION);
            if (k == GP_FACT_CUDA_BACKEND && c->option[0]) {
                /* the folders beside this CMakeLists.txt whose names name CUDA */
                for (size_t g = 0; g < st->nfiles; g++) {
                    const char *q = gp_audit_path(st, (uint32_t)g);
                    if (!under(q, path, dn) || (dn && q[dn] != '/')) continue;
                    const char *sub = q + (dn ? dn + 1 : 0);
                    const char *sl = strchr(sub, '/');
                    if (!sl || !name_has_cuda(sub, (size_t)(sl - sub))) continue;
                    size_t gl = (size_t)(sl - q);
                    if (!subdir_unguarded(st, q, gl)) gate_folder(st, q, gl, GATE_CMAKE_OPTION);
                }
            }
        }
    }
}

/* The innermost build file (not optional) that needs CUDA whatever its options and whose folder
 * holds path p (dir_len dn) — with `above`, only one in p's own folder or above it, as seen
 * from build file `self`'s folder; -1 when none. */
static long requiring_build(const resolve_ctx *c, size_t self, const char *p, size_t dn, bool above)
{
    const gp_audit_state *st = c->st;
    long best = -1;
    size_t best_n = 0;
    for (size_t b2 = 0; b2 < st->nfiles; b2++) {
        if (b2 == self || !is_build_lang(st->files[b2].lang) ||
            (st->files[b2].flags & GP_FF_OPTIONAL) || !c->build_unguarded[b2])
            continue;
        const char *b2path = gp_audit_path(st, (uint32_t)b2);
        size_t d2 = dir_len(b2path);
        if (above ? !under(p, b2path, d2) || d2 > dn : !under(p, b2path, d2)) continue;
        if (best < 0 || d2 >= best_n) {
            best = (long)b2;
            best_n = d2;
        }
    }
    return best;
}

/* Sources a build names only in its CUDA branch; and, under a build that compiles CUDA only in
 * such a branch (and no other build that compiles it always), every CUDA source and every C/C++
 * file in a folder named for CUDA. */
static char *dotted_of(const gp_audit_state *st, size_t f);
static bool is_init(const char *p);
static size_t support_dir(const gp_audit_state *st, const char *p);
static size_t import_target(const char *me, bool pkg, const char *t, size_t n, char *target,
                            size_t cap);

/* The first `cap` bytes of a file, NUL-terminated (their count in *got), or NULL where it cannot be
 * read: what the checks below read of a file's text (one the prefilter passed over has no tokens).
 */
static char *read_head(const char *path, size_t cap, size_t *got)
{
    FILE *in = fopen(path, "rb");
    if (!in) return NULL;
    char *buf = malloc(cap + 1);
    *got = buf ? fread(buf, 1, cap, in) : 0;
    fclose(in);
    if (buf) buf[*got] = '\0';
    return buf;
}

/* Is `t` (an import as written, "." prefixes when relative) of the Python file f, whose dotted
 * name is me, one of the modules setup.py b builds only with CUDA (a CUDAExtension, and no
 * CppExtension of that name)? With guarded_only, only in its CUDA branch. */
static bool names_cuda_ext(const gp_audit_state *st, size_t b, const char *me, bool pkg,
                           const char *t, size_t n, bool guarded_only)
{
    char target[PATH_CAP];
    size_t tl = import_target(me, pkg, t, n, target, sizeof target), en;
    if (!tl) return false;
    unsigned fl;
    const char *e;
    int k;
    bool cuda_only = false;
    for (fact_it it = facts_of(st, b); (k = fact_next(&it, &fl, &e, &en)) != 0;) {
        if (k != GP_FACT_EXT_MODULE || en != tl || memcmp(e, target, tl) != 0) continue;
        if (fl & GP_FACTF_CPU_EXT) return false; /* a CPU build makes it too */
        cuda_only |= !guarded_only || (fl & GP_FACTF_GUARDED);
    }
    return cuda_only;
}

/* A file the prefilter passed over has no facts: its imports at the top level (a line that
 * starts with `import` or `from`, so in no try, if or def) are read from its text. */
static bool text_imports_cuda_ext(const gp_audit_state *st, size_t b, size_t f, const char *me,
                                  bool pkg, bool guarded_only)
{
    size_t got; /* prefiltered files are under 256 KiB (larger ones are lexed) */
    char *buf = read_head(gp_audit_path(st, (uint32_t)f), 256 * 1024, &got);
    if (!buf) return false;
    bool hit = false;
    for (char *line = buf; !hit && line < buf + got;) {
        bool from = strncmp(line, "from ", 5) == 0, imp = strncmp(line, "import ", 7) == 0;
        /* the statement: its line, or up to the ')' of `from X import (a, b,` on later lines;
         * comments blanked */
        char *end = line;
        bool comment = false, open = false;
        for (; end < buf + got && (*end != '\n' || (open && from)); end++) {
            if (*end == '\n') comment = false;
            if (*end == '#') comment = true;
            if (comment || *end == '\n') *end = ' ';
            if (*end == '(') open = true;
            if (*end == ')') open = false;
        }
        *end = '\0';
        if (from || imp) {
            /* words: module names, `as`, `import`, between spaces, commas and parentheses */
            char mod[PATH_CAP] = "", full[PATH_CAP];
            bool names = imp, skip = false;
            for (char *w = line + (imp ? 7 : 5); !hit && *w;) {
                w += strspn(w, " \t,()\\\r");
                size_t wn = strcspn(w, " \t,()\\\r");
                if (!wn) break;
                if (skip) {
                    skip = false;
                } else if (wn == 2 && memcmp(w, "as", 2) == 0) {
                    skip = true; /* the alias */
                } else if (wn == 6 && memcmp(w, "import", 6) == 0) {
                    names = true;
                } else if (!names) {
                    if (wn < sizeof mod) {
                        memcpy(mod, w, wn);
                        mod[wn] = '\0';
                        hit = names_cuda_ext(st, b, me, pkg, mod, wn, guarded_only);
                    }
                } else if (imp) {
                    hit = names_cuda_ext(st, b, me, pkg, w, wn, guarded_only);
                } else {
                    size_t mn = strlen(mod);
                    int fn = snprintf(full, sizeof full, "%s%s%.*s", mod,
                                      mn && mod[mn - 1] == '.' ? "" : ".", (int)wn, w);
                    if (mn && fn > 0 && (size_t)fn < sizeof full)
                        hit = names_cuda_ext(st, b, me, pkg, full, (size_t)fn, guarded_only);
                }
                w += wn;
            }
        }
        line = end + 1;
    }
    free(buf);
    return hit;
}

/* Does the Python file f import, without a fallback, a module that setup.py b builds only with
 * CUDA (guarded_only: only in its CUDA branch)? */
static bool file_imports_cuda_ext(const gp_audit_state *st, size_t b, size_t f, bool guarded_only)
{
    const gp_audit_file *fi = &st->files[f];
    const char *p = gp_audit_path(st, (uint32_t)f);
    if (fi->lang != GP_AL_PYTHON || f == b || support_dir(st, p)) return false;
    char *me = dotted_of(st, f);
    if (!me) return false;
    bool pkg = is_init(p), hit = false;
    if (fi->flags & GP_FF_PREFILTERED) hit = text_imports_cuda_ext(st, b, f, me, pkg, guarded_only);
    size_t n;
    unsigned fl;
    const char *t;
    int k;
    for (fact_it it = facts_of(st, f); !hit && (k = fact_next(&it, &fl, &t, &n)) != 0;)
        hit = k == GP_FACT_IMPORT &&
              !(fl & (GP_FACTF_GUARDED | GP_FACTF_TRY | GP_FACTF_TYPE | GP_FACTF_USED_GUARDED)) &&
              names_cuda_ext(st, b, me, pkg, t, n, guarded_only);
    free(me);
    return hit;
}

/* Does setup.py b build a module with CUDA only (guarded_only: only in its CUDA branch)? */
static bool builds_cuda_ext(const gp_audit_state *st, size_t b, bool guarded_only)
{
    if (st->files[b].lang != GP_AL_SETUP_PY) return false;
    size_t n;
    unsigned fl;
    const char *t;
    int k;
    for (fact_it it = facts_of(st, b); (k = fact_next(&it, &fl, &t, &n)) != 0;)
        if (k == GP_FACT_EXT_MODULE && !(fl & GP_FACTF_CPU_EXT) &&
            (!guarded_only || (fl & GP_FACTF_GUARDED)))
            return true;
    return false;
}

/* Does the project's own Python code (not its examples or tests) import, without a fallback,
 * a module that setup.py `b` builds only in its CUDA branch (`from . import _C` in the package
 * that `CUDAExtension("pkg._C", ...)` builds when CUDA is found)? Then the CUDA sources are no
 * optional part: the package does not import without them. */
static bool guarded_ext_required(const gp_audit_state *st, size_t b)
{
    if (!builds_cuda_ext(st, b, true)) return false;
    for (size_t f = 0; f < st->nfiles; f++)
        if (file_imports_cuda_ext(st, b, f, true)) return true;
    return false;
}

/* Does the Python file at p build its folder's C++/CUDA sources at run time (a JIT load:
 * torch.utils.cpp_extension's load or load_inline, StyleGAN's get_plugin) and test a tensor's
 * device, with no stub for the other device (PY-EXT-003)? Read from its text: a file the prefilter
 * passed over has no tokens. `if x.device.type == "cuda" and _init(): return _plugin.op(x)`
 * followed by the PyTorch code is such a file: the sources are a CUDA path with a fallback. */
static bool jit_with_fallback(const char *p)
{
    size_t got;
    char *buf = read_head(p, 1 << 20, &got);
    if (!buf) return false;
    bool cpp_ext = strstr(buf, "cpp_extension") != NULL, jit = false, test = false, top = false;
    for (char *line = buf; line < buf + got;) {
        char *end = strchr(line, '\n');
        if (!end) end = buf + got;
        *end = '\0';
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        size_t ind = strspn(line, " \t");
        const char *w = line + ind;
        /* the build: in a function (one at the top level runs at every import) */
        bool load = (cpp_ext && (strstr(w, "load(") || strstr(w, "load_inline("))) ||
                    strstr(w, "get_plugin(");
        if (load && ind) jit = true;
        if (load && !ind) top = true;
        /* a branch on the tensor's device (not an assert: that has no other path) */
        bool branch = !strncmp(w, "if ", 3) || !strncmp(w, "elif ", 5) || strstr(w, " if ");
        if (branch && (strstr(w, ".is_cuda") || (strstr(w, "device.type") &&
                                                 (strstr(w, "'cuda'") || strstr(w, "\"cuda\"")))))
            test = true;
        line = end + 1;
    }
    free(buf);
    return jit && test && !top;
}

/* The C++/CUDA sources beside a Python file that builds them with a JIT load behind a test of
 * the tensor's device, where no build file compiles them: an optional CUDA part (the PyTorch
 * path runs without it), unless that file's device test only raises on the other side (its
 * PY-EXT-003 error keeps the stop). */
typedef struct dir_ref {
    const char *p;
    size_t n;
} dir_ref;

static int dir_ref_cmp(const void *a, const void *b)
{
    const dir_ref *x = a, *y = b;
    size_t n = x->n < y->n ? x->n : y->n;
    int c = memcmp(x->p, y->p, n);
    return c ? c : (x->n > y->n) - (x->n < y->n);
}

static void gate_jit_sources(resolve_ctx *c)
{
    gp_audit_state *st = c->st;
    /* the folders that hold CUDA sources the default build has (sorted, looked up per file) */
    dir_ref *dirs = NULL;
    size_t nd = 0;
    for (size_t g = 0; g < st->nfiles; g++) {
        const char *gp = gp_audit_path(st, (uint32_t)g);
        if (!ext_is(gp, cuda_exts) || (st->files[g].flags & GP_FF_OPTIONAL)) continue;
        dir_ref *nn = realloc(dirs, (nd + 1) * sizeof *dirs);
        if (!nn) break;
        dirs = nn;
        dirs[nd++] = (dir_ref){gp, dir_len(gp)};
    }
    if (nd) qsort(dirs, nd, sizeof *dirs, dir_ref_cmp);
    for (size_t f = 0; nd && f < st->nfiles; f++) {
        if (st->files[f].lang != GP_AL_PYTHON) continue;
        const char *pp = gp_audit_path(st, (uint32_t)f);
        size_t dn = dir_len(pp);
        dir_ref key = {pp, dn};
        if (!bsearch(&key, dirs, nd, sizeof *dirs, dir_ref_cmp) || !jit_with_fallback(pp)) continue;
        st->files[f].flags |= GP_FF_JIT_FALLBACK;
        for (size_t g = 0; g < st->nfiles; g++) {
            const char *gp = gp_audit_path(st, (uint32_t)g);
            if (dir_len(gp) != dn || strncmp(gp, pp, dn) != 0 ||
                !(ext_is(gp, cuda_exts) || ext_is(gp, c_exts)) ||
                requiring_build(c, g, gp, dn, true) >= 0)
                continue;
            set_optional(st, g, GATE_JIT_FALLBACK);
        }
    }
    free(dirs);
}

static bool ext_required_once(const gp_audit_state *st, uint8_t *req, size_t b)
{
    if (st->files[b].lang != GP_AL_SETUP_PY) return false;
    if (!req[b]) req[b] = guarded_ext_required(st, b) ? 2 : 1;
    return req[b] == 2;
}

static void gate_build_sources(resolve_ctx *c)
{
    gp_audit_state *st = c->st;
    uint8_t *named = calloc(st->nfiles ? st->nfiles : 1, 1); /* 1 plainly, 2 only guarded */
    if (!named) return;
    /* per setup.py: 0 not asked yet, 1 no, 2 its CUDA-only extension is imported plainly (the
     * question reads the package's untokenized files: asked once) */
    uint8_t *req = calloc(st->nfiles ? st->nfiles : 1, 1);
    if (!req) {
        free(named);
        return;
    }
    for (int pass = 0; pass < 2; pass++)
        for (size_t b = 0; b < st->nfiles; b++) {
            if (!is_build_lang(st->files[b].lang) || !st->files[b].nfacts) continue;
            /* a CUDA extension the package imports without a fallback is no optional part */
            if (pass == 1 && ext_required_once(st, req, b)) continue;
            const char *bpath = gp_audit_path(st, (uint32_t)b);
            size_t n;
            unsigned fl;
            const char *t;
            int k;
            for (fact_it it = facts_of(st, b); (k = fact_next(&it, &fl, &t, &n)) != 0;) {
                if (k != GP_FACT_SOURCE || (pass == 0) != !(fl & GP_FACTF_GUARDED)) continue;
                char p[PATH_CAP];
                if (!join_norm(bpath, dir_len(bpath), t, n, p, sizeof p)) continue;
                int why = st->files[b].lang == GP_AL_MAKE    ? GATE_MAKE_BRANCH
                          : st->files[b].lang == GP_AL_CMAKE ? GATE_CMAKE_BRANCH
                                                             : GATE_SETUP_BRANCH;
                if (!strpbrk(p, "*?[")) {
                    long f = index_find(st, &c->ix, p, strlen(p));
                    if (f < 0) continue;
                    if (pass == 0)
                        named[f] = 1;
                    else if (!named[f])
                        set_optional(st, (size_t)f, why);
                    continue;
                }
                for (size_t f = 0; f < st->nfiles; f++) {
                    const char *fpath = gp_audit_path(st, (uint32_t)f);
                    if (!ext_is(fpath, c_exts) || gp_fnmatch(p, fpath, GP_FNM_PATHNAME) != 0)
                        continue;
                    if (pass == 0)
                        named[f] = 1;
                    else if (!named[f])
                        set_optional(st, f, why);
                }
            }
        }
    free(named);
    /* builds that compile CUDA only in a branch, and builds that compile it always */
    for (size_t b = 0; b < st->nfiles; b++) {
        if (!is_build_lang(st->files[b].lang) || (st->files[b].flags & GP_FF_OPTIONAL)) continue;
        bool gates = c->build_guarded[b] > 0 && c->build_unguarded[b] == 0;
        size_t n;
        unsigned fl;
        const char *t;
        int k;
        for (fact_it it = facts_of(st, b); (k = fact_next(&it, &fl, &t, &n)) != 0;)
            if (k == GP_FACT_CUDA_GATED || k == GP_FACT_CUDA_OPTION) gates = true;
        if (!gates || c->build_unguarded[b]) continue;
        if (ext_required_once(st, req, b)) continue;
        const char *bpath = gp_audit_path(st, (uint32_t)b);
        size_t dn = dir_len(bpath);
        /* a build in this folder or above it that needs CUDA whatever the options */
        if (requiring_build(c, b, bpath, dn, true) >= 0) continue;
        st->files[b].flags |= GP_FF_GATES;
        int why = st->files[b].lang == GP_AL_MAKE    ? GATE_MAKE_BRANCH
                  : st->files[b].lang == GP_AL_CMAKE ? GATE_CMAKE_BUILD
                                                     : GATE_SETUP_BRANCH;
        for (size_t f = 0; f < st->nfiles; f++) {
            const char *fpath = gp_audit_path(st, (uint32_t)f);
            if (!under(fpath, bpath, dn) || f == b) continue;
            /* inside a build of its own that needs CUDA: required when some build adds that
             * folder without a condition, else a sub-project the default build leaves out */
            long sub = requiring_build(c, f, fpath, dir_len(fpath), false);
            if (is_build_lang(st->files[f].lang) && c->build_unguarded[f] &&
                !(st->files[f].flags & GP_FF_OPTIONAL))
                sub = (long)f; /* the sub-build's own build file */
            if (sub >= 0 && (size_t)sub != b) {
                const char *sp = gp_audit_path(st, (uint32_t)sub);
                if (!subdir_unguarded(st, sp, dir_len(sp)) &&
                    (ext_is(fpath, c_exts) || is_build_lang(st->files[f].lang)) &&
                    !(st->files[f].flags & GP_FF_OPTIONAL)) {
                    set_optional(st, f, GATE_SUBPROJECT);
                    size_t sd = dir_len(sp);
                    if (sd < UINT16_MAX && under(fpath, sp, sd))
                        st->files[f].gate_dir = (uint16_t)sd;
                }
                continue;
            }
            if (ext_is(fpath, cuda_exts)) {
                set_optional(st, f, why);
                continue;
            }
            if (!ext_is(fpath, c_exts)) continue;
            /* a folder named for CUDA between the build file and the source */
            for (const char *q = fpath + (dn ? dn + 1 : 0); *q;) {
                const char *sl = strchr(q, '/');
                if (!sl) break;
                if (name_has_cuda(q, (size_t)(sl - q))) {
                    set_optional(st, f, why);
                    break;
                }
                q = sl + 1;
            }
        }
    }
    /* a build file in a folder of its own whose every other file is optional is that optional
     * part's build (a backend's CMakeLists.txt): it goes with them */
    for (size_t b = 0; b < st->nfiles; b++) {
        if (!is_build_lang(st->files[b].lang) || (st->files[b].flags & GP_FF_OPTIONAL) ||
            c->build_unguarded[b])
            continue;
        const char *bpath = gp_audit_path(st, (uint32_t)b);
        size_t dn = dir_len(bpath);
        if (!dn) continue;
        long opt = -1;
        bool other = false;
        for (size_t f = 0; f < st->nfiles && !other; f++) {
            if (f == b || !under(gp_audit_path(st, (uint32_t)f), bpath, dn)) continue;
            if (st->files[f].flags & GP_FF_OPTIONAL) {
                if (opt < 0) opt = (long)f;
            } else {
                other = true;
            }
        }
        if (opt >= 0 && !other) {
            set_optional(st, b, st->files[opt].gate);
            uint16_t gd = st->files[opt].gate_dir;
            if (gd && under(bpath, gp_audit_path(st, (uint32_t)opt), gd))
                st->files[b].gate_dir = gd;
        }
    }
    free(req);
}

/* A quoted include resolved the way a compiler with the usual -I would: beside the includer,
 * then from each folder above it. */
static long include_target(const resolve_ctx *c, const char *from, const char *t, size_t n)
{
    char p[PATH_CAP];
    size_t dn = dir_len(from);
    for (;;) {
        if (join_norm(from, dn, t, n, p, sizeof p)) {
            long f = index_find(c->st, &c->ix, p, strlen(p));
            if (f >= 0) return f;
        }
        if (dn == 0) return -1;
        while (dn > 0 && from[dn - 1] != '/')
            dn--;
        if (dn > 0) dn--;
    }
}

/* A name looked for in the files the prefilter decided without tokens, within a folder. */
typedef struct vcand {
    const char *name;
    size_t n;
    const char *scope; /* a folder ("" for all) */
    size_t scope_n;
    bool hit;
    size_t file; /* the candidate's own file */
} vcand;

static void untokenized_mentions(const gp_audit_state *st, vcand *c, size_t nc, int lang_a,
                                 int lang_b);

/* Headers included only by optional sources are optional too (to a fixed point). A header
 * some file that was not tokenized might include stays as it is: those files' includes are
 * not known, so any of them naming the header keeps it (see untokenized_mentions). */

static void gate_headers(resolve_ctx *c)
{
    gp_audit_state *st = c->st;
    uint32_t *in_opt = calloc(st->nfiles ? st->nfiles : 1, sizeof *in_opt);
    uint32_t *in_req = calloc(st->nfiles ? st->nfiles : 1, sizeof *in_req);
    if (!in_opt || !in_req) {
        free(in_opt);
        free(in_req);
        return;
    }
    for (int round = 0; round < 8; round++) {
        memset(in_opt, 0, st->nfiles * sizeof *in_opt);
        memset(in_req, 0, st->nfiles * sizeof *in_req);
        for (size_t f = 0; f < st->nfiles; f++) {
            if (!st->files[f].nfacts) continue;
            const char *path = gp_audit_path(st, (uint32_t)f);
            size_t n;
            unsigned fl;
            const char *t;
            int k;
            for (fact_it it = facts_of(st, f); (k = fact_next(&it, &fl, &t, &n)) != 0;) {
                if (k != GP_FACT_INCLUDE) continue;
                long h = include_target(c, path, t, n);
                if (h < 0 || (size_t)h == f) continue;
                /* (an include under #ifdef on a CUDA switch counts for neither side: only a
                 * CUDA build compiles it, whether or not that build is optional) */
                if (st->files[f].flags & GP_FF_OPTIONAL)
                    in_opt[h]++;
                else if (!(fl & GP_FACTF_GUARDED))
                    in_req[h]++;
            }
        }
        vcand *cand = NULL;
        size_t ncand = 0, capcand = 0;
        for (size_t h = 0; h < st->nfiles; h++) {
            if ((st->files[h].flags & GP_FF_OPTIONAL) || !in_opt[h] || in_req[h]) continue;
            const char *hp = gp_audit_path(st, (uint32_t)h);
            if (!ext_is(hp, header_exts)) continue;
            if (ncand == capcand) {
                size_t nc = capcand ? capcand * 2 : 16;
                vcand *nv = realloc(cand, nc * sizeof *nv);
                if (!nv) break;
                cand = nv;
                capcand = nc;
            }
            const char *base = strrchr(hp, '/');
            base = base ? base + 1 : hp;
            const char *sl = strchr(hp, '/');
            cand[ncand++] = (vcand){base, strlen(base), hp, sl ? (size_t)(sl - hp) : 0, false, h};
        }
        /* only headers with findings matter; the others change nothing */
        size_t k = 0;
        for (size_t i = 0; i < ncand; i++)
            if (st->files[cand[i].file].nrec) cand[k++] = cand[i];
        untokenized_mentions(st, cand, k, GP_AL_C, -1);
        bool changed = false;
        for (size_t i = 0; i < k; i++)
            if (!cand[i].hit) {
                set_optional(st, cand[i].file, GATE_INCLUDED);
                changed = true;
            }
        free(cand);
        if (!changed) break;
    }
    free(in_opt);
    free(in_req);
}

/* ---- reading untokenized files again ------------------------------------------------------ */

/* Marks the candidates some file of language lang_a or lang_b (within the candidate's folder)
 * that the prefilter decided without tokens names as a whole word. Those files are read again
 * from disk (the page cache has them), once each, only when a decision depends on them. */
static void untokenized_mentions(const gp_audit_state *st, vcand *c, size_t nc, int lang_a,
                                 int lang_b)
{
    if (nc == 0) return;
    enum { CAP = 256 * 1024 }; /* prefiltered files are under this (larger ones are lexed) */
    char *buf = NULL;
    for (size_t f = 0; f < st->nfiles; f++) {
        const gp_audit_file *fi = &st->files[f];
        if (!(fi->flags & GP_FF_PREFILTERED) || (fi->lang != lang_a && fi->lang != lang_b))
            continue;
        const char *p = gp_audit_path(st, (uint32_t)f);
        bool want = false;
        for (size_t i = 0; i < nc && !want; i++)
            want = !c[i].hit && under(p, c[i].scope, c[i].scope_n);
        if (!want) continue;
        if (!buf && !(buf = malloc(CAP + 1))) break;
        FILE *in = fopen(p, "rb");
        size_t got = in ? fread(buf, 1, CAP, in) : 0;
        if (in) fclose(in);
        buf[got] = '\0';
        for (size_t i = 0; i < nc; i++) {
            if (c[i].hit || !under(p, c[i].scope, c[i].scope_n)) continue;
            if (!in) { /* cannot tell: assume it does */
                c[i].hit = true;
                continue;
            }
            const char *name = c[i].name;
            size_t n = c[i].n;
            for (const char *q = buf;
                 !c[i].hit && (q = memchr(q, name[0], got - (size_t)(q - buf))); q++) {
                size_t at = (size_t)(q - buf);
                if (at + n > got || memcmp(q, name, n) != 0) continue;
                bool left = at == 0 || !(isalnum((unsigned char)q[-1]) || q[-1] == '_');
                bool right = !(isalnum((unsigned char)q[n]) || q[n] == '_');
                c[i].hit = left && right;
            }
        }
    }
    free(buf);
}

/* ---- Python imports ------------------------------------------------------------------------ */

typedef struct py_names {
    uint32_t *slot; /* file index + 1 */
    size_t cap;
    char **dotted; /* per file (Python only), or NULL */
} py_names;

/* The dotted module name of a Python file: its path from the folder above its outermost
 * package (or from its own folder outside packages), without ".py" and "/__init__". */
static char *dotted_of(const gp_audit_state *st, size_t f)
{
    const char *p = gp_audit_path(st, (uint32_t)f);
    const gp_walk_mod *m = &st->wmods[st->files[f].module];
    size_t root;
    if (st->files[f].wkind == GP_MOD_PYTHON_PACKAGE &&
        under(p, m->path, strcmp(m->path, ".") ? strlen(m->path) : 0))
        root = strcmp(m->path, ".") ? dir_len(m->path) : 0;
    else
        root = dir_len(p);
    const char *s = p + root + (root ? 1 : 0);
    size_t n = strlen(s);
    if (n > 3 && strcmp(s + n - 3, ".py") == 0)
        n -= 3;
    else if (n > 4 && strcmp(s + n - 4, ".pyi") == 0)
        n -= 4;
    else
        return NULL;
    if (n >= 9 && memcmp(s + n - 9, "/__init__", 9) == 0) n -= 9;
    if (n == 8 && memcmp(s, "__init__", 8) == 0) return NULL;
    char *d = strndup(s, n);
    if (!d) return NULL;
    for (char *q = d; *q; q++)
        if (*q == '/') *q = '.';
    return d;
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The tree's top-level Python packages and modules (mamba_ssm for mamba/mamba_ssm/), sorted:
 * importing one of them is importing the project's own code. */
static int compute_tops(gp_audit_state *st)
{
    size_t cap = 0;
    for (size_t f = 0; f < st->nfiles; f++) {
        if (st->files[f].lang != GP_AL_PYTHON) continue;
        char *d = dotted_of(st, f);
        if (!d) continue;
        if (strchr(d, '.')) {
            free(d);
            continue;
        }
        if (st->ntops == cap) {
            size_t nc = cap ? cap * 2 : 16;
            char **nt = realloc(st->tops, nc * sizeof *nt);
            if (!nt) {
                free(d);
                return -1;
            }
            st->tops = nt;
            cap = nc;
        }
        st->tops[st->ntops++] = d;
    }
    if (st->ntops) qsort(st->tops, st->ntops, sizeof *st->tops, str_cmp);
    return 0;
}

/* Is spooled finding r an import of the project's own code (its import fact names a top-level
 * package of the tree)? */
static bool imports_own(const gp_audit_state *st, const gp_spool_rec *r)
{
    if (!r->fact || !st->ntops) return false;
    const gp_audit_file *fi = &st->files[r->file];
    size_t at = r->fact - 1, n;
    unsigned fl;
    const char *t;
    if (at >= fi->nfacts || gp_audit_fact_next(st->facts.data + fi->facts, fi->nfacts, &at, &fl, &t,
                                               &n) != GP_FACT_IMPORT)
        return false;
    char top[128];
    size_t k = 0;
    while (k < n && k + 1 < sizeof top && t[k] != '.') {
        top[k] = t[k];
        k++;
    }
    top[k] = '\0';
    const char *key = top;
    return bsearch(&key, st->tops, st->ntops, sizeof *st->tops, str_cmp) != NULL;
}

static long names_find(const py_names *nm, const char *d, size_t n)
{
    size_t k = hash_str(d, n) & (nm->cap - 1);
    while (nm->slot[k]) {
        const char *q = nm->dotted[nm->slot[k] - 1];
        if (strncmp(q, d, n) == 0 && q[n] == '\0') return (long)nm->slot[k] - 1;
        k = (k + 1) & (nm->cap - 1);
    }
    return -1;
}

/* As names_find, but of several files with that module name (the examples of a monorepo, each
 * with its own utils.py) the one nearest to file `near`: the longest folder prefix in common. */
static long names_find_near(const gp_audit_state *st, const py_names *nm, const char *d, size_t n,
                            size_t near)
{
    const char *np = gp_audit_path(st, (uint32_t)near);
    long best = -1;
    size_t best_common = 0;
    size_t k = hash_str(d, n) & (nm->cap - 1);
    while (nm->slot[k]) {
        const char *q = nm->dotted[nm->slot[k] - 1];
        if (strncmp(q, d, n) == 0 && q[n] == '\0') {
            const char *p = gp_audit_path(st, nm->slot[k] - 1);
            size_t common = 0;
            for (size_t i = 0; p[i] && p[i] == np[i]; i++)
                if (p[i] == '/') common = i + 1;
            if (best < 0 || common > best_common) {
                best = (long)nm->slot[k] - 1;
                best_common = common;
            }
        }
        k = (k + 1) & (nm->cap - 1);
    }
    return best;
}

static bool is_init(const char *p)
{
    const char *b = strrchr(p, '/');
    b = b ? b + 1 : p;
    return strcmp(b, "__init__.py") == 0;
}

/* Counts an import of dotted name d[0, n) (and of the packages above it, which importing it
 * imports too). */
static void import_count(const py_names *nm, const char *d, size_t n, bool guarded, uint32_t *g,
                         uint32_t *u)
{
    for (;;) {
        long f = names_find(nm, d, n);
        if (f >= 0) {
            if (guarded)
                g[f]++;
            else
                u[f]++;
        }
        const char *dot = last_dot(d, n);
        if (!dot) return;
        n = (size_t)(dot - d);
    }
}

/* A function or class whose findings its own file does not guard (a GP_FACT_DEF): the imports
 * of it elsewhere decide. */
typedef struct def_use {
    uint32_t file, lo, hi;
    const char *name;
    size_t n;
    const char *base; /* its module's last part (the file's name without .py) */
    size_t base_n;
    uint32_t guarded, plain; /* imports of it used only behind a check; other uses */
} def_use;

typedef struct def_list {
    def_use *d; /* in file order */
    size_t n;
    size_t *seen; /* hashes of the names and module names above (0 empty), for a first test */
    size_t cap;
} def_list;

static void seen_add(def_list *dl, const char *s, size_t n)
{
    size_t h = hash_str(s, n) | 1, k = h & (dl->cap - 1);
    while (dl->seen[k] && dl->seen[k] != h)
        k = (k + 1) & (dl->cap - 1);
    dl->seen[k] = h;
}

static bool seen_has(const def_list *dl, const char *s, size_t n)
{
    size_t h = hash_str(s, n) | 1, k = h & (dl->cap - 1);
    for (; dl->seen[k]; k = (k + 1) & (dl->cap - 1))
        if (dl->seen[k] == h) return true;
    return false;
}

/* The first of file f's entries in the list (or where they would be). */
static size_t defs_first(const def_list *dl, uint32_t f)
{
    size_t lo = 0, hi = dl->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (dl->d[mid].file < f)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int defs_collect(const gp_audit_state *st, def_list *dl)
{
    size_t cap = 0;
    for (size_t f = 0; f < st->nfiles; f++) {
        if (st->files[f].lang != GP_AL_PYTHON || !st->files[f].nfacts) continue;
        size_t n;
        unsigned fl;
        const char *t;
        int k;
        for (fact_it it = facts_of(st, f); (k = fact_next(&it, &fl, &t, &n)) != 0;) {
            if (k != GP_FACT_DEF || (fl & (GP_FACTF_OWN_PLAIN | GP_FACTF_METHOD))) continue;
            const char *colon = memchr(t, ':', n);
            if (!colon || colon == t) continue;
            char num[32];
            size_t rest = n - (size_t)(colon + 1 - t);
            if (rest >= sizeof num) continue;
            memcpy(num, colon + 1, rest);
            num[rest] = '\0';
            unsigned lo, hi;
            if (sscanf(num, "%u-%u", &lo, &hi) != 2) continue;
            if (dl->n == cap) {
                size_t nc = cap ? cap * 2 : 16;
                def_use *nd = realloc(dl->d, nc * sizeof *nd);
                if (!nd) return -1;
                dl->d = nd;
                cap = nc;
            }
            const char *p = gp_audit_path(st, (uint32_t)f), *b = strrchr(p, '/');
            b = b ? b + 1 : p;
            size_t bn = strlen(b);
            if (bn > 3 && strcmp(b + bn - 3, ".py") == 0) bn -= 3;
            if (bn == 8 && memcmp(b, "__init__", 8) == 0) { /* a package: its folder's name */
                size_t dn = dir_len(p), s0 = dn;
                while (s0 > 0 && p[s0 - 1] != '/')
                    s0--;
                b = p + s0;
                bn = dn - s0;
            }
            dl->d[dl->n++] = (def_use){(uint32_t)f, lo, hi, t, (size_t)(colon - t), b, bn, 0, 0};
        }
    }
    if (dl->n) {
        dl->cap = 16;
        while (dl->cap < dl->n * 4)
            dl->cap *= 2;
        dl->seen = calloc(dl->cap, sizeof *dl->seen);
        if (!dl->seen) return -1;
        for (size_t i = 0; i < dl->n; i++) {
            seen_add(dl, dl->d[i].name, dl->d[i].n);
            seen_add(dl, dl->d[i].base, dl->d[i].base_n);
        }
    }
    return 0;
}

/* Counts an import (resolved to target[0, tl)) against the functions it brings in: `from M
 * import f` is a use of M's f (guarded when every use of f in the importing file is); `import M`,
 * or `from P import M` with M a module, may use any of M's functions (as M.f). */
static void defs_count(const gp_audit_state *st, const py_names *nm, def_list *dl,
                       const char *target, size_t tl, unsigned fl, bool from)
{
    (void)st;
    /* (most imports name no file with such functions: their last part is looked for first) */
    const char *dot0 = last_dot(target, tl);
    const char *tail = dot0 ? dot0 + 1 : target;
    size_t tn = tl - (size_t)(tail - target);
    if (!seen_has(dl, tail, tn)) return;
    long whole = from ? -1 : names_find(nm, target, tl);
    long mod = -1;
    const char *name = NULL;
    size_t name_n = 0;
    if (fl & GP_FACTF_NAME) {
        const char *dot = last_dot(target, tl);
        if (dot) {
            mod = names_find(nm, target, (size_t)(dot - target));
            name = dot + 1;
            name_n = tl - (size_t)(dot + 1 - target);
        }
    }
    bool guarded = (fl & (GP_FACTF_GUARDED | GP_FACTF_TRY | GP_FACTF_USED_GUARDED)) != 0;
    if (whole >= 0)
        for (size_t i = defs_first(dl, (uint32_t)whole);
             i < dl->n && dl->d[i].file == (uint32_t)whole; i++)
            dl->d[i].plain++;
    if (mod >= 0)
        for (size_t i = defs_first(dl, (uint32_t)mod); i < dl->n && dl->d[i].file == (uint32_t)mod;
             i++) {
            def_use *d = &dl->d[i];
            if (d->n != name_n || memcmp(d->name, name, name_n) != 0) continue;
            if (guarded)
                d->guarded++;
            else
                d->plain++;
        }
}

/* The functions imported elsewhere only behind a check: their findings count as guarded. A
 * file the prefilter decided without tokens has no facts: one that names such a function may
 * call it, so the function stays as it is. */
static void defs_decide(gp_audit_state *st, const def_list *dl)
{
    vcand *cand = calloc(dl->n ? dl->n : 1, sizeof *cand);
    if (!cand) return;
    size_t nc = 0;
    for (size_t i = 0; i < dl->n; i++)
        if (dl->d[i].guarded && !dl->d[i].plain)
            cand[nc++] = (vcand){dl->d[i].name, dl->d[i].n, "", 0, false, i};
    untokenized_mentions(st, cand, nc, GP_AL_PYTHON, GP_AL_NOTEBOOK);
    for (size_t c = 0; c < nc; c++) {
        if (cand[c].hit) continue;
        const def_use *d = &dl->d[cand[c].file];
        if (!gp_audit_gdef_add(st, d->file, d->lo, d->hi, false)) break;
    }
    free(cand);
}

/* Is spooled finding r inside a function its callers use only behind a check (1), or one no
 * entry point reaches (2)? 0: neither. Guarded by a caller wins over unreached. */
static int in_guarded_def(const gp_audit_state *st, const gp_spool_rec *r)
{
    int got = 0;
    for (size_t i = 0; i < st->ngdefs; i++)
        if (st->gdefs[i].file == r->file && r->line >= st->gdefs[i].lo &&
            r->line <= st->gdefs[i].hi) {
            if (!st->gdefs[i].unreached) return 1;
            got = 2;
        }
    return got;
}

/* The module an import fact of a file names, absolute: `t` as written ("." prefixes when
 * relative, resolved against `me`, the file's dotted name; `pkg` when it is a package's
 * __init__). Its length in target, or 0 when it names nothing (climbs above the top). */
static size_t import_target(const char *me, bool pkg, const char *t, size_t n, char *target,
                            size_t cap)
{
    size_t dots = 0;
    while (dots < n && t[dots] == '.')
        dots++;
    if (!dots) {
        if (n >= cap) return 0;
        memcpy(target, t, n);
        return n;
    }
    /* relative to the file's package */
    size_t base = strlen(me);
    size_t up = dots - (pkg ? 1 : 0);
    for (size_t i = 0; i < up && base; i++) {
        const char *dot = last_dot(me, base);
        base = dot ? (size_t)(dot - me) : 0;
    }
    if (!base && up && dots > 1) return 0; /* climbs above the top package */
    if (base + n + 2 >= cap) return 0;
    memcpy(target, me, base);
    size_t tl = base;
    if (n > dots) {
        if (tl) target[tl++] = '.';
        memcpy(target + tl, t + dots, n - dots);
        tl += n - dots;
    }
    return tl;
}

static void resolve_imports(resolve_ctx *c)
{
    gp_audit_state *st = c->st;
    py_names nm = {NULL, 16, NULL};
    while (nm.cap < st->nfiles * 2)
        nm.cap *= 2;
    nm.slot = calloc(nm.cap, sizeof *nm.slot);
    nm.dotted = calloc(st->nfiles ? st->nfiles : 1, sizeof *nm.dotted);
    uint32_t *g = calloc(st->nfiles ? st->nfiles : 1, sizeof *g);
    uint32_t *u = calloc(st->nfiles ? st->nfiles : 1, sizeof *u);
    if (!nm.slot || !nm.dotted || !g || !u) goto out;
    size_t npy = 0;
    for (size_t f = 0; f < st->nfiles; f++) {
        if (st->files[f].lang != GP_AL_PYTHON) continue;
        nm.dotted[f] = dotted_of(st, f);
        if (!nm.dotted[f]) continue;
        npy++;
        size_t k = hash_str(nm.dotted[f], strlen(nm.dotted[f])) & (nm.cap - 1);
        while (nm.slot[k])
            k = (k + 1) & (nm.cap - 1);
        nm.slot[k] = (uint32_t)f + 1;
    }
    if (!npy) goto out;
    char target[PATH_CAP];
    gp_import_edge *edges = NULL;
    size_t nedges = 0, capedges = 0;
    def_list dl = {NULL, 0, NULL, 0};
    if (defs_collect(st, &dl) != 0) {
        free(dl.d);
        free(dl.seen);
        goto out;
    }
    for (size_t f = 0; f < st->nfiles; f++) {
        if (!st->files[f].nfacts || !nm.dotted[f]) continue;
        size_t n;
        unsigned fl;
        const char *t;
        int k;
        for (fact_it it = facts_of(st, f); (k = fact_next(&it, &fl, &t, &n)) != 0;) {
            if (k != GP_FACT_IMPORT || (fl & GP_FACTF_TYPE)) continue;
            /* `from X import a`: X's own record comes first, then X.a's */
            bool from = false;
            if (!(fl & GP_FACTF_NAME)) {
                fact_it peek = it;
                size_t n2;
                unsigned fl2;
                const char *t2;
                from = fact_next(&peek, &fl2, &t2, &n2) == GP_FACT_IMPORT &&
                       (fl2 & GP_FACTF_NAME) && n2 > n && memcmp(t2, t, n) == 0 &&
                       (t[n - 1] == '.' || t2[n] == '.');
            }
            size_t tl = import_target(nm.dotted[f], is_init(gp_audit_path(st, (uint32_t)f)), t, n,
                                      target, sizeof target);
            if (!tl) continue;
            bool guarded = (fl & (GP_FACTF_GUARDED | GP_FACTF_TRY)) != 0;
            if (dl.n) defs_count(st, &nm, &dl, target, tl, fl, from);
            {
                /* the file it imports: the module itself, or the one the name comes from */
                long to = names_find_near(st, &nm, target, tl, f);
                const char *dot = (fl & GP_FACTF_NAME) ? last_dot(target, tl) : NULL;
                if (to < 0 && dot) to = names_find_near(st, &nm, target, (size_t)(dot - target), f);
                if (to >= 0 && (size_t)to != f) {
                    if (nedges == capedges) {
                        size_t nc = capedges ? capedges * 2 : 64;
                        gp_import_edge *ne = realloc(edges, nc * sizeof *ne);
                        if (ne) {
                            edges = ne;
                            capedges = nc;
                        }
                    }
                    if (nedges < capedges)
                        edges[nedges++] = (gp_import_edge){(uint32_t)f, (uint32_t)to, guarded};
                }
            }
            if (fl & GP_FACTF_NAME) {
                /* `from X import name`: only the module X.name, when there is one (X itself is
                 * counted by its own record) */
                long m = names_find(&nm, target, tl);
                if (m >= 0) {
                    if (guarded)
                        g[m]++;
                    else
                        u[m]++;
                }
            } else {
                import_count(&nm, target, tl, guarded, g, u);
            }
        }
    }
    /* a file imported only behind a CUDA check whose own import fails off CUDA (it imports a
     * CUDA-only package or Triton unguarded): such an import is what the checks guard */
    /* ... also through files that are themselves imported only that way (a kernel module
     * imported by a module that model.py imports in try/except ImportError) */
    uint8_t *only = calloc(st->nfiles ? st->nfiles : 1, 4); /* [f]: imported only guarded; then
                                                             * a veto and two scratch bytes */
    for (int pass = 0; only && pass < 2; pass++) {
        uint8_t *veto = only + st->nfiles, *has = veto + st->nfiles, *bad = has + st->nfiles;
        for (size_t f = 0; f < st->nfiles; f++)
            only[f] = g[f] && !u[f] && !veto[f];
        for (int round = 0; round < 8; round++) {
            memset(has, 0, 2 * st->nfiles);
            for (size_t e = 0; e < nedges; e++) {
                has[edges[e].to] = 1;
                if (!edges[e].guarded && !only[edges[e].from]) bad[edges[e].to] = 1;
            }
            bool changed = false;
            for (size_t f = 0; f < st->nfiles; f++)
                if (has[f] && !bad[f] && !only[f] && !veto[f] &&
                    !(st->files[f].flags & GP_FF_MAIN_GUARD)) {
                    only[f] = 1;
                    changed = true;
                }
            if (!changed) break;
        }
        if (pass == 1) break;
        /* what the chain decides: a file with a failing import that only the chain reaches */
        bool matters = false;
        for (size_t f = 0; f < st->nfiles && !matters; f++)
            matters = only[f] && !(g[f] && !u[f]) && c->import_blockers[f];
        if (!matters) break;
        /* a file the prefilter passed over may import one of them plainly: those named in one
         * (in their package) are no such files, nor then the ones imported through them */
        vcand *vc = calloc(npy, sizeof *vc);
        size_t nvc = 0;
        for (size_t f = 0; vc && f < st->nfiles; f++) {
            if (!only[f] || (g[f] && !u[f]) || !nm.dotted[f]) continue;
            const char *p = gp_audit_path(st, (uint32_t)f);
            const char *last = strrchr(nm.dotted[f], '.');
            last = last ? last + 1 : nm.dotted[f];
            const gp_walk_mod *m = &st->wmods[st->files[f].module];
            size_t sn = st->files[f].wkind == GP_MOD_PYTHON_PACKAGE && strcmp(m->path, ".")
                            ? strlen(m->path)
                            : dir_len(p);
            vc[nvc++] = (vcand){last, strlen(last), p, sn, false, f};
        }
        untokenized_mentions(st, vc, nvc, GP_AL_PYTHON, GP_AL_NOTEBOOK);
        bool any = false;
        for (size_t i = 0; i < nvc; i++)
            if (vc[i].hit) {
                veto[vc[i].file] = 1;
                any = true;
            }
        free(vc);
        if (!any) break;
    }
    vcand *cand = calloc(npy, sizeof *cand);
    size_t ncand = 0;
    for (size_t f = 0; f < st->nfiles && cand; f++) {
        if (!nm.dotted[f]) continue;
        const char *p = gp_audit_path(st, (uint32_t)f);
        gp_audit_file *fi = &st->files[f];
        bool guarded_only = only ? only[f] : g[f] && !u[f];
        if (guarded_only && c->import_blockers[f] && !is_init(p) &&
            !(fi->flags & GP_FF_MAIN_GUARD)) {
            const char *last = strrchr(nm.dotted[f], '.');
            last = last ? last + 1 : nm.dotted[f];
            /* the folder its imports can come from: the top of its package */
            const gp_walk_mod *m = &st->wmods[fi->module];
            size_t sn = fi->wkind == GP_MOD_PYTHON_PACKAGE && strcmp(m->path, ".") ? strlen(m->path)
                                                                                   : dir_len(p);
            if (!(g[f] && !u[f])) {
                /* reached only through the chain: its name was looked for above already */
                fi->flags |= GP_FF_IMPORT_GUARDED;
                continue;
            }
            cand[ncand++] = (vcand){last, strlen(last), p, sn, false, f};
        }
        if (!g[f] && !u[f] && fi->nrec && (fi->flags & GP_FF_MAIN_GUARD) && !is_init(p))
            fi->flags |= GP_FF_SCRIPT;
    }
    untokenized_mentions(st, cand, ncand, GP_AL_PYTHON, GP_AL_NOTEBOOK);
    for (size_t i = 0; i < ncand; i++)
        if (!cand[i].hit) st->files[cand[i].file].flags |= GP_FF_IMPORT_GUARDED;
    free(cand);
    free(only);
    defs_decide(st, &dl);
    free(dl.d);
    free(dl.seen);
    gp_audit_reach(st, edges, nedges, nm.dotted);
    free(edges);
out:
    if (nm.dotted)
        for (size_t f = 0; f < st->nfiles; f++)
            free(nm.dotted[f]);
    free(nm.dotted);
    free(nm.slot);
    free(g);
    free(u);
}

/* ---- components ---------------------------------------------------------------------------- */

typedef struct comp_index {
    uint32_t *slot;
    size_t cap;
    size_t capmods;
} comp_index;

static long comp_get(gp_audit_state *st, comp_index *ci, const char *path, size_t n,
                     gp_module_kind kind, gp_audit_role role)
{
    if (n == 0) {
        path = ".";
        n = 1;
    }
    if (st->nmods * 2 >= ci->cap) {
        size_t nc = ci->cap ? ci->cap * 2 : 64;
        uint32_t *ns = calloc(nc, sizeof *ns);
        if (!ns) return -1;
        for (size_t i = 0; i < st->nmods; i++) {
            const gp_audit_module *m = &st->mods[i];
            size_t k = (hash_str(m->path, strlen(m->path)) + m->role) & (nc - 1);
            while (ns[k])
                k = (k + 1) & (nc - 1);
            ns[k] = (uint32_t)i + 1;
        }
        free(ci->slot);
        ci->slot = ns;
        ci->cap = nc;
    }
    size_t k = (hash_str(path, n) + role) & (ci->cap - 1);
    while (ci->slot[k]) {
        gp_audit_module *m = &st->mods[ci->slot[k] - 1];
        if (m->role == role && strncmp(m->path, path, n) == 0 && m->path[n] == '\0')
            return (long)ci->slot[k] - 1;
        k = (k + 1) & (ci->cap - 1);
    }
    if (st->nmods == ci->capmods) {
        size_t nc = ci->capmods ? ci->capmods * 2 : 16;
        gp_audit_module *nm = realloc(st->mods, nc * sizeof *nm);
        if (!nm) return -1;
        st->mods = nm;
        ci->capmods = nc;
    }
    gp_audit_module *m = &st->mods[st->nmods];
    memset(m, 0, sizeof *m);
    m->path = strndup(path, n);
    if (!m->path) return -1;
    m->kind = kind;
    m->role = role;
    m->decided_by = -1;
    ci->slot[k] = (uint32_t)++st->nmods;
    return (long)st->nmods - 1;
}

size_t gp_audit_root_len(const gp_audit_state *st, const char *p)
{
    size_t best = 0;
    for (size_t i = 0; st->o && i < st->o->npaths; i++) {
        const char *a = st->o->paths[i];
        size_t n = strlen(a);
        while (n > 1 && a[n - 1] == '/')
            n--;
        if ((n == 1 && a[0] == '.') || (n == 1 && a[0] == '/')) continue;
        if (strncmp(p, a, n) == 0 && p[n] == '/' && n + 1 > best) best = n + 1;
    }
    return best;
}

/* The length of the outermost folder on path p named like examples, tests, benchmarks or docs
 * (code that is not the project's own), or 0. Only the folders under the scanned one count: a
 * project kept in ~/test/proj is no test. */
static size_t support_dir(const gp_audit_state *st, const char *p)
{
    size_t skip = gp_audit_root_len(st, p);
#define SD(w)                                                                                      \
    {                                                                                              \
        w, sizeof w - 1                                                                            \
    }
    static const struct {
        const char *w;
        size_t n;
    } names[] = {SD("examples"), SD("example"),    SD("samples"),   SD("sample"), SD("tests"),
                 SD("test"),     SD("benchmarks"), SD("benchmark"), SD("bench"),  SD("docs"),
                 SD("doc"),      SD("tutorials"),  SD("notebooks"), SD("demo"),   SD("demos")};
#undef SD
    for (const char *q = p + skip; *q;) {
        const char *sl = strchr(q, '/');
        if (!sl) break;
        size_t k = (size_t)(sl - q);
        char c0 = (char)(*q | 0x20);
        if (k >= 3 && k <= 10 &&
            (c0 == 'e' || c0 == 's' || c0 == 't' || c0 == 'b' || c0 == 'd' || c0 == 'n'))
            for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
                if (names[i].n == k && strncasecmp(q, names[i].w, k) == 0) return (size_t)(sl - p);
        q = sl + 1;
    }
    return 0;
}

/* The folder that made file f optional: the gated folder of a CMake option, else its module. */
static int assign_components(resolve_ctx *c)
{
    gp_audit_state *st = c->st;
    comp_index ci = {NULL, 0, 0};
    char buf[PATH_CAP];
    for (size_t f = 0; f < st->nfiles; f++) {
        gp_audit_file *fi = &st->files[f];
        const gp_walk_mod *wm = &st->wmods[fi->module];
        const char *p = gp_audit_path(st, (uint32_t)f);
        const char *cp = strcmp(wm->path, ".") ? wm->path : "";
        size_t cn = strlen(cp);
        gp_module_kind kind = wm->kind;
        gp_audit_role role = GP_ROLE_NONE;
        if (fi->flags & GP_FF_OPTIONAL) {
            role = GP_ROLE_CUDA_OPTIONAL;
            if (fi->gate_dir) { /* a sub-build: its folder (unless one named for CUDA holds it) */
                cp = p;
                cn = fi->gate_dir;
                kind = GP_MOD_DIRECTORY;
            }
            /* the outermost folder named for CUDA on the path, when there is one */
            for (const char *q = p; *q;) {
                const char *sl = strchr(q, '/');
                if (!sl) break;
                if (name_has_cuda(q, (size_t)(sl - q)) &&
                    (!fi->gate_dir || (size_t)(sl - p) <= fi->gate_dir)) {
                    cp = p;
                    cn = (size_t)(sl - p);
                    kind = GP_MOD_DIRECTORY;
                    break;
                }
                q = sl + 1;
            }
        } else if (fi->flags & GP_FF_SCRIPT) {
            role = GP_ROLE_SCRIPT;
            cp = p;
            cn = strlen(p);
        } else if (fi->wkind == GP_MOD_PYTHON_PACKAGE && cn && under(p, cp, cn)) {
            /* a package's first sub-package is a component of its own */
            const char *rest = p + cn + 1;
            const char *sl = strchr(rest, '/');
            if (sl && (size_t)(sl - p) + 13 < sizeof buf) {
                size_t sn = (size_t)(sl - p);
                memcpy(buf, p, sn);
                memcpy(buf + sn, "/__init__.py", 13);
                if (index_find(st, &c->ix, buf, sn + 12) >= 0) {
                    cn = sn;
                    cp = p;
                    kind = GP_MOD_PYTHON_PACKAGE;
                }
            }
        }
        size_t sd = role == GP_ROLE_CUDA_OPTIONAL ? 0 : support_dir(st, p);
        if (sd) { /* examples and tests: one component per folder */
            role = GP_ROLE_SUPPORT;
            cp = p;
            cn = sd;
            kind = GP_MOD_DIRECTORY;
        }
        long m = comp_get(st, &ci, cp, cn, kind, role);
        if (m < 0) {
            free(ci.slot);
            return -1;
        }
        fi->comp = (uint32_t)m;
        gp_audit_module *mo = &st->mods[m];
        mo->files++;
        if (fi->flags & GP_FF_CPU_IMPL) mo->cpu_impl = true;
        if (fi->flags & (GP_FF_METAL_IMPL | GP_FF_MPS_IMPL)) mo->metal_impl = true;
        if ((fi->flags & GP_FF_CUDA_DISPATCH) || ext_is(p, cuda_exts)) mo->cuda_impl = true;
        if (fi->flags & GP_FF_CUDA_DISPATCH) mo->cpu_impl = true; /* its other branch */
        if (role == GP_ROLE_CUDA_OPTIONAL && !mo->gate[0]) {
            static const char *const why[GATE_COUNT] = {
                "optional",
                "built only when a CUDA option is on (off by default)",
                "named only in a CUDA branch of the CMake build",
                "built only in the Makefile's CUDA branch (when nvcc is found)",
                "built only in setup.py's CUDA branch",
                "included only by the optional CUDA sources",
                "a CUDA build of its own that the default build does not build",
                "compiled only where its CMake build turns CUDA on (off by default)",
                ("built only by a JIT load (torch.utils.cpp_extension) that a test of the "
                 "tensor's device calls, with a PyTorch path beside it")};
            int g = fi->gate < GATE_COUNT ? fi->gate : 0;
            if (g == GATE_CMAKE_OPTION && c->option[0])
                snprintf(mo->gate, sizeof mo->gate, "built only with -D%s=ON (off by default)",
                         c->option);
            else
                snprintf(mo->gate, sizeof mo->gate, "%s", why[g]);
        }
    }
    free(ci.slot);
    return 0;
}

/* A .cu source with a C/C++ twin of the same name beside it (train.cu and train.c) has its CPU
 * implementation there. */
/* Does the C/C++ file f have CUDA errors outside any guard (a `TORCH_CHECK(x.is_cuda())`, an
 * ATen CUDA header)? Then it is the extension's binding or host code, not a CPU twin. */
static bool twin_binds_cuda(const gp_audit_state *st, size_t f)
{
    const gp_audit_file *fi = &st->files[f];
    gp_spool_rec r;
    char snip[4096];
    if (fseek(st->spool, fi->spool_at, SEEK_SET) != 0) return true;
    for (size_t i = 0; i < fi->nrec; i++) {
        if (gp_spool_read(st->spool, &r, snip, sizeof snip) != 0) return true;
        if (r.severity == GP_SEV_ERROR && !(r.flags & 1)) return true;
    }
    return false;
}

static void pair_cpu_twins(resolve_ctx *c)
{
    gp_audit_state *st = c->st;
    static const char *const twins[] = {".c", ".cc", ".cpp", ".cxx"};
    char buf[PATH_CAP];
    for (size_t f = 0; f < st->nfiles; f++) {
        const char *p = gp_audit_path(st, (uint32_t)f);
        size_t n = strlen(p);
        if (n < 4 || strcmp(p + n - 3, ".cu") != 0 || n + 2 >= sizeof buf) continue;
        for (size_t t = 0; t < sizeof twins / sizeof twins[0]; t++) {
            memcpy(buf, p, n - 3);
            strcpy(buf + n - 3, twins[t]);
            long g = index_find(st, &c->ix, buf, strlen(buf));
            if (g >= 0 && st->files[g].nrec == 0) {
                /* the twin has no CUDA findings of its own: a CPU implementation */
                st->mods[st->files[f].comp].cpu_impl = true;
                st->mods[st->files[g].comp].cpu_impl = true;
            } else if (g >= 0 && !twin_binds_cuda(st, (size_t)g)) {
                st->mods[st->files[f].comp].cpu_impl = true;
            }
        }
    }
}

/* ---- a project's own cuda() -------------------------------------------------------------- */

/* The bases of the class around line `line` of d[0, n): the nearest `class Name(...)` above it,
 * less indented; is one of them (its last dotted part) among the names? */
static bool base_defines_cuda(const char *d, size_t n, uint32_t line, char *const *names, size_t nn)
{
    /* the starts of lines 1..line */
    size_t at = 0;
    for (uint32_t l = 1; l < line && at < n; l++) {
        const char *e = memchr(d + at, '\n', n - at);
        at = e ? (size_t)(e - d) + 1 : n;
    }
    size_t ind = 0;
    while (at + ind < n && (d[at + ind] == ' ' || d[at + ind] == '\t'))
        ind++;
    /* walk back line by line */
    size_t ls = at;
    while (ls > 0) {
        size_t pe = ls - 1, ps = pe;
        while (ps > 0 && d[ps - 1] != '\n')
            ps--;
        ls = ps;
        size_t i = 0;
        while (ps + i < pe && (d[ps + i] == ' ' || d[ps + i] == '\t'))
            i++;
        if (ps + i == pe || d[ps + i] == '#' || i >= ind) continue;
        if (pe - ps - i < 6 || memcmp(d + ps + i, "class ", 6) != 0) {
            ind = i; /* a less indented line that is no class: look further out */
            continue;
        }
        const char *lp = memchr(d + ps + i, '(', pe - ps - i);
        const char *rp = lp ? memchr(lp, ')', (size_t)(d + pe - lp)) : NULL;
        if (!lp || !rp) return false;
        for (const char *q = lp + 1; q < rp;) {
            while (q < rp && !(isalnum((unsigned char)*q) || *q == '_'))
                q++;
            const char *w = q;
            while (q < rp && (isalnum((unsigned char)*q) || *q == '_' || *q == '.'))
                q++;
            const char *dot = w;
            for (const char *k = w; k < q; k++)
                if (*k == '.') dot = k + 1;
            for (size_t k = 0; k < nn; k++)
                if (strlen(names[k]) == (size_t)(q - dot) &&
                    memcmp(names[k], dot, (size_t)(q - dot)) == 0)
                    return true;
        }
        return false;
    }
    return false;
}

/* `self.cuda()` in a class whose base class, defined elsewhere in the project, has its own
 * cuda() method: the project's method, no finding (its body is reported where it moves
 * tensors). */
static void own_cuda_methods(gp_audit_state *st)
{
    char **names = NULL;
    size_t nn = 0, cap = 0;
    for (size_t f = 0; f < st->nfiles; f++) {
        if (!st->files[f].nfacts) continue;
        size_t n;
        unsigned fl;
        const char *t;
        int k;
        for (fact_it it = facts_of(st, f); (k = fact_next(&it, &fl, &t, &n)) != 0;) {
            if (k != GP_FACT_CUDA_METHOD) continue;
            if (nn == cap) {
                size_t nc = cap ? cap * 2 : 8;
                char **nv = realloc(names, nc * sizeof *nv);
                if (!nv) goto out;
                names = nv;
                cap = nc;
            }
            if (!(names[nn] = strndup(t, n))) goto out;
            nn++;
        }
    }
    if (!nn) goto out;
    gp_spool_reader *rd = malloc(sizeof *rd);
    if (!rd || gp_spool_begin(rd, st->spool) != 0) {
        free(rd);
        goto out;
    }
    size_t capo = 0;
    gp_spool_rec r;
    for (size_t i = 0; i < st->nrec && gp_spool_next(rd, &r, NULL, 4096, NULL) == 0; i++) {
        if (r.rule != GP_R_PY_DEV_001 || !(r.flags & (GP_MARK_SELF_CUDA << 2)) || r.cell) continue;
        if (st->nowncuda == capo) {
            size_t nc = capo ? capo * 2 : 8;
            gp_line_span *nv = realloc(st->owncuda, nc * sizeof *nv);
            if (!nv) break;
            st->owncuda = nv;
            capo = nc;
        }
        st->owncuda[st->nowncuda++] = (gp_line_span){r.file, r.line, r.line, false};
    }
    free(rd);
    /* read each file with such calls once; keep the calls whose class derives from one */
    char *buf = NULL;
    size_t kept = 0, got = 0;
    enum { CAP = 8u << 20 };
    for (size_t i = 0; i < st->nowncuda; i++) {
        if (i == 0 || st->owncuda[i].file != st->owncuda[i - 1].file) {
            if (!buf && !(buf = malloc(CAP))) break;
            FILE *in = fopen(gp_audit_path(st, st->owncuda[i].file), "rb");
            got = in ? fread(buf, 1, CAP, in) : 0;
            if (in) fclose(in);
        }
        if (got && base_defines_cuda(buf, got, st->owncuda[i].lo, names, nn))
            st->owncuda[kept++] = st->owncuda[i];
    }
    st->nowncuda = kept;
    free(buf);
out:
    for (size_t i = 0; i < nn; i++)
        free(names[i]);
    free(names);
}

/* ---- what a finding counts as -------------------------------------------------------------- */

void gp_audit_effective(const gp_audit_state *st, const gp_spool_rec *r, gp_eff *e)
{
    e->rule = r->rule;
    e->severity = r->severity;
    e->guarded = (r->flags & 1) != 0;
    e->optional = false;
    e->unreached = false;
    if ((r->flags & 2) || imports_own(st, r)) { /* in the baseline; the project's own code */
        e->severity = GP_SEV_NONE;
        return;
    }
    if (r->rule == GP_R_PY_DEV_001 && (r->flags & (GP_MARK_SELF_CUDA << 2)))
        for (size_t i = 0; i < st->nowncuda; i++)
            if (st->owncuda[i].file == r->file && st->owncuda[i].lo == r->line) {
                e->severity = GP_SEV_NONE; /* the project's own cuda() */
                return;
            }
    uint16_t ff = st->files[r->file].flags;
    if (ff & GP_FF_OPTIONAL) {
        e->optional = true;
        e->guarded = true;
        if (e->severity > GP_SEV_NOTE) e->severity = GP_SEV_NOTE;
        return;
    }
    if ((ff & GP_FF_JIT_FALLBACK) && r->rule == GP_R_PY_EXT_002 && e->severity > GP_SEV_NOTE) {
        /* the JIT build of an optional CUDA part (the device test's other path is PyTorch's) */
        e->guarded = true;
        e->severity = GP_SEV_NOTE;
        return;
    }
    if ((ff & GP_FF_GATES) && e->guarded && e->severity > GP_SEV_NOTE) {
        /* the guarded CUDA branch of a build that builds without it otherwise: as optional */
        e->severity = GP_SEV_NOTE;
        return;
    }
    int gd = (ff & GP_FF_CALLS_GUARDED) && !r->cell ? in_guarded_def(st, r) : 0;
    if (((ff & GP_FF_IMPORT_GUARDED) || gd) && !e->guarded) {
        e->unreached = gd == 2 && !(ff & GP_FF_IMPORT_GUARDED);
        const gp_audit_rule *ru = gp_audit_rule_get(r->rule);
        e->guarded = true;
        if (ru->guarded_as >= 0) {
            e->rule = (uint16_t)ru->guarded_as;
            e->severity = (uint8_t)gp_audit_rule_get(ru->guarded_as)->severity;
        } else {
            e->severity = (uint8_t)ru->guarded;
        }
    }
}

bool gp_audit_path_vendored(const gp_audit_state *st, const char *p)
{
    static const char *const names[] = {"third_party", "thirdparty", "third-party", "3rdparty",
                                        "vendor",      "vendored",   "external",    "externals",
                                        "extern",      "submodules"};
    for (const char *q = p + gp_audit_root_len(st, p); *q;) {
        const char *sl = strchr(q, '/');
        if (!sl) break;
        size_t k = (size_t)(sl - q);
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (strlen(names[i]) == k && strncasecmp(q, names[i], k) == 0) return true;
        q = sl + 1;
    }
    return false;
}

/* Keeps a stop's evidence: the project's own files before vendored ones, a kernel's definition
 * before its launches, one place per line, in walk order otherwise. */
static void ev_put(const gp_audit_state *st, gp_stop_ev *arr, size_t *count, const gp_spool_rec *r,
                   int rule)
{
    size_t have = *count < GP_STOP_EVIDENCE ? *count : GP_STOP_EVIDENCE;
    (*count)++;
    for (size_t i = 0; i < have; i++)
        if (arr[i].file == r->file && arr[i].line == r->line && arr[i].cell == r->cell) return;
    int score = (gp_audit_path_vendored(st, gp_audit_path(st, r->file)) ? 0 : 2) +
                ((r->flags & (GP_MARK_KERNEL << 2)) ? 1 : 0);
    size_t at = have;
    while (at > 0 && arr[at - 1].score < score)
        at--;
    if (at >= GP_STOP_EVIDENCE) return;
    size_t last = have < GP_STOP_EVIDENCE ? have : GP_STOP_EVIDENCE - 1;
    for (size_t i = last; i > at; i--)
        arr[i] = arr[i - 1];
    arr[at] = (gp_stop_ev){r->file, r->line, r->col, r->cell, (uint16_t)rule, (uint8_t)score};
}

static int count_findings(gp_audit_state *st)
{
    gp_spool_reader *rd = malloc(sizeof *rd);
    if (!rd || gp_spool_begin(rd, st->spool) != 0) {
        free(rd);
        return -1;
    }
    /* examples and tests are the project's own code only where it has nothing else */
    bool core = false;
    for (size_t i = 0; i < st->nmods; i++)
        core |= st->mods[i].role != GP_ROLE_CUDA_OPTIONAL && st->mods[i].role != GP_ROLE_SUPPORT;
    gp_spool_rec r;
    for (size_t i = 0; i < st->nrec; i++) {
        long at;
        if (gp_spool_next(rd, &r, NULL, 4096, &at) != 0) {
            free(rd);
            return -1;
        }
        gp_eff e;
        gp_audit_effective(st, &r, &e);
        if (e.severity == GP_SEV_NONE) continue;
        gp_audit_file *fi = &st->files[r.file];
        gp_audit_module *m = &st->mods[fi->comp];
        const gp_audit_rule *ru = gp_audit_rule_get(e.rule);
        st->count[e.severity]++;
        m->count[e.severity]++;
        fi->count[e.severity]++;
        if (e.optional) st->optional_findings++;
        gp_rule_count *rc = &st->rule_count[e.rule];
        /* the example: the first of the most severe */
        if (rc->n++ == 0 || e.severity > rc->sev) {
            rc->file = r.file;
            rc->line = r.line;
            rc->cell = r.cell;
            rc->spool_at = at;
        }
        if (!(m->role == GP_ROLE_SUPPORT && core) &&
            !gp_audit_path_vendored(st, gp_audit_path(st, r.file)) &&
            (rc->own_n++ == 0 || e.severity > rc->own_sev)) {
            rc->own_file = r.file;
            rc->own_line = r.line;
            rc->own_cell = r.cell;
            rc->own_sev = e.severity;
        }
        if (e.severity > rc->sev) rc->sev = e.severity;
        if (e.rule == GP_R_C_KERN_001) m->cuda_impl = true;
        if (e.rule == GP_R_C_KERN_001 && (r.flags & (GP_MARK_KERNEL << 2))) {
            m->kernels++;
            st->kernels++;
        }
        /* the severity that decides the verdict: an optional part is judged as if it were
         * built (what using it would need) */
        int vsev = e.optional ? r.severity : e.severity;
        if (vsev == GP_SEV_ERROR) m->raw_errors++;
        if (vsev == GP_SEV_ERROR && e.rule == GP_R_PY_EXT_003) m->stub_cpu = true;
        if (ru->stop) {
            /* (an optional part's own stops: what using it would meet; not the project's) */
            /* (a guarded NCCL stop where the file's paths without a distributed run only raise
             * holds for every run) */
            bool required = ru->stop == GP_STOP_NCCL && e.guarded && !e.unreached &&
                            (fi->flags & GP_FF_DIST_REQUIRED) && ru->severity == GP_SEV_ERROR;
            if ((e.severity == GP_SEV_ERROR && !e.guarded) || required ||
                (e.optional && r.severity == GP_SEV_ERROR && !(r.flags & 1)))
                ev_put(st, m->ev[ru->stop], &m->stop_count[ru->stop], &r, e.rule);
            else if (((ru->stop == GP_STOP_NCCL && e.guarded) || e.unreached) &&
                     ru->severity == GP_SEV_ERROR && !e.optional) {
                /* guarded NCCL: a multi-GPU training path; the other guarded stops have their
                 * fallback beside them (the eager path, the CPU kernel, the other package).
                 * Code no entry point reaches: a stop only for whoever calls it */
                ev_put(st, m->cond_ev[ru->stop], &m->cond_count[ru->stop], &r, e.rule);
                if (e.unreached) m->cond_unreached[ru->stop]++;
            }
        }
        gp_audit_vclass want = GP_VC_PORTABLE;
        if (vsev == GP_SEV_ERROR)
            want = ru->vclass;
        else if (vsev == GP_SEV_WARNING)
            want = ru->vclass > GP_VC_ABSTRACTION ? GP_VC_ABSTRACTION : ru->vclass;
        /* an error of the same verdict decides before a warning (a requirement, not the
         * container file that happens to come first) */
        if (want > m->verdict ||
            (want == m->verdict && want > GP_VC_PORTABLE && vsev > m->decided_sev)) {
            m->verdict = want;
            m->decided_by = e.rule;
            m->decided_sev = vsev;
        }
    }
    free(rd);
    return 0;
}

static int effort_rank(const char *e)
{
    return e[0] == 'n' ? 0 : e[0] == 'l' ? 1 : e[0] == 'm' ? 2 : 3;
}

static void verdicts(gp_audit_state *st)
{
    st->verdict = GP_VC_PORTABLE;
    st->effort = "none";
    bool any_cuda = false, any_cpu = false, any_metal = false;
    /* examples and tests are left out when the project has code of its own besides them */
    bool core = false;
    for (size_t i = 0; i < st->nmods; i++)
        core |= st->mods[i].role != GP_ROLE_CUDA_OPTIONAL && st->mods[i].role != GP_ROLE_SUPPORT;
    for (size_t i = 0; i < st->nmods; i++) {
        gp_audit_module *m = &st->mods[i];
        bool optional = m->role == GP_ROLE_CUDA_OPTIONAL;
        m->excluded = optional || (m->role == GP_ROLE_SUPPORT && core);
        bool any_stop = false;
        bool has_impl = !m->stub_cpu && (m->cpu_impl || m->metal_impl);
        for (int s = 1; s < GP_STOP_COUNT; s++) {
            bool on = m->stop_count[s] > 0;
            if (s == GP_STOP_CUSTOM_KERNELS && on && has_impl) on = false;
            m->stop[s] = on;
            bool cond = m->cond_count[s] > 0;
            if (s == GP_STOP_CUSTOM_KERNELS && cond && has_impl) cond = false;
            m->cond_stop[s] = cond && !on;
            if (on) {
                any_stop = true;
                if (!m->excluded) st->stop[s] = true;
            }
            if (m->cond_stop[s] && !m->excluded) st->cond_stop[s] = true;
        }
        if (any_stop) m->verdict = GP_VC_REWRITE;
        size_t errors = optional ? m->raw_errors : m->count[GP_SEV_ERROR];
        switch (m->verdict) {
        case GP_VC_PORTABLE:
            m->effort = "none";
            break;
        case GP_VC_ABSTRACTION:
            m->effort = errors == 0 && m->count[GP_SEV_WARNING] <= 20 ? "low" : "medium";
            break;
        case GP_VC_REWRITE:
            m->effort =
                any_stop || errors > 50 || (optional && m->cond_stop[GP_STOP_CUSTOM_KERNELS])
                    ? "high"
                    : "medium";
            break;
        }
        any_cuda |= m->cuda_impl;
        any_cpu |= m->cpu_impl;
        any_metal |= m->metal_impl;
        if (m->cuda_impl && m->cpu_impl && !m->metal_impl) m->remarks |= GP_REMARK_NO_MPS;
        if (m->excluded) continue; /* left out of the default build, or not the project's code */
        if (m->verdict > st->verdict) st->verdict = m->verdict;
        if (effort_rank(m->effort) > effort_rank(st->effort)) st->effort = m->effort;
    }
    /* a component whose Python code imports the project's CUDA extension without a fallback
     * needs what the CUDA parts need (a thin wrapper over `_C` is no portable package) */
    gp_audit_vclass cuda_v = GP_VC_PORTABLE;
    const char *cuda_effort = "none";
    for (size_t i = 0; i < st->nmods; i++) {
        const gp_audit_module *m = &st->mods[i];
        if (m->cuda_impl && !m->excluded && m->verdict > cuda_v) {
            cuda_v = m->verdict;
            cuda_effort = m->effort;
        }
    }
    for (size_t b = 0; b < st->nfiles && cuda_v > GP_VC_PORTABLE; b++) {
        if (!builds_cuda_ext(st, b, false)) continue;
        for (size_t f = 0; f < st->nfiles; f++) {
            gp_audit_module *m = &st->mods[st->files[f].comp];
            if (m->cuda_impl || m->verdict >= cuda_v || !file_imports_cuda_ext(st, b, f, false))
                continue;
            m->verdict = cuda_v;
            m->effort = cuda_effort;
            m->remarks |= GP_REMARK_WRAPS_EXT;
        }
    }
    /* the project runs its CUDA parts on the CPU on a Mac when it has no Metal/MPS code */
    if (any_cuda && any_cpu && !any_metal)
        for (size_t i = 0; i < st->nmods; i++)
            if (st->mods[i].cuda_impl) st->mods[i].remarks |= GP_REMARK_NO_MPS;
}

int gp_audit_resolve(gp_audit_state *st)
{
    resolve_ctx c;
    memset(&c, 0, sizeof c);
    c.st = st;
    int rc = -1;
    if (index_build(st, &c.ix) != 0 || compute_tops(st) != 0 || count_build_findings(&c) != 0)
        goto out;
    gate_cmake_folders(&c);
    gate_build_sources(&c);
    gate_jit_sources(&c);
    gate_headers(&c);
    resolve_imports(&c);
    if (assign_components(&c) != 0) goto out;
    pair_cpu_twins(&c);
    own_cuda_methods(st);
    if (count_findings(st) != 0) goto out;
    verdicts(st);
    rc = 0;
out:
    free(c.ix.slot);
    free(c.build_guarded);
    free(c.build_unguarded);
    free(c.import_blockers);
    return rc;
}

/* ---- words ---------------------------------------------------------------------------------- */

const char *gp_audit_verdict_name(gp_audit_vclass v)
{
    return gp_audit_vclass_name(v);
}

const char *gp_audit_role_name(gp_audit_role r)
{
    return r == GP_ROLE_CUDA_OPTIONAL ? "CUDA backend, optional"
           : r == GP_ROLE_SCRIPT      ? "program"
           : r == GP_ROLE_SUPPORT     ? "examples and tests"
                                      : NULL;
}

const char *gp_audit_stop_title_for(const gp_audit_state *st, gp_audit_stop s)
{
    if (s != GP_STOP_CUSTOM_KERNELS) return gp_audit_stop_title(s);
    bool elsewhere = false;
    for (size_t i = 0; i < st->nmods; i++)
        if (!st->mods[i].stop[s] && !st->mods[i].excluded &&
            (st->mods[i].cpu_impl || st->mods[i].metal_impl))
            elsewhere = true;
    return elsewhere ? "custom CUDA kernels in modules that have no CPU or Metal implementation "
                       "of their own (other modules do: see Components)"
                     : gp_audit_stop_title(s);
}

const char *gp_audit_cond_scope(const gp_audit_module *m, gp_audit_stop s)
{
    if (m->role == GP_ROLE_CUDA_OPTIONAL) return "only for the optional CUDA backend";
    if (m->cond_unreached[s] && m->cond_unreached[s] == m->cond_count[s])
        return "only in code that no entry point reaches (a library function, or unused)";
    if (s == GP_STOP_NCCL) return "only for multi-GPU training (the single-device path has none)";
    return "only on the guarded CUDA path";
}

bool gp_audit_rule_example(gp_audit_state *st, int rule, char *snip, size_t cap, unsigned *flags)
{
    gp_spool_rec r;
    bool ok = fseek(st->spool, st->rule_count[rule].spool_at, SEEK_SET) == 0 &&
              gp_spool_read(st->spool, &r, snip, cap) == 0;
    if (flags) *flags = ok ? r.flags : 0;
    return ok;
}

size_t gp_audit_top_rules(const gp_audit_state *st, int *out, size_t cap)
{
    size_t n = 0;
    for (int r = 0; r < GP_R_COUNT; r++) {
        if (!st->rule_count[r].n) continue;
        size_t k = n < cap ? n++ : cap;
        if (k == cap) {
            if (st->rule_count[r].n <= st->rule_count[out[cap - 1]].n) continue;
            k = cap - 1;
        }
        out[k] = r;
        /* keep the list sorted: most first, then by rule order */
        while (k > 0 && st->rule_count[out[k]].n > st->rule_count[out[k - 1]].n) {
            int t = out[k];
            out[k] = out[k - 1];
            out[k - 1] = t;
            k--;
        }
    }
    return n;
}

/* The order of the work: what stops an install, what stops an import or a build, the code
 * that has to be rewritten, then the device abstraction, then the notes. */
static int step_rank(int rule)
{
    switch (rule) {
    case GP_R_REQ_001:
    case GP_R_REQ_002:
    case GP_R_CONDA_001:
        return 0;
    case GP_R_PY_IMP_001:
    case GP_R_PY_TRITON_001:
    case GP_R_PY_EXT_001:
    case GP_R_PY_EXT_002:
    case GP_R_CMK_001:
    case GP_R_CMK_002:
    case GP_R_MK_001:
        return 1;
    case GP_R_PY_DEV_001:
    case GP_R_PY_DEV_002:
    case GP_R_PY_DEV_003:
    case GP_R_PY_AMP_001:
    case GP_R_PY_MEM_001:
    case GP_R_PY_DTYPE_001:
    case GP_R_DOCKER_001:
        return 3;
    default:
        return 2;
    }
}

/* The first module (the project's own before vendored ones) with stop s, or -1. */
static long stop_module(const gp_audit_state *st, int s, bool cond)
{
    long best = -1;
    for (size_t i = 0; i < st->nmods; i++) {
        const gp_audit_module *m = &st->mods[i];
        if (m->excluded || !(cond ? m->cond_stop[s] : m->stop[s])) continue;
        if (!gp_audit_path_vendored(st, m->path)) return (long)i;
        if (best < 0) best = (long)i;
    }
    return best;
}

void gp_audit_decided(const gp_audit_state *st, char *buf, size_t cap)
{
    for (int s = 1; s < GP_STOP_COUNT; s++) {
        if (!st->stop[s]) continue;
        long m = stop_module(st, s, false);
        if (m < 0) continue;
        const gp_stop_ev *ev = &st->mods[m].ev[s][0];
        char cell[24] = "";
        if (ev->cell) snprintf(cell, sizeof cell, "cell %u:", ev->cell);
        snprintf(buf, cap, "the stop condition %s (%s) in %s, e.g. %s:%s%u", gp_audit_stop_name(s),
                 gp_audit_stop_title(s), st->mods[m].path, gp_audit_path(st, ev->file), cell,
                 ev->line);
        return;
    }
    if (st->verdict > GP_VC_PORTABLE) {
        /* the rule that decided the worst component counted in the verdict */
        long best = -1;
        for (size_t i = 0; i < st->nmods; i++) {
            const gp_audit_module *m = &st->mods[i];
            if (m->excluded || m->verdict != st->verdict || m->decided_by < 0) continue;
            const gp_audit_module *b = best >= 0 ? &st->mods[best] : NULL;
            if (!b || m->decided_sev > b->decided_sev ||
                (m->decided_sev == b->decided_sev &&
                 st->rule_count[m->decided_by].n > st->rule_count[b->decided_by].n))
                best = (long)i;
        }
        if (best >= 0) {
            int r = st->mods[best].decided_by;
            const gp_rule_count *rc = &st->rule_count[r];
            /* counted in the project's own code where it has some (not the examples' too) */
            size_t n = rc->own_n ? rc->own_n : rc->n;
            uint32_t cl = rc->own_n ? rc->own_cell : rc->cell;
            char cell[24] = "";
            if (cl) snprintf(cell, sizeof cell, "cell %u:", cl);
            snprintf(buf, cap, "%s %s (%zu %s, e.g. %s:%s%u)", gp_audit_rule_get(r)->id,
                     gp_audit_rule_get(r)->name, n, n == 1 ? "finding" : "findings",
                     gp_audit_path(st, rc->own_n ? rc->own_file : rc->file), cell,
                     rc->own_n ? rc->own_line : rc->line);
            return;
        }
    }
    for (int s = 1; s < GP_STOP_COUNT; s++)
        if (st->cond_stop[s]) {
            long m = stop_module(st, s, true);
            snprintf(buf, cap, "nothing on the default path; %s holds %s", gp_audit_stop_name(s),
                     m >= 0 ? gp_audit_cond_scope(&st->mods[m], s) : "for one path only");
            return;
        }
    for (size_t i = 0; i < st->nmods; i++)
        if (st->mods[i].role == GP_ROLE_CUDA_OPTIONAL) {
            bool top = strcmp(st->mods[i].path, ".") == 0;
            snprintf(buf, cap, "nothing on the default build; the CUDA code is optional (%s%s%s)",
                     top ? "" : st->mods[i].path, top ? "" : ": ", st->mods[i].gate);
            return;
        }
    snprintf(buf, cap, "%s",
             st->count[GP_SEV_NOTE] ? "nothing but notes" : "no finding in the project's code");
}

/* What a path outside the project's own code is, in words ("an example", "vendored code"). */
static const char *outside_kind(const gp_audit_state *st, const char *p)
{
    if (gp_audit_path_vendored(st, p)) return "vendored code";
    size_t sd = support_dir(st, p);
    const char *w = p + sd;
    while (w > p && w[-1] != '/')
        w--;
    switch (w[0] | 0x20) {
    case 'e':
    case 's':
        return "an example";
    case 't':
        return (w[1] | 0x20) == 'u' ? "a tutorial" : "a test";
    case 'b':
        return "a benchmark";
    case 'n':
        return "a notebook";
    case 'd':
        return (w[1] | 0x20) == 'o' ? "documentation" : "a demo";
    default:
        return "not the project's own code";
    }
}

bool gp_audit_steps_outside(const gp_audit_state *st)
{
    bool any = false;
    for (int r = 0; r < GP_R_COUNT; r++) {
        const gp_rule_count *rc = &st->rule_count[r];
        if (!rc->n || rc->sev < GP_SEV_WARNING) continue;
        if (rc->own_n) return false;
        any = true;
    }
    for (int s = 1; s < GP_STOP_COUNT; s++)
        if (st->stop[s]) return false;
    for (size_t i = 0; i < st->nmods; i++)
        if (st->mods[i].role == GP_ROLE_CUDA_OPTIONAL) return false;
    return any;
}

/* A hard-coded 'cuda' that is only a default the command line changes: an argparse option's
 * `default="cuda"` (`parser.add_argument("--device", default="cuda")`), or a global that a
 * configurator the file runs overrides from `--name=value` arguments (`device = 'cuda'` before
 * `exec(open('configurator.py').read())`). Writes the option to give on a Mac ("--device mps")
 * from the rule's example; false when the example is no such default. */
static bool cli_device_option(const gp_audit_state *st, int rule, char *opt, size_t cap)
{
    gp_spool_rec r;
    char snip[512];
    if (fseek(st->spool, st->rule_count[rule].spool_at, SEEK_SET) != 0 ||
        gp_spool_read(st->spool, &r, snip, sizeof snip) != 0)
        return false;
    const char *call = strstr(snip, "add_argument(");
    if (call) {
        /* the option's long name (its first string that starts with "--"), else its first */
        const char *best = NULL;
        int bn = 0;
        for (const char *q = call; (q = strpbrk(q, "'\"")) != NULL;) {
            const char *e = strchr(q + 1, *q);
            if (!e) break;
            int len = (int)(e - q - 1);
            if (q[1] == '-' && len < 48 && strspn(q + 1, "-") < (size_t)len &&
                (!best || (best[1] != '-' && q[2] == '-'))) {
                best = q + 1;
                bn = len;
            }
            q = e + 1;
        }
        if (best) snprintf(opt, cap, "%.*s mps", bn, best);
        return best != NULL;
    }
    /* `name = 'cuda'` at the top of a file that runs a configurator */
    size_t n = strspn(snip, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    const char *q = snip + n;
    q += strspn(q, " ");
    if (n == 0 || n > 32 || *q != '=' || q[1] == '=') return false;
    size_t got;
    char *buf = read_head(gp_audit_path(st, r.file), 1 << 20, &got);
    if (!buf) return false;
    bool runs = false;
    for (const char *x = buf; !runs && (x = strstr(x, "exec(open(")) != NULL; x++) {
        const char *bol = x; /* a statement of its own, not a comment */
        while (bol > buf && (bol[-1] == ' ' || bol[-1] == '\t'))
            bol--;
        const char *nl = strchr(x, '\n');
        const char *c = strstr(x, "configurator");
        runs = (bol == buf || bol[-1] == '\n') && c && (!nl || c < nl);
    }
    free(buf);
    if (runs) snprintf(opt, cap, "--%.*s=mps", (int)n, snip);
    return runs;
}

size_t gp_audit_next_steps(const gp_audit_state *st, char lines[][400], size_t cap)
{
    size_t n = 0;
    bool stops = false;
    for (int s = 1; s < GP_STOP_COUNT; s++)
        stops |= st->stop[s];
    if (stops && n < cap)
        snprintf(lines[n++], 400,
                 "Decide on the stop conditions first: keep those modules on a Linux GPU, or plan "
                 "their rewrite before anything else.");
    /* errors and warnings by rank, each rule once, most findings first within a rank; the rules
     * with findings in the project's own code first (their example from it), then those found
     * only in examples, tests, docs, benchmarks or vendored code */
    for (int own = 1; own >= 0; own--) {
        for (int rank = 0; rank < 4 && n < cap; rank++) {
            int order[GP_R_COUNT];
            size_t k = 0;
            for (int r = 0; r < GP_R_COUNT; r++) {
                const gp_rule_count *rc = &st->rule_count[r];
                if (!rc->n || rc->sev < GP_SEV_WARNING || step_rank(r) != rank ||
                    (rc->own_n > 0) != own)
                    continue;
                size_t j = k++;
                order[j] = r;
                while (j > 0 && st->rule_count[order[j]].n > st->rule_count[order[j - 1]].n) {
                    int t = order[j];
                    order[j] = order[j - 1];
                    order[j - 1] = t;
                    j--;
                }
            }
            for (size_t i = 0; i < k && n < cap; i++) {
                const gp_audit_rule *ru = gp_audit_rule_get(order[i]);
                const gp_rule_count *rc = &st->rule_count[order[i]];
                uint32_t file = own ? rc->own_file : rc->file, line = own ? rc->own_line : rc->line,
                         cl = own ? rc->own_cell : rc->cell;
                char cell[24] = "";
                if (cl) snprintf(cell, sizeof cell, "cell %u:", cl);
                const char *path = gp_audit_path(st, file);
                char opt[64], fix[300];
                if (order[i] == GP_R_PY_DEV_002 && cli_device_option(st, order[i], opt, sizeof opt))
                    snprintf(fix, sizeof fix,
                             "the device is a command-line default: run with `%s` on a Mac; to "
                             "change the default, resolve it once (cuda, then mps, then cpu).",
                             opt);
                else
                    snprintf(fix, sizeof fix, "%s", ru->fix);
                snprintf(lines[n++], 400, "%s (%zu, e.g. %s:%s%u%s%s): %s", ru->name, rc->n, path,
                         cell, line, own ? "" : ", ", own ? "" : outside_kind(st, path), fix);
            }
        }
        if (own && n < cap) {
            bool optional = false;
            for (size_t i = 0; i < st->nmods; i++)
                optional |= st->mods[i].role == GP_ROLE_CUDA_OPTIONAL;
            if (optional)
                snprintf(lines[n++], 400,
                         "Build without the optional CUDA backend on the Mac (its default); move "
                         "it only if it is needed there.");
        }
    }
    if (n == 0 && cap)
        snprintf(lines[n++], 400,
                 "Nothing blocks a move: check the notes, then run the tests "
                 "on the Mac.");
    return n;
}
