/* bench.h — `gpuport bench`: how close each device gets to its hardware's peak. The runner
 * (run_*.c) measures through the public runtime API only, stats.c turns samples into a result,
 * peak.c derives peaks from the OS and the driver, report.c prints and reads gpuport.bench/1,
 * plot.c draws the SVG. */
#ifndef GP_BENCH_BENCH_H
#define GP_BENCH_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpuport/gpuport.h"
#include "util/compiler.h"
#include "util/json.h"

#define GP_BENCH_SCHEMA    "gpuport.bench/1"
#define GP_BENCH_CV_FLAG   0.05 /* a coefficient of variation above this is flagged */
#define GP_BENCH_MAX_PEAKS 16

/* Which peak a result is measured against. */
typedef enum gp_bench_peak_kind {
    GP_PEAK_NONE = 0, /* latency: no peak */
    GP_PEAK_MEMORY,   /* device memory bandwidth, GB/s */
    GP_PEAK_H2D,      /* host -> device link, GB/s */
    GP_PEAK_D2H,      /* device -> host link, GB/s */
    GP_PEAK_FP32,     /* FP32 FMA throughput, GFLOP/s */
    GP_PEAK_COUNT
} gp_bench_peak_kind;

/* A peak and how it was derived; value 0 = unknown (source says why). */
typedef struct gp_bench_peak {
    double value;
    char source[320];
} gp_bench_peak;

/* One measured row. median/min/max NAN and `note` set when it did not run (not present...). */
typedef struct gp_bench_result {
    char name[96];
    char unit[16];
    double median, min, max, cv;
    double peak; /* 0: none or unknown */
    char peak_source[320];
    double fraction; /* median / peak, NAN when no peak */
    bool higher_is_better;
    int peak_kind; /* a gp_bench_peak_kind */
    double size;   /* bytes (transfer) or n (gemm), for the plot; 0 otherwise */
} gp_bench_result;

/* What the runner knows of the device besides gp_device_info. */
typedef struct gp_bench_device {
    gp_device_info info;
    uint64_t llc_bytes; /* last-level cache, 0 unknown */
    char llc_source[96];
    double clock_mhz; /* 0 unknown */
    double memory_clock_mhz;
    int bus_width_bits;
    char pcie[64]; /* "Gen5 x16" or "" */
    gp_bench_peak peaks[GP_PEAK_COUNT];
    /* where the benchmark kernels came from when not compiled from source for this device: the
     * built-in copy, and why ("" = compiled from source, the normal case) */
    char kernels_note[400];
} gp_bench_device;

typedef struct gp_bench_run {
    gp_bench_device dev;
    gp_bench_result *results;
    size_t count, cap;
    gp_queue *queue; /* the device's default queue */
    int failures;    /* verification failures */
    int errors;      /* benchmarks that could not run (runtime errors) */
} gp_bench_run;

enum {
    GP_BENCH_MEMORY = 1u << 0,
    GP_BENCH_TRANSFER = 1u << 1,
    GP_BENCH_LAUNCH = 1u << 2,
    GP_BENCH_GEMM = 1u << 3,
    GP_BENCH_ALL = 15u,
};

typedef struct gp_bench_peak_override {
    gp_bench_peak_kind kind;
    double value;
    char text[96];
} gp_bench_peak_override;

typedef struct gp_bench_options {
    unsigned only; /* GP_BENCH_* */
    bool quick;    /* small sizes, few samples */
    gp_bench_peak_override peaks[GP_BENCH_MAX_PEAKS];
    size_t num_peaks;
} gp_bench_options;

/* ---- stats.c ---- */
typedef struct gp_bench_stats {
    double median, min, max, cv, p99;
} gp_bench_stats;
/* Median, min, max, coefficient of variation (stddev / mean) and p99 of n >= 1 samples (sorted in
 * place). */
gp_bench_stats gp_bench_stats_of(double *samples, size_t n);
/* Seconds from a monotonic clock. */
double gp_bench_now(void);

/* ---- run.c ---- */
/* Appends a result; returns it (zeroed but for name/unit), or NULL when out of memory. */
gp_bench_result *gp_bench_add(gp_bench_run *run, const char *name, const char *unit,
                              gp_bench_peak_kind peak, const double *samples, size_t n,
                              double size);
/* A row that could not run: values NAN, the reason in peak_source. */
void gp_bench_add_absent(gp_bench_run *run, const char *name, const char *unit, const char *why);
void gp_bench_run_free(gp_bench_run *run);
/* Runs the selected benchmarks on an opened device. 0, or -1 with a message in err (the device
 * could not be described). Verification failures and runtime errors are counted in run. */
int gp_bench_device_run(gp_device *device, const gp_bench_options *opt, gp_bench_run *run,
                        char *err, size_t errlen);
int gp_bench_memory(gp_device *dev, const gp_bench_options *opt, gp_bench_run *run);
int gp_bench_transfer(gp_device *dev, const gp_bench_options *opt, gp_bench_run *run);
int gp_bench_launch(gp_device *dev, const gp_bench_options *opt, gp_bench_run *run);
int gp_bench_gemm(gp_device *dev, const gp_bench_options *opt, gp_bench_run *run);
/* True for the CPU and CPU-like OpenCL devices (host memory): they get the host's problem sizes
 * and kernels. */
bool gp_bench_on_host(const gp_bench_device *d);
/* Builds the embedded STREAM/empty (sgemm=false) or SGEMM source for the device; when the device
 * has no compiler for it (GP_ERR_UNSUPPORTED: no C compiler, no NVRTC), takes the copy built into
 * libgpuport instead and says so in run->dev.kernels_note. */
gp_status gp_bench_program(gp_device *dev, gp_bench_run *run, bool sgemm, gp_program **out);
/* Seconds taken by `reps` launches (device events where the backend times them, else the host
 * clock around launches + finish). Negative on a runtime error. */
double gp_bench_time_launches(gp_queue *q, gp_kernel *k, uint32_t dims, const size_t *global,
                              const size_t *group, uint32_t nargs, const gp_arg *args, int reps);
/* Prints "what failed" on stderr and counts it. */
void gp_bench_fail(gp_bench_run *run, const char *name, const char *fmt, ...) GP_PRINTF_LIKE(3, 4);
void gp_bench_error(gp_bench_run *run, const char *name, const char *what);

/* ---- vendor.c: vendor SGEMM through dlopen ---- */
/* Runs C = A*B (n x n, row-major) with the vendor library of this device `samples` times after a
 * warm-up; fills seconds[] and c. 0 ok; 1 the library is not present (why says so); -1 it failed
 * (why says so). label receives the row's label ("openblas", "cublas-notf32"). */
int gp_bench_vendor_sgemm(const gp_bench_device *dev, int n, const float *a, const float *b,
                          float *c, double *seconds, size_t samples, char *label, size_t labellen,
                          char *why, size_t whylen);

/* ---- peak.c ---- */
/* Describes the device: LLC, clocks, link, and every peak (overrides applied). */
void gp_bench_describe(gp_device *device, const gp_bench_options *opt, gp_bench_device *out);
/* Parses "name=value" (memory, h2d, d2h, link, fp32). 0, or -1 with a message. */
int gp_bench_peak_parse(const char *text, gp_bench_peak_override *out, char *err, size_t errlen);
/* The Apple chip table: memory GB/s and FP32 GFLOP/s for a device name ("Apple M2 Max") and GPU
 * core count (0 unknown). 0 when found. */
int gp_bench_apple_peak(const char *name, uint32_t gpu_cores, double *mem_gbs, double *fp32_gflops,
                        char *src, size_t srclen);
/* Published memory GB/s and FP32 GFLOP/s of common NVIDIA parts by name (substring); 0 when
 * found. A fallback for drivers that report no clocks. */
int gp_bench_nvidia_peak(const char *name, double *mem_gbs, double *fp32_gflops);
/* FP32 lanes per SM for a CUDA compute capability, 0 unknown. */
int gp_bench_cuda_lanes_per_sm(int major, int minor);

/* ---- report.c ---- */
void gp_bench_print_human(FILE *f, const gp_bench_run *run);
cJSON *gp_bench_to_json(const gp_bench_run *run);
/* Validates a parsed gpuport.bench/1 document; 0, or -1 with the problem in err. */
int gp_bench_validate(const cJSON *doc, char *err, size_t errlen);
/* Reads and validates a file; NULL with "PATH: problem" in err. */
cJSON *gp_bench_load(const char *path, char *err, size_t errlen);
/* The side-by-side table of two validated documents. */
void gp_bench_print_compare(FILE *f, const char *name_a, const cJSON *a, const char *name_b,
                            const cJSON *b);

/* ---- plot.c ---- */
/* Writes the SVG (transfer bandwidth vs size, GFLOP/s vs n) of the runs. 0, or -1 with err. */
int gp_bench_plot_write(const char *path, const gp_bench_run *runs, size_t nruns, char *err,
                        size_t errlen);
/* The SVG text into a malloc'd string (for tests); NULL when out of memory. */
char *gp_bench_plot_svg(const gp_bench_run *runs, size_t nruns);

/* The embedded kernel sources (bench.cmake). */
extern const char gp_bench_src_stream[];
extern const size_t gp_bench_src_stream_len;
extern const char gp_bench_src_sgemm[];
extern const size_t gp_bench_src_sgemm_len;

#endif
