/* mps_table.c — see mps_table.h. A binary search over the generated, sorted table. */
#include "audit/mps_table.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define GP_AUDIT_MPS_OPS_TABLE
#include "audit/mps_ops.h"

#define MPS_OPS_COUNT (sizeof gp_audit_mps_ops / sizeof gp_audit_mps_ops[0])

static int mps_cmp(const void *key, const void *entry)
{
    return strcmp((const char *)key, ((const gp_audit_mps_op *)entry)->name);
}

const char *gp_audit_mps_op_of(const char *name)
{
    const gp_audit_mps_op *e =
        bsearch(name, gp_audit_mps_ops, MPS_OPS_COUNT, sizeof gp_audit_mps_ops[0], mps_cmp);
    return e ? e->op : NULL;
}

const char *gp_audit_mps_trigger(size_t i)
{
    /* distinct words, in table order: an entry whose word an earlier entry has is skipped */
    size_t seen = 0;
    for (size_t k = 0; k < MPS_OPS_COUNT; k++) {
        bool dup = false;
        for (size_t j = 0; j < k && !dup; j++)
            dup = strcmp(gp_audit_mps_ops[j].trigger, gp_audit_mps_ops[k].trigger) == 0;
        if (dup) continue;
        if (seen++ == i) return gp_audit_mps_ops[k].trigger;
    }
    return NULL;
}
