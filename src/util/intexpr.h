/* intexpr.h — the arithmetic of preprocessor constant expressions (#if), shared by the C
 * preprocessors of gpuport: one binary operator on 64-bit values, with C's meaning where C has one
 * and no undefined behaviour (shifts out of range give 0, signed overflow wraps, division by zero
 * is an error). */
#ifndef GP_UTIL_INTEXPR_H
#define GP_UTIL_INTEXPR_H

#include <stdbool.h>

/* a `op` b for op one of || && | ^ & == != < > <= >= << >> + - * / %; *bad set (and 0 returned)
 * for a division by zero or an unknown operator. */
long long gp_int_binop(const char *op, long long a, long long b, bool *bad);

/* The operators of one precedence level (0: ||, ... 9: * / %), NULL-terminated; NULL past 9. */
const char *const *gp_int_binop_level(int level);

#endif
