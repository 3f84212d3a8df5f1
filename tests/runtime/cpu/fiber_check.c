/* fiber_check.c — the CPU backend's fiber scheduler and context switch on their own, for the
 * targets CI cannot run natively: test_fiber_switch.sh builds this with src/runtime/cpu/fiber.c
 * for the host (the assembly switch, then the ucontext fallback) and, when a cross compiler and
 * qemu-user are installed, for AArch64 under emulation. It checks what a broken switch would
 * break: values live in callee-saved integer and floating-point registers across switches,
 * barriers in loops, every SIMD-group operation against a reference, votes without the lanes
 * that returned, and the faults: a lane elsewhere, a shuffle reading a lane that returned.
 * Exit 0 when all hold. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cpu/fiber.h"

/* The scheduler reports only out-of-memory through the error module: a stand-in here. */
gp_status gp_error_set(gp_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return status;
}

enum { N = 128, ROUNDS = 40 };

static int failures;
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond) && ++failures <= 10) { /* the first ten say enough */                          \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

static const gp_cpu_group *cur;
static int shared_sum[N];
static uint32_t results[N][8];

/* Many live values of both kinds across barriers: the compiler keeps them in callee-saved
 * registers (x19-x28 and d8-d15 on AArch64, rbx/rbp/r12-r15 on x86-64) over the calls. */
static void item_registers(void *const *args, const gp_cpu_group *g, uint32_t lx, uint32_t ly,
                           uint32_t lz)
{
    (void)args, (void)ly, (void)lz;
    volatile int sink = 0;
    long a = lx, b = lx * 3, c = lx * 5, d = lx * 7, e = lx * 11, f = lx * 13, h = lx * 17;
    double fa = lx * 0.5, fb = lx * 0.25, fc = lx * 0.125, fd = lx * 2.0, fe = lx + 0.75;
    for (int r = 0; r < ROUNDS; r++) {
        shared_sum[lx] = (int)(a + b + c + d + e + f + h) + r;
        g->barrier(g->barrier_ctx);
        long other = shared_sum[(lx + 1) % N];
        g->barrier(g->barrier_ctx);
        a += 1, b += 2, c += 3, d += 4, e += 5, f += 6, h += 7;
        fa += 1.0, fb += 0.5, fc += 0.25, fd *= 1.0, fe -= 0.5;
        sink += (int)other;
    }
    long want = (long)lx * (1 + 3 + 5 + 7 + 11 + 13 + 17) + (long)ROUNDS * 28;
    CHECK(a + b + c + d + e + f + h == want, "lane %u: integers %ld, want %ld", lx,
          a + b + c + d + e + f + h, want);
    double fwant = lx * 0.5 + ROUNDS + lx * 0.25 + ROUNDS * 0.5 + lx * 0.125 + ROUNDS * 0.25 +
                   lx * 2.0 + lx + 0.75 - ROUNDS * 0.5;
    CHECK(fabs(fa + fb + fc + fd + fe - fwant) < 1e-9, "lane %u: doubles %g, want %g", lx,
          fa + fb + fc + fd + fe, fwant);
    (void)sink;
}

static uint32_t op(const gp_cpu_group *g, uint32_t o, uint32_t v, uint32_t arg)
{
    return g->simd(g->barrier_ctx, o, v, arg);
}

static void item_simd(void *const *args, const gp_cpu_group *g, uint32_t lx, uint32_t ly,
                      uint32_t lz)
{
    (void)args, (void)ly, (void)lz;
    uint32_t v = lx * 7 + 1;
    results[lx][0] = op(g, GP_CPU_SIMD_SHUFFLE, v, 33); /* lane 1 */
    results[lx][1] = op(g, GP_CPU_SIMD_XOR, v, 5);
    results[lx][2] = op(g, GP_CPU_SIMD_UP, v, 3);
    g->barrier(g->barrier_ctx); /* SIMD operations and barriers interleaved */
    results[lx][3] = op(g, GP_CPU_SIMD_DOWN, v, 30);
    results[lx][4] = op(g, GP_CPU_SIMD_BALLOT, lx % 3 == 0, 0);
    results[lx][5] = op(g, GP_CPU_SIMD_ANY, lx == 70, 0);
    results[lx][6] = op(g, GP_CPU_SIMD_ALL, lx % 32 != 31, 0);
    results[lx][7] = op(g, GP_CPU_SIMD_XOR, v, 40); /* modulo 32: lane ^ 8 */
}

/* lanes 20..31 of each SIMD group return: the votes leave them out */
static void item_exited_vote(void *const *args, const gp_cpu_group *g, uint32_t lx, uint32_t ly,
                             uint32_t lz)
{
    (void)args, (void)ly, (void)lz;
    if (lx % 32 >= 20) return;
    results[lx][0] = op(g, GP_CPU_SIMD_BALLOT, 1, 0);
    results[lx][1] = op(g, GP_CPU_SIMD_ALL, lx % 32 < 20, 0);
    results[lx][2] = op(g, GP_CPU_SIMD_SHUFFLE, lx, 19); /* a lane that is still there */
}

/* lane 7 returns, and the others read it */
static void item_read_exited(void *const *args, const gp_cpu_group *g, uint32_t lx, uint32_t ly,
                             uint32_t lz)
{
    (void)args, (void)ly, (void)lz;
    if (lx % 32 == 7) return;
    results[lx][0] = op(g, GP_CPU_SIMD_SHUFFLE, lx, 7);
}

/* lane 5 waits at a barrier while the others are at a SIMD-group operation */
static void item_diverge(void *const *args, const gp_cpu_group *g, uint32_t lx, uint32_t ly,
                         uint32_t lz)
{
    (void)args, (void)ly, (void)lz;
    if (lx % 32 == 5)
        g->barrier(g->barrier_ctx);
    else
        results[lx][0] = op(g, GP_CPU_SIMD_SHUFFLE, lx, 0);
}

static gp_cpu_group group(void)
{
    gp_cpu_group g;
    memset(&g, 0, sizeof g);
    g.local_size[0] = N, g.local_size[1] = 1, g.local_size[2] = 1;
    g.num_groups[0] = g.num_groups[1] = g.num_groups[2] = 1;
    return g;
}

int main(void)
{
    printf("fiber switch: %s\n", gp_fiber_switch_kind());
    fflush(stdout);
    gp_cpu_group g = group();
    cur = &g;
    CHECK(gp_fiber_run_group(item_registers, NULL, &g, NULL, NULL) == GP_OK,
          "registers: launch failed");

    g = group();
    CHECK(gp_fiber_run_group(item_simd, NULL, &g, NULL, NULL) == GP_OK, "simd: launch failed");
    for (uint32_t i = 0; i < N; i++) {
        uint32_t base = i - i % 32, lane = i % 32, ballot = 0, any = 0;
        for (uint32_t l = 0; l < 32; l++) {
            ballot |= (base + l) % 3 == 0 ? 1u << l : 0;
            any |= base + l == 70;
        }
        uint32_t want[8] = {(base + 1) * 7 + 1,
                            (base + (lane ^ 5)) * 7 + 1,
                            (lane >= 3 ? i - 3 : i) * 7 + 1,
                            (lane + 30 < 32 ? i + 30 : i) * 7 + 1,
                            ballot,
                            any,
                            0, /* lane 31 of every group says no */
                            (base + (lane ^ 8)) * 7 + 1};
        for (int k = 0; k < 8; k++)
            CHECK(results[i][k] == want[k], "simd: lane %u result %d is %u, want %u", i, k,
                  results[i][k], want[k]);
    }

    g = group();
    CHECK(gp_fiber_run_group(item_exited_vote, NULL, &g, NULL, NULL) == GP_OK,
          "votes with lanes that returned failed");
    for (uint32_t i = 0; i < N; i++)
        if (i % 32 < 20) {
            CHECK(results[i][0] == 0xfffffu, "lane %u: ballot %#x without the returned lanes", i,
                  results[i][0]);
            CHECK(results[i][1] == 1, "lane %u: all() counted the returned lanes", i);
            CHECK(results[i][2] == i - i % 32 + 19, "lane %u: shuffle of lane 19 gave %u", i,
                  results[i][2]);
        }
    int fault = 0;
    g = group();
    CHECK(gp_fiber_run_group(item_read_exited, NULL, &g, &fault, NULL) == GP_ERR_LAUNCH &&
              fault == GP_FIBER_SIMD_READ_EXITED,
          "a shuffle reading a lane that returned was not reported (fault %d)", fault);
    g = group();
    CHECK(gp_fiber_run_group(item_diverge, NULL, &g, &fault, NULL) == GP_ERR_LAUNCH &&
              fault == GP_FIBER_SIMD_DIVERGED,
          "a lane at a barrier while the others shuffle was not reported (fault %d)", fault);

    /* the stacks are kept per thread: a second, larger group reuses and grows them */
    g = group();
    g.local_size[0] = 64, g.local_size[1] = 4;
    CHECK(gp_fiber_run_group(item_simd, NULL, &g, NULL, NULL) == GP_OK, "a 64x4 group failed");

    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
