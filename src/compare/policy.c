/* policy.c — tolerances per dtype and per tensor (policy.h). The built-in table follows the
 * port-acceptance defaults (relative floor 1% of the reference's RMS, NMSE and cosine limits);
 * --strict reproduces torch.testing.assert_close's defaults exactly (no floor, no NMSE/cosine). */
#include "compare/policy.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fs.h"
#include "util/json.h"
#include "util/match.h"

#define GP_POLICY_FILE_CAP (4u << 20)

static int policy_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen) vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

void gp_policy_init(gp_policy *p)
{
    memset(p, 0, sizeof(*p));
}

void gp_policy_free(gp_policy *p)
{
    for (size_t i = 0; i < p->ntensor_rules; i++)
        free(p->tensor_rules[i].pattern);
    free(p->tensor_rules);
    memset(p, 0, sizeof(*p));
}

void gp_policy_builtin(gp_dtype t, bool strict, gp_tolerance *o)
{
    /* rtol, atol, NMSE max, cosine min; complex types as their component's float type */
    static const double port[][4] = {
        {1e-7, 1e-7, 1e-12, 1 - 1e-10}, /* f64 */
        {1e-4, 1e-5, 1e-8, 0.99999},    /* f32 */
        {1e-2, 1e-3, 1e-5, 0.9999},     /* f16 */
        {3.2e-2, 1e-2, 1e-4, 0.999},    /* bf16 */
    };
    static const double torch[][2] = {{1e-7, 1e-7}, {1.3e-6, 1e-5}, {1e-3, 1e-5}, {1.6e-2, 1e-5}};
    int row = t == GP_DTYPE_F64 || t == GP_DTYPE_C128  ? 0
              : t == GP_DTYPE_F32 || t == GP_DTYPE_C64 ? 1
              : t == GP_DTYPE_F16                      ? 2
              : t == GP_DTYPE_BF16                     ? 3
                                                       : -1;
    *o = (gp_tolerance){0, 0, 0, false, NAN, NAN};
    if (row < 0) return; /* integers and bool: exact */
    if (strict) {
        o->rtol = torch[row][0], o->atol = torch[row][1];
        return;
    }
    o->rtol = port[row][0], o->atol = port[row][1];
    o->nmse_max = port[row][2], o->cosine_min = port[row][3];
    o->floor_scale = 0.01;
}

static void policy_apply(const gp_policy_rule *r, gp_tolerance *o)
{
    if (r->has_atol) o->atol = r->atol;
    if (r->has_rtol) o->rtol = r->rtol;
    if (r->has_equal_nan) o->equal_nan = r->equal_nan;
    if (r->has_floor) o->floor_scale = r->floor;
    if (r->has_nmse) o->nmse_max = r->nmse_max;
    if (r->has_cosine) o->cosine_min = r->cosine_min;
}

void gp_policy_resolve(const gp_policy *p, const char *name, gp_dtype t, gp_tolerance *out)
{
    gp_policy_builtin(t, p->strict, out);
    policy_apply(&p->file_default, out);
    if ((unsigned)t < GP_DTYPE_COUNT) policy_apply(&p->file_dtypes[t], out);
    policy_apply(&p->cli, out);
    for (size_t i = 0; i < p->ntensor_rules; i++)
        if (gp_fnmatch(p->tensor_rules[i].pattern, name, 0) == 0)
            policy_apply(&p->tensor_rules[i], out);
}

/* A tolerance value: finite and not negative. */
static bool policy_number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && errno == 0 && isfinite(*v) && *v >= 0;
}

/* Sets one field of r from key and a textual or JSON value (exactly one of text/j given). */
static int policy_set(gp_policy_rule *r, const char *key, const char *text, const cJSON *j,
                      char *err, size_t errlen)
{
    double v = 0;
    if (strcmp(key, "equal_nan") == 0) {
        if (j && cJSON_IsBool(j))
            r->equal_nan = cJSON_IsTrue(j);
        else if (text && (strcmp(text, "true") == 0 || strcmp(text, "false") == 0))
            r->equal_nan = strcmp(text, "true") == 0;
        else
            return policy_fail(err, errlen, "equal_nan must be true or false");
        r->has_equal_nan = true;
        return 0;
    }
    bool off = (j && cJSON_IsNull(j)) || (text && strcmp(text, "off") == 0);
    bool ok = off || (j ? cJSON_IsNumber(j) && isfinite(j->valuedouble) && j->valuedouble >= 0
                        : policy_number(text, &v));
    if (j && ok && !off) v = j->valuedouble;
    if (!ok) return policy_fail(err, errlen, "%s must be a non-negative number", key);
    if (off && strcmp(key, "nmse") != 0 && strcmp(key, "cosine") != 0)
        return policy_fail(err, errlen, "only nmse and cosine can be turned off");
    if (strcmp(key, "atol") == 0)
        r->atol = v, r->has_atol = true;
    else if (strcmp(key, "rtol") == 0)
        r->rtol = v, r->has_rtol = true;
    else if (strcmp(key, "floor") == 0)
        r->floor = v, r->has_floor = true;
    else if (strcmp(key, "nmse") == 0)
        r->nmse_max = off ? NAN : v, r->has_nmse = true;
    else if (strcmp(key, "cosine") == 0) {
        if (!off && v > 1) return policy_fail(err, errlen, "cosine must be at most 1");
        r->cosine_min = off ? NAN : v, r->has_cosine = true;
    } else
        return policy_fail(err, errlen,
                           "unknown setting '%s' (atol, rtol, equal_nan, floor, nmse, "
                           "cosine)",
                           key);
    return 0;
}

static int policy_rule_json(const cJSON *o, gp_policy_rule *r, const char *where, char *err,
                            size_t errlen)
{
    if (!cJSON_IsObject(o)) return policy_fail(err, errlen, "%s is not an object", where);
    char why[256];
    for (const cJSON *c = o->child; c; c = c->next)
        if (policy_set(r, c->string, NULL, c, why, sizeof(why)) != 0)
            return policy_fail(err, errlen, "%s: %s", where, why);
    return 0;
}

static int policy_add_rule(gp_policy *p, const gp_policy_rule *r)
{
    gp_policy_rule *n = realloc(p->tensor_rules, (p->ntensor_rules + 1) * sizeof(*n));
    if (!n) return -1;
    p->tensor_rules = n;
    n[p->ntensor_rules++] = *r;
    return 0;
}

static int policy_from_json(gp_policy *p, const cJSON *root, char *err, size_t errlen)
{
    if (!cJSON_IsObject(root)) return policy_fail(err, errlen, "not a JSON object");
    for (const cJSON *c = root->child; c; c = c->next) {
        if (strcmp(c->string, "strict") == 0) {
            if (!cJSON_IsBool(c)) return policy_fail(err, errlen, "\"strict\" is not a boolean");
            p->strict = cJSON_IsTrue(c);
        } else if (strcmp(c->string, "default") == 0) {
            if (policy_rule_json(c, &p->file_default, "\"default\"", err, errlen) != 0) return -1;
        } else if (strcmp(c->string, "dtypes") == 0 && cJSON_IsObject(c)) {
            for (const cJSON *d = c->child; d; d = d->next) {
                gp_dtype t = gp_dtype_from_name(d->string);
                if (t == GP_DTYPE_INVALID)
                    return policy_fail(err, errlen, "unknown dtype \"%s\"", d->string);
                if (policy_rule_json(d, &p->file_dtypes[t], d->string, err, errlen) != 0) return -1;
            }
        } else if (strcmp(c->string, "tensors") == 0 && cJSON_IsObject(c)) {
            for (const cJSON *d = c->child; d; d = d->next) {
                gp_policy_rule r;
                memset(&r, 0, sizeof(r));
                if (policy_rule_json(d, &r, d->string, err, errlen) != 0) return -1;
                r.pattern = strdup(d->string);
                if (!r.pattern || policy_add_rule(p, &r) != 0) {
                    free(r.pattern);
                    return policy_fail(err, errlen, "out of memory");
                }
            }
        } else if (strcmp(c->string, "schema") != 0) {
            return policy_fail(err, errlen,
                               "unknown or malformed key \"%s\" (strict, default, "
                               "dtypes, tensors)",
                               c->string);
        }
    }
    return 0;
}

int gp_policy_load_text(gp_policy *p, const char *name, const char *text, size_t len, char *err,
                        size_t errlen)
{
    char why[512];
    cJSON *root = gp_json_parse(name, text, len, why, sizeof(why));
    if (!root) return policy_fail(err, errlen, "%s", why);
    const char *dup;
    int rc;
    if (gp_json_find_duplicate_key(root, &dup))
        rc = policy_fail(err, errlen, "%s: the key \"%s\" appears twice", name, dup);
    else if (policy_from_json(p, root, why, sizeof(why)) != 0)
        rc = policy_fail(err, errlen, "%s: %s", name, why);
    else
        rc = 0;
    cJSON_Delete(root);
    return rc;
}

int gp_policy_load_file(gp_policy *p, const char *path, char *err, size_t errlen)
{
    size_t len;
    char *text = gp_read_file(path, GP_POLICY_FILE_CAP, false, &len, err, errlen);
    if (!text) return -1;
    int rc = gp_policy_load_text(p, path, text, len, err, errlen);
    free(text);
    return rc;
}

int gp_policy_add_spec(gp_policy *p, const char *spec, char *err, size_t errlen)
{
    const char *colon = strrchr(spec, ':');
    if (!colon || colon == spec)
        return policy_fail(err, errlen, "'%s' is not PATTERN:key=value[,key=value]", spec);
    gp_policy_rule r;
    memset(&r, 0, sizeof(r));
    char *settings = strdup(colon + 1);
    r.pattern = strndup(spec, (size_t)(colon - spec));
    if (!settings || !r.pattern) {
        free(settings), free(r.pattern);
        return policy_fail(err, errlen, "out of memory");
    }
    int rc = 0;
    char *save = NULL;
    for (char *kv = strtok_r(settings, ",", &save); kv && rc == 0;
         kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq) {
            rc = policy_fail(err, errlen, "'%s' in '%s' is not key=value", kv, spec);
            break;
        }
        *eq = '\0';
        char why[256];
        if (policy_set(&r, kv, eq + 1, NULL, why, sizeof(why)) != 0)
            rc = policy_fail(err, errlen, "'%s': %s", spec, why);
    }
    free(settings);
    if (rc == 0 && policy_add_rule(p, &r) != 0) rc = policy_fail(err, errlen, "out of memory");
    if (rc != 0) free(r.pattern);
    return rc;
}
