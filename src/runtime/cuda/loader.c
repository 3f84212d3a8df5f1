/*
 * loader.c — opening the CUDA driver and NVRTC at run time and resolving the entry points of
 * cuda_api.h. Linux: libcuda.so.1 by soname (never the unversioned name, which is the toolkit's
 * link stub) and in WSL2's folder; NVRTC by soname 13, 12, 11.2. Windows: nvcuda.dll in System32
 * and the driver store; nvrtc64_*.dll below CUDA_PATH and CUDA_PATH_V*_*, then on PATH. Then
 * the NVIDIA pip wheels of the Python in use. Results are opened once per process and kept.
 */
#include "runtime/cuda/loader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/cuda/status.h"
#include "runtime/error.h"
#include "util/compiler.h"
#include "util/dynlib.h"
#include "util/fs.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/sys.h"
#include "util/thread.h"

#define GP_CUDA_WHY_MAX 3072

/* ---- symbol resolution -------------------------------------------------------------------- */

typedef struct gp_cuda_sym {
    const char *name;     /* the exported symbol */
    const char *fallback; /* an older name with the same signature, or NULL */
    size_t offset;        /* where the pointer goes in the api struct */
    int optional;
} gp_cuda_sym;

// clang-format off
#define GP_DRV(field) {#field, NULL, offsetof(gp_cuda_driver_api, field), 0}
#define GP_DRV_OPT(field) {#field, NULL, offsetof(gp_cuda_driver_api, field), 1}
// clang-format on

static const gp_cuda_sym gp_driver_syms[] = {
    GP_DRV(cuInit),
    GP_DRV(cuDriverGetVersion),
    GP_DRV_OPT(cuGetErrorName),
    GP_DRV_OPT(cuGetErrorString),
    GP_DRV(cuDeviceGetCount),
    GP_DRV(cuDeviceGet),
    GP_DRV(cuDeviceGetName),
    GP_DRV(cuDeviceGetAttribute),
    GP_DRV(cuDeviceTotalMem_v2),
    GP_DRV(cuDevicePrimaryCtxRetain),
    GP_DRV(cuDevicePrimaryCtxRelease_v2),
    GP_DRV(cuCtxPushCurrent_v2),
    GP_DRV(cuCtxPopCurrent_v2),
    GP_DRV(cuCtxSynchronize),
    GP_DRV(cuMemGetInfo_v2),
    GP_DRV(cuMemAlloc_v2),
    GP_DRV(cuMemFree_v2),
    GP_DRV(cuMemHostAlloc),
    GP_DRV(cuMemFreeHost),
    GP_DRV(cuMemcpyHtoD_v2),
    GP_DRV(cuMemcpyDtoH_v2),
    GP_DRV(cuMemcpyDtoD_v2),
    GP_DRV(cuMemcpyHtoDAsync_v2),
    GP_DRV(cuMemcpyDtoHAsync_v2),
    GP_DRV(cuMemcpyDtoDAsync_v2),
    GP_DRV(cuMemsetD8Async),
    GP_DRV(cuMemsetD16Async),
    GP_DRV(cuMemsetD32Async),
    GP_DRV(cuMemsetD2D32Async),
    GP_DRV(cuStreamCreate),
    GP_DRV(cuStreamDestroy_v2),
    GP_DRV(cuStreamSynchronize),
    GP_DRV(cuStreamWaitEvent),
    GP_DRV(cuEventCreate),
    GP_DRV(cuEventDestroy_v2),
    GP_DRV(cuEventRecord),
    GP_DRV(cuEventQuery),
    GP_DRV(cuEventSynchronize),
    {"cuEventElapsedTime_v2", "cuEventElapsedTime",
     offsetof(gp_cuda_driver_api, cuEventElapsedTime), 0},
    GP_DRV(cuModuleLoadDataEx),
    GP_DRV(cuModuleUnload),
    GP_DRV(cuModuleGetFunction),
    GP_DRV(cuFuncGetAttribute),
    GP_DRV(cuLaunchKernel),
};

// clang-format off
#define GP_RTC(field) {#field, NULL, offsetof(gp_nvrtc_api, field), 0}
#define GP_RTC_OPT(field) {#field, NULL, offsetof(gp_nvrtc_api, field), 1}
// clang-format on

static const gp_cuda_sym gp_nvrtc_syms[] = {
    GP_RTC(nvrtcGetErrorString),
    GP_RTC(nvrtcVersion),
    GP_RTC_OPT(nvrtcGetNumSupportedArchs),
    GP_RTC_OPT(nvrtcGetSupportedArchs),
    GP_RTC(nvrtcCreateProgram),
    GP_RTC(nvrtcDestroyProgram),
    GP_RTC(nvrtcCompileProgram),
    GP_RTC(nvrtcGetPTXSize),
    GP_RTC(nvrtcGetPTX),
    GP_RTC_OPT(nvrtcGetCUBINSize),
    GP_RTC_OPT(nvrtcGetCUBIN),
    GP_RTC(nvrtcGetProgramLogSize),
    GP_RTC(nvrtcGetProgramLog),
};

/* Resolves every symbol of `syms` into `table`; returns the first missing required name. */
static const char *gp_cuda_resolve(void *handle, const gp_cuda_sym *syms, size_t n, void *table)
{
    for (size_t i = 0; i < n; i++) {
        void *p = gp_dl_sym(handle, syms[i].name);
        if (!p && syms[i].fallback) p = gp_dl_sym(handle, syms[i].fallback);
        if (!p && !syms[i].optional) return syms[i].name;
        /* POSIX guarantees that a dlsym result converts to a function pointer. */
        memcpy((char *)table + syms[i].offset, &p, sizeof p);
    }
    return NULL;
}

/* The full path of the file a handle came from, for messages ("libcuda.so.1" says little). */
static void gp_cuda_handle_path(void *handle, void *sym, const char *given, char *out, size_t len)
{
    if (gp_dl_path_of(sym, out, len) != 0) snprintf(out, len, "%s", given);
    (void)handle;
}

/* ---- where the libraries are: this platform's table ----------------------------------------- */

typedef struct gp_path_list {
    char **items;
    size_t n, cap;
    int failed;
} gp_path_list;

static void gp_path_list_add(gp_path_list *l, const char *p)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i], p) == 0) return;
    if (l->n + 2 > l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **grown = realloc(l->items, cap * sizeof *grown);
        if (!grown) {
            l->failed = 1;
            return;
        }
        l->items = grown;
        l->cap = cap;
    }
    char *dup = strdup(p);
    if (!dup) {
        l->failed = 1;
        return;
    }
    l->items[l->n++] = dup;
    l->items[l->n] = NULL;
}

#if defined(_WIN32)
/* The driver installs nvcuda.dll into System32 (loaded from there by full path, never from the
 * program's folder) and, with DCH drivers, the same library as nvcuda64.dll into its folder of
 * the driver store (FileRepository\nv*.inf_amd64_*). */
#define GP_CUDA_DRIVER_PLACES "nvcuda.dll in System32 and the driver store"
#define GP_CUDA_DRIVER_FIX                                                                         \
    "install the NVIDIA display driver (GeForce, Studio or data-center): it provides nvcuda.dll"
#define GP_NVRTC_PLACES                                                                            \
    "nvrtc64_*.dll below CUDA_PATH and CUDA_PATH_V*_*, on PATH and in the NVIDIA wheels of the "   \
    "Python in use"
/* CUDA 13 keeps its DLLs in bin\x64, earlier toolkits in bin; 11.2 to 11.8 share one name */
static const char *const gp_nvrtc_names[] = {"nvrtc64_130_0.dll", "nvrtc64_120_0.dll",
                                             "nvrtc64_112_0.dll"};
static const char *const gp_nvrtc_toolkit_dirs[] = {"bin/x64", "bin"};
static const char *const gp_nvrtc_wheel_files[] = {
    "nvidia/cu13/bin/x86_64/nvrtc64_130_0.dll",
    "nvidia/cuda_nvrtc/bin/nvrtc64_120_0.dll",
    "nvidia/cuda_nvrtc/bin/nvrtc64_112_0.dll",
};

static void gp_cuda_driver_add_candidates(gp_path_list *l)
{
    char root[GP_CUDA_PATH_MAX - 64];
    if (gp_windows_dir(root, sizeof root) != 0) snprintf(root, sizeof root, "C:/Windows");
    char p[GP_CUDA_PATH_MAX], store[GP_CUDA_PATH_MAX], err[256];
    snprintf(p, sizeof p, "%s/System32/nvcuda.dll", root);
    gp_path_list_add(l, p);
    snprintf(store, sizeof store, "%s/System32/DriverStore/FileRepository", root);
    char **names = NULL;
    size_t n = 0;
    if (gp_dir_names(store, &names, &n, err, sizeof err) != 0) return;
    for (size_t i = 0; i < n; i++) {
        if ((names[i][0] | 0x20) != 'n' || (names[i][1] | 0x20) != 'v') continue;
        snprintf(p, sizeof p, "%s/%s/nvcuda64.dll", store, names[i]);
        if (gp_path_is_file(p)) gp_path_list_add(l, p);
    }
    gp_dir_names_free(names, n);
}

/* A toolkit's NVRTC below its root: bin\x64 (13) or bin (12, 11). */
static void gp_nvrtc_add_toolkit(gp_path_list *l, const char *root)
{
    if (!root || !*root) return;
    for (size_t d = 0; d < GP_ARRAY_LEN(gp_nvrtc_toolkit_dirs); d++)
        for (size_t i = 0; i < GP_ARRAY_LEN(gp_nvrtc_names); i++) {
            char p[GP_CUDA_PATH_MAX];
            snprintf(p, sizeof p, "%s/%s/%s", root, gp_nvrtc_toolkit_dirs[d], gp_nvrtc_names[i]);
            if (gp_path_is_file(p)) gp_path_list_add(l, p);
        }
}

/* CUDA_PATH (the toolkit installed last), then each CUDA_PATH_Vmaj_min that the toolkit
 * installers set, newest first. */
static void gp_nvrtc_add_toolkits(gp_path_list *l)
{
    gp_nvrtc_add_toolkit(l, getenv("CUDA_PATH"));
    for (int major = 13; major >= 11; major--)
        for (int minor = 9; minor >= 0; minor--) {
            char name[32];
            snprintf(name, sizeof name, "CUDA_PATH_V%d_%d", major, minor);
            gp_nvrtc_add_toolkit(l, getenv(name));
        }
}

/* A venv or conda environment keeps its packages in <prefix>\Lib\site-packages. */
static void gp_nvrtc_add_site(gp_path_list *l, const char *site);
static void gp_nvrtc_add_prefix(gp_path_list *l, const char *prefix)
{
    if (!prefix || !*prefix) return;
    char p[GP_CUDA_PATH_MAX];
    snprintf(p, sizeof p, "%s/Lib/site-packages", prefix);
    gp_nvrtc_add_site(l, p);
}
#else
/* The driver by soname (never the unversioned name, the toolkit's link stub), then WSL2's
 * folder of the Windows driver's libraries. */
#define GP_CUDA_DRIVER_PLACES "libcuda.so.1, /usr/lib/wsl/lib"
#define GP_CUDA_DRIVER_FIX                                                                         \
    "install the NVIDIA driver's compute libraries (libcuda.so.1); in a container, start it with " \
    "--gpus all and the NVIDIA container toolkit"
#define GP_NVRTC_PLACES "libnvrtc.so.13, .12, .11.2 and the NVIDIA wheels of the Python in use"
static const char *const gp_nvrtc_names[] = {"libnvrtc.so.13", "libnvrtc.so.12",
                                             "libnvrtc.so.11.2"};
/* Where the NVIDIA wheels put NVRTC below a site-packages folder: CUDA 13 wheels share one
 * nvidia/cu13/lib folder, CUDA 12 and 11 wheels have one folder per component. */
static const char *const gp_nvrtc_wheel_files[] = {
    "nvidia/cu13/lib/libnvrtc.so.13",
    "nvidia/cuda_nvrtc/lib/libnvrtc.so.12",
    "nvidia/cuda_nvrtc/lib/libnvrtc.so.11.2",
};

static void gp_cuda_driver_add_candidates(gp_path_list *l)
{
    gp_path_list_add(l, "libcuda.so.1");
    gp_path_list_add(l, "/usr/lib/wsl/lib/libcuda.so.1");
}

/* a toolkit's NVRTC is found by soname (the toolkit's packages register their folder) */
static void gp_nvrtc_add_toolkits(gp_path_list *l)
{
    (void)l;
}

/* Every site-packages folder below a Python prefix ($VIRTUAL_ENV, $CONDA_PREFIX, ~/.local):
 * <prefix>/lib/python3.N/site-packages. */
static void gp_nvrtc_add_site(gp_path_list *l, const char *site);
static void gp_nvrtc_add_prefix(gp_path_list *l, const char *prefix)
{
    if (!prefix || !*prefix) return;
    char lib[GP_CUDA_PATH_MAX], err[256];
    snprintf(lib, sizeof lib, "%s/lib", prefix);
    char **names = NULL;
    size_t n = 0;
    if (gp_dir_names(lib, &names, &n, err, sizeof err) != 0) return;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(names[i], "python3", 7) != 0) continue;
        char p[GP_CUDA_PATH_MAX];
        int w = snprintf(p, sizeof p, "%s/%s/site-packages", lib, names[i]);
        if (w > 0 && (size_t)w < sizeof p && gp_path_is_dir(p)) gp_nvrtc_add_site(l, p);
    }
    gp_dir_names_free(names, n);
}
#endif

/* ---- the driver --------------------------------------------------------------------------- */

gp_status gp_cuda_driver_open(const char *path, gp_cuda_driver *out, char *why, size_t why_len)
{
    memset(out, 0, sizeof *out);
    void *h = gp_dl_open(path);
    if (!h) {
        const char *e = gp_dl_error();
        snprintf(why, why_len, "%s", e ? e : "cannot be opened");
        return GP_ERR_NOT_FOUND;
    }
    const char *missing =
        gp_cuda_resolve(h, gp_driver_syms, GP_ARRAY_LEN(gp_driver_syms), &out->api);
    gp_cuda_handle_path(h, (void *)out->api.cuInit, path, out->path, sizeof out->path);
    if (missing) {
        snprintf(why, why_len,
                 "%s lacks %s: it is not an NVIDIA driver library, or a driver older than CUDA "
                 "11 (update the NVIDIA driver)",
                 out->path, missing);
        gp_dl_close(h);
        memset(out, 0, sizeof *out);
        return GP_ERR_NOT_FOUND;
    }
    out->handle = h;
    return GP_OK;
}

void gp_cuda_driver_close(gp_cuda_driver *drv)
{
    if (drv->handle) gp_dl_close(drv->handle);
    memset(drv, 0, sizeof *drv);
}

static struct {
    gp_once once;
    gp_cuda_driver drv;
    gp_status status;
    char message[GP_CUDA_WHY_MAX];
} gp_cuda_driver_state = {.once = GP_ONCE_INIT};

static void gp_cuda_driver_init_once(void)
{
    gp_cuda_driver *drv = &gp_cuda_driver_state.drv;
    char *msg = gp_cuda_driver_state.message;
    const size_t msg_len = sizeof gp_cuda_driver_state.message;
    const char *override = getenv("GPUPORT_CUDA_LIBRARY");
#if defined(__APPLE__)
    /* No NVIDIA driver exists for macOS; only a library named on purpose is tried. */
    if (!override || !*override) {
        gp_cuda_driver_state.status = GP_ERR_NOT_FOUND;
        snprintf(msg, msg_len, "CUDA does not exist on macOS: use the metal device");
        return;
    }
#endif
    gp_path_list cands = {0};
    if (override && *override)
        gp_path_list_add(&cands, override);
    else
        gp_cuda_driver_add_candidates(&cands);
    gp_strbuf looked = GP_STRBUF_INIT;
    gp_status st = GP_ERR_NOT_FOUND;
    for (size_t i = 0; i < cands.n && st != GP_OK; i++) {
        char why[1024];
        st = gp_cuda_driver_open(cands.items[i], drv, why, sizeof why);
        if (st != GP_OK) gp_strbuf_printf(&looked, "%s%s", looked.len ? "; " : "", why);
    }
    gp_cuda_paths_free(cands.items);
    if (st != GP_OK) {
        gp_cuda_driver_state.status = GP_ERR_NOT_FOUND;
        snprintf(msg, msg_len, "the CUDA driver library was not found (looked for %s: %s): %s",
                 override && *override ? "GPUPORT_CUDA_LIBRARY" : GP_CUDA_DRIVER_PLACES,
                 gp_strbuf_cstr(&looked), GP_CUDA_DRIVER_FIX);
        gp_strbuf_free(&looked);
        return;
    }
    gp_strbuf_free(&looked);
    /* The version first: cuDriverGetVersion works before cuInit and makes 35's advice exact. */
    if (drv->api.cuDriverGetVersion(&drv->version) != GP_CU_SUCCESS) drv->version = 0;
    drv->init_result = drv->api.cuInit(0);
    if (drv->init_result != GP_CU_SUCCESS) {
        char text[1536], what[GP_CUDA_PATH_MAX + 32];
        snprintf(what, sizeof what, "cuInit failed (%s)", drv->path);
        gp_cuda_result_explain(drv->init_result, drv->version, 0, text, sizeof text);
        snprintf(msg, msg_len, "%s: %s", what, text);
        gp_status mapped = gp_cuda_result_status(drv->init_result);
        gp_cuda_driver_state.status = mapped == GP_OK ? GP_ERR_BACKEND : mapped;
        return;
    }
    gp_cuda_driver_state.status = GP_OK;
}

int gp_cuda_driver_init_result(int *version)
{
    gp_once_call(&gp_cuda_driver_state.once, gp_cuda_driver_init_once);
    if (version) *version = gp_cuda_driver_state.drv.version;
    if (!gp_cuda_driver_state.drv.handle) return -1;
    return gp_cuda_driver_state.drv.init_result;
}

gp_status gp_cuda_driver_get(const gp_cuda_driver **out)
{
    gp_once_call(&gp_cuda_driver_state.once, gp_cuda_driver_init_once);
    *out = NULL;
    if (gp_cuda_driver_state.status != GP_OK)
        return gp_error_set(gp_cuda_driver_state.status, "%s", gp_cuda_driver_state.message);
    *out = &gp_cuda_driver_state.drv;
    return GP_OK;
}

/* ---- NVRTC ---------------------------------------------------------------------------------- */

gp_status gp_cuda_nvrtc_open(const char *path, gp_cuda_nvrtc *out, char *why, size_t why_len)
{
    memset(out, 0, sizeof *out);
    void *h = gp_dl_open(path);
    if (!h) {
        const char *e = gp_dl_error();
        snprintf(why, why_len, "%s", e ? e : "cannot be opened");
        return GP_ERR_NOT_FOUND;
    }
    const char *missing = gp_cuda_resolve(h, gp_nvrtc_syms, GP_ARRAY_LEN(gp_nvrtc_syms), &out->api);
    gp_cuda_handle_path(h, (void *)out->api.nvrtcVersion, path, out->path, sizeof out->path);
    if (missing || out->api.nvrtcVersion(&out->major, &out->minor) != GP_NVRTC_SUCCESS) {
        snprintf(why, why_len, "%s: %s", out->path,
                 missing ? "not an NVRTC library (a symbol is missing)" : "nvrtcVersion failed");
        /* left loaded: see gp_cuda_nvrtc_close */
        memset(out, 0, sizeof *out);
        return GP_ERR_NOT_FOUND;
    }
    int n = 0;
    if (out->api.nvrtcGetNumSupportedArchs && out->api.nvrtcGetSupportedArchs &&
        out->api.nvrtcGetNumSupportedArchs(&n) == GP_NVRTC_SUCCESS && n > 0 &&
        n <= GP_CUDA_MAX_ARCHS && out->api.nvrtcGetSupportedArchs(out->archs) == GP_NVRTC_SUCCESS)
        out->n_archs = n;
    out->handle = h;
    return GP_OK;
}

/* Forgets an NVRTC without unloading it. NVRTC carries its own static C++ runtime, which
 * allocates its exception pool when the library loads and frees it nowhere: unloading it would
 * leak that block (LeakSanitizer reports it) and buys nothing, since the loader keeps at most a
 * few candidates per process. */
void gp_cuda_nvrtc_close(gp_cuda_nvrtc *nv)
{
    memset(nv, 0, sizeof *nv);
}

static void gp_nvrtc_add_site(gp_path_list *l, const char *site)
{
    for (size_t i = 0; i < GP_ARRAY_LEN(gp_nvrtc_wheel_files); i++) {
        char p[GP_CUDA_PATH_MAX + 64]; /* a site's path (below GP_CUDA_PATH_MAX) and a wheel file */
        int w = snprintf(p, sizeof p, "%s/%s", site, gp_nvrtc_wheel_files[i]);
        if (w > 0 && (size_t)w < sizeof p && access(p, R_OK) == 0) gp_path_list_add(l, p);
    }
}

/* The site-packages folders of `python3` on PATH (or $GPUPORT_PYTHON): the Python a user of
 * this machine installs wheels into. Only asked when nothing else was found, since it costs a
 * process start; the answer exists nowhere else. */
static void gp_nvrtc_add_python(gp_path_list *l)
{
    const char *py = getenv("GPUPORT_PYTHON");
    char *argv[] = {(char *)(py && *py ? py : GP_PYTHON_COMMAND), "-c",
                    "import site,sysconfig\n"
                    "print(sysconfig.get_paths()['purelib'])\n"
                    "print(sysconfig.get_paths()['platlib'])\n"
                    "print(site.getusersitepackages())",
                    NULL};
    gp_spawn_result res;
    char err[256];
    if (gp_spawn_capture(argv, NULL, 5.0, 1 << 16, &res, err, sizeof err) != 0) return;
    if (res.exit_code == 0 && res.out) {
        char *save = NULL;
        for (char *line = strtok_r(res.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
            gp_nvrtc_add_site(l, line);
    }
    gp_spawn_result_free(&res);
}

char **gp_cuda_nvrtc_candidates(bool ask_python)
{
    gp_path_list l = {0};
    const char *override = getenv("GPUPORT_NVRTC_LIBRARY");
    if (override && *override) {
        gp_path_list_add(&l, override);
        return l.items;
    }
    gp_nvrtc_add_toolkits(&l);
    for (size_t i = 0; i < GP_ARRAY_LEN(gp_nvrtc_names); i++)
        gp_path_list_add(&l, gp_nvrtc_names[i]);
    gp_nvrtc_add_prefix(&l, getenv("VIRTUAL_ENV"));
    gp_nvrtc_add_prefix(&l, getenv("CONDA_PREFIX"));
    const char *home = getenv("HOME");
    if (home && *home) {
        char p[GP_CUDA_PATH_MAX];
        snprintf(p, sizeof p, "%s/.local", home);
        gp_nvrtc_add_prefix(&l, p);
    }
    if (ask_python) gp_nvrtc_add_python(&l);
    if (l.failed) {
        gp_cuda_paths_free(l.items);
        return NULL;
    }
    return l.items;
}

void gp_cuda_paths_free(char **paths)
{
    if (!paths) return;
    for (char **p = paths; *p; p++)
        free(*p);
    free(paths);
}

static struct {
    gp_once once;
    gp_cuda_nvrtc nv;
    gp_status status;
    char message[GP_CUDA_WHY_MAX];
} gp_cuda_nvrtc_state = {.once = GP_ONCE_INIT};

/* One pass over candidate paths, skipping those tried before; keeps the first NVRTC whose
 * major version the driver can load in `chosen`, else the first one found in `spare`. */
typedef struct gp_nvrtc_search {
    int driver_major;
    gp_cuda_nvrtc spare;
    int have_spare, chosen;
    gp_strbuf looked;
    gp_path_list tried;
} gp_nvrtc_search;

static void gp_nvrtc_search_pass(gp_nvrtc_search *s, char **cands)
{
    for (char **c = cands; c && *c && !s->chosen; c++) {
        size_t before = s->tried.n;
        gp_path_list_add(&s->tried, *c);
        if (s->tried.n == before) continue;
        gp_cuda_nvrtc nv;
        char why[1024];
        if (gp_cuda_nvrtc_open(*c, &nv, why, sizeof why) != GP_OK) {
            gp_strbuf_printf(&s->looked, "%s%s", s->looked.len ? "; " : "", why);
            continue;
        }
        if (s->driver_major == 0 || nv.major <= s->driver_major) {
            gp_cuda_nvrtc_state.nv = nv;
            s->chosen = 1;
        } else if (!s->have_spare) {
            s->spare = nv;
            s->have_spare = 1;
        } else {
            gp_cuda_nvrtc_close(&nv);
        }
    }
}

/* Picks the first NVRTC whose major version the driver can load; when none fits, the first
 * one found (its code will be refused with advice at module load). Python is asked for its
 * wheel folders only when the cheaper places had nothing that fits. */
static void gp_cuda_nvrtc_init_once(void)
{
    const gp_cuda_driver *drv = NULL;
    gp_nvrtc_search s;
    memset(&s, 0, sizeof s);
    s.looked = (gp_strbuf)GP_STRBUF_INIT;
    if (gp_cuda_driver_get(&drv) == GP_OK && drv->version > 0) s.driver_major = drv->version / 1000;
    gp_error_clear();

    char **cands = gp_cuda_nvrtc_candidates(false);
    gp_nvrtc_search_pass(&s, cands);
    gp_cuda_paths_free(cands);
    const char *override = getenv("GPUPORT_NVRTC_LIBRARY");
    if (!s.chosen && !(override && *override)) {
        cands = gp_cuda_nvrtc_candidates(true);
        gp_nvrtc_search_pass(&s, cands);
        gp_cuda_paths_free(cands);
    }
    if (s.chosen && s.have_spare) gp_cuda_nvrtc_close(&s.spare);
    if (!s.chosen && s.have_spare) {
        gp_cuda_nvrtc_state.nv = s.spare;
        s.chosen = 1;
    }
    if (s.chosen) {
        gp_cuda_nvrtc_state.status = GP_OK;
    } else {
        gp_cuda_nvrtc_state.status = GP_ERR_NOT_FOUND;
        snprintf(gp_cuda_nvrtc_state.message, sizeof gp_cuda_nvrtc_state.message,
                 "NVRTC (the CUDA run-time compiler) was not found (looked for %s: %s): install "
                 "it with pip install nvidia-cuda-nvrtc-cu12 (or the CUDA toolkit), or set "
                 "GPUPORT_NVRTC_LIBRARY to its path",
                 override && *override ? "GPUPORT_NVRTC_LIBRARY" : GP_NVRTC_PLACES,
                 s.looked.len ? gp_strbuf_cstr(&s.looked) : "nothing found");
    }
    gp_strbuf_free(&s.looked);
    gp_cuda_paths_free(s.tried.items);
}

gp_status gp_cuda_nvrtc_get(const gp_cuda_nvrtc **out)
{
    gp_once_call(&gp_cuda_nvrtc_state.once, gp_cuda_nvrtc_init_once);
    *out = NULL;
    if (gp_cuda_nvrtc_state.status != GP_OK)
        return gp_error_set(gp_cuda_nvrtc_state.status, "%s", gp_cuda_nvrtc_state.message);
    *out = &gp_cuda_nvrtc_state.nv;
    return GP_OK;
}
