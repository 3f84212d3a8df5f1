/* fuzz_bench_json.c — the reader of `gpuport bench --compare`: parse, validate, and print the
 * side-by-side of a document against itself when it validates. */
#include <stdint.h>
#include <stdio.h>

#include "bench/bench.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    cJSON *doc = gp_json_parse("fuzz.json", (const char *)data, size, err, sizeof err);
    if (!doc) return 0;
    if (gp_bench_validate(doc, err, sizeof err) == 0) {
        FILE *devnull = fopen("/dev/null", "w");
        if (devnull) {
            gp_bench_print_compare(devnull, "a", doc, "b", doc);
            fclose(devnull);
        }
    }
    cJSON_Delete(doc);
    return 0;
}
