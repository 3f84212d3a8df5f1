/* verify.c — "runs on" as a fact: the translated kernels are built for each target this machine
 * can build for, through the runtime (gp_program_create on the CPU backend, OpenCL, CUDA, Metal),
 * and for Metal elsewhere through the syntax check against a stand-in <metal_stdlib> that the
 * Metal tests use. A target builds exactly the kernels it can run (no fp64 on Metal, no SIMD-group
 * operations on OpenCL); a kernel its compiler rejects is reported failed with the compiler's
 * message and left out, and the rest is built again without it. */
#include <errno.h>
#include <fcntl.h>
#include <gpuport/gpuport.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "translate/assemble.h"
#include "util/fs.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/sys.h"

enum { MAX_ROUNDS = 6, MAX_DETAIL = 4000 };

static double now_s(void)
{
    return gp_monotonic_s();
}

static bool eligible(const tr_func *f, int t)
{
    return !(t == TR_T_OPENCL && f->uses_simd) &&
           !(t == TR_T_METAL && (f->uses_fp64 || f->uses_atomic64));
}

/* The first device of a backend on this machine, or NULL. */
static gp_device *open_first(gp_backend backend, char *spec, size_t cap)
{
    uint32_t n = 0;
    if (gp_device_count(&n) != GP_OK) return NULL;
    for (uint32_t i = 0; i < n; i++) {
        gp_device_info info;
        if (gp_device_enumerate(i, &info) != GP_OK || info.backend != (int32_t)backend) continue;
        gp_device *d = NULL;
        if (gp_device_open(info.spec, &d) == GP_OK) {
            snprintf(spec, cap, "%s", info.spec);
            return d;
        }
    }
    return NULL;
}

static char *clip(const char *msg)
{
    size_t n = strlen(msg);
    char *s = malloc((n > MAX_DETAIL ? MAX_DETAIL : n) + 16);
    if (!s) return NULL;
    if (n > MAX_DETAIL) {
        memcpy(s, msg, MAX_DETAIL);
        strcpy(s + MAX_DETAIL, " [...]");
    } else {
        memcpy(s, msg, n + 1);
    }
    return s;
}

/* The kernels a compiler message blames: those whose pieces hold a line it names
 * (`NAME:LINE:`), and those that reach a clone it names. */
static bool blame(const tr_assembly *as, const tr_span *sp, int nsp, const char *name,
                  const char *msg, bool *bad)
{
    bool any = false;
    size_t nl = strlen(name);
    for (const char *p = strstr(msg, name); p; p = strstr(p + 1, name)) {
        if (p[nl] != ':' || p[nl + 1] < '0' || p[nl + 1] > '9') continue;
        int line = atoi(p + nl + 1);
        for (int i = 0; i < nsp; i++) {
            if (line < sp[i].first || line > sp[i].last) continue;
            if (sp[i].kernel >= 0) {
                bad[sp[i].kernel] = any = true;
            } else if (sp[i].kernel == -1) {
                for (int k = 0; k < as->nk; k++) {
                    bool *mark = calloc((size_t)as->u->nemitted + 1, sizeof *mark);
                    if (!mark) continue;
                    tr_reach(as, k, mark);
                    for (int e = 0; e < as->u->nemitted; e++)
                        if (mark[e] && as->u->emitted[e].g == sp[i].clone.g &&
                            as->u->emitted[e].k == sp[i].clone.k)
                            bad[k] = any = true;
                    free(mark);
                }
            }
        }
    }
    return any;
}

/* Runs argv with stdout and stderr into `log`; the exit status, or -1. */
static int run_tool(char *const argv[], const char *log)
{
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    const int fds[3] = {-1, fd, fd};
    long pid;
    char err[256];
    int rc = gp_spawn_fds(argv, fds, &pid, err, sizeof err);
    close(fd);
    if (rc != 0) return -1;
    int code = -1, r;
    while ((r = gp_spawn_poll(pid, &code)) == 0)
        gp_sleep_ms(2);
    return r == 1 && code < 128 ? code : -1;
}

/* The Metal check of tests/runtime/metal: the prelude and the source preprocessed for Metal 3
 * and 2.4 against the stand-in headers, then parsed as C++14 (MSL's base). 0: it passes; 1: it
 * does not (the message in *msg); -1: the check could not run (why in *msg). */
static int metal_standin(const char *dir, const char *name, const char *src, char **msg)
{
    const char *cxx = getenv("GPUPORT_METAL_CHECK_CXX");
    if (!cxx || !*cxx) cxx = "clang++";
    char tmpl[] = "/tmp/gpuport-metal-XXXXXX";
    if (!mkdtemp(tmpl)) {
        *msg = strdup("cannot make a temporary folder for the Metal check");
        return -1;
    }
    char prelude[600], file[600], ii[600], renamed[600], log[600];
    snprintf(prelude, sizeof prelude, "%s/kernel.h", tmpl);
    snprintf(file, sizeof file, "%s/%s", tmpl, name);
    snprintf(ii, sizeof ii, "%s/unit.ii", tmpl);
    snprintf(renamed, sizeof renamed, "%s/unit.renamed.ii", tmpl);
    snprintf(log, sizeof log, "%s/log", tmpl);
    size_t plen;
    const char *ptext = gp_dialect_prelude(&plen);
    char err[256];
    int rc = 0;
    if (gp_write_file_atomic(prelude, ptext, plen, err, sizeof err) ||
        gp_write_file_atomic(file, src, strlen(src), err, sizeof err)) {
        *msg = strdup(err);
        rc = -1;
    }
    static const char *const versions[] = {"300", "240"};
    for (int v = 0; v < 2 && rc == 0; v++) {
        char isys[700], ver[64], out[700];
        snprintf(isys, sizeof isys, "%s", dir);
        snprintf(ver, sizeof ver, "-D__METAL_VERSION__=%s", versions[v]);
        snprintf(out, sizeof out, "%s", ii);
        char *pre[] = {
            (char *)cxx, "-E",          "-std=c++14", "-x", "c++",
            "-nostdinc", "-nostdinc++", "-isystem",   isys, "-DGP_STANDIN_KEEP_THREADGROUP",
            ver,         "-include",    prelude,      file, "-o",
            out,         NULL};
        int r = run_tool(pre, log);
        if (r == 0) {
            /* [[threadgroup(0)]] is an attribute in MSL; the stand-in's empty `threadgroup`
             * would eat it (as the Metal tests do it) */
            size_t n = 0;
            char e2[256];
            char *text = gp_read_file(ii, 64 << 20, false, &n, e2, sizeof e2);
            gp_strbuf sb = GP_STRBUF_INIT;
            for (const char *p = text; p && *p; p++) {
                if (!strncmp(p, "[[threadgroup(", 14)) {
                    gp_strbuf_puts(&sb, "[[gp_standin_threadgroup(");
                    p += 13;
                    continue;
                }
                gp_strbuf_putc(&sb, *p);
            }
            free(text);
            gp_write_file_atomic(renamed, sb.data ? sb.data : "", sb.len, e2, sizeof e2);
            gp_strbuf_free(&sb);
            char *syn[] = {(char *)cxx,
                           "-fsyntax-only",
                           "-std=c++14",
                           "-x",
                           "c++",
                           "-nostdinc",
                           "-nostdinc++",
                           "-Dthreadgroup=",
                           "-Wno-unknown-attributes",
                           renamed,
                           NULL};
            r = run_tool(syn, log);
        }
        if (r != 0) {
            size_t n = 0;
            char e2[256];
            char *text = gp_read_file(log, 1 << 20, false, &n, e2, sizeof e2);
            if (r < 0) {
                gp_strbuf sb = GP_STRBUF_INIT;
                gp_strbuf_printf(&sb, "the Metal check could not run %s", cxx);
                *msg = gp_strbuf_take(&sb);
                rc = -1;
            } else {
                gp_strbuf sb = GP_STRBUF_INIT;
                gp_strbuf_printf(&sb, "Metal %s (stand-in syntax check): %s", versions[v],
                                 text ? text : "");
                *msg = gp_strbuf_take(&sb);
                rc = 1;
            }
            free(text);
        }
    }
    unlink(prelude), unlink(file), unlink(ii), unlink(renamed), unlink(log);
    rmdir(tmpl);
    return rc;
}

/* Builds the translated kernels for target t on dev (or the Metal stand-in when dev is NULL),
 * filling b[k * TR_NTARGETS + t]. */
static void build_target(const tr_assembly *as, const bool *ok, int t, gp_device *dev,
                         const char *standin, tr_build *b)
{
    bool *inc = calloc((size_t)as->nk + 1, sizeof *inc), *bad = calloc((size_t)as->nk + 1, 1);
    if (!inc || !bad) {
        free(inc), free(bad);
        return;
    }
    const char *base = strrchr(as->path, '/') ? strrchr(as->path, '/') + 1 : as->path;
    char name[256];
    snprintf(name, sizeof name, "%.*s.gpk", (int)strcspn(base, "."), base);
    int n = 0;
    for (int k = 0; k < as->nk; k++) {
        inc[k] = ok[k] && eligible(as->ki[k].func, t);
        n += inc[k];
        if (!ok[k] || !eligible(as->ki[k].func, t))
            b[k * TR_NTARGETS + t].status = TR_BUILD_NOT_TARGET;
    }
    for (int round = 0; n > 0 && round < MAX_ROUNDS; round++) {
        tr_span *sp = NULL;
        int nsp = 0;
        char *src = tr_assemble_pieces(as, inc, 0, &sp, &nsp);
        char *msg = NULL;
        int failed; /* 0 built, 1 rejected, -1 could not build here */
        if (dev) {
            gp_build_options o = {sizeof o, 0, name, NULL, 0, 0};
            gp_program *prog = NULL;
            gp_status st = gp_program_create(dev, src, strlen(src), &o, &prog);
            if (st != GP_OK) msg = strdup(gp_last_error());
            /* a compile error, or a refusal that names a line of the source, is the kernels';
             * anything else (no compiler here) means the target could not be checked */
            failed = st == GP_OK ? 0 : st == GP_ERR_BUILD ? 1 : -1;
            if (st == GP_ERR_UNSUPPORTED && msg) {
                bool *any = calloc((size_t)as->nk + 1, 1);
                if (any && blame(as, sp, nsp, name, msg, any)) failed = 1;
                free(any);
            }
            gp_program_release(prog);
        } else {
            failed = metal_standin(standin, name, src, &msg);
        }
        if (failed == 0) {
            for (int k = 0; k < as->nk; k++)
                if (inc[k]) b[k * TR_NTARGETS + t].status = TR_BUILD_OK;
            n = 0;
        } else if (failed < 0) {
            for (int k = 0; k < as->nk; k++)
                if (inc[k]) b[k * TR_NTARGETS + t].detail = clip(msg ? msg : "");
            n = 0;
        } else {
            memset(bad, 0, (size_t)as->nk);
            if (!blame(as, sp, nsp, name, msg ? msg : "", bad)) /* unattributed: all of them */
                memcpy(bad, inc, (size_t)as->nk);
            for (int k = 0; k < as->nk; k++)
                if (inc[k] && bad[k]) {
                    b[k * TR_NTARGETS + t].status = TR_BUILD_FAILED;
                    b[k * TR_NTARGETS + t].detail = clip(msg ? msg : "");
                    inc[k] = false;
                    n--;
                }
        }
        free(msg);
        free(sp);
        free(src);
    }
    free(inc);
    free(bad);
}

tr_build *tr_verify(const tr_assembly *as, const bool *ok, const gp_translate_options *opt)
{
    tr_build *b = calloc((size_t)(as->nk + 1) * TR_NTARGETS, sizeof *b);
    if (!b) return NULL;
    tr_build *sum = &b[as->nk * TR_NTARGETS];
    static const gp_backend backends[TR_NTARGETS] = {GP_BACKEND_CUDA, GP_BACKEND_CPU,
                                                     GP_BACKEND_OPENCL, GP_BACKEND_METAL};
    static const char *const names[TR_NTARGETS] = {"CUDA", "CPU", "OpenCL", "Metal"};
    for (int t = 0; t < TR_NTARGETS; t++) {
        char spec[64] = "";
        double t0 = now_s();
        gp_device *dev = open_first(backends[t], spec, sizeof spec);
        const char *standin = t == TR_T_METAL && !dev ? opt->metal_standin : NULL;
        gp_strbuf why = GP_STRBUF_INIT;
        int want = 0;
        for (int k = 0; k < as->nk; k++)
            want += ok[k] && eligible(as->ki[k].func, t);
        if ((dev || standin) && !want) {
            gp_strbuf_printf(&why, "nothing to build: no translated kernel is for %s", names[t]);
        } else if (dev || standin) {
            build_target(as, ok, t, dev, standin, b);
            /* the summary says what happened: a build that failed, or could not run, is not
             * "built" (the compiler's message is each kernel's detail, shown once) */
            int nfailed = 0, nunbuilt = 0;
            const char *unbuilt = NULL;
            for (int k = 0; k < as->nk; k++) {
                const tr_build *x = &b[k * TR_NTARGETS + t];
                if (!ok[k] || !eligible(as->ki[k].func, t)) continue;
                if (x->status == TR_BUILD_FAILED) nfailed++;
                if (x->status == TR_BUILD_UNCHECKED) {
                    nunbuilt++;
                    if (!unbuilt) unbuilt = x->detail;
                }
            }
            const char *where = dev ? spec : "the stand-in <metal_stdlib>";
            if (nfailed)
                gp_strbuf_printf(&why, "build FAILED (%d of %d kernels) %s %s, %.2f s", nfailed,
                                 want, dev ? "on" : "with", where, now_s() - t0);
            else if (nunbuilt)
                gp_strbuf_printf(&why, "not checked: could not build %s %s: %s",
                                 dev ? "on" : "with", where, unbuilt ? unbuilt : "");
            else
                gp_strbuf_printf(&why, "%s %s, %.2f s", dev ? "built on" : "syntax-checked with",
                                 where, now_s() - t0);
            sum[t].status = nfailed ? TR_BUILD_FAILED : nunbuilt ? TR_BUILD_UNCHECKED : TR_BUILD_OK;
        } else {
            gp_strbuf_printf(&why, "not checked: no %s device on this machine%s", names[t],
                             t == TR_T_METAL ? " (a Mac; or give --metal-standin DIR)" : "");
        }
        gp_device_release(dev);
        sum[t].detail = gp_strbuf_take(&why);
        for (int k = 0; k < as->nk; k++) {
            tr_build *x = &b[k * TR_NTARGETS + t];
            if (!ok[k] || !eligible(as->ki[k].func, t))
                x->status = TR_BUILD_NOT_TARGET;
            else if (x->status == TR_BUILD_UNCHECKED && !x->detail)
                x->detail = strdup(sum[t].detail);
        }
    }
    return b;
}

void tr_verify_summary(cJSON *report, const tr_build *b, int nk)
{
    static const char *const names[TR_NTARGETS] = {"cuda", "cpu", "opencl", "metal"};
    cJSON *o = cJSON_AddObjectToObject(report, "verification");
    for (int t = 0; t < TR_NTARGETS; t++)
        cJSON_AddStringToObject(
            o, names[t], b[nk * TR_NTARGETS + t].detail ? b[nk * TR_NTARGETS + t].detail : "");
}

void tr_builds_free(tr_build *b, int nk)
{
    if (!b) return;
    for (int i = 0; i < (nk + 1) * TR_NTARGETS; i++)
        free(b[i].detail);
    free(b);
}
