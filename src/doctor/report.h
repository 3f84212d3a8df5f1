/* report.h — doctor's result: the checks (id, group, status, observed, expected, fix) and the
 * capabilities summary, with the two renderings (gpuport.doctor/1 JSON and the human report).
 * Checks add results here; nothing here probes. */
#ifndef GP_DOCTOR_REPORT_H
#define GP_DOCTOR_REPORT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

#include "doctor/facts.h"
#include "util/compiler.h"

typedef enum gp_check_status {
    GP_CHECK_PASS,
    GP_CHECK_WARN,
    GP_CHECK_FAIL,
    GP_CHECK_INFO,
    GP_CHECK_SKIP,
} gp_check_status;

#define GP_DOCTOR_MAX_CHECKS 96

typedef struct gp_check {
    char id[32];
    char group[16]; /* "system", "driver", "toolkit", "pytorch", "macos", "opencl" */
    gp_check_status status;
    char observed[768];
    char expected[384];
    char fix[768];
} gp_check;

typedef struct gp_doctor_report {
    int count;
    gp_check checks[GP_DOCTOR_MAX_CHECKS];
} gp_doctor_report;

/* Adds a check; when the report is full the last slot is reused (never happens with the
 * checks we have, and never writes out of bounds). */
gp_check *gp_report_add(gp_doctor_report *r, const char *group, const char *id, gp_check_status st);
void gp_check_observed(gp_check *c, const char *fmt, ...) GP_PRINTF_LIKE(2, 3);
/* Appends "; TEXT" to what was observed. */
void gp_check_note(gp_check *c, const char *fmt, ...) GP_PRINTF_LIKE(2, 3);
void gp_check_expected(gp_check *c, const char *fmt, ...) GP_PRINTF_LIKE(2, 3);
void gp_check_fix(gp_check *c, const char *fmt, ...) GP_PRINTF_LIKE(2, 3);

/* Makes `s` printable, valid UTF-8 in place: control bytes and invalid sequences (from odd
 * files, truncation mid-character) become '?'. Every string in the report goes through it. */
void gp_text_clean(char *s);

/* The check with this id, or NULL. */
const gp_check *gp_report_find(const gp_doctor_report *r, const char *id);
bool gp_report_failed(const gp_doctor_report *r);
const char *gp_check_status_name(gp_check_status st);

/* The whole gpuport.doctor/1 object: capabilities (from the facts and the checks), checks,
 * counts and the machine's key facts. NULL when out of memory. */
cJSON *gp_report_to_json(const gp_doctor_facts *f, const gp_doctor_report *r);
/* The human report: the summary first, then the checks by group, each warn/fail with its fix. */
void gp_report_print(FILE *out, const cJSON *report, bool verbose);

#endif
