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
 * Host-only members are dropped (device code cannot call them). Overloads are told apart by
 * their number of parameters (`S_make_2`), operators by their types. What is not lowered
 * (subscript, call and conversion operators, destructors, virtual or static members, copy
 * constructors, default member initialisers) keeps the struct out, or its use refused, with the
 * reason. */
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
        /* the call operator `R operator()(args)`: a member function named operator_call */
        bool call_op = lp > a && is(&p->t[lp - 1], "operator") && lp + 2 < close &&
                       is(&p->t[lp + 1], ")") && is(&p->t[lp + 2], "(");
        if (call_op) lp += 2;
        /* a function: [a, lp) its head, (lp, rp) its parameters */
        size_t rp = matching(p, lp, close);
        if (rp >= close || lp == a) {
            snprintf(why, cap, "a member it cannot read");
            return false;
        }
        bool device = any_in(p, a, lp, "__device__");
        bool oper = any_in(p, a, lp, "operator") && !call_op;
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
        m->name = ctor      ? NULL
                  : call_op ? tr_strdup(p->u, "operator_call")
                            : tr_strdup(p->u, p->t[lp - 1].text);
        if (call_op) m->op_at = lp - 3; /* its return type ends there */
        m->nparams = n, m->nrequired = required;
        m->head = a, m->lparen = lp, m->rparen = rp, m->inits = inits;
        m->body = body, m->body_end = body_end;
        m->is_const = cnst;
        if (!device)
            m->why = "a host function: device code cannot call it";
        else if (!body)
            m->why = "declared in the struct and defined outside it, which is not lowered";
        else if (!ctor && any_in(p, a, lp, "&"))
            m->why = "a member function returning a reference, which is not lowered";
        else if (is_static || templ)
            m->why = "a static or template member function, which is not lowered";
        else if (ctor && any_in(p, body, body_end, "return"))
            m->why = "a constructor that returns early, which is not lowered";
    }
    st->trivial_init = !st->has_ctor || (default_ctor && default_trivial);
    /* names of the functions written: S_f, S_make; S_f_N where the name is overloaded */
    for (int i = 0; i < st->nmembers; i++) {
        tr_member *m = &st->members[i];
        if (m->why) continue;
        int same = 0, same_n = 0;
        for (int k = 0; k < st->nmembers; k++) {
            const tr_member *o = &st->members[k];
            if ((o->name == NULL) != (m->name == NULL) || (m->name && strcmp(o->name, m->name)))
                continue;
            same++;
            same_n += o->nparams == m->nparams && k < i;
        }
        if (same_n && !m->op) { /* operators are told apart by their types (overload.c) */
            m->why = "overloaded with another of as many parameters, which is not lowered";
            continue;
        }
        char out[256];
        int len = snprintf(out, sizeof out, "%s_%s", st->name, m->name ? m->name : "make");
        if (m->op)
            snprintf(out + len, sizeof out - (size_t)len, "_%d", i);
        else if (same > 1)
            snprintf(out + len, sizeof out - (size_t)len, "_%d", m->nparams);
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
    if (m->name) { /* the return type: the head without its specifiers and name */
        for (size_t k = m->head; k < (m->op_at ? m->op_at : m->lparen - 1); k++)
            if (!tp_in_list(p->t[k].text, dropped, sizeof dropped / sizeof *dropped))
                push_range(ts, p, k, k + 1);
    } else {
        push(ts, at, TR_IDENT, "struct");
        push(ts, at, TR_IDENT, st->name);
    }
    push(ts, at, TR_IDENT, m->out);
    push(ts, at, TR_PUNCT, "(");
    if (m->name) {
        if (m->is_const) push(ts, at, TR_IDENT, "const");
        push(ts, at, TR_IDENT, "struct");
        push(ts, at, TR_IDENT, st->name);
        push(ts, at, TR_PUNCT, "*");
        push(ts, at, TR_IDENT, "this_");
        if (m->nparams) push(ts, at, TR_PUNCT, ",");
    }
    push_range(ts, p, m->lparen + 1, m->rparen + 1);
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

tr_expr *tp_member_call(parser *p, tr_expr *x)
{
    const tr_token *at = tp_cur(p);
    tr_expr *obj = NULL;
    const tr_struct *st = NULL;
    const char *name = NULL;
    if (x->a->kind == TR_E_MEMBER) {
        char base[160];
        int nptr;
        bool arrow = !strcmp(x->a->text, "->");
        if (!tp_guess_type(p, x->a->a, base, sizeof base, &nptr) || nptr != (arrow ? 1 : 0) ||
            strncmp(base, "struct ", 7) != 0)
            return x;
        st = tp_find_struct(p->u, base + 7);
        if (!st || !st->nmembers) return x;
        name = x->a->name;
        if (arrow) {
            obj = x->a->a;
        } else {
            if (!lvalue(x->a->a))
                tp_bail(p, "member function",
                        "%s.%s(): a member function called on a value that is not a variable",
                        st->name, name);
            obj = tp_new_expr(p, TR_E_UNARY, at);
            obj->text = tr_strdup(p->u, "&");
            obj->a = x->a->a;
            obj->line = x->a->a->line, obj->col = x->a->a->col, obj->file = x->a->a->file;
        }
    } else if (x->a->kind != TR_E_MEMBER && call_operator_of(p, x->a, &st)) {
        /* f(a, b) on a value of a struct with `operator()`: its member operator_call */
        name = "operator_call";
        if (!lvalue(x->a))
            tp_bail(p, "member function",
                    "%s's operator() called on a value that is not a variable (a temporary "
                    "such as S()(x)): declare the object first",
                    st->name);
        obj = tp_new_expr(p, TR_E_UNARY, at);
        obj->text = tr_strdup(p->u, "&");
        obj->a = x->a;
        obj->line = x->a->line, obj->col = x->a->col, obj->file = x->a->file;
    } else if (x->a->kind == TR_E_IDENT && !x->a->sym && p->member_of) {
        st = &p->u->structs[p->member_of - 1];
        name = x->a->text;
        bool named;
        find_member(st, name, x->nargs, &named);
        if (!named) return x;
        obj = this_ident(p, at);
    } else {
        return x;
    }
    bool named;
    const tr_member *m = find_member(st, name, x->nargs, &named);
    if (!m)
        tp_bail(p, "member function",
                "%s has no member function %s taking %d argument%s that the translation can "
                "tell apart",
                st->name, name, x->nargs, x->nargs == 1 ? "" : "s");
    if (!m->out) tp_bail(p, "member function", "%s::%s is %s", st->name, name, m->why);
    tr_expr **args = tr_alloc(p->u, (size_t)(x->nargs + 1) * sizeof *args);
    args[0] = obj;
    for (int i = 0; i < x->nargs; i++)
        args[i + 1] = x->args[i];
    tr_expr *c = tp_mk_call(p, at, m->out, x->nargs + 1, args);
    c->line = x->line, c->col = x->col, c->file = x->file;
    return c;
}
