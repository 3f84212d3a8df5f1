/* fuzz_remote_config.c — the per-user list of remote targets (src/remote/config.c): any bytes
 * must parse or fail with a message, never crash; whatever parses must hold only valid fields. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "remote/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_remote_config cfg;
    char err[512];
    if (gp_remote_config_parse("remotes.json", (const char *)data, size, &cfg, err, sizeof err) ==
        0) {
        for (size_t i = 0; i < cfg.count; i++) {
            const gp_remote_entry *e = &cfg.items[i];
            char why[1024];
            if (gp_remote_name_check(e->name, why, sizeof why) ||
                gp_remote_target_check(e->target, why, sizeof why) ||
                (e->path && gp_remote_path_check(e->path, why, sizeof why)) ||
                (e->slurm && gp_remote_slurm_check(e->slurm, why, sizeof why)))
                abort();
            if (gp_remote_config_find(&cfg, e->name) != e) abort();
        }
        gp_remote_config_free(&cfg);
    } else if (err[0] == '\0' || strncmp(err, "remotes.json", 12) != 0) {
        abort(); /* every refusal names the file */
    }
    return 0;
}
