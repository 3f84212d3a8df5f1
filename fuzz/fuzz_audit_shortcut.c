/* fuzz_audit_shortcut.c — the scanners' shortcuts against their full scans on arbitrary bytes:
 * the Python scanner's line shortcut (and the C/C++ scanner's) must give the same findings, in
 * the same order, with the same snippets and facts. A difference aborts. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "audit/scanners.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void scan(int which, const char *d, size_t n, bool shortcut, gp_audit_result *r)
{
    gp_audit_source s = {d, n, 0, false};
    if (which == 0)
        gp_audit_scan_python_how(&s, r, false, "mod.py", shortcut);
    else
        gp_audit_scan_c_how(&s, r, false, "include/mod.h", shortcut);
    gp_audit_apply_suppressions(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (int which = 0; which < 2; which++) {
        gp_audit_result full, fast;
        gp_audit_result_init(&full);
        gp_audit_result_init(&fast);
        scan(which, (const char *)data, size, false, &full);
        scan(which, (const char *)data, size, true, &fast);
        if (full.nf != fast.nf || full.has_main_guard != fast.has_main_guard ||
            full.cpu_impl != fast.cpu_impl || full.text.len != fast.text.len ||
            full.cuda_dispatch != fast.cuda_dispatch || full.mps_impl != fast.mps_impl ||
            full.dist_required != fast.dist_required || full.facts.len != fast.facts.len ||
            (full.facts.len && memcmp(full.facts.data, fast.facts.data, full.facts.len) != 0))
            abort();
        for (size_t i = 0; i < full.nf; i++) {
            const gp_audit_finding *a = &full.f[i], *b = &fast.f[i];
            if (a->rule != b->rule || a->severity != b->severity || a->guarded != b->guarded ||
                a->line != b->line || a->col != b->col || a->snip_len != b->snip_len ||
                memcmp(full.text.data + a->snip_off, fast.text.data + b->snip_off, a->snip_len))
                abort();
        }
        gp_audit_result_free(&full);
        gp_audit_result_free(&fast);
    }
    return 0;
}
