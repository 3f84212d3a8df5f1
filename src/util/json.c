/* json.c — see json.h. */
#include "util/json.h"

#include <stdlib.h>
#include <string.h>

#include "util/fs.h"

static bool json_on_stdout; /* a document went to stdout: the CLI adds no error object after it */

bool gp_json_printed_to_stdout(void)
{
    return json_on_stdout;
}

int gp_json_print(FILE *f, const cJSON *j)
{
    if (f == stdout) json_on_stdout = true;
    char *s = cJSON_Print(j);
    if (!s) return -1;
    int rc = (fputs(s, f) < 0 || fputc('\n', f) == EOF) ? -1 : 0;
    cJSON_free(s);
    return rc;
}

cJSON *gp_json_parse(const char *name, const char *text, size_t len, char *err, size_t errlen)
{
    const char *end = NULL;
    cJSON *j = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!j) {
        size_t off = end && end >= text ? (size_t)(end - text) : 0;
        if (err) snprintf(err, errlen, "%s: not valid JSON (near byte %zu)", name, off);
        return NULL;
    }
    /* Only whitespace may follow the value. */
    size_t off = (size_t)(end - text);
    while (off < len &&
           (text[off] == ' ' || text[off] == '\n' || text[off] == '\r' || text[off] == '\t'))
        off++;
    if (off < len && text[off] != '\0') {
        if (err)
            snprintf(err, errlen, "%s: unexpected data after the JSON value (byte %zu)", name, off);
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

cJSON *gp_json_parse_file(const char *path, size_t cap, char *err, size_t errlen)
{
    size_t len = 0;
    char *text = gp_read_file(path, cap, false, &len, err, errlen);
    if (!text) return NULL;
    cJSON *j = gp_json_parse(path, text, len, err, errlen);
    free(text);
    return j;
}

static int json_cmp_keys(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorting the keys keeps this O(n log n): safetensors headers hold many thousand names. */
static bool json_object_duplicate(const cJSON *o, const char **key)
{
    size_t n = 0;
    for (const cJSON *c = o->child; c; c = c->next)
        n++;
    if (n < 2) return false;
    const char **keys = malloc(n * sizeof *keys);
    if (!keys) return false;
    size_t k = 0;
    for (const cJSON *c = o->child; c; c = c->next)
        keys[k++] = c->string ? c->string : "";
    qsort(keys, n, sizeof *keys, json_cmp_keys);
    bool dup = false;
    for (size_t i = 1; i < n && !dup; i++)
        if (strcmp(keys[i - 1], keys[i]) == 0) {
            dup = true;
            if (key) *key = keys[i];
        }
    free(keys);
    return dup;
}

bool gp_json_find_duplicate_key(const cJSON *j, const char **key)
{
    if (!j) return false;
    if (cJSON_IsObject(j) && json_object_duplicate(j, key)) return true;
    for (const cJSON *c = j->child; c; c = c->next)
        if (gp_json_find_duplicate_key(c, key)) return true;
    return false;
}

const char *gp_json_str(const cJSON *o, const char *key, const char *fallback)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) && v->valuestring ? v->valuestring : fallback;
}
