/* fuzz_policy.c — libFuzzer target for the compare policy readers: JSON policy files and
 * --tol specs of any content must load or fail cleanly, and resolving must not misbehave. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    gp_policy p;
    gp_policy_init(&p);
    gp_policy_load_text(&p, "fuzz", (const char *)data, size, err, sizeof(err));
    char *spec = malloc(size + 1);
    if (spec) {
        memcpy(spec, data, size);
        spec[size] = '\0';
        gp_policy_add_spec(&p, spec, err, sizeof(err));
        free(spec);
    }
    gp_tolerance t;
    for (int d = 0; d < GP_DTYPE_COUNT; d++)
        gp_policy_resolve(&p, "layer.0:w", (gp_dtype)d, &t);
    gp_policy_free(&p);
    return 0;
}
