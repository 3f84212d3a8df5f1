/* thread_posix.c — see thread.h: the pthreads side. */
#if !defined(_WIN32)
#include "util/thread.h"

#include <errno.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

void gp_mutex_init(gp_mutex *m)
{
    pthread_mutex_init(m, NULL);
}
void gp_mutex_destroy(gp_mutex *m)
{
    pthread_mutex_destroy(m);
}
void gp_mutex_lock(gp_mutex *m)
{
    pthread_mutex_lock(m);
}
void gp_mutex_unlock(gp_mutex *m)
{
    pthread_mutex_unlock(m);
}

void gp_cond_init(gp_cond *c)
{
    pthread_cond_init(c, NULL);
}
void gp_cond_destroy(gp_cond *c)
{
    pthread_cond_destroy(c);
}
void gp_cond_wait(gp_cond *c, gp_mutex *m)
{
    pthread_cond_wait(c, m);
}
bool gp_cond_wait_ms(gp_cond *c, gp_mutex *m, uint32_t ms)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return pthread_cond_timedwait(c, m, &t) != ETIMEDOUT;
}
void gp_cond_signal(gp_cond *c)
{
    pthread_cond_signal(c);
}
void gp_cond_broadcast(gp_cond *c)
{
    pthread_cond_broadcast(c);
}

void gp_once_call(gp_once *once, void (*fn)(void))
{
    pthread_once(once, fn);
}

int gp_thread_create(gp_thread *t, void *(*fn)(void *), void *arg)
{
    return pthread_create(t, NULL, fn, arg);
}

void gp_thread_join(gp_thread t)
{
    pthread_join(t, NULL);
}
void gp_thread_detach(gp_thread t)
{
    pthread_detach(t);
}

void gp_thread_yield(void)
{
    sched_yield();
}

int gp_tls_create(gp_tls_key *key, void (*dtor)(void *))
{
    return pthread_key_create(key, dtor);
}
void *gp_tls_get(gp_tls_key key)
{
    return pthread_getspecific(key);
}
int gp_tls_set(gp_tls_key key, void *value)
{
    return pthread_setspecific(key, value);
}

#endif
