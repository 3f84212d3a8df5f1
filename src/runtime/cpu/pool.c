/* pool.c — see pool.h. Workers pull chunks from an atomic counter during a job; between jobs they
 * spin briefly (a launch that follows another finds them awake, as OpenMP's do) and then sleep on
 * a condition variable. The caller pulls chunks too, then waits for the stragglers. */
#include "runtime/cpu/pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#define GP_POOL_SPIN 20000 /* polls (~50-100 us) before a worker sleeps */

typedef struct gp_pool {
    uint32_t workers; /* threads besides the caller */
    pthread_mutex_t mu;
    pthread_cond_t wake;
    _Atomic uint64_t generation; /* bumped per job */
    _Atomic int sleepers;
    _Atomic uint32_t busy; /* workers still inside the current job */
    gp_pool_fn fn;
    void *ctx;
    uint64_t total, chunk;
    _Atomic uint64_t next;
    pthread_mutex_t run_lock; /* one job at a time */
} gp_pool;

static gp_pool gp_the_pool = {.mu = PTHREAD_MUTEX_INITIALIZER,
                              .wake = PTHREAD_COND_INITIALIZER,
                              .run_lock = PTHREAD_MUTEX_INITIALIZER};
static pthread_once_t gp_pool_once = PTHREAD_ONCE_INIT;

static inline void gp_pool_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void gp_pool_work(gp_pool *p)
{
    for (;;) {
        uint64_t b = atomic_fetch_add_explicit(&p->next, p->chunk, memory_order_relaxed);
        if (b >= p->total) return;
        uint64_t e = b + p->chunk < p->total ? b + p->chunk : p->total;
        p->fn(p->ctx, b, e);
    }
}

static void *gp_pool_main(void *arg)
{
    gp_pool *p = arg;
    uint64_t seen = 0;
    for (;;) {
        int spins = 0;
        while (atomic_load(&p->generation) == seen && spins < GP_POOL_SPIN) {
            gp_pool_pause();
            spins++;
        }
        if (atomic_load(&p->generation) == seen) {
            pthread_mutex_lock(&p->mu);
            atomic_fetch_add(&p->sleepers, 1);
            while (atomic_load(&p->generation) == seen)
                pthread_cond_wait(&p->wake, &p->mu);
            atomic_fetch_sub(&p->sleepers, 1);
            pthread_mutex_unlock(&p->mu);
        }
        seen = atomic_load(&p->generation);
        gp_pool_work(p);
        atomic_fetch_sub_explicit(&p->busy, 1, memory_order_release);
    }
    return NULL;
}

static uint32_t gp_pool_wanted(void)
{
    const char *v = getenv("GPUPORT_NUM_THREADS");
    if (v && *v) {
        char *end;
        long n = strtol(v, &end, 10);
        if (*end == '\0' && n >= 1 && n <= 1024) return (uint32_t)n;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n >= 1 && n <= 1024 ? (uint32_t)n : 1;
}

static void gp_pool_start(void)
{
    gp_pool *p = &gp_the_pool;
    uint32_t want = gp_pool_wanted();
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (uint32_t i = 1; i < want; i++) {
        pthread_t t;
        if (pthread_create(&t, &attr, gp_pool_main, p) != 0) break;
        p->workers++;
    }
    pthread_attr_destroy(&attr);
}

uint32_t gp_pool_threads(void)
{
    pthread_once(&gp_pool_once, gp_pool_start);
    return gp_the_pool.workers + 1;
}

void gp_pool_run(uint64_t total, gp_pool_fn fn, void *ctx)
{
    gp_pool *p = &gp_the_pool;
    uint32_t threads = gp_pool_threads();
    if (total == 0) return;
    if (threads == 1 || total == 1) { /* not worth waking anyone */
        fn(ctx, 0, total);
        return;
    }
    pthread_mutex_lock(&p->run_lock);
    p->fn = fn;
    p->ctx = ctx;
    p->total = total;
    /* ~8 chunks per thread balances uneven groups without contending on the counter */
    uint64_t chunk = total / ((uint64_t)threads * 8);
    p->chunk = chunk ? chunk : 1;
    atomic_store_explicit(&p->next, 0, memory_order_relaxed);
    atomic_store(&p->busy, p->workers);
    atomic_fetch_add(&p->generation, 1); /* publishes the job (sequentially consistent) */
    if (atomic_load(&p->sleepers) > 0) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->mu);
    }
    gp_pool_work(p);
    for (int spins = 0; atomic_load_explicit(&p->busy, memory_order_acquire) != 0; spins++) {
        if (spins < GP_POOL_SPIN)
            gp_pool_pause();
        else
            sched_yield();
    }
    pthread_mutex_unlock(&p->run_lock);
}
