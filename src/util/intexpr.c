/* intexpr.c — see intexpr.h. */
#include "util/intexpr.h"

#include <stddef.h>
#include <string.h>

static const char *const gp_int_levels[10][5] = {
    {"||", NULL},
    {"&&", NULL},
    {"|", NULL},
    {"^", NULL},
    {"&", NULL},
    {"==", "!=", NULL},
    {"<", ">", "<=", ">=", NULL},
    {"<<", ">>", NULL},
    {"+", "-", NULL},
    {"*", "/", "%", NULL},
};

const char *const *gp_int_binop_level(int level)
{
    return level >= 0 && level < 10 ? gp_int_levels[level] : NULL;
}

long long gp_int_binop(const char *op, long long a, long long b, bool *bad)
{
    unsigned long long ua = (unsigned long long)a, ub = (unsigned long long)b;
    if (!strcmp(op, "||")) return a || b;
    if (!strcmp(op, "&&")) return a && b;
    if (!strcmp(op, "|")) return a | b;
    if (!strcmp(op, "^")) return a ^ b;
    if (!strcmp(op, "&")) return a & b;
    if (!strcmp(op, "==")) return a == b;
    if (!strcmp(op, "!=")) return a != b;
    if (!strcmp(op, "<")) return a < b;
    if (!strcmp(op, ">")) return a > b;
    if (!strcmp(op, "<=")) return a <= b;
    if (!strcmp(op, ">=")) return a >= b;
    if (!strcmp(op, "<<")) return b >= 0 && b < 64 ? (long long)(ua << b) : 0;
    if (!strcmp(op, ">>")) return b >= 0 && b < 64 ? a >> b : 0;
    if (!strcmp(op, "+")) return (long long)(ua + ub);
    if (!strcmp(op, "-")) return (long long)(ua - ub);
    if (!strcmp(op, "*")) return (long long)(ua * ub);
    if ((strcmp(op, "/") && strcmp(op, "%")) || b == 0 ||
        (b == -1 && a == (-9223372036854775807LL - 1))) {
        *bad = true;
        return 0;
    }
    return !strcmp(op, "/") ? a / b : a % b;
}
