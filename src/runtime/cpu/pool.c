/* pool.c — see pool.h. Workers sleep on a condition variable between jobs and pull chunks from an
 * atomic counter during one; the caller pulls chunks too, then waits for the stragglers. */
#include "runtime/cpu/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct gp_pool {
    uint32_t workers; /* threads besides the caller */
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    uint64_t generation;
    uint32_t busy; /* workers still inside the current job */
    gp_pool_fn fn;
    void *ctx;
    uint64_t total, chunk;
    _Atomic uint64_t next;
    pthread_mutex_t run_lock; /* one job at a time */
} gp_pool;

static gp_pool gp_the_pool = {.mu = PTHREAD_MUTEX_INITIALIZER,
                              .wake = PTHREAD_COND_INITIALIZER,
                              .done = PTHREAD_COND_INITIALIZER,
                              .run_lock = PTHREAD_MUTEX_INITIALIZER};
static pthread_once_t gp_pool_once = PTHREAD_ONCE_INIT;

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
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->generation == seen)
            pthread_cond_wait(&p->wake, &p->mu);
        seen = p->generation;
        pthread_mutex_unlock(&p->mu);
        gp_pool_work(p);
        pthread_mutex_lock(&p->mu);
        if (--p->busy == 0) pthread_cond_signal(&p->done);
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
    pthread_mutex_lock(&p->mu);
    p->busy = p->workers;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    gp_pool_work(p);
    pthread_mutex_lock(&p->mu);
    while (p->busy)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    pthread_mutex_unlock(&p->run_lock);
}
