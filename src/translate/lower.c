/* lower.c — from the CUDA tree to dialect source, one kernel at a time: the analysis of each
 * function (and of each clone of a device function it calls) runs to a fixed point, then a final
 * pass reports, and the function is printed. The pieces: types.c, infer.c, calls.c, clone.c,
 * print.c, rename.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lower_impl.h"
#include "translate/map.h"
#include "util/strbuf.h"

const char *const tl_space_macro[] = {"", "GP_GLOBAL", "GP_SHARED", "GP_CONSTANT", "GP_PRIVATE"};
const char *const tl_space_name[] = {"none", "global", "shared", "constant", "private"};
const char *const tl_builtin_cuda[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
const char *const tl_builtin_dialect[] = {"gp_local_id", "gp_group_id", "gp_local_size",
                                          "gp_num_groups"};

void tl_refuse(lctx *c, tr_expr *e, const char *construct, const char *fmt, ...)
{
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (!c->final) return;
    tr_diag_add(c->u, true, e->file, e->line, e->col, construct, "%s", buf);
    if (!e->todo) e->todo = tr_strdup(c->u, buf);
}

void tl_note(lctx *c, int file, int line, const char *construct, const char *fmt, ...)
{
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (c->final) tr_diag_add(c->u, false, file, line, 0, construct, "%s", buf);
}

void tl_lower_function(lctx *parent, tr_func *f, tr_clone *clone)
{
    lctx c = *parent;
    c.f = f;
    c.clone = clone;
    c.kernel = clone == NULL;
    c.hoist = NULL;
    c.nhoist = 0;
    if (c.kernel)
        c.info = parent->info;
    else
        c.info = NULL;
    f->visiting = true;
    tr_sym **locals = NULL;
    int nlocals = 0;
    tl_collect_locals(f->body, &locals, &nlocals, c.u);
    for (int i = 0; i < nlocals; i++)
        locals[i]->seen_spaces = 0, locals[i]->conflict_line = 0;
    for (int i = 0; i < f->nparams; i++)
        f->params[i]->assigned = false;
    /* propagate pointer spaces to a fixed point, then one final pass that reports and descends */
    c.final = false;
    for (int pass = 0; pass < 16; pass++) {
        c.changed = false;
        tl_infer_stmt(&c, f->body);
        if (!c.changed) break;
    }
    c.final = true;
    tl_infer_stmt(&c, f->body);
    for (int i = 0; i < nlocals; i++) {
        tr_sym *s = locals[i];
        if (!s->type.nptr || s->ndims) continue;
        unsigned bits = s->seen_spaces, n = 0;
        for (int sp = 1; sp <= 4; sp++)
            n += (bits >> sp) & 1;
        if (n > 1) {
            char list[128] = "";
            for (int sp = 1; sp <= 4; sp++)
                if (bits & (1u << sp)) {
                    if (list[0]) strcat(list, " and ");
                    strcat(list, tl_space_name[sp]);
                }
            tr_diag_add(c.u, true, s->file, s->line, s->col, "address space",
                        "pointer %s is given %s pointers (line %d): its address space depends on "
                        "control flow; use one pointer per space",
                        s->name, list, s->conflict_line);
        } else if (n == 0) {
            tr_diag_add(c.u, true, s->file, s->line, s->col, "address space",
                        "pointer %s is never given an address, so its address space is unknown; "
                        "initialise it where it is declared",
                        s->name);
        }
    }
    if (c.kernel) {
        /* every shared array the kernel or its callees need */
        for (int i = 0; i < f->nhoisted; i++) {
            tr_sym **n = tr_alloc(c.u, (size_t)(c.nhoist + 1) * sizeof *n);
            if (c.nhoist) memcpy(n, c.hoist, (size_t)c.nhoist * sizeof *n);
            n[c.nhoist++] = f->hoisted[i];
            c.hoist = n;
        }
        int ndyn = 0;
        for (int i = 0; i < c.nhoist; i++)
            ndyn += c.hoist[i]->kind == TR_SYM_DYN_SHARED;
        if (ndyn > 1)
            tr_diag_add(
                c.u, true, f->file, f->line, 0, "extern __shared__",
                "kernel %s uses %d extern __shared__ arrays (here or in the functions it "
                "calls); CUDA overlays them on one block, the dialect has one dynamic block "
                "per kernel: declare one and cast it",
                f->name, ndyn);
    }
    for (int i = 0; i < f->nparams; i++) {
        const char *why = NULL;
        tr_sym *p = f->params[i];
        if (p->type.nptr && !p->ref && tl_is_vec3(p->type.base) && !tl_packed3(p->type.base))
            tr_diag_add(c.u, true, p->file, p->line, p->col, p->type.base,
                        "parameter %s points to %s: CUDA stores 3-component vectors packed "
                        "(float3: 12 bytes), OpenCL and Metal as four; the output packs buffers "
                        "of float3, int3, uint3 and uchar3 only: store the 4-component type (or "
                        "three values)",
                        p->name, p->type.base);
        else if (!tl_map_base(p->type.base, &why))
            tr_diag_add(c.u, true, p->file, p->line, p->col, p->type.base, "parameter %s: %s",
                        p->name, why);
    }
    if (f->ret.nptr && (!clone || clone->ret_space == TR_SP_NONE || clone->ret_spaces_differ))
        tr_diag_add(c.u, true, f->file, f->line, 0, "pointer return",
                    "%s returns a pointer whose address space %s; return an index instead",
                    f->template_id ? f->template_id : f->name,
                    clone && clone->ret_spaces_differ
                        ? "is not one for every return (or is not known at one)"
                        : "is not known");
    /* print */
    gp_strbuf sb = GP_STRBUF_INIT;
    if (c.kernel && f->launch) /* how the host code launches it */
        gp_strbuf_printf(&sb, "/* %s:%d, launched at %s:%d as %s */\n", c.u->pp.files[f->file],
                         f->line, c.u->pp.files[f->launch->file], f->launch->line,
                         tr_launch_config(c.u, f->launch));
    else
        gp_strbuf_printf(&sb, "/* %s:%d */\n", c.u->pp.files[f->file], f->line);
    if (c.opt && c.opt->line_directives && !strpbrk(c.u->pp.files[f->file], "\"\\\n"))
        gp_strbuf_printf(&sb, "#line %d \"%s\"\n", f->line, c.u->pp.files[f->file]);
    if (c.kernel) {
        tl_emit_signature_kernel(&c, &sb);
        if (c.info->nparams > 24) /* GP_KERNEL's limit (the runtime's GP_MAX_KERNEL_ARGS) */
            tr_diag_add(c.u, true, f->file, f->line, 0, "too many parameters",
                        "kernel %s takes %d parameters in the output (with the data the host "
                        "fills): a kernel of the dialect takes at most 24; pass some in a struct "
                        "or a buffer",
                        f->name, c.info->nparams);
        gp_strbuf_puts(&sb, "{\n");
        tl_emit_kernel_shared(&c, &sb, f->body);
        for (int i = 0; i < c.nhoist; i++) {
            tr_sym *s = c.hoist[i];
            if (s->kind != TR_SYM_SHARED || s->owner == f) continue;
            tl_indent(&sb, 1);
            gp_strbuf_puts(&sb, "GP_SHARED_DECL ");
            const char *why = NULL;
            const char *b = tl_map_base(s->type.base, &why);
            if (s->owner) /* a function's: named after it; the file's: its own name */
                gp_strbuf_printf(&sb, "%s %s_%s", b ? b : s->type.base, s->owner->name, s->name);
            else
                gp_strbuf_printf(&sb, "%s %s", b ? b : s->type.base, s->name);
            for (int d = 0; d < s->ndims; d++) {
                gp_strbuf_putc(&sb, '[');
                if (s->dims[d]) {
                    lctx oc = c;
                    oc.f = s->owner ? s->owner : f;
                    tl_emit_expr(&oc, &sb, s->dims[d], 1);
                }
                gp_strbuf_putc(&sb, ']');
            }
            gp_strbuf_puts(&sb, ";\n");
        }
    } else {
        tl_emit_signature_helper(&c, &sb);
        gp_strbuf_puts(&sb, "{\n");
    }
    for (int i = 0; i < f->nparams; i++) { /* value parameters the body assigns: copied on
                                            * entry; a float3's 12 bytes unpacked */
        tr_sym *p = f->params[i];
        const char *pk = !p->type.nptr && !p->ref ? tl_packed3(p->type.base) : NULL;
        if (c.kernel && (p->assigned || pk)) {
            const char *why = NULL;
            tl_indent(&sb, 1);
            if (pk)
                gp_strbuf_printf(&sb, "%s %s = gp_unpack_%s3(%s_in);\n",
                                 tl_map_base(p->type.base, &why), p->name, pk, p->name);
            else
                gp_strbuf_printf(&sb, "%s %s = %s_in;\n", tl_map_base(p->type.base, &why), p->name,
                                 p->name);
        }
    }
    for (int i = 0; i < f->body->n; i++)
        if (f->body->list[i] && f->body->list[i]->kind != TR_S_EMPTY)
            tl_emit_stmt(&c, &sb, f->body->list[i], 1);
    gp_strbuf_puts(&sb, "}\n\n");
    const char *text = gp_strbuf_cstr(&sb);
    if (c.kernel) {
        tr_kernel_info_set_text(c.info, text);
        c.info->todo = strstr(text, "GP_TODO(") != NULL;
    } else {
        clone->text = tr_strdup(c.u, text);
        clone->todo = strstr(text, "GP_TODO(") != NULL;
        tr_unit *u = c.u;
        tr_clone_ref *n = tr_alloc(u, (size_t)(u->nemitted + 1) * sizeof *n);
        if (u->nemitted) memcpy(n, u->emitted, (size_t)u->nemitted * sizeof *n);
        n[u->nemitted++] = (tr_clone_ref){f, (int)(clone - f->clones)};
        u->emitted = n;
    }
    gp_strbuf_free(&sb);
    f->visiting = false;
}

void tr_lower_kernel(tr_unit *u, const tr_lower_options *opt, tr_func *kernel, gp_strbuf *helpers,
                     tr_kernel_info *info)
{
    lctx c = {0};
    c.u = u;
    c.opt = opt;
    c.helpers = helpers;
    c.info = info;
    u->cur_kernel = kernel;
    tl_lower_function(&c, kernel, NULL);
    u->cur_kernel = NULL;
}
const char *tr_space_name(tr_space sp)
{
    return tl_space_name[sp];
}
