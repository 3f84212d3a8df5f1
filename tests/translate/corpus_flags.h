/* corpus_flags.h — the options a corpus file asks for on its "// translate flags:" line
 * (--simd-width N, -D NAME[=VALUE] or -DNAME), as the corpus tests translate it. */
#ifndef GPUPORT_TESTS_TRANSLATE_CORPUS_FLAGS_H
#define GPUPORT_TESTS_TRANSLATE_CORPUS_FLAGS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/translate.h"
#include "util/fs.h"

typedef struct corpus_flags {
    char defs[8][64];
    const char *ptrs[8];
} corpus_flags;

static inline void corpus_flags_apply(const char *src, corpus_flags *f, gp_translate_options *o)
{
    const char *p = strstr(src, "// translate flags:");
    if (!p) return;
    char line[256];
    p += strlen("// translate flags:");
    snprintf(line, sizeof line, "%.*s", (int)strcspn(p, "\n"), p);
    char *save = NULL;
    for (char *w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (!strcmp(w, "--simd-width")) {
            char *v = strtok_r(NULL, " ", &save);
            o->simd_width = v ? atoi(v) : 0;
        } else if (!strncmp(w, "-D", 2) && o->ndefines < 8) {
            const char *d = w[2] ? w + 2 : strtok_r(NULL, " ", &save);
            if (!d) break;
            snprintf(f->defs[o->ndefines], sizeof f->defs[0], "%s", d);
            f->ptrs[o->ndefines] = f->defs[o->ndefines];
            o->ndefines++;
        }
    }
    o->defines = f->ptrs;
}

/* Translates the corpus file at `path` as its header asks (its flags line; --partial where some
 * kernels are expected refused). r->output is NULL when it is refused whole or unreadable (then
 * r->error, or err, says why). */
static inline void corpus_translate(const char *path, gp_translate_result *r, char *err, size_t cap)
{
    size_t len;
    memset(r, 0, sizeof *r);
    char *src = gp_read_file(path, 1 << 20, false, &len, err, cap);
    if (!src) return;
    gp_translate_options to = {0};
    corpus_flags fl;
    corpus_flags_apply(src, &fl, &to);
    to.partial = strstr(src, "// expect kernel ") != NULL;
    free(src);
    gp_translate(path, NULL, 0, &to, r);
}

#endif
