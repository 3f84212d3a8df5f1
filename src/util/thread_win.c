/* thread_win.c — see thread.h: the Windows side. Keys are TLS slots (per thread, shared by the
 * fibers of a thread, as pthread keys are); their destructors run from a TLS callback when a
 * thread ends, since TLS slots have none of their own. */
#if defined(_WIN32)
#include "util/thread.h"

#include <errno.h>
#include <process.h>
#include <stdlib.h>
#include <windows.h>

_Static_assert(sizeof(gp_mutex) == sizeof(SRWLOCK), "gp_mutex is an SRWLOCK");
_Static_assert(sizeof(gp_cond) == sizeof(CONDITION_VARIABLE), "gp_cond is a CONDITION_VARIABLE");
_Static_assert(sizeof(gp_once) == sizeof(INIT_ONCE), "gp_once is an INIT_ONCE");

void gp_mutex_init(gp_mutex *m)
{
    InitializeSRWLock((PSRWLOCK)m);
}
void gp_mutex_destroy(gp_mutex *m)
{
    (void)m;
}
void gp_mutex_lock(gp_mutex *m)
{
    AcquireSRWLockExclusive((PSRWLOCK)m);
}
void gp_mutex_unlock(gp_mutex *m)
{
    ReleaseSRWLockExclusive((PSRWLOCK)m);
}

void gp_cond_init(gp_cond *c)
{
    InitializeConditionVariable((PCONDITION_VARIABLE)c);
}
void gp_cond_destroy(gp_cond *c)
{
    (void)c;
}

void gp_cond_wait(gp_cond *c, gp_mutex *m)
{
    SleepConditionVariableSRW((PCONDITION_VARIABLE)c, (PSRWLOCK)m, INFINITE, 0);
}

bool gp_cond_wait_ms(gp_cond *c, gp_mutex *m, uint32_t ms)
{
    return SleepConditionVariableSRW((PCONDITION_VARIABLE)c, (PSRWLOCK)m, ms, 0) != 0;
}
void gp_cond_signal(gp_cond *c)
{
    WakeConditionVariable((PCONDITION_VARIABLE)c);
}
void gp_cond_broadcast(gp_cond *c)
{
    WakeAllConditionVariable((PCONDITION_VARIABLE)c);
}

typedef struct gp_once_fn {
    void (*fn)(void);
} gp_once_fn;

static BOOL CALLBACK gp_once_trampoline(PINIT_ONCE once, PVOID param, PVOID *ctx)
{
    (void)once;
    (void)ctx;
    ((gp_once_fn *)param)->fn();
    return TRUE;
}

void gp_once_call(gp_once *once, void (*fn)(void))
{
    gp_once_fn f = {fn};
    InitOnceExecuteOnce((PINIT_ONCE)once, gp_once_trampoline, &f, NULL);
}

/* held by the thread (until it has read fn and arg) and by the creator (until join or detach) */
struct gp_thread_impl {
    HANDLE handle;
    void *(*fn)(void *);
    void *arg;
    volatile LONG refs;
};

static void gp_thread_release(struct gp_thread_impl *t)
{
    if (InterlockedDecrement(&t->refs) == 0) free(t);
}

static unsigned __stdcall gp_thread_start(void *p)
{
    struct gp_thread_impl *t = p;
    void *(*fn)(void *) = t->fn;
    void *arg = t->arg;
    gp_thread_release(t);
    fn(arg);
    return 0;
}

int gp_thread_create(gp_thread *out, void *(*fn)(void *), void *arg)
{
    struct gp_thread_impl *t = calloc(1, sizeof *t);
    if (!t) return ENOMEM;
    t->fn = fn;
    t->arg = arg;
    t->refs = 2;
    uintptr_t h = _beginthreadex(NULL, 0, gp_thread_start, t, 0, NULL);
    if (!h) {
        free(t);
        return EAGAIN;
    }
    t->handle = (HANDLE)h;
    *out = t;
    return 0;
}

void gp_thread_join(gp_thread t)
{
    WaitForSingleObject(t->handle, INFINITE);
    CloseHandle(t->handle);
    gp_thread_release(t);
}

void gp_thread_yield(void)
{
    SwitchToThread();
}

void gp_thread_detach(gp_thread t)
{
    CloseHandle(t->handle);
    gp_thread_release(t);
}

/* ---- keys ---------------------------------------------------------------------------------- */

#define GP_TLS_MAX 64
static struct {
    SRWLOCK lock;
    DWORD slots[GP_TLS_MAX];
    void (*dtors[GP_TLS_MAX])(void *);
    int n;
} gp_tls_table = {SRWLOCK_INIT, {0}, {0}, 0};

int gp_tls_create(gp_tls_key *key, void (*dtor)(void *))
{
    DWORD slot = TlsAlloc();
    if (slot == TLS_OUT_OF_INDEXES) return EAGAIN;
    if (dtor) {
        AcquireSRWLockExclusive(&gp_tls_table.lock);
        if (gp_tls_table.n == GP_TLS_MAX) {
            ReleaseSRWLockExclusive(&gp_tls_table.lock);
            TlsFree(slot);
            return EAGAIN;
        }
        gp_tls_table.slots[gp_tls_table.n] = slot;
        gp_tls_table.dtors[gp_tls_table.n] = dtor;
        gp_tls_table.n++;
        ReleaseSRWLockExclusive(&gp_tls_table.lock);
    }
    *key = slot;
    return 0;
}

void *gp_tls_get(gp_tls_key key)
{
    return TlsGetValue(key);
}
int gp_tls_set(gp_tls_key key, void *value)
{
    return TlsSetValue(key, value) ? 0 : EINVAL;
}

/* Runs the destructors of the ending thread's values, as pthreads does (a destructor may set a
 * value again: a few rounds, like PTHREAD_DESTRUCTOR_ITERATIONS). */
static void NTAPI gp_tls_thread_end(PVOID module, DWORD reason, PVOID reserved)
{
    (void)module;
    (void)reserved;
    if (reason != DLL_THREAD_DETACH && reason != DLL_PROCESS_DETACH) return;
    for (int round = 0; round < 4; round++) {
        bool any = false;
        AcquireSRWLockShared(&gp_tls_table.lock);
        int n = gp_tls_table.n;
        ReleaseSRWLockShared(&gp_tls_table.lock);
        for (int i = 0; i < n; i++) {
            void *v = TlsGetValue(gp_tls_table.slots[i]);
            if (!v) continue;
            TlsSetValue(gp_tls_table.slots[i], NULL);
            gp_tls_table.dtors[i](v);
            any = true;
        }
        if (!any) break;
    }
}

/* the loader calls every pointer in the .CRT$XL? sections at thread and process detach */
#if defined(_MSC_VER)
#pragma comment(linker, "/INCLUDE:_tls_used")
#pragma comment(linker, "/INCLUDE:gp_tls_callback")
#pragma section(".CRT$XLG", read)
__declspec(allocate(".CRT$XLG")) const PIMAGE_TLS_CALLBACK gp_tls_callback = gp_tls_thread_end;
#else
extern const PIMAGE_TLS_CALLBACK gp_tls_callback;
__attribute__((section(".CRT$XLG"), used)) const PIMAGE_TLS_CALLBACK gp_tls_callback =
    gp_tls_thread_end;
#endif

#endif
