/* check.c — what checking costs, beside what a user would otherwise run, on the same kernels and
 * inputs in one run: each kernel on the CPU backend unchecked, on the CPU backend with every
 * check (GP_CHECK_ALL), and on Oclgrind — the OpenCL simulator, with its data-race and
 * uninitialized-value checks — through gpuport's OpenCL backend. The kernels:
 *   stencil  a 5-point stencil over a 1024 x 1024 float grid (2-D groups of 16 x 16);
 *   matmul   a 256 x 256 float matrix product through 16 x 16 shared tiles with barriers;
 *   reduce   the sum of 1 Mi floats, a tree in shared memory per group of 256, barriers.
 * Each result is compared with a reference computed here. The CPU figures are medians of 11 rounds
 * after a warm-up, each round one launch unchecked and one checked in alternating order (the build
 * is not timed); Oclgrind runs once per kernel in a child process (its library is chosen when a
 * process first probes OpenCL).
 * Usage: check [stencil|matmul|reduce|all] [--no-oclgrind]; `oclgrind-child KERNEL` is the
 * measured child. */
#include <gpuport/gpuport.h>
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"

extern char **environ;

static const char *kSource =
    "#define TILE 16\n"
    "GP_KERNEL(stencil, GP_BUF(float, out), GP_CBUF(float, in), GP_VAL(int, n))\n"
    "{\n"
    "    int x = gp_global_id(0), y = gp_global_id(1);\n"
    "    if (x >= n || y >= n) return;\n"
    "    float c = in[y * n + x];\n"
    "    float l = x > 0 ? in[y * n + x - 1] : c, r = x + 1 < n ? in[y * n + x + 1] : c;\n"
    "    float u = y > 0 ? in[(y - 1) * n + x] : c, d = y + 1 < n ? in[(y + 1) * n + x] : c;\n"
    "    out[y * n + x] = 0.5f * c + 0.125f * (l + r + u + d);\n"
    "}\n"
    "GP_KERNEL(matmul, GP_BUF(float, c), GP_CBUF(float, a), GP_CBUF(float, b), GP_VAL(int, n))\n"
    "{\n"
    "    GP_SHARED_DECL float ta[TILE][TILE];\n"
    "    GP_SHARED_DECL float tb[TILE][TILE];\n"
    "    int tx = gp_local_id(0), ty = gp_local_id(1);\n"
    "    int col = gp_global_id(0), row = gp_global_id(1);\n"
    "    float acc = 0.0f;\n"
    "    for (int t = 0; t < n; t += TILE) {\n"
    "        ta[ty][tx] = a[row * n + t + tx];\n"
    "        tb[ty][tx] = b[(t + ty) * n + col];\n"
    "        gp_barrier();\n"
    "        for (int k = 0; k < TILE; k++)\n"
    "            acc += ta[ty][k] * tb[k][tx];\n"
    "        gp_barrier();\n"
    "    }\n"
    "    c[row * n + col] = acc;\n"
    "}\n"
    "GP_KERNEL(reduce, GP_BUF(float, partial), GP_CBUF(float, in), GP_VAL(int, n))\n"
    "{\n"
    "    GP_SHARED_DECL float s[256];\n"
    "    int lid = gp_local_id(0), i = gp_global_id(0);\n"
    "    s[lid] = i < n ? in[i] : 0.0f;\n"
    "    gp_barrier();\n"
    "    for (int stride = gp_local_size(0) / 2; stride > 0; stride /= 2) {\n"
    "        if (lid < stride) s[lid] += s[lid + stride];\n"
    "        gp_barrier();\n"
    "    }\n"
    "    if (lid == 0) partial[gp_group_id(0)] = s[0];\n"
    "}\n";

enum { STENCIL_N = 1024, MATMUL_N = 256, REDUCE_N = 1 << 20, REDUCE_G = 256 };

/* The inputs and reference of one kernel, and how to launch it. */
typedef struct job {
    const char *name;
    size_t in_count[2]; /* floats of each input (0: none) */
    float *in[2];
    size_t out_count;
    float *ref;
    uint32_t dims;
    size_t global[2], group[2];
    int n;
    double tolerance; /* relative, of the result's norm */
} job;

static void job_make(job *j, const char *name)
{
    memset(j, 0, sizeof *j);
    j->name = name;
    srand(7);
    if (!strcmp(name, "stencil")) {
        int n = STENCIL_N;
        j->in_count[0] = (size_t)n * n;
        j->out_count = (size_t)n * n;
        j->dims = 2;
        j->global[0] = j->global[1] = (size_t)n;
        j->group[0] = j->group[1] = 16;
        j->n = n;
        j->tolerance = 1e-6;
    } else if (!strcmp(name, "matmul")) {
        int n = MATMUL_N;
        j->in_count[0] = j->in_count[1] = (size_t)n * n;
        j->out_count = (size_t)n * n;
        j->dims = 2;
        j->global[0] = j->global[1] = (size_t)n;
        j->group[0] = j->group[1] = 16;
        j->n = n;
        j->tolerance = 1e-5;
    } else {
        j->in_count[0] = REDUCE_N;
        j->out_count = REDUCE_N / REDUCE_G;
        j->dims = 1;
        j->global[0] = REDUCE_N;
        j->group[0] = REDUCE_G;
        j->n = REDUCE_N;
        j->tolerance = 1e-5;
    }
    for (int k = 0; k < 2; k++) {
        if (!j->in_count[k]) continue;
        j->in[k] = malloc(j->in_count[k] * sizeof(float));
        for (size_t i = 0; i < j->in_count[k]; i++)
            j->in[k][i] = (float)(rand() % 1000) / 500.0f - 1.0f;
    }
    j->ref = calloc(j->out_count, sizeof(float));
    int n = j->n;
    if (!strcmp(name, "stencil")) {
        const float *in = j->in[0];
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                float c = in[y * n + x];
                float l = x > 0 ? in[y * n + x - 1] : c, r = x + 1 < n ? in[y * n + x + 1] : c;
                float u = y > 0 ? in[(y - 1) * n + x] : c, d = y + 1 < n ? in[(y + 1) * n + x] : c;
                j->ref[y * n + x] = 0.5f * c + 0.125f * (l + r + u + d);
            }
    } else if (!strcmp(name, "matmul")) {
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                double s = 0;
                for (int k = 0; k < n; k++)
                    s += (double)j->in[0][r * n + k] * j->in[1][k * n + c];
                j->ref[r * n + c] = (float)s;
            }
    } else {
        for (size_t g = 0; g < j->out_count; g++) {
            double s = 0;
            for (int i = 0; i < REDUCE_G; i++)
                s += j->in[0][g * REDUCE_G + (size_t)i];
            j->ref[g] = (float)s;
        }
    }
}

static void job_free(job *j)
{
    free(j->in[0]), free(j->in[1]), free(j->ref);
}

static bool job_matches(const job *j, const float *got)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < j->out_count; i++) {
        double d = (double)got[i] - j->ref[i];
        num += d * d;
        den += (double)j->ref[i] * j->ref[i];
    }
    return num <= j->tolerance * j->tolerance * (den > 0 ? den : 1);
}

/* A job made ready on one device: its kernel, buffers and arguments. */
typedef struct prepared {
    gp_device *dev;
    gp_kernel *k;
    gp_buffer *out, *in[2];
    gp_arg args[4];
    uint32_t na;
    int reports;
} prepared;

static void prepare(const job *j, gp_device *dev, prepared *p)
{
    memset(p, 0, sizeof *p);
    p->dev = dev;
    gp_build_options o = {sizeof o, 0, "check_bench.gpk", NULL, 0, 0};
    gp_program *prog;
    CHECK(gp_program_create(dev, kSource, strlen(kSource), &o, &prog));
    CHECK(gp_kernel_create(prog, j->name, &p->k));
    gp_program_release(prog);
    CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, j->out_count * sizeof(float), &p->out));
    p->args[p->na++] = gp_arg_buffer(p->out);
    for (int i = 0; i < 2; i++)
        if (j->in_count[i]) {
            CHECK(
                gp_buffer_create(dev, GP_BUFFER_DEVICE, j->in_count[i] * sizeof(float), &p->in[i]));
            CHECK(gp_buffer_write(p->in[i], 0, j->in[i], j->in_count[i] * sizeof(float)));
            p->args[p->na++] = gp_arg_buffer(p->in[i]);
        }
    p->args[p->na++] = gp_arg_value(&j->n, sizeof j->n);
}

/* One launch and its wait; seconds. */
static double launch(const job *j, prepared *p)
{
    double t0 = now();
    gp_status st = gp_kernel_launch(NULL, p->k, j->dims, j->global, j->group, p->na, p->args);
    if (st == GP_OK) st = gp_device_synchronize(p->dev);
    double t1 = now();
    if (st == GP_ERR_CHECK) {
        uint32_t c = 0;
        gp_check_report_count(&c, NULL);
        p->reports += (int)c;
        fprintf(stderr, "%s\n", gp_last_error());
    } else if (st != GP_OK) {
        fprintf(stderr, "%s: %s: %s\n", j->name, gp_status_name(st), gp_last_error());
        exit(1);
    }
    return t1 - t0;
}

/* Whether the result is right; releases everything. */
static bool finish(const job *j, prepared *p)
{
    float *got = malloc(j->out_count * sizeof(float));
    CHECK(gp_buffer_read(p->out, 0, got, j->out_count * sizeof(float)));
    bool ok = job_matches(j, got);
    free(got);
    gp_buffer_release(p->out), gp_buffer_release(p->in[0]), gp_buffer_release(p->in[1]);
    gp_kernel_release(p->k);
    if (!ok) fprintf(stderr, "%s: wrong result\n", j->name);
    return ok;
}

/* The job once on dev (Oclgrind's child); seconds, or -1 when the result is wrong. */
static double job_once(const job *j, gp_device *dev, int *reports)
{
    prepared p;
    prepare(j, dev, &p);
    double t = launch(j, &p);
    *reports = p.reports;
    return finish(j, &p) ? t : -1;
}

/* The child: the job on the OpenCL device (Oclgrind, chosen by the environment), once. */
static int oclgrind_child(const char *name)
{
    job j;
    job_make(&j, name);
    gp_device *dev;
    CHECK(gp_device_open("opencl", &dev));
    int reports;
    double s = job_once(&j, dev, &reports);
    printf("%.6f\n", s);
    gp_device_release(dev);
    job_free(&j);
    return s < 0;
}

/* Runs this program as the Oclgrind child; its seconds, or -1. */
static double oclgrind(const char *self, const char *name)
{
    const char *lib = getenv("OCLGRIND_RT");
    if (!lib) lib = "/usr/lib/oclgrind/liboclgrind-rt.so";
    if (access(lib, R_OK) != 0) {
        fprintf(stderr, "oclgrind: %s not found (Debian: apt-get install oclgrind)\n", lib);
        return -1;
    }
    setenv("GPUPORT_OPENCL_LIBRARY_PATH", lib, 1);
    setenv("OCLGRIND_DATA_RACES", "1", 1);
    setenv("OCLGRIND_UNINITIALIZED", "1", 1);
    int fds[2];
    if (pipe(fds) != 0) return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    char *argv[] = {(char *)self, "oclgrind-child", (char *)name, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, self, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    unsetenv("GPUPORT_OPENCL_LIBRARY_PATH");
    if (rc != 0) {
        close(fds[0]);
        return -1;
    }
    char buf[64] = {0};
    ssize_t got = read(fds[0], buf, sizeof buf - 1);
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    if (got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    return atof(buf);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "oclgrind-child")) return oclgrind_child(argv[2]);
    const char *which = argc > 1 && argv[1][0] != '-' ? argv[1] : "all";
    bool with_oclgrind = !(argc > 1 && !strcmp(argv[argc - 1], "--no-oclgrind"));
    static const char *const names[] = {"stencil", "matmul", "reduce"};
    gp_device *plain, *checked;
    CHECK(gp_device_open("cpu", &plain));
    CHECK(gp_device_open("cpu", &checked));
    CHECK(gp_device_set_checks(plain, 0));
    CHECK(gp_device_set_checks(checked, GP_CHECK_ALL));
    gp_device_info info;
    CHECK(gp_device_get_info(plain, &info));
    printf("CPU: %s, %u threads\n", info.name, info.compute_units);
    printf("%-8s %14s %14s %14s %12s %12s\n", "kernel", "CPU unchecked", "CPU checked", "Oclgrind",
           "checked/CPU", "Oclgrind/chk");
    printf("(CPU: medians of 11 alternating rounds; checked/CPU the median of the rounds' ratios; "
           "Oclgrind: one run)\n");
    int fail = 0;
    enum { ROUNDS = 11 };
    for (int i = 0; i < 3; i++) {
        if (strcmp(which, "all") && strcmp(which, names[i])) continue;
        job j;
        job_make(&j, names[i]);
        prepared pp, pc;
        prepare(&j, plain, &pp);
        prepare(&j, checked, &pc);
        launch(&j, &pp), launch(&j, &pc); /* warm-up: first touch of pages, fiber stacks */
        /* alternating rounds, so a neighbour's load falls on both alike; medians */
        double tp[ROUNDS], tc[ROUNDS], ratio[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            if (r % 2) {
                tc[r] = launch(&j, &pc);
                tp[r] = launch(&j, &pp);
            } else {
                tp[r] = launch(&j, &pp);
                tc[r] = launch(&j, &pc);
            }
            ratio[r] = tc[r] / tp[r];
        }
        int rep_plain = pp.reports, rep_checked = pc.reports;
        bool ok = finish(&j, &pp) && finish(&j, &pc);
        double mp = median(tp, ROUNDS), mc = median(tc, ROUNDS), mr = median(ratio, ROUNDS);
        double to = with_oclgrind ? oclgrind(argv[0], names[i]) : -1;
        char so[32] = "-", sr[32] = "-";
        if (to > 0) snprintf(so, sizeof so, "%.3f s", to);
        if (to > 0) snprintf(sr, sizeof sr, "%.0fx", to / mc);
        printf("%-8s %11.2f ms %11.2f ms %14s %11.1fx %12s\n", names[i], mp * 1e3, mc * 1e3, so, mr,
               sr);
        if (!ok || rep_plain || rep_checked) fail = 1;
        if (rep_checked)
            printf("  the checked run made %d report(s): a checker bug\n", rep_checked);
        job_free(&j);
    }
    gp_device_release(plain);
    gp_device_release(checked);
    return fail;
}
