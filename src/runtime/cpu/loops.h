/* loops.h — kernels with barriers as work-group loops on the CPU. The kernel's body is cut at its
 * barriers into regions; each region runs as one loop over the group's work-items (the x id
 * innermost), and the private variables that live from one region into another become arrays
 * with one element per work-item (or are recomputed, when they are a function of the ids).
 * Barriers (and statements with a SIMD-group operation, which cut the body the same way) may
 * stand in straight code, in `if`s whose condition is the same for the whole group and in `for`
 * loops whose bounds and step are; a kernel the pass cannot prove safe keeps its
 * fibers, and the log (GPUPORT_LOG=info) says why. GPUPORT_CPU_LOOPS=0 keeps fibers for all. */
#ifndef GP_RUNTIME_CPU_LOOPS_H
#define GP_RUNTIME_CPU_LOOPS_H

#include "runtime/backend.h"

/* Is the work-group loops form wanted (GPUPORT_CPU_LOOPS unset, 1 or auto)? */
bool gp_cpu_loops_enabled(void);

/* The program text with every kernel that has barriers and that the pass can prove safe in the
 * work-group loops form (GP_KERNEL_LOOPS, whose descriptor has no item entry). *text is NULL
 * (and GP_OK) when no kernel was rewritten: the source builds as it is. */
gp_status gp_cpu_loops_text(const gp_build_request *req, char **text, size_t *len);

#endif
