/* template.c — function and kernel templates, instantiated with the types and constants the file
 * itself gives them: explicit instantiations, the template arguments of <<<>>> launches in host
 * code (through host function templates the file instantiates), template arguments written at
 * device-side calls or deduced from the call's arguments, and --instantiate requests. Each
 * instance is the template's tokens with the parameters replaced, parsed as a function of its
 * own named after its arguments (reduce<float, 256> becomes reduce_float_256). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/map.h"
#include "translate/parser.h"

enum { MAX_INSTANCES = 512, HOST_DEPTH = 3, MAX_HOST_BODIES = 256 };

/* Two bit positions of the name filter for a name (FNV-1a, its two halves). */
static void tmpl_bits(const char *name, unsigned *a, unsigned *b)
{
    uint64_t h = 14695981039346656037ull;
    for (const unsigned char *s = (const unsigned char *)name; *s; s++)
        h = (h ^ *s) * 1099511628211ull;
    *a = (unsigned)(h & 8191u);
    *b = (unsigned)((h >> 32) & 8191u);
}

tr_template *tp_template_find(parser *p, const char *name)
{
    tr_unit *u = p->u;
    for (; u->tmpl_filtered < u->ntemplates; u->tmpl_filtered++) {
        unsigned a, b;
        tmpl_bits(u->templates[u->tmpl_filtered].name, &a, &b);
        u->tmpl_filter[a >> 6] |= 1ull << (a & 63);
        u->tmpl_filter[b >> 6] |= 1ull << (b & 63);
    }
    unsigned a, b;
    tmpl_bits(name, &a, &b);
    if (!(u->tmpl_filter[a >> 6] >> (a & 63) & 1) || !(u->tmpl_filter[b >> 6] >> (b & 63) & 1))
        return NULL; /* most identifiers of a file name no template */
    for (int i = 0; i < p->u->ntemplates; i++)
        if (!strcmp(p->u->templates[i].name, name)) return &p->u->templates[i];
    return NULL;
}

static const tr_kept_macro *kept(parser *p, const char *name)
{
    for (size_t k = 0; k < p->u->pp.nkept; k++)
        if (!strcmp(p->u->pp.kept[k].name, name)) return &p->u->pp.kept[k];
    return NULL;
}

/* The words a type argument may be made of. */
static bool type_word(parser *p, const char *w)
{
    static const char *const words[] = {"void",        "char",         "short",
                                        "int",         "long",         "float",
                                        "double",      "signed",       "unsigned",
                                        "bool",        "const",        "int8_t",
                                        "int16_t",     "int32_t",      "int64_t",
                                        "uint8_t",     "uint16_t",     "uint32_t",
                                        "uint64_t",    "size_t",       "float2",
                                        "float4",      "int2",         "int4",
                                        "__half",      "half",         "__nv_bfloat16",
                                        "nv_bfloat16", "uint2",        "uint4",
                                        "struct",      "thread_block", "thread_block_tile"};
    if (tp_in_list(w, words, sizeof words / sizeof *words) || tp_std_typedef(w)) return true;
    /* CUDA's vector types (whether the dialect has one is the instance's own question) */
    static const char *const vec[] = {"char", "uchar", "short",    "ushort",    "int",   "uint",
                                      "long", "ulong", "longlong", "ulonglong", "float", "double"};
    for (size_t v = 0; v < sizeof vec / sizeof *vec; v++) {
        size_t l = strlen(vec[v]);
        if (!strncmp(w, vec[v], l) && w[l] >= '1' && w[l] <= '4' && !w[l + 1]) return true;
    }
    for (int i = 0; i < p->u->nstructs; i++)
        if (p->u->structs[i].name && !strcmp(p->u->structs[i].name, w)) return true;
    for (int i = 0; i < p->naliases; i++)
        if (!strcmp(p->aliases[i].name, w)) return true;
    return false;
}

/* The value of a constant the host code defines for itself (`const int threads = 256;`,
 * `constexpr int warps = threads / 32;`, anywhere in the file), when every definition of that
 * name agrees: an integer expression of numbers and such constants. */
static const char *host_const_value_depth(parser *p, const char *name, int depth)
{
    const tr_token *t = p->u->pp.toks.v;
    size_t n = p->u->pp.toks.n;
    const char *value = NULL;
    if (depth > 8) return NULL;
    for (size_t i = 1; i + 3 < n; i++) {
        if (t[i].kind != TR_IDENT || strcmp(t[i].text, name) || strcmp(t[i + 1].text, "="))
            continue;
        /* `const`/`constexpr` at the head of its declaration, the name the first declarator
         * or a later one (`const int width = 64, height = 48;`) */
        bool is_const = false;
        int depth_back = 0;
        for (size_t k = i - 1, steps = 0; k < i && steps < 64; k--, steps++) {
            const char *x = t[k].text;
            if (!strcmp(x, ")") || !strcmp(x, "]")) depth_back++;
            if (!strcmp(x, "(") || !strcmp(x, "[")) {
                if (!depth_back) break;
                depth_back--;
            }
            if (!depth_back && (!strcmp(x, "const") || !strcmp(x, "constexpr"))) is_const = true;
            if (!strcmp(x, ";") || !strcmp(x, "{") || !strcmp(x, "}")) break;
            if (!k) break;
        }
        if (!is_const) continue;
        /* the initialiser, its names replaced by their values */
        tr_tokens e = {0};
        int parens = 0;
        bool ok = true;
        size_t j = i + 2;
        for (; j < n && ok; j++) {
            const char *x = t[j].text;
            if (parens == 0 && (!strcmp(x, ";") || !strcmp(x, ","))) break;
            parens += !strcmp(x, "(") - !strcmp(x, ")");
            tr_token c = t[j];
            const tr_kept_macro *km = t[j].kind == TR_IDENT ? kept(p, x) : NULL;
            if (km) { /* `#define BLOCK 256` kept by name: its number */
                tr_tokens b = {0};
                char err[128];
                ok = tr_lex("macro", t[j].file, km->body, strlen(km->body), &b, err, sizeof err) ==
                     0;
                for (size_t q = 0; ok && q < b.n && b.v[q].kind != TR_EOF; q++)
                    ok = tr_tokens_push(&e, &b.v[q]) == 0;
                tr_tokens_free(&b);
                continue;
            }
            if (t[j].kind == TR_IDENT) {
                const char *v = !strcmp(x, "true") || !strcmp(x, "false")
                                    ? x
                                    : host_const_value_depth(p, x, depth + 1);
                if (v && (!strcmp(v, "true") || !strcmp(v, "false")))
                    v = !strcmp(v, "true") ? "1" : "0"; /* a bool's value in arithmetic */
                if (!v) ok = false;
                c.kind = TR_NUMBER, c.text = (char *)(v ? v : "0");
            }
            if (ok && tr_tokens_push(&e, &c)) ok = false;
        }
        long long v;
        ok = ok && j < n && tr_const_eval(e.v, e.n, &v);
        tr_tokens_free(&e);
        if (!ok) return NULL; /* an initialiser the translation cannot read */
        char num[32];
        snprintf(num, sizeof num, "%lld", v);
        if (j == i + 3 && (!strcmp(t[i + 2].text, "true") || !strcmp(t[i + 2].text, "false")))
            snprintf(num, sizeof num, "%s", t[i + 2].text); /* `const bool on = true;` */
        if (value && strcmp(value, num)) return NULL;       /* two values: not one constant */
        if (!value) value = tr_strdup(p->u, num);
    }
    return value;
}

static const char *host_const_value(parser *p, const char *name)
{
    return host_const_value_depth(p, name, 0);
}

const char *tp_host_const_value(parser *p, const char *name)
{
    const char *v = host_const_value_depth(p, name, 0);
    return v && !strcmp(v, "true") ? "1" : v && !strcmp(v, "false") ? "0" : v;
}

static bool enumerator_value(parser *p, const char *name, long long *v);

bool tp_const_tokens(parser *p, const tr_token *t, size_t n, long long *v)
{
    /* cheap refusals first (a variable, a member, a call, the built-in indices): the host's
     * constants are looked up over the whole file */
    for (size_t j = 0; j < n; j++) {
        if (t[j].kind != TR_IDENT || !strcmp(t[j].text, "sizeof")) continue;
        const tr_sym *s = tp_lookup(p, t[j].text);
        if ((s && !s->has_cvalue) ||
            (j + 1 < n && (!strcmp(t[j + 1].text, ".") || !strcmp(t[j + 1].text, "(") ||
                           !strcmp(t[j + 1].text, "[") || !strcmp(t[j + 1].text, "->"))))
            return false;
    }
    tr_tokens e = {0};
    bool ok = n > 0;
    for (size_t j = 0; j < n && ok; j++) {
        tr_token c = t[j];
        char num[32];
        long long ev;
        if (t[j].kind == TR_IDENT && !strcmp(t[j].text, "sizeof") && j + 1 < n &&
            !strcmp(t[j + 1].text, "(")) {
            /* sizeof(T) of a scalar or vector type (an alias's, a pointer's: 8) */
            char ty[128] = "";
            size_t q = j + 2;
            bool ptr = false;
            for (; q < n && strcmp(t[q].text, ")"); q++) {
                if (!strcmp(t[q].text, "*")) ptr = true;
                if (t[q].kind != TR_IDENT || !strcmp(t[q].text, "const")) continue;
                const tr_type *al = tp_alias_type(p, t[q].text);
                const char *w = al && !al->nptr ? al->base : t[q].text;
                ptr |= al && al->nptr;
                if (strlen(ty) + strlen(w) + 2 < sizeof ty)
                    snprintf(ty + strlen(ty), sizeof ty - strlen(ty), "%s%s", ty[0] ? " " : "", w);
            }
            ev = ptr ? 8 : tr_type_size(ty);
            if (q >= n || ev <= 0) {
                ok = false;
                break;
            }
            j = q; /* at the ')' */
            snprintf(num, sizeof num, "%lld", ev);
            c = t[j];
            c.kind = TR_NUMBER, c.text = num;
            ok = tr_tokens_push(&e, &c) == 0;
            continue;
        }
        if (t[j].kind == TR_IDENT) {
            const tr_sym *s = tp_lookup(p, t[j].text);
            const char *hv = NULL;
            if (s && s->has_cvalue)
                ev = s->cvalue;
            else if (!strcmp(t[j].text, "true") || !strcmp(t[j].text, "false"))
                ev = t[j].text[0] == 't';
            else if (!s && (hv = host_const_value(p, t[j].text)) != NULL)
                ev = strtoll(hv, NULL, 10);
            else if (!s && !kept(p, t[j].text) && enumerator_value(p, t[j].text, &ev))
                ;
            else if (!s && kept(p, t[j].text)) {
                tr_tokens b = {0}; /* a kept `#define WARP 32`: its tokens */
                char err[128];
                const tr_kept_macro *km = kept(p, t[j].text);
                ok = tr_lex("macro", t[j].file, km->body, strlen(km->body), &b, err, sizeof err) ==
                     0;
                for (size_t q = 0; ok && q < b.n && b.v[q].kind != TR_EOF; q++)
                    ok = b.v[q].kind != TR_IDENT && tr_tokens_push(&e, &b.v[q]) == 0;
                tr_tokens_free(&b);
                continue;
            } else {
                ok = false;
                break;
            }
            snprintf(num, sizeof num, "%lld", ev);
            c.kind = TR_NUMBER, c.text = num;
        }
        ok = ok && tr_tokens_push(&e, &c) == 0;
    }
    ok = ok && tr_const_eval(e.v, e.n, v);
    tr_tokens_free(&e);
    return ok;
}

/* A device function of the file (defined before, or a template's name is not it). */
static bool device_function(parser *p, const char *name)
{
    for (int i = 0; i < p->u->nfuncs; i++)
        if (!strcmp(p->u->funcs[i]->name, name) && p->u->funcs[i]->kind != TR_F_GLOBAL) return true;
    return false;
}

/* The value of an enumerator of the file's enums, when every enumerator of that name agrees. */
static bool enumerator_value(parser *p, const char *name, long long *v)
{
    bool found = false;
    for (int i = 0; i < p->nhconsts; i++) {
        const tp_host_const *h = &p->hconsts[i];
        if (strcmp(h->name, name) || h->begin != h->end) continue;
        if (found && *v != h->value) return false;
        *v = h->value;
        found = true;
    }
    return found;
}

/* A class template's instance named in a template argument (`W<float, Pair<int>>`): made, its
 * name in *name; *i is moved to the last token of `S<...>`. False (why said) where it cannot be. */
static bool nested_struct_ref(parser *p, const tr_tokens *a, size_t *i, const char **name,
                              char *why, size_t whylen)
{
    tr_token *st = p->t;
    size_t sn = p->n, si = p->i, se = p->end;
    jmp_buf fail;
    memcpy(fail, p->fail, sizeof fail);
    p->t = a->v, p->n = a->n, p->i = *i, p->end = a->n;
    bool ok = !setjmp(p->fail);
    if (ok) {
        *name = tp_struct_template_ref(p);
        *i = p->i - 1;
    } else {
        snprintf(why, whylen, "%s", p->why);
    }
    p->t = st, p->n = sn, p->i = si, p->end = se;
    memcpy(p->fail, fail, sizeof fail);
    return ok;
}

/* An argument's text for the instance's name, and whether the translation can read it: a type,
 * or a constant (numbers, true/false, kept macros, operators). */
static bool arg_text(parser *p, const tr_tokens *a, bool is_type, char *out, size_t cap, char *why,
                     size_t whylen)
{
    size_t k = 0;
    out[0] = '\0';
    if (a->n == 0) {
        snprintf(why, whylen, "an empty template argument");
        return false;
    }
    for (size_t i = 0; i < a->n; i++) {
        const tr_token *t = &a->v[i];
        const char *piece = t->text;
        char num[32];
        long long ev;
        if (!is_type && t->kind == TR_IDENT && i + 2 < a->n && !strcmp(a->v[i + 1].text, "::") &&
            a->v[i + 2].kind == TR_IDENT) {
            char q[256]; /* Kind::Value: the enumerator's value (an enum class's, by its name) */
            snprintf(q, sizeof q, "%s::%s", t->text, a->v[i + 2].text);
            if (enumerator_value(p, q, &ev)) {
                snprintf(num, sizeof num, "%lld", ev);
                int n = snprintf(out + k, cap - k, "%s%s", k ? " " : "", num);
                if (n < 0 || (size_t)n >= cap - k) {
                    snprintf(why, whylen, "a template argument longer than %zu characters",
                             cap - 1);
                    return false;
                }
                k += (size_t)n;
                i += 2;
                continue;
            }
            i++; /* otherwise the enum's name aside, the enumerator read as a name */
            continue;
        }
        if (is_type && t->kind == TR_IDENT && i + 1 < a->n && !strcmp(a->v[i + 1].text, "<") &&
            tp_struct_template_find(p, t->text)) {
            if (!nested_struct_ref(p, a, &i, &piece, why, whylen)) return false;
        } else if (is_type && t->kind == TR_IDENT && a->n == 1 &&
                   tp_struct_template_find(p, t->text)) {
            piece = t->text; /* a class template for a template template parameter */
        } else if (t->kind == TR_IDENT && !is_type && tp_lookup(p, t->text) &&
                   tp_lookup(p, t->text)->has_cvalue) {
            snprintf(num, sizeof num, "%lld", tp_lookup(p, t->text)->cvalue);
            piece = num; /* a local constexpr of the function being read */
        } else if (t->kind == TR_IDENT && !is_type && !kept(p, t->text) &&
                   host_const_value(p, t->text))
            piece = host_const_value(p, t->text);
        else if (t->kind == TR_IDENT && !is_type && !kept(p, t->text) &&
                 enumerator_value(p, t->text, &ev)) {
            snprintf(num, sizeof num, "%lld", ev);
            piece = num;
        } else if (t->kind == TR_IDENT && !is_type && a->n == 1 && device_function(p, t->text)) {
            piece = t->text; /* a device function passed as a template argument */
        } else if (t->kind == TR_IDENT) {
            if (is_type ? !type_word(p, t->text)
                        : !(kept(p, t->text) || !strcmp(t->text, "true") ||
                            !strcmp(t->text, "false"))) {
                snprintf(why, whylen,
                         "its argument '%s' is not a %s the translation can read in this file",
                         t->text, is_type ? "type" : "constant");
                return false;
            }
            if (!is_type && kept(p, t->text)) piece = kept(p, t->text)->body;
        } else if (t->kind == TR_STRING || t->kind == TR_CHAR) {
            snprintf(why, whylen, "a string as a template argument");
            return false;
        }
        int n = snprintf(out + k, cap - k, "%s%s", k && t->kind == TR_IDENT ? " " : "", piece);
        if (n < 0 || (size_t)n >= cap - k) {
            snprintf(why, whylen, "a template argument longer than %zu characters", cap - 1);
            return false;
        }
        k += (size_t)n;
    }
    return true;
}

static void mangle(char *out, size_t cap, const char *name, char texts[][64], int n)
{
    char full[TR_MAX_TPARAMS * 64 + 256];
    size_t k = (size_t)snprintf(full, sizeof full, "%s", name), fcap = sizeof full;
    for (int i = 0; i < n && k + 2 < fcap; i++) {
        full[k++] = '_';
        for (const char *c = texts[i]; *c && k + 2 < fcap; c++) {
            if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9'))
                full[k++] = *c;
            else if (*c == ' ' || *c == '_' || *c == '.')
                full[k++] = '_';
            else if (*c == '*')
                full[k++] = 'p';
            else if (*c == '-')
                full[k++] = 'm';
        }
    }
    full[k] = '\0';
    if (k < cap) {
        memcpy(out, full, k + 1);
        return;
    }
    /* too long: cut, and told apart from the other instances by a hash of the whole */
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < k; i++)
        h = (h ^ (unsigned char)full[i]) * 1099511628211ull;
    snprintf(out, cap, "%.*s_%016llx", (int)(cap - 18), full, h);
}

static void push(tr_tokens *ts, const tr_token *t, const tr_token *pos)
{
    tr_token c = *t;
    if (pos) c.file = pos->file, c.line = pos->line, c.col = pos->col;
    if (tr_tokens_push(ts, &c)) abort();
}

/* The argument texts of an instance or a specialisation: those given, then the defaults. */
static bool all_texts(parser *p, tr_template *t, tr_tokens *args, int nargs, tr_tokens *all,
                      char texts[TR_MAX_TPARAMS][64], char *why, size_t whylen);

void tp_template_specialise(parser *p, tr_template *t, const size_t *abegin, const size_t *aend,
                            int nargs, size_t begin, size_t end, int line)
{
    if (t->nspecs == t->capspecs) {
        int cap = t->capspecs ? t->capspecs * 2 : 4;
        tr_spec *ns = tr_alloc(p->u, (size_t)cap * sizeof *ns);
        if (t->nspecs) memcpy(ns, t->specs, (size_t)t->nspecs * sizeof *ns);
        t->specs = ns;
        t->capspecs = cap;
    }
    tr_spec *s = &t->specs[t->nspecs++];
    memset(s, 0, sizeof *s);
    s->nargs = nargs;
    for (int i = 0; i < nargs && i < TR_MAX_TPARAMS; i++) {
        s->abegin[i] = abegin[i];
        s->aend[i] = aend[i];
    }
    s->begin = begin;
    s->end = end;
    s->line = line;
}

static bool all_texts(parser *p, tr_template *t, tr_tokens *args, int nargs, tr_tokens *all,
                      char texts[TR_MAX_TPARAMS][64], char *why, size_t whylen)
{
    bool ok = true;
    for (int i = 0; i < t->nparams && ok; i++) {
        if (i < nargs) {
            for (size_t k = 0; k < args[i].n; k++)
                push(&all[i], &args[i].v[k], NULL);
        } else if (t->pdefault[i]) {
            for (int k = 0; k < t->ndefault[i]; k++)
                push(&all[i], &t->pdefault[i][k], NULL);
        } else {
            snprintf(why, whylen, "%s needs %d template argument%s, given %d", t->name, t->nparams,
                     t->nparams == 1 ? "" : "s", nargs);
            ok = false;
            break;
        }
        ok = arg_text(p, &all[i], t->ptype[i], texts[i], sizeof texts[i], why, whylen);
        if (ok && t->ptype[i] && p->stemplates && t >= p->stemplates &&
            t < p->stemplates + p->nstemplates) {
            /* one struct per type, whatever its spelling (`Packed128<floatX>` is
             * `Packed128<__nv_bfloat16>` where floatX names it): values pass between them */
            char c[64];
            tp_canon_type(p, texts[i], c, sizeof c);
            snprintf(texts[i], sizeof texts[i], "%s", c);
        }
        if (ok && !t->ptype[i]) {
            /* a value argument is its value (a host constant's too), not the name it had */
            tr_tokens lexed = {0};
            char err[128];
            int file = all[i].n ? all[i].v[0].file : -1, line = all[i].n ? all[i].v[0].line : 0;
            if (tr_lex("<template>", file, texts[i], strlen(texts[i]), &lexed, err, sizeof err) ==
                0) {
                tr_tokens_free(&all[i]);
                for (size_t k = 0; k + 1 < lexed.n; k++) {
                    lexed.v[k].line = line;
                    push(&all[i], &lexed.v[k], NULL);
                }
            }
            tr_tokens_free(&lexed);
        }
    }
    return ok;
}

/* The explicit specialisation of t for these argument texts, or NULL; one whose arguments cannot
 * be read is *unread (the template is then refused, as the general body would run). */
static const tr_spec *spec_for(parser *p, tr_template *t, char texts[TR_MAX_TPARAMS][64],
                               const tr_spec **unread)
{
    const tr_token *src = p->u->pp.toks.v;
    *unread = NULL;
    for (int s = 0; s < t->nspecs; s++) {
        tr_spec *sp = &t->specs[s];
        if (!sp->read) {
            sp->read = true;
            tr_tokens args[TR_MAX_TPARAMS] = {{0}}, all[TR_MAX_TPARAMS] = {{0}};
            char st[TR_MAX_TPARAMS][64], why[256];
            for (int i = 0; i < sp->nargs && i < TR_MAX_TPARAMS; i++)
                for (size_t k = sp->abegin[i]; k < sp->aend[i]; k++)
                    push(&args[i], &src[k], NULL);
            sp->unreadable = sp->nargs > t->nparams ||
                             !all_texts(p, t, args, sp->nargs, all, st, why, sizeof why);
            for (int i = 0; !sp->unreadable && i < t->nparams; i++) {
                char c[64];
                tp_canon_type(p, st[i], c, sizeof c);
                sp->texts[i] = tr_strdup(p->u, c);
            }
            for (int i = 0; i < TR_MAX_TPARAMS; i++) {
                tr_tokens_free(&args[i]);
                tr_tokens_free(&all[i]);
            }
        }
        if (sp->unreadable) {
            if (!*unread) *unread = sp;
            continue;
        }
        bool same = true;
        for (int i = 0; same && i < t->nparams; i++) {
            char c[64];
            tp_canon_type(p, texts[i], c, sizeof c);
            same = !strcmp(sp->texts[i], c);
        }
        if (same) return sp;
    }
    return NULL;
}

const char *tp_template_instantiate(parser *p, tr_template *t, tr_tokens *args, int nargs,
                                    const tr_token *at, char *why, size_t whylen)
{
    (void)at;
    if (t->specialised_line) {
        snprintf(why, whylen,
                 "%s has an explicit specialisation (template <>, line %d), which the "
                 "translation does not read: the general body would run for every type",
                 t->name, t->specialised_line);
        return NULL;
    }
    if (nargs > t->nparams) {
        snprintf(why, whylen, "%s takes %d template argument%s, given %d", t->name, t->nparams,
                 t->nparams == 1 ? "" : "s", nargs);
        return NULL;
    }
    tr_tokens all[TR_MAX_TPARAMS] = {{0}};
    char texts[TR_MAX_TPARAMS][64];
    bool ok = all_texts(p, t, args, nargs, all, texts, why, whylen);
    /* an explicit specialisation for these arguments replaces the body */
    const tr_spec *unread = NULL, *spec = ok ? spec_for(p, t, texts, &unread) : NULL;
    if (ok && !spec && unread) {
        snprintf(why, whylen,
                 "%s has an explicit specialisation (template <>, line %d) whose arguments the "
                 "translation cannot read: the general body might run where it should not",
                 t->name, unread->line);
        ok = false;
    }
    char name[256];
    if (ok) mangle(name, sizeof name, t->iname ? t->iname : t->name, texts, t->nparams);
    if (ok && !tp_made(p, name)) {
        if (t->ninstances >= MAX_INSTANCES) {
            snprintf(why, whylen, "more than %d instances of %s", MAX_INSTANCES, t->name);
            ok = false;
        }
    }
    if (ok && !tp_made(p, name)) {
        t->ninstances++;
        /* the item's tokens, parameters replaced (values in parentheses), its name renamed; or
         * the explicit specialisation for these arguments, renamed, its `<args>` dropped */
        tr_tokens out = {0};
        const tr_token *src = p->u->pp.toks.v;
        int depth = 0;
        bool named = false;

        for (size_t i = spec ? spec->begin : 0; spec && i < spec->end; i++) {
            const tr_token *tk = &src[i];
            if (!named && tk->kind == TR_IDENT && !strcmp(tk->text, t->name) && i + 1 < spec->end &&
                !strcmp(src[i + 1].text, "<")) {
                tr_token c = *tk;
                c.text = name;
                push(&out, &c, NULL);
                named = true;
                int d = 0; /* past the matching '>' */
                for (i += 2; i < spec->end; i++) {
                    if (!strcmp(src[i].text, "(") || !strcmp(src[i].text, "<")) d++;
                    if (!strcmp(src[i].text, ")")) d--;
                    if (!strcmp(src[i].text, ">") && d-- == 0) break;
                }
                continue;
            }
            push(&out, tk, NULL);
        }
        for (size_t i = t->begin; !spec && i < t->end; i++) {
            const tr_token *tk = &src[i];
            if (tk->kind == TR_PUNCT && (!strcmp(tk->text, "(") || !strcmp(tk->text, "{"))) depth++;
            if (tk->kind == TR_PUNCT && (!strcmp(tk->text, ")") || !strcmp(tk->text, "}"))) depth--;
            if (!named && depth == 0 && tk->kind == TR_IDENT && !strcmp(tk->text, t->name) &&
                i + 1 < t->end && !strcmp(src[i + 1].text, "(")) {
                tr_token c = *tk;
                c.text = name;
                push(&out, &c, NULL);
                named = true;
                continue;
            }
            int pi = -1;
            for (int k = 0; tk->kind == TR_IDENT && k < t->nparams; k++)
                if (!strcmp(tk->text, t->pnames[k])) pi = k;
            if (pi < 0) {
                push(&out, tk, NULL);
                continue;
            }
            bool paren = !t->ptype[pi] && all[pi].n > 1;
            tr_token lp = {TR_PUNCT, "(", tk->file, tk->line, tk->col, false};
            tr_token rp = {TR_PUNCT, ")", tk->file, tk->line, tk->col, false};
            if (paren) push(&out, &lp, NULL);
            for (size_t k = 0; k < all[pi].n; k++)
                push(&out, &all[pi].v[k], tk);
            if (paren) push(&out, &rp, NULL);
        }
        tr_token eof = {TR_EOF, "", 0, 0, 0, true};
        push(&out, &eof, NULL);
        /* the readable form for the report: reduce<float, 256> */
        char id[256];
        size_t k = (size_t)snprintf(id, sizeof id, "%s<", t->name);
        for (int i = 0; i < t->nparams && k < sizeof id; i++)
            k += (size_t)snprintf(id + k, sizeof id - k, "%s%s", i ? ", " : "", texts[i]);
        if (k < sizeof id) snprintf(id + k, sizeof id - k, ">");
        if (p->npending == p->cappending) {
            int cap = p->cappending ? p->cappending * 2 : 16;
            tp_pending *np = realloc(p->pending, (size_t)cap * sizeof *np);
            if (!np) abort();
            p->pending = np;
            p->cappending = cap;
        }
        p->pending[p->npending++] = (tp_pending){out, tr_strdup(p->u, name), tr_strdup(p->u, id)};
        char **nm = realloc(p->made, (size_t)(p->nmade + 1) * sizeof *nm);
        if (!nm) abort();
        p->made = nm;
        p->made[p->nmade++] = tr_strdup(p->u, name);
    }
    for (int i = 0; i < TR_MAX_TPARAMS; i++)
        tr_tokens_free(&all[i]);
    return ok ? tr_strdup(p->u, name) : NULL;
}

/* Reads `<a, b>` at p->i (at '<'), splitting at top-level commas. */
static int read_args(parser *p, tr_tokens *args, int cap)
{
    tp_expect(p, "<");
    int n = 0, depth = 0;
    if (tp_accept(p, ">")) return 0;
    n = 1;
    for (;;) {
        const tr_token *t = tp_cur(p);
        if (t->kind == TR_EOF) tp_bail(p, "syntax", "unterminated template argument list");
        if (t->kind == TR_PUNCT) {
            if (!strcmp(t->text, "(") || !strcmp(t->text, "[") || !strcmp(t->text, "<"))
                depth++;
            else if (!strcmp(t->text, ")") || !strcmp(t->text, "]"))
                depth--;
            else if (!strcmp(t->text, ">") && depth-- == 0)
                break;
            else if (!strcmp(t->text, ">>") && depth == 1) {
                /* S<a, T<b>>: the inner list's '>' and this list's */
                tr_token gt = *t;
                gt.text = (char *)">";
                if (tr_tokens_push(&args[n - 1], &gt)) abort();
                p->i++;
                return n;
            } else if (!strcmp(t->text, ",") && depth == 0) {
                if (n == cap) tp_bail(p, "template", "more than %d template arguments", cap);
                n++;
                p->i++;
                continue;
            }
        }
        if (tr_tokens_push(&args[n - 1], t)) abort();
        p->i++;
    }
    tp_expect(p, ">");
    return n;
}

const char *tp_template_ref(parser *p, tr_template *t, const tr_token *at)
{
    tr_tokens *args = tp_scratch_take(p, TR_MAX_TPARAMS); /* read_args may bail */
    int n = read_args(p, args, TR_MAX_TPARAMS);
    if (tp_is(p, "(")) { /* a call: the overload that takes its number of arguments */
        int nargs = 0, d = 0;
        for (size_t k = p->i; k < p->end; k++) {
            const char *x = p->t[k].text;
            if (!strcmp(x, "(") || !strcmp(x, "[") || !strcmp(x, "{")) d++;
            if (!strcmp(x, ")") || !strcmp(x, "]") || !strcmp(x, "}")) {
                if (--d == 0) break;
            } else if (d == 1 && (nargs == 0 || !strcmp(x, ","))) {
                nargs++;
            }
        }
        t = tp_template_overload(p, t, nargs);
    }
    char why[256];
    const char *name = tp_template_instantiate(p, t, args, n, at, why, sizeof why);
    tp_scratch_drop(p, args);
    if (!name) tp_bail(p, "template", "%s cannot be instantiated here: %s", t->name, why);
    return name;
}

tr_template *tp_struct_template_find(parser *p, const char *name)
{
    for (int i = 0; i < p->nstemplates; i++)
        if (!strcmp(p->stemplates[i].name, name)) return &p->stemplates[i];
    return NULL;
}

/* Parses the struct item `toks` (a class template's, for some arguments) now, in the middle of
 * whatever is being parsed: the parser's position and its way out of a refusal are kept. */
static void parse_made_struct(parser *p, tr_tokens *toks)
{
    tr_token *st = p->t;
    size_t sn = p->n, si = p->i, se = p->end;
    jmp_buf fail;
    memcpy(fail, p->fail, sizeof fail);
    char why[sizeof p->why];
    memcpy(why, p->why, sizeof why);
    int wf = p->why_file, wl = p->why_line, wc = p->why_col;
    p->t = toks->v, p->n = toks->n, p->i = 0, p->end = toks->n - 1;
    if (!setjmp(p->fail)) tp_parse_struct_item(p, 0, toks->n - 1);
    p->t = st, p->n = sn, p->i = si, p->end = se;
    memcpy(p->fail, fail, sizeof fail);
    memcpy(p->why, why, sizeof why);
    p->why_file = wf, p->why_line = wl, p->why_col = wc;
}

const char *tp_struct_template_ref(parser *p)
{
    const tr_token *at = tp_cur(p);
    tr_template *t = tp_struct_template_find(p, at->text);
    p->i++;
    tr_tokens *args = tp_scratch_take(p, TR_MAX_TPARAMS); /* read_args may bail */
    int n = read_args(p, args, TR_MAX_TPARAMS);
    char why[256] = "";
    tr_tokens all[TR_MAX_TPARAMS] = {{0}};
    char texts[TR_MAX_TPARAMS][64];
    bool ok = n <= t->nparams;
    if (!ok)
        snprintf(why, sizeof why, "%s takes %d template argument%s, given %d", t->name, t->nparams,
                 t->nparams == 1 ? "" : "s", n);
    ok = ok && all_texts(p, t, args, n, all, texts, why, sizeof why);
    tp_scratch_drop(p, args);
    char name[256] = "";
    if (ok) mangle(name, sizeof name, t->name, texts, t->nparams);
    if (ok && !tp_find_struct(p->u, name) && !tp_made(p, name)) {
        if (t->ninstances++ >= MAX_INSTANCES) {
            snprintf(why, sizeof why, "more than %d instances of %s", MAX_INSTANCES, t->name);
            ok = false;
        }
    }
    if (ok && !tp_find_struct(p->u, name) && !tp_made(p, name)) {
        /* the item's tokens, parameters replaced (values in parentheses), the template's name
         * (and S<...> inside it) the instance's */
        tr_tokens out = {0};
        const tr_token *src = p->u->pp.toks.v;
        for (size_t i = t->begin; i < t->end; i++) {
            const tr_token *tk = &src[i];
            if (i == t->begin) { /* class: a struct (its members are all reachable here) */
                tr_token c = *tk;
                c.text = (char *)"struct";
                push(&out, &c, NULL);
                continue;
            }
            if (tk->kind == TR_IDENT && !strcmp(tk->text, t->name)) {
                tr_token c = *tk;
                c.text = name;
                push(&out, &c, NULL);
                if (i + 1 < t->end && !strcmp(src[i + 1].text, "<")) {
                    int d = 0; /* S<T> inside S: this instance; past the matching '>' */
                    for (i += 2; i < t->end; i++) {
                        if (!strcmp(src[i].text, "(") || !strcmp(src[i].text, "<")) d++;
                        if (!strcmp(src[i].text, ")")) d--;
                        if (!strcmp(src[i].text, ">") && d-- == 0) break;
                    }
                }
                continue;
            }
            int pi = -1;
            for (int k = 0; tk->kind == TR_IDENT && k < t->nparams; k++)
                if (!strcmp(tk->text, t->pnames[k])) pi = k;
            if (pi < 0) {
                push(&out, tk, NULL);
                continue;
            }
            bool paren = !t->ptype[pi] && all[pi].n > 1;
            tr_token lp = {TR_PUNCT, "(", tk->file, tk->line, tk->col, false};
            tr_token rp = {TR_PUNCT, ")", tk->file, tk->line, tk->col, false};
            if (paren) push(&out, &lp, NULL);
            for (size_t k = 0; k < all[pi].n; k++)
                push(&out, &all[pi].v[k], tk);
            if (paren) push(&out, &rp, NULL);
        }
        tr_token eof = {TR_EOF, "", 0, 0, 0, true};
        push(&out, &eof, NULL);
        char **nm = realloc(p->made, (size_t)(p->nmade + 1) * sizeof *nm);
        if (!nm) abort();
        p->made = nm;
        p->made[p->nmade++] = tr_strdup(p->u, name);
        parse_made_struct(p, &out);
        tr_tokens_free(&out);
    }
    for (int i = 0; i < TR_MAX_TPARAMS; i++)
        tr_tokens_free(&all[i]);
    if (!ok) tp_bail(p, "template", "%s cannot be instantiated here: %s", t->name, why);
    if (!tp_find_struct(p->u, name)) {
        /* the struct's own note says why (items.c): that reason, at the use */
        size_t nl = strlen(name);
        for (int k = 0; k < p->u->ndiags; k++) {
            const tr_diag *d = &p->u->diags[k];
            if (!d->refusal && !strcmp(d->construct, "struct") &&
                !strncmp(d->reason, "struct ", 7) && !strncmp(d->reason + 7, name, nl) &&
                d->reason[7 + nl] == ' ')
                tp_bail(p, "class template", "%s<...> (line %d) is not translated: %s", t->name,
                        t->line,
                        !strncmp(d->reason + 8 + nl, "is not translated: ", 19)
                            ? d->reason + 27 + nl
                            : d->reason + 8 + nl);
        }
        tp_bail(p, "class template", "%s<...> (line %d) is not translated", t->name, t->line);
    }
    return tr_strdup(p->u, name);
}

/* The declared parameter list of a function template: for parameter i, which template type
 * parameter its type is made of (-1: none) and with how many '*'. */
static int template_params(parser *p, const tr_template *t, int *tp, int *stars, int cap)
{
    const tr_token *src = p->u->pp.toks.v;
    size_t i = t->begin;
    while (i < t->end && !(src[i].kind == TR_IDENT && !strcmp(src[i].text, t->name) &&
                           i + 1 < t->end && !strcmp(src[i + 1].text, "(")))
        i++;
    i += 2;
    int n = 0, depth = 0;
    if (i < t->end && !strcmp(src[i].text, ")")) return 0;
    tp[0] = -1, stars[0] = 0;
    for (; i < t->end && n < cap; i++) {
        const char *s = src[i].text;
        if (!strcmp(s, "(") || !strcmp(s, "<")) depth++;
        if (!strcmp(s, ")") || !strcmp(s, ">")) {
            if (depth == 0) return n + 1;
            depth--;
        }
        if (!strcmp(s, ",") && depth == 0) {
            if (++n == cap) return n;
            tp[n] = -1, stars[n] = 0;
            continue;
        }
        for (int k = 0; k < t->nparams; k++)
            if (t->ptype[k] && src[i].kind == TR_IDENT && !strcmp(s, t->pnames[k])) tp[n] = k;
        if (!strcmp(s, "*") && tp[n] >= 0) stars[n]++;
    }
    return n + 1;
}

int tp_template_arity(parser *p, const tr_template *t)
{
    int tp[16], stars[16];
    return template_params(p, t, tp, stars, 16);
}

tr_template *tp_template_overload(parser *p, tr_template *t, int nargs)
{
    tr_template *best = t;
    int n = 0;
    for (int i = 0; i < p->u->ntemplates; i++) {
        tr_template *c = &p->u->templates[i];
        if (strcmp(c->name, t->name)) continue;
        n++;
        if (tp_template_arity(p, c) == nargs) best = c;
    }
    return n > 1 ? best : t;
}

const char *tp_template_deduce(parser *p, tr_template *t, tr_expr *call)
{
    t = tp_template_overload(p, t, call->nargs);
    int tp[16], stars[16];
    int np = template_params(p, t, tp, stars, 16);
    tr_tokens args[TR_MAX_TPARAMS] = {{0}};
    bool have[TR_MAX_TPARAMS] = {false};
    for (int i = 0; i < np && i < call->nargs; i++) {
        if (tp[i] < 0) continue;
        char base[64];
        int nptr;
        if (!tp_guess_type(p, call->args[i], base, sizeof base, &nptr) || nptr < stars[i]) continue;
        char text[80];
        snprintf(text, sizeof text, "%s%s", base, nptr - stars[i] ? " *" : "");
        tr_tokens lexed = {0};
        char err[128];
        if (tr_lex("<template>", call->file, text, strlen(text), &lexed, err, sizeof err)) continue;
        if (!have[tp[i]]) {
            for (size_t k = 0; k + 1 < lexed.n; k++)
                tr_tokens_push(&args[tp[i]], &lexed.v[k]);
            have[tp[i]] = true;
        }
        tr_tokens_free(&lexed);
    }
    int n = 0;
    for (int i = 0; i < t->nparams; i++) {
        if (!have[i] && !t->pdefault[i]) {
            for (int k = 0; k < TR_MAX_TPARAMS; k++)
                tr_tokens_free(&args[k]);
            tp_bail(p, "template",
                    "the template arguments of %s cannot be deduced here: write them, as in "
                    "%s<float>(...)",
                    t->name, t->name);
        }
        if (have[i]) n = i + 1;
    }
    /* defaults fill the rest; a deduced argument after a default one needs the default written */
    for (int i = 0; i < n; i++)
        if (!have[i]) {
            for (int k = 0; k < t->ndefault[i]; k++)
                tr_tokens_push(&args[i], &t->pdefault[i][k]);
        }
    char why[256];
    const tr_token *at = &(tr_token){TR_IDENT, "", call->file, call->line, call->col, false};
    const char *name = tp_template_instantiate(p, t, args, n, at, why, sizeof why);
    for (int k = 0; k < TR_MAX_TPARAMS; k++)
        tr_tokens_free(&args[k]);
    if (!name) tp_bail(p, "template", "%s cannot be instantiated here: %s", t->name, why);
    return name;
}

/* The type a host variable was declared with, from the nearest declaration of `name` before
 * `at` in toks (`float *d_a, *d_b;`, a parameter `const T *in` once T is replaced): its base type
 * words and its number of '*'. */
static bool host_var_type(parser *p, const tr_token *toks, size_t begin, size_t at,
                          const char *name, char *base, size_t cap, int *nptr)
{
    for (size_t k = at; k-- > begin + 1;) {
        if (toks[k].kind != TR_IDENT || strcmp(toks[k].text, name)) continue;
        const char *next = toks[k + 1].text;
        if (strcmp(next, ",") && strcmp(next, ";") && strcmp(next, "=") && strcmp(next, ")") &&
            strcmp(next, "["))
            continue;
        size_t j = k - 1;
        int stars = 0;
        while (j > begin &&
               (!strcmp(toks[j].text, "*") || !strcmp(toks[j].text, "const") ||
                !strcmp(toks[j].text, "__restrict__") || !strcmp(toks[j].text, "__restrict"))) {
            stars += !strcmp(toks[j].text, "*");
            j--;
        }
        if (!strcmp(toks[j].text, ",")) {
            /* a later declarator: the type is the one the statement starts with */
            int d = 0;
            size_t s = j;
            while (s > begin) {
                const char *x = toks[s - 1].text;
                if (!strcmp(x, ")") || !strcmp(x, "]")) d++;
                if (!strcmp(x, "(") || !strcmp(x, "[")) {
                    if (!d) break;
                    d--;
                }
                if (!d && (!strcmp(x, ";") || !strcmp(x, "{") || !strcmp(x, "}"))) break;
                s--;
            }
            if (s > begin && !strcmp(toks[s - 1].text, "(")) continue; /* arguments of a call */
            while (s < j && (!strcmp(toks[s].text, "const") || !strcmp(toks[s].text, "static")))
                s++;
            size_t e = s;
            while (e < j && toks[e].kind == TR_IDENT && type_word(p, toks[e].text))
                e++;
            if (e == s || e >= j || (toks[e].kind != TR_IDENT && strcmp(toks[e].text, "*")))
                continue;
            j = e - 1;
        }
        if (toks[j].kind != TR_IDENT || !type_word(p, toks[j].text) ||
            !strcmp(toks[j].text, "const"))
            continue;
        size_t s = j;
        while (s > begin && toks[s - 1].kind == TR_IDENT && type_word(p, toks[s - 1].text) &&
               strcmp(toks[s - 1].text, "const"))
            s--;
        size_t n = 0;
        base[0] = '\0';
        for (size_t q = s; q <= j; q++) {
            int w = snprintf(base + n, cap - n, "%s%s", n ? " " : "", toks[q].text);
            if (w < 0 || (size_t)w >= cap - n) return false;
            n += (size_t)w;
        }
        *nptr = stars;
        return true;
    }
    return false;
}

/* The type C++ gives a numeric literal (`1` int, `1u` unsigned int, `2.0` double, `0.5f` float,
 * `1ll` long long...); NULL for what is no plain literal. */
static const char *literal_type(const char *t)
{
    size_t n = strlen(t);
    bool hex = n > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    if (hex && strpbrk(t, ".pP")) return NULL; /* a hexadecimal floating literal */
    bool real = !hex && strpbrk(t, ".eE") != NULL;
    size_t k = n;
    while (k > 0 && strchr(hex ? "uUlL" : "uUlLfF", t[k - 1]))
        k--;
    char suf[8] = "";
    if (n - k >= sizeof suf || k == 0) return NULL;
    for (size_t i = k; i < n; i++)
        suf[i - k] = (char)tolower((unsigned char)t[i]);
    if (real) return !suf[0] ? "double" : !strcmp(suf, "f") ? "float" : NULL;
    /* past int: a decimal is a long, a hex or octal an unsigned int first */
    unsigned long long v = strtoull(t, NULL, 0);
    bool big = v > 2147483647ull, huge = v > 4294967295ull;
    if (!suf[0])
        return !big ? "int" : hex || t[0] == '0' ? (huge ? "long" : "unsigned int") : "long";
    if (!strcmp(suf, "u")) return huge ? "unsigned long" : "unsigned int";
    if (!strcmp(suf, "l")) return "long";
    if (!strcmp(suf, "ul") || !strcmp(suf, "lu")) return "unsigned long";
    if (!strcmp(suf, "ll")) return "long long";
    if (!strcmp(suf, "ull") || !strcmp(suf, "llu")) return "unsigned long long";
    return NULL;
}

/* Template arguments of t deduced from a call's (or launch's) arguments [a, b) in toks: each
 * argument that is a host variable (or its address) whose declaration the file shows. Fills
 * args; false when one of t's parameters is neither deduced nor defaulted. */
static bool deduce_host(parser *p, tr_template *t, const tr_token *toks, size_t begin, size_t a,
                        size_t b, tr_tokens *args, int given, int *nargs)
{
    int tp[16], stars[16];
    int np = template_params(p, t, tp, stars, 16);
    bool have[TR_MAX_TPARAMS] = {false};
    for (int i = 0; i < given && i < TR_MAX_TPARAMS; i++)
        have[i] = true; /* `k<256><<<g, b>>>(x)`: the first given, the rest deduced */
    size_t s = a;
    int d = 0;
    for (int pi = 0; s < b && pi < np; pi++) {
        size_t e = s;
        while (e < b) {
            const char *x = toks[e].text;
            if (!strcmp(x, "(") || !strcmp(x, "[")) d++;
            if (!strcmp(x, ")") || !strcmp(x, "]")) d--;
            if (!d && !strcmp(x, ",")) break;
            e++;
        }
        if (tp[pi] >= 0 && !have[tp[pi]]) {
            size_t q = s;
            int amp = 0;
            if (q + 1 < e && !strcmp(toks[q].text, "&")) amp = 1, q++;
            char base[64];
            int nptr = 0;
            bool neg = q + 1 < e && !strcmp(toks[q].text, "-") && !amp;
            const char *lit = q + neg + 1 == e && toks[q + neg].kind == TR_NUMBER
                                  ? literal_type(toks[q + neg].text)
                                  : NULL;
            if (lit && !stars[pi]) {
                /* `k<<<g, b>>>(n, 1, 0.5f)`: a literal's own type, as C++ deduces it */
                snprintf(base, sizeof base, "%s", lit);
                nptr = 0;
            }
            if ((lit && !stars[pi]) ||
                (q + 1 == e && toks[q].kind == TR_IDENT &&
                 host_var_type(p, toks, begin, s, toks[q].text, base, sizeof base, &nptr) &&
                 nptr + amp >= stars[pi])) {
                char text[80];
                snprintf(text, sizeof text, "%s%s", base, nptr + amp - stars[pi] ? " *" : "");
                tr_tokens lexed = {0};
                char err[128];
                if (!tr_lex("<template>", toks[q].file, text, strlen(text), &lexed, err,
                            sizeof err)) {
                    for (size_t k = 0; k + 1 < lexed.n; k++)
                        tr_tokens_push(&args[tp[pi]], &lexed.v[k]);
                    have[tp[pi]] = true;
                }
                tr_tokens_free(&lexed);
            }
        }
        s = e + 1;
    }
    int n = 0;
    for (int i = 0; i < t->nparams; i++) {
        if (!have[i] && !t->pdefault[i]) return false;
        if (have[i]) n = i + 1;
    }
    for (int i = 0; i < n; i++)
        if (!have[i])
            for (int k = 0; k < t->ndefault[i]; k++)
                tr_tokens_push(&args[i], &t->pdefault[i][k]);
    *nargs = n;
    return true;
}

static void scan(parser *p, const tr_token *toks, size_t begin, size_t end, int depth);

/* A host template called with these arguments: its body, the arguments in place, may launch
 * kernels. */
static void scan_host_body(parser *p, tr_template *t, tr_tokens *args, int n, int depth)
{
    char texts[TR_MAX_TPARAMS][64], why[256];
    bool ok = n <= t->nparams;
    for (int a = 0; a < n && ok; a++)
        ok = arg_text(p, &args[a], t->ptype[a], texts[a], sizeof texts[a], why, sizeof why);
    if (!ok) return;
    tr_tokens body = {0};
    const tr_token *src = p->u->pp.toks.v;
    for (size_t b = t->begin; b < t->end; b++) {
        int pi = -1;
        for (int q = 0; src[b].kind == TR_IDENT && q < n; q++)
            if (!strcmp(src[b].text, t->pnames[q])) pi = q;
        if (pi < 0)
            tr_tokens_push(&body, &src[b]);
        else
            for (size_t q = 0; q < args[pi].n; q++)
                tr_tokens_push(&body, &args[pi].v[q]);
    }
    scan(p, body.v, 0, body.n, depth + 1);
    /* kept for its launches (launch.c), once for each set of arguments */
    char key[TR_MAX_TPARAMS * 64 + 128];
    mangle(key, sizeof key, t->name, texts, n);
    bool launches = false, seen = false;
    for (size_t b = 0; b + 1 < body.n && !launches; b++)
        launches = !strcmp(body.v[b].text, "<<") && !strcmp(body.v[b + 1].text, "<");
    for (int i = 0; i < p->nhost_bodies && launches && !seen; i++)
        seen =
            p->host_bodies[i].n && !strcmp(p->host_bodies[i].v[p->host_bodies[i].n - 1].text, key);
    if (launches && !seen && p->nhost_bodies < MAX_HOST_BODIES) {
        tr_tokens *nb = realloc(p->host_bodies, (size_t)(p->nhost_bodies + 1) * sizeof *nb);
        if (!nb) abort();
        p->host_bodies = nb;
        /* its last token names it (no launch reads past the body's end) */
        tr_token k = {TR_IDENT, key, -1, 0, 0, false};
        tr_tokens_push(&body, &k);
        p->host_bodies[p->nhost_bodies++] = body;
        return;
    }
    tr_tokens_free(&body);
}

/* After a kernel's name at `<<`: the launch's arguments [*a, *b), false when it is no launch. */
static bool launch_args(const tr_token *toks, size_t k, size_t end, size_t *a, size_t *b)
{
    if (k + 1 >= end || strcmp(toks[k].text, "<<") || strcmp(toks[k + 1].text, "<")) return false;
    int d = 0;
    for (k += 2; k + 1 < end; k++) {
        const char *x = toks[k].text;
        if (!strcmp(x, "(")) d++;
        if (!strcmp(x, ")")) d--;
        if (!strcmp(x, ";")) return false;
        if (!d && !strcmp(x, ">>") && !strcmp(toks[k + 1].text, ">")) break;
    }
    k += 2;
    if (k >= end || strcmp(toks[k].text, "(")) return false;
    *a = ++k;
    for (d = 0; k < end; k++) {
        const char *x = toks[k].text;
        if (!strcmp(x, "(")) d++;
        if (!strcmp(x, ")") && d-- == 0) break;
        if (!strcmp(x, ";")) return false;
    }
    *b = k;
    return k < end;
}

/* After a function's name at `(`: the call's arguments [*a, *b). */
static bool call_args(const tr_token *toks, size_t k, size_t end, size_t *a, size_t *b)
{
    if (k >= end || strcmp(toks[k].text, "(")) return false;
    *a = ++k;
    for (int d = 0; k < end; k++) {
        const char *x = toks[k].text;
        if (!strcmp(x, "(")) d++;
        if (!strcmp(x, ")") && d-- == 0) break;
        if (!strcmp(x, ";") || !strcmp(x, "{")) return false;
    }
    *b = k;
    return k < end;
}

/* A type alias declared inside a function at toks[i] (`using data_t = float;`, `typedef double
 * real;`; not `using namespace`, a using-declaration, a function pointer or an array): its name
 * and aliased tokens [*a, *b), *semi at its ';'. */
static const char *alias_at(const tr_token *toks, size_t i, size_t end, size_t *a, size_t *b,
                            size_t *semi)
{
    bool is_using = !strcmp(toks[i].text, "using");
    if (toks[i].kind != TR_IDENT || (!is_using && strcmp(toks[i].text, "typedef"))) return NULL;
    size_t k = i + 1;
    while (k < end && strcmp(toks[k].text, ";") && strcmp(toks[k].text, "{") &&
           strcmp(toks[k].text, "}") && strcmp(toks[k].text, "(") && strcmp(toks[k].text, "["))
        k++;
    if (k >= end || strcmp(toks[k].text, ";")) return NULL;
    *semi = k;
    if (is_using) {
        if (k < i + 4 || toks[i + 1].kind != TR_IDENT || strcmp(toks[i + 2].text, "=")) return NULL;
        *a = i + 3, *b = k;
        return toks[i + 1].text;
    }
    if (k < i + 3 || toks[k - 1].kind != TR_IDENT) return NULL;
    *a = i + 1, *b = k - 1;
    return toks[k - 1].text;
}

enum { MAX_LOCAL_ALIASES = 32 };

/* A copy of toks[begin, end) where each use of a type alias declared inside a function (a
 * host function's `using data_t = float;` before `run<data_t>(...)`) is replaced by the tokens
 * it stands for, for as long as the block declaring it lasts: the file's own types are known to
 * the translation, a function's are not. False, nothing in *out, where no function declares
 * one. */
static bool with_local_aliases(const tr_token *toks, size_t begin, size_t end, tr_tokens *out)
{
    struct {
        const char *name;
        size_t a, b; /* its tokens in *out */
        int depth;
    } al[MAX_LOCAL_ALIASES];
    int nal = 0, depth = 0;
    bool any = false;
    size_t a, b, semi;
    for (size_t i = begin; i < end && !any; i++) { /* (the common case: none, quickly) */
        const char *x = toks[i].text;
        if (toks[i].kind == TR_PUNCT) {
            depth += (x[0] == '{' && !x[1]) - (x[0] == '}' && !x[1]);
            continue;
        }
        any = depth > 0 && toks[i].kind == TR_IDENT && (x[0] == 'u' || x[0] == 't') &&
              alias_at(toks, i, end, &a, &b, &semi);
    }
    if (!any) return false;
    depth = 0;
    const char *name = NULL;
    size_t va = 0;
    for (size_t i = begin; i < end; i++) {
        const char *x = toks[i].text;
        if (!strcmp(x, "{")) depth++;
        if (!strcmp(x, "}")) {
            depth--;
            while (nal > 0 && al[nal - 1].depth > depth)
                nal--;
        }
        if (!name && depth > 0 && nal < MAX_LOCAL_ALIASES &&
            (name = alias_at(toks, i, end, &a, &b, &semi)))
            va = 0;
        if (name && i == a) va = out->n;
        if (name && i == b) {
            al[nal].name = name, al[nal].a = va, al[nal].b = out->n, al[nal].depth = depth;
            nal++;
        }
        if (name && i == semi) name = NULL;
        /* a use of an alias (its name in its own declaration, a member's name, are not) */
        int hit = -1;
        bool member =
            i > begin && (!strcmp(toks[i - 1].text, ".") || !strcmp(toks[i - 1].text, "->") ||
                          !strcmp(toks[i - 1].text, "::"));
        bool in_value = !name || (i >= a && i < b);
        for (int q = nal - 1; q >= 0 && hit < 0 && toks[i].kind == TR_IDENT && !member && in_value;
             q--)
            if (!strcmp(al[q].name, x)) hit = q;
        if (hit < 0) {
            tr_tokens_push(out, &toks[i]);
            continue;
        }
        for (size_t k = al[hit].a; k < al[hit].b; k++) {
            tr_token c = out->v[k]; /* the text stays where it is when out grows */
            c.file = toks[i].file, c.line = toks[i].line, c.col = toks[i].col;
            tr_tokens_push(out, &c);
        }
    }
    return true;
}

/* Scans [begin, end) of toks for `T<args>` where T is a kernel template launched (`<<<`) or a
 * host template called or instantiated, and for launches and host template calls that give no
 * arguments, whose arguments are deduced from the host variables passed; host templates' own
 * bodies are scanned with their arguments in place. */
static void scan_tokens(parser *p, const tr_token *toks, size_t begin, size_t end, int depth);

static void scan(parser *p, const tr_token *toks, size_t begin, size_t end, int depth)
{
    tr_tokens sub = {0};
    if (with_local_aliases(toks, begin, end, &sub))
        scan_tokens(p, sub.v, 0, sub.n, depth);
    else
        scan_tokens(p, toks, begin, end, depth);
    tr_tokens_free(&sub);
}

static void scan_tokens(parser *p, const tr_token *toks, size_t begin, size_t end, int depth)
{
    for (size_t i = begin; i + 1 < end; i++) {
        if (toks[i].kind != TR_IDENT) continue;
        if (strcmp(toks[i + 1].text, "<")) {
            tr_template *t = tp_template_find(p, toks[i].text);
            if (!t || (t->device && !t->kernel)) continue;
            if (i > begin && (!strcmp(toks[i - 1].text, ".") || !strcmp(toks[i - 1].text, "->")))
                continue;
            size_t a, b;
            bool launch = t->kernel && launch_args(toks, i + 1, end, &a, &b);
            bool call = !t->device && t->launches && depth < HOST_DEPTH &&
                        call_args(toks, i + 1, end, &a, &b);
            if (!launch && !call) continue;
            tr_tokens args[TR_MAX_TPARAMS] = {{0}};
            int n = 0;
            if (deduce_host(p, t, toks, begin, a, b, args, 0, &n)) {
                char why[256];
                if (launch)
                    tp_template_instantiate(p, t, args, n, &toks[i], why, sizeof why);
                else
                    scan_host_body(p, t, args, n, depth);
            }
            for (int q = 0; q < TR_MAX_TPARAMS; q++)
                tr_tokens_free(&args[q]);
            continue;
        }
        tr_template *t = tp_template_find(p, toks[i].text);
        if (!t || (t->device && !t->kernel)) continue;
        /* the arguments, to the matching '>' */
        tr_tokens args[TR_MAX_TPARAMS] = {{0}};
        int n = 1, d = 0;
        size_t k = i + 2;
        bool bad = false;
        if (k < end && !strcmp(toks[k].text, ">")) n = 0;
        for (; n && k < end; k++) {
            const char *s = toks[k].text;
            if (toks[k].kind == TR_PUNCT) {
                if (!strcmp(s, "(") || !strcmp(s, "<")) d++;
                if (!strcmp(s, ")")) d--;
                if (!strcmp(s, ">") && d-- == 0) break;
                if (!strcmp(s, ";") || !strcmp(s, "{")) {
                    bad = true;
                    break;
                }
                if (!strcmp(s, ",") && d == 0) {
                    if (n == TR_MAX_TPARAMS) {
                        bad = true;
                        break;
                    }
                    n++;
                    continue;
                }
            }
            tr_tokens_push(&args[n - 1], &toks[k]);
        }
        if (!bad && k + 1 < end) {
            bool launch = t->kernel && !strcmp(toks[k + 1].text, "<<") && k + 2 < end &&
                          !strcmp(toks[k + 2].text, "<");
            bool call = !t->device && !strcmp(toks[k + 1].text, "(");
            char why[256];
            size_t a, b;
            int all = n;
            if (launch && n < t->nparams && !t->pdefault[n] &&
                launch_args(toks, k + 1, end, &a, &b) &&
                deduce_host(p, t, toks, begin, a, b, args, n, &all))
                n = all > n ? all : n;
            if (launch) {
                tp_template_instantiate(p, t, args, n, &toks[i], why, sizeof why);
            } else if (call && t->launches && depth < HOST_DEPTH) {
                scan_host_body(p, t, args, n, depth);
            }
        }
        for (int a = 0; a < TR_MAX_TPARAMS; a++)
            tr_tokens_free(&args[a]);
    }
}

/* Marks the host templates whose bodies launch a kernel, directly or through the host templates
 * they call (HOST_DEPTH deep): only their calls are worth scanning with the arguments in place,
 * which on a header of thousands of host templates is most of the time saved. */
static void mark_launching(parser *p)
{
    tr_unit *u = p->u;
    const tr_token *src = u->pp.toks.v;
    size_t ntoks = u->pp.toks.n;
    for (int i = 0; i < u->ntemplates; i++) {
        tr_template *t = &u->templates[i];
        t->launches = false;
        for (size_t b = t->begin; !t->device && b + 1 < t->end && b + 1 < ntoks; b++)
            if (!strcmp(src[b].text, "<<") && !strcmp(src[b + 1].text, "<")) t->launches = true;
    }
    for (int round = 0; round < HOST_DEPTH; round++) {
        bool changed = false;
        for (int i = 0; i < u->ntemplates; i++) {
            tr_template *t = &u->templates[i];
            if (t->device || t->launches) continue;
            for (size_t b = t->begin; b < t->end && b < ntoks && !t->launches; b++) {
                if (src[b].kind != TR_IDENT) continue;
                const tr_template *q = tp_template_find(p, src[b].text);
                if (q && q != t && !q->device && q->launches) t->launches = changed = true;
            }
        }
        if (!changed) break;
    }
}

void tp_template_scan_host(parser *p)
{
    mark_launching(p);
    scan(p, p->u->pp.toks.v, 0, p->u->pp.toks.n, 0);
    for (size_t r = 0; r < p->u->ninstantiate; r++) {
        const char *req = p->u->instantiate[r];
        tr_tokens toks = {0};
        char err[256];
        if (tr_lex("--instantiate", -1, req, strlen(req), &toks, err, sizeof err) == 0 &&
            toks.n > 1 && toks.v[0].kind == TR_IDENT && tp_template_find(p, toks.v[0].text)) {
            /* as if launched: `k<float, 256>` followed by a launch */
            tr_token lt = {TR_PUNCT, "<<", -1, 0, 0, false}, l2 = {TR_PUNCT, "<", -1, 0, 0, false};
            free(toks.v[--toks.n].text); /* the EOF */
            tr_tokens_push(&toks, &lt);
            tr_tokens_push(&toks, &l2);
            tr_template *t = tp_template_find(p, toks.v[0].text);
            bool was = t->kernel;
            t->kernel = true; /* a device function template may be asked for too */
            scan(p, toks.v, 0, toks.n, 0);
            t->kernel = was;
        }
        tr_tokens_free(&toks);
    }
}
