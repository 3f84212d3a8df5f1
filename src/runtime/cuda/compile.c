/*
 * compile.c — the NVRTC compile path of the CUDA backend: target choice (cubin for the device's
 * own architecture, else the best PTX) and one compile with its log. The caller (program.c)
 * joins the prelude to the user's source and keeps results in the kernel cache.
 */
#include "runtime/cuda/compile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cuda/status.h"
#include "runtime/error.h"
#include "util/strbuf.h"

gp_status gp_cuda_target_choose(const int *archs, int n_archs, int cc_major, int cc_minor,
                                gp_cuda_target *out)
{
    int cc = cc_major * 10 + cc_minor;
    if (n_archs <= 0) {
        out->arch = cc;
        out->is_cubin = false;
        return GP_OK;
    }
    int best = 0;
    for (int i = 0; i < n_archs; i++) {
        if (archs[i] == cc) {
            out->arch = cc;
            out->is_cubin = true;
            return GP_OK;
        }
        /* PTX for compute_AB runs on every device of compute capability >= A.B. */
        if (archs[i] < cc && archs[i] > best) best = archs[i];
    }
    if (best == 0) {
        int lowest = archs[0];
        for (int i = 1; i < n_archs; i++)
            if (archs[i] < lowest) lowest = archs[i];
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "this GPU (compute capability %d.%d) is older than every architecture "
                            "this NVRTC compiles for (the oldest is sm_%d): use NVRTC 12, which "
                            "supports compute capability 5.0 and newer (pip install "
                            "nvidia-cuda-nvrtc-cu12, or set GPUPORT_NVRTC_LIBRARY to it)",
                            cc_major, cc_minor, lowest);
    }
    out->arch = best;
    out->is_cubin = false;
    return GP_OK;
}

const char *gp_cuda_target_name(gp_cuda_target t, char *buf, size_t len)
{
    snprintf(buf, len, "%s_%d", t.is_cubin ? "sm" : "compute", t.arch);
    return buf;
}

/* The program's log, NUL-terminated, or NULL. */
static char *gp_nvrtc_log(const gp_cuda_nvrtc *nv, nvrtcProgram prog)
{
    size_t n = 0;
    if (nv->api.nvrtcGetProgramLogSize(prog, &n) != GP_NVRTC_SUCCESS || n == 0) return NULL;
    char *log = malloc(n + 1);
    if (!log) return NULL;
    if (nv->api.nvrtcGetProgramLog(prog, log) != GP_NVRTC_SUCCESS) {
        free(log);
        return NULL;
    }
    log[n] = '\0';
    /* NVRTC ends the log with a newline and a NUL; drop trailing blank space for messages. */
    size_t len = strlen(log);
    while (len > 0 && (log[len - 1] == '\n' || log[len - 1] == ' '))
        log[--len] = '\0';
    return log;
}

static gp_status gp_nvrtc_fail(const gp_cuda_nvrtc *nv, nvrtcResult r, const char *what)
{
    const char *text = nv->api.nvrtcGetErrorString ? nv->api.nvrtcGetErrorString(r) : NULL;
    gp_status st = r == GP_NVRTC_ERROR_OUT_OF_MEMORY ? GP_ERR_OUT_OF_MEMORY : GP_ERR_BUILD;
    return gp_error_set(st, "%s: %s (%d)%s%s", what, gp_nvrtc_result_name(r), r, text ? ": " : "",
                        text ? text : "");
}

/* Reads the compiled image (cubin or PTX) out of a compiled program. */
static gp_status gp_nvrtc_take_image(const gp_cuda_nvrtc *nv, nvrtcProgram prog,
                                     gp_cuda_target target, gp_cuda_image *out)
{
    size_t size = 0;
    nvrtcResult r;
    if (target.is_cubin) {
        if (!nv->api.nvrtcGetCUBINSize || !nv->api.nvrtcGetCUBIN)
            return gp_error_set(GP_ERR_UNSUPPORTED, "this NVRTC (%d.%d) cannot produce cubins",
                                nv->major, nv->minor);
        r = nv->api.nvrtcGetCUBINSize(prog, &size);
    } else {
        r = nv->api.nvrtcGetPTXSize(prog, &size);
    }
    if (r != GP_NVRTC_SUCCESS) return gp_nvrtc_fail(nv, r, "reading the compiled code");
    if (size == 0) return gp_error_set(GP_ERR_BUILD, "NVRTC produced no code");
    void *data = malloc(size + 1);
    if (!data) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory (%zu bytes)", size);
    r = target.is_cubin ? nv->api.nvrtcGetCUBIN(prog, data) : nv->api.nvrtcGetPTX(prog, data);
    if (r != GP_NVRTC_SUCCESS) {
        free(data);
        return gp_nvrtc_fail(nv, r, "reading the compiled code");
    }
    ((char *)data)[size] = '\0';
    out->data = data;
    out->size = size;
    out->target = target;
    return GP_OK;
}

#define GP_NVRTC_MAX_OPTIONS 256

/* NVRTC writes locations as "file(12): error: ..."; every other backend (and every compiler a
 * user knows) as "file:12: error: ...". The log with each line that starts NAME(DIGITS): written
 * as NAME:DIGITS: , so messages read the same on every target; NULL when out of memory. */
static char *gp_nvrtc_log_locations(const char *log)
{
    gp_strbuf out = GP_STRBUF_INIT;
    for (const char *line = log; line && *line;) {
        const char *nl = strchr(line, '\n');
        const char *end = nl ? nl : line + strlen(line);
        const char *open = memchr(line, '(', (size_t)(end - line));
        const char *d = open ? open + 1 : NULL;
        while (d && d < end && *d >= '0' && *d <= '9')
            d++;
        if (open && open > line && d > open + 1 && d + 1 < end && d[0] == ')' && d[1] == ':') {
            gp_strbuf_append(&out, line, (size_t)(open - line));
            gp_strbuf_putc(&out, ':');
            gp_strbuf_append(&out, open + 1, (size_t)(d - open - 1));
            gp_strbuf_append(&out, d + 1, (size_t)(end - d - 1));
        } else {
            gp_strbuf_append(&out, line, (size_t)(end - line));
        }
        if (nl) gp_strbuf_putc(&out, '\n');
        line = nl ? nl + 1 : NULL;
    }
    return gp_strbuf_take(&out);
}

gp_status gp_cuda_compile(const gp_cuda_nvrtc *nv, const gp_cuda_source *src, gp_cuda_target target,
                          gp_cuda_image *out, char **log_out)
{
    memset(out, 0, sizeof *out);
    if (log_out) *log_out = NULL;
    if (!src || !src->text || src->n_options < 0 || src->n_options > GP_NVRTC_MAX_OPTIONS - 4)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_cuda_compile: bad source or options");

    char arch_opt[48], tname[24];
    snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=%s",
             gp_cuda_target_name(target, tname, sizeof tname));
    const char *opts[GP_NVRTC_MAX_OPTIONS];
    int n = 0;
    opts[n++] = arch_opt;
    /* Helper functions in the dialect carry no __device__: make that the default. */
    opts[n++] = "--device-as-default-execution-space";
    for (int i = 0; i < src->n_options; i++)
        opts[n++] = src->options[i];

    nvrtcProgram prog = NULL;
    nvrtcResult r = nv->api.nvrtcCreateProgram(&prog, src->text, src->name ? src->name : "kernel",
                                               src->n_headers, src->headers, src->header_names);
    if (r != GP_NVRTC_SUCCESS) return gp_nvrtc_fail(nv, r, "nvrtcCreateProgram");

    r = nv->api.nvrtcCompileProgram(prog, n, opts);
    char *log = gp_nvrtc_log(nv, prog);
    if (log) { /* file(12): -> file:12: */
        char *mapped = gp_nvrtc_log_locations(log);
        if (mapped) {
            free(log);
            log = mapped;
        }
    }
    gp_status st = GP_OK;
    if (r == GP_NVRTC_ERROR_COMPILATION) {
        st = gp_error_set(GP_ERR_BUILD, "CUDA compile (NVRTC %d.%d, %s) failed:\n%s", nv->major,
                          nv->minor, tname, log ? log : "(no log)");
    } else if (r != GP_NVRTC_SUCCESS) {
        st = gp_nvrtc_fail(nv, r, "nvrtcCompileProgram");
    } else {
        st = gp_nvrtc_take_image(nv, prog, target, out);
    }
    nv->api.nvrtcDestroyProgram(&prog);
    if (log_out)
        *log_out = log;
    else
        free(log);
    return st;
}

void gp_cuda_image_free(gp_cuda_image *img)
{
    free(img->data);
    memset(img, 0, sizeof *img);
}
