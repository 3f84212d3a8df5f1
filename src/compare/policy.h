/* policy.h — what tolerance applies to which tensor. Built-in port-acceptance defaults per
 * dtype (or torch.testing's with --strict), then a policy file's "default" and "dtypes", then
 * the command line's --atol/--rtol/--equal-nan, then per-tensor rules (the file's "tensors",
 * then --tol), the last matching rule winning. */
#ifndef GP_COMPARE_POLICY_H
#define GP_COMPARE_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/metrics.h"
#include "formats/tensor.h"

/* A partial tolerance: only the fields whose has_ flag is set apply. */
typedef struct gp_policy_rule {
    char *pattern; /* fnmatch pattern over tensor names (NULL for non-tensor rules) */
    bool has_atol, has_rtol, has_equal_nan, has_floor, has_nmse, has_cosine;
    double atol, rtol, floor, nmse_max, cosine_min;
    bool equal_nan;
} gp_policy_rule;

typedef struct gp_policy {
    bool strict;
    gp_policy_rule file_default;
    gp_policy_rule file_dtypes[GP_DTYPE_COUNT];
    gp_policy_rule cli;
    gp_policy_rule *tensor_rules;
    size_t ntensor_rules;
} gp_policy;

void gp_policy_init(gp_policy *p);
void gp_policy_free(gp_policy *p);
/* The built-in tolerance of a dtype (port-acceptance, or torch.testing's when strict). */
void gp_policy_builtin(gp_dtype t, bool strict, gp_tolerance *out);
/* Reads a JSON policy file (format in docs/compare.md). 0, or -1 with "PATH: reason" in err. */
int gp_policy_load_file(gp_policy *p, const char *path, char *err, size_t errlen);
/* Adds a rule from "PATTERN:key=value[,key=value...]" (keys: atol rtol equal_nan floor nmse
 * cosine; the pattern is everything before the last ':'). 0, or -1 with the reason in err. */
int gp_policy_add_spec(gp_policy *p, const char *spec, char *err, size_t errlen);
/* The tolerance for the tensor `name` of type t. */
void gp_policy_resolve(const gp_policy *p, const char *name, gp_dtype t, gp_tolerance *out);

#endif
