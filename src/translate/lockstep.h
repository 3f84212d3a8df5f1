/* lockstep.h — finding code that relies on the lanes of a warp running in lockstep: a location
 * of shared memory written by one work-item and read (or written after a read) by another with
 * no barrier between them. CUDA's warps made such code work on older GPUs; Metal, OpenCL and the
 * CPU backend run the work-items of a group in no fixed order, so it would compute something
 * else there. Each is refused with both lines and the reason, or, with --simd-width 32, the
 * classic warp-synchronous tail (s[t] op= s[t + k] under `t < 32`) is rewritten with SIMD-group
 * shuffles, which compute exactly what lockstep execution computes. */
#ifndef GP_TRANSLATE_LOCKSTEP_H
#define GP_TRANSLATE_LOCKSTEP_H

#include "translate/ast.h"
#include "translate/lower.h"

/* Checks every kernel of the unit (interprocedurally), rewrites what can be rewritten exactly
 * (opt->simd_width == 32) and records a refusal for the rest. Runs before the lowering. */
void tr_lockstep(tr_unit *u, const tr_lower_options *opt);

#endif
