/* mps.c — the manifest's "mps" section: the PyTorch MPS fallback setting of this run and, from a
 * `gpuport mps-check` report (gpuport.mps-check/1), its verdict and the operators that ran on the
 * CPU — so that a run recorded as having worked on a Mac also says what ran off the device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "freeze/freeze.h"
#include "util/json.h"

/* The largest report read: reports are a few KiB; a cap keeps a wrong file from being slurped. */
#define GP_FREEZE_MPS_CAP ((size_t)16 << 20)

static int mps_bad(char *err, size_t errlen, const char *what)
{
    snprintf(err, errlen, "%s", what);
    return -1;
}

static int mps_check_report(const cJSON *r, char *err, size_t errlen)
{
    if (!cJSON_IsObject(r)) return mps_bad(err, errlen, "not a gpuport mps-check report");
    const char *schema = gp_json_str(r, "schema", NULL);
    if (!schema || strcmp(schema, "gpuport.mps-check/1") != 0)
        return mps_bad(err, errlen,
                       "not a gpuport mps-check report (schema is not \"gpuport.mps-check/1\"; "
                       "write one with gpuport mps-check --output FILE)");
    const char *verdict = gp_json_str(r, "verdict", NULL);
    if (!verdict ||
        (strcmp(verdict, "ready") && strcmp(verdict, "fallback") && strcmp(verdict, "fails")))
        return mps_bad(err, errlen, "\"verdict\" is missing or not ready, fallback or fails");
    if (!cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(r, "fallback_enabled")))
        return mps_bad(err, errlen, "\"fallback_enabled\" is missing or not true/false");
    const cJSON *ops = cJSON_GetObjectItemCaseSensitive(r, "fallback_operators");
    if (!cJSON_IsArray(ops)) return mps_bad(err, errlen, "\"fallback_operators\" is not an array");
    int i = 0;
    const cJSON *o;
    cJSON_ArrayForEach(o, ops)
    {
        const cJSON *count = cJSON_GetObjectItemCaseSensitive(o, "count");
        if (!gp_json_str(o, "operator", NULL) || !cJSON_IsNumber(count) ||
            !(count->valuedouble >= 0)) {
            snprintf(err, errlen,
                     "fallback_operators[%d] needs \"operator\" (string) and \"count\" (number "
                     ">= 0)",
                     i);
            return -1;
        }
        i++;
    }
    const cJSON *ff = cJSON_GetObjectItemCaseSensitive(r, "first_failure");
    if (ff && !cJSON_IsNull(ff) && !(cJSON_IsObject(ff) && gp_json_str(ff, "operator", NULL)))
        return mps_bad(err, errlen,
                       "\"first_failure\" is neither null nor an object with "
                       "\"operator\"");
    return 0;
}

cJSON *gp_freeze_mps_summary(const cJSON *report, const char *name, char *err, size_t errlen)
{
    char why[300];
    if (mps_check_report(report, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", name, why);
        return NULL;
    }
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "report", name);
    cJSON_AddStringToObject(s, "verdict", gp_json_str(report, "verdict", ""));
    const char *mode = gp_json_str(report, "mode", NULL);
    if (mode) cJSON_AddStringToObject(s, "mode", mode);
    const char *torch = gp_json_str(report, "torch", NULL);
    if (torch) cJSON_AddStringToObject(s, "torch", torch);
    cJSON_AddBoolToObject(
        s, "fallback_enabled",
        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(report, "fallback_enabled")));
    /* an object keyed by operator: a diff then names the operator that appeared or went */
    cJSON *ops = cJSON_AddObjectToObject(s, "fallback_operators");
    const cJSON *o;
    cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(report, "fallback_operators"))
    {
        const char *op = gp_json_str(o, "operator", "");
        if (!cJSON_GetObjectItemCaseSensitive(ops, op))
            cJSON_AddNumberToObject(ops, op,
                                    cJSON_GetObjectItemCaseSensitive(o, "count")->valuedouble);
    }
    const cJSON *ff = cJSON_GetObjectItemCaseSensitive(report, "first_failure");
    if (cJSON_IsObject(ff)) {
        char text[600];
        const cJSON *line = cJSON_GetObjectItemCaseSensitive(ff, "line");
        snprintf(text, sizeof text, "%.200s at %.300s:%d", gp_json_str(ff, "operator", ""),
                 gp_json_str(ff, "file", "?"),
                 cJSON_IsNumber(line) && line->valuedouble >= 0 && line->valuedouble < 1e9
                     ? (int)line->valuedouble
                     : 0);
        cJSON_AddStringToObject(s, "first_failure", text);
    } else {
        cJSON_AddNullToObject(s, "first_failure");
    }
    return s;
}

cJSON *gp_freeze_mps(const char *report_path, char *err, size_t errlen)
{
    cJSON *s = NULL;
    if (report_path) {
        cJSON *r = gp_json_parse_file(report_path, GP_FREEZE_MPS_CAP, err, errlen);
        if (!r) return NULL;
        s = gp_freeze_mps_summary(r, report_path, err, errlen);
        cJSON_Delete(r);
        if (!s) return NULL;
    } else {
        s = cJSON_CreateObject();
    }
    /* the setting of this run (what the environment says now; the report says its own) */
    const char *fb = getenv("PYTORCH_ENABLE_MPS_FALLBACK");
    cJSON_AddStringToObject(s, "fallback_setting",
                            fb ? (strcmp(fb, "1") == 0 ? "PYTORCH_ENABLE_MPS_FALLBACK=1"
                                                       : "PYTORCH_ENABLE_MPS_FALLBACK (not 1)")
                               : "unset");
    return s;
}
