/* interrupt.c — stopping CPU launches from a signal handler (Ctrl-C): gp_interrupt() bumps a
 * counter that the CPU backend reads before each work-group, and gp_interrupt_on_signal chains a
 * handler that calls it in front of the one installed before (Python's). */
#include <signal.h>
#include <stdatomic.h>

#include "runtime/core.h"

static atomic_uint gp_interrupts;

void gp_interrupt(void)
{
    atomic_fetch_add_explicit(&gp_interrupts, 1u, memory_order_relaxed);
}

unsigned gp_interrupt_count(void)
{
    return atomic_load_explicit(&gp_interrupts, memory_order_relaxed);
}

#if defined(_WIN32)
gp_status gp_interrupt_on_signal(int signo)
{
    return gp_error_set(GP_ERR_UNSUPPORTED, "gp_interrupt_on_signal(%d): POSIX only", signo);
}
#else
#define GP_MAX_SIGNAL 65
static struct sigaction gp_previous[GP_MAX_SIGNAL];

static void gp_interrupt_handler(int signo, siginfo_t *info, void *uc)
{
    gp_interrupt();
    const struct sigaction *p = &gp_previous[signo];
    if (p->sa_flags & SA_SIGINFO) {
        if (p->sa_sigaction) p->sa_sigaction(signo, info, uc);
    } else if (p->sa_handler != SIG_DFL && p->sa_handler != SIG_IGN && p->sa_handler) {
        p->sa_handler(signo);
    }
}

gp_status gp_interrupt_on_signal(int signo)
{
    if (signo <= 0 || signo >= GP_MAX_SIGNAL)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_interrupt_on_signal: signal %d", signo);
    struct sigaction now;
    if (sigaction(signo, NULL, &now) != 0)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_interrupt_on_signal: signal %d", signo);
    if ((now.sa_flags & SA_SIGINFO) && now.sa_sigaction == gp_interrupt_handler)
        return GP_OK; /* already in front */
    gp_previous[signo] = now;
    struct sigaction sa = now;
    sa.sa_sigaction = gp_interrupt_handler;
    sa.sa_flags = (now.sa_flags & ~SA_RESETHAND) | SA_SIGINFO;
    if (sigaction(signo, &sa, NULL) != 0)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_interrupt_on_signal: signal %d", signo);
    return GP_OK;
}
#endif
