/* scan_make.c — Makefiles and shell scripts: a word lexer per logical line (comments dropped,
 * quotes and `=` assignments split into words) and the rules MK-001 and DOCKER-001 (`--gpus`).
 * Conditionals on a CUDA switch (`ifdef USE_CUDA`, `if command -v nvcc ...; then`) guard what
 * they enclose. */
#include <ctype.h>
#include <string.h>

#include "audit/lines.h"
#include "audit/scanners.h"

#define MK_MAX_IF 64

typedef struct mk_word {
    size_t off, len;
} mk_word;

typedef struct mk_cond {
    bool cuda, inv, guard; /* tests a CUDA switch, negated (ifndef, !), the branch is guarded */
} mk_cond;

typedef struct mk_scan {
    gp_audit_source *s;
    gp_audit_result *r;
    bool shell;
    mk_cond ifs[MK_MAX_IF];
    int nif, overflow;
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

/* Splits a logical line into words; stops at a comment. Returns the count (at most cap). */
static size_t split_words(const mk_scan *m, const gp_line *l, mk_word *w, size_t cap)
{
    const char *d = m->s->data;
    size_t e = l->off + l->len, p = l->off, k = 0;
    while (p < e && k < cap) {
        char c = d[p];
        if (c == '#' && (!m->shell || p == l->off || isspace((unsigned char)d[p - 1]))) {
            gp_audit_note_comment(m->r, d + p, e - p, l->line, k == 0); /* alone: no word before */
            break;
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
        w[k].off = st;
        w[k].len = p - st;
        k++;
    }
    return k;
}

static bool mk_guarded(const mk_scan *m)
{
    for (int i = 0; i < m->nif; i++)
        if (m->ifs[i].guard) return true;
    return false;
}

static void rep(mk_scan *m, const gp_line *l, int rule, size_t off, size_t len)
{
    uint32_t line;
    size_t lo;
    gp_line_locate(m->s, l, off, &line, &lo);
    gp_audit_add(m->r, m->s, rule, mk_guarded(m), line, lo, off, len);
}

static const char *const cuda_libs[] = {
    "-lcudart", "-lcudart_static", "-lcuda",     "-lcublas",   "-lcublasLt", "-lcudnn",    "-lnccl",
    "-lcufft",  "-lcurand",        "-lcusparse", "-lcusolver", "-lnvrtc",    "-lnvidia-ml"};

static int word_rule(const mk_scan *m, const mk_word *w, const mk_word *next)
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
    for (size_t i = 0; i < sizeof cuda_libs / sizeof cuda_libs[0]; i++)
        if (w_is(m, w, cuda_libs[i])) return GP_R_MK_001;
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

static bool do_cond(mk_scan *m, const mk_word *w, size_t k)
{
    if (k == 0) return false;
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
        top->guard = (top->cuda && !top->inv) || after_off;
        return false; /* the condition line itself is checked (guarded) */
    }
    top->guard = after_off;
    return k == 1;
}

void gp_audit_scan_make(gp_audit_source *s, gp_audit_result *r, bool shell)
{
    mk_scan m;
    memset(&m, 0, sizeof m);
    m.s = s;
    m.r = r;
    m.shell = shell;
    gp_line_reader lr;
    gp_line_reader_init(&lr, s, true);
    gp_line l;
    mk_word w[256];
    while (gp_line_next(&lr, &l)) {
        size_t k = split_words(&m, &l, w, sizeof w / sizeof w[0]);
        /* shell: `then`/`do` may share the line with the next command; treat words as they come */
        if (do_cond(&m, w, k)) continue;
        /* a one-line `if ...; then ...; fi` closes what it opened */
        bool oneline = shell && k > 1 && w_is(&m, &w[0], "if") && w_is(&m, &w[k - 1], "fi");
        for (size_t i = 0; i < k; i++) {
            int rule = word_rule(&m, &w[i], i + 1 < k ? &w[i + 1] : NULL);
            if (rule >= 0) rep(&m, &l, rule, w[i].off, w[i].len);
        }
        if (oneline && m.nif > 0) m.nif--;
    }
}
