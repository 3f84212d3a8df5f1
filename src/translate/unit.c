/* unit.c — the translation unit's arena and its diagnostics. Every refusal and note records the
 * function being parsed and the kernel being lowered when it was made, so that a refusal in a
 * device function no kernel calls is only a note, and each kernel's status is its own. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/ast.h"

enum { CHUNK = 64 * 1024, BIG = 8 * 1024, ALIGN = 16 };

static void *new_block(tr_unit *u, size_t size)
{
    void *p = calloc(1, size);
    if (!p) abort(); /* the translator's inputs are capped; running out here is not recoverable */
    if ((u->nblocks & (u->nblocks - 1)) == 0) { /* capacity doubles at powers of two */
        void **b = realloc(u->blocks, (u->nblocks ? u->nblocks * 2 : 64) * sizeof *b);
        if (!b) abort();
        u->blocks = b;
    }
    u->blocks[u->nblocks++] = p;
    return p;
}

void *tr_alloc(tr_unit *u, size_t size)
{
    size = (size + ALIGN - 1) / ALIGN * ALIGN;
    if (!size) size = ALIGN;
    if (size > BIG) return new_block(u, size);
    if (size > u->left) {
        u->next = new_block(u, CHUNK);
        u->left = CHUNK;
    }
    void *p = u->next;
    u->next += size;
    u->left -= size;
    return p;
}

char *tr_strdup(tr_unit *u, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = tr_alloc(u, n);
    memcpy(p, s, n);
    return p;
}

void tr_diag_add(tr_unit *u, bool refusal, int file, int line, int col, const char *construct,
                 const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (int i = 0; i < u->ndiags; i++) /* one diagnostic per place and construct */
        if (u->diags[i].file == file && u->diags[i].line == line &&
            strcmp(u->diags[i].construct, construct) == 0 && strcmp(u->diags[i].reason, buf) == 0) {
            /* seen again while lowering another kernel: it holds that kernel back too */
            if (refusal && !u->diags[i].kernel) u->diags[i].kernel = u->cur_kernel;
            return;
        }
    tr_diag *d = realloc(u->diags, (size_t)(u->ndiags + 1) * sizeof *d);
    if (!d) abort();
    u->diags = d;
    u->diags[u->ndiags++] = (tr_diag){file,        line,    col,         strdup(construct),
                                      strdup(buf), refusal, u->cur_func, u->cur_kernel};
}

bool tr_diag_counts(const tr_unit *u, const tr_diag *d)
{
    (void)u;
    if (!d->refusal) return false;
    if (d->kernel || !d->func) return true;
    return d->func->kind == TR_F_GLOBAL || d->func->used;
}

int tr_refusal_count(const tr_unit *u)
{
    int n = 0;
    for (int i = 0; i < u->ndiags; i++)
        n += tr_diag_counts(u, &u->diags[i]);
    return n;
}

void tr_unit_free(tr_unit *u)
{
    for (size_t i = 0; i < u->nblocks; i++)
        free(u->blocks[i]);
    free(u->blocks);
    for (int i = 0; i < u->ndiags; i++)
        free(u->diags[i].construct), free(u->diags[i].reason);
    free(u->diags);
    free(u->funcs);
    free(u->constants);
    free(u->constant_inits);
    free(u->globals);
    free(u->templates);
    free(u->structs);
    tr_pp_result_free(&u->pp);
    memset(u, 0, sizeof *u);
}
