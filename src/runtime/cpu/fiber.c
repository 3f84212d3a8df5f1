/* fiber.c — see fiber.h. A thread keeps its fibers' stacks (mmap'd, with a guard page, grown on
 * demand; Windows: its fibers) for its lifetime, so a launch allocates nothing after the first. The scheduler runs the
 * fibers round-robin: one round moves every unfinished fiber to its next barrier. */
#include "runtime/cpu/fiber.h"

#include <stdlib.h>
#include <string.h>
#if !defined(_WIN32)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "util/compiler.h"
#include "util/thread.h"

#if GP_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

/* GP_FIBER_FORCE_UCONTEXT (a build define) selects the portable path anywhere, to test it. */
#if defined(_WIN32)
/* Windows: the system's fibers (CreateFiberEx, SwitchToFiber), which also keep the thread's
 * stack limits and exception chain right for each fiber */
#define GP_FIBER_WINAPI 1
#include <windows.h>
#elif defined(__x86_64__) && !defined(GP_FIBER_FORCE_UCONTEXT)
#define GP_FIBER_ASM_X86_64 1
#elif defined(__aarch64__) && !defined(GP_FIBER_FORCE_UCONTEXT)
#define GP_FIBER_ASM_AARCH64 1
#else
#define GP_FIBER_UCONTEXT 1
#include <ucontext.h>
#endif

#define GP_FIBER_STACK ((size_t)256 << 10)

/* ---- the switch ------------------------------------------------------------------------ */
#if defined(__APPLE__)
#define GP_ASM_SYM(s) "_" #s
#else
#define GP_ASM_SYM(s) #s
#endif

#if GP_FIBER_ASM_X86_64 || GP_FIBER_ASM_AARCH64
/* Saves the callee-saved state on the current stack, stores the stack pointer in *from, loads
 * `to` and restores the state saved there. A new fiber's stack is prepared to "return" into
 * gp_fiber_boot with its entry and argument in callee-saved registers. */
void gp_fiber_switch(void **from, void *to);
void gp_fiber_boot(void);
#endif

#if GP_FIBER_ASM_X86_64
__asm__(
    ".text\n"
    ".globl " GP_ASM_SYM(gp_fiber_switch) "\n"
#if !defined(__APPLE__)
                                          ".hidden " GP_ASM_SYM(
                                              gp_fiber_switch) "\n"
                                                               ".type " GP_ASM_SYM(
                                                                   gp_fiber_switch) ",@function\n"
#endif
    GP_ASM_SYM(gp_fiber_switch) ":\n"
                                "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq "
                                "%r14\n  pushq %r15\n"
                                "  subq $8, %rsp\n  stmxcsr (%rsp)\n  fnstcw 4(%rsp)\n"
                                "  movq %rsp, (%rdi)\n  movq %rsi, %rsp\n"
                                "  ldmxcsr (%rsp)\n  fldcw 4(%rsp)\n  addq $8, %rsp\n"
                                "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n "
                                " popq %rbp\n"
                                "  ret\n"
                                ".globl " GP_ASM_SYM(gp_fiber_boot) "\n"
#if !defined(__APPLE__)
                                                                    ".hidden " GP_ASM_SYM(
                                                                        gp_fiber_boot) "\n"
#endif
    GP_ASM_SYM(gp_fiber_boot) ":\n"
                              "  movq %r12, %rdi\n  callq *%r13\n  ud2\n");

/* Frame popped by gp_fiber_switch: csr word, r15, r14, r13, r12, rbx, rbp, return address. */
static void *gp_fiber_prepare(void *stack_top, void (*fn)(void *), void *arg)
{
    uint64_t *sp = (uint64_t *)stack_top - 8; /* stack_top is 16-aligned; 64-byte frame */
    sp[0] = 0x037f00001f80ull;                /* mxcsr 0x1f80, x87 control word 0x037f */
    sp[1] = 0;                                /* r15 */
    sp[2] = 0;                                /* r14 */
    sp[3] = (uint64_t)(uintptr_t)fn;          /* r13 */
    sp[4] = (uint64_t)(uintptr_t)arg;         /* r12 */
    sp[5] = 0;                                /* rbx */
    sp[6] = 0;                                /* rbp */
    sp[7] = (uint64_t)(uintptr_t)gp_fiber_boot;
    return sp;
}
#endif

#if GP_FIBER_ASM_AARCH64
__asm__(
    ".text\n"
    ".globl " GP_ASM_SYM(
        gp_fiber_switch) "\n"
#if !defined(__APPLE__)
                         ".hidden " GP_ASM_SYM(
                             gp_fiber_switch) "\n"
                                              ".type " GP_ASM_SYM(
                                                  gp_fiber_switch) ",%function\n"
#endif
                                                                   ".p2align 2\n" GP_ASM_SYM(
                                                                       gp_fiber_switch) ":\n"
                                                                                        "  sub sp, "
                                                                                        "sp, #176\n"
                                                                                        "  stp "
                                                                                        "x19, x20, "
                                                                                        "[sp, "
                                                                                        "#0]\n  "
                                                                                        "stp x21, "
                                                                                        "x22, [sp, "
                                                                                        "#16]\n  "
                                                                                        "stp x23, "
                                                                                        "x24, [sp, "
                                                                                        "#32]\n"
                                                                                        "  stp "
                                                                                        "x25, x26, "
                                                                                        "[sp, "
                                                                                        "#48]\n  "
                                                                                        "stp x27, "
                                                                                        "x28, [sp, "
                                                                                        "#64]\n  "
                                                                                        "stp x29, "
                                                                                        "x30, [sp, "
                                                                                        "#80]\n"
                                                                                        "  stp d8, "
                                                                                        "d9, [sp, "
                                                                                        "#96]\n  "
                                                                                        "stp d10, "
                                                                                        "d11, [sp, "
                                                                                        "#112]\n  "
                                                                                        "stp d12, "
                                                                                        "d13, [sp, "
                                                                                        "#128]\n"
                                                                                        "  stp "
                                                                                        "d14, d15, "
                                                                                        "[sp, "
                                                                                        "#144]\n"
                                                                                        "  mov x2, "
                                                                                        "sp\n  str "
                                                                                        "x2, "
                                                                                        "[x0]\n  "
                                                                                        "mov sp, "
                                                                                        "x1\n"
                                                                                        "  ldp "
                                                                                        "x19, x20, "
                                                                                        "[sp, "
                                                                                        "#0]\n  "
                                                                                        "ldp x21, "
                                                                                        "x22, [sp, "
                                                                                        "#16]\n  "
                                                                                        "ldp x23, "
                                                                                        "x24, [sp, "
                                                                                        "#32]\n"
                                                                                        "  ldp "
                                                                                        "x25, x26, "
                                                                                        "[sp, "
                                                                                        "#48]\n  "
                                                                                        "ldp x27, "
                                                                                        "x28, [sp, "
                                                                                        "#64]\n  "
                                                                                        "ldp x29, "
                                                                                        "x30, [sp, "
                                                                                        "#80]\n"
                                                                                        "  ldp d8, "
                                                                                        "d9, [sp, "
                                                                                        "#96]\n  "
                                                                                        "ldp d10, "
                                                                                        "d11, [sp, "
                                                                                        "#112]\n  "
                                                                                        "ldp d12, "
                                                                                        "d13, [sp, "
                                                                                        "#128]\n"
                                                                                        "  ldp "
                                                                                        "d14, d15, "
                                                                                        "[sp, "
                                                                                        "#144]\n"
                                                                                        "  add sp, "
                                                                                        "sp, "
                                                                                        "#176\n  "
                                                                                        "ret\n"
                                                                                        ".globl"
                                                                                        " " GP_ASM_SYM(
                                                                                            gp_fiber_boot) "\n"
#if !defined(__APPLE__)
                                                                                                           ".hidden " GP_ASM_SYM(
                                                                                                               gp_fiber_boot) "\n"
#endif
                                                                                                                              ".p2align 2\n" GP_ASM_SYM(
                                                                                                                                  gp_fiber_boot) ":\n"
                                                                                                                                                 "  mov x0, x19\n  blr x20\n  brk #0\n");

/* Frame popped by gp_fiber_switch: x19..x30 then d8..d15; x30 (the return) = gp_fiber_boot. */
static void *gp_fiber_prepare(void *stack_top, void (*fn)(void *), void *arg)
{
    uint64_t *sp = (uint64_t *)stack_top - 22; /* 176 bytes */
    memset(sp, 0, 176);
    sp[0] = (uint64_t)(uintptr_t)arg;            /* x19 */
    sp[1] = (uint64_t)(uintptr_t)fn;             /* x20 */
    sp[11] = (uint64_t)(uintptr_t)gp_fiber_boot; /* x30 */
    return sp;
}
#endif

const char *gp_fiber_switch_kind(void)
{
#if GP_FIBER_WINAPI
    return "windows-fibers";
#elif GP_FIBER_ASM_X86_64
    return "asm-x86_64";
#elif GP_FIBER_ASM_AARCH64
    return "asm-aarch64";
#else
    return "ucontext";
#endif
}

/* ---- per-thread fiber sets ------------------------------------------------------------- */
enum { GP_FIBER_READY, GP_FIBER_AT_BARRIER, GP_FIBER_AT_SIMD };

typedef struct gp_fiber {
    void *stack; /* mapping base (guard page first) */
    size_t map_size;
#if GP_FIBER_UCONTEXT
    ucontext_t uc;
#elif GP_FIBER_WINAPI
    void *fiber;
#else
    void *sp;
#endif
    uint32_t lx, ly, lz;
    int done;
    int wait;             /* where it yielded: GP_FIBER_AT_BARRIER or GP_FIBER_AT_SIMD */
    uint32_t simd_seq;    /* SIMD-group operations this work-item has reached */
    uint32_t simd_val[2]; /* its value at the last two, by parity */
    uint32_t simd_op[2];  /* which operation (op, and the observer's site) */
    uint32_t simd_site[2];
#if GP_ASAN
    void *fake_stack;
#endif
} gp_fiber;

typedef struct gp_fiber_set {
    gp_fiber *fibers;
    uint32_t cap, count, current;
#if GP_FIBER_UCONTEXT
    ucontext_t sched;
#elif GP_FIBER_WINAPI
    void *sched;
#else
    void *sched_sp;
#endif
    gp_cpu_item_fn item;
    void *const *args;
    const gp_cpu_group *g;
    int simd_fault; /* GP_FIBER_SIMD_*: the first fault of a SIMD-group operation, or 0 */
    const gp_fiber_observer *obs;
#if GP_ASAN
    const void *sched_bottom;
    size_t sched_size;
#endif
} gp_fiber_set;

static gp_tls_key gp_fiber_key;
static gp_once gp_fiber_key_once = GP_ONCE_INIT;

static void gp_fiber_set_free(void *p)
{
    gp_fiber_set *s = p;
    if (!s) return;
    for (uint32_t i = 0; i < s->cap; i++) {
#if GP_FIBER_WINAPI
        if (s->fibers[i].fiber) DeleteFiber(s->fibers[i].fiber);
#else
        if (s->fibers[i].stack) munmap(s->fibers[i].stack, s->fibers[i].map_size);
#endif
    }
    free(s->fibers);
    free(s);
}

static void gp_fiber_key_make(void)
{
    gp_tls_create(&gp_fiber_key, gp_fiber_set_free);
}

#if GP_FIBER_WINAPI
static VOID CALLBACK gp_fiber_win_main(PVOID arg);
#endif

static gp_fiber_set *gp_fiber_set_get(uint32_t need)
{
    gp_once_call(&gp_fiber_key_once, gp_fiber_key_make);
    gp_fiber_set *s = gp_tls_get(gp_fiber_key);
    if (!s) {
        s = calloc(1, sizeof *s);
        if (!s || gp_tls_set(gp_fiber_key, s) != 0) {
            free(s);
            return NULL;
        }
    }
    if (need > s->cap) {
        gp_fiber *f = realloc(s->fibers, need * sizeof *f);
        if (!f) return NULL;
        memset(f + s->cap, 0, (need - s->cap) * sizeof *f);
        s->fibers = f;
#if GP_FIBER_WINAPI
        for (uint32_t i = s->cap; i < need; i++) {
            /* a guard page below each stack comes with it, as for threads */
            f[i].fiber = CreateFiberEx(64 << 10, GP_FIBER_STACK, FIBER_FLAG_FLOAT_SWITCH,
                                       gp_fiber_win_main, s);
            if (!f[i].fiber) {
                s->cap = i;
                return NULL;
            }
        }
#else
        long page = sysconf(_SC_PAGESIZE);
        for (uint32_t i = s->cap; i < need; i++) {
            size_t sz = GP_FIBER_STACK + (size_t)page;
            void *m = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (m == MAP_FAILED) {
                s->cap = i;
                return NULL;
            }
            mprotect(m, (size_t)page, PROT_NONE); /* overflowing a fiber's stack faults */
            f[i].stack = m;
            f[i].map_size = sz;
        }
#endif
        s->cap = need;
    }
    return s;
}

static void gp_fiber_to_sched(gp_fiber_set *s, gp_fiber *f, int finished);

static void gp_fiber_main(void *arg)
{
    gp_fiber_set *s = arg;
#if GP_ASAN
    __sanitizer_finish_switch_fiber(NULL, &s->sched_bottom, &s->sched_size);
#endif
    gp_fiber *f = &s->fibers[s->current];
    s->item(s->args, s->g, f->lx, f->ly, f->lz);
    gp_fiber_to_sched(s, f, 1);
}

#if GP_FIBER_WINAPI
/* A Windows fiber runs its routine once: it loops, running the work-item it is given each time
 * the scheduler switches to it. */
static VOID CALLBACK gp_fiber_win_main(PVOID arg)
{
    for (;;)
        gp_fiber_main(arg);
}
#endif

#if GP_FIBER_UCONTEXT
static void gp_fiber_main_uc(unsigned hi, unsigned lo)
{
    gp_fiber_main((void *)(((uintptr_t)hi << 16 << 16) | (uintptr_t)lo));
}
#endif

static void gp_fiber_to_sched(gp_fiber_set *s, gp_fiber *f, int finished)
{
    f->done = finished;
#if GP_ASAN
    __sanitizer_start_switch_fiber(finished ? NULL : &f->fake_stack, s->sched_bottom,
                                   s->sched_size);
#endif
#if GP_FIBER_UCONTEXT
    swapcontext(&f->uc, &s->sched);
#elif GP_FIBER_WINAPI
    SwitchToFiber(s->sched);
#else
    gp_fiber_switch(&f->sp, s->sched_sp);
#endif
#if GP_ASAN
    __sanitizer_finish_switch_fiber(f->fake_stack, &s->sched_bottom, &s->sched_size);
#endif
}

static void gp_fiber_barrier(void *ctx)
{
    gp_fiber_set *s = ctx;
    s->fibers[s->current].wait = GP_FIBER_AT_BARRIER;
    gp_fiber_to_sched(s, &s->fibers[s->current], 0);
}

/* A SIMD-group operation: the work-item publishes its value in the slot of this operation's
 * parity and yields. When it runs again, every lane of its group has had its turn in the round
 * and, if all reached this same operation, published too: the lanes before it in the round have
 * since read and may be one operation further (the other slot), the lanes after it are still
 * here. A lane that has returned takes no part (votes leave it out, as CUDA and Metal leave out
 * exited threads), but reading its value is a fault: GPUs give an undefined value. A lane
 * anywhere else (at a barrier, at an earlier operation) is divergence, also a fault. */
static uint32_t gp_fiber_simd(void *ctx, uint32_t op, uint32_t value, uint32_t arg)
{
    gp_fiber_set *s = ctx;
    uint32_t me = s->current;
    gp_fiber *f = &s->fibers[me];
    uint32_t seq = ++f->simd_seq, par = seq & 1u;
    f->simd_val[par] = value;
    f->simd_op[par] = op;
    f->simd_site[par] = s->obs && s->obs->site ? s->obs->site(s->obs->ctx, me) : 0;
    f->wait = GP_FIBER_AT_SIMD;
    gp_fiber_to_sched(s, f, 0);
    uint32_t first = me - me % GP_CPU_SIMD_WIDTH, lane = me - first;
    uint32_t lanes = s->count - first < GP_CPU_SIMD_WIDTH ? s->count - first : GP_CPU_SIMD_WIDTH;
    const gp_fiber *grp = &s->fibers[first];
    uint32_t present = 0; /* bit l: lane l took part in this operation */
    uint32_t ended = 0;
    int fault = 0;
    const gp_fiber_observer *obs = s->obs;
    for (uint32_t l = 0; l < lanes; l++) {
        uint32_t q = grp[l].simd_seq;
        if (grp[l].done) ended |= 1u << l;
        if (q == seq || (l < lane && q == seq + 1)) {
            present |= 1u << l;
            /* at the same count of operations, but another one: a branch split the group */
            if (grp[l].simd_op[par] != op || grp[l].simd_site[par] != f->simd_site[par])
                fault = GP_FIBER_SIMD_DIVERGED;
        } else if (!(grp[l].done && q < seq))
            fault = GP_FIBER_SIMD_DIVERGED;
        else if (obs && obs->fell_off && obs->fell_off(obs->ctx, first + l))
            fault = GP_FIBER_SIMD_DIVERGED; /* it ran past this operation to the end */
    }
    if (fault) {
        if (!s->simd_fault) s->simd_fault = fault;
        if (obs && obs->simd_fault) {
            gp_fiber_simd_fault sf = {me, fault, first, lanes, present, ended, 0};
            obs->simd_fault(obs->ctx, &sf);
        }
    }
    uint32_t src = lane, mask = 0;
    arg &= GP_CPU_SIMD_WIDTH - 1;
    switch (op) {
    case GP_CPU_SIMD_SHUFFLE:
        src = arg;
        break;
    case GP_CPU_SIMD_XOR:
        src = lane ^ arg;
        break;
    case GP_CPU_SIMD_UP:
        src = arg <= lane ? lane - arg : lane;
        break;
    case GP_CPU_SIMD_DOWN:
        src = lane + arg < lanes ? lane + arg : lane;
        break;
    case GP_CPU_SIMD_BALLOT:
    case GP_CPU_SIMD_ANY:
    case GP_CPU_SIMD_ALL:
        for (uint32_t l = 0; l < lanes; l++)
            if ((present >> l & 1u) && grp[l].simd_val[par]) mask |= 1u << l;
        if (op == GP_CPU_SIMD_BALLOT) return mask;
        if (op == GP_CPU_SIMD_ANY) return mask != 0;
        return mask == present;
    case GP_CPU_SIMD_BARRIER: /* meeting was the point */
    default:
        return value;
    }
    if (src >= lanes || !(present >> src & 1u)) {
        if (!s->simd_fault) s->simd_fault = GP_FIBER_SIMD_READ_EXITED;
        if (obs && obs->simd_fault && !fault) {
            gp_fiber_simd_fault sf = {me, GP_FIBER_SIMD_READ_EXITED, first, lanes, present, ended,
                                      src};
            obs->simd_fault(obs->ctx, &sf);
        }
        return value;
    }
    return grp[src].simd_val[par];
}

static void gp_fiber_resume(gp_fiber_set *s, uint32_t i)
{
    gp_fiber *f = &s->fibers[i];
    s->current = i;
    if (s->obs && s->obs->resume) s->obs->resume(s->obs->ctx, i, (uintptr_t)f->stack + f->map_size);
#if GP_ASAN
    long page = sysconf(_SC_PAGESIZE);
    void *fake = NULL;
    __sanitizer_start_switch_fiber(&fake, (char *)f->stack + page, f->map_size - (size_t)page);
#endif
#if GP_FIBER_UCONTEXT
    swapcontext(&s->sched, &f->uc);
#elif GP_FIBER_WINAPI
    SwitchToFiber(f->fiber);
#else
    gp_fiber_switch(&s->sched_sp, f->sp);
#endif
#if GP_ASAN
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
}

gp_status gp_fiber_run_group(gp_cpu_item_fn item, void *const *args, gp_cpu_group *g,
                             int *simd_fault, const gp_fiber_observer *obs)
{
    uint32_t n = g->local_size[0] * g->local_size[1] * g->local_size[2];
    gp_fiber_set *s = gp_fiber_set_get(n);
    if (!s) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "cannot allocate stacks for %u fibers", n);
    s->item = item;
    s->args = args;
    s->g = g;
    s->count = n;
    s->simd_fault = 0;
    s->obs = obs;
    g->barrier = gp_fiber_barrier;
    g->barrier_ctx = s;
    g->simd = gp_fiber_simd;
    long page = sysconf(_SC_PAGESIZE);
    for (uint32_t i = 0; i < n; i++) {
        gp_fiber *f = &s->fibers[i];
        f->lx = i % g->local_size[0];
        f->ly = (i / g->local_size[0]) % g->local_size[1];
        f->lz = i / (g->local_size[0] * g->local_size[1]);
        f->done = 0;
        f->wait = GP_FIBER_READY;
        f->simd_seq = 0;
        char *top = (char *)f->stack + f->map_size;
#if GP_FIBER_UCONTEXT
        getcontext(&f->uc);
        f->uc.uc_stack.ss_sp = (char *)f->stack + page;
        f->uc.uc_stack.ss_size = f->map_size - (size_t)page;
        f->uc.uc_link = NULL;
        uintptr_t p = (uintptr_t)s;
        makecontext(&f->uc, (void (*)(void))gp_fiber_main_uc, 2, (unsigned)(p >> 16 >> 16),
                    (unsigned)(p & 0xffffffffu));
        (void)top;
#elif GP_FIBER_WINAPI
        (void)top;
        (void)page;
#else
        (void)page;
        f->sp = gp_fiber_prepare((void *)((uintptr_t)top & ~(uintptr_t)15), gp_fiber_main, s);
#endif
    }
#if GP_FIBER_WINAPI
    /* the scheduler is this thread as a fiber (it may be one already: then it is left one) */
    bool converted = !IsThreadAFiber();
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
/* GCC 12 misreads the TEB access inside MinGW's GetCurrentFiber as out of bounds */
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif
    s->sched = converted ? ConvertThreadToFiber(NULL) : GetCurrentFiber();
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
    if (!s->sched) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "cannot make this thread a fiber");
#endif
    /* Rounds: every fiber that is not waiting at the barrier runs to its next barrier, SIMD-group
     * operation or end. A fiber at a SIMD-group operation runs on in the next round (its group
     * has published by then); the barrier opens once no fiber is left anywhere else. A fiber
     * that ended counts as having reached every later barrier, as on GPUs. */
    for (;;) {
        for (uint32_t i = 0; i < n; i++) {
            gp_fiber *f = &s->fibers[i];
            if (f->done || f->wait == GP_FIBER_AT_BARRIER) continue;
            f->wait = GP_FIBER_READY;
            gp_fiber_resume(s, i);
        }
        uint32_t at_simd = 0, at_barrier = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (s->fibers[i].done) continue;
            if (s->fibers[i].wait == GP_FIBER_AT_SIMD) at_simd++;
            if (s->fibers[i].wait == GP_FIBER_AT_BARRIER) at_barrier++;
        }
        if (at_simd) continue;
        if (!at_barrier) break;
        if (obs && obs->release) {
            uint8_t ended[1024];
            for (uint32_t i = 0; i < n && i < 1024; i++)
                ended[i] = (uint8_t)s->fibers[i].done;
            obs->release(obs->ctx, ended, n);
        }
        for (uint32_t i = 0; i < n; i++)
            s->fibers[i].wait = GP_FIBER_READY;
    }
#if GP_FIBER_WINAPI
    if (converted) ConvertFiberToThread();
#endif
    if (simd_fault) *simd_fault = s->simd_fault;
    return s->simd_fault ? GP_ERR_LAUNCH : GP_OK;
}
