/* fuzz_remote_doctor.c — `remote doctor` reads the remote side's `gpuport doctor --json`
 * (src/remote/doctor.c): any JSON that passes the shape check must diff and print without
 * crashing, against a fixed local report and against itself. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "remote/doctor.h"
#include "util/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char local_report[] =
    "{\"schema\":\"gpuport.doctor/1\",\"capabilities\":{\"cuda\":{\"compile\":true,\"run\":"
    "false,\"reason\":\"no GPU\",\"toolkit\":\"13.0\"},\"metal\":{\"available\":false},"
    "\"opencl\":{\"available\":true},\"cpu\":{\"summary\":\"2 cores\"}},\"checks\":[{\"id\":"
    "\"torch\",\"status\":\"pass\",\"observed\":\"2.5\"},{\"id\":\"os\",\"status\":\"info\"}]}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    cJSON *remote = gp_json_parse("remote", (const char *)data, size, err, sizeof err);
    if (!remote) return 0;
    if (!gp_remote_doctor_check(remote)) {
        cJSON *local = cJSON_Parse(local_report);
        FILE *sink = fopen("/dev/null", "w");
        cJSON *pairs[2][2] = {{local, remote}, {remote, remote}};
        for (int i = 0; i < 2; i++) {
            cJSON *diff = gp_remote_doctor_diff(pairs[i][0], pairs[i][1]);
            if (i == 1 && cJSON_GetArraySize(diff) != 0) abort(); /* a report equals itself */
            if (sink) gp_remote_doctor_print(sink, "gpu1", pairs[i][0], pairs[i][1], diff);
            cJSON_Delete(diff);
        }
        if (sink) fclose(sink);
        cJSON_Delete(local);
    }
    cJSON_Delete(remote);
    return 0;
}
