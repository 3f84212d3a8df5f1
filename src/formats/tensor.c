/* tensor.c — element types and tensor views shared by the array readers (tensor.h). */
#include "formats/tensor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    const char *long_name;
    size_t size;
} gp_dtype_table[GP_DTYPE_COUNT] = {
    [GP_DTYPE_INVALID] = {"invalid", "invalid", 0},
    [GP_DTYPE_BOOL] = {"bool", "bool_", 1},
    [GP_DTYPE_I8] = {"i8", "int8", 1},
    [GP_DTYPE_U8] = {"u8", "uint8", 1},
    [GP_DTYPE_I16] = {"i16", "int16", 2},
    [GP_DTYPE_U16] = {"u16", "uint16", 2},
    [GP_DTYPE_I32] = {"i32", "int32", 4},
    [GP_DTYPE_U32] = {"u32", "uint32", 4},
    [GP_DTYPE_I64] = {"i64", "int64", 8},
    [GP_DTYPE_U64] = {"u64", "uint64", 8},
    [GP_DTYPE_F16] = {"f16", "float16", 2},
    [GP_DTYPE_BF16] = {"bf16", "bfloat16", 2},
    [GP_DTYPE_F32] = {"f32", "float32", 4},
    [GP_DTYPE_F64] = {"f64", "float64", 8},
    [GP_DTYPE_C64] = {"c64", "complex64", 8},
    [GP_DTYPE_C128] = {"c128", "complex128", 16},
};

size_t gp_dtype_size(gp_dtype t)
{
    return (unsigned)t < GP_DTYPE_COUNT ? gp_dtype_table[t].size : 0;
}

const char *gp_dtype_name(gp_dtype t)
{
    return (unsigned)t < GP_DTYPE_COUNT ? gp_dtype_table[t].name : "invalid";
}

gp_dtype gp_dtype_from_name(const char *name)
{
    for (int t = 1; t < GP_DTYPE_COUNT; t++)
        if (strcmp(name, gp_dtype_table[t].name) == 0 ||
            strcmp(name, gp_dtype_table[t].long_name) == 0)
            return (gp_dtype)t;
    return GP_DTYPE_INVALID;
}

bool gp_dtype_is_float(gp_dtype t)
{
    return t == GP_DTYPE_F16 || t == GP_DTYPE_BF16 || t == GP_DTYPE_F32 || t == GP_DTYPE_F64;
}

bool gp_dtype_is_complex(gp_dtype t)
{
    return t == GP_DTYPE_C64 || t == GP_DTYPE_C128;
}

bool gp_dtype_is_signed_int(gp_dtype t)
{
    return t == GP_DTYPE_I8 || t == GP_DTYPE_I16 || t == GP_DTYPE_I32 || t == GP_DTYPE_I64;
}

bool gp_dtype_is_unsigned_int(gp_dtype t)
{
    return t == GP_DTYPE_U8 || t == GP_DTYPE_U16 || t == GP_DTYPE_U32 || t == GP_DTYPE_U64;
}

int gp_tensor_view_size(gp_tensor_view *v)
{
    uint64_t n = 1;
    for (int i = 0; i < v->ndim; i++) {
        if (v->shape[i] != 0 && n > UINT64_MAX / v->shape[i]) return -1;
        n *= v->shape[i];
    }
    uint64_t es = gp_dtype_size(v->dtype);
    if (es && n > UINT64_MAX / es) return -1;
    v->count = n;
    v->nbytes = n * es;
    return 0;
}

void gp_tensor_shape_str(const gp_tensor_view *v, char *buf, size_t len)
{
    size_t o = 0;
    o += (size_t)snprintf(buf, len, "[");
    for (int i = 0; i < v->ndim && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%llu", i ? ", " : "",
                              (unsigned long long)v->shape[i]);
    if (o < len) snprintf(buf + o, len - o, "]");
}

void gp_tensor_unravel(const gp_tensor_view *v, uint64_t i, uint64_t *index)
{
    for (int d = v->ndim - 1; d >= 0; d--) {
        uint64_t s = v->shape[d];
        index[d] = s ? i % s : 0;
        i = s ? i / s : 0;
    }
}

int gp_tensor_list_add(gp_tensor_list *l, const char *name, const gp_tensor_view *v, void *owned)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        gp_named_tensor *n = realloc(l->items, cap * sizeof(*n));
        if (!n) {
            free(owned);
            return -1;
        }
        l->items = n;
        l->cap = cap;
    }
    char *copy = strdup(name);
    if (!copy) {
        free(owned);
        return -1;
    }
    l->items[l->count++] = (gp_named_tensor){copy, *v, owned};
    return 0;
}

const gp_named_tensor *gp_tensor_list_find(const gp_tensor_list *l, const char *name)
{
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->items[i].name, name) == 0) return &l->items[i];
    return NULL;
}

void gp_tensor_list_free(gp_tensor_list *l)
{
    for (size_t i = 0; i < l->count; i++) {
        free(l->items[i].name);
        free(l->items[i].owned);
    }
    free(l->items);
    *l = (gp_tensor_list)GP_TENSOR_LIST_INIT;
}
