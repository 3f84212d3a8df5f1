/* summary.h — the first part of doctor's report: what this machine can do (CUDA compile/run,
 * Metal, OpenCL, CPU), which way to work from here, and the machine's key facts, as the
 * gpuport.doctor/1 JSON members "capabilities", "advice" and "machine". */
#ifndef GP_DOCTOR_SUMMARY_H
#define GP_DOCTOR_SUMMARY_H

#include <cjson/cJSON.h>

#include "doctor/facts.h"
#include "doctor/report.h"

/* The "capabilities" object; *advice receives the "advice" object. */
cJSON *gp_summary_capabilities(const gp_doctor_facts *f, const gp_doctor_report *r, cJSON **advice);
/* The "machine" object. */
cJSON *gp_summary_machine(const gp_doctor_facts *f);

#endif
