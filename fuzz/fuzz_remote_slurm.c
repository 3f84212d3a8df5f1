/* fuzz_remote_slurm.c — what a Slurm login node answers `gpuport remote` (src/remote/slurm.c:
 * sinfo's partitions, scontrol's and sacct's job records, checked against a request) and the
 * run records it reads back from remote/NAME/runs/ (src/remote/runs.c): any bytes must parse or
 * be refused, never crash; what parses holds only bounded, terminated fields. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "remote/runs.h"
#include "remote/slurm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    gp_slurm_partition *p = NULL;
    long n = gp_slurm_partitions_parse(text, size, &p);
    if (n < 0 && p) abort();
    for (long i = 0; i < n; i++)
        if (strlen(p[i].name) >= sizeof p[i].name || strlen(p[i].gres) >= sizeof p[i].gres) abort();
    free(p);
    gp_remote_slurm s = {0};
    gp_remote_entry e = {"c", "login", NULL, NULL, &s};
    char msg[4096];
    s.gres = "gpu:a100:2";
    s.time = "1:00:00";
    if (gp_slurm_preflight_check(&e, 0, text, size, "", msg, sizeof msg) != 0 && !msg[0])
        abort(); /* a refusal always says why */
    gp_slurm_job j;
    if (gp_slurm_job_parse(text, &j) == 0 || gp_slurm_job_parse_scontrol(text, &j) == 0 ||
        gp_slurm_job_parse_sacct(text, &j) == 0) {
        if (!j.known || !j.id[0] || !j.state[0]) abort();
        gp_slurm_job_explain(&e, &j, msg, sizeof msg);
    }
    cJSON *r = cJSON_ParseWithLength(text, size);
    if (r) gp_run_record_check(r);
    cJSON_Delete(r);
    free(text);
    return 0;
}
