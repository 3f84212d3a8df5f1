/* cpu.h — the pieces of the CPU backend shared between its files. */
#ifndef GP_RUNTIME_CPU_CPU_H
#define GP_RUNTIME_CPU_CPU_H

#include "runtime/backend.h"

#define GP_CPU_MAX_GROUP  1024                  /* fibers one thread keeps for one group */
#define GP_CPU_MAX_SHARED ((uint64_t)256 << 10) /* bytes of dynamic shared memory per group */

gp_status gp_cpu_device_info(uint32_t index, gp_device_info *info);
gp_status gp_cpu_program_build(gp_program *prog, const gp_build_request *req);
void gp_cpu_program_release(gp_program *prog);
gp_status gp_cpu_kernel_create(gp_kernel *k);
void gp_cpu_kernel_release(gp_kernel *k);
gp_status gp_cpu_kernel_launch(gp_queue *q, gp_kernel *k, const gp_launch *l);
/* The group of linear index i (x fastest) of launch l: g's group_id and base. */
void gp_cpu_group_at(gp_cpu_group *g, const gp_launch *l, uint64_t i);

#endif
