/* types.c — the value types the translation tracks (for min/max, atomics, double, shuffles),
 * the dialect spelling of CUDA types, and the integer constants it can read. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lower_impl.h"
#include "translate/map.h"

/* ---- types ------------------------------------------------------------------------------ */
/* The dialect spelling of a CUDA base type, or NULL (with *why) when it has none. */
const char *tl_map_base(const char *b, const char **why)
{
    static const char *const same[] = {"void",     "char",           "signed char", "unsigned char",
                                       "short",    "unsigned short", "int",         "unsigned int",
                                       "float",    "double",         "bool",        "int8_t",
                                       "int16_t",  "int32_t",        "int64_t",     "uint8_t",
                                       "uint16_t", "uint32_t",       "uint64_t",    "size_t"};
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        if (!strcmp(b, same[i])) return b;
    if (!strncmp(b, "struct ", 7)) return b + 7; /* a plain struct of the file (items.c) */
    if (!strcmp(b, "long") || !strcmp(b, "long long") || !strcmp(b, "ptrdiff_t")) return "int64_t";
    if (!strcmp(b, "unsigned long") || !strcmp(b, "unsigned long long")) return "uint64_t";
    if (!strcmp(b, "_Bool")) return "bool";
    const char *vec = tr_vector_type(b, NULL, NULL); /* vectors.c */
    if (vec) return vec;
    if (!strcmp(b, "__half") || !strcmp(b, "half")) return "gp_half";
    if (!strcmp(b, "__nv_bfloat16") || !strcmp(b, "nv_bfloat16")) return "gp_bf16";
    if (!strcmp(b, "dim3"))
        *why = "dim3 is host-side launch geometry: read gp_local_size()/gp_num_groups() per "
               "dimension";
    else if (!strcmp(b, "cudaTextureObject_t") || !strcmp(b, "cudaSurfaceObject_t"))
        *why = "texture and surface objects have no portable equivalent: pass a buffer";
    else if (!strcmp(b, "__half2") || !strcmp(b, "__nv_bfloat162") || !strcmp(b, "half2"))
        *why = "packed half2 and bfloat162 are not in the dialect (half and bfloat16 are storage "
               "types: use one value at a time)";
    else if (!strcmp(b, "long double"))
        *why = "long double exists on no GPU";
    else
        *why = "this type is not in the dialect (int, unsigned, float, double, fixed-width "
               "integers, the vector types of 2 to 4 components, half, bfloat16, the file's plain "
               "structs)";
    return NULL;
}

tr_vt tl_base_vt(const char *b)
{
    if (!strncmp(b, "struct ", 7)) return TR_VT_UNKNOWN;
    if (!strcmp(b, "float")) return TR_VT_FLOAT;
    if (!strcmp(b, "double")) return TR_VT_DOUBLE;
    if (!strcmp(b, "__half") || !strcmp(b, "half")) return TR_VT_HALF;
    if (!strcmp(b, "__nv_bfloat16") || !strcmp(b, "nv_bfloat16")) return TR_VT_BF16;
    if (!strcmp(b, "bool") || !strcmp(b, "_Bool")) return TR_VT_BOOL;
    if (tr_vector_type(b, NULL, NULL)) return TR_VT_VEC;
    if (!strncmp(b, "float", 5) || !strncmp(b, "int", 3) || !strncmp(b, "uint", 4)) {
        if (!strcmp(b, "int") || !strcmp(b, "int8_t") || !strcmp(b, "int16_t") ||
            !strcmp(b, "int32_t"))
            return TR_VT_INT;
        if (!strcmp(b, "int64_t")) return TR_VT_LONG;
        if (!strcmp(b, "uint64_t")) return TR_VT_ULONG;
        if (!strncmp(b, "uint", 4) && b[4] >= '0' && b[4] <= '9' && strlen(b) > 5)
            return TR_VT_UINT;
        return TR_VT_VEC;
    }
    if (strstr(b, "long long") || !strcmp(b, "long") || !strcmp(b, "unsigned long") ||
        !strcmp(b, "size_t"))
        return strncmp(b, "unsigned", 8) == 0 || !strcmp(b, "size_t") ? TR_VT_ULONG : TR_VT_LONG;
    if (!strncmp(b, "unsigned", 8)) return TR_VT_UINT;
    return TR_VT_INT; /* char, short, int, signed char */
}

bool tl_is_int_vt(tr_vt v)
{
    return v == TR_VT_BOOL || v == TR_VT_INT || v == TR_VT_UINT || v == TR_VT_LONG ||
           v == TR_VT_ULONG;
}

/* C's usual arithmetic conversions, on the value types this translation tracks. */
tr_vt tl_arith(tr_vt a, tr_vt b)
{
    if (a == TR_VT_UNKNOWN || b == TR_VT_UNKNOWN) return TR_VT_UNKNOWN;
    if (a == TR_VT_VEC || b == TR_VT_VEC) return TR_VT_VEC;
    if (a == TR_VT_DOUBLE || b == TR_VT_DOUBLE) return TR_VT_DOUBLE;
    if (a == TR_VT_FLOAT || b == TR_VT_FLOAT || a == TR_VT_HALF || b == TR_VT_HALF ||
        a == TR_VT_BF16 || b == TR_VT_BF16)
        return TR_VT_FLOAT;
    if (a == TR_VT_ULONG || b == TR_VT_ULONG) return TR_VT_ULONG;
    if (a == TR_VT_LONG || b == TR_VT_LONG) return TR_VT_LONG;
    if (a == TR_VT_UINT || b == TR_VT_UINT) return TR_VT_UINT;
    return TR_VT_INT;
}

tr_vt tl_number_vt(const char *t)
{
    size_t n = strlen(t);
    bool hex = n > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    bool fl = !hex && (strchr(t, '.') || strchr(t, 'e') || strchr(t, 'E'));
    char last = n ? t[n - 1] : 0;
    if (fl) return (last == 'f' || last == 'F') ? TR_VT_FLOAT : TR_VT_DOUBLE;
    bool u = strchr(t, 'u') || strchr(t, 'U');
    bool l = strchr(t, 'l') || strchr(t, 'L');
    return l ? (u ? TR_VT_ULONG : TR_VT_LONG) : (u ? TR_VT_UINT : TR_VT_INT);
}
/* The value of an integer constant expression the translator can read (a number, a kept
 * #define, unary - and ~ of one); false when it is anything else. */
bool tl_number_value(const char *text, long long *v)
{
    char *end;
    unsigned long long u = strtoull(text, &end, 0);
    if (end == text || strspn(end, "uUlL") != strlen(end)) return false;
    *v = (long long)u;
    return true;
}

bool tl_const_int(lctx *c, const tr_expr *e, long long *v)
{
    if (!e) return false;
    if (e->kind == TR_E_NUM) return tl_number_value(e->text, v);
    if (e->kind == TR_E_UNARY && (!strcmp(e->text, "-") || !strcmp(e->text, "~")) &&
        tl_const_int(c, e->a, v)) {
        bool is_unsigned = e->a->kind == TR_E_NUM && strpbrk(e->a->text, "uU");
        *v = e->text[0] == '-' ? -*v : (is_unsigned ? (long long)(~(uint32_t)*v) : ~*v);
        return true;
    }
    if (e->kind == TR_E_CAST && e->type && !e->type->nptr && tl_const_int(c, e->a, v)) {
        const char *t = e->type->base; /* (unsigned)-1 and friends */
        if (!strcmp(t, "unsigned int") || !strcmp(t, "unsigned") || !strcmp(t, "uint32_t"))
            *v = (long long)(uint32_t)*v;
        else if (!strcmp(t, "int") || !strcmp(t, "int32_t"))
            *v = (long long)(int32_t)(uint32_t)*v;
        return true;
    }
    if (e->kind == TR_E_IDENT && e->sym && e->sym->has_cvalue) {
        *v = e->sym->cvalue; /* a local constexpr, or a parameter every call gives one value */
        return true;
    }
    if (e->kind == TR_E_IDENT && !e->sym)
        for (size_t k = 0; k < c->u->pp.nkept; k++)
            if (!strcmp(c->u->pp.kept[k].name, e->text)) {
                /* a kept macro's body is one number, maybe in parentheses: (0xffffffffu) */
                const char *b = c->u->pp.kept[k].body;
                size_t bl = strlen(b);
                char num[64];
                while (bl >= 2 && b[0] == '(' && b[bl - 1] == ')')
                    b++, bl -= 2;
                if (bl == 0 || bl >= sizeof num) return false;
                memcpy(num, b, bl);
                num[bl] = '\0';
                tr_expr ne = {.kind = TR_E_NUM, .text = num};
                return tl_const_int(c, &ne, v);
            }
    return false;
}

bool tl_is_warp_size(lctx *c, const tr_expr *e)
{
    long long v;
    return (e->kind == TR_E_IDENT && !e->sym && !strcmp(e->text, "warpSize")) ||
           (tl_const_int(c, e, &v) && v == 32);
}
