/* doctor.c — gp_doctor_report_json(): probe, check, render. The facts and the report are
 * large fixed-size structs, so they live on the heap. */
#include "doctor/doctor.h"

#include <stdlib.h>

#include "doctor/checks.h"
#include "doctor/probe.h"
#include "doctor/report.h"

cJSON *gp_doctor_report_json(const gp_doctor_options *opts, bool *failed)
{
    gp_doctor_facts *f = calloc(1, sizeof *f);
    gp_doctor_report *r = calloc(1, sizeof *r);
    cJSON *out = NULL;
    if (f && r && gp_doctor_probe(opts, f)) {
        gp_doctor_check_all(f, r);
        out = gp_report_to_json(f, r);
        if (failed) *failed = gp_report_failed(r);
    }
    free(f);
    free(r);
    return out;
}
