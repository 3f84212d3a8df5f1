/* members.c — C++ member functions and constructors of the file's structs, lowered to plain C
 * functions the dialect can express:
 *   a member function `R f(args) [const]` of S is `R S_f(S *this_, args)` (`const S *this_` for
 *   a const one); `o.f(a)` calls `S_f(&o, a)`, `p->f(a)` calls `S_f(p, a)`; in its body a field
 *   `x` is `this_->x`, `this` is `this_`, a bare call of another member passes `this_` on;
 *   a constructor `S(args) : a(x), b(y) { body }` is `S S_make(args)`, which declares a local S,
 *   initialises the listed fields in their declaration order (C++'s order, whatever the list's),
 *   runs the body with `this` pointing at it and returns it; `S(a, b)`, `S{a, b}`, `S s(a, b);`,
 *   `S s{a, b};` and `S s = {a, b};` call it, and `S s;` calls the default constructor when it
 *   does something.
 * an operator member `R operator+(const S &o) const` is the free operator `R operator+(const S
 *   &this_r, const S &o)` with `this_` pointing at this_r, which the translation takes as it takes
 *   operators on vector types (each use a call of the overload the operand types choose);
 * the call and subscript operators are members named operator_call and operator_index (`f(a)`
 *   and `o[i]` on such a value call them); a member returning a reference returns a pointer,
 *   each call read through (`*S_operator_index(&o, i)`); a pair told apart by constness only is
 *   S_f and S_f_const, chosen by the object's constness; a static member function takes no
 *   object; a static integer constant is its value wherever it is named.
 * Host-only members are dropped (device code cannot call them). Overloads are told apart by
 * their number of parameters (`S_make_2`), operators by their types. What is not lowered
 * (conversion operators, destructors, virtual members, static data that is not an integer
 * constant, template members, copy constructors, default member initialisers) keeps the struct
 * out, or its use refused, with the reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/map.h"
#include "translate/parser.h"

static bool is(const tr_token *t, const char *s)
{
    return !strcmp(t->text, s);
}

/* The index of the bracket closing the one at i (or `close` when there is none). */
static size_t matching(const parser *p, size_t i, size_t close)
{
    int depth = 0;
    for (size_t k = i; k < close; k++) {
        const char *s = p->t[k].text;
        if (p->t[k].kind != TR_PUNCT) continue;
        if (!strcmp(s, "(") || !strcmp(s, "[") || !strcmp(s, "{")) depth++;
        if ((!strcmp(s, ")") || !strcmp(s, "]") || !strcmp(s, "}")) && --depth == 0) return k;
    }
    return close;
}

static bool any_in(const parser *p, size_t from, size_t to, const char *s)
{
    for (size_t k = from; k < to; k++)
        if (is(&p->t[k], s)) return true;
    return false;
}

static void push(tr_tokens *ts, const tr_token *like, tr_tok_kind kind, const char *text)
{
    tr_token t = *like;
    t.kind = kind;
    t.text = (char *)text;
    t.bol = false;
    if (tr_tokens_push(ts, &t) != 0) abort();
}

static void push_range(tr_tokens *ts, const parser *p, size_t from, size_t to)
{
    for (size_t k = from; k < to; k++)
        if (tr_tokens_push(ts, &p->t[k]) != 0) abort();
}

static tr_member *add_member(parser *p, tr_struct *st)
{
    tr_member *nm = tr_alloc(p->u, (size_t)(st->nmembers + 1) * sizeof *nm);
    if (st->nmembers) memcpy(nm, st->members, (size_t)st->nmembers * sizeof *nm);
    st->members = nm;
    tr_member *m = &st->members[st->nmembers++];
    memset(m, 0, sizeof *m);
    return m;
}

/* Parameters in (lp, rp): how many, and how many have no default. */
static void count_params(const parser *p, size_t lp, size_t rp, int *n, int *required)
{
    *n = *required = 0;
    if (rp == lp + 1 || (rp == lp + 2 && is(&p->t[lp + 1], "void"))) return;
    bool dflt = false;
    int depth = 0;
    for (size_t k = lp + 1; k <= rp; k++) {
        const tr_token *t = &p->t[k];
        if (k == rp || (depth == 0 && is(t, ","))) {
            (*n)++;
            *required += !dflt;
            dflt = false;
            continue;
        }
        if (is(t, "(") || is(t, "[") || is(t, "{") || is(t, "<")) depth++;
        if (is(t, ")") || is(t, "]") || is(t, "}") || is(t, ">")) depth--;
        if (depth == 0 && is(t, "=")) dflt = true;
    }
}

/* [from, to) names an integer type, with static, const, constexpr and inline about it. */
static bool static_const_type(const parser *p, size_t from, size_t to)
{
    static const char *const skip[] = {"static",     "const",    "constexpr",   "inline",
                                       "__device__", "__host__", "__constant__"};
    char words[128] = "";
    for (size_t k = from; k < to; k++) {
        if (p->t[k].kind != TR_IDENT) return false;
        if (tp_in_list(p->t[k].text, skip, sizeof skip / sizeof *skip)) continue;
        size_t n = strlen(words);
        snprintf(words + n, sizeof words - n, "%s%s", n ? " " : "", p->t[k].text);
    }
    return words[0] && tp_integer_type_name(words);
}

/* The value of the constant expression [from, to), the struct's constants read by name. */
static bool struct_const_value(parser *p, const tr_struct *st, size_t from, size_t to, long long *v)
{
    tr_tokens e = {0};
    char num[32];
    for (size_t k = from; k < to; k++) {
        tr_token t = p->t[k];
        for (int c = 0; t.kind == TR_IDENT && c < st->nconsts; c++)
            if (!strcmp(t.text, st->cnames[c])) {
                snprintf(num, sizeof num, "%lld", st->cvalues[c]);
                t.kind = TR_NUMBER, t.text = num;
            }
        if (tr_tokens_push(&e, &t) != 0) abort();
    }
    bool ok = tp_const_tokens(p, e.v, e.n, v);
    tr_tokens_free(&e);
    return ok;
}

static void add_const(parser *p, tr_struct *st, const char *name, long long v)
{
    char **nn = tr_alloc(p->u, (size_t)(st->nconsts + 1) * sizeof *nn);
    long long *nv = tr_alloc(p->u, (size_t)(st->nconsts + 1) * sizeof *nv);
    if (st->nconsts) {
        memcpy(nn, st->cnames, (size_t)st->nconsts * sizeof *nn);
        memcpy(nv, st->cvalues, (size_t)st->nconsts * sizeof *nv);
    }
    nn[st->nconsts] = tr_strdup(p->u, name);
    nv[st->nconsts] = v;
    st->cnames = nn, st->cvalues = nv;
    st->nconsts++;
}

/* The struct's constants named in ts (not after `.`, `->` or `::`) replaced by their values. */
static void substitute_consts(const tr_struct *st, tr_tokens *ts)
{
    for (size_t k = 0; k < ts->n; k++) {
        tr_token *t = &ts->v[k];
        if (t->kind != TR_IDENT ||
            (k && (is(&ts->v[k - 1], ".") || is(&ts->v[k - 1], "->") || is(&ts->v[k - 1], "::"))))
            continue;
        for (int c = 0; c < st->nconsts; c++)
            if (!strcmp(t->text, st->cnames[c])) {
                char num[32];
                snprintf(num, sizeof num, "%lld", st->cvalues[c]);
                char *d = strdup(num);
                if (!d) abort();
                free(t->text);
                t->text = d;
                t->kind = TR_NUMBER;
            }
    }
}

bool tp_struct_members(parser *p, tr_struct *st, size_t from, size_t close, tr_tokens *fields,
                       char *why, size_t cap)
{
    static const char *const field_refused[] = {"static",   "typedef", "using",    "friend",
                                                "template", "enum",    "struct",   "union",
                                                "class",    "virtual", "operator", ":"};
    bool default_ctor = false, default_trivial = false;
    size_t q = from;
    while (q < close) {
        const tr_token *t = &p->t[q];
        if ((is(t, "public") || is(t, "private") || is(t, "protected")) && q + 1 < close &&
            is(&p->t[q + 1], ":")) {
            q += 2;
            continue;
        }
        if (is(t, ";")) {
            q++;
            continue;
        }
        /* one member: up to its ';', or a function's '(' */
        size_t a = q, k = q, lp = 0;
        bool eq = false;
        for (; k < close; k++) {
            const tr_token *x = &p->t[k];
            if (is(x, ";")) break;
            if (is(x, "=")) eq = true;
            if (is(x, "(") && !eq) {
                lp = k;
                break;
            }
            if (is(x, "{")) {
                bool nested = any_in(p, a, k, "struct") || any_in(p, a, k, "union") ||
                              any_in(p, a, k, "enum") || any_in(p, a, k, "class");
                snprintf(why, cap, "%s",
                         nested ? "a nested type" : "a field with a default member initialiser");
                return false;
            }
            if (is(x, "(") || is(x, "[")) k = matching(p, k, close);
        }
        if (!lp && eq && any_in(p, a, k, "static") &&
            (any_in(p, a, k, "constexpr") || any_in(p, a, k, "const"))) {
            /* `static constexpr int size = sizeof(int4) / sizeof(T);`: a constant of the struct */
            size_t e = a;
            while (e < k && !is(&p->t[e], "="))
                e++;
            long long v;
            if (e > a && p->t[e - 1].kind == TR_IDENT && static_const_type(p, a, e - 1) &&
                struct_const_value(p, st, e + 1, k, &v)) {
                add_const(p, st, p->t[e - 1].text, v);
                q = k + 1;
                continue;
            }
        }
        if (!lp) { /* a field */
            for (size_t j = a; j < k; j++)
                for (size_t w = 0; w < sizeof field_refused / sizeof *field_refused; w++)
                    if (is(&p->t[j], field_refused[w])) {
                        snprintf(why, cap, "%s",
                                 w == 11 ? "a bit field"
                                 : w < 5 ? "a static member, a type or a template inside it"
                                         : "a nested type, a virtual member or an operator");
                        return false;
                    }
            if (eq) {
                snprintf(why, cap, "a field with a default member initialiser");
                return false;
            }
            push_range(fields, p, a, k < close ? k + 1 : k);
            q = k + 1;
            continue;
        }
        /* the call operator `R operator()(args)`: a member function named operator_call; the
         * subscript `R &operator[](int i)`: operator_index */
        bool call_op = lp > a && is(&p->t[lp - 1], "operator") && lp + 2 < close &&
                       is(&p->t[lp + 1], ")") && is(&p->t[lp + 2], "(");
        if (call_op) lp += 2;
        bool index_op = lp >= a + 3 && is(&p->t[lp - 1], "]") && is(&p->t[lp - 2], "[") &&
                        is(&p->t[lp - 3], "operator");
        /* a function: [a, lp) its head, (lp, rp) its parameters */
        size_t rp = matching(p, lp, close);
        if (rp >= close || lp == a) {
            snprintf(why, cap, "a member it cannot read");
            return false;
        }
        bool device = any_in(p, a, lp, "__device__");
        bool oper = any_in(p, a, lp, "operator") && !call_op && !index_op;
        bool dtor = lp >= a + 2 && is(&p->t[lp - 2], "~");
        bool ctor = !oper && !dtor && p->t[lp - 1].kind == TR_IDENT &&
                    (is(&p->t[lp - 1], st->name) || (st->tag && is(&p->t[lp - 1], st->tag)));
        bool is_static = any_in(p, a, lp, "static"), templ = any_in(p, a, lp, "template");
        if (any_in(p, a, lp, "virtual")) {
            snprintf(why, cap, "a virtual member function");
            return false;
        }
        size_t j = rp + 1;
        bool cnst = false;
        while (j < close && (is(&p->t[j], "const") || is(&p->t[j], "noexcept") ||
                             is(&p->t[j], "override") || is(&p->t[j], "final"))) {
            cnst |= is(&p->t[j], "const");
            j++;
        }
        size_t inits = 0, body = 0, body_end = 0;
        bool defaulted = false, deleted = false;
        if (j < close && is(&p->t[j], "=")) {
            defaulted = j + 1 < close && is(&p->t[j + 1], "default");
            deleted = j + 1 < close && is(&p->t[j + 1], "delete");
            while (j < close && !is(&p->t[j], ";"))
                j++;
            q = j + 1;
        } else if (j < close && is(&p->t[j], ";")) {
            q = j + 1; /* declared only (defined outside the struct) */
        } else {
            if (j < close && is(&p->t[j], ":")) { /* the initialiser list */
                inits = j + 1;
                j++;
                while (j < close && !is(&p->t[j], "{")) {
                    if (is(&p->t[j], "(")) j = matching(p, j, close);
                    j++;
                    if (j < close && is(&p->t[j], "{") && j > inits &&
                        p->t[j - 1].kind == TR_IDENT) /* a brace initialiser `x{v}` */
                        j = matching(p, j, close) + 1;
                    if (j < close && is(&p->t[j], ",")) j++;
                }
            }
            if (j >= close || !is(&p->t[j], "{")) {
                snprintf(why, cap, "a member function it cannot read");
                return false;
            }
            body = j;
            body_end = matching(p, j, close);
            q = body_end + 1;
        }
        /* an operator member on the struct's values: `S operator+(const S &o) const` */
        size_t op_at = 0;
        for (size_t w = a; oper && w < lp; w++)
            if (is(&p->t[w], "operator")) op_at = w;
        char optext[8] = "";
        if (op_at && lp - op_at >= 2 && lp - op_at <= 3) {
            for (size_t w = op_at + 1; w < lp; w++)
                if (p->t[w].kind == TR_PUNCT) strncat(optext, p->t[w].text, 3);
        }
        bool lowerable_op = optext[0] && tr_operator_suffix(optext) && device && body &&
                            !any_in(p, a, op_at, "static") && !any_in(p, a, op_at, "template");
        if (oper && lowerable_op) {
            int n0, required0;
            count_params(p, lp, rp, &n0, &required0);
            tr_member *m = add_member(p, st);
            char nm[48];
            snprintf(nm, sizeof nm, "operator_%s", tr_operator_suffix(optext));
            m->name = tr_strdup(p->u, nm);
            m->op = tr_strdup(p->u, optext);
            m->op_at = op_at;
            m->nparams = n0, m->nrequired = required0;
            m->head = a, m->lparen = lp, m->rparen = rp, m->inits = 0;
            m->body = body, m->body_end = body_end;
            m->is_const = cnst;
            continue;
        }
        if (oper || dtor) {
            /* host-only ones are not device code's business; a device one would have to be
             * lowered for the struct's uses to mean what they mean */
            bool empty_dtor = dtor && (defaulted || (body && body_end == body + 1));
            if (device && !empty_dtor) {
                snprintf(why, cap, "%s",
                         oper ? "a device operator member (operators on structs are not lowered)"
                              : "a device destructor");
                return false;
            }
            continue;
        }
        int n, required;
        count_params(p, lp, rp, &n, &required);
        if (ctor) {
            st->has_ctor = true;
            bool copy = n == 1 && any_in(p, lp, rp, "&") &&
                        (any_in(p, lp, rp, st->name) || (st->tag && any_in(p, lp, rp, st->tag)));
            if (copy) {
                if (device && !defaulted && !deleted) {
                    snprintf(why, cap, "a device copy constructor");
                    return false;
                }
                continue;
            }
            if (required == 0) {
                default_ctor = true;
                default_trivial = defaulted || (body && body_end == body + 1 && !inits && !n);
                if (default_trivial) continue;
            }
        }
        if (deleted) continue;
        tr_member *m = add_member(p, st);
        m->name = ctor       ? NULL
                  : call_op  ? tr_strdup(p->u, "operator_call")
                  : index_op ? tr_strdup(p->u, "operator_index")
                             : tr_strdup(p->u, p->t[lp - 1].text);
        if (call_op || index_op) m->op_at = lp - 3; /* its return type ends there */
        m->is_static = is_static;
        m->nparams = n, m->nrequired = required;
        m->head = a, m->lparen = lp, m->rparen = rp, m->inits = inits;
        m->body = body, m->body_end = body_end;
        m->is_const = cnst;
        if (!device)
            m->why = "a host function: device code cannot call it";
        else if (!body)
            m->why = "declared in the struct and defined outside it, which is not lowered";
        else if (templ)
            m->why = "a template member function, which is not lowered";
        else if (is_static && (call_op || index_op))
            m->why = "a static operator, which is not lowered";
        else if (ctor && any_in(p, body, body_end, "return"))
            m->why = "a constructor that returns early, which is not lowered";
        /* `T &operator[](int i) { return data[i]; }`: a pointer returned, each call read
         * through it */
        m->ref_ret = !ctor && any_in(p, a, m->op_at ? m->op_at : lp, "&");
    }
    st->trivial_init = !st->has_ctor || (default_ctor && default_trivial);
    substitute_consts(st, fields); /* `T payload[size];` */
    /* names of the functions written: S_f, S_make; S_f_N where the name is overloaded */
    for (int i = 0; i < st->nmembers; i++) {
        tr_member *m = &st->members[i];
        if (m->why) continue;
        int same = 0, same_n = 0, twins = 0;
        bool const_twin = false; /* `T &f()` and `const T &f() const`: chosen by the object */
        for (int k = 0; k < st->nmembers; k++) {
            const tr_member *o = &st->members[k];
            if ((o->name == NULL) != (m->name == NULL) || (m->name && strcmp(o->name, m->name)))
                continue;
            same++;
            same_n += o->nparams == m->nparams && k < i;
            if (k != i && o->nparams == m->nparams) {
                twins++;
                const_twin = o->is_const != m->is_const;
            }
        }
        if (twins == 1 && const_twin && m->name)
            same_n = 0;
        else
            const_twin = false;
        if (same_n && !m->op) { /* operators are told apart by their types (overload.c) */
            m->why = "overloaded with another of as many parameters, which is not lowered";
            continue;
        }
        char out[256];
        int len = snprintf(out, sizeof out, "%s_%s", st->name, m->name ? m->name : "make");
        if (m->op)
            len += snprintf(out + len, sizeof out - (size_t)len, "_%d", i);
        else if (same - (const_twin ? 1 : 0) > 1)
            len += snprintf(out + len, sizeof out - (size_t)len, "_%d", m->nparams);
        if (const_twin && m->is_const) snprintf(out + len, sizeof out - (size_t)len, "_const");
        m->out = tr_strdup(p->u, out);
    }
    return true;
}

/* `[const] struct S *this_ = &target;`: the body's `this`, pointing at the object it works on. */
static void push_this(tr_tokens *ts, const tr_token *at, const tr_struct *st, bool is_const,
                      const char *target)
{
    if (is_const) push(ts, at, TR_IDENT, "const");
    push(ts, at, TR_IDENT, "struct");
    push(ts, at, TR_IDENT, st->name);
    push(ts, at, TR_PUNCT, "*");
    push(ts, at, TR_IDENT, "this_");
    push(ts, at, TR_PUNCT, "=");
    push(ts, at, TR_PUNCT, "&");
    push(ts, at, TR_IDENT, target);
    push(ts, at, TR_PUNCT, ";");
}

/* An operator member `R operator@(args) [const] { body }` written as the free operator the
 * translation takes on structs: `R operator@([const] struct S &this_r, args) { [const] struct S
 * *this_ = &this_r; body }` (items.c names it by its parameter types; uses become calls). */
static void operator_tokens(parser *p, const tr_struct *st, const tr_member *m, tr_tokens *ts,
                            const char *const *dropped, size_t ndropped)
{
    const tr_token *at = &p->t[m->lparen];
    push(ts, at, TR_IDENT, "__device__");
    for (size_t k = m->head; k < m->op_at; k++) /* the return type */
        if (!tp_in_list(p->t[k].text, dropped, ndropped)) push_range(ts, p, k, k + 1);
    push_range(ts, p, m->op_at, m->lparen + 1); /* operator@ ( */
    if (m->is_const) push(ts, at, TR_IDENT, "const");
    push(ts, at, TR_IDENT, "struct");
    push(ts, at, TR_IDENT, st->name);
    push(ts, at, TR_PUNCT, "&");
    push(ts, at, TR_IDENT, "this_r");
    if (m->nparams) push(ts, at, TR_PUNCT, ",");
    push_range(ts, p, m->lparen + 1, m->rparen + 1);
    const tr_token *b = &p->t[m->body];
    push(ts, b, TR_PUNCT, "{");
    push_this(ts, b, st, m->is_const, "this_r");
    push_range(ts, p, m->body, m->body_end + 1);
    push(ts, &p->t[m->body_end], TR_PUNCT, "}");
}

/* The tokens of the function written for member m of st (st = u->structs[index]). */
static void member_tokens(parser *p, const tr_struct *st, const tr_member *m, tr_tokens *ts)
{
    static const char *const dropped[] = {"__host__", "__device__", "__forceinline__",
                                          "inline",   "constexpr",  "__noinline__",
                                          "explicit", "__inline__"};
    if (m->op) {
        operator_tokens(p, st, m, ts, dropped, sizeof dropped / sizeof *dropped);
        return;
    }
    const tr_token *at = &p->t[m->lparen];
    push(ts, at, TR_IDENT, "__device__");
    if (m->name) { /* the return type: the head without its specifiers and name (a reference
                    * a pointer) */
        for (size_t k = m->head; k < (m->op_at ? m->op_at : m->lparen - 1); k++) {
            if (tp_in_list(p->t[k].text, dropped, sizeof dropped / sizeof *dropped) ||
                is(&p->t[k], "static"))
                continue;
            if (m->ref_ret && is(&p->t[k], "&"))
                push(ts, &p->t[k], TR_PUNCT, "*");
            else
                push_range(ts, p, k, k + 1);
        }
    } else {
        push(ts, at, TR_IDENT, "struct");
        push(ts, at, TR_IDENT, st->name);
    }
    push(ts, at, TR_IDENT, m->out);
    push(ts, at, TR_PUNCT, "(");
    if (m->name && !m->is_static) {
        if (m->is_const) push(ts, at, TR_IDENT, "const");
        push(ts, at, TR_IDENT, "struct");
        push(ts, at, TR_IDENT, st->name);
        push(ts, at, TR_PUNCT, "*");
        push(ts, at, TR_IDENT, "this_");
        if (m->nparams) push(ts, at, TR_PUNCT, ",");
    }
    push_range(ts, p, m->lparen + 1, m->rparen + 1);
    if (m->name && m->ref_ret) { /* return x; is return &(x); */
        for (size_t k = m->body; k <= m->body_end; k++) {
            if (!is(&p->t[k], "return")) {
                push_range(ts, p, k, k + 1);
                continue;
            }
            push_range(ts, p, k, k + 1);
            push(ts, &p->t[k], TR_PUNCT, "&");
            push(ts, &p->t[k], TR_PUNCT, "(");
            int depth = 0;
            for (k++; k < m->body_end; k++) {
                const char *x = p->t[k].text;
                if (p->t[k].kind == TR_PUNCT &&
                    (!strcmp(x, "(") || !strcmp(x, "[") || !strcmp(x, "{")))
                    depth++;
                if (p->t[k].kind == TR_PUNCT &&
                    (!strcmp(x, ")") || !strcmp(x, "]") || !strcmp(x, "}")))
                    depth--;
                if (depth == 0 && is(&p->t[k], ";")) break;
                push_range(ts, p, k, k + 1);
            }
            push(ts, &p->t[k], TR_PUNCT, ")");
            push(ts, &p->t[k], TR_PUNCT, ";");
        }
        return;
    }
    if (m->name) {
        push_range(ts, p, m->body, m->body_end + 1);
        return;
    }
    /* a constructor: { struct S this_v; struct S *this_ = &this_v; fields; { body } return }
     */
    const tr_token *b = &p->t[m->body];
    push(ts, b, TR_PUNCT, "{");
    push(ts, b, TR_IDENT, "struct");
    push(ts, b, TR_IDENT, st->name);
    push(ts, b, TR_IDENT, "this_v");
    push(ts, b, TR_PUNCT, ";");
    push_this(ts, b, st, false, "this_v");
    for (int f = 0; f < st->nfields && m->inits; f++) /* in declaration order */
        for (size_t k = m->inits; k < m->body; k++) {
            if (p->t[k].kind != TR_IDENT || !is(&p->t[k], st->fields[f].name) ||
                (!is(&p->t[k + 1], "(") && !is(&p->t[k + 1], "{")) ||
                (k > m->inits && !is(&p->t[k - 1], ",")))
                continue;
            size_t e = matching(p, k + 1, m->body);
            push(ts, &p->t[k], TR_IDENT, "this_");
            push(ts, &p->t[k], TR_PUNCT, "->");
            push(ts, &p->t[k], TR_IDENT, st->fields[f].name);
            push(ts, &p->t[k], TR_PUNCT, "=");
            push(ts, &p->t[k], TR_PUNCT, "(");
            push_range(ts, p, k + 2, e);
            push(ts, &p->t[e], TR_PUNCT, ")");
            push(ts, &p->t[e], TR_PUNCT, ";");
            break;
        }
    push_range(ts, p, m->body, m->body_end + 1);
    const tr_token *z = &p->t[m->body_end];
    push(ts, z, TR_IDENT, "return");
    push(ts, z, TR_IDENT, "this_v");
    push(ts, z, TR_PUNCT, ";");
    push(ts, z, TR_PUNCT, "}");
}

/* Every entry of the initialiser list names a field, with one value: what the written
 * constructor can do. NULL, or the reason it cannot. */
static const char *check_inits(const parser *p, const tr_struct *st, const tr_member *m)
{
    size_t k = m->inits;
    while (k && k < m->body) {
        const tr_token *n = &p->t[k];
        bool field = false;
        for (int f = 0; f < st->nfields; f++)
            if (is(n, st->fields[f].name)) field = true;
        if (!field || n->kind != TR_IDENT || k + 1 >= m->body)
            return "its initialiser list names something other than a field";
        if (!is(&p->t[k + 1], "(") && !is(&p->t[k + 1], "{"))
            return "an initialiser list it cannot read";
        size_t e = matching(p, k + 1, m->body);
        if (e == k + 2) return "a field value-initialised in the initialiser list";
        int depth = 0;
        for (size_t j = k + 2; j < e; j++) {
            const char *s = p->t[j].text;
            if (!strcmp(s, "(") || !strcmp(s, "[") || !strcmp(s, "{")) depth++;
            if (!strcmp(s, ")") || !strcmp(s, "]") || !strcmp(s, "}")) depth--;
            if (depth == 0 && !strcmp(s, ",")) return "a field initialised with several values";
        }
        for (int f = 0; f < st->nfields; f++)
            if (is(n, st->fields[f].name) && st->fields[f].dims[0])
                return "an array field in the initialiser list";
        k = e + 1;
        if (k < m->body && is(&p->t[k], ",")) k++;
    }
    return NULL;
}

void tp_struct_queue_members(parser *p, int index, size_t from, size_t close)
{
    (void)from, (void)close;
    tr_struct *st = &p->u->structs[index];
    for (int i = 0; i < st->nmembers; i++) {
        tr_member *m = &st->members[i];
        if (!m->out) continue;
        if (!m->name) {
            const char *why = check_inits(p, st, m);
            if (why) {
                m->why = why;
                m->out = NULL;
                continue;
            }
        }
        tr_tokens ts = {0};
        member_tokens(p, st, m, &ts);
        substitute_consts(st, &ts);
        push(&ts, &p->t[m->body_end], TR_EOF, "");
        if (p->npending == p->cappending) {
            int cap = p->cappending ? p->cappending * 2 : 16;
            tp_pending *np = realloc(p->pending, (size_t)cap * sizeof *np);
            if (!np) abort();
            p->pending = np;
            p->cappending = cap;
        }
        p->pending[p->npending++] = (tp_pending){ts, tr_strdup(p->u, m->out), NULL};
    }
}

int tp_member_owner(parser *p, const tr_tokens *toks, const char *name)
{
    /* the written function's tokens are the struct's own: `__device__ ... S_f (` */
    for (int i = 0; i < p->u->nstructs; i++) {
        const tr_struct *st = &p->u->structs[i];
        for (int k = 0; k < st->nmembers; k++)
            if (st->members[k].out && !strcmp(st->members[k].out, name) && toks->n &&
                !strcmp(toks->v[0].text, "__device__"))
                return i + 1;
    }
    return 0;
}

tr_struct *tp_member_struct(parser *p, const tr_type *t)
{
    if (!t->base || t->nptr || strncmp(t->base, "struct ", 7) != 0) return NULL;
    tr_struct *st = tp_find_struct(p->u, t->base + 7);
    return st && (st->has_ctor || st->nmembers) ? st : NULL;
}

/* The member of st named `name` (NULL: a constructor) taking nargs arguments. */
static const tr_member *find_member(const tr_struct *st, const char *name, int nargs, bool *named)
{
    const tr_member *hit = NULL;
    *named = false;
    for (int i = 0; i < st->nmembers; i++) {
        const tr_member *m = &st->members[i];
        if ((m->name == NULL) != (name == NULL) || (name && strcmp(m->name, name))) continue;
        *named = true;
        if (nargs >= m->nrequired && nargs <= m->nparams) {
            if (hit) return NULL; /* ambiguous by count */
            hit = m;
        }
    }
    return hit;
}

/* (args) or {args} at the current token: the arguments. */
static int parse_args(parser *p, tr_expr ***out)
{
    bool brace = tp_is(p, "{");
    p->i++;
    int n = 0;
    tr_expr **args = NULL;
    while (!tp_is(p, brace ? "}" : ")")) {
        tr_expr **na = tr_alloc(p->u, (size_t)(n + 1) * sizeof *na);
        if (n) memcpy(na, args, (size_t)n * sizeof *na);
        na[n++] = tp_parse_assign(p);
        args = na;
        if (!tp_accept(p, ",")) break;
    }
    tp_expect(p, brace ? "}" : ")");
    *out = args;
    return n;
}

static tr_expr *ctor_call(parser *p, const tr_token *at, const tr_struct *st, int nargs,
                          tr_expr **args)
{
    bool named;
    const tr_member *m = find_member(st, NULL, nargs, &named);
    if (!m)
        tp_bail(p, "constructor",
                "struct %s has no constructor taking %d argument%s that the translation can "
                "tell apart",
                st->name, nargs, nargs == 1 ? "" : "s");
    if (!m->out)
        tp_bail(p, "constructor", "the constructor of %s taking %d argument%s is %s", st->name,
                nargs, nargs == 1 ? "" : "s", m->why);
    return tp_mk_call(p, at, m->out, nargs, args);
}

tr_expr *tp_ctor_expr(parser *p)
{
    const tr_token *t = tp_cur(p);
    tr_struct *st = tp_find_struct(p->u, t->text);
    if (!st || !st->has_ctor) return NULL;
    p->i++;
    tr_expr **args;
    int n = parse_args(p, &args);
    return ctor_call(p, t, st, n, args);
}

tr_expr *tp_ctor_expr_of(parser *p, const tr_token *at, const tr_struct *st)
{
    tr_expr **args;
    int n = parse_args(p, &args);
    return ctor_call(p, at, st, n, args);
}

tr_expr *tp_ctor_init(parser *p, tr_sym *sym)
{
    tr_struct *st = tp_member_struct(p, &sym->type);
    if (!st || !st->has_ctor) return NULL;
    if (p->member_of && !strcmp(sym->name, "this_v")) return NULL; /* a constructor's own */
    const tr_token *at = tp_cur(p);
    if (sym->ndims || sym->kind != TR_SYM_LOCAL) {
        if (!st->trivial_init || tp_is(p, "=") || tp_is(p, "{") || tp_is(p, "("))
            tp_bail(p, "constructor",
                    "%s: a%s %s of struct %s runs its constructor, which is lowered only for "
                    "plain local variables",
                    sym->name, sym->ndims ? "n array" : "", sym->ndims ? "" : "variable", st->name);
        return NULL;
    }
    if (tp_is(p, "=") && tp_is_at(p, 1, "{")) p->i++; /* S s = {a, b}: a constructor call */
    if (tp_is(p, "(") || tp_is(p, "{")) {
        tr_expr **args;
        int n = parse_args(p, &args);
        return ctor_call(p, at, st, n, args);
    }
    if (tp_is(p, "=") || st->trivial_init) return NULL;
    return ctor_call(p, at, st, 0, NULL);
}

static tr_expr *this_ident(parser *p, const tr_token *at)
{
    tr_expr *e = tp_mk_ident(p, at, "this_");
    e->sym = tp_lookup(p, "this_");
    if (!e->sym) tp_bail(p, "C++", "'this' outside a member function");
    return e;
}

tr_expr *tp_member_name(parser *p, const tr_token *t)
{
    if (!p->member_of || t->kind != TR_IDENT) return NULL;
    const tr_struct *st = &p->u->structs[p->member_of - 1];
    if (is(t, "this")) {
        p->i++;
        return this_ident(p, t);
    }
    if (tp_is_at(p, 1, "(")) return NULL;
    /* parameters and locals hide a field; file-scope data does not (the struct is nearer) */
    for (int i = 0; i < p->nscope; i++)
        if (!strcmp(p->scope[i]->name, t->text)) return NULL;
    for (int f = 0; f < st->nfields; f++)
        if (is(t, st->fields[f].name)) {
            p->i++;
            tr_expr *e = tp_new_expr(p, TR_E_MEMBER, t);
            e->text = tr_strdup(p->u, "->");
            e->name = tr_strdup(p->u, t->text);
            e->a = this_ident(p, t);
            return e;
        }
    return NULL;
}

static bool lvalue(const tr_expr *e)
{
    return e->kind == TR_E_IDENT || e->kind == TR_E_INDEX || e->kind == TR_E_MEMBER ||
           (e->kind == TR_E_UNARY && !strcmp(e->text, "*"));
}

/* e is a value (not a pointer) of one of the file's structs that has a call operator. */
static bool call_operator_of(parser *p, const tr_expr *e, const tr_struct **st)
{
    char base[160];
    int nptr;
    if (e->kind == TR_E_IDENT && !e->sym) return false; /* a function's name */
    if (!tp_guess_type(p, e, base, sizeof base, &nptr) || nptr || strncmp(base, "struct ", 7))
        return false;
    *st = tp_find_struct(p->u, base + 7);
    bool named = false;
    if (*st) find_member(*st, "operator_call", -1, &named);
    return named;
}

/* The object expression is const: a const variable or parameter (a pointer's pointee for ->). */
static bool const_object(const tr_expr *o)
{
    while (o->kind == TR_E_MEMBER || o->kind == TR_E_INDEX)
        o = o->a;
    return o->kind == TR_E_IDENT && o->sym && o->sym->type.is_const;
}

/* The member of st named `name` taking nargs arguments; of a pair told apart by constness
 * (`T &f()`, `const T &f() const`), the one for an object that is const or not. */
static const tr_member *find_member_for(const tr_struct *st, const char *name, int nargs,
                                        bool obj_const, bool *named)
{
    const tr_member *hit = find_member(st, name, nargs, named);
    if (hit || !*named) return hit;
    const tr_member *c = NULL, *nc = NULL;
    int n = 0;
    for (int i = 0; i < st->nmembers; i++) {
        const tr_member *m = &st->members[i];
        if (!m->name || strcmp(m->name, name) || nargs < m->nrequired || nargs > m->nparams)
            continue;
        n++;
        if (m->is_const)
            c = m;
        else
            nc = m;
    }
    if (n != 2 || !c || !nc) return NULL;
    return obj_const ? c : nc;
}

/* A call of member m of st on the object `obj` (a pointer to it; NULL for a static member):
 * S_f(obj, args), read through where m returns a reference; at `where`'s place (NULL: at). */
static tr_expr *member_call_expr(parser *p, const tr_token *at, const tr_struct *st,
                                 const tr_member *m, const char *name, tr_expr *obj, int nargs,
                                 tr_expr **xargs, const tr_expr *where)
{
    if (!m->out) tp_bail(p, "member function", "%s::%s is %s", st->name, name, m->why);
    int k = m->is_static ? 0 : 1;
    tr_expr **args = tr_alloc(p->u, (size_t)(nargs + 1) * sizeof *args);
    if (k) args[0] = obj;
    for (int i = 0; i < nargs; i++)
        args[i + k] = xargs[i];
    tr_expr *c = tp_mk_call(p, at, m->out, nargs + k, args);
    if (where) c->line = where->line, c->col = where->col, c->file = where->file;
    if (!m->ref_ret) return c;
    tr_expr *d = tp_new_expr(p, TR_E_UNARY, at);
    d->text = tr_strdup(p->u, "*");
    d->a = c;
    d->line = c->line, d->col = c->col, d->file = c->file;
    return d;
}

/* &o for a member function's object o (refused where o is no variable, unless m is static). */
static tr_expr *object_address(parser *p, const tr_token *at, const tr_struct *st,
                               const tr_member *m, const char *name, tr_expr *o, bool arrow)
{
    if (m && m->is_static) return NULL;
    if (arrow) return o;
    if (!lvalue(o))
        tp_bail(p, "member function",
                "%s.%s(): a member function called on a value that is not a variable (a "
                "temporary such as S()(x) or f().g()): declare the object first",
                st->name, name);
    tr_expr *a = tp_new_expr(p, TR_E_UNARY, at);
    a->text = tr_strdup(p->u, "&");
    a->a = o;
    a->line = o->line, a->col = o->col, a->file = o->file;
    return a;
}

static void no_member(parser *p, const tr_struct *st, const char *name, int nargs)
{
    tp_bail(p, "member function",
            "%s has no member function %s taking %d argument%s that the translation can tell "
            "apart",
            st->name, name, nargs, nargs == 1 ? "" : "s");
}

tr_expr *tp_member_call(parser *p, tr_expr *x)
{
    const tr_token *at = tp_cur(p);
    const tr_struct *st = NULL;
    const char *name = NULL;
    tr_expr *o = NULL; /* the object, or a pointer to it (arrow) */
    bool arrow = false, named;
    if (x->a->kind == TR_E_MEMBER) {
        char base[160];
        int nptr;
        arrow = !strcmp(x->a->text, "->");
        if (!tp_guess_type(p, x->a->a, base, sizeof base, &nptr) || nptr != (arrow ? 1 : 0) ||
            strncmp(base, "struct ", 7) != 0)
            return x;
        st = tp_find_struct(p->u, base + 7);
        if (!st || !st->nmembers) return x;
        name = x->a->name;
        o = x->a->a;
    } else if (x->a->kind != TR_E_MEMBER && call_operator_of(p, x->a, &st)) {
        /* f(a, b) on a value of a struct with `operator()`: its member operator_call */
        name = "operator_call";
        o = x->a;
    } else if (x->a->kind == TR_E_IDENT && !x->a->sym && p->member_of) {
        st = &p->u->structs[p->member_of - 1];
        name = x->a->text;
        const tr_member *m = find_member_for(st, name, x->nargs, false, &named);
        if (!named) return x;
        if (!m) no_member(p, st, name, x->nargs);
        return member_call_expr(p, at, st, m, name, m->is_static ? NULL : this_ident(p, at),
                                x->nargs, x->args, x);
    } else {
        return x;
    }
    const tr_member *m = find_member_for(st, name, x->nargs, const_object(o), &named);
    if (!m) no_member(p, st, name, x->nargs);
    tr_expr *obj = object_address(p, at, st, m, name, o, arrow);
    return member_call_expr(p, at, st, m, name, obj, x->nargs, x->args, x);
}

/* o[i] on a value of a struct with `operator[]`: *S_operator_index(&o, i); NULL where o is no
 * such value. */
tr_expr *tp_member_index(parser *p, tr_expr *o, tr_expr *index)
{
    char base[160];
    int nptr;
    if ((o->kind == TR_E_IDENT && !o->sym) || !tp_guess_type(p, o, base, sizeof base, &nptr) ||
        nptr || strncmp(base, "struct ", 7))
        return NULL;
    const tr_struct *st = tp_find_struct(p->u, base + 7);
    bool named = false;
    if (!st) return NULL;
    const tr_member *m = find_member_for(st, "operator_index", 1, const_object(o), &named);
    if (!named) return NULL;
    if (!m) no_member(p, st, "operator[]", 1);
    const tr_token *at = tp_cur(p);
    tr_expr *obj = object_address(p, at, st, m, "operator[]", o, false);
    return member_call_expr(p, at, st, m, "operator[]", obj, 1, &index, o);
}

/* S::name at p->i (at `::`), for one of the file's structs: a constant's value, or a call of
 * a static member function. */
tr_expr *tp_static_member(parser *p, const tr_token *at, const tr_struct *st)
{
    tp_expect(p, "::");
    const tr_token *n = tp_cur(p);
    if (n->kind != TR_IDENT) tp_bail(p, "syntax", "expected a name after %s::", st->name);
    p->i++;
    tr_expr *c = tp_struct_constant(p, n, st, n->text);
    if (c) return c;
    bool named;
    if (tp_is(p, "(")) {
        tr_expr **args;
        int nargs = parse_args(p, &args);
        const tr_member *m = find_member_for(st, n->text, nargs, false, &named);
        if (m && m->is_static)
            return member_call_expr(p, at, st, m, n->text, NULL, nargs, args, NULL);
        if (m)
            tp_bail(p, "member function",
                    "%s::%s(...) names a member function that is not static outside a call on "
                    "an object",
                    st->name, n->text);
        if (named) no_member(p, st, n->text, nargs);
    }
    tp_bail(p, "C++", "%s::%s is no constant or static member function of %s the translation reads",
            st->name, n->text, st->name);
}

/* The constant `name` of st (static constexpr) as a number, or NULL. */
tr_expr *tp_struct_constant(parser *p, const tr_token *at, const tr_struct *st, const char *name)
{
    for (int c = 0; c < st->nconsts; c++)
        if (!strcmp(st->cnames[c], name)) {
            char num[32];
            snprintf(num, sizeof num, "%lld", st->cvalues[c]);
            tr_expr *e = tp_new_expr(p, TR_E_NUM, at);
            e->text = tr_strdup(p->u, num);
            return e;
        }
    return NULL;
}
