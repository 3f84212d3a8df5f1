/* fuzz_freeze_manifest.c — the manifest readers: the cJSON tree (parse, validate) and the one-pass
 * reader gp_freeze_load_text. A manifest never differs from itself; when both readers accept it,
 * the one-pass reader reads the tree's own rendering to the same entries (the diff is empty). */
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
    gp_freeze_manifest loaded;
    bool load_ok =
        gp_freeze_load_text("fuzz", (const char *)data, size, &loaded, err, sizeof err) == 0;
    cJSON *m = gp_json_parse("fuzz", (const char *)data, size, err, sizeof err);
    bool tree_ok = m && gp_freeze_validate(m, err, sizeof err) == 0;
    gp_freeze_diff d;
    if (tree_ok && gp_freeze_diff_compute(m, m, &d) == 0) {
        if (d.count) abort(); /* a manifest differs from itself */
        cJSON *j = gp_freeze_diff_json(&d, "a", "b");
        cJSON_Delete(j);
        gp_freeze_diff_free(&d);
    }
    if (load_ok && gp_freeze_diff_manifests(&loaded, &loaded, &d) == 0) {
        if (d.count) abort();
        gp_freeze_diff_free(&d);
    }
    if (load_ok && tree_ok) {
        if (loaded.nfiles != (size_t)cJSON_GetArraySize(cJSON_GetObjectItem(m, "data"))) abort();
        char *text = cJSON_PrintUnformatted(m);
        gp_freeze_manifest again;
        /* cJSON writes a non-finite size as null, which the reader refuses: nothing to compare */
        if (text &&
            gp_freeze_load_text("again", text, strlen(text), &again, err, sizeof err) == 0) {
            gp_freeze_diff t;
            if (gp_freeze_diff_manifests(&loaded, &again, &t) == 0) {
                if (t.count) abort();
                gp_freeze_diff_free(&t);
            }
            gp_freeze_manifest_free(&again);
        }
        cJSON_free(text);
    }
    if (load_ok) gp_freeze_manifest_free(&loaded);
    cJSON_Delete(m);
    return 0;
}
