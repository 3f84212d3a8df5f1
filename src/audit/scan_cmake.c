/* scan_cmake.c — CMake: a tokenizer for command invocations (unquoted, quoted and bracket
 * arguments; line and bracket comments) and the rules CMK-001/002. `if()` blocks are tracked:
 * code under a condition on a CUDA switch (an option that is not declared ON in this file,
 * CMAKE_CUDA_COMPILER, ...) is guarded; find_package without REQUIRED is optional. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "audit/scanners.h"

#define CM_ARG_MAX  4096 /* bytes */
#define CM_MAX_ARGS 256
#define CM_MAX_IF   64
#define CM_MAX_OPT  64

typedef struct cm_arg {
    size_t off, len;
    uint32_t line;
    size_t line_off;
} cm_arg;

typedef struct cm_if {
    bool cuda, inv, guard;
    bool enable; /* the switch turns CUDA on or off (GGML_CUDA, USE_CUBLAS, CUDAToolkit_FOUND),
                  * not a choice among CUDA-named things (NCCL_OS_LINUX) */
} cm_if;

typedef struct cm_scan {
    gp_audit_source *s;
    gp_audit_result *r;
    size_t pos;
    uint32_t line;
    size_t line_off;
    cm_arg cmd;
    cm_arg args[CM_MAX_ARGS];
    int nargs;
    cm_if ifs[CM_MAX_IF];
    int nif, if_overflow;
    char opt_on[CM_MAX_OPT][48]; /* options declared ON */
    int nopt;
} cm_scan;

static void cm_nl(cm_scan *c, size_t at)
{
    c->line++;
    c->line_off = at + 1;
}

/* "[=*[" at p: returns the number of '=' (>= 0), or -1. */
static int bracket_open(const char *d, size_t n, size_t p)
{
    if (p >= n || d[p] != '[') return -1;
    size_t q = p + 1;
    while (q < n && d[q] == '=')
        q++;
    return q < n && d[q] == '[' ? (int)(q - p - 1) : -1;
}

/* Called as pos moves through one long token: the bytes behind it are released once per
 * GP_AUDIT_CHUNK (a token's text is read no further than a comment's first GP_AUDIT_NOTE_MAX
 * bytes or an argument's CM_ARG_MAX). */
static inline void cm_through(cm_scan *c)
{
    if ((c->pos & (GP_AUDIT_CHUNK - 1)) == 0) gp_audit_source_release(c->s, c->pos);
}

static void skip_bracket(cm_scan *c, int eq)
{
    const char *d = c->s->data;
    size_t n = c->s->size;
    c->pos += (size_t)eq + 2;
    while (c->pos < n) {
        if (d[c->pos] == '\n') cm_nl(c, c->pos);
        if (d[c->pos] == ']') {
            size_t q = c->pos + 1;
            while (q < n && d[q] == '=')
                q++;
            if (q < n && d[q] == ']' && (int)(q - c->pos - 1) == eq) {
                c->pos = q + 1;
                return;
            }
        }
        c->pos++;
        cm_through(c);
    }
}

static void skip_comment(cm_scan *c)
{
    const char *d = c->s->data;
    size_t n = c->s->size, st = c->pos;
    uint32_t line = c->line;
    bool alone = true; /* blanks only around it on its line: it covers the next line too */
    for (size_t q = c->line_off; q < st; q++)
        if (!isspace((unsigned char)d[q])) alone = false;
    int eq = bracket_open(d, n, c->pos + 1);
    if (eq >= 0) { /* a bracket comment, #[[ ... ]]: alone when nothing follows it either */
        c->pos++;
        skip_bracket(c, eq);
        for (size_t q = c->pos; q < n && d[q] != '\n'; q++)
            if (!isspace((unsigned char)d[q])) alone = false;
    } else {
        const char *e = gp_audit_source_memchr(c->s, st, n, '\n');
        c->pos = e ? (size_t)(e - d) : n;
    }
    gp_audit_note_comment(c->r, d + st, c->pos - st, line, alone);
}

static void skip_space(cm_scan *c)
{
    const char *d = c->s->data;
    size_t n = c->s->size;
    while (c->pos < n) {
        char ch = d[c->pos];
        if (ch == '\n') {
            cm_nl(c, c->pos);
            c->pos++;
        } else if (ch == ' ' || ch == '\t' || ch == '\r') {
            c->pos++;
        } else if (ch == '#') {
            skip_comment(c);
        } else {
            return;
        }
    }
}

static bool arg_is(const cm_scan *c, const cm_arg *a, const char *w)
{
    size_t n = strlen(w);
    return a->len == n && memcmp(c->s->data + a->off, w, n) == 0;
}

static bool arg_starts(const cm_scan *c, const cm_arg *a, const char *w)
{
    size_t n = strlen(w);
    return a->len >= n && memcmp(c->s->data + a->off, w, n) == 0;
}

static bool cmd_is(const cm_scan *c, const char *w)
{
    size_t n = strlen(w);
    return c->cmd.len == n && strncasecmp(c->s->data + c->cmd.off, w, n) == 0;
}

static bool guarded(const cm_scan *c)
{
    for (int i = 0; i < c->nif; i++)
        if (c->ifs[i].guard) return true;
    return false;
}

/* Inside a branch that builds only with CUDA on: what the facts for resolve.c call guarded. */
static bool guarded_on(const cm_scan *c)
{
    for (int i = 0; i < c->nif; i++)
        if (c->ifs[i].guard && c->ifs[i].enable) return true;
    return false;
}

/* Does the switch w[0, n) turn CUDA on or off? Its last '_' part names CUDA (GGML_CUDA,
 * LLAMA_CUBLAS, USE_GPU), a part before says so (USE_CUDA_GRAPHS, WITH_CUDA), or it reports the
 * toolkit (CUDAToolkit_FOUND, CMAKE_CUDA_COMPILER). */
static bool switch_enables(const char *w, size_t n)
{
    static const char *const verbs[] = {"USE", "WITH", "ENABLE", "BUILD", "HAVE", "HAS"};
    static const char *const cuda[] = {"CUDA", "CUBLAS", "GPU", "NCCL", "CUDNN"};
    size_t last = n;
    while (last > 0 && w[last - 1] != '_')
        last--;
    for (size_t i = 0; i < sizeof cuda / sizeof cuda[0]; i++)
        if (n - last == strlen(cuda[i]) && strncasecmp(w + last, cuda[i], n - last) == 0)
            return true;
    if (n >= 6 && (strncasecmp(w + n - 6, "_FOUND", 6) == 0 ||
                   (n >= 9 && strncasecmp(w + n - 9, "_COMPILER", 9) == 0)))
        return true;
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++) {
        size_t k = strlen(verbs[i]);
        if (n > k && strncasecmp(w, verbs[i], k) == 0 && w[k] == '_') return true;
        for (size_t p = 1; p + k + 1 < n; p++)
            if (w[p - 1] == '_' && strncasecmp(w + p, verbs[i], k) == 0 && w[p + k] == '_')
                return true;
    }
    return false;
}

static void rep(cm_scan *c, int rule, const cm_arg *a, bool g)
{
    gp_audit_add(c->r, c->s, rule, g || guarded(c), a->line, a->line_off, a->off, a->len);
}

static bool option_on(const cm_scan *c, const char *w, size_t n)
{
    for (int i = 0; i < c->nopt; i++)
        if (strlen(c->opt_on[i]) == n && memcmp(c->opt_on[i], w, n) == 0) return true;
    return false;
}

/* An if()/elseif() condition: does it test a CUDA switch, and is that test negated? */
static void cond_eval(const cm_scan *c, bool *cuda, bool *inv, bool *enable)
{
    *cuda = false;
    *inv = false;
    *enable = false;
    bool neg = false;
    for (int i = 0; i < c->nargs; i++) {
        const cm_arg *a = &c->args[i];
        const char *w = c->s->data + a->off;
        if (arg_is(c, a, "NOT")) {
            neg = !neg;
            continue;
        }
        size_t st = 0, n = a->len;
        if (n > 3 && w[0] == '$' && w[1] == '{' && w[n - 1] == '}') {
            st = 2;
            n -= 3;
        }
        if (gp_audit_word_is_cuda_switch(w + st, n) && !option_on(c, w + st, n)) {
            *cuda = true;
            *inv = neg;
            *enable = switch_enables(w + st, n);
            return;
        }
        if (!arg_is(c, a, "(") && !arg_is(c, a, ")")) neg = false;
    }
}

static void do_if(cm_scan *c)
{
    if (cmd_is(c, "if")) {
        if (c->nif == CM_MAX_IF) {
            c->if_overflow++;
            return;
        }
        cm_if *f = &c->ifs[c->nif++];
        cond_eval(c, &f->cuda, &f->inv, &f->enable);
        f->guard = f->cuda && !f->inv;
        return;
    }
    if (c->if_overflow) {
        if (cmd_is(c, "endif")) c->if_overflow--;
        return;
    }
    if (c->nif == 0) return;
    cm_if *f = &c->ifs[c->nif - 1];
    if (cmd_is(c, "elseif")) {
        bool cuda, inv, enable;
        cond_eval(c, &cuda, &inv, &enable);
        /* after `if(NOT USE_CUDA)`, any other branch is the CUDA one */
        f->guard = (cuda && !inv) || (f->cuda && f->inv);
        if (cuda) {
            f->cuda = true;
            f->inv = inv;
            f->enable = enable;
        }
    } else if (cmd_is(c, "else")) {
        f->guard = f->cuda && f->inv;
    } else if (cmd_is(c, "endif")) {
        c->nif--;
    }
}

static bool cm_names_backend(const cm_scan *c)
{
    const char *w = c->s->data + c->cmd.off;
    for (size_t i = 0; i + 7 <= c->cmd.len; i++)
        if (strncasecmp(w + i, "backend", 7) == 0) return true;
    return false;
}

/* Arguments that name C/C++/CUDA sources (or globs of them), recorded for resolve.c with
 * whether this code is under a CUDA condition. */
static void cm_sources(cm_scan *c)
{
    static const char *const exts[] = {".cu", ".cuh", ".c", ".cc", ".cpp", ".cxx", ".h", ".hpp"};
    for (int i = 0; i < c->nargs; i++) {
        const char *w = c->s->data + c->args[i].off;
        size_t n = c->args[i].len;
        for (size_t e = 0; e < sizeof exts / sizeof exts[0]; e++) {
            size_t k = strlen(exts[e]);
            if (n > k && memcmp(w + n - k, exts[e], k) == 0) {
                gp_audit_fact(c->r, GP_FACT_SOURCE, guarded_on(c) ? GP_FACTF_GUARDED : 0, w, n);
                break;
            }
        }
    }
}

static void do_command(cm_scan *c)
{
    if (cmd_is(c, "if") || cmd_is(c, "elseif") || cmd_is(c, "else") || cmd_is(c, "endif")) {
        do_if(c);
        return;
    }
    if ((cmd_is(c, "option") || cmd_is(c, "cmake_dependent_option")) && c->nargs >= 2) {
        const cm_arg *def = c->nargs >= 3 ? &c->args[2] : NULL;
        bool on = def && (arg_is(c, def, "ON") || arg_is(c, def, "TRUE") || arg_is(c, def, "1") ||
                          arg_is(c, def, "YES"));
        if (on && c->nopt < CM_MAX_OPT && c->args[0].len < sizeof c->opt_on[0]) {
            memcpy(c->opt_on[c->nopt], c->s->data + c->args[0].off, c->args[0].len);
            c->opt_on[c->nopt++][c->args[0].len] = '\0';
        }
        /* an option on CUDA that is off unless asked for: the CUDA part is optional */
        bool off = !def || arg_is(c, def, "OFF") || arg_is(c, def, "FALSE") ||
                   arg_is(c, def, "0") || arg_is(c, def, "NO");
        if (off && gp_audit_word_is_cuda_switch(c->s->data + c->args[0].off, c->args[0].len))
            gp_audit_fact(c->r, GP_FACT_CUDA_OPTION, 0, c->s->data + c->args[0].off,
                          c->args[0].len);
        return;
    }
    if (cmd_is(c, "set") && c->nargs >= 3 && arg_is(c, &c->args[2], "CACHE") &&
        (arg_is(c, &c->args[1], "OFF") || arg_is(c, &c->args[1], "FALSE")) &&
        gp_audit_word_is_cuda_switch(c->s->data + c->args[0].off, c->args[0].len)) {
        gp_audit_fact(c->r, GP_FACT_CUDA_OPTION, 0, c->s->data + c->args[0].off, c->args[0].len);
        return;
    }
    if (cmd_is(c, "add_subdirectory") && c->nargs >= 1) {
        gp_audit_fact(c->r, GP_FACT_SUBDIR, guarded_on(c) ? GP_FACTF_GUARDED : 0,
                      c->s->data + c->args[0].off, c->args[0].len);
        return;
    }
    /* a project function that adds backends by name: ggml_add_backend(CUDA) */
    if (cm_names_backend(c)) {
        for (int i = 0; i < c->nargs; i++)
            if (c->args[i].len == 4 && strncasecmp(c->s->data + c->args[i].off, "cuda", 4) == 0)
                gp_audit_fact(c->r, GP_FACT_CUDA_BACKEND, guarded(c) ? GP_FACTF_GUARDED : 0,
                              c->s->data + c->cmd.off, c->cmd.len);
    }
    cm_sources(c);
    if (cmd_is(c, "project")) {
        for (int i = 1; i < c->nargs; i++)
            if (arg_is(c, &c->args[i], "CUDA")) rep(c, GP_R_CMK_001, &c->args[i], false);
        return;
    }
    if (cmd_is(c, "enable_language")) {
        for (int i = 0; i < c->nargs; i++)
            if (arg_is(c, &c->args[i], "CUDA")) rep(c, GP_R_CMK_001, &c->args[i], false);
        return;
    }
    if (cmd_is(c, "find_package") && c->nargs >= 1 &&
        (arg_is(c, &c->args[0], "CUDA") || arg_is(c, &c->args[0], "CUDAToolkit"))) {
        bool required = false;
        for (int i = 1; i < c->nargs; i++)
            if (arg_is(c, &c->args[i], "REQUIRED")) required = true;
        rep(c, GP_R_CMK_002, &c->args[0], !required);
        return;
    }
    if (cmd_is(c, "cuda_add_library") || cmd_is(c, "cuda_add_executable") ||
        cmd_is(c, "cuda_compile") || cmd_is(c, "cuda_add_cublas_to_target") ||
        cmd_is(c, "cuda_select_nvcc_arch_flags")) {
        rep(c, GP_R_CMK_002, &c->cmd, false);
        return;
    }
    bool lang = false;
    for (int i = 0; i < c->nargs; i++) {
        const cm_arg *a = &c->args[i];
        /* (CUDA_ARCHITECTURES, CUDA_SEPARABLE_COMPILATION: properties that mean nothing
         * without the CUDA language, which CMK-001 reports where it is enabled) */
        if (arg_starts(c, a, "CUDA::"))
            rep(c, GP_R_CMK_002, a, false);
        else if (lang && arg_is(c, a, "CUDA"))
            rep(c, GP_R_CMK_001, a, false);
        lang = arg_is(c, a, "LANGUAGE");
    }
}

/* One argument token at pos (unquoted, quoted or bracket). */
static bool read_arg(cm_scan *c, cm_arg *a)
{
    const char *d = c->s->data;
    size_t n = c->s->size;
    a->line = c->line;
    a->line_off = c->line_off;
    int eq = bracket_open(d, n, c->pos);
    if (eq >= 0) {
        a->off = c->pos + (size_t)eq + 2;
        skip_bracket(c, eq);
        a->len = c->pos > a->off + (size_t)eq + 2 ? c->pos - a->off - (size_t)eq - 2 : 0;
        return true;
    }
    if (d[c->pos] == '"') {
        a->off = ++c->pos;
        while (c->pos < n && d[c->pos] != '"') {
            if (d[c->pos] == '\\')
                c->pos++;
            else if (d[c->pos] == '\n')
                cm_nl(c, c->pos);
            c->pos++;
            cm_through(c);
        }
        if (c->pos > n) c->pos = n;
        a->len = c->pos - a->off;
        if (c->pos < n) c->pos++;
        return true;
    }
    a->off = c->pos;
    while (c->pos < n) {
        char ch = d[c->pos];
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '(' || ch == ')' ||
            ch == '#' || ch == '"')
            break;
        if (ch == '\\' && c->pos + 1 < n) c->pos++;
        c->pos++;
        cm_through(c);
    }
    if (c->pos > n) c->pos = n;
    a->len = c->pos - a->off;
    return a->len > 0;
}

void gp_audit_scan_cmake(gp_audit_source *s, gp_audit_result *r)
{
    cm_scan *c = calloc(1, sizeof *c);
    if (!c) return;
    c->s = s;
    c->r = r;
    c->line = 1;
    const char *d = s->data;
    size_t n = s->size;
    while (c->pos < n) {
        gp_audit_source_release(s, c->pos);
        skip_space(c);
        if (c->pos >= n) break;
        /* command name */
        c->cmd.off = c->pos;
        c->cmd.line = c->line;
        c->cmd.line_off = c->line_off;
        while (c->pos < n && ((d[c->pos] >= '0' && d[c->pos] <= '9') || d[c->pos] == '_' ||
                              ((d[c->pos] | 0x20) >= 'a' && (d[c->pos] | 0x20) <= 'z'))) {
            c->pos++;
            cm_through(c);
        }
        c->cmd.len = c->pos - c->cmd.off;
        skip_space(c);
        if (c->cmd.len == 0 || c->pos >= n || d[c->pos] != '(') {
            if (c->cmd.len == 0) c->pos++; /* stray character: move on */
            continue;
        }
        c->pos++;
        c->nargs = 0;
        int depth = 1;
        while (c->pos < n && depth > 0) {
            skip_space(c);
            if (c->pos >= n) break;
            char ch = d[c->pos];
            cm_arg a;
            if (ch == '(' || ch == ')') {
                depth += ch == '(' ? 1 : -1;
                a.off = c->pos;
                a.len = 1;
                a.line = c->line;
                a.line_off = c->line_off;
                c->pos++;
                if (depth == 0) break;
            } else if (!read_arg(c, &a)) {
                c->pos++;
                continue;
            }
            /* (an argument longer than any a rule reads is not kept: a name, a path, a flag) */
            if (c->nargs < CM_MAX_ARGS && a.len <= CM_ARG_MAX) c->args[c->nargs++] = a;
            /* a command that runs on (unbalanced parentheses): the bytes behind are released,
             * and the kept arguments' few pages are read again when the command is looked at */
            if (c->pos - c->cmd.off > GP_AUDIT_CHUNK) gp_audit_source_release(s, c->pos);
        }
        do_command(c);
        gp_audit_source_release(s, c->pos);
    }
    free(c);
}
