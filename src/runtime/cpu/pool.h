/* pool.h — the CPU backend's thread pool: one per process, GPUPORT_NUM_THREADS threads in all
 * (default: the number of online cores), the calling thread being one of them. A job is a range
 * of work-group indices handed out in chunks; small jobs run on the caller alone. */
#ifndef GP_RUNTIME_CPU_POOL_H
#define GP_RUNTIME_CPU_POOL_H

#include <stdint.h>

/* Runs fn(ctx, begin, end) over [0, total) split into chunks, on the pool and the calling thread;
 * returns when all chunks are done. One job at a time (callers queue up). */
typedef void (*gp_pool_fn)(void *ctx, uint64_t begin, uint64_t end);
void gp_pool_run(uint64_t total, gp_pool_fn fn, void *ctx);
/* Threads in all (workers + the caller). */
uint32_t gp_pool_threads(void);

#endif
