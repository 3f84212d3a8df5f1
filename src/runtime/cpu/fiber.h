/* fiber.h — running the work-items of one group as fibers on the calling thread, for kernels
 * with barriers: each work-item runs until gp_barrier() and yields; when every work-item of the
 * group has reached the barrier (or finished) they all continue. The switch is a few
 * instructions of assembly on x86-64 and AArch64 (callee-saved registers and the stack pointer);
 * other targets use ucontext, which is slower because it saves the signal mask with a system
 * call on every switch. */
#ifndef GP_RUNTIME_CPU_FIBER_H
#define GP_RUNTIME_CPU_FIBER_H

#include <stdbool.h>
#include <stdint.h>

#include "runtime/backend.h"

/* Faults of SIMD-group operations, found by the emulation (GPUs leave them undefined). */
enum {
    GP_FIBER_SIMD_DIVERGED = 1,    /* a lane was elsewhere (a barrier, another operation) */
    GP_FIBER_SIMD_READ_EXITED = 2, /* a shuffle read the value of a lane that had returned */
};

/* A SIMD-group operation that found a fault: where and who took part. */
typedef struct gp_fiber_simd_fault {
    uint32_t item;    /* the work-item (linear local id) that found it */
    int fault;        /* GP_FIBER_SIMD_* */
    uint32_t first;   /* the linear id of its SIMD group's lane 0 */
    uint32_t lanes;   /* lanes in that SIMD group */
    uint32_t present; /* bit l: lane l took part */
    uint32_t ended;   /* bit l: lane l had ended */
    uint32_t src;     /* READ_EXITED: the lane it read */
} gp_fiber_simd_fault;

/* What a checked run learns from the scheduler (every callback may be NULL). */
typedef struct gp_fiber_observer {
    void *ctx;
    /* fiber `item` is about to run on its stack, whose top is `stack_hi` */
    void (*resume)(void *ctx, uint32_t item, uintptr_t stack_hi);
    /* the barrier is about to open: ended[i] != 0 when item i has ended, the others wait there */
    void (*release)(void *ctx, const uint8_t *ended, uint32_t n);
    void (*simd_fault)(void *ctx, const gp_fiber_simd_fault *f);
    /* true when `item` ended by reaching the end of the kernel (not by a return): at a SIMD-group
     * operation its group executed after that, it is a lane that skipped it (divergence) */
    bool (*fell_off)(void *ctx, uint32_t item);
    /* where `item` is (the site of the SIMD-group operation it just reached): lanes at different
     * sites are at different operations even when the operations are of one kind */
    uint32_t (*site)(void *ctx, uint32_t item);
} gp_fiber_observer;

/* Runs every work-item of group `g` (its barrier and simd fields are filled here) through
 * `item`, as fibers on this thread. GP_OK; GP_ERR_OUT_OF_MEMORY when fiber stacks cannot be
 * had; GP_ERR_LAUNCH with *simd_fault (may be NULL) set to the first GP_FIBER_SIMD_* fault (the
 * group ran to its end; its results are not valid). `obs` (may be NULL) watches. Sets no error
 * message. */
gp_status gp_fiber_run_group(gp_cpu_item_fn item, void *const *args, gp_cpu_group *g,
                             int *simd_fault, const gp_fiber_observer *obs);

/* "asm-x86_64", "asm-aarch64" or "ucontext": which switch this build uses. */
const char *gp_fiber_switch_kind(void);

#endif
