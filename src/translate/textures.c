/* textures.c — CUDA texture objects in kernels, as buffers the translation samples itself.
 *
 * A kernel parameter `cudaTextureObject_t tex` read only by tex1Dfetch<T>, tex1D<T> and tex2D<T>
 * becomes the texture's data and size (`const T *tex, int tex_w[, int tex_h]`: a buffer of
 * tex_w x tex_h elements, rows not padded), and each fetch a call of a device function written
 * here for the sampling the host's cudaTextureDesc sets in the same file (filter mode, address
 * modes, normalized coordinates): point sampling of any element type, linear filtering of float,
 * float2 and float4 (the weights in CUDA's 8-bit fixed point). This is done on the tokens before
 * the file is parsed, so the helpers are translated like the file's own device functions. What
 * the pass cannot follow (a texture passed on, a 3-D or layered fetch, two descriptions that
 * disagree, normalized-float reads) is left as it was, and refused where it is parsed. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/ast.h"

enum { TX_POINT = 0, TX_LINEAR = 1 };
enum { AM_WRAP = 0, AM_CLAMP = 1, AM_MIRROR = 2, AM_BORDER = 3 };
enum { MAX_TEX_PARAMS = 8, MAX_HELPERS = 32, MAX_KERNELS = 64 };

/* What the file's cudaTextureDesc assignments say (zero-initialised: CUDA's defaults). */
typedef struct tex_desc {
    bool present; /* the file names cudaTextureDesc */
    bool file;    /* the file's descriptions (all alike), not the launched texture's */
    int filter, norm, read, addr[3];
    char why[200]; /* non-empty: the sampling cannot be read (why) */
} tex_desc;

static bool is(const tr_token *t, const char *s)
{
    return !strcmp(t->text, s);
}

static void desc_set(tex_desc *d, int *field, bool *seen, int v, const tr_token *at,
                     const char *name)
{
    if (*seen && *field != v && !d->why[0])
        snprintf(d->why, sizeof d->why,
                 "the file's texture descriptions set %s differently (line %d), and which "
                 "texture uses which is not followed",
                 name, at->line);
    *field = v;
    *seen = true;
}

/* The sampling the file's `desc.filterMode = ...;` (and the other fields) set. */
static void read_desc(const tr_token *t, size_t n, tex_desc *d)
{
    memset(d, 0, sizeof *d);
    bool seen[6] = {false};
    for (size_t i = 0; i + 1 < n; i++) {
        if (t[i].kind == TR_IDENT && is(&t[i], "cudaTextureDesc")) d->present = true;
        if (!(is(&t[i], ".") || is(&t[i], "->")) || t[i + 1].kind != TR_IDENT) continue;
        const char *f = t[i + 1].text;
        int slot = !strcmp(f, "filterMode")         ? 0
                   : !strcmp(f, "normalizedCoords") ? 1
                   : !strcmp(f, "readMode")         ? 2
                   : !strcmp(f, "addressMode")      ? 3
                                                    : -1;
        if (slot < 0) continue;
        size_t k = i + 2;
        int dim = 0;
        if (slot == 3) {
            if (k + 2 >= n || !is(&t[k], "[") || t[k + 1].kind != TR_NUMBER || !is(&t[k + 2], "]"))
                continue;
            dim = atoi(t[k + 1].text);
            k += 3;
            if (dim < 0 || dim > 2) continue;
        }
        if (k + 2 >= n || !is(&t[k], "=")) continue; /* read, not set */
        const char *v = t[k + 1].text;
        int val = -1;
        if (slot == 0)
            val = !strcmp(v, "cudaFilterModePoint") || !strcmp(v, "0")    ? TX_POINT
                  : !strcmp(v, "cudaFilterModeLinear") || !strcmp(v, "1") ? TX_LINEAR
                                                                          : -1;
        else if (slot == 1)
            val = !strcmp(v, "true") || !strcmp(v, "1")    ? 1
                  : !strcmp(v, "false") || !strcmp(v, "0") ? 0
                                                           : -1;
        else if (slot == 2)
            val = !strcmp(v, "cudaReadModeElementType")       ? 0
                  : !strcmp(v, "cudaReadModeNormalizedFloat") ? 1
                                                              : -1;
        else
            val = !strcmp(v, "cudaAddressModeWrap")     ? AM_WRAP
                  : !strcmp(v, "cudaAddressModeClamp")  ? AM_CLAMP
                  : !strcmp(v, "cudaAddressModeMirror") ? AM_MIRROR
                  : !strcmp(v, "cudaAddressModeBorder") ? AM_BORDER
                                                        : -1;
        if (val < 0 || !is(&t[k + 2], ";")) {
            if (!d->why[0])
                snprintf(d->why, sizeof d->why,
                         "the host sets the texture's %s from an expression (line %d) the "
                         "translation does not evaluate",
                         f, t[i].line);
            continue;
        }
        if (slot == 0) desc_set(d, &d->filter, &seen[0], val, &t[i], f);
        if (slot == 1) desc_set(d, &d->norm, &seen[1], val, &t[i], f);
        if (slot == 2) desc_set(d, &d->read, &seen[2], val, &t[i], f);
        if (slot == 3) desc_set(d, &d->addr[dim], &seen[3 + dim], val, &t[i], "addressMode");
    }
}

/* Whether the statement at t[i] runs under a condition: after `if (...)`/`else` with no braces,
 * or in a block that an if, a loop, a switch, an else or a do opens. */
static bool conditional_at(const tr_token *t, size_t i)
{
    if (i == 0) return false;
    if (is(&t[i - 1], ")") || is(&t[i - 1], "else") || is(&t[i - 1], ":")) return true;
    int depth = 0;
    size_t j = i;
    while (j-- > 0) { /* the block around it */
        if (is(&t[j], "}")) depth++;
        if (is(&t[j], "{") && depth-- == 0) break;
    }
    if (j == (size_t)-1 || j == 0) return false;
    if (is(&t[j - 1], "else") || is(&t[j - 1], "do")) return true;
    if (!is(&t[j - 1], ")")) return false;
    depth = 0;
    size_t k = j - 1;
    while (k-- > 0) { /* the '(' of the ')' before it */
        if (is(&t[k], ")")) depth++;
        if (is(&t[k], "(") && depth-- == 0) break;
    }
    return k != (size_t)-1 && k > 0 &&
           (is(&t[k - 1], "if") || is(&t[k - 1], "for") || is(&t[k - 1], "while") ||
            is(&t[k - 1], "switch"));
}

/* The sampling the description DESC holds at token `at`: its fields as last set before it,
 * CUDA's defaults from its declaration or a memset on (token order, the file's functions read
 * as one). A description the file neither declares nor zeroes before (a parameter of the
 * function creating the texture), or a field set under a condition, leaves it unknown. */
static void desc_at(const tr_token *t, size_t at, const char *desc, tex_desc *d)
{
    memset(d, 0, sizeof *d);
    d->present = true;
    bool origin = false;
    for (size_t i = 0; i + 4 < at; i++) {
        if (t[i].kind != TR_IDENT || strcmp(t[i].text, desc)) continue;
        if ((i >= 2 && is(&t[i - 1], "&") && is(&t[i - 2], "(") && i >= 3 &&
             is(&t[i - 3], "memset")) ||
            (i >= 1 && is(&t[i - 1], "cudaTextureDesc") &&
             (is(&t[i + 1], ";") || is(&t[i + 1], "=") || is(&t[i + 1], "{")))) {
            memset(d, 0, sizeof *d); /* zeroed, or declared: CUDA's defaults */
            d->present = origin = true;
            continue;
        }
        if ((is(&t[i + 1], ".") || is(&t[i + 1], "->")) && conditional_at(t, i) && !d->why[0])
            snprintf(d->why, sizeof d->why,
                     "the host sets its description's %s under a condition (line %d)",
                     t[i + 2].text, t[i].line);
        tex_desc one;
        /* DESC.field = value; read alone, as read_desc reads a file */
        size_t e = i;
        while (e < at && !is(&t[e], ";"))
            e++;
        if (e >= at || !(is(&t[i + 1], ".") || is(&t[i + 1], "->"))) continue;
        read_desc(t + i, e + 1 - i, &one);
        const char *f = t[i + 2].text;
        if (one.why[0]) {
            snprintf(d->why, sizeof d->why, "%s", one.why);
        } else if (!strcmp(f, "filterMode")) {
            d->filter = one.filter;
        } else if (!strcmp(f, "normalizedCoords")) {
            d->norm = one.norm;
        } else if (!strcmp(f, "readMode")) {
            d->read = one.read;
        } else if (!strcmp(f, "addressMode") && is(&t[i + 3], "[") && t[i + 4].kind == TR_NUMBER) {
            int k = atoi(t[i + 4].text);
            if (k >= 0 && k <= 2) d->addr[k] = one.addr[k];
        }
    }
    if (!origin && !d->why[0])
        snprintf(d->why, sizeof d->why,
                 "its description %s is not one this file declares or zeroes before creating "
                 "it (a parameter of the function that creates it?)",
                 desc);
}

static bool same_sampling(const tex_desc *a, const tex_desc *b)
{
    return a->filter == b->filter && a->norm == b->norm && a->read == b->read &&
           !memcmp(a->addr, b->addr, sizeof a->addr) && !a->why[0] && !b->why[0];
}

/* The sampling of the texture object TEX from its cudaCreateTextureObject(&TEX, &res, &DESC,
 * ...) calls, which must agree; false when the file creates it nowhere. */
static bool object_sampling(const tr_token *t, size_t n, const char *tex, tex_desc *d)
{
    bool found = false;
    for (size_t i = 0; i + 9 < n; i++) {
        if (t[i].kind != TR_IDENT || !is(&t[i], "cudaCreateTextureObject") || !is(&t[i + 1], "(") ||
            !is(&t[i + 2], "&") || strcmp(t[i + 3].text, tex))
            continue;
        /* the third argument: &DESC */
        size_t k = i + 4;
        int commas = 0, depth = 0;
        for (; k < n && commas < 2; k++) {
            if (is(&t[k], "(")) depth++;
            if (is(&t[k], ")") && depth-- == 0) break;
            if (depth == 0 && is(&t[k], ",")) commas++;
        }
        if (commas < 2 || k + 1 >= n || !is(&t[k], "&") || t[k + 1].kind != TR_IDENT) {
            snprintf(d->why, sizeof d->why,
                     "its description at line %d is not a variable the translation follows",
                     t[i].line);
            return true;
        }
        tex_desc one;
        desc_at(t, i, t[k + 1].text, &one);
        if (found && !same_sampling(d, &one) && !d->why[0])
            snprintf(d->why, sizeof d->why, "it is created twice with two samplings (line %d)",
                     t[i].line);
        else if (!found)
            *d = one;
        found = true;
    }
    return found;
}

/* After a kernel's name at t[i]: the `(` of its launch's arguments (`name<<<g, b>>>(`), or n when
 * t[i] starts no launch. */
static size_t launch_args_open(const tr_token *t, size_t n, size_t i)
{
    if (i + 2 >= n || !is(&t[i + 1], "<<") || !is(&t[i + 2], "<")) return n;
    int depth = 0;
    for (size_t e = i + 3; e + 2 < n; e++) {
        if (is(&t[e], "(")) depth++;
        if (is(&t[e], ")")) depth--;
        if (is(&t[e], ";")) return n;
        if (depth == 0 && is(&t[e], ">>") && is(&t[e + 1], ">"))
            return is(&t[e + 2], "(") ? e + 2 : n;
    }
    return n;
}

/* The sampling of a kernel's texture parameter (argument `arg` of its launches): the one the
 * textures its launches pass were created with, when every launch passes one the file creates
 * and they agree; else the file's descriptions, when they agree. */
static void param_sampling(const tr_token *t, size_t n, const char *kernel, int arg,
                           const tex_desc *file, tex_desc *d)
{
    bool any = false, all = true;
    for (size_t i = 0; i + 2 < n && all; i++) {
        size_t open;
        if (t[i].kind != TR_IDENT || strcmp(t[i].text, kernel) ||
            (open = launch_args_open(t, n, i)) == n)
            continue;
        /* argument `arg` of the call */
        size_t a = open + 1, b;
        int k = 0, depth = 0;
        for (b = a; b < n; b++) {
            if (is(&t[b], "(") || is(&t[b], "[")) depth++;
            if ((is(&t[b], ")") || is(&t[b], "]")) && depth-- == 0) break;
            if (depth == 0 && is(&t[b], ",")) {
                if (k == arg) break;
                k++;
                a = b + 1;
            }
        }
        tex_desc one;
        if (k != arg || b != a + 1 || t[a].kind != TR_IDENT ||
            !object_sampling(t, n, t[a].text, &one)) {
            all = false;
            break;
        }
        if (any && !same_sampling(d, &one)) {
            snprintf(d->why, sizeof d->why, "its launches pass textures of two samplings (line %d)",
                     t[i].line);
            return;
        }
        *d = one;
        any = true;
    }
    if (!any || !all) {
        *d = *file;
        d->file = true;
    }
}

/* ---- element types -------------------------------------------------------------------------- */

/* The type `name` stands for, through the file's one-word typedefs (`typedef float2 cData;`). */
static const char *resolve(const tr_token *t, size_t n, const char *name)
{
    for (int hop = 0; hop < 4; hop++) {
        const char *to = NULL;
        for (size_t i = 0; i + 3 < n && !to; i++) /* typedef float2 cData; */
            if (is(&t[i], "typedef") && t[i + 1].kind == TR_IDENT && t[i + 2].kind == TR_IDENT &&
                !strcmp(t[i + 2].text, name) && is(&t[i + 3], ";"))
                to = t[i + 1].text;
        if (!to) return name;
        name = to;
    }
    return name;
}

/* Components of a texel type: 1 for a scalar, 2 or 4 for a vector, 0 for one the helpers do not
 * know; *fl whether its components are float. */
static int components(const char *ty, bool *fl)
{
    static const char *const scalars[] = {
        "float",          "int",      "unsigned int", "unsigned",      "short",
        "unsigned short", "char",     "signed char",  "unsigned char", "uint8_t",
        "int8_t",         "uint16_t", "int16_t",      "uint32_t",      "int32_t"};
    *fl = !strcmp(ty, "float") || !strncmp(ty, "float", 5);
    for (size_t i = 0; i < sizeof scalars / sizeof *scalars; i++)
        if (!strcmp(ty, scalars[i])) return 1;
    static const char *const vec[] = {"float", "int", "uint", "short", "ushort", "char", "uchar"};
    for (size_t i = 0; i < sizeof vec / sizeof *vec; i++) {
        size_t l = strlen(vec[i]);
        if (!strncmp(ty, vec[i], l) && (ty[l] == '2' || ty[l] == '4') && !ty[l + 1])
            return ty[l] - '0';
    }
    return 0;
}

/* ---- the kernels ----------------------------------------------------------------------------- */

/* A kernel rewritten: its name and which of its parameters were textures (of what kind). */
typedef struct tex_kernel {
    const char *name;
    int idx[8], kind[8], n;
    const char *pname[8];
} tex_kernel;

typedef struct tex_param {
    const char *name;
    size_t at;       /* its cudaTextureObject_t token */
    char ty[64];     /* the texel type the fetches name (as written) */
    int kind;        /* 0 none yet, 1 tex1Dfetch, 2 tex1D, 3 tex2D */
    tex_desc d;      /* its sampling */
    const char *rt;  /* the texel type, typedefs followed (float2 for cData) */
    int ncomp;       /* its components (components()) */
    bool fl;         /* of float */
    char helper[96]; /* the device function its fetches call */
} tex_param;

/* The fetch whose texture argument is t[k] (`tex2D<float>(tex, x, y)`): its kind, the type's
 * tokens [*tb, *te) and the fetch function's name at *fn; 0 when t[k] is no fetch's texture. */
static int fetch_at(const tr_token *t, size_t lo, size_t k, size_t *tb, size_t *te, size_t *fn)
{
    if (k < lo + 4 || !is(&t[k - 1], "(") || !is(&t[k - 2], ">")) return 0;
    size_t g = k - 2, b = g; /* back to the matching '<' */
    while (b > 0 && !is(&t[b], "<") && g - b < 6)
        b--;
    if (!is(&t[b], "<") || b <= lo + 1 || b + 1 == g) return 0; /* all of it in the body */
    const char *f = t[b - 1].text;
    int kind = !strcmp(f, "tex1Dfetch") ? 1 : !strcmp(f, "tex1D") ? 2 : !strcmp(f, "tex2D") ? 3 : 0;
    *tb = b + 1, *te = g, *fn = b - 1;
    return kind;
}

static void push_text(tr_tokens *out, const char *text, const tr_token *at)
{
    tr_tokens lexed = {0};
    char err[128];
    if (tr_lex("<translation>", at->file, text, strlen(text), &lexed, err, sizeof err)) abort();
    for (size_t i = 0; i + 1 < lexed.n; i++) { /* less the EOF */
        lexed.v[i].file = at->file, lexed.v[i].line = at->line, lexed.v[i].col = at->col;
        if (tr_tokens_push(out, &lexed.v[i])) abort();
    }
    tr_tokens_free(&lexed);
}

static void push_tok(tr_tokens *out, const tr_token *t)
{
    if (tr_tokens_push(out, t)) abort();
}

/* The helpers' source for one sampling of one texel type; its name in *name. */
static void helper_text(char *buf, size_t cap, char *name, size_t ncap, const tex_desc *d, int kind,
                        const char *ty, int ncomp)
{
    char zero[96]; /* the texel 0 (outside the buffer, a border) */
    if (ncomp == 1)
        snprintf(zero, sizeof zero, "(%s)0", ty);
    else
        snprintf(zero, sizeof zero, "make_%s(0%s)", ty, ncomp == 2 ? ", 0" : ", 0, 0, 0");
    char id[64];
    size_t k = 0;
    for (const char *c = ty; *c && k + 1 < sizeof id; c++)
        id[k++] = *c == ' ' ? '_' : *c;
    id[k] = '\0';
    int am[2];
    for (int i = 0; i < 2; i++) /* wrap and mirror need normalized coordinates: else clamp */
        am[i] =
            !d->norm && (d->addr[i] == AM_WRAP || d->addr[i] == AM_MIRROR) ? AM_CLAMP : d->addr[i];
    if (kind == 1) {
        snprintf(name, ncap, "gpuport_tex1Dfetch_%s", id);
        snprintf(buf, cap,
                 "__device__ %s %s(const %s *t, int w, int i) {\n"
                 "  if (i < 0 || i >= w) return %s;\n"
                 "  return t[i];\n}\n",
                 ty, name, ty, zero);
        return;
    }
    int dims = kind == 3 ? 2 : 1;
    snprintf(name, ncap, "gpuport_tex%dD_%s_%s%s_%d%d", dims, id,
             d->filter == TX_LINEAR ? "linear" : "point", d->norm ? "_norm" : "", am[0],
             dims == 2 ? am[1] : 0);
    char idx[2][200];
    for (int i = 0; i < dims; i++) {
        const char *v = i ? "j" : "i", *n = i ? "h" : "w";
        switch (am[i]) {
        case AM_WRAP:
            snprintf(idx[i], sizeof idx[i], "  %s %%= %s; if (%s < 0) %s += %s;\n", v, n, v, v, n);
            break;
        case AM_MIRROR:
            snprintf(idx[i], sizeof idx[i],
                     "  %s %%= 2 * %s; if (%s < 0) %s += 2 * %s; if (%s >= %s) %s = 2 * %s - 1 - "
                     "%s;\n",
                     v, n, v, v, n, v, n, v, n, v);
            break;
        case AM_BORDER:
            snprintf(idx[i], sizeof idx[i], "  if (%s < 0 || %s >= %s) out = 1;\n", v, v, n);
            break;
        default:
            snprintf(idx[i], sizeof idx[i], "  %s = %s < 0 ? 0 : %s >= %s ? %s - 1 : %s;\n", v, v,
                     v, n, n, v);
        }
    }
    /* one texel at integer indices, the address modes applied */
    size_t at = (size_t)snprintf(buf, cap,
                                 "__device__ %s %s_texel(const %s *t, int w, int h, int i, int "
                                 "j) {\n  int out = 0;\n%s%s"
                                 "  if (out) return %s;\n"
                                 "  return t[%s];\n}\n",
                                 ty, name, ty, idx[0], dims == 2 ? idx[1] : "", zero,
                                 dims == 2 ? "j * w + i" : "i");
    if (at >= cap) return;
    const char *scale_x = d->norm ? "  x = x * (float)w;\n" : "",
               *scale_y = d->norm && dims == 2 ? "  y = y * (float)h;\n" : "";
    if (d->filter == TX_POINT) {
        snprintf(buf + at, cap - at,
                 "__device__ %s %s(const %s *t, int w, int h, float x%s) {\n%s%s"
                 "  return %s_texel(t, w, h, (int)floorf(x), %s);\n}\n",
                 ty, name, ty, dims == 2 ? ", float y" : "", scale_x, scale_y, name,
                 dims == 2 ? "(int)floorf(y)" : "0");
        return;
    }
    /* linear: the texel centres at +0.5, the weights in CUDA's 1.8 fixed point */
    static const char *const comp[] = {"x", "y", "z", "w"};
    char mix[900];
    size_t m = 0;
    for (int c = 0; c < ncomp && m < sizeof mix; c++) {
        char sel[4] = "";
        if (ncomp > 1) snprintf(sel, sizeof sel, ".%s", comp[c]);
        m += (size_t)snprintf(
            mix + m, sizeof mix - m,
            dims == 2 ? "%s(1.0f - a) * (1.0f - b) * t00%s + a * (1.0f - b) * t10%s + (1.0f - a) "
                        "* b * t01%s + a * b * t11%s"
                      : "%s(1.0f - a) * t00%s + a * t10%s",
            c ? ", " : "", sel, sel, sel, sel);
    }
    char ctor[32] = "", row2[300] = "";
    if (ncomp > 1) snprintf(ctor, sizeof ctor, "make_%s", ty);
    if (dims == 2)
        snprintf(row2, sizeof row2,
                 "  %s t01 = %s_texel(t, w, h, i, j + 1), t11 = %s_texel(t, w, h, i + 1, j + 1);\n",
                 ty, name, name);
    snprintf(buf + at, cap - at,
             "__device__ %s %s(const %s *t, int w, int h, float x%s) {\n%s%s"
             "  x -= 0.5f;\n%s"
             "  float fx = floorf(x), a = rintf((x - fx) * 256.0f) * (1.0f / 256.0f);\n%s"
             "  int i = (int)fx, j = %s;\n"
             "  %s t00 = %s_texel(t, w, h, i, j), t10 = %s_texel(t, w, h, i + 1, j);\n%s"
             "  return %s(%s);\n}\n",
             ty, name, ty, dims == 2 ? ", float y" : "", scale_x, scale_y,
             dims == 2 ? "  y -= 0.5f;\n" : "",
             dims == 2 ? "  float fy = floorf(y), b = rintf((y - fy) * 256.0f) * (1.0f / 256.0f);\n"
                       : "",
             dims == 2 ? "(int)fy" : "0", ty, name, name, row2, ctor, mix);
}

/* The launches of the rewritten kernels with each texture argument followed by the size
 * arguments the kernel now takes (named after its parameter: `tex, tex_w, tex_h`), so the
 * launch's arguments stay in step with the parameters. Frees *in. */
static tr_tokens launches_expanded(tr_tokens *in, const tex_kernel *ks, int nk, size_t *pos)
{
    tr_tokens out = {0};
    const tr_token *t = in->v;
    size_t n = in->n;
    for (size_t i = 0; i < n; i++) {
        pos[i] = out.n;
        push_tok(&out, &t[i]);
        const tex_kernel *k = NULL;
        for (int q = 0; q < nk && !k && t[i].kind == TR_IDENT; q++)
            if (!strcmp(ks[q].name, t[i].text)) k = &ks[q];
        size_t open = k ? launch_args_open(t, n, i) : n;
        if (open == n) continue;
        size_t close = tr_closing(t, open, n);
        if (close >= n || close == open + 1) continue;
        for (size_t x = i + 1; x <= open; x++) {
            pos[x] = out.n;
            push_tok(&out, &t[x]);
        }
        int arg = 0, depth = 0;
        for (size_t x = open + 1; x <= close; x++) {
            bool at_end = x == close || (depth == 0 && is(&t[x], ","));
            if (at_end) {
                for (int q = 0; q < k->n; q++)
                    if (k->idx[q] == arg) {
                        char extra[200];
                        snprintf(extra, sizeof extra, ", %s_w%s%s%s", k->pname[q],
                                 k->kind[q] == 3 ? ", " : "", k->kind[q] == 3 ? k->pname[q] : "",
                                 k->kind[q] == 3 ? "_h" : "");
                        push_text(&out, extra, &t[x]);
                    }
                arg++;
            }
            if (is(&t[x], "(") || is(&t[x], "[") || is(&t[x], "{")) depth++;
            if (is(&t[x], ")") || is(&t[x], "]") || is(&t[x], "}")) depth--;
            pos[x] = out.n;
            push_tok(&out, &t[x]);
        }
        i = close;
    }
    pos[n] = out.n;
    tr_tokens_free(in);
    return out;
}

void tr_texture_objects(tr_unit *u)
{
    tr_token *t = u->pp.toks.v;
    size_t n = u->pp.toks.n;
    bool any = false;
    for (size_t i = 0; i < n && !any; i++)
        any = t[i].kind == TR_IDENT && t[i].text[0] == 'c' && is(&t[i], "cudaTextureObject_t");
    if (!any) return;
    tex_desc d;
    read_desc(t, n, &d);
    tr_tokens out = {0};
    char made[MAX_HELPERS][96];
    int nmade = 0, nkernels = 0;
    tex_kernel kernels[MAX_KERNELS];
    size_t copied = 0;                        /* t[0, copied) is in out */
    size_t *pos = calloc(n + 1, sizeof *pos); /* where each token went */
    if (!pos) abort();
    for (size_t g = 0; g < n; g++) {
        if (t[g].kind != TR_IDENT || !is(&t[g], "__global__")) continue;
        /* the kernel's parameter list and body (a template's is left alone) */
        size_t open = g;
        while (open < n && !is(&t[open], "(") && !is(&t[open], ";") && !is(&t[open], "{"))
            open++;
        if (open > 0 && open < n && is(&t[open - 1], "__launch_bounds__")) { /* past its (...) */
            open = tr_closing(t, open, n) + 1;
            while (open < n && !is(&t[open], "(") && !is(&t[open], ";") && !is(&t[open], "{"))
                open++;
        }
        if (open >= n || !is(&t[open], "(") || t[open - 1].kind != TR_IDENT) continue;
        size_t close = tr_closing(t, open, n);
        if (close + 1 >= n || !is(&t[close + 1], "{")) continue;
        size_t body = close + 1, end = tr_closing(t, body, n);
        if (end >= n) continue;
        bool templ = false;
        for (size_t b = g; b-- > 0 && g - b < 64;) {
            if (is(&t[b], ";") || is(&t[b], "}")) break;
            templ |= is(&t[b], "template");
        }
        tex_param tp[MAX_TEX_PARAMS];
        int np = 0, pidx[MAX_TEX_PARAMS], npar = 0, depth = 0;
        for (size_t s = open + 1, k = open + 1; k <= close; k++) {
            if (k < close && (is(&t[k], "(") || is(&t[k], "<") || is(&t[k], "["))) depth++;
            if (k < close && (is(&t[k], ")") || is(&t[k], ">") || is(&t[k], "]"))) depth--;
            if (k < close && !(is(&t[k], ",") && depth == 0)) continue;
            /* one parameter [s, k) */
            for (size_t q = s; q + 1 < k; q++)
                if (is(&t[q], "cudaTextureObject_t") && t[q + 1].kind == TR_IDENT && q + 2 == k &&
                    np < MAX_TEX_PARAMS) {
                    pidx[np] = npar;
                    tp[np++] = (tex_param){.name = t[q + 1].text, .at = q};
                }
            npar++;
            s = k + 1;
        }
        if (!np || templ) continue;
        /* every use of each texture: the first argument of a fetch of one kind and type */
        const char *why = NULL;
        int why_line = t[g].line;
        for (size_t k = body; k < end && !why; k++) {
            for (int q = 0; q < np && !why; q++) {
                if (t[k].kind != TR_IDENT || strcmp(t[k].text, tp[q].name)) continue;
                size_t tb, te, fn;
                int kind = fetch_at(t, body, k, &tb, &te, &fn);
                why_line = t[k].line;
                char ty[64] = "";
                size_t l = 0;
                for (size_t x = tb; kind && x < te && l + 1 < sizeof ty; x++)
                    l += (size_t)snprintf(ty + l, sizeof ty - l, "%s%s", l ? " " : "", t[x].text);
                if (!kind)
                    why = "it is used other than as the texture of tex1Dfetch, tex1D or tex2D "
                          "(passed on, or a 3-D, layered or cubemap fetch)";
                else if (tp[q].kind && (tp[q].kind != kind || strcmp(tp[q].ty, ty)))
                    why = "it is fetched in two ways (two kinds of fetch, or two texel types)";
                else
                    tp[q].kind = kind, snprintf(tp[q].ty, sizeof tp[q].ty, "%s", ty);
            }
        }
        const char *why_name = np ? tp[0].name : "";
        for (int q = 0; q < np && !why; q++) {
            tp[q].rt = resolve(t, n, tp[q].ty);
            tp[q].ncomp = components(tp[q].rt, &tp[q].fl);
            int nc = tp[q].ncomp;
            bool fl = tp[q].fl;
            param_sampling(t, n, t[open - 1].text, pidx[q], &d, &tp[q].d);
            const tex_desc *pd = &tp[q].d;
            why_name = tp[q].name;
            if (!tp[q].kind)
                why = "it is never fetched";
            else if (!nc)
                why = "its texel type is one the translation's sampling does not know";
            else if (tp[q].kind > 1 && !pd->present)
                why = "it is sampled as the host's cudaTextureDesc says, and this file has none";
            else if (tp[q].kind > 1 && pd->why[0])
                why = pd->why;
            else if (pd->read)
                why = "it is read as normalized floats (cudaReadModeNormalizedFloat), which the "
                      "translation does not follow";
            else if (tp[q].kind > 1 && pd->filter == TX_LINEAR && !fl)
                why = "it is filtered linearly, which CUDA does of float texels only";
        }
        if (why) {
            tr_diag_add(u, false, t[g].file, why_line, 0, "texture object",
                        "texture object %s of kernel %s is left as written (and refused where "
                        "it is read): %s",
                        why_name, t[open - 1].text, why);
            continue;
        }
        /* the kernel rewritten: helpers before it, its parameters, its fetches */
        for (size_t k = copied; k < g; k++) {
            pos[k] = out.n;
            push_tok(&out, &t[k]);
        }
        pos[g] = out.n; /* the helpers go with the kernel */
        for (int q = 0; q < np; q++) {
            char text[6000];
            helper_text(text, sizeof text, tp[q].helper, sizeof tp[q].helper, &tp[q].d, tp[q].kind,
                        tp[q].rt, tp[q].ncomp);
            bool have = false;
            for (int h = 0; h < nmade && !have; h++)
                have = !strcmp(made[h], tp[q].helper);
            if (!have && nmade < MAX_HELPERS) {
                snprintf(made[nmade++], sizeof made[0], "%s", tp[q].helper);
                push_text(&out, text, &t[g]);
            }
            const char *sampling = tp[q].kind == 1 ? "tex1Dfetch: an element, 0 outside the buffer"
                                   : tp[q].d.filter == TX_LINEAR ? "linear filtering"
                                                                 : "point sampling";
            tr_diag_add(u, false, t[tp[q].at].file, t[tp[q].at].line, t[tp[q].at].col,
                        "texture object",
                        "texture object %s is a buffer of %s_w%s%s%s elements of %s%s, sampled "
                        "as the host's texture description says (%s%s%s): the host passes the "
                        "texture's data and its size",
                        tp[q].name, tp[q].name, tp[q].kind == 3 ? " x " : "",
                        tp[q].kind == 3 ? tp[q].name : "", tp[q].kind == 3 ? "_h" : "", tp[q].ty,
                        tp[q].kind == 3 ? " (rows not padded)" : "", sampling,
                        tp[q].kind > 1 && tp[q].d.norm ? ", normalized coordinates" : "",
                        tp[q].kind > 1 && tp[q].d.file
                            ? "; from the file's texture descriptions, which agree: no launch "
                              "here shows which texture the kernel gets"
                            : "");
        }
        for (size_t k = g; k <= end; k++) {
            int q = -1;
            for (int x = 0; x < np && q < 0; x++)
                if (k == tp[x].at) q = x;
            if (q >= 0) { /* `cudaTextureObject_t tex` */
                char text[256];
                snprintf(text, sizeof text, "const %s *__restrict__ %s, int %s_w%s%s%s", tp[q].ty,
                         tp[q].name, tp[q].name, tp[q].kind == 3 ? ", int " : "",
                         tp[q].kind == 3 ? tp[q].name : "", tp[q].kind == 3 ? "_h" : "");
                push_text(&out, text, &t[k]);
                k++; /* its name */
                continue;
            }
            if (k > 0 && t[k].kind == TR_IDENT && k > body) {
                size_t tb, te, fn;
                for (int x = 0; x < np && q < 0; x++)
                    if (!strcmp(t[k].text, tp[x].name) && fetch_at(t, body, k, &tb, &te, &fn))
                        q = x;
                if (q >= 0) {
                    /* tex2D<T>(tex, ...) became name(tex, tex_w, tex_h, ...): drop what was
                     * pushed of `tex2D<T>(` and write the call's head */
                    size_t drop = k - fn;
                    for (size_t x = 0; x < drop; x++)
                        free(out.v[--out.n].text);
                    char head[256];
                    snprintf(head, sizeof head, "%s(%s, %s_w%s%s%s", tp[q].helper, tp[q].name,
                             tp[q].name, tp[q].kind == 1 ? "" : ", ",
                             tp[q].kind == 1 ? "" : tp[q].name,
                             tp[q].kind == 1   ? ""
                             : tp[q].kind == 3 ? "_h"
                                               : "_w");
                    push_text(&out, head, &t[k]);
                    continue;
                }
            }
            push_tok(&out, &t[k]);
        }
        if (nkernels < MAX_KERNELS) {
            tex_kernel *tk = &kernels[nkernels++];
            tk->name = t[open - 1].text;
            tk->n = np;
            for (int q = 0; q < np; q++)
                tk->idx[q] = pidx[q], tk->kind[q] = tp[q].kind, tk->pname[q] = tp[q].name;
        }
        copied = end + 1;
        g = end;
    }
    if (!out.n) { /* nothing rewritten */
        free(pos);
        return;
    }
    for (size_t k = copied; k < n; k++) {
        pos[k] = out.n;
        push_tok(&out, &t[k]);
    }
    pos[n] = out.n;
    size_t *pos2 = calloc(out.n + 1, sizeof *pos2);
    if (!pos2) abort();
    /* (the kernels' names are the old tokens' texts: freed after) */
    tr_tokens expanded = launches_expanded(&out, kernels, nkernels, pos2);
    tr_tokens_free(&u->pp.toks);
    u->pp.toks = expanded;
    /* the includer's parts, where the preprocessor marked them (no kernel straddles them) */
    if (u->pp.context_end <= n) u->pp.context_end = pos2[pos[u->pp.context_end]];
    if (u->pp.tail_begin <= n) u->pp.tail_begin = pos2[pos[u->pp.tail_begin]];
    free(pos2);
    free(pos);
}
