/* report.h — the three renderings of a compare result: the human report (stdout), the
 * gpuport.compare/1 JSON document, and a JUnit XML file for CI systems. */
#ifndef GP_COMPARE_REPORT_H
#define GP_COMPARE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "compare/compare.h"
#include "util/json.h"
#include "util/strbuf.h"

/* Writes the human report; `ref_label`/`other_label` name the sides ("A", "B"). */
void gp_compare_report_human(FILE *f, const gp_compare_result *r, const char *ref_label,
                             const char *other_label);
/* The gpuport.compare/1 document (cJSON_Delete it); NULL on ENOMEM. */
cJSON *gp_compare_report_json(const gp_compare_result *r);
/* Appends the JUnit XML document to sb. */
void gp_compare_report_junit(gp_strbuf *sb, const gp_compare_result *r);
/* One line saying why a pair failed ("3 / 12 elements (25.00%) outside tolerance"), into buf. */
void gp_compare_failure_reason(const gp_pair_result *p, char *buf, size_t len);

#endif
