/* fuzz_audit_prefilter.c — the prefilter's promise on arbitrary bytes: whenever it decides a
 * Python or C/C++ file without lexing it, the full scanner finds nothing in that file and sets
 * the same facts; its two searches (vector and step-sampled) find the same earliest word. A
 * counterexample aborts. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "audit/prefilter.h"
#include "audit/scanners.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct {
        gp_audit_lang lang;
        const char *path;
    } files[] = {{GP_AL_PYTHON, "pkg/mod.py"},
                 {GP_AL_PYTHON, "pkg/ops_cpu.py"},
                 {GP_AL_C, "src/mod.cc"},
                 {GP_AL_C, "include/mod.h"}};
    /* the vector screen and the step-sampled search find the same earliest word */
    for (int pf = 0; pf < 2; pf++)
        for (size_t from = 0; from <= size; from += size / 3 + 1)
            if (gp_audit_prefilter_find_how(pf ? GP_PF_C : GP_PF_PYTHON, (const char *)data, size,
                                            from, true) !=
                gp_audit_prefilter_find_how(pf ? GP_PF_C : GP_PF_PYTHON, (const char *)data, size,
                                            from, false))
                abort();
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        gp_audit_source s = {(const char *)data, size, 0, false};
        gp_audit_result fast, full;
        gp_audit_result_init(&fast);
        gp_audit_result_init(&full);
        if (gp_audit_prefilter_skip(&s, files[i].lang, files[i].path, &fast)) {
            const char *base = strrchr(files[i].path, '/') + 1;
            if (files[i].lang == GP_AL_PYTHON)
                gp_audit_scan_python(&s, &full, false, base);
            else
                gp_audit_scan_c(&s, &full, false, files[i].path);
            if (full.nf != 0 || full.cpu_impl != fast.cpu_impl) abort();
        }
        gp_audit_result_free(&fast);
        gp_audit_result_free(&full);
    }
    return 0;
}
