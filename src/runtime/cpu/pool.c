/* pool.c — see pool.h. Workers pull chunks from an atomic counter during a job; between jobs they
 * spin briefly (a launch that follows another finds them awake, as OpenMP's do) and then sleep on
 * a condition variable. The caller pulls chunks too, then waits for the stragglers. */
#include "runtime/cpu/pool.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "util/compiler.h"
#include "util/sys.h"
#include "util/thread.h"

#define GP_POOL_SPIN 20000 /* polls (~50-100 us) before a worker sleeps */

/* Under AddressSanitizer the workers are stopped and joined at exit, before LeakSanitizer's
 * scan: the scan walks every live thread's dynamic TLS, and a worker's still lists the blocks of
 * kernel libraries dlclose'd since (their _Thread_local shared arrays), which the scan then reads
 * and crashes on ("Tracer caught signal 11") instead of reporting. Elsewhere they are detached
 * and end with the process. */
#define GP_POOL_JOIN_AT_EXIT GP_ASAN

/* The claim word packs the job's generation, its chunk count and the next chunk to take, so a
 * worker that wakes late can never take a chunk of a job that has already finished, and the
 * caller waits only for chunks that were taken, not for threads that never woke. */
#define GP_CLAIM_BITS 21
#define GP_CLAIM_MASK ((1ull << GP_CLAIM_BITS) - 1)
#define GP_MAX_CHUNKS GP_CLAIM_MASK

typedef struct gp_pool {
    uint32_t workers; /* threads besides the caller */
    gp_mutex mu;
    gp_cond wake;
    _Atomic uint64_t generation; /* bumped per job */
    _Atomic int sleepers;
    _Atomic uint64_t claim;    /* generation << 42 | chunks << 21 | next chunk */
    _Atomic uint64_t finished; /* chunks done in the current job */
    gp_pool_fn fn;
    void *ctx;
    uint64_t total, chunk;
    gp_mutex run_lock; /* one job at a time */
#if GP_POOL_JOIN_AT_EXIT
    _Atomic int quit;
    gp_thread threads[1024];
#endif
} gp_pool;

static gp_pool gp_the_pool = {.mu = GP_MUTEX_INIT, .wake = GP_COND_INIT, .run_lock = GP_MUTEX_INIT};
static gp_once gp_pool_once = GP_ONCE_INIT;

static inline void gp_pool_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Takes and runs chunks of whatever job is current until none is left. */
static void gp_pool_work(gp_pool *p)
{
    uint64_t v = atomic_load_explicit(&p->claim, memory_order_acquire);
    for (;;) {
        uint64_t next = v & GP_CLAIM_MASK, chunks = (v >> GP_CLAIM_BITS) & GP_CLAIM_MASK;
        if (next >= chunks) return;
        if (!atomic_compare_exchange_weak_explicit(&p->claim, &v, v + 1, memory_order_acquire,
                                                   memory_order_acquire))
            continue; /* v now holds the current word */
        uint64_t b = next * p->chunk, e = b + p->chunk < p->total ? b + p->chunk : p->total;
        p->fn(p->ctx, b, e);
        atomic_fetch_add_explicit(&p->finished, 1, memory_order_release);
        v = atomic_load_explicit(&p->claim, memory_order_acquire);
    }
}

static void *gp_pool_main(void *arg)
{
    gp_pool *p = arg;
    uint64_t seen = 0;
    for (;;) {
#if GP_POOL_JOIN_AT_EXIT
        if (atomic_load(&p->quit)) return NULL;
#endif
        int spins = 0;
        while (atomic_load(&p->generation) == seen && spins < GP_POOL_SPIN) {
            gp_pool_pause();
            spins++;
        }
        if (atomic_load(&p->generation) == seen) {
            gp_mutex_lock(&p->mu);
            atomic_fetch_add(&p->sleepers, 1);
            while (atomic_load(&p->generation) == seen) {
#if GP_POOL_JOIN_AT_EXIT
                if (atomic_load(&p->quit)) break;
#endif
                gp_cond_wait(&p->wake, &p->mu);
            }
            atomic_fetch_sub(&p->sleepers, 1);
            gp_mutex_unlock(&p->mu);
        }
        seen = atomic_load(&p->generation);
        gp_pool_work(p);
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
    unsigned n = gp_cpu_count();
    return n <= 1024 ? (uint32_t)n : 1;
}

#if GP_POOL_JOIN_AT_EXIT
static void gp_pool_stop(void)
{
    gp_pool *p = &gp_the_pool;
    gp_mutex_lock(&p->mu);
    atomic_store(&p->quit, 1);
    gp_cond_broadcast(&p->wake);
    gp_mutex_unlock(&p->mu);
    for (uint32_t i = 0; i < p->workers; i++)
        gp_thread_join(p->threads[i]);
}
#endif

static void gp_pool_start(void)
{
    gp_pool *p = &gp_the_pool;
    uint32_t want = gp_pool_wanted();
    for (uint32_t i = 1; i < want; i++) {
        gp_thread t;
        if (gp_thread_create(&t, gp_pool_main, p) != 0) break;
#if GP_POOL_JOIN_AT_EXIT
        p->threads[p->workers] = t;
#else
        gp_thread_detach(t);
#endif
        p->workers++;
    }
#if GP_POOL_JOIN_AT_EXIT
    atexit(gp_pool_stop); /* after the sanitizer's own: runs before its leak scan */
#endif
}

uint32_t gp_pool_threads(void)
{
    gp_once_call(&gp_pool_once, gp_pool_start);
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
    gp_mutex_lock(&p->run_lock);
    /* ~8 chunks per thread balances uneven groups without contending on the claim word */
    uint64_t chunk = total / ((uint64_t)threads * 8);
    if (chunk == 0) chunk = 1;
    uint64_t chunks = (total + chunk - 1) / chunk;
    if (chunks > GP_MAX_CHUNKS) {
        chunk = (total + GP_MAX_CHUNKS - 1) / GP_MAX_CHUNKS;
        chunks = (total + chunk - 1) / chunk;
    }
    p->fn = fn;
    p->ctx = ctx;
    p->total = total;
    p->chunk = chunk;
    atomic_store_explicit(&p->finished, 0, memory_order_relaxed);
    uint64_t gen = atomic_load(&p->generation) + 1;
    atomic_store_explicit(&p->claim, (gen << (2 * GP_CLAIM_BITS)) | (chunks << GP_CLAIM_BITS),
                          memory_order_release);
    atomic_store(&p->generation, gen); /* sequentially consistent: pairs with `sleepers` */
    if (atomic_load(&p->sleepers) > 0) {
        gp_mutex_lock(&p->mu);
        gp_cond_broadcast(&p->wake);
        gp_mutex_unlock(&p->mu);
    }
    gp_pool_work(p);
    for (int spins = 0; atomic_load_explicit(&p->finished, memory_order_acquire) != chunks;
         spins++) {
        if (spins < GP_POOL_SPIN)
            gp_pool_pause();
        else
            gp_thread_yield();
    }
    gp_mutex_unlock(&p->run_lock);
}
