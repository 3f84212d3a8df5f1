/* signature.c — reads the kernels' signatures from the dialect source itself: every
 * GP_KERNEL(name, GP_BUF(T, a), ...) declaration gives the kernel's name and, per parameter, its
 * kind, type and name; the runtime checks launch arguments against these on every backend. The
 * source is hostile input: lengths are bounded and errors name the file and line. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core.h"

#define GP_SIG_MAX_KERNELS 256

/* A copy of the source with comments and string/char literals blanked (newlines kept). */
static char *gp_sig_clean(const char *src, size_t len)
{
    char *c = malloc(len + 1);
    if (!c) return NULL;
    size_t i = 0;
    while (i < len) {
        char ch = src[i];
        if (ch == '/' && i + 1 < len && src[i + 1] == '/') {
            while (i < len && src[i] != '\n')
                c[i++] = ' ';
        } else if (ch == '/' && i + 1 < len && src[i + 1] == '*') {
            c[i++] = ' ';
            c[i++] = ' ';
            while (i < len && !(src[i] == '*' && i + 1 < len && src[i + 1] == '/')) {
                c[i] = src[i] == '\n' ? '\n' : ' ';
                i++;
            }
            if (i < len) c[i++] = ' ';
            if (i < len) c[i++] = ' ';
        } else if (ch == '"' || ch == '\'') {
            c[i++] = ' ';
            while (i < len && src[i] != ch && src[i] != '\n') {
                if (src[i] == '\\' && i + 1 < len) c[i++] = ' ';
                c[i++] = ' ';
            }
            if (i < len) {
                c[i] = src[i] == '\n' ? '\n' : ' ';
                i++;
            }
        } else {
            c[i] = ch == '\0' ? ' ' : ch;
            i++;
        }
    }
    c[len] = '\0';
    return c;
}

static int gp_is_ident(int ch)
{
    return isalnum(ch) || ch == '_';
}

static int gp_line_of(const char *c, size_t pos)
{
    int line = 1;
    for (size_t i = 0; i < pos; i++)
        if (c[i] == '\n') line++;
    return line;
}

/* Is `pos` on a preprocessor line (#define GP_KERNEL... is not a declaration)? */
static bool gp_on_directive(const char *c, size_t pos)
{
    size_t i = pos;
    while (i > 0 && c[i - 1] != '\n')
        i--;
    while (c[i] == ' ' || c[i] == '\t')
        i++;
    return c[i] == '#';
}

/* Trims spaces and collapses inner runs to one space, into dst. */
static void gp_norm(char *dst, size_t cap, const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    size_t o = 0;
    for (size_t i = 0; i < n && o + 1 < cap; i++) {
        if (isspace((unsigned char)s[i])) {
            if (o && dst[o - 1] != ' ') dst[o++] = ' ';
        } else {
            dst[o++] = s[i];
        }
    }
    dst[o] = '\0';
}

static bool gp_valid_ident(const char *s)
{
    if (!*s || isdigit((unsigned char)*s)) return false;
    for (; *s; s++)
        if (!gp_is_ident((unsigned char)*s)) return false;
    return true;
}

uint32_t gp_signature_type_size(const char *t)
{
    static const struct {
        const char *name;
        uint32_t size;
    } known[] = {
        {"char", 1},       {"signed char", 1}, {"unsigned char", 1}, {"uchar", 1},
        {"int8_t", 1},     {"uint8_t", 1},     {"short", 2},         {"unsigned short", 2},
        {"ushort", 2},     {"int16_t", 2},     {"uint16_t", 2},      {"gp_half", 2},
        {"gp_bf16", 2},    {"int", 4},         {"unsigned", 4},      {"unsigned int", 4},
        {"uint", 4},       {"int32_t", 4},     {"uint32_t", 4},      {"float", 4},
        {"int64_t", 8},    {"uint64_t", 8},    {"long long", 8},     {"unsigned long long", 8},
        {"ulong", 8},      {"double", 8},      {"gp_float2", 8},     {"gp_int2", 8},
        {"gp_float4", 16}, {"gp_int4", 16},
    };
    if (!strncmp(t, "const ", 6)) t += 6;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(t, known[i].name)) return known[i].size;
    static const struct {
        const char *name;
        uint32_t size;
    } vectors[] = {
        {"gp_char2", 2},        {"gp_uchar2", 2},        {"gp_char4", 4},
        {"gp_uchar4", 4},       {"gp_short2", 4},        {"gp_ushort2", 4},
        {"gp_short4", 8},       {"gp_ushort4", 8},       {"gp_half2", 4},
        {"gp_uint2", 8},        {"gp_uint4", 16},        {"gp_long2", 16},
        {"gp_ulong2", 16},      {"gp_long4", 32},        {"gp_ulong4", 32},
        {"gp_double2", 16},     {"gp_double4", 32},      {"gp_packed_float3", 12},
        {"gp_packed_int3", 12}, {"gp_packed_uint3", 12}, {"gp_packed_uchar3", 3},
    };
    for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++)
        if (!strcmp(t, vectors[i].name)) return vectors[i].size;
    return 0;
}

/* A type named by a build define (-DREAL=float) takes the define's value. */
static uint32_t gp_sig_size(const char *t, const char *const *defs, uint32_t ndefs)
{
    uint32_t s = gp_signature_type_size(t);
    if (s) return s;
    size_t n = strlen(t);
    for (uint32_t i = 0; i < ndefs; i++) {
        if (defs[i] && !strncmp(defs[i], t, n) && defs[i][n] == '=') {
            char v[64];
            gp_norm(v, sizeof v, defs[i] + n + 1, strlen(defs[i] + n + 1));
            return gp_signature_type_size(v);
        }
    }
    return 0;
}

/* Splits c[start, end) at top-level commas; returns the count (at most max). */
static int gp_split(const char *c, size_t start, size_t end, size_t *from, size_t *to, int max)
{
    int n = 0, depth = 0;
    size_t s = start;
    for (size_t i = start; i <= end; i++) {
        if (i == end || (c[i] == ',' && depth == 0)) {
            if (n == max) return max + 1;
            from[n] = s;
            to[n] = i;
            n++;
            s = i + 1;
        } else if (c[i] == '(') {
            depth++;
        } else if (c[i] == ')') {
            depth--;
        }
    }
    return n;
}

static gp_status gp_sig_param(const char *c, size_t a, size_t b, const char *name, int line,
                              const char *const *defs, uint32_t ndefs, gp_arg_info *out)
{
    char text[256];
    gp_norm(text, sizeof text, c + a, b - a);
    static const struct {
        const char *macro;
        gp_arg_kind kind;
    } kinds[] = {{"GP_BUF", GP_ARG_BUFFER},
                 {"GP_CBUF", GP_ARG_CONST_BUFFER},
                 {"GP_VAL", GP_ARG_VALUE},
                 {"GP_DYN_SHARED", GP_ARG_DYN_SHARED}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t ml = strlen(kinds[k].macro);
        if (strncmp(text, kinds[k].macro, ml) != 0) continue;
        const char *p = text + ml;
        while (*p == ' ')
            p++;
        if (*p != '(') break;
        const char *close = strrchr(p, ')');
        const char *comma = strrchr(p, ',');
        if (!close || close[1] != '\0' || !comma || comma > close) break;
        memset(out, 0, sizeof *out);
        out->kind = kinds[k].kind;
        gp_norm(out->type_name, sizeof out->type_name, p + 1, (size_t)(comma - p - 1));
        gp_norm(out->name, sizeof out->name, comma + 1, (size_t)(close - comma - 1));
        if (!out->type_name[0] || !gp_valid_ident(out->name)) break;
        out->size = gp_sig_size(out->type_name, defs, ndefs);
        return GP_OK;
    }
    return gp_error_set(GP_ERR_BUILD,
                        "%s:%d: kernel parameter '%s' is not GP_BUF(T, name), GP_CBUF(T, name), "
                        "GP_VAL(T, name) or GP_DYN_SHARED(T, name)",
                        name, line, text);
}

/* Parses one GP_KERNEL(...) whose '(' is at c[open]; *end receives the index after ')'. */
static gp_status gp_sig_one(const char *c, size_t len, size_t open, const char *sname,
                            const char *const *defs, uint32_t ndefs, gp_kernel_sig *k, size_t *end)
{
    int line = gp_line_of(c, open);
    int depth = 0;
    size_t close = open;
    for (; close < len; close++) {
        if (c[close] == '(') depth++;
        if (c[close] == ')' && --depth == 0) break;
    }
    if (close >= len)
        return gp_error_set(GP_ERR_BUILD, "%s:%d: GP_KERNEL( is never closed", sname, line);
    size_t from[GP_MAX_KERNEL_ARGS + 2] = {0}, to[GP_MAX_KERNEL_ARGS + 2] = {0};
    int n = gp_split(c, open + 1, close, from, to, GP_MAX_KERNEL_ARGS + 1);
    if (n > GP_MAX_KERNEL_ARGS + 1)
        return gp_error_set(GP_ERR_BUILD, "%s:%d: a kernel takes at most %d parameters", sname,
                            line, GP_MAX_KERNEL_ARGS);
    memset(k, 0, sizeof *k);
    gp_norm(k->name, sizeof k->name, c + from[0], to[0] - from[0]);
    if (!gp_valid_ident(k->name))
        return gp_error_set(GP_ERR_BUILD, "%s:%d: GP_KERNEL needs a kernel name first, got '%s'",
                            sname, line, k->name);
    if (n == 2 && to[1] == from[1]) n = 1; /* GP_KERNEL(name, ) is not a parameter */
    int dyn = 0;
    for (int i = 1; i < n; i++) {
        gp_status st = gp_sig_param(c, from[i], to[i], sname, gp_line_of(c, from[i]), defs, ndefs,
                                    &k->args[i - 1]);
        if (st != GP_OK) return st;
        if (k->args[i - 1].kind == GP_ARG_DYN_SHARED && ++dyn > 1)
            return gp_error_set(GP_ERR_BUILD,
                                "%s:%d: kernel '%s' has more than one GP_DYN_SHARED parameter "
                                "(a group has one dynamic shared block)",
                                sname, line, k->name);
    }
    k->num_args = (uint32_t)(n - 1);
    *end = close + 1;
    return GP_OK;
}

/* From c[pos] (after the declaration), finds the body {...}; returns [b, e) or false. */
static bool gp_sig_body(const char *c, size_t len, size_t pos, size_t *b, size_t *e)
{
    while (pos < len && isspace((unsigned char)c[pos]))
        pos++;
    if (pos >= len || c[pos] != '{') return false;
    int depth = 0;
    for (size_t i = pos; i < len; i++) {
        if (c[i] == '{') depth++;
        if (c[i] == '}' && --depth == 0) {
            *b = pos;
            *e = i + 1;
            return true;
        }
    }
    return false;
}

/* The first whole-word occurrence of w[0, n) in c[b, e): its offset, or e. */
static size_t gp_find_slice(const char *c, size_t b, size_t e, const char *w, size_t n)
{
    for (size_t i = b; i + n <= e; i++)
        if (c[i] == w[0] && memcmp(c + i, w, n) == 0 &&
            (i == 0 || !gp_is_ident((unsigned char)c[i - 1])) &&
            (i + n >= e || !gp_is_ident((unsigned char)c[i + n])))
            return i;
    return e;
}

static bool gp_has_word(const char *c, size_t b, size_t e, const char *w)
{
    return gp_find_slice(c, b, e, w, strlen(w)) < e;
}

/* Whether c[b, e) names w at least once and every time as `w[`: a body that only indexes a
 * buffer parameter (no test against 0, no pointer passed on) dereferences a null one. */
static bool gp_indexed_only(const char *c, size_t b, size_t e, const char *w)
{
    size_t n = strlen(w), uses = 0;
    for (size_t i = gp_find_slice(c, b, e, w, n); i < e; i = gp_find_slice(c, i + n, e, w, n)) {
        size_t j = i + n;
        while (j < e && isspace((unsigned char)c[j]))
            j++;
        if (j >= e || c[j] != '[') return false;
        uses++;
    }
    return uses > 0;
}

/* The SIMD-group operations that make the work-items of a group meet (gp_simd_lane and
 * gp_simd_width are plain values). */
static const char *const gp_simd_ops[] = {
    "gp_simd_shuffle", "gp_simd_shuffle_xor", "gp_simd_shuffle_up", "gp_simd_shuffle_down",
    "gp_simd_ballot",  "gp_simd_any",         "gp_simd_all",        "gp_simd_barrier",
};

/* The first SIMD-group operation in c[b, e): its offset, or e when there is none. */
static size_t gp_find_simd_op(const char *c, size_t b, size_t e, const char **which)
{
    for (size_t i = b; i + 7 < e; i++) {
        if (c[i] != 'g' || memcmp(c + i, "gp_simd_", 8) != 0 ||
            (i && gp_is_ident((unsigned char)c[i - 1])))
            continue;
        size_t k = i;
        while (k < e && gp_is_ident((unsigned char)c[k]))
            k++;
        for (size_t j = 0; j < sizeof gp_simd_ops / sizeof *gp_simd_ops; j++)
            if (strlen(gp_simd_ops[j]) == k - i && !memcmp(c + i, gp_simd_ops[j], k - i)) {
                if (which) *which = gp_simd_ops[j];
                return i;
            }
        i = k;
    }
    return e;
}

/* GP_REQUIRES_SIMD_WIDTH(n): n in *width (0 when absent); a malformed one is a build error. */
static gp_status gp_simd_requirement(const char *c, size_t len, const char *source_name,
                                     uint32_t *width)
{
    static const char w[] = "GP_REQUIRES_SIMD_WIDTH";
    const size_t n = sizeof w - 1;
    *width = 0;
    for (size_t i = 0; i + n <= len; i++) {
        if (memcmp(c + i, w, n) != 0 || (i && gp_is_ident((unsigned char)c[i - 1])) ||
            (i + n < len && gp_is_ident((unsigned char)c[i + n])) || gp_on_directive(c, i))
            continue;
        size_t k = i + n;
        while (k < len && (c[k] == ' ' || c[k] == '\t'))
            k++;
        unsigned long v = 0;
        bool ok = k < len && c[k] == '(';
        size_t digits = 0;
        for (k++; ok && k < len && (c[k] == ' ' || c[k] == '\t');)
            k++;
        for (; ok && k < len && c[k] >= '0' && c[k] <= '9' && digits < 6; k++, digits++)
            v = v * 10 + (unsigned long)(c[k] - '0');
        while (ok && k < len && (c[k] == ' ' || c[k] == '\t'))
            k++;
        ok = ok && digits > 0 && k < len && c[k] == ')' && v > 0;
        if (!ok)
            return gp_error_set(
                GP_ERR_BUILD,
                "%s:%d: GP_REQUIRES_SIMD_WIDTH takes one positive decimal number of "
                "lanes, as in GP_REQUIRES_SIMD_WIDTH(32)",
                source_name, gp_line_of(c, i));
        if (*width && *width != v)
            return gp_error_set(GP_ERR_BUILD,
                                "%s:%d: GP_REQUIRES_SIMD_WIDTH(%lu) contradicts the earlier "
                                "GP_REQUIRES_SIMD_WIDTH(%u)",
                                source_name, gp_line_of(c, i), v, *width);
        *width = (uint32_t)v;
        i = k;
    }
    return GP_OK;
}

/* GP_REQUIRES_GROUP_SIZE(kernel, x, y, z): the group the kernel was written for (code translated
 * from CUDA whose shared-memory indices are apart only for that block shape). Each names a
 * kernel of the source; a malformed one, one naming no kernel, or two that disagree, is a build
 * error. */
static gp_status gp_group_requirements(const char *c, size_t len, const char *source_name,
                                       gp_kernel_sig *ks, uint32_t n)
{
    static const char w[] = "GP_REQUIRES_GROUP_SIZE";
    const size_t wn = sizeof w - 1;
    for (size_t i = 0; i + wn <= len; i++) {
        if (memcmp(c + i, w, wn) != 0 || (i && gp_is_ident((unsigned char)c[i - 1])) ||
            (i + wn < len && gp_is_ident((unsigned char)c[i + wn])) || gp_on_directive(c, i))
            continue;
        size_t k = i + wn;
        while (k < len && (c[k] == ' ' || c[k] == '\t'))
            k++;
        bool ok = k < len && c[k] == '(';
        for (k++; ok && k < len && (c[k] == ' ' || c[k] == '\t');)
            k++;
        size_t nb = k;
        while (ok && k < len && gp_is_ident((unsigned char)c[k]))
            k++;
        size_t nl = k - nb;
        unsigned long v[3] = {0, 0, 0};
        for (int d = 0; ok && d < 3; d++) {
            while (k < len && (c[k] == ' ' || c[k] == '\t'))
                k++;
            ok = k < len && c[k] == ',';
            for (k++; ok && k < len && (c[k] == ' ' || c[k] == '\t');)
                k++;
            size_t digits = 0;
            for (; ok && k < len && c[k] >= '0' && c[k] <= '9' && digits < 7; k++, digits++)
                v[d] = v[d] * 10 + (unsigned long)(c[k] - '0');
            ok = ok && digits > 0 && v[d] > 0;
        }
        while (ok && k < len && (c[k] == ' ' || c[k] == '\t'))
            k++;
        ok = ok && nl > 0 && k < len && c[k] == ')';
        if (!ok)
            return gp_error_set(GP_ERR_BUILD,
                                "%s:%d: GP_REQUIRES_GROUP_SIZE takes a kernel's name and three "
                                "positive decimal sizes, as in GP_REQUIRES_GROUP_SIZE(reduce, 256, "
                                "1, 1)",
                                source_name, gp_line_of(c, i));
        gp_kernel_sig *ksig = NULL;
        for (uint32_t j = 0; j < n && !ksig; j++)
            if (strlen(ks[j].name) == nl && memcmp(ks[j].name, c + nb, nl) == 0) ksig = &ks[j];
        if (!ksig)
            return gp_error_set(GP_ERR_BUILD,
                                "%s:%d: GP_REQUIRES_GROUP_SIZE names %.*s, which is no kernel of "
                                "this source",
                                source_name, gp_line_of(c, i), (int)(nl > 64 ? 64 : nl), c + nb);
        if (ksig->req_group[0] && (ksig->req_group[0] != v[0] || ksig->req_group[1] != v[1] ||
                                   ksig->req_group[2] != v[2]))
            return gp_error_set(GP_ERR_BUILD,
                                "%s:%d: GP_REQUIRES_GROUP_SIZE(%s, %lu, %lu, %lu) contradicts the "
                                "earlier (%u, %u, %u)",
                                source_name, gp_line_of(c, i), ksig->name, v[0], v[1], v[2],
                                ksig->req_group[0], ksig->req_group[1], ksig->req_group[2]);
        for (int d = 0; d < 3; d++)
            ksig->req_group[d] = (uint32_t)v[d];
        i = k;
    }
    return GP_OK;
}

/* `GP_SHARED float t[N];` compiles on every target but is private memory on the CPU and CUDA
 * (GP_SHARED is empty there): each work-item would silently compute on its own copy. Shared arrays
 * are declared with GP_SHARED_DECL; GP_SHARED qualifies pointers only. */
static gp_status gp_check_shared_arrays(const char *c, size_t len, const char *source_name)
{
    for (size_t i = 0; i + 9 <= len; i++) {
        if (memcmp(c + i, "GP_SHARED", 9) != 0 || (i && gp_is_ident((unsigned char)c[i - 1])) ||
            (i + 9 < len && gp_is_ident((unsigned char)c[i + 9])) || gp_on_directive(c, i))
            continue;
        bool star = false, bracket = false;
        for (size_t j = i + 9; j < len && !strchr(";,)={", c[j]); j++) {
            if (c[j] == '*') star = true;
            if (c[j] == '[') bracket = true;
        }
        if (bracket && !star)
            return gp_error_set(
                GP_ERR_BUILD,
                "%s:%d: an array declared GP_SHARED is per-work-item memory on the "
                "CPU and CUDA: declare shared arrays with GP_SHARED_DECL (GP_SHARED "
                "qualifies pointers to shared memory)",
                source_name, gp_line_of(c, i));
    }
    return GP_OK;
}

/* ---- which kernels reach a barrier or a SIMD-group operation ---------------------------------
 * Through their own body, or through a helper (a function defined outside the kernels) they call,
 * directly or through other helpers. Calls are found by name, so a kernel that mentions a
 * helper's name is taken to call it; an operation the scan cannot place in a named helper (on a
 * #define line, in a build define) counts for every kernel. */
typedef struct gp_span {
    size_t b, e;
} gp_span;

typedef struct gp_helper {
    gp_span name, body;
    bool barrier, simd;
} gp_helper;

/* The name of the function whose body opens at c[open], or false (not a function). */
static bool gp_helper_name(const char *c, size_t from, size_t open, gp_span *name)
{
    size_t j = open;
    while (j > from && isspace((unsigned char)c[j - 1]))
        j--;
    if (j == from || c[j - 1] != ')') return false;
    int depth = 0;
    size_t k = j;
    while (k > from) {
        k--;
        if (c[k] == ')') depth++;
        if (c[k] == '(' && --depth == 0) break;
    }
    if (depth != 0) return false;
    while (k > from && isspace((unsigned char)c[k - 1]))
        k--;
    size_t e = k;
    while (k > from && gp_is_ident((unsigned char)c[k - 1]))
        k--;
    if (k == e || isdigit((unsigned char)c[k])) return false;
    name->b = k;
    name->e = e;
    return true;
}

/* The functions defined in c[b, e) (text outside the kernels), appended to *hs. */
static bool gp_collect_helpers(const char *c, size_t b, size_t e, gp_helper **hs, size_t *n,
                               size_t *cap)
{
    for (size_t i = b; i < e; i++) {
        if (c[i] != '{') continue;
        int depth = 0;
        size_t close = e;
        for (size_t k = i; k < e; k++) {
            if (c[k] == '{') depth++;
            if (c[k] == '}' && --depth == 0) {
                close = k;
                break;
            }
        }
        gp_span name;
        if (gp_helper_name(c, b, i, &name)) {
            if (*n == *cap) {
                size_t nc = *cap ? 2 * *cap : 16;
                gp_helper *g = realloc(*hs, nc * sizeof *g);
                if (!g) return false;
                *hs = g;
                *cap = nc;
            }
            gp_helper *h = &(*hs)[(*n)++];
            h->name = name;
            h->body.b = i;
            h->body.e = close < e ? close + 1 : e;
            h->barrier = gp_has_word(c, h->body.b, h->body.e, "gp_barrier");
            h->simd = gp_find_simd_op(c, h->body.b, h->body.e, NULL) < h->body.e;
        }
        i = close < e ? close : e;
    }
    return true;
}

static bool gp_in_helper(const gp_helper *hs, size_t n, size_t at)
{
    for (size_t k = 0; k < n; k++)
        if (at >= hs[k].body.b && at < hs[k].body.e) return true;
    return false;
}

/* True when a barrier (simd = false) or SIMD-group operation outside the kernels lies in c[b, e)
 * but in no named helper. */
static bool gp_unplaced(const char *c, size_t b, size_t e, const gp_helper *hs, size_t n, bool simd)
{
    for (size_t at = b; at < e; at++) {
        at = simd ? gp_find_simd_op(c, at, e, NULL) : gp_find_slice(c, at, e, "gp_barrier", 10);
        if (at >= e) return false;
        if (!gp_in_helper(hs, n, at)) return true;
    }
    return false;
}

/* Whether c[b, e) calls (names) a helper that reaches a barrier / a SIMD-group operation. */
static bool gp_calls(const char *c, size_t b, size_t e, const gp_helper *hs, size_t n, bool simd)
{
    for (size_t k = 0; k < n; k++)
        if ((simd ? hs[k].simd : hs[k].barrier) &&
            gp_find_slice(c, b, e, c + hs[k].name.b, hs[k].name.e - hs[k].name.b) < e)
            return true;
    return false;
}

/* Helpers that call such helpers reach the barrier or operation too: to a fixed point. */
static void gp_propagate(const char *c, gp_helper *hs, size_t n)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t k = 0; k < n; k++) {
            if (!hs[k].barrier && gp_calls(c, hs[k].body.b, hs[k].body.e, hs, n, false))
                hs[k].barrier = changed = true;
            if (!hs[k].simd && gp_calls(c, hs[k].body.b, hs[k].body.e, hs, n, true))
                hs[k].simd = changed = true;
        }
    }
}

gp_status gp_signature_parse(const char *src, size_t len, const char *source_name,
                             const char *const *defines, uint32_t num_defines, gp_kernel_sig **out,
                             uint32_t *count, gp_source_needs *needs)
{
    *out = NULL;
    *count = 0;
    char *c = gp_sig_clean(src, len);
    uint32_t cap = 8;
    gp_kernel_sig *ks = calloc(cap, sizeof *ks);
    if (!c || !ks) {
        free(c);
        free(ks);
        return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory reading %s", source_name);
    }
    uint32_t n = 0;
    bool barrier_outside = false, simd_outside = false;
    size_t last_end = 0;
    gp_span *bodies = calloc(cap, sizeof *bodies), *outside = calloc(cap + 1, sizeof *outside);
    if (!bodies || !outside) {
        free(c), free(ks), free(bodies), free(outside);
        return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory reading %s", source_name);
    }
    gp_status st = gp_check_shared_arrays(c, len, source_name);
    for (size_t i = 0; i + 9 <= len && st == GP_OK;) {
        if (memcmp(c + i, "GP_KERNEL", 9) != 0 || (i && gp_is_ident((unsigned char)c[i - 1])) ||
            (i + 9 < len && gp_is_ident((unsigned char)c[i + 9])) || gp_on_directive(c, i)) {
            i++;
            continue;
        }
        size_t p = i + 9;
        while (p < len && isspace((unsigned char)c[p]))
            p++;
        if (p >= len || c[p] != '(') {
            i = p;
            continue;
        }
        if (n == GP_SIG_MAX_KERNELS) {
            st = gp_error_set(GP_ERR_BUILD, "%s: more than %d kernels in one program", source_name,
                              GP_SIG_MAX_KERNELS);
            break;
        }
        if (n == cap) {
            gp_kernel_sig *grown = realloc(ks, 2 * cap * sizeof *ks);
            gp_span *gb = grown ? realloc(bodies, 2 * cap * sizeof *gb) : NULL;
            gp_span *go = gb ? realloc(outside, (2 * cap + 1) * sizeof *go) : NULL;
            if (grown) ks = grown;
            if (gb) bodies = gb;
            if (go) outside = go;
            if (!go) {
                st = gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory reading %s",
                                  source_name);
                break;
            }
            cap *= 2;
        }
        outside[n] = (gp_span){last_end, i};
        size_t end = 0, bb = 0, be = 0;
        st = gp_sig_one(c, len, p, source_name, defines, num_defines, &ks[n], &end);
        if (st != GP_OK) break;
        for (uint32_t j = 0; j < n; j++)
            if (!strcmp(ks[j].name, ks[n].name))
                st = gp_error_set(GP_ERR_BUILD, "%s:%d: kernel '%s' is declared twice", source_name,
                                  gp_line_of(c, i), ks[n].name);
        bodies[n] = (gp_span){0, 0};
        ks[n].indexed_only = 0;
        if (gp_sig_body(c, len, end, &bb, &be)) {
            ks[n].uses_barrier = gp_has_word(c, bb, be, "gp_barrier");
            ks[n].uses_simd = gp_find_simd_op(c, bb, be, NULL) < be;
            for (uint32_t a = 0; a < ks[n].num_args; a++)
                if ((ks[n].args[a].kind == GP_ARG_BUFFER ||
                     ks[n].args[a].kind == GP_ARG_CONST_BUFFER) &&
                    gp_indexed_only(c, bb, be, ks[n].args[a].name))
                    ks[n].indexed_only |= 1u << a;
            bodies[n] = (gp_span){bb, be};
            end = be;
        }
        last_end = end;
        n++;
        i = end;
    }
    outside[n] = (gp_span){last_end, len};
    /* helpers: every function outside the kernels, and what each reaches */
    gp_helper *hs = NULL;
    size_t nh = 0, hcap = 0;
    for (uint32_t k = 0; st == GP_OK && k <= n; k++) {
        if (!gp_collect_helpers(c, outside[k].b, outside[k].e, &hs, &nh, &hcap))
            st = gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory reading %s", source_name);
        if (gp_unplaced(c, outside[k].b, outside[k].e, hs, nh, false)) barrier_outside = true;
        if (gp_unplaced(c, outside[k].b, outside[k].e, hs, nh, true)) simd_outside = true;
    }
    gp_propagate(c, hs, nh);
    for (uint32_t d = 0; st == GP_OK && d < num_defines; d++) { /* -DSYNC=gp_barrier() */
        size_t dl = defines[d] ? strlen(defines[d]) : 0;
        if (dl && gp_has_word(defines[d], 0, dl, "gp_barrier")) barrier_outside = true;
        if (dl && gp_find_simd_op(defines[d], 0, dl, NULL) < dl) simd_outside = true;
    }
    for (uint32_t j = 0; st == GP_OK && j < n; j++) {
        const gp_span *bd = &bodies[j];
        if (barrier_outside || gp_calls(c, bd->b, bd->e, hs, nh, false)) ks[j].uses_barrier = true;
        if (simd_outside || gp_calls(c, bd->b, bd->e, hs, nh, true)) ks[j].uses_simd = true;
    }
    free(hs);
    free(bodies);
    free(outside);
    gp_source_needs nd = {0};
    if (st == GP_OK) st = gp_simd_requirement(c, len, source_name, &nd.simd_width);
    if (st == GP_OK) st = gp_group_requirements(c, len, source_name, ks, n);
    if (st == GP_OK) {
        nd.fp64 = gp_has_word(c, 0, len, "GP_REQUIRES_FP64");
        nd.atomic64 = gp_has_word(c, 0, len, "GP_REQUIRES_ATOMIC64");
        const char *op = NULL;
        size_t at = gp_find_simd_op(c, 0, len, &op);
        if (at < len) {
            snprintf(nd.simd_op, sizeof nd.simd_op, "%s", op);
            nd.simd_line = gp_line_of(c, at);
        }
        for (uint32_t d = 0; !nd.simd_op[0] && d < num_defines; d++) {
            size_t dl = defines[d] ? strlen(defines[d]) : 0;
            if (gp_find_simd_op(defines[d], 0, dl, &op) < dl)
                snprintf(nd.simd_op, sizeof nd.simd_op, "%s", op);
        }
        if (needs) *needs = nd;
    }
    free(c);
    if (st != GP_OK) {
        free(ks);
        return st;
    }
    *out = ks;
    *count = n;
    return GP_OK;
}

/* ---- kernels gpuport translate left out ------------------------------------------------------ */
static const char *find_in(const char *p, const char *end, const char *what)
{
    size_t n = strlen(what);
    for (; p && (size_t)(end - p) >= n; p++)
        if (*p == what[0] && !memcmp(p, what, n)) return p;
    return NULL;
}

char *gp_untranslated_scan(const char *src, size_t len)
{
    static const char head[] = "kernel ", tail[] = " is not translated";
    const char *end = src + len, *p = src;
    gp_strbuf out = GP_STRBUF_INIT;
    while (src && (p = find_in(p, end, tail)) != NULL) {
        const char *after = p + strlen(tail), *n = p;
        while (n > src && p - n < 128 && (isalnum((unsigned char)n[-1]) || n[-1] == '_'))
            n--;
        bool named = n < p && (size_t)(n - src) >= strlen(head) &&
                     !memcmp(n - strlen(head), head, strlen(head));
        if (!named) {
            p = after;
            continue;
        }
        /* the reason: after ": " up to the comment's end, else the next GP_TODO("...") */
        const char *r = NULL, *re = NULL;
        static const char left[] = " and left out of the build: ";
        if (end - after >= 2 && after[0] == ':' && after[1] == ' ') {
            r = after + 2;
            re = find_in(r, end, "*/");
        } else if ((size_t)(end - after) > strlen(left) && !memcmp(after, left, strlen(left))) {
            r = after + strlen(left);
            re = memchr(r, '\n', (size_t)(end - r));
            if (!re) re = end;
        } else {
            const char *next = find_in(after, end, tail);
            const char *m = find_in(after, next ? next : end, "GP_TODO(\"");
            if (m) {
                r = m + 9;
                re = find_in(r, end, "\")");
            }
        }
        gp_strbuf_printf(&out, "%.*s\t", (int)(p - n), n);
        if (r && re && re > r) {
            for (const char *c = r; c < re && c - r < 400; c++)
                gp_strbuf_putc(&out, *c == '\n' || *c == '\t' || *c == '\r' ? ' ' : *c);
        } else {
            gp_strbuf_puts(&out, "its refusals are in gpuport translate's report");
        }
        gp_strbuf_putc(&out, '\n');
        p = after;
    }
    return out.len ? gp_strbuf_take(&out) : (gp_strbuf_free(&out), NULL);
}
