/* doctor.h — `gpuport doctor` as a library call: probe this machine (or a machine tree under a
 * root folder), run every check, and return the report. `freeze` and `remote` call
 * gp_doctor_report_json() to record or compare machines; the CLI prints the same report. */
#ifndef GP_DOCTOR_DOCTOR_H
#define GP_DOCTOR_DOCTOR_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#define GP_DOCTOR_SCHEMA "gpuport.doctor/1"

typedef struct gp_doctor_options {
    /* Every file doctor reads is read under this folder; NULL means $GPUPORT_SYSROOT, else "/".
     * With a root other than "/", driver libraries come only from driver_path (a machine tree
     * never sees this machine's driver). */
    const char *root;
    /* Also call cuInit(0) and enumerate the CUDA devices, and enumerate OpenCL platforms and
     * devices through the ICD loader (both start the drivers: slower, but proves they work). */
    bool deep;
    /* Colon-separated folders searched first for libcuda.so.1, libnvidia-ml.so.1 and
     * libOpenCL.so.1; NULL means $GPUPORT_DRIVER_PATH. On "/" the normal dlopen search follows. */
    const char *driver_path;
} gp_doctor_options;

/* Probes, checks and returns the report with exactly the gpuport.doctor/1 schema (see
 * docs/json.md), or NULL when out of memory. *failed (optional) is set when a check failed.
 * Free with cJSON_Delete. Never aborts: a fact that cannot be read becomes a check's reason. */
cJSON *gp_doctor_report_json(const gp_doctor_options *opts, bool *failed);

#endif
