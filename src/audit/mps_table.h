/* mps_table.h — PY-MPS-001's table (mps_ops.h, generated from a torch wheel by
 * scripts/gen-audit-mps-ops.py): whether a resolved Python name is a torch function whose ATen
 * operator has no MPS kernel, and the words that make the audit lex a file for it. */
#ifndef GP_AUDIT_MPS_TABLE_H
#define GP_AUDIT_MPS_TABLE_H

#include <stddef.h>

/* The operator ("aten::linalg_eig") of a name such as "torch.linalg.eig", or NULL. */
const char *gp_audit_mps_op_of(const char *name);
/* The i-th distinct trigger word ("eig", "pdist", ...), NULL past the last. */
const char *gp_audit_mps_trigger(size_t i);

#endif
