/* match_win.c — see match.h: fnmatch's and glob's rules on Windows. Matching is by bytes and
 * case-sensitive, as on POSIX, so a pattern means the same on every machine; glob lists each
 * folder of a wildcard part with gp_dir_names and, like glob(3), skips names starting with '.'
 * unless the pattern part does too. */
#if defined(_WIN32)
#include "util/match.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/fs.h"
#include "util/strbuf.h"

static bool gp_is_sep(char c)
{
    return c == '/' || c == '\\';
}

/* One bracket expression at p (just after '['): sets *end past ']' and returns whether c is in
 * it; a '[' without its ']' is a plain character (*end = NULL). */
static bool gp_bracket(const char *p, char c, const char **end)
{
    bool negate = *p == '!' || *p == '^';
    if (negate) p++;
    bool in = false;
    const char *start = p;
    while (*p && (*p != ']' || p == start)) {
        char lo = *p;
        if (lo == '\\' && p[1]) lo = *++p;
        char hi = lo;
        if (p[1] == '-' && p[2] && p[2] != ']') {
            hi = p[2];
            p += 2;
        }
        if ((unsigned char)c >= (unsigned char)lo && (unsigned char)c <= (unsigned char)hi)
            in = true;
        p++;
    }
    if (*p != ']') {
        *end = NULL;
        return false;
    }
    *end = p + 1;
    return in != negate;
}

static bool gp_match(const char *p, const char *s, int flags)
{
    bool path = flags & GP_FNM_PATHNAME;
    while (*p) {
        switch (*p) {
        case '?':
            if (!*s || (path && gp_is_sep(*s))) return false;
            p++;
            s++;
            break;
        case '*': {
            while (*p == '*')
                p++;
            if (!*p) return !path || !strpbrk(s, "/\\");
            for (;; s++) {
                if (gp_match(p, s, flags)) return true;
                if (!*s || (path && gp_is_sep(*s))) return false;
            }
        }
        case '[': {
            const char *end;
            if (!*s || (path && gp_is_sep(*s))) return false;
            bool in = gp_bracket(p + 1, *s, &end);
            if (end) {
                if (!in) return false;
                p = end;
                s++;
                break;
            }
            if (*s != '[') return false;
            p++;
            s++;
            break;
        }
        case '\\':
            if (p[1]) p++;
            /* fall through */
        default:
            if (*p == '/' ? !gp_is_sep(*s) : *p != *s) return false;
            p++;
            s++;
        }
    }
    return *s == '\0';
}

int gp_fnmatch(const char *pattern, const char *string, int flags)
{
    return gp_match(pattern, string, flags) ? 0 : 1;
}

typedef struct gp_glob_list {
    char **v;
    size_t n, cap;
    bool failed;
} gp_glob_list;

static void gp_glob_add(gp_glob_list *l, const char *path)
{
    if (l->n == l->cap) {
        size_t c = l->cap ? 2 * l->cap : 16;
        char **g = realloc(l->v, c * sizeof *g);
        if (!g) {
            l->failed = true;
            return;
        }
        l->v = g;
        l->cap = c;
    }
    if (!(l->v[l->n] = _strdup(path)))
        l->failed = true;
    else
        l->n++;
}

/* Expands the pattern parts from `rest` on, below the existing folder `base` ("" for the
 * current folder). */
static void gp_glob_walk(gp_glob_list *l, const char *base, const char *rest)
{
    while (gp_is_sep(*rest))
        rest++;
    size_t len = strcspn(rest, "/\\");
    char part[1024];
    if (len >= sizeof part) return;
    memcpy(part, rest, len);
    part[len] = '\0';
    const char *next = rest + len;
    bool last = !*next || !next[strspn(next, "/\\")];
    gp_strbuf b = GP_STRBUF_INIT;
    if (!strpbrk(part, "*?[")) {
        /* a plain part: only whether it exists (backslash escapes dropped) */
        char plain[1024];
        size_t k = 0;
        for (const char *c = part; *c; c++)
            if (*c != '\\' || !c[1]) plain[k++] = *c;
        plain[k] = '\0';
        gp_strbuf_printf(&b, "%s%s%s", base, *base && !gp_is_sep(base[strlen(base) - 1]) ? "/" : "",
                         plain);
        if (last ? gp_path_exists(gp_strbuf_cstr(&b)) : gp_path_is_dir(gp_strbuf_cstr(&b))) {
            if (last)
                gp_glob_add(l, gp_strbuf_cstr(&b));
            else
                gp_glob_walk(l, gp_strbuf_cstr(&b), next);
        }
        gp_strbuf_free(&b);
        return;
    }
    char **names = NULL;
    size_t n = 0;
    char err[256];
    if (gp_dir_names(*base ? base : ".", &names, &n, err, sizeof err) != 0) return;
    for (size_t i = 0; i < n && !l->failed; i++) {
        if (names[i][0] == '.' && part[0] != '.') continue;
        if (!gp_match(part, names[i], GP_FNM_PATHNAME)) continue;
        b.len = 0;
        gp_strbuf_printf(&b, "%s%s%s", base, *base && !gp_is_sep(base[strlen(base) - 1]) ? "/" : "",
                         names[i]);
        if (last)
            gp_glob_add(l, gp_strbuf_cstr(&b));
        else if (gp_path_is_dir(gp_strbuf_cstr(&b)))
            gp_glob_walk(l, gp_strbuf_cstr(&b), next);
    }
    gp_strbuf_free(&b);
    gp_dir_names_free(names, n);
}

int gp_glob(const char *pattern, char ***paths, size_t *count)
{
    *paths = NULL;
    *count = 0;
    gp_glob_list l = {0};
    /* the root the pattern starts from: "C:/", "//server/share/", "/" or the current folder */
    char root[1024] = "";
    const char *rest = pattern;
    if (((pattern[0] | 0x20) >= 'a' && (pattern[0] | 0x20) <= 'z') && pattern[1] == ':') {
        size_t k = gp_is_sep(pattern[2]) ? 3 : 2;
        memcpy(root, pattern, k);
        root[k] = '\0';
        rest = pattern + k;
    } else if (gp_is_sep(pattern[0])) {
        root[0] = '/';
        root[1] = '\0';
        rest = pattern + 1;
    }
    if (!*rest) {
        if (*root && gp_path_exists(root)) gp_glob_add(&l, root);
    } else {
        gp_glob_walk(&l, root, rest);
    }
    if (l.failed) {
        gp_glob_free(l.v, l.n);
        return -1;
    }
    if (l.n) qsort(l.v, l.n, sizeof *l.v, gp_dir_name_cmp);
    *paths = l.v;
    *count = l.n;
    return 0;
}

void gp_glob_free(char **paths, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(paths[i]);
    free(paths);
}
#endif
