/* translate.c — the translation of one file, end to end: preprocess, parse, lower every kernel,
 * assemble the dialect source (kept constants, __constant__ data, device-function clones, kernels)
 * and the report; with `verify`, build what it claims for each target (verify.c) before the
 * report says a kernel runs there. */
#include "translate/translate.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/assemble.h"
#include "translate/lockstep.h"
#include "translate/lower.h"
#include "util/fs.h"
#include "util/strbuf.h"

void tr_kernel_info_add_param(tr_kernel_info *k, const char *kind, const char *type,
                              const char *name)
{
    tr_param_info *p = realloc(k->params, (size_t)(k->nparams + 1) * sizeof *p);
    if (!p) return;
    k->params = p;
    tr_param_info *q = &p[k->nparams++];
    snprintf(q->kind, sizeof q->kind, "%s", kind);
    snprintf(q->type, sizeof q->type, "%s", type);
    snprintf(q->name, sizeof q->name, "%s", name);
}

void tr_kernel_info_set_text(tr_kernel_info *k, const char *text)
{
    free(k->text);
    k->text = strdup(text);
}

void tr_kernel_info_free(tr_kernel_info *k)
{
    free(k->params);
    free(k->text);
}

static const char *file_name(const tr_unit *u, int file)
{
    return file >= 0 && (size_t)file < u->pp.nfiles ? u->pp.files[file] : "<command line>";
}

static int cmp_diag(const void *a, const void *b)
{
    const tr_diag *x = a, *y = b;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    return x->col < y->col ? -1 : x->col > y->col;
}

/* Whether kernel k is held back by a refusal: in its own code, in a function it calls, or
 * recorded while it was lowered. */
static bool kernel_refused(const tr_unit *u, const tr_func *k)
{
    if (!k->body) return true;
    for (int d = 0; d < u->ndiags; d++) {
        const tr_diag *g = &u->diags[d];
        if (g->refusal && tr_diag_counts(u, g) && (g->kernel == k || g->func == k)) return true;
    }
    return false;
}

/* Host code that copies into a __constant__ symbol: cudaMemcpyToSymbol(name, ...). */
static bool host_fills(const tr_unit *u, const char *name)
{
    const tr_tokens *t = &u->pp.toks;
    for (size_t i = 0; i + 2 < t->n; i++)
        if (t->v[i].kind == TR_IDENT && !strncmp(t->v[i].text, "cudaMemcpyToSymbol", 18) &&
            !strcmp(t->v[i + 1].text, "(") &&
            (!strcmp(t->v[i + 2].text, name) ||
             (i + 3 < t->n && !strcmp(t->v[i + 2].text, "&") && !strcmp(t->v[i + 3].text, name))))
            return true;
    return false;
}

static const char *const target_names[TR_NTARGETS] = {"cuda", "cpu", "opencl", "metal"};

static cJSON *targets_json(const tr_func *f, bool refused, const tr_build *b)
{
    cJSON *t = cJSON_CreateObject();
    for (int i = 0; i < TR_NTARGETS; i++) {
        bool eligible = !refused && !(i == TR_T_OPENCL && f->uses_simd) &&
                        !(i == TR_T_METAL && (f->uses_fp64 || f->uses_atomic64));
        if (!eligible || (b && b[i].status == TR_BUILD_FAILED))
            cJSON_AddBoolToObject(t, target_names[i], false);
        else if (b && b[i].status == TR_BUILD_OK)
            cJSON_AddBoolToObject(t, target_names[i], true);
        else
            cJSON_AddNullToObject(t, target_names[i]); /* not built here: not claimed */
    }
    if ((f->uses_fp64 || f->uses_atomic64 || f->uses_simd) && !refused) {
        cJSON *why = cJSON_AddObjectToObject(t, "conditions");
        if (f->uses_simd)
            cJSON_AddStringToObject(why, "opencl",
                                    "none: OpenCL has no SIMD-group operations of a width a "
                                    "kernel can require");
        else if (f->uses_atomic64)
            cJSON_AddStringToObject(
                why, "opencl",
                f->uses_fp64 ? "a device with fp64 (cl_khr_fp64) and 64-bit atomics "
                               "(cl_khr_int64_base_atomics, _extended_atomics)"
                             : "a device with 64-bit atomics (cl_khr_int64_base_atomics, "
                               "_extended_atomics)");
        else
            cJSON_AddStringToObject(why, "opencl", "a device with fp64 (cl_khr_fp64)");
        if (f->uses_fp64)
            cJSON_AddStringToObject(why, "metal", "Apple GPUs have no double precision");
        else if (f->uses_atomic64)
            cJSON_AddStringToObject(why, "metal", "Metal has no 64-bit atomics on device memory");
        else
            cJSON_AddStringToObject(why, "metal", "an Apple GPU (SIMD groups of 32)");
        if (f->uses_simd)
            cJSON_AddStringToObject(why, "cpu", "emulated SIMD groups of 32 (correct, slow)");
    }
    return t;
}

static cJSON *builds_json(const tr_build *b)
{
    static const char *const status[] = {"not checked", "built", "failed", "not a target"};
    cJSON *o = cJSON_CreateObject();
    for (int i = 0; i < TR_NTARGETS; i++) {
        cJSON *x = cJSON_AddObjectToObject(o, target_names[i]);
        cJSON_AddStringToObject(x, "result", status[b[i].status]);
        if (b[i].detail) cJSON_AddStringToObject(x, "detail", b[i].detail);
    }
    return o;
}

/* __constant__ data filled by the host, and __device__ data: buffers the kernels get as
 * parameters. Each is a change to the host code, said in a note. */
static void data_as_buffers(tr_unit *u)
{
    for (int i = 0; i < u->nconstants; i++) {
        tr_sym *s = u->constants[i];
        if (!u->constant_inits[i] || host_fills(u, s->name)) {
            s->as_buffer = true;
            s->type.space = TR_SP_GLOBAL;
        }
    }
}

static void note_host_changes(tr_unit *u, tr_kernel_info *ki, int nk, cJSON *arr)
{
    tr_sym **all[2] = {u->constants, u->globals};
    int counts[2] = {u->nconstants, u->nglobals};
    for (int w = 0; w < 2; w++)
        for (int i = 0; i < counts[w]; i++) {
            tr_sym *s = all[w][i];
            if (!s->as_buffer || !s->used || (s->texture && !s->texref)) continue;
            gp_strbuf ks = GP_STRBUF_INIT;
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", s->name);
            cJSON_AddNumberToObject(o, "line", s->line);
            cJSON_AddStringToObject(o, "kind",
                                    s->texref    ? "texture reference"
                                    : !w         ? "__constant__ data"
                                    : s->managed ? "__managed__ data"
                                                 : "__device__ data");
            cJSON *karr = cJSON_AddArrayToObject(o, "kernels");
            for (int k = 0; k < nk; k++)
                for (int p = 0; p < ki[k].nparams; p++)
                    if (!strcmp(ki[k].params[p].name, s->name) &&
                        strcmp(ki[k].params[p].kind, "GP_VAL")) {
                        cJSON *e = cJSON_CreateObject();
                        cJSON_AddStringToObject(e, "kernel", ki[k].func->name);
                        cJSON_AddNumberToObject(e, "parameter", p); /* from 0 */
                        cJSON_AddItemToArray(karr, e);
                        gp_strbuf_printf(&ks, "%s%s (argument %d of %d)", ks.len ? ", " : "",
                                         ki[k].func->name, p + 1, ki[k].nparams);
                    }
            char what[768];
            if (s->texref)
                snprintf(what, sizeof what,
                         "texture reference %s, which the host binds to linear memory "
                         "(cudaBindTexture) and tex1Dfetch reads element by element, is that "
                         "memory: a GP_CBUF buffer parameter of %s; the host passes the buffer "
                         "it bound, with gp_arg_buffer",
                         s->name, gp_strbuf_cstr(&ks));
            else if (w == 0)
                snprintf(what, sizeof what,
                         "__constant__ %s is filled by the host (cudaMemcpyToSymbol): it is a "
                         "GP_CBUF buffer parameter of %s; the host writes it with "
                         "gp_buffer_write and passes it with gp_arg_buffer",
                         s->name, gp_strbuf_cstr(&ks));
            else if (s->managed)
                snprintf(what, sizeof what,
                         "__managed__ %s is a GP_BUF buffer parameter of %s; the host creates it "
                         "(%s), passes it with gp_arg_buffer, and reads or writes it with "
                         "gp_buffer_read/gp_buffer_write (or gp_buffer_map) where it used the "
                         "variable itself",
                         s->name, gp_strbuf_cstr(&ks),
                         s->init ? "writing its initial value into it" : "zero-filled");
            else
                snprintf(what, sizeof what,
                         "__device__ %s is a GP_BUF buffer parameter of %s; the host creates it "
                         "(%s), and passes it with gp_arg_buffer",
                         s->name, gp_strbuf_cstr(&ks),
                         s->init ? "writing its initial value into it" : "zero-filled");
            cJSON_AddStringToObject(o, "host_change", what);
            cJSON_AddItemToArray(arr, o);
            tr_diag_add(u, false, s->file, s->line, s->col, "host change", "%s", what);
            gp_strbuf_free(&ks);
        }
}

/* The line start of `#include "NAME"` in text whose quoted path is `name` or ends in "/name"
 * (a folder of the includer's), or NULL. */
static const char *include_line(const char *text, size_t len, const char *name, int *line)
{
    size_t nl = strlen(name);
    *line = 1;
    for (const char *l = text, *end = text + len; l < end; (*line)++) {
        const char *eol = memchr(l, '\n', (size_t)(end - l));
        if (!eol) eol = end;
        const char *c = l;
        while (c < eol && (*c == ' ' || *c == '\t'))
            c++;
        if (c < eol && *c == '#') {
            c++;
            while (c < eol && (*c == ' ' || *c == '\t'))
                c++;
            if ((size_t)(eol - c) > 8 && !strncmp(c, "include", 7)) {
                const char *q = memchr(c, '"', (size_t)(eol - c));
                const char *qe = q ? memchr(q + 1, '"', (size_t)(eol - q - 1)) : NULL;
                if (qe && (size_t)(qe - q - 1) >= nl && !strncmp(qe - nl, name, nl) &&
                    (qe - nl == q + 1 || qe[-(long)nl - 1] == '/'))
                    return l;
            }
        }
        l = eol + 1;
    }
    return NULL;
}

/* When [l, eol) is a directive: its word (returned), and in *arg and *alen the name after it. */
static const char *directive(const char *l, const char *eol, const char **arg, size_t *alen)
{
    while (l < eol && (*l == ' ' || *l == '\t'))
        l++;
    if (l >= eol || *l != '#') return NULL;
    l++;
    while (l < eol && (*l == ' ' || *l == '\t'))
        l++;
    const char *w = l;
    while (l < eol && (isalnum((unsigned char)*l) || *l == '_'))
        l++;
    while (l < eol && (*l == ' ' || *l == '\t'))
        l++;
    *arg = l;
    while (l < eol && (isalnum((unsigned char)*l) || *l == '_'))
        l++;
    *alen = (size_t)(l - *arg);
    return w;
}

static bool is_define_of(const char *l, const char *eol, const char *name, size_t nlen)
{
    const char *arg;
    size_t alen;
    const char *w = directive(l, eol, &arg, &alen);
    return w && !strncmp(w, "define", 6) && alen == nlen && !memcmp(arg, name, nlen);
}

/* Whether the next directive in [l, end) (l at the end of a line) is `#define NAME`. */
static bool defines_next(const char *l, const char *end, const char *name, size_t nlen)
{
    for (l = l < end ? l + 1 : end; l < end;) {
        const char *eol = memchr(l, '\n', (size_t)(end - l));
        if (!eol) eol = end;
        const char *arg;
        size_t alen;
        if (directive(l, eol, &arg, &alen)) return is_define_of(l, eol, name, nlen);
        l = eol + 1;
    }
    return false;
}

/* Whether text defines NAME on a line of its own. */
static bool defines_anywhere(const char *text, size_t len, const char *name, size_t nlen)
{
    for (const char *l = text, *end = text + len; text && l < end;) {
        const char *eol = memchr(l, '\n', (size_t)(end - l));
        if (!eol) eol = end;
        if (is_define_of(l, eol, name, nlen)) return true;
        l = eol + 1;
    }
    return false;
}

/* A file that exactly one other source file of its folder includes (`#include "kernels.cu"` in
 * main.cu) is compiled only there: that file's path in *ipath and its text before the #include
 * (returned, heap), when the #include is outside any #if; NULL otherwise. With `tail`, also the
 * text after the #include's line in *tail (heap), led by as many newlines as the lines before it
 * so that its lines keep their numbers. */
static char *includer_context(const char *path, char **ipath, int *iline, size_t *len, char **tail,
                              size_t *tail_len)
{
    static const char *const exts[] = {".cu", ".cpp", ".cc", ".cxx", ".cuh", ".h", ".hpp"};
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char *dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
    char **names = NULL, err[256], *found = NULL;
    size_t n = 0, flen = 0;
    int nfound = 0, line = 0;
    *ipath = NULL;
    if (dir && gp_dir_names(dir, &names, &n, err, sizeof err) == 0) {
        for (size_t i = 0; i < n && n <= 256 && nfound < 2; i++) {
            const char *dot = strrchr(names[i], '.');
            bool source = false;
            for (size_t e = 0; dot && e < sizeof exts / sizeof *exts; e++)
                source |= !strcmp(dot, exts[e]);
            if (!source || !strcmp(names[i], base)) continue;
            char *p = gp_path_join(dir, names[i]);
            size_t tl = 0;
            char *text = p ? gp_read_file(p, 4u << 20, false, &tl, err, sizeof err) : NULL;
            int l = 0;
            const char *at = text ? include_line(text, tl, base, &l) : NULL;
            if (at) {
                nfound++;
                free(found), free(*ipath);
                flen = (size_t)(at - text);
                found = strndup(text, flen);
                *ipath = p, p = NULL;
                line = l;
                if (tail) {
                    free(*tail);
                    const char *eol = memchr(at, '\n', tl - flen);
                    size_t rest = eol ? tl - (size_t)(eol + 1 - text) : 0;
                    *tail = malloc((size_t)l + rest + 1);
                    if (*tail) {
                        memset(*tail, '\n', (size_t)l);
                        if (rest) memcpy(*tail + l, eol + 1, rest);
                        (*tail)[(size_t)l + rest] = '\0';
                        *tail_len = (size_t)l + rest;
                    }
                }
            }
            free(text), free(p);
        }
        gp_dir_names_free(names, n);
    }
    free(dir);
    /* the #include inside an #if: which branch the build takes is not known here, unless the
     * #if is an include guard (`#ifndef X` then `#define X`) or an `#ifndef X` of a macro the
     * included file defines: both are taken where the file is compiled */
    int depth = 0, level = 0;
    unsigned long long guards = 0; /* bit k: the #if at nesting level k is a guard */
    size_t own_len = 0;
    char *own = found ? gp_read_file(path, 4u << 20, false, &own_len, err, sizeof err) : NULL;
    for (const char *l = found; l && l < found + flen;) {
        const char *eol = memchr(l, '\n', (size_t)(found + flen - l));
        if (!eol) eol = found + flen;
        const char *arg;
        size_t alen;
        const char *w = directive(l, eol, &arg, &alen);
        if (w && !strncmp(w, "if", 2)) {
            bool guard = !strncmp(w, "ifndef", 6) && alen &&
                         (defines_next(eol, found + flen, arg, alen) ||
                          defines_anywhere(own, own_len, arg, alen));
            if (level < 64 && guard) guards |= 1ull << level;
            if (level < 64 && !guard) guards &= ~(1ull << level);
            depth += !guard || level >= 64;
            level++;
        } else if (w && !strncmp(w, "endif", 5) && level > 0) {
            level--;
            depth -= level >= 64 || !(guards >> level & 1);
        }
        l = eol + 1;
    }
    free(own);
    if (nfound != 1 || depth != 0) {
        free(found), free(*ipath);
        *ipath = NULL;
        if (tail) {
            free(*tail);
            *tail = NULL;
        }
        return NULL;
    }
    *iline = line;
    *len = flen;
    return found;
}

void gp_translate(const char *path, const char *source, size_t source_len,
                  const gp_translate_options *opt, gp_translate_result *res)
{
    memset(res, 0, sizeof *res);
    gp_translate_options none = {0};
    if (!opt) opt = &none;
    tr_unit u = {0};
    char err[1024];
    tr_pp_options po = {.include_dirs = opt->include_dirs,
                        .ninclude_dirs = opt->ninclude_dirs,
                        .defines = opt->defines,
                        .ndefines = opt->ndefines,
                        .source = source,
                        .source_len = source_len};
    /* the files that include this one, innermost first, then turned outermost first */
    enum { MAXCTX = 4 };
    char *ctx_paths[MAXCTX], *ctx_texts[MAXCTX];
    size_t ctx_lens[MAXCTX], nctx = 0;
    int ctx_lines[MAXCTX];
    char *tail = NULL; /* the innermost includer's text after its #include */
    size_t tail_len = 0;
    for (const char *cur = path; nctx < MAXCTX; cur = ctx_paths[nctx - 1]) {
        char *ip = NULL;
        char *text = includer_context(cur, &ip, &ctx_lines[nctx], &ctx_lens[nctx],
                                      nctx ? NULL : &tail, &tail_len);
        bool seen = text && !strcmp(ip, path);
        for (size_t c = 0; text && c < nctx; c++)
            seen |= !strcmp(ctx_paths[c], ip);
        if (!text || seen) { /* none, or a cycle */
            free(text), free(ip);
            if (!nctx) {
                free(tail);
                tail = NULL;
            }
            break;
        }
        ctx_paths[nctx] = ip, ctx_texts[nctx++] = text;
    }
    for (size_t c = 0; c < nctx / 2; c++) {
        size_t d = nctx - 1 - c;
        char *tp = ctx_paths[c], *tt = ctx_texts[c];
        size_t tl = ctx_lens[c];
        int tn = ctx_lines[c];
        ctx_paths[c] = ctx_paths[d], ctx_texts[c] = ctx_texts[d], ctx_lens[c] = ctx_lens[d];
        ctx_lines[c] = ctx_lines[d];
        ctx_paths[d] = tp, ctx_texts[d] = tt, ctx_lens[d] = tl, ctx_lines[d] = tn;
    }
    po.context_paths = (const char *const *)ctx_paths;
    po.contexts = (const char *const *)ctx_texts;
    po.context_lens = ctx_lens;
    po.ncontexts = nctx;
    if (tail) {
        po.tail_path = ctx_paths[nctx - 1]; /* the innermost, after the reversal */
        po.tail = tail;
        po.tail_len = tail_len;
    }
    for (;;) {
        u.instantiate = opt->instantiate;
        u.ninstantiate = opt->ninstantiate;
        if (tr_preprocess(path, &po, &u.pp, err, sizeof err) == 0 &&
            tr_parse(&u, err, sizeof err) == 0)
            break;
        tr_unit_free(&u);
        memset(&u, 0, sizeof u);
        if (po.tail) { /* without what follows the #include */
            po.tail = NULL;
            continue;
        }
        if (po.ncontexts) { /* the file on its own, as when nothing includes it */
            po.ncontexts = 0;
            continue;
        }
        for (size_t c = 0; c < nctx; c++)
            free(ctx_paths[c]), free(ctx_texts[c]);
        free(tail);
        res->status = GP_TRANSLATE_BAD_INPUT;
        res->error = strdup(err);
        return;
    }
    if (po.ncontexts)
        tr_diag_add(&u, false, u.pp.main_file, 1, 0, "included file",
                    "this file is compiled where %s includes it (line %d): it is read after "
                    "what %s declares before that line%s (its kernels are not this file's)",
                    ctx_paths[nctx - 1], ctx_lines[nctx - 1], ctx_paths[nctx - 1],
                    po.tail ? ", and that file's launches after it give the launch "
                              "configurations and template arguments"
                            : "");
    for (size_t c = 0; c < nctx; c++)
        free(ctx_paths[c]), free(ctx_texts[c]);
    free(tail);
    for (size_t i = 0; i < u.pp.nnotes; i++)
        tr_diag_add(&u, false, u.pp.notes[i].file, u.pp.notes[i].line, 0, u.pp.notes[i].construct,
                    "%s", u.pp.notes[i].text);
    tr_rename_overloads(&u);
    tr_constant_params(&u);
    tr_rename_reserved(&u);
    data_as_buffers(&u);
    tr_lower_options lo = {opt->partial, opt->simd_width, opt->line_directives, opt->checked_run};
    tr_lockstep(&u, &lo);
    gp_strbuf support = GP_STRBUF_INIT;
    int nk = 0;
    for (int i = 0; i < u.nfuncs; i++)
        nk += u.funcs[i]->kind == TR_F_GLOBAL;
    tr_kernel_info *ki = calloc((size_t)(nk ? nk : 1), sizeof *ki);
    int k = 0;
    for (int i = 0; i < u.nfuncs && ki; i++) {
        tr_func *f = u.funcs[i];
        if (f->kind != TR_F_GLOBAL) continue;
        ki[k].func = f;
        if (f->body) tr_lower_kernel(&u, &lo, f, &support, &ki[k]);
        k++;
    }
    for (int i = 0; i < u.nfuncs; i++)
        if (u.funcs[i]->kind == TR_F_DEVICE && !u.funcs[i]->used && !u.funcs[i]->synthetic)
            tr_diag_add(&u, false, u.funcs[i]->file, u.funcs[i]->line, 0, "unused device function",
                        "%s is called by no kernel: not translated", u.funcs[i]->name);
    cJSON *rep = cJSON_CreateObject();
    cJSON *hosts = cJSON_CreateArray();
    note_host_changes(&u, ki, k, hosts);

    /* which kernels are translated, and the output (all of them; refused ones, with --partial,
     * as comments so that the others build) */
    bool *ok = calloc((size_t)(k ? k : 1), sizeof *ok);
    for (int i = 0; ok && i < k; i++) {
        ok[i] = !kernel_refused(&u, ki[i].func);
        if (ok[i] && ki[i].todo) {
            /* a construct refused at a line another kernel (another instance of the same
             * template) was refused at already: one diagnostic there, this kernel held back too */
            const tr_func *kf = ki[i].func;
            const char *why = NULL;
            for (int d = 0; d < u.ndiags && !why; d++)
                if (u.diags[d].refusal && u.diags[d].kernel && u.diags[d].kernel != kf &&
                    u.diags[d].kernel->file == kf->file && u.diags[d].kernel->line == kf->line)
                    why = u.diags[d].reason;
            ok[i] = false;
            tr_diag_add(&u, true, kf->file, kf->line, 0, "refused construct",
                        "kernel %s holds a construct refused where another kernel from the same "
                        "lines was: %s",
                        kf->name, why ? why : "see the refusals at its lines");
            u.diags[u.ndiags - 1].kernel = ki[i].func;
        }
    }
    tr_assembly as = {&u, ki, k, gp_strbuf_cstr(&support), path, opt->simd_width};
    /* a kernel that calls a helper holding a refused construct is not translated either, even
     * when another kernel lowered that helper first (its refusals name that kernel) */
    bool *reach = calloc((size_t)(u.nemitted ? u.nemitted : 1), sizeof *reach);
    for (int i = 0; ok && reach && i < k; i++) {
        if (!ok[i]) continue;
        memset(reach, 0, (size_t)(u.nemitted ? u.nemitted : 1) * sizeof *reach);
        tr_reach(&as, i, reach);
        for (int j = 0; ok[i] && j < u.nemitted; j++) {
            const tr_clone *c = &u.emitted[j].g->clones[u.emitted[j].k];
            if (!reach[j] || !c->todo) continue;
            ok[i] = false;
            const tr_func *kf = ki[i].func;
            tr_diag_add(&u, true, kf->file, kf->line, 0, "untranslated function",
                        "kernel %s calls %s (line %d), which is not translated (its refusals "
                        "are at its lines)",
                        kf->name, c->name, u.emitted[j].g->line);
            u.diags[u.ndiags - 1].kernel = ki[i].func;
        }
    }
    free(reach);
    int refusals = tr_refusal_count(&u);
    if (ok && (refusals == 0 || opt->partial)) res->output = tr_assemble(&as, ok, NULL, refusals);
    tr_build *builds = NULL;
    if (ok && opt->verify && res->output) builds = tr_verify(&as, ok, opt);

    /* the report: diagnostics in file and line order */
    if (u.ndiags) qsort(u.diags, (size_t)u.ndiags, sizeof *u.diags, cmp_diag);
    cJSON_AddStringToObject(rep, "schema", "gpuport.translate/1");
    cJSON_AddStringToObject(rep, "file", path);
    /* "complete" only of output that built wherever it was built */
    bool build_failed = false;
    for (int i = 0; builds && i < k * TR_NTARGETS; i++)
        build_failed |= builds[i].status == TR_BUILD_FAILED;
    cJSON_AddBoolToObject(rep, "complete", refusals == 0 && !build_failed);
    cJSON_AddBoolToObject(rep, "verified", builds != NULL);
    cJSON *karr = cJSON_AddArrayToObject(rep, "kernels");
    /* the output's name in the run lines: FILE.cu's base name as FILE.gpk */
    char gpk[256];
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t blen = strcspn(base, ".");
    snprintf(gpk, sizeof gpk, "%.*s.gpk", (int)(blen ? blen : strlen(base)), base);
    for (int i = 0; i < k; i++) {
        tr_func *f = ki[i].func;
        bool kref = !ok || !ok[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", f->name);
        if (f->template_id) cJSON_AddStringToObject(o, "template", f->template_id);
        cJSON_AddNumberToObject(o, "line", f->line);
        cJSON_AddBoolToObject(o, "translated", !kref);
        cJSON_AddBoolToObject(o, "fp64", f->uses_fp64);
        cJSON_AddBoolToObject(o, "atomic64", f->uses_atomic64);
        cJSON_AddBoolToObject(o, "simd", f->uses_simd);
        cJSON *params = cJSON_AddArrayToObject(o, "parameters");
        for (int p = 0; p < ki[i].nparams; p++) {
            cJSON *po2 = cJSON_CreateObject();
            cJSON_AddStringToObject(po2, "kind", ki[i].params[p].kind);
            cJSON_AddStringToObject(po2, "type", ki[i].params[p].type);
            cJSON_AddStringToObject(po2, "name", ki[i].params[p].name);
            cJSON_AddItemToArray(params, po2);
        }
        if (f->launch) {
            const tr_launch *l = f->launch;
            cJSON *lj = cJSON_AddObjectToObject(o, "launch");
            cJSON_AddStringToObject(lj, "file", u.pp.files[l->file]);
            cJSON_AddNumberToObject(lj, "line", l->line);
            cJSON_AddStringToObject(lj, "config", tr_launch_config(&u, l));
            cJSON_AddNumberToObject(lj, "launches", f->nlaunches);
        }
        if (!kref)
            cJSON_AddStringToObject(o, "run", tr_run_line(&u, f, ki[i].params, ki[i].nparams, gpk));
        const tr_build *b = builds ? &builds[i * TR_NTARGETS] : NULL;
        cJSON_AddItemToObject(o, "targets", targets_json(f, kref, b));
        if (b) cJSON_AddItemToObject(o, "builds", builds_json(b));
        cJSON_AddItemToArray(karr, o);
    }
    /* The file as written: the runtime builds it whole, so one kernel that a target cannot
     * build (SIMD-group operations on OpenCL, double precision on Metal, a compile error) keeps
     * the file from that target even where its other kernels build on their own. */
    cJSON *whole = cJSON_AddObjectToObject(rep, "output_targets");
    cJSON *whole_why = NULL;
    for (int t = 0; t < TR_NTARGETS; t++) {
        const tr_func *bad = NULL;
        bool unchecked = !builds, failed = false;
        for (int i = 0; i < k && ok && !bad; i++) {
            if (!ok[i]) continue;
            const tr_func *f = ki[i].func;
            if ((t == TR_T_OPENCL && f->uses_simd) ||
                (t == TR_T_METAL && (f->uses_fp64 || f->uses_atomic64)))
                bad = f;
            else if (builds && builds[i * TR_NTARGETS + t].status == TR_BUILD_FAILED)
                bad = f, failed = true;
            else if (builds && builds[i * TR_NTARGETS + t].status != TR_BUILD_OK)
                unchecked = true;
        }
        if (bad) {
            cJSON_AddBoolToObject(whole, target_names[t], false);
            if (!whole_why) whole_why = cJSON_CreateObject();
            int ntr = 0;
            for (int q = 0; q < k; q++)
                ntr += ok[q];
            char why[400], others[160] = "";
            if (ntr > 1)
                snprintf(others, sizeof others,
                         "; the runtime builds the file whole (the other kernels build, from a "
                         "file without %s)",
                         bad->name);
            snprintf(why, sizeof why, "kernel %s %s%s", bad->name,
                     failed             ? "does not build there"
                     : t == TR_T_OPENCL ? "uses SIMD-group operations, which OpenCL does not have"
                     : bad->uses_fp64   ? "uses double precision, which Metal does not have"
                                        : "uses 64-bit atomics, which Metal does not have",
                     others);
            cJSON_AddStringToObject(whole_why, target_names[t], why);
        } else if (unchecked || !ok) {
            cJSON_AddNullToObject(whole, target_names[t]);
        } else {
            cJSON_AddBoolToObject(whole, target_names[t], true);
        }
    }
    if (whole_why) cJSON_AddItemToObject(whole, "why_not", whole_why);
    cJSON *harr = cJSON_AddArrayToObject(rep, "helpers");
    for (int i = 0; i < u.nfuncs; i++) {
        tr_func *f = u.funcs[i];
        if (f->kind != TR_F_DEVICE || !f->nclones) continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", f->name);
        if (f->template_id) cJSON_AddStringToObject(o, "template", f->template_id);
        if (f->synthetic) cJSON_AddBoolToObject(o, "written_by_translation", true);
        cJSON_AddNumberToObject(o, "line", f->line);
        cJSON *cl = cJSON_AddArrayToObject(o, "clones");
        for (int c = 0; c < f->nclones; c++) {
            cJSON *co = cJSON_CreateObject();
            cJSON_AddStringToObject(co, "name", f->clones[c].name);
            cJSON *sp = cJSON_AddArrayToObject(co, "pointer_spaces");
            for (int p = 0; p < f->nparams; p++)
                if (f->params[p]->type.nptr)
                    cJSON_AddItemToArray(sp,
                                         cJSON_CreateString(tr_space_name(f->clones[c].spaces[p])));
            cJSON_AddItemToArray(cl, co);
        }
        int nh = 0;
        for (int h = 0; h < f->nhoisted; h++)
            nh += f->hoisted[h]->owner == f;
        cJSON_AddNumberToObject(o, "hoisted_shared_arrays", nh);
        cJSON_AddItemToArray(harr, o);
    }
    cJSON_AddItemToObject(rep, "host_changes", hosts);
    cJSON *rarr = cJSON_AddArrayToObject(rep, "refusals");
    cJSON *narr = cJSON_AddArrayToObject(rep, "notes");
    for (int d = 0; d < u.ndiags; d++) {
        tr_diag *g = &u.diags[d];
        /* a refusal in a device function no kernel calls holds nothing back: a note */
        bool counts = tr_diag_counts(&u, g);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "file", file_name(&u, g->file));
        cJSON_AddNumberToObject(o, "line", g->line);
        if (g->col) cJSON_AddNumberToObject(o, "column", g->col);
        cJSON_AddStringToObject(o, "construct", g->construct);
        if (g->refusal && !counts) {
            char why[1200];
            snprintf(why, sizeof why, "in %s, which no kernel calls: %s",
                     g->func ? g->func->name : "unused code", g->reason);
            cJSON_AddStringToObject(o, "reason", why);
        } else {
            cJSON_AddStringToObject(o, "reason", g->reason);
        }
        cJSON_AddItemToArray(counts ? rarr : narr, o);
    }
    cJSON *sys = cJSON_AddArrayToObject(rep, "system_includes");
    for (size_t i = 0; i < u.pp.nsystem; i++)
        cJSON_AddItemToArray(sys, cJSON_CreateString(u.pp.system_includes[i]));
    if (builds) tr_verify_summary(rep, builds, k);

    res->status = refusals || build_failed ? GP_TRANSLATE_REFUSED : GP_TRANSLATE_OK;
    res->report = rep;
    tr_builds_free(builds, k);
    free(ok);
    for (int i = 0; i < k; i++)
        tr_kernel_info_free(&ki[i]);
    free(ki);
    gp_strbuf_free(&support);
    tr_unit_free(&u);
}

void gp_translate_result_free(gp_translate_result *res)
{
    free(res->output);
    cJSON_Delete(res->report);
    free(res->error);
    memset(res, 0, sizeof *res);
}
