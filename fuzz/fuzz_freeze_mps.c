/* fuzz_freeze_mps.c — the mps-check report reader of `gpuport freeze --mps-report`: any JSON
 * either becomes an "mps" section or is refused with a reason; a section it makes is an object
 * whose verdict is one of the three. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "freeze/freeze.h"
#include "util/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    cJSON *r = gp_json_parse("fuzz", (const char *)data, size, err, sizeof err);
    if (!r) return 0;
    err[0] = '\0';
    cJSON *s = gp_freeze_mps_summary(r, "fuzz", err, sizeof err);
    if (!s) {
        if (!err[0]) abort(); /* refused without a reason */
    } else {
        const char *v = gp_json_str(s, "verdict", "");
        if (strcmp(v, "ready") && strcmp(v, "fallback") && strcmp(v, "fails")) abort();
        char *text = cJSON_PrintUnformatted(s);
        if (!text) abort();
        cJSON_free(text);
        cJSON_Delete(s);
    }
    cJSON_Delete(r);
    return 0;
}
