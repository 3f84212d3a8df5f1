/* walk.c — see walk.h. Depth-first with an explicit depth cap; memory is one sorted name list
 * per open directory level plus its .gitignore patterns. */
#include "audit/walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/match.h"

#define WALK_MAX_DEPTH 200
#define GITIGNORE_CAP  (1u << 20)

static const char *const default_excludes[] = {
    ".git",         ".hg",           ".svn",        ".bzr",
    "node_modules", "__pycache__",   ".tox",        ".nox",
    ".venv",        "venv",          ".eggs",       "*.egg-info",
    ".mypy_cache",  ".pytest_cache", ".ruff_cache", ".ipynb_checkpoints",
    "build",        "_build",        "dist",        "cmake-build-*",
    "CMakeFiles",   "site-packages", "third_party", "third-party",
    "3rdparty",     "thirdparty",    "vendor",      "vendored",
    "external",     "extern"};

const char *gp_module_kind_name(gp_module_kind k)
{
    return k == GP_MOD_PYTHON_PACKAGE ? "python-package"
           : k == GP_MOD_CMAKE        ? "cmake"
                                      : "directory";
}

typedef struct ig_pat {
    char *pat;
    bool neg, dir_only, anchored;
} ig_pat;

typedef struct walk_frame {
    char *path; /* display path of the directory */
    char *rel;  /* path relative to the root ("" for the root) */
    bool has_init, has_cmake;
    ig_pat *ig;
    size_t nig;
} walk_frame;

typedef struct walk_ctx {
    const gp_walk_opts *o;
    const gp_walk_cb *cb;
    char root_real[PATH_MAX];
    size_t root_real_len;
    walk_frame frames[WALK_MAX_DEPTH + 1];
    int depth;
    bool stop;
} walk_ctx;

/* Joins a display directory ("" for the current one) and a name. */
static char *pjoin(const char *dir, const char *name)
{
    return dir[0] ? gp_path_join(dir, name) : strdup(name);
}

static void load_gitignore(walk_frame *f)
{
    char *p = pjoin(f->path, ".gitignore");
    if (!p) return;
    char err[64];
    size_t len;
    char *text = gp_read_file(p, GITIGNORE_CAP, true, &len, err, sizeof err);
    free(p);
    if (!text) return;
    size_t cap = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        size_t n = strlen(line);
        while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == ' '))
            line[--n] = '\0';
        if (n == 0 || line[0] == '#') continue;
        ig_pat ip = {NULL, false, false, false};
        if (line[0] == '!') {
            ip.neg = true;
            line++;
            n--;
        }
        if (n > 0 && line[n - 1] == '/') {
            ip.dir_only = true;
            line[--n] = '\0';
        }
        if (n == 0) continue;
        ip.anchored = strchr(line, '/') != NULL;
        if (line[0] == '/') line++;
        if (f->nig == cap) {
            size_t nc = cap ? cap * 2 : 8;
            ig_pat *ni = realloc(f->ig, nc * sizeof *ni);
            if (!ni) break;
            f->ig = ni;
            cap = nc;
        }
        ip.pat = strdup(line);
        if (ip.pat) f->ig[f->nig++] = ip;
    }
    free(text);
}

/* fnmatch for a pattern with a double star in it: a "slash, two stars, slash" part matches one
 * or more folders through '*' crossing '/', and zero folders by trying the pattern with that
 * part cut to one slash. */
static bool glob_dirs(const char *pat, const char *s)
{
    if (gp_fnmatch(pat, s, 0) == 0) return true;
    const char *k = strstr(pat, "/**/");
    char buf[1024];
    size_t n = strlen(pat);
    if (!k || n >= sizeof buf) return false;
    size_t a = (size_t)(k - pat);
    memcpy(buf, pat, a);
    memcpy(buf + a, k + 3, n - a - 2); /* from the second '/' on, with the NUL */
    return glob_dirs(buf, s);
}

static bool ig_match(const ig_pat *p, const char *name, const char *rel_to_frame, bool is_dir)
{
    if (p->dir_only && !is_dir) return false;
    if (!p->anchored) return gp_fnmatch(p->pat, name, 0) == 0;
    const char *pat = p->pat;
    if (!strstr(pat, "**")) return gp_fnmatch(pat, rel_to_frame, GP_FNM_PATHNAME) == 0;
    if (strncmp(pat, "**/", 3) == 0 && glob_dirs(pat + 3, name)) return true;
    return glob_dirs(pat, rel_to_frame);
}

/* .gitignore verdict for an entry: the last matching pattern of the deepest file wins. */
static bool gitignored(walk_ctx *w, const char *rel, const char *name, bool is_dir)
{
    bool ignored = false;
    for (int d = 0; d <= w->depth; d++) {
        walk_frame *f = &w->frames[d];
        size_t fl = strlen(f->rel);
        const char *sub = fl == 0 ? rel : rel + fl + 1;
        for (size_t i = 0; i < f->nig; i++)
            if (ig_match(&f->ig[i], name, sub, is_dir)) ignored = !f->ig[i].neg;
    }
    return ignored;
}

static bool excluded(walk_ctx *w, const char *name, const char *rel, bool is_dir)
{
    if (is_dir && !w->o->no_default_excludes)
        for (size_t i = 0; i < sizeof default_excludes / sizeof default_excludes[0]; i++)
            if (gp_fnmatch(default_excludes[i], name, 0) == 0) return true;
    for (size_t i = 0; i < w->o->nexcludes; i++)
        if (gp_fnmatch(w->o->excludes[i], name, 0) == 0 ||
            gp_fnmatch(w->o->excludes[i], rel, GP_FNM_PATHNAME) == 0)
            return true;
    if (w->o->respect_gitignore && gitignored(w, rel, name, is_dir)) return true;
    return false;
}

static void module_of(walk_ctx *w, const char **path, gp_module_kind *kind)
{
    walk_frame *fr = w->frames;
    int d = w->depth;
    if (fr[d].has_init) {
        while (d > 0 && fr[d - 1].has_init)
            d--;
        *path = fr[d].path;
        *kind = GP_MOD_PYTHON_PACKAGE;
        return;
    }
    for (int k = d; k >= 0; k--)
        if (fr[k].has_cmake) {
            *path = fr[k].path;
            *kind = GP_MOD_CMAKE;
            return;
        }
    *path = fr[d > 0 ? 1 : 0].path;
    *kind = GP_MOD_DIRECTORY;
}

static bool inside_root(walk_ctx *w, const char *real)
{
    size_t n = w->root_real_len;
    return strncmp(real, w->root_real, n) == 0 && (real[n] == '/' || real[n] == '\0' || n == 1);
}

static void emit_file(walk_ctx *w, const char *path, const char *name)
{
    gp_audit_lang lang = gp_audit_lang_of(name);
    if (lang == GP_AL_NONE) {
        if (w->cb->other) w->cb->other(w->cb->ctx);
        return;
    }
    gp_walk_file f = {path, lang, NULL, GP_MOD_DIRECTORY, false};
    module_of(w, &f.module, &f.module_kind);
    if (w->cb->file(w->cb->ctx, &f) != 0) w->stop = true;
}

static void walk_dir(walk_ctx *w);

static void visit(walk_ctx *w, int dfd, const char *name, unsigned char dtype)
{
    walk_frame *f = &w->frames[w->depth];
    char *path = pjoin(f->path, name);
    char *rel = pjoin(f->rel, name);
    if (!path || !rel) goto out;
    struct stat st;
    int kind = dtype == DT_DIR ? 'd' : dtype == DT_REG ? 'f' : dtype == DT_LNK ? 'l' : 0;
    if (!kind) {
        if (gp_stat_entry(dfd, name, path, &st) != 0) {
            w->cb->problem(w->cb->ctx, path, strerror(errno));
            goto out;
        }
        kind = S_ISDIR(st.st_mode)   ? 'd'
               : S_ISREG(st.st_mode) ? 'f'
               : S_ISLNK(st.st_mode) ? 'l'
                                     : 'o';
    }
    if (kind == 'l') {
        char real[PATH_MAX];
        if (!realpath(path, real)) {
            w->cb->problem(w->cb->ctx, path,
                           errno == ELOOP ? "symlink loop: not followed" : "broken symlink");
            goto out;
        }
        if (!inside_root(w, real)) {
            w->cb->problem(w->cb->ctx, path,
                           "symlink points outside the scanned tree: not followed");
            goto out;
        }
        if (stat(real, &st) != 0 || S_ISDIR(st.st_mode)) goto out; /* the target is walked itself */
        if (!S_ISREG(st.st_mode)) goto out;
        if (!excluded(w, name, rel, false)) emit_file(w, path, name);
        goto out;
    }
    if (kind == 'd') {
        if (excluded(w, name, rel, true)) goto out;
        if (w->depth >= WALK_MAX_DEPTH) {
            w->cb->problem(w->cb->ctx, path, "directory nesting too deep: not entered");
            goto out;
        }
        walk_frame *nf = &w->frames[w->depth + 1];
        memset(nf, 0, sizeof *nf);
        nf->path = path;
        nf->rel = rel;
        path = rel = NULL;
        w->depth++;
        walk_dir(w);
        w->depth--;
        for (size_t i = 0; i < nf->nig; i++)
            free(nf->ig[i].pat);
        free(nf->ig);
        free(nf->path);
        free(nf->rel);
        goto out;
    }
    if (kind == 'f' && !excluded(w, name, rel, false)) emit_file(w, path, name);
out:
    free(path);
    free(rel);
}

typedef struct dent {
    char *name;
    unsigned char type;
} dent;

static int dent_cmp(const void *a, const void *b)
{
    return strcmp(((const dent *)a)->name, ((const dent *)b)->name);
}

static void walk_dir(walk_ctx *w)
{
    walk_frame *f = &w->frames[w->depth];
    DIR *dir = opendir(f->path[0] ? f->path : ".");
    if (!dir) {
        w->cb->problem(w->cb->ctx, f->path, strerror(errno));
        return;
    }
    dent *ents = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            dent *ne = realloc(ents, nc * sizeof *ne);
            if (!ne) break;
            ents = ne;
            cap = nc;
        }
        ents[n].name = strdup(de->d_name);
        ents[n].type = GP_DIRENT_TYPE(de);
        if (ents[n].name) n++;
        if (strcmp(de->d_name, "__init__.py") == 0) f->has_init = true;
        if (strcmp(de->d_name, "CMakeLists.txt") == 0) f->has_cmake = true;
    }
    int dfd = dirfd(dir);
    qsort(ents, n, sizeof *ents, dent_cmp);
    if (w->o->respect_gitignore) load_gitignore(f);
    for (size_t i = 0; i < n && !w->stop; i++)
        visit(w, dfd, ents[i].name, ents[i].type);
    for (size_t i = 0; i < n; i++)
        free(ents[i].name);
    free(ents);
    closedir(dir);
}

int gp_audit_walk(const char *root, const gp_walk_opts *o, const gp_walk_cb *cb, char *err,
                  size_t errlen)
{
    struct stat st;
    if (stat(root, &st) != 0) {
        snprintf(err, errlen, "%s: %s", root, strerror(errno));
        return -1;
    }
    walk_ctx *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "%s: out of memory", root);
        return -1;
    }
    w->o = o;
    w->cb = cb;
    if (!realpath(root, w->root_real)) {
        snprintf(err, errlen, "%s: %s", root, strerror(errno));
        free(w);
        return -1;
    }
    w->root_real_len = strlen(w->root_real);
    /* display paths: "." is dropped ("src/x.py"), anything else is kept as given */
    size_t rl = strlen(root);
    while (rl > 1 && root[rl - 1] == '/')
        rl--;
    char *disp = strcmp(root, ".") == 0 || strcmp(root, "./") == 0 ? strdup("") : strndup(root, rl);
    int rc = 0;
    if (!S_ISDIR(st.st_mode)) {
        w->frames[0].path = disp;
        w->frames[0].rel = strdup("");
        const char *slash = strrchr(root, '/');
        const char *name = slash ? slash + 1 : root;
        gp_walk_file f = {disp, gp_audit_lang_of(name), ".", GP_MOD_DIRECTORY, true};
        if (!S_ISREG(st.st_mode)) {
            snprintf(err, errlen, "%s: is %s, not a regular file or a directory", root,
                     gp_file_kind(st.st_mode));
            rc = -1;
        } else if (f.lang == GP_AL_NONE) {
            if (cb->other) cb->other(cb->ctx);
        } else {
            cb->file(cb->ctx, &f);
        }
        free(w->frames[0].rel);
        free(disp);
        free(w);
        return rc;
    }
    if (access(root, R_OK | X_OK) != 0) {
        snprintf(err, errlen, "%s: %s", root, strerror(errno));
        free(disp);
        free(w);
        return -1;
    }
    w->frames[0].path = disp;
    w->frames[0].rel = strdup("");
    walk_dir(w);
    for (size_t i = 0; i < w->frames[0].nig; i++)
        free(w->frames[0].ig[i].pat);
    free(w->frames[0].ig);
    free(w->frames[0].path);
    free(w->frames[0].rel);
    free(w);
    return rc;
}
