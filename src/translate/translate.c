/* translate.c — the translation of one file, end to end: preprocess, parse, lower every kernel,
 * assemble the dialect source (kept constants, __constant__ data, device-function clones, kernels)
 * and the report. */
#include "translate/translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lower.h"
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

static bool diag_in_func(const tr_unit *u, const tr_diag *d, const tr_func *f)
{
    (void)u;
    if (d->file != f->file || d->line < f->line) return false;
    return true; /* refined below by the next function's start */
}

/* Which diagnostics fall inside kernel k's source lines (up to the next function in the file). */
static bool diag_belongs(const tr_unit *u, const tr_diag *d, const tr_func *f)
{
    if (!diag_in_func(u, d, f)) return false;
    for (int i = 0; i < u->nfuncs; i++) {
        const tr_func *g = u->funcs[i];
        if (g != f && g->file == f->file && g->line > f->line && d->line >= g->line) return false;
    }
    return true;
}

static int cmp_diag(const void *a, const void *b)
{
    const tr_diag *x = a, *y = b;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    return x->col < y->col ? -1 : x->col > y->col;
}

static cJSON *targets_json(const tr_func *f, bool refused)
{
    cJSON *t = cJSON_CreateObject();
    cJSON_AddBoolToObject(t, "cuda", !refused);
    cJSON_AddBoolToObject(t, "cpu", !refused);
    cJSON_AddBoolToObject(t, "opencl", !refused && !f->uses_simd);
    cJSON_AddBoolToObject(t, "metal", !refused && !f->uses_fp64);
    if ((f->uses_fp64 || f->uses_simd) && !refused) {
        cJSON *why = cJSON_AddObjectToObject(t, "conditions");
        if (f->uses_simd)
            cJSON_AddStringToObject(why, "opencl",
                                    "none: OpenCL has no SIMD-group operations of a width a "
                                    "kernel can require");
        else
            cJSON_AddStringToObject(why, "opencl", "a device with fp64 (cl_khr_fp64)");
        if (f->uses_fp64)
            cJSON_AddStringToObject(why, "metal", "Apple GPUs have no double precision");
        else
            cJSON_AddStringToObject(why, "metal", "an Apple GPU (SIMD groups of 32)");
        if (f->uses_simd)
            cJSON_AddStringToObject(why, "cpu", "emulated SIMD groups of 32 (correct, slow)");
    }
    return t;
}

void gp_translate(const char *path, const char *source, size_t source_len,
                  const gp_translate_options *opt, gp_translate_result *res)
{
    memset(res, 0, sizeof *res);
    gp_translate_options none = {0};
    if (!opt) opt = &none;
    tr_unit u = {0};
    char err[1024];
    tr_pp_options po = {opt->include_dirs, opt->ninclude_dirs, opt->defines, opt->ndefines, source,
                        source_len};
    if (tr_preprocess(path, &po, &u.pp, err, sizeof err) != 0 ||
        tr_parse(&u, err, sizeof err) != 0) {
        res->status = GP_TRANSLATE_BAD_INPUT;
        res->error = strdup(err);
        tr_unit_free(&u);
        return;
    }
    tr_rename_reserved(&u);
    tr_lower_options lo = {opt->partial, opt->simd_width};
    gp_strbuf helpers = GP_STRBUF_INIT;
    int nk = 0;
    for (int i = 0; i < u.nfuncs; i++)
        nk += u.funcs[i]->kind == TR_F_GLOBAL;
    tr_kernel_info *ki = calloc((size_t)(nk ? nk : 1), sizeof *ki);
    int k = 0;
    bool fp64 = false, simd = false;
    for (int i = 0; i < u.nfuncs && ki; i++) {
        tr_func *f = u.funcs[i];
        if (f->kind != TR_F_GLOBAL) continue;
        ki[k].func = f;
        if (f->body)
            tr_lower_kernel(&u, &lo, f, &helpers, &ki[k]);
        else if (opt->partial) {
            gp_strbuf t = GP_STRBUF_INIT;
            gp_strbuf_printf(&t, "/* %s:%d: kernel %s */\nGP_TODO(\"", file_name(&u, f->file),
                             f->line, f->name);
            for (const char *c = f->refused; *c; c++) {
                if (*c == '"' || *c == '\\') gp_strbuf_putc(&t, '\\');
                gp_strbuf_putc(&t, *c);
            }
            gp_strbuf_puts(&t, "\");\n\n");
            tr_kernel_info_set_text(&ki[k], gp_strbuf_cstr(&t));
            gp_strbuf_free(&t);
        }
        fp64 |= f->uses_fp64;
        simd |= f->uses_simd;
        k++;
    }
    for (int i = 0; i < u.nconstants; i++) {
        tr_sym *s = u.constants[i];
        if (!u.constant_inits[i])
            tr_diag_add(&u, true, s->file, s->line, s->col, "__constant__ without initialiser",
                        "__constant__ %s is set by the host (cudaMemcpyToSymbol): pass it to the "
                        "kernels as a GP_CBUF buffer parameter instead",
                        s->name);
    }
    for (int i = 0; i < u.nfuncs; i++)
        if (u.funcs[i]->kind == TR_F_DEVICE && u.funcs[i]->nclones == 0)
            tr_diag_add(&u, false, u.funcs[i]->file, u.funcs[i]->line, 0, "unused device function",
                        "%s is called by no kernel: not translated", u.funcs[i]->name);

    /* the report: diagnostics in file and line order */
    if (u.ndiags) qsort(u.diags, (size_t)u.ndiags, sizeof *u.diags, cmp_diag);
    int refusals = tr_refusal_count(&u);
    cJSON *rep = cJSON_CreateObject();
    cJSON_AddStringToObject(rep, "schema", "gpuport.translate/1");
    cJSON_AddStringToObject(rep, "file", path);
    cJSON_AddBoolToObject(rep, "complete", refusals == 0);
    cJSON *karr = cJSON_AddArrayToObject(rep, "kernels");
    for (int i = 0; i < k; i++) {
        tr_func *f = ki[i].func;
        bool kref = f->body == NULL;
        for (int d = 0; d < u.ndiags; d++)
            if (u.diags[d].refusal && diag_belongs(&u, &u.diags[d], f)) kref = true;
        /* a refusal in a helper the kernel calls also keeps the kernel back */
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", f->name);
        cJSON_AddNumberToObject(o, "line", f->line);
        cJSON_AddBoolToObject(o, "translated", !kref);
        cJSON_AddBoolToObject(o, "fp64", f->uses_fp64);
        cJSON_AddBoolToObject(o, "simd", f->uses_simd);
        cJSON *params = cJSON_AddArrayToObject(o, "parameters");
        for (int p = 0; p < ki[i].nparams; p++) {
            cJSON *po2 = cJSON_CreateObject();
            cJSON_AddStringToObject(po2, "kind", ki[i].params[p].kind);
            cJSON_AddStringToObject(po2, "type", ki[i].params[p].type);
            cJSON_AddStringToObject(po2, "name", ki[i].params[p].name);
            cJSON_AddItemToArray(params, po2);
        }
        cJSON_AddItemToObject(o, "targets", targets_json(f, kref));
        cJSON_AddItemToArray(karr, o);
    }
    cJSON *harr = cJSON_AddArrayToObject(rep, "helpers");
    for (int i = 0; i < u.nfuncs; i++) {
        tr_func *f = u.funcs[i];
        if (f->kind != TR_F_DEVICE || !f->nclones) continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", f->name);
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
    cJSON *rarr = cJSON_AddArrayToObject(rep, "refusals");
    cJSON *narr = cJSON_AddArrayToObject(rep, "notes");
    for (int d = 0; d < u.ndiags; d++) {
        tr_diag *g = &u.diags[d];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "file", file_name(&u, g->file));
        cJSON_AddNumberToObject(o, "line", g->line);
        if (g->col) cJSON_AddNumberToObject(o, "column", g->col);
        cJSON_AddStringToObject(o, "construct", g->construct);
        cJSON_AddStringToObject(o, "reason", g->reason);
        cJSON_AddItemToArray(g->refusal ? rarr : narr, o);
    }
    cJSON *sys = cJSON_AddArrayToObject(rep, "system_includes");
    for (size_t i = 0; i < u.pp.nsystem; i++)
        cJSON_AddItemToArray(sys, cJSON_CreateString(u.pp.system_includes[i]));

    /* the output */
    if (refusals == 0 || opt->partial) {
        gp_strbuf out = GP_STRBUF_INIT;
        gp_strbuf_printf(&out,
                         "/* Translated from %s by gpuport translate: the portable kernel "
                         "dialect (docs/dialect.md).\n * Review before use; the report lists "
                         "every change that needs a look. */\n",
                         path);
        if (refusals)
            gp_strbuf_printf(&out,
                             "/* INCOMPLETE: %d construct%s could not be translated; each is "
                             "marked GP_TODO(\"...\"), which compiles nowhere. */\n",
                             refusals, refusals == 1 ? "" : "s");
        if (fp64) gp_strbuf_puts(&out, "GP_REQUIRES_FP64\n");
        if (simd) gp_strbuf_printf(&out, "GP_REQUIRES_SIMD_WIDTH(%d)\n", opt->simd_width);
        for (size_t i = 0; i < u.pp.nkept; i++)
            gp_strbuf_printf(&out, "#define %s %s\n", u.pp.kept[i].name, u.pp.kept[i].body);
        if (u.pp.nkept || fp64 || simd) gp_strbuf_putc(&out, '\n');
        for (int i = 0; i < u.nconstants; i++) {
            tr_sym *s = u.constants[i];
            if (!u.constant_inits[i]) {
                if (opt->partial)
                    gp_strbuf_printf(&out,
                                     "GP_TODO(\"__constant__ %s is set by the host: pass it as "
                                     "a GP_CBUF parameter\");\n",
                                     s->name);
                continue;
            }
            tr_emit_constant(&u, s, u.constant_inits[i], &out);
        }
        if (u.nconstants) gp_strbuf_putc(&out, '\n');
        gp_strbuf_append(&out, helpers.data ? helpers.data : "", helpers.len);
        for (int i = 0; i < k; i++)
            if (ki[i].text) gp_strbuf_puts(&out, ki[i].text);
        res->output = gp_strbuf_take(&out);
    }
    res->status = refusals ? GP_TRANSLATE_REFUSED : GP_TRANSLATE_OK;
    res->report = rep;
    for (int i = 0; i < k; i++)
        tr_kernel_info_free(&ki[i]);
    free(ki);
    gp_strbuf_free(&helpers);
    tr_unit_free(&u);
}

void gp_translate_result_free(gp_translate_result *res)
{
    free(res->output);
    cJSON_Delete(res->report);
    free(res->error);
    memset(res, 0, sizeof *res);
}
