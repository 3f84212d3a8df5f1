/* baseline.c — known findings: a JSON file of fingerprints (`--write-baseline` writes every
 * finding of the run; `--baseline` reads one back, capped in size, and hides what it lists so
 * that CI fails only on new findings). Fingerprints do not contain line numbers. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "audit/state.h"
#include "util/fs.h"
#include "util/json.h"
#include "util/strbuf.h"

#define BASELINE_CAP (32u << 20)

static int hexval(int c)
{
    return isdigit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
}

static bool fp_parse(const char *s, uint8_t out[16])
{
    if (strlen(s) != 32) return false;
    for (int i = 0; i < 16; i++) {
        int a = hexval((unsigned char)s[2 * i]), b = hexval((unsigned char)s[2 * i + 1]);
        if (a < 0 || b < 0) return false;
        out[i] = (uint8_t)(a * 16 + b);
    }
    return true;
}

static int fp_cmp(const void *a, const void *b)
{
    return memcmp(a, b, 16);
}

int gp_audit_baseline_load(gp_audit_state *st, const char *path, char *err, size_t errlen)
{
    cJSON *j = gp_json_parse_file(path, BASELINE_CAP, err, errlen);
    if (!j) return -1;
    const char *schema = gp_json_str(j, "schema", "");
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(j, "findings");
    if (strcmp(schema, "gpuport.audit-baseline/1") != 0 || !cJSON_IsArray(arr)) {
        snprintf(err, errlen,
                 "%s: not a gpuport audit baseline (expected schema "
                 "\"gpuport.audit-baseline/1\" and a \"findings\" array)",
                 path);
        cJSON_Delete(j);
        return -1;
    }
    size_t n = (size_t)cJSON_GetArraySize(arr);
    st->baseline = n ? malloc(n * 16) : NULL;
    if (n && !st->baseline) {
        snprintf(err, errlen, "%s: out of memory", path);
        cJSON_Delete(j);
        return -1;
    }
    const cJSON *it;
    size_t k = 0;
    cJSON_ArrayForEach(it, arr)
    {
        const char *fp = gp_json_str(it, "fingerprint", "");
        if (!fp_parse(fp, st->baseline[k])) {
            snprintf(err, errlen, "%s: finding %zu has no valid \"fingerprint\" (32 hex digits)",
                     path, k + 1);
            cJSON_Delete(j);
            return -1;
        }
        k++;
    }
    qsort(st->baseline, k, 16, fp_cmp);
    st->nbaseline = k;
    cJSON_Delete(j);
    return 0;
}

bool gp_audit_baseline_has(const gp_audit_state *st, const char *fp)
{
    uint8_t key[16];
    if (!fp_parse(fp, key)) return false;
    return bsearch(key, st->baseline, st->nbaseline, 16, fp_cmp) != NULL;
}

int gp_audit_baseline_write(gp_audit_state *st, const char *path, char *err, size_t errlen)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_puts(&sb, "{\n  \"schema\": \"gpuport.audit-baseline/1\",\n  \"findings\": [");
    if (fseek(st->spool, 0, SEEK_SET) != 0) {
        snprintf(err, errlen, "%s: cannot read back the findings", path);
        return -1;
    }
    gp_spool_rec rec;
    char snip[4096];
    for (size_t i = 0; i < st->nrec; i++) {
        if (gp_spool_read(st->spool, &rec, snip, sizeof snip) != 0) break;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "fingerprint", rec.fp);
        cJSON_AddStringToObject(o, "rule", gp_audit_rule_get(rec.rule)->id);
        gp_audit_json_add_path(o, "file", gp_audit_path(st, rec.file));
        char *txt = cJSON_PrintUnformatted(o);
        cJSON_Delete(o);
        if (!txt) {
            sb.failed = true;
            break;
        }
        gp_strbuf_puts(&sb, i ? ",\n    " : "\n    ");
        gp_strbuf_puts(&sb, txt);
        free(txt);
    }
    gp_strbuf_puts(&sb, st->nrec ? "\n  ]\n}\n" : "]\n}\n");
    if (sb.failed) {
        gp_strbuf_free(&sb);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    int rc = gp_write_file_atomic(path, sb.data, sb.len, err, errlen);
    gp_strbuf_free(&sb);
    return rc;
}
