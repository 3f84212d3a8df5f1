/* verdict.c — module and project verdicts from the folded findings. A module's verdict is what
 * its worst reported finding needs (errors: the rule's class; warnings: at most device
 * abstraction; notes: nothing). Effort follows SYCLomatic's grading: none, low (only a few
 * warnings), medium, high (a stop condition, or more than 50 blocking findings). Stop
 * conditions need unguarded errors; custom kernels count only when the module has no real CPU
 * or Metal implementation. */
#include "audit/state.h"

static int effort_rank(const char *e)
{
    return e[0] == 'n' ? 0 : e[0] == 'l' ? 1 : e[0] == 'm' ? 2 : 3;
}

const char *gp_audit_verdict_name(gp_audit_vclass v)
{
    return gp_audit_vclass_name(v);
}

void gp_audit_verdicts(gp_audit_state *st)
{
    st->verdict = GP_VC_PORTABLE;
    st->effort = "none";
    for (size_t i = 0; i < st->nmods; i++) {
        gp_audit_module *m = &st->mods[i];
        bool any_stop = false;
        for (int s = 1; s < GP_STOP_COUNT; s++) {
            bool on = m->stop_count[s] > 0;
            if (s == GP_STOP_CUSTOM_KERNELS && on && !m->stub_cpu && (m->cpu_impl || m->metal_impl))
                on = false;
            m->stop[s] = on;
            if (on) {
                any_stop = true;
                st->stop[s] = true;
            }
        }
        if (any_stop) m->verdict = GP_VC_REWRITE;
        switch (m->verdict) {
        case GP_VC_PORTABLE:
            m->effort = "none";
            break;
        case GP_VC_ABSTRACTION:
            m->effort =
                m->count[GP_SEV_ERROR] == 0 && m->count[GP_SEV_WARNING] <= 20 ? "low" : "medium";
            break;
        case GP_VC_REWRITE:
            m->effort = any_stop || m->count[GP_SEV_ERROR] > 50 ? "high" : "medium";
            break;
        }
        if (m->verdict > st->verdict) st->verdict = m->verdict;
        if (effort_rank(m->effort) > effort_rank(st->effort)) st->effort = m->effort;
    }
}
