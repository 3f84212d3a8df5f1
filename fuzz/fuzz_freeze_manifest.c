/* fuzz_freeze_manifest.c — the manifest reader: parse, validate, and diff against itself. */
#include <stddef.h>
#include <stdint.h>

#include "freeze/freeze.h"
#include "util/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    cJSON *m = gp_json_parse("fuzz", (const char *)data, size, err, sizeof err);
    if (!m) return 0;
    if (gp_freeze_validate(m, err, sizeof err) == 0) {
        gp_freeze_diff d;
        if (gp_freeze_diff_compute(m, m, &d) == 0) {
            cJSON *j = gp_freeze_diff_json(&d, "a", "b");
            cJSON_Delete(j);
            gp_freeze_diff_free(&d);
        }
    }
    cJSON_Delete(m);
    return 0;
}
