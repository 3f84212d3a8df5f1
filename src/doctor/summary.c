/* summary.c — see summary.h. CUDA "run" is yes only when a GPU is there and no check of the
 * driver chain failed; without --deep it rests on the driver loading and listing the GPUs
 * (the reason says so), with --deep on cuInit itself. */
#include "doctor/summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/checks.h"
#include "doctor/cuda_tables.h"
#include "doctor/sysroot.h"

/* Every string from the machine goes into the report cleaned (see gp_text_clean). */
static void add_str(cJSON *o, const char *k, const char *v)
{
    char *c = strdup(v ? v : "");
    if (!c) return;
    gp_text_clean(c);
    cJSON_AddStringToObject(o, k, c);
    free(c);
}

/* The checks whose failure means CUDA cannot run here. */
static const char *const run_blockers[] = {"kmod",           "nouveau",  "devnodes", "win.driver",
                                           "libcuda",        "mismatch", "cuinit",   "wsl.driver",
                                           "compat.geforce", "nvswitch"};

static const gp_check *run_blocker(const gp_doctor_report *r, bool in_container)
{
    for (size_t i = 0; i < sizeof run_blockers / sizeof run_blockers[0]; i++) {
        const gp_check *c = gp_report_find(r, run_blockers[i]);
        if (!c) continue;
        if (c->status == GP_CHECK_FAIL) return c;
        /* a container without GPUs passed in is a warning, but nothing can run */
        if (in_container && c->status == GP_CHECK_WARN && strcmp(c->id, "devnodes") == 0) return c;
    }
    return NULL;
}

static cJSON *cuda_gpus(const gp_derived *d)
{
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; i < d->gpu_count; i++) {
        const gp_doctor_gpu *g = &d->gpus[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", i);
        add_str(o, "name", g->name);
        char cc[16] = "";
        if (g->cc_major) snprintf(cc, sizeof cc, "%d.%d", g->cc_major, g->cc_minor);
        add_str(o, "cc", cc);
        add_str(o, "arch", gp_cc_arch_name(g->cc_major * 10 + g->cc_minor));
        add_str(o, "cc_from", g->cc_from);
        cJSON_AddNumberToObject(o, "memory_bytes", (double)g->memory_bytes);
        if (g->uuid[0]) add_str(o, "uuid", g->uuid);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static cJSON *cuda_caps(const gp_doctor_facts *f, const gp_derived *d, const gp_doctor_report *r,
                        bool *compile, bool *run)
{
    cJSON *o = cJSON_CreateObject();
    char reason[900], creason[700];
    const gp_doctor_toolkit *t = d->toolkit;
    char tv[16] = "";
    if (t && t->version_read) gp_fmt_version(&t->version, tv, sizeof tv);
    *compile = f->platform != GP_DOCTOR_MACOS && t && (t->has_nvcc || t->has_nvrtc);
    if (f->platform == GP_DOCTOR_MACOS)
        snprintf(creason, sizeof creason, "macOS has no CUDA toolkit");
    else if (!t)
        snprintf(creason, sizeof creason, "no CUDA toolkit found");
    else
        snprintf(creason, sizeof creason, "%s CUDA %s at %s",
                 t->has_nvcc ? "nvcc from" : "NVRTC of", tv[0] ? tv : "(version unknown)", t->path);
    if (t && !*compile)
        snprintf(creason, sizeof creason, "the toolkit at %s has no nvcc or NVRTC", t->path);
    /* on Windows nvcc compiles host code only with Visual Studio's cl.exe */
    const gp_check *msvc = gp_report_find(r, "msvc");
    if (*compile && msvc && msvc->status == GP_CHECK_FAIL) {
        *compile = t->has_nvrtc;
        if (t->has_nvrtc)
            snprintf(creason, sizeof creason,
                     "NVRTC of CUDA %s at %s; nvcc needs Visual Studio's C++ compiler (see msvc)",
                     tv[0] ? tv : "(version unknown)", t->path);
        else
            snprintf(creason, sizeof creason,
                     "nvcc at %s needs Visual Studio's C++ compiler (see msvc)", t->path);
    }
    const gp_check *blocker = run_blocker(r, f->os.container);
    *run = false;
    if (f->platform == GP_DOCTOR_MACOS) {
        snprintf(reason, sizeof reason,
                 "a Mac cannot run CUDA: use MPS/Metal here, CUDA on a Linux GPU machine");
    } else if (!d->gpu) {
        snprintf(reason, sizeof reason, "no NVIDIA GPU%s",
                 f->os.container ? " (in a container without /dev/nvidia*)" : "");
    } else if (blocker) {
        snprintf(reason, sizeof reason, "%s: %s", blocker->id, blocker->observed);
    } else if (d->jetson && !f->nv.deep && (f->nv.cuda.loaded || f->nv.tegra.libcuda)) {
        char rel[160];
        gp_fmt_jetson(f, d, rel, sizeof rel);
        *run = true;
        snprintf(reason, sizeof reason,
                 "Jetson: the integrated GPU's driver, its /dev nodes and L4T's libcuda are "
                 "there; %s (cuInit not called: --deep verifies)",
                 rel);
    } else if (f->platform == GP_DOCTOR_WINDOWS) {
        *run = d->driver[0] != '\0';
        snprintf(reason, sizeof reason,
                 "driver %s (from %s) lists %d GPU(s) (nvcuda.dll not started: `gpuport devices` "
                 "verifies)",
                 d->driver, f->win.driver_from, d->gpu_count);
    } else if (!f->nv.cuda.loaded || f->nv.cuda.missing[0]) {
        snprintf(reason, sizeof reason, "libcuda.so.1 is not usable");
    } else if (f->nv.deep) {
        *run = f->nv.cuinit_rc == 0;
        snprintf(reason, sizeof reason, "cuInit succeeded; %d GPU(s)", f->nv.cuda_gpu_count);
    } else {
        *run = true;
        snprintf(reason, sizeof reason,
                 "driver %s loads and lists %d GPU(s) (cuInit not called: "
                 "--deep verifies)",
                 d->driver, d->gpu_count);
    }
    cJSON_AddBoolToObject(o, "compile", *compile);
    cJSON_AddBoolToObject(o, "run", *run);
    add_str(o, "reason", reason);
    add_str(o, "compile_reason", creason);
    add_str(o, "toolkit", tv);
    add_str(o, "driver", d->driver);
    char dc[16] = "";
    if (d->driver_cuda.n) gp_fmt_version(&d->driver_cuda, dc, sizeof dc);
    add_str(o, "driver_cuda", dc);
    cJSON_AddBoolToObject(o, "verified", f->nv.deep && f->nv.cuinit_rc == 0);
    cJSON_AddNumberToObject(o, "gpu_count", d->gpu_total);
    cJSON_AddBoolToObject(o, "gpus_truncated", d->gpu_total > d->gpu_count);
    cJSON_AddItemToObject(o, "gpus", cuda_gpus(d));
    return o;
}

static cJSON *metal_caps(const gp_doctor_facts *f, bool *avail)
{
    cJSON *o = cJSON_CreateObject();
    const gp_doctor_mac *m = &f->mac;
    *avail = f->platform == GP_DOCTOR_MACOS && m->metal;
    char reason[300];
    if (f->platform != GP_DOCTOR_MACOS)
        snprintf(reason, sizeof reason, "not a Mac");
    else if (!m->metal)
        snprintf(reason, sizeof reason, "no Metal device");
    else {
        char ws[32] = "?";
        if (m->metal_working_set) gp_fmt_bytes(m->metal_working_set, ws, sizeof ws);
        snprintf(reason, sizeof reason, "%s%s, working set %s%s", m->metal_name,
                 m->metal_unified ? ", unified memory" : "", ws,
                 f->mac.apple_silicon ? "; PyTorch MPS" : "");
    }
    cJSON_AddBoolToObject(o, "available", *avail);
    add_str(o, "reason", reason);
    add_str(o, "device", m->metal_name);
    cJSON_AddBoolToObject(o, "unified_memory", m->metal_unified);
    cJSON_AddNumberToObject(o, "working_set_bytes", (double)m->metal_working_set);
    char fam[16] = "";
    if (m->metal_family) snprintf(fam, sizeof fam, "apple%d", m->metal_family);
    add_str(o, "family", fam);
    return o;
}

static cJSON *opencl_caps(const gp_doctor_facts *f, bool *avail)
{
    cJSON *o = cJSON_CreateObject();
    const gp_doctor_opencl *cl = &f->cl;
    bool loader = cl->loader.loaded && !cl->loader.missing[0];
    *avail = loader && (cl->enumerated ? cl->device_count > 0 : cl->icd_count > 0);
    char reason[400];
    if (f->platform == GP_DOCTOR_MACOS)
        snprintf(reason, sizeof reason, "deprecated on macOS; use Metal");
    else if (f->platform == GP_DOCTOR_WINDOWS)
        snprintf(reason, sizeof reason,
                 "not checked on Windows: `gpuport devices` lists what OpenCL.dll finds");
    else if (!loader)
        snprintf(reason, sizeof reason, "no usable ICD loader (libOpenCL.so.1)");
    else if (!cl->enumerated)
        snprintf(reason, sizeof reason,
                 "ICD loader and %d ICD(s) installed (--deep lists the devices)", cl->icd_count);
    else if (cl->device_count == 0)
        snprintf(reason, sizeof reason, "no OpenCL device");
    else
        snprintf(reason, sizeof reason, "%d device(s); first: %s (%s)", cl->device_count,
                 cl->devices[0].name, cl->devices[0].platform);
    cJSON_AddBoolToObject(o, "available", *avail);
    add_str(o, "reason", reason);
    cJSON_AddBoolToObject(o, "enumerated", cl->enumerated);
    cJSON_AddNumberToObject(o, "icds", cl->icd_count);
    cJSON *devs = cJSON_AddArrayToObject(o, "devices");
    for (int i = 0; i < cl->device_count; i++) {
        cJSON *d = cJSON_CreateObject();
        add_str(d, "platform", cl->devices[i].platform);
        add_str(d, "name", cl->devices[i].name);
        add_str(d, "type", cl->devices[i].type);
        cJSON_AddNumberToObject(d, "compute_units", cl->devices[i].compute_units);
        cJSON_AddNumberToObject(d, "memory_bytes", (double)cl->devices[i].memory_bytes);
        cJSON_AddItemToArray(devs, d);
    }
    return o;
}

static cJSON *cpu_caps(const gp_doctor_facts *f)
{
    cJSON *o = cJSON_CreateObject();
    const gp_doctor_cpu *c = &f->cpu;
    cJSON_AddNumberToObject(o, "logical_cores", c->logical);
    cJSON_AddNumberToObject(o, "performance_cores", c->performance);
    cJSON_AddNumberToObject(o, "efficiency_cores", c->efficiency);
    add_str(o, "model", c->model);
    add_str(o, "arch", c->arch);
    add_str(o, "arch_from", c->arch_from);
    cJSON_AddNumberToObject(o, "memory_bytes", (double)c->memory_bytes);
    char s[400], mem[32] = "unknown memory";
    if (c->memory_bytes) gp_fmt_bytes(c->memory_bytes, mem, sizeof mem);
    if (c->performance)
        snprintf(s, sizeof s, "%d cores (%d performance + %d efficiency), %s, %s", c->logical,
                 c->performance, c->efficiency, c->model[0] ? c->model : c->arch, mem);
    else
        snprintf(s, sizeof s, "%d logical core%s, %s, %s", c->logical, c->logical == 1 ? "" : "s",
                 c->model[0] ? c->model : c->arch, mem);
    add_str(o, "summary", s);
    return o;
}

static cJSON *advice_json(const gp_doctor_facts *f, const gp_derived *d, bool compile, bool run,
                          bool metal, bool opencl)
{
    cJSON *o = cJSON_CreateObject();
    const char *way, *text;
    if (run && d->jetson) {
        way = "cuda-local";
        text = "run CUDA here on the Jetson's integrated GPU; CUDA, cuDNN and TensorRT come with "
               "JetPack (sudo apt-get install nvidia-jetpack), PyTorch from NVIDIA's wheels for "
               "the JetPack.";
    } else if (run) {
        way = "cuda-local";
        text = "run CUDA here.";
    } else if (f->platform == GP_DOCTOR_MACOS && metal) {
        way = "mps-local";
        text = "use MPS (PyTorch: torch.device('mps')) or gpuport's Metal backend here; keep CUDA "
               "runs on a remote Linux GPU machine (gpuport remote).";
    } else if (d->gpu && f->os.container && !(f->nv.dev_ctl && f->nv.dev_gpu_count > 0)) {
        way = "fix-driver";
        text = "the host has an NVIDIA GPU that this container was not given: start it with "
               "`docker run --gpus all ...` (see devnodes), then run CUDA here.";
    } else if (d->jetson) {
        way = "fix-driver";
        text = "this Jetson's GPU cannot run CUDA yet: apply the fixes of the failing checks "
               "below (L4T packages or a JetPack reflash, never a desktop NVIDIA driver), then "
               "run CUDA here.";
    } else if (d->gpu) {
        way = "fix-driver";
        text = "this machine has an NVIDIA GPU that CUDA cannot use yet: apply the fixes of the "
               "failing checks below, then run CUDA here.";
    } else if (compile) {
        way = "remote-cuda";
        text = opencl ? "compile and check CUDA code here; run it on a remote Linux GPU machine "
                        "(gpuport remote); use OpenCL or the CPU backend here for correctness runs."
                      : "compile and check CUDA code here; run it on a remote Linux GPU machine "
                        "(gpuport remote); use the CPU backend here for correctness runs.";
    } else {
        way = "cpu";
        text = "no GPU backend here: the CPU backend works; keep GPU runs on a remote machine "
               "(gpuport remote).";
    }
    add_str(o, "way", way);
    add_str(o, "text", text);
    return o;
}

cJSON *gp_summary_capabilities(const gp_doctor_facts *f, const gp_doctor_report *r, cJSON **advice)
{
    gp_derived d;
    gp_derive(f, &d);
    cJSON *o = cJSON_CreateObject();
    bool compile, run, metal, opencl;
    cJSON_AddItemToObject(o, "cuda", cuda_caps(f, &d, r, &compile, &run));
    cJSON_AddItemToObject(o, "metal", metal_caps(f, &metal));
    cJSON_AddItemToObject(o, "opencl", opencl_caps(f, &opencl));
    cJSON_AddItemToObject(o, "cpu", cpu_caps(f));
    *advice = advice_json(f, &d, compile, run, metal, opencl);
    return o;
}

cJSON *gp_summary_machine(const gp_doctor_facts *f)
{
    gp_derived d;
    gp_derive(f, &d);
    cJSON *o = cJSON_CreateObject();
    char os[GP_DOCTOR_TEXT * 2];
    snprintf(os, sizeof os, "%s",
             f->os.pretty[0] ? f->os.pretty
             : f->os.id[0]   ? f->os.id
                             : "unknown OS");
    add_str(o, "os", os);
    add_str(o, "kernel", f->os.kernel);
    cJSON_AddBoolToObject(o, "wsl", f->os.wsl);
    cJSON_AddBoolToObject(o, "container", f->os.container);
    add_str(o, "driver", d.driver);
    cJSON *tks = cJSON_AddArrayToObject(o, "toolkits");
    for (int i = 0; i < f->cuda.toolkit_count; i++) {
        const gp_doctor_toolkit *t = &f->cuda.toolkits[i];
        cJSON *x = cJSON_CreateObject();
        char v[16] = "";
        if (t->version_read) gp_fmt_version(&t->version, v, sizeof v);
        add_str(x, "path", t->path);
        add_str(x, "version", v);
        add_str(x, "found_by", t->found_by);
        cJSON_AddItemToArray(tks, x);
    }
    cJSON *py = cJSON_AddObjectToObject(o, "python");
    add_str(py, "path", f->py.path);
    add_str(py, "real", f->py.real);
    add_str(py, "arch", f->py.arch);
    cJSON *torch = cJSON_AddArrayToObject(o, "torch");
    for (int i = 0; i < f->py.torch_count; i++) {
        const gp_doctor_torch *t = &f->py.torch[i];
        cJSON *x = cJSON_CreateObject();
        add_str(x, "site", t->site);
        add_str(x, "from", t->from);
        add_str(x, "version", t->parsed ? t->version : "");
        if (t->cuda_build)
            add_str(x, "cuda", t->cuda);
        else
            cJSON_AddNullToObject(x, "cuda");
        add_str(x, "wheel_platform", t->wheel_platform);
        cJSON_AddItemToArray(torch, x);
    }
    const gp_doctor_tegra *t = &f->nv.tegra;
    if (d.jetson) {
        cJSON *j = cJSON_AddObjectToObject(o, "jetson");
        char l4t[32] = "", cuda[16] = "";
        if (t->release_read) snprintf(l4t, sizeof l4t, "%d.%d.%d", t->l4t[0], t->l4t[1], t->l4t[2]);
        if (d.l4t) snprintf(cuda, sizeof cuda, "%d.%d", d.l4t->cuda / 10, d.l4t->cuda % 10);
        add_str(j, "l4t", l4t);
        add_str(j, "l4t_from", t->l4t_from);
        add_str(j, "jetpack", d.l4t ? d.l4t->jetpack : "");
        add_str(j, "cuda", cuda);
        add_str(j, "model", t->model);
        char soc[16] = "";
        if (t->soc) snprintf(soc, sizeof soc, "tegra%d", t->soc);
        add_str(j, "soc", soc);
        add_str(j, "evidence", t->evidence);
    } else {
        cJSON_AddNullToObject(o, "jetson");
    }
    if (f->platform == GP_DOCTOR_WINDOWS) {
        const gp_doctor_win *w = &f->win;
        cJSON *x = cJSON_AddObjectToObject(o, "windows");
        add_str(x, "version", w->version);
        add_str(x, "driver_from", w->driver_from);
        add_str(x, "driver_file_version", w->driver_file_version);
        cJSON *models = cJSON_AddArrayToObject(x, "driver_models");
        for (int i = 0; i < w->gpu_count; i++) {
            cJSON *m = cJSON_CreateObject();
            cJSON_AddNumberToObject(m, "index", i);
            add_str(m, "current", w->model_current[i]);
            add_str(m, "pending", w->model_pending[i]);
            cJSON_AddItemToArray(models, m);
        }
        add_str(x, "cl", w->cl_path);
        add_str(x, "visual_studio", w->vs_name);
        add_str(x, "visual_studio_path", w->vs_path);
        add_str(x, "visual_studio_version", w->vs_version);
        cJSON_AddBoolToObject(x, "wsl", w->wsl);
        cJSON_AddNumberToObject(x, "wsl_distributions", w->wsl_distros);
        cJSON_AddNumberToObject(x, "wsl2_distributions", w->wsl2_distros);
    } else {
        cJSON_AddNullToObject(o, "windows");
    }
    cJSON_AddNumberToObject(o, "subprocesses", f->subprocesses);
    return o;
}
