/* map.h — what the translator knows about the functions CUDA kernels call: the dialect spelling
 * of each, or why it is refused. One table, also printed in docs/translate.md. */
#ifndef GP_TRANSLATE_MAP_H
#define GP_TRANSLATE_MAP_H

typedef enum tr_call_kind {
    TR_CALL_SAME,       /* same name in the dialect (C math names the preludes map) */
    TR_CALL_RENAME,     /* another name, same arguments */
    TR_CALL_FLOAT_MATH, /* unsuffixed math: the f-suffixed name for float arguments */
    TR_CALL_MINMAX,     /* min/max: gp_min/gp_max for integers, fminf/fmaxf for floats */
    TR_CALL_ATOMIC,     /* atomicAdd...: by pointee type and address space */
    TR_CALL_TEMPLATE,   /* rewritten by a pattern: $1, $2 are the arguments */
    TR_CALL_BARRIER,    /* __syncthreads */
    TR_CALL_SIMD,       /* warp shuffles and votes: gp_simd_*, with --simd-width 32 only */
    TR_CALL_REFUSE,     /* outside the subset: `reason` says why */
    TR_CALL_HALF,       /* __half and __half2 arithmetic: `construct` is the signature */
} tr_call_kind;

typedef struct tr_callmap {
    const char *cuda;
    tr_call_kind kind;
    int arity;             /* -1: any */
    const char *out;       /* the dialect name or pattern */
    const char *construct; /* REFUSE: the construct's name for the report; HALF: the argument
                            * and result kinds, "hh>h": h a __half, 2 a __half2, f a float (or
                            * another arithmetic value, converted), F a float2, i an int;
                            * FLOAT_MATH: the name for doubles when not CUDA's (NULL: the same) */
    const char *reason;    /* REFUSE: why; others: a note for the report, or NULL */
} tr_callmap;

/* The entry for `name`, or NULL when it is not a known CUDA function. */
const tr_callmap *tr_map_call(const char *name);
/* Every entry, for the documentation. */
const tr_callmap *tr_map_table(int *count);
/* A CUDA vector type (uchar4, double3, longlong2...): the dialect type that holds it ("gp_uchar4";
 * a 3-component one is held in the 4-component type), with its component count as CUDA writes it
 * and the component's type in the output; NULL when the name is not one (vectors.c). */
const char *tr_vector_type(const char *cuda, int *n, const char **elem);
/* sizeof of a CUDA scalar or vector type as CUDA lays it out (float3: 12); 0 for others. */
long long tr_type_size(const char *cuda);
/* The name part of an operator's function in the output: "add" for +, "add_assign" for +=;
 * NULL for the operators the translation does not overload (vectors.c). */
const char *tr_operator_suffix(const char *op);

#endif
