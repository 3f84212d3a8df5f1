/* scan_make.c — Makefiles and shell scripts: a word lexer per logical line (comments dropped,
 * quotes and `=` assignments split into words; the text of messages — `$(info ...)`,
 * `$(warning ...)`, `$(error ...)`, echo and printf — is no code) and the rules MK-001 and
 * DOCKER-001 (`--gpus`). Conditionals on a CUDA switch (`ifdef USE_CUDA`, `ifneq ($(NVCC),)`,
 * the `else` of `ifeq ($(NVCC),)`, `if command -v nvcc ...; then`) guard what they enclose.
 * A Makefile whose CUDA branch adds targets or sources builds CUDA only where it is found: its
 * CUDA settings (NVCC_FLAGS = ..., NVCC := $(shell which nvcc)) and the recipes of those
 * targets count as guarded, and the sources of those targets are recorded for resolve.c. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "audit/lines.h"
#include "audit/scanners.h"

#define MK_MAX_IF      64
#define MK_MAX_TARGETS 64
#define MK_MAX_RULES   256
#define MK_NAME_MAX    64
#define MK_MAX_LATE    256

typedef struct mk_word {
    size_t off, len;
} mk_word;

typedef struct mk_cond {
    bool cuda, inv, guard; /* tests a CUDA switch, negated (ifndef, !), the branch is guarded */
} mk_cond;

typedef struct mk_rule {
    char target[MK_NAME_MAX];
    char source[MK_NAME_MAX * 2];
} mk_rule;

typedef struct mk_scan {
    gp_audit_source *s;
    gp_audit_result *r;
    bool shell;
    mk_cond ifs[MK_MAX_IF];
    int nif, overflow;
    /* Makefiles: targets added in a CUDA branch, the sources of every rule, the recipe's
     * targets, and the findings of CUDA settings (guarded at the end when there is a CUDA
     * branch) */
    char targets[MK_MAX_TARGETS][MK_NAME_MAX];
    int ntargets;
    mk_rule rules[MK_MAX_RULES];
    int nrules;
    bool recipe_gated; /* the rule above the recipe lines builds a CUDA-branch target */
    bool gates;        /* a CUDA branch adds targets or sources */
    size_t late[MK_MAX_LATE];
    int nlate;
} mk_scan;

static bool w_is(const mk_scan *m, const mk_word *w, const char *s)
{
    size_t n = strlen(s);
    return w->len == n && memcmp(m->s->data + w->off, s, n) == 0;
}

static bool w_starts(const mk_scan *m, const mk_word *w, const char *s)
{
    size_t n = strlen(s);
    return w->len >= n && memcmp(m->s->data + w->off, s, n) == 0;
}

/* At d[p] ("$(info ..."): the end of a message function's call, or p when it is none. */
static size_t skip_message_call(const char *d, size_t p, size_t e)
{
    static const char *const fns[] = {"info", "warning", "error"};
    if (p + 2 >= e || d[p] != '$' || (d[p + 1] != '(' && d[p + 1] != '{')) return p;
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
        size_t k = strlen(fns[i]);
        if (p + 2 + k < e && memcmp(d + p + 2, fns[i], k) == 0 &&
            (d[p + 2 + k] == ' ' || d[p + 2 + k] == '\t')) {
            int depth = 0;
            for (size_t q = p + 1; q < e; q++) {
                if (d[q] == '(' || d[q] == '{') depth++;
                if ((d[q] == ')' || d[q] == '}') && --depth == 0) return q + 1;
            }
            return e;
        }
    }
    return p;
}

static bool is_message_word(const char *s, size_t n)
{
    while (n && (*s == '@' || *s == '-'))
        s++, n--;
    return (n == 4 && memcmp(s, "echo", 4) == 0) || (n == 6 && memcmp(s, "printf", 6) == 0);
}

/* Splits a logical line into words; stops at a comment. Returns the count (at most cap). */
static size_t split_words(const mk_scan *m, const gp_line *l, mk_word *w, size_t cap)
{
    const char *d = m->s->data;
    size_t e = l->off + l->len, p = l->off, k = 0;
    bool message = false; /* the words of an echo or printf, up to the next command */
    while (p < e && k < cap) {
        char c = d[p];
        if (c == '#' && (!m->shell || p == l->off || isspace((unsigned char)d[p - 1]))) {
            gp_audit_note_comment(m->r, d + p, e - p, l->line, k == 0); /* alone: no word before */
            break;
        }
        if (c == ';' || c == '|' || c == '&') message = false;
        if (c == '$') {
            size_t q = skip_message_call(d, p, e);
            if (q != p) {
                p = q;
                continue;
            }
        }
        if (isspace((unsigned char)c) || c == '"' || c == '\'' || c == '`' || c == ';' ||
            c == '|' || c == '&' || c == '(' || c == ')' || c == '\\' || c == ',') {
            p++;
            continue;
        }
        size_t st = p;
        while (p < e && !isspace((unsigned char)d[p]) && d[p] != '"' && d[p] != '\'' &&
               d[p] != '`' && d[p] != ';' && d[p] != '|' && d[p] != '&' && d[p] != ',' &&
               !(d[p] == ')' && (p == st || d[p - 1] != '$')) && d[p] != '\\')
            p++;
        if (p == st) {
            p++;
            continue;
        }
        if (message) continue;
        if (is_message_word(d + st, p - st)) message = true;
        w[k].off = st;
        w[k].len = p - st;
        k++;
    }
    return k;
}

static bool mk_guarded(const mk_scan *m)
{
    if (m->recipe_gated) return true;
    for (int i = 0; i < m->nif; i++)
        if (m->ifs[i].guard) return true;
    return false;
}

static long rep(mk_scan *m, const gp_line *l, int rule, size_t off, size_t len)
{
    uint32_t line;
    size_t lo;
    gp_line_locate(m->s, l, off, &line, &lo);
    return gp_audit_add(m->r, m->s, rule, mk_guarded(m), line, lo, off, len);
}

static const char *const cuda_libs[] = {
    "-lcudart", "-lcudart_static", "-lcuda",     "-lcublas",   "-lcublasLt", "-lcudnn",    "-lnccl",
    "-lcufft",  "-lcurand",        "-lcusparse", "-lcusolver", "-lnvrtc",    "-lnvidia-ml"};

static int word_rule(const mk_scan *m, const mk_word *w, const mk_word *next, bool lib_list)
{
    const char *s = m->s->data + w->off;
    size_t n = w->len;
    /* the program name, also as a path or on the right of an assignment */
    const char *base = s;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '/' || s[i] == '=') base = s + i + 1;
    while (base < s + n && (*base == '@' || *base == '-' || *base == '+'))
        base++; /* a recipe line's prefixes: @ silent, - ignore errors, + always run */
    size_t bn = (size_t)(s + n - base);
    if (bn == 4 && memcmp(base, "nvcc", 4) == 0) return GP_R_MK_001;
    if (w_starts(m, w, "-arch=sm_") || w_starts(m, w, "-arch=compute_") ||
        w_starts(m, w, "--gpu-architecture") || w_starts(m, w, "-gencode") ||
        w_starts(m, w, "--generate-code") || w_starts(m, w, "-code=sm_"))
        return GP_R_MK_001;
    if (w_is(m, w, "-arch") && next && w_starts(m, next, "sm_")) return GP_R_MK_001;
    for (size_t i = 0; i < sizeof cuda_libs / sizeof cuda_libs[0]; i++) {
        if (w_is(m, w, cuda_libs[i])) return GP_R_MK_001;
        /* LIBRARIES += nccl: a library list names them without -l */
        if (lib_list && n == strlen(cuda_libs[i]) - 2 && memcmp(s, cuda_libs[i] + 2, n) == 0)
            return GP_R_MK_001;
    }
    if (w_is(m, w, "--gpus") || w_starts(m, w, "--gpus=") || w_is(m, w, "--runtime=nvidia"))
        return GP_R_DOCKER_001;
    return -1;
}

static bool words_cuda(const mk_scan *m, const mk_word *w, size_t k, size_t from)
{
    for (size_t i = from; i < k; i++) {
        const char *s = m->s->data + w[i].off;
        size_t n = w[i].len;
        /* $(USE_CUDA) / ${USE_CUDA}: look at the name inside */
        size_t st = 0;
        while (st < n && (s[st] == '$' || s[st] == '(' || s[st] == '{' || s[st] == '!'))
            st++;
        size_t en = n;
        while (en > st && (s[en - 1] == ')' || s[en - 1] == '}' || s[en - 1] == ']'))
            en--;
        if (gp_audit_word_is_cuda_switch(s + st, en - st)) return true;
        if (w_is(m, &w[i], "nvcc") || w_is(m, &w[i], "nvidia-smi")) return true;
    }
    return false;
}

/* `ifeq (A,B)` where B (or A) is empty, 0, no, false or off: a test that the switch is off. */
static bool compares_to_off(const char *d, size_t p, size_t e)
{
    const char *c = memchr(d + p, ',', e - p);
    if (!c) return false;
    size_t a = (size_t)(c - d) + 1;
    while (a < e && (d[a] == ' ' || d[a] == '\t' || d[a] == '"' || d[a] == '\''))
        a++;
    size_t b = a;
    while (b < e && d[b] != ')' && d[b] != '"' && d[b] != '\'' && d[b] != ' ')
        b++;
    size_t n = b - a;
    static const char *const off[] = {"0", "no", "NO", "false", "FALSE", "OFF", "off", "n"};
    if (n == 0) return true;
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++)
        if (strlen(off[i]) == n && memcmp(d + a, off[i], n) == 0) return true;
    return false;
}

static bool do_cond(mk_scan *m, const gp_line *l, const mk_word *w, size_t k)
{
    if (k == 0) return false;
    const char *d = m->s->data;
    size_t e = l->off + l->len;
    bool mk_if = !m->shell && (w_is(m, &w[0], "ifdef") || w_is(m, &w[0], "ifndef") ||
                               w_is(m, &w[0], "ifeq") || w_is(m, &w[0], "ifneq"));
    bool sh_if = m->shell && w_is(m, &w[0], "if");
    if (mk_if || sh_if) {
        if (m->nif == MK_MAX_IF) {
            m->overflow++;
            return true;
        }
        bool cuda = words_cuda(m, w, k, 1);
        bool inv = mk_if && w_is(m, &w[0], "ifndef");
        /* ifeq ($(NVCC),) is "no nvcc"; ifneq ($(NVCC),) "nvcc found" */
        if (mk_if && (w_is(m, &w[0], "ifeq") || w_is(m, &w[0], "ifneq")))
            inv = compares_to_off(d, w[0].off + w[0].len, e) == w_is(m, &w[0], "ifeq");
        if (sh_if && k > 1 && w_is(m, &w[1], "!")) inv = true;
        m->ifs[m->nif].cuda = cuda;
        m->ifs[m->nif].inv = inv;
        m->ifs[m->nif].guard = cuda && !inv;
        m->nif++;
        return false; /* the condition line itself is checked (guarded) */
    }
    bool is_else = w_is(m, &w[0], "else");
    bool is_elif = m->shell && w_is(m, &w[0], "elif");
    bool is_end = m->shell ? w_is(m, &w[0], "fi") : w_is(m, &w[0], "endif");
    if (!is_else && !is_elif && !is_end) return false;
    if (m->overflow) {
        if (is_end) m->overflow--;
        return true;
    }
    if (m->nif == 0) return true;
    if (is_end) {
        m->nif--;
        return true;
    }
    if (is_elif) {
        bool cuda = words_cuda(m, w, k, 1);
        m->ifs[m->nif - 1].guard = cuda || (m->ifs[m->nif - 1].cuda && m->ifs[m->nif - 1].inv);
        return false;
    }
    mk_cond *top = &m->ifs[m->nif - 1];
    bool after_off = top->cuda && top->inv; /* the branch before ran where CUDA is off */
    if (!m->shell && k > 1 &&
        (w_is(m, &w[1], "ifdef") || w_is(m, &w[1], "ifndef") || w_is(m, &w[1], "ifeq") ||
         w_is(m, &w[1], "ifneq"))) { /* GNU make's "else ifdef X": a branch with a condition */
        top->cuda = words_cuda(m, w, k, 2);
        top->inv = w_is(m, &w[1], "ifndef");
        if (w_is(m, &w[1], "ifeq") || w_is(m, &w[1], "ifneq"))
            top->inv = compares_to_off(d, w[1].off + w[1].len, e) == w_is(m, &w[1], "ifeq");
        top->guard = (top->cuda && !top->inv) || after_off;
        return false; /* the condition line itself is checked (guarded) */
    }
    top->guard = after_off;
    return k == 1;
}

static void copy_name(char *dst, size_t cap, const char *s, size_t n)
{
    if (n >= cap) n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

static bool names_source(const char *s, size_t n)
{
    static const char *const exts[] = {".cu", ".cuh", ".c", ".cc", ".cpp", ".cxx"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        size_t k = strlen(exts[i]);
        if (n > k && memcmp(s + n - k, exts[i], k) == 0) return true;
    }
    return false;
}

static bool is_target(const mk_scan *m, const char *s, size_t n)
{
    for (int i = 0; i < m->ntargets; i++)
        if (strlen(m->targets[i]) == n && memcmp(m->targets[i], s, n) == 0) return true;
    return false;
}

/* What a Makefile line assigns to: the variable's name (NAME = ..., NAME += ..., NAME := ...),
 * or an empty word when it is no assignment. Sets *value to the first word after the sign. */
static mk_word assigned(const mk_scan *m, const gp_line *l, const mk_word *w, size_t k,
                        size_t *value)
{
    mk_word none = {0, 0};
    if (k == 0) return none;
    const char *d = m->s->data;
    size_t e = l->off + l->len;
    size_t p = w[0].off;
    while (p < e && (isalnum((unsigned char)d[p]) || d[p] == '_' || d[p] == '.'))
        p++;
    mk_word name = {w[0].off, p - w[0].off};
    while (p < e && (d[p] == ' ' || d[p] == '\t'))
        p++;
    if (p < e && (d[p] == '+' || d[p] == ':' || d[p] == '?' || d[p] == '!')) p++;
    if (p < e && d[p] == ':') p++; /* ::= */
    if (p >= e || d[p] != '=' || name.len == 0) return none;
    *value = p + 1;
    return name;
}

/* A rule line `targets: sources`: remembers each source file for its targets. */
static void note_rule(mk_scan *m, const gp_line *l, const mk_word *w, size_t k)
{
    const char *d = m->s->data;
    size_t e = l->off + l->len;
    const char *colon = NULL;
    for (size_t p = l->off; p < e; p++) {
        if (d[p] == '=' || d[p] == '#') return;
        if (d[p] == ':' && (p + 1 >= e || d[p + 1] != '=')) {
            colon = d + p;
            break;
        }
    }
    if (!colon) return;
    size_t cpos = (size_t)(colon - d);
    m->recipe_gated = false;
    for (size_t i = 0; i < k && w[i].off < cpos; i++) {
        size_t n = w[i].len;
        if (w[i].off + n > cpos) n = cpos - w[i].off;
        if (is_target(m, d + w[i].off, n)) m->recipe_gated = true;
    }
    for (size_t i = 0; i < k; i++) {
        if (w[i].off <= cpos || !names_source(d + w[i].off, w[i].len)) continue;
        for (size_t t = 0; t < k && w[t].off < cpos && m->nrules < MK_MAX_RULES; t++) {
            size_t n = w[t].len;
            if (w[t].off + n > cpos) n = cpos - w[t].off;
            mk_rule *r = &m->rules[m->nrules++];
            copy_name(r->target, sizeof r->target, d + w[t].off, n);
            copy_name(r->source, sizeof r->source, d + w[i].off, w[i].len);
        }
    }
}

/* At the end of a Makefile: the sources of the targets its CUDA branch adds are recorded as
 * built only there, the others as built always; its CUDA settings become guarded. */
static void make_finish(mk_scan *m)
{
    for (int i = 0; i < m->nrules; i++) {
        const mk_rule *r = &m->rules[i];
        bool gated = is_target(m, r->target, strlen(r->target));
        gp_audit_fact(m->r, GP_FACT_SOURCE, gated ? GP_FACTF_GUARDED : 0, r->source,
                      strlen(r->source));
    }
    if (!m->gates) return;
    gp_audit_fact(m->r, GP_FACT_CUDA_GATED, 0, "make", 4);
    for (int i = 0; i < m->nlate; i++)
        if (m->late[i] < m->r->nf) gp_audit_guard_finding(m->r, m->late[i]);
}

void gp_audit_scan_make(gp_audit_source *s, gp_audit_result *r, bool shell)
{
    mk_scan *m = calloc(1, sizeof *m);
    if (!m) return;
    m->s = s;
    m->r = r;
    m->shell = shell;
    gp_line_reader lr;
    gp_line_reader_init(&lr, s, true);
    gp_line l;
    mk_word w[256];
    const char *d = s->data;
    while (gp_line_next(&lr, &l)) {
        bool recipe = !shell && l.len > 0 && d[l.off] == '\t';
        size_t k = split_words(m, &l, w, sizeof w / sizeof w[0]);
        /* shell: `then`/`do` may share the line with the next command; treat words as they come */
        if (do_cond(m, &l, w, k)) continue;
        if (!shell && !recipe && k > 0) m->recipe_gated = false;
        size_t value = 0;
        mk_word var = shell || recipe ? (mk_word){0, 0} : assigned(m, &l, w, k, &value);
        const char *vn = d + var.off;
        /* a library list (LIBRARIES, LIBS, LDLIBS, ..._LIBS) names libraries without -l */
        bool lib_list = false;
        for (size_t i = 0; i + 3 <= var.len && !lib_list; i++)
            lib_list = memcmp(vn + i, "LIB", 3) == 0;
        /* a CUDA setting (NVCC_FLAGS, CUDA_LIBS, NVCC := ...): used where CUDA is built */
        bool setting = var.len && gp_audit_word_is_cuda_switch(vn, var.len);
        if (var.len && mk_guarded(m) && !m->recipe_gated) {
            /* TARGETS += x y in a CUDA branch: those targets are built only there */
            for (size_t i = 0; i < k; i++) {
                if (w[i].off < value) continue;
                const char *ws = d + w[i].off;
                if (ws[0] == '-') continue; /* (a $(VAR) target stays: its rule names it so) */
                m->gates = true;
                if (names_source(ws, w[i].len))
                    gp_audit_fact(r, GP_FACT_SOURCE, GP_FACTF_GUARDED, ws, w[i].len);
                else if (m->ntargets < MK_MAX_TARGETS)
                    copy_name(m->targets[m->ntargets++], MK_NAME_MAX, ws, w[i].len);
            }
        }
        if (!shell && !recipe && !var.len) note_rule(m, &l, w, k);
        /* `$(MAKE) -C dir`: this build builds that folder's (resolve.c: a sub-build it adds) */
        for (size_t i = 0; !shell && i + 1 < k; i++)
            if (w_is(m, &w[i], "-C") && d[w[i + 1].off] != '$')
                gp_audit_fact(r, GP_FACT_SUBDIR, mk_guarded(m) ? GP_FACTF_GUARDED : 0,
                              d + w[i + 1].off, w[i + 1].len);
        /* a one-line `if ...; then ...; fi` closes what it opened */
        bool oneline = shell && k > 1 && w_is(m, &w[0], "if") && w_is(m, &w[k - 1], "fi");
        for (size_t i = 0; i < k; i++) {
            bool in_value = var.len && w[i].off >= value;
            int rule = word_rule(m, &w[i], i + 1 < k ? &w[i + 1] : NULL, lib_list && in_value);
            if (rule < 0) continue;
            long f = rep(m, &l, rule, w[i].off, w[i].len);
            if (f >= 0 && setting && m->nlate < MK_MAX_LATE) m->late[m->nlate++] = (size_t)f;
        }
        if (oneline && m->nif > 0) m->nif--;
    }
    if (!shell) make_finish(m);
    free(m);
}
