/* fiber.h — running the work-items of one group as fibers on the calling thread, for kernels
 * with barriers: each work-item runs until gp_barrier() and yields; when every work-item of the
 * group has reached the barrier (or finished) they all continue. The switch is a few
 * instructions of assembly on x86-64 and AArch64 (callee-saved registers and the stack pointer);
 * other targets use ucontext, which is slower because it saves the signal mask with a system
 * call on every switch. */
#ifndef GP_RUNTIME_CPU_FIBER_H
#define GP_RUNTIME_CPU_FIBER_H

#include <stdint.h>

#include "runtime/backend.h"

/* Faults of SIMD-group operations, found by the emulation (GPUs leave them undefined). */
enum {
    GP_FIBER_SIMD_DIVERGED = 1,    /* a lane was elsewhere (a barrier, another operation) */
    GP_FIBER_SIMD_READ_EXITED = 2, /* a shuffle read the value of a lane that had returned */
};

/* Runs every work-item of group `g` (its barrier and simd fields are filled here) through
 * `item`, as fibers on this thread. GP_OK; GP_ERR_OUT_OF_MEMORY when fiber stacks cannot be
 * had; GP_ERR_LAUNCH with *simd_fault (may be NULL) set to the first GP_FIBER_SIMD_* fault (the
 * group ran to its end; its results are not valid). Sets no error message. */
gp_status gp_fiber_run_group(gp_cpu_item_fn item, void *const *args, gp_cpu_group *g,
                             int *simd_fault);

/* "asm-x86_64", "asm-aarch64" or "ucontext": which switch this build uses. */
const char *gp_fiber_switch_kind(void);

#endif
