/* doctor.h — `gpuport remote doctor NAME`: the `gpuport doctor --json` reports of this machine
 * and of the remote one (schema gpuport.doctor/1), side by side, with the differences that
 * decide whether a result from one can be compared with the other. */
#ifndef GP_REMOTE_DOCTOR_H
#define GP_REMOTE_DOCTOR_H

#include <cjson/cJSON.h>
#include <stdio.h>

/* Checks that `j` has the shape of gpuport.doctor/1 ("capabilities" object, "checks" array).
 * NULL when it does, else the problem (a static string). */
const char *gp_remote_doctor_check(const cJSON *j);

/* The differences that matter, as an array of {"what", "local", "remote"} objects: each backend
 * that can run on one side only, and each check whose status or observed value differs. */
cJSON *gp_remote_doctor_diff(const cJSON *local, const cJSON *remote);

/* Prints both reports side by side, then the differences. */
void gp_remote_doctor_print(FILE *f, const char *name, const cJSON *local, const cJSON *remote,
                            const cJSON *diff);

#endif
