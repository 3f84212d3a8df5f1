/* thread.h — threads, locks, one-time initialisation and thread-local keys, one API over
 * pthreads (thread_posix.c) and the Windows primitives (thread_win.c: SRW locks, condition
 * variables, InitOnceExecuteOnce, TLS slots). Locks, conditions and once-flags can be
 * initialised statically (GP_MUTEX_INIT, GP_COND_INIT, GP_ONCE_INIT) on both. */
#ifndef GP_UTIL_THREAD_H
#define GP_UTIL_THREAD_H

#include <stdbool.h>
#include <stdint.h>

#if defined(_WIN32)
/* the same size and layout as SRWLOCK, CONDITION_VARIABLE and INIT_ONCE (one pointer each), so
 * that this header needs no <windows.h>; thread_win.c checks it */
typedef struct gp_mutex {
    void *opaque_;
} gp_mutex;
typedef struct gp_cond {
    void *opaque_;
} gp_cond;
typedef struct gp_once {
    void *opaque_;
} gp_once;
#define GP_MUTEX_INIT                                                                              \
    {                                                                                              \
        0                                                                                          \
    }
#define GP_COND_INIT                                                                               \
    {                                                                                              \
        0                                                                                          \
    }
#define GP_ONCE_INIT                                                                               \
    {                                                                                              \
        0                                                                                          \
    }
typedef struct gp_thread_impl *gp_thread;
typedef unsigned long gp_tls_key;
#else
#include <pthread.h>
typedef pthread_mutex_t gp_mutex;
typedef pthread_cond_t gp_cond;
typedef pthread_once_t gp_once;
#define GP_MUTEX_INIT PTHREAD_MUTEX_INITIALIZER
#define GP_COND_INIT  PTHREAD_COND_INITIALIZER
#define GP_ONCE_INIT  PTHREAD_ONCE_INIT
typedef pthread_t gp_thread;
typedef pthread_key_t gp_tls_key;
#endif

/* Thread-local storage duration for a variable (C11's _Thread_local where the compiler has it). */
#if defined(_MSC_VER) && !defined(__clang__)
#define GP_THREAD_LOCAL __declspec(thread)
#else
#define GP_THREAD_LOCAL _Thread_local
#endif

void gp_mutex_init(gp_mutex *m);
void gp_mutex_destroy(gp_mutex *m);
void gp_mutex_lock(gp_mutex *m);
void gp_mutex_unlock(gp_mutex *m);

void gp_cond_init(gp_cond *c);
void gp_cond_destroy(gp_cond *c);
/* Releases `m`, waits for a signal, takes `m` again; may wake spuriously (loop on the condition).
 */
void gp_cond_wait(gp_cond *c, gp_mutex *m);
/* As gp_cond_wait, for at most `ms` milliseconds: false when the time ran out. */
bool gp_cond_wait_ms(gp_cond *c, gp_mutex *m, uint32_t ms);
void gp_cond_signal(gp_cond *c);
void gp_cond_broadcast(gp_cond *c);

/* Runs fn exactly once per flag, however many threads call; the others wait until it returned. */
void gp_once_call(gp_once *once, void (*fn)(void));

/* Starts fn(arg) on a new thread: 0, or an errno value (EAGAIN: no more threads). A thread is
 * either joined or detached, exactly once. */
int gp_thread_create(gp_thread *t, void *(*fn)(void *), void *arg);
void gp_thread_join(gp_thread t);
void gp_thread_detach(gp_thread t);

/* Lets another runnable thread have the processor. */
void gp_thread_yield(void);

/* A key whose value is per thread; `dtor` (may be NULL) runs on a thread's non-NULL value when
 * that thread ends. The value is the thread's, not a fiber's, on both. 0 or an errno value. */
int gp_tls_create(gp_tls_key *key, void (*dtor)(void *));
void *gp_tls_get(gp_tls_key key);
int gp_tls_set(gp_tls_key key, void *value);

#endif
