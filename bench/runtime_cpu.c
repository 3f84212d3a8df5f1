/* runtime_cpu.c — the CPU backend's speed, each figure beside what a user would otherwise run, in
 * the same process (or the same run):
 *   saxpy   y = a*x + y on 64 M floats through gpuport vs a plain -O3 OpenMP loop (bandwidth);
 *   launch  launch + finish of an empty kernel (one work-item), per-launch time;
 *   build   a program built by a fresh process with a cold kernel cache vs with a warm one.
 * Usage: runtime_cpu [saxpy|launch|build|all]; `build-child DIR` is the measured child. */
#include <gpuport/gpuport.h>
#include <omp.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"

extern char **environ;

static const char *kSaxpy =
    "GP_KERNEL(saxpy, GP_BUF(float, y), GP_CBUF(float, x), GP_VAL(float, a), GP_VAL(int, n))\n"
    "{\n"
    "    int i = gp_global_id(0);\n"
    "    if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n";

static void omp_saxpy(float *y, const float *x, float a, long n)
{
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

static void bench_saxpy(void)
{
    const long n = 64L << 20;
    const int reps = 15;
    gp_device *dev;
    CHECK(gp_device_open("cpu", &dev));
    gp_program *p;
    gp_kernel *k;
    CHECK(gp_program_create(dev, kSaxpy, strlen(kSaxpy), NULL, &p));
    CHECK(gp_kernel_create(p, "saxpy", &k));
    gp_buffer *bx, *by;
    CHECK(gp_buffer_create(dev, GP_BUFFER_SHARED, (size_t)n * 4, &bx));
    CHECK(gp_buffer_create(dev, GP_BUFFER_SHARED, (size_t)n * 4, &by));
    float *x = aligned_alloc(4096, (size_t)n * 4), *y = aligned_alloc(4096, (size_t)n * 4);
    if (!x || !y) exit(1);
    float *gx, *gy;
    CHECK(gp_buffer_map(bx, (void **)&gx));
    CHECK(gp_buffer_map(by, (void **)&gy));
#pragma omp parallel for schedule(static) /* first touch by the threads that will use it */
    for (long i = 0; i < n; i++)
        x[i] = y[i] = gx[i] = gy[i] = (float)(i & 1023);
    CHECK(gp_buffer_unmap(bx));
    CHECK(gp_buffer_unmap(by));
    float a = 1.0001f;
    int ni = (int)n;
    gp_arg args[] = {gp_arg_buffer(by), gp_arg_buffer(bx), gp_arg_value(&a, 4),
                     gp_arg_value(&ni, 4)};
    size_t global = (size_t)n;
    double tg[32], to[32];
    for (int r = -2; r < reps; r++) { /* two warm-up rounds; then alternate which runs first */
        double t0, t1, t2;
        if (r % 2) {
            t0 = now();
            omp_saxpy(y, x, a, n);
            t1 = now();
            CHECK(gp_kernel_launch(NULL, k, 1, &global, NULL, 4, args));
            CHECK(gp_device_synchronize(dev));
            t2 = now();
            if (r >= 0) to[r] = t1 - t0, tg[r] = t2 - t1;
        } else {
            t0 = now();
            CHECK(gp_kernel_launch(NULL, k, 1, &global, NULL, 4, args));
            CHECK(gp_device_synchronize(dev));
            t1 = now();
            omp_saxpy(y, x, a, n);
            t2 = now();
            if (r >= 0) tg[r] = t1 - t0, to[r] = t2 - t1;
        }
    }
    double bytes = 12.0 * (double)n, mg = median(tg, reps), mo = median(to, reps);
    printf("saxpy 64 M floats, %d threads: gpuport cpu %.2f ms (%.1f GB/s), OpenMP -O3 %.2f ms "
           "(%.1f GB/s): gpuport at %.0f%% of OpenMP\n",
           omp_get_max_threads(), mg * 1e3, bytes / mg * 1e-9, mo * 1e3, bytes / mo * 1e-9,
           100.0 * mo / mg);
    free(x), free(y);
    gp_buffer_release(bx), gp_buffer_release(by), gp_kernel_release(k), gp_program_release(p);
    gp_device_release(dev);
}

static void bench_launch(void)
{
    enum { N = 20000 };
    gp_device *dev;
    CHECK(gp_device_open("cpu", &dev));
    gp_program *p;
    gp_kernel *k;
    CHECK(gp_program_create_builtin(dev, "basic", &p));
    CHECK(gp_kernel_create(p, "gp_empty", &k));
    gp_queue *q;
    CHECK(gp_device_queue(dev, &q));
    int unused = 0;
    gp_arg args[] = {gp_arg_value(&unused, 4)};
    size_t global = 1;
    static double t[N];
    for (int i = 0; i < N; i++) {
        double t0 = now();
        CHECK(gp_kernel_launch(q, k, 1, &global, NULL, 1, args));
        CHECK(gp_queue_finish(q));
        t[i] = now() - t0;
    }
    double m = median(t, N);
    printf("launch + finish of an empty kernel on the CPU backend: median %.2f us over %d launches "
           "(90th percentile %.2f us)\n",
           m * 1e6, N, t[N * 9 / 10] * 1e6);
    /* the same with 64 one-item groups: the pool's threads take part */
    size_t many = 64, one = 1;
    for (int i = 0; i < N; i++) {
        double t0 = now();
        CHECK(gp_kernel_launch(q, k, 1, &many, &one, 1, args));
        CHECK(gp_queue_finish(q));
        t[i] = now() - t0;
    }
    m = median(t, N);
    printf(
        "  with 64 groups spread over the thread pool: median %.2f us (90th percentile %.2f us)\n",
        m * 1e6, t[N * 9 / 10] * 1e6);
    gp_kernel_release(k), gp_program_release(p), gp_device_release(dev);
}

/* A program of some size, as a user's would be: the conformance scan and a tiled matmul. */
static const char *kBuild =
    "#define BLOCK 256\n"
    "GP_FUNC int32_t block_scan(GP_SHARED int32_t *buf, int lid, int32_t v)\n"
    "{\n"
    "    buf[lid] = v;\n"
    "    gp_barrier();\n"
    "    for (int off = 1; off < BLOCK; off *= 2) {\n"
    "        int32_t add = lid >= off ? buf[lid - off] : 0;\n"
    "        gp_barrier();\n"
    "        buf[lid] += add;\n"
    "        gp_barrier();\n"
    "    }\n"
    "    return buf[lid] - v;\n"
    "}\n"
    "GP_KERNEL(scan_blocks, GP_BUF(int32_t, out), GP_BUF(int32_t, totals), GP_CBUF(int32_t, in),\n"
    "          GP_VAL(int, n))\n"
    "{\n"
    "    GP_SHARED_DECL int32_t buf[BLOCK];\n"
    "    int i = gp_global_id(0), lid = gp_local_id(0);\n"
    "    int32_t v = i < n ? in[i] : 0;\n"
    "    int32_t ex = block_scan(buf, lid, v);\n"
    "    if (i < n) out[i] = ex;\n"
    "    if (lid == BLOCK - 1) totals[gp_group_id(0)] = ex + v;\n"
    "}\n"
    "GP_KERNEL(matmul, GP_BUF(float, c), GP_CBUF(float, a), GP_CBUF(float, b), GP_VAL(int, m),\n"
    "          GP_VAL(int, n), GP_VAL(int, k))\n"
    "{\n"
    "    GP_SHARED_DECL float ta[16][16];\n"
    "    GP_SHARED_DECL float tb[16][16];\n"
    "    int col = gp_global_id(0), row = gp_global_id(1), lx = gp_local_id(0), ly = "
    "gp_local_id(1);\n"
    "    float acc = 0.0f;\n"
    "    for (int t = 0; t < k; t += 16) {\n"
    "        ta[ly][lx] = row < m && t + lx < k ? a[row * k + t + lx] : 0.0f;\n"
    "        tb[ly][lx] = col < n && t + ly < k ? b[(t + ly) * n + col] : 0.0f;\n"
    "        gp_barrier();\n"
    "        for (int i = 0; i < 16; i++) acc += ta[ly][i] * tb[i][lx];\n"
    "        gp_barrier();\n"
    "    }\n"
    "    if (row < m && col < n) c[row * n + col] = acc;\n"
    "}\n";

static int build_child(const char *dir)
{
    CHECK(gp_cache_set_dir(dir));
    gp_device *dev;
    CHECK(gp_device_open("cpu", &dev));
    double t0 = now();
    gp_program *p;
    CHECK(gp_program_create(dev, kBuild, strlen(kBuild), NULL, &p));
    gp_kernel *k;
    CHECK(gp_kernel_create(p, "matmul", &k));
    printf("%.9f\n", now() - t0);
    gp_kernel_release(k), gp_program_release(p), gp_device_release(dev);
    return 0;
}

static double run_child(const char *self, const char *dir)
{
    int pfd[2];
    if (pipe(pfd) != 0) exit(1);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
    posix_spawn_file_actions_addclose(&fa, pfd[0]);
    char *argv[] = {(char *)self, "build-child", (char *)dir, NULL};
    pid_t pid;
    if (posix_spawn(&pid, self, &fa, NULL, argv, environ) != 0) exit(1);
    posix_spawn_file_actions_destroy(&fa);
    close(pfd[1]);
    char buf[64] = {0};
    ssize_t got = read(pfd[0], buf, sizeof buf - 1);
    close(pfd[0]);
    int status;
    waitpid(pid, &status, 0);
    if (got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) exit(1);
    return atof(buf);
}

static void bench_build(const char *self)
{
    enum { R = 7 };
    char dir[] = "/tmp/gpuport-bench-cache-XXXXXX";
    if (!mkdtemp(dir)) exit(1);
    double cold[R], warm[R];
    for (int r = 0; r < R; r++) {
        CHECK(gp_cache_set_dir(dir));
        CHECK(gp_cache_clear());
        cold[r] = run_child(self, dir); /* compiles: the cache is empty */
        warm[r] = run_child(self, dir); /* a second process: served from the cache */
    }
    double mc = median(cold, R), mw = median(warm, R);
    printf(
        "building a program in a new process: cold cache %.1f ms, cached %.3f ms: %.0fx faster\n",
        mc * 1e3, mw * 1e3, mc / mw);
    CHECK(gp_cache_clear());
    rmdir(dir);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    if (!strcmp(what, "build-child") && argc > 2) return build_child(argv[2]);
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        snprintf(self, sizeof self, "%s", argv[0]);
    else
        self[n] = '\0';
    if (!strcmp(what, "saxpy") || !strcmp(what, "all")) bench_saxpy();
    if (!strcmp(what, "launch") || !strcmp(what, "all")) bench_launch();
    if (!strcmp(what, "build") || !strcmp(what, "all")) bench_build(self);
    return 0;
}
