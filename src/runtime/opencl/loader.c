/*
 * loader.c — opens the OpenCL ICD loader (libOpenCL.so.1, OpenCL.dll) and fills a gp_cl_api table.
 * The search order is the platform's usual one unless GPUPORT_OPENCL_LIBRARY_PATH says otherwise;
 * every place tried is remembered so that a miss can say where it looked.
 */
#include "runtime/opencl/loader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/dynlib.h"
#include "util/fs.h"
#include "util/strbuf.h"
#include "util/thread.h"

#if defined(__APPLE__)
static const char *const gp_cl_default_names[] = {
    "/System/Library/Frameworks/OpenCL.framework/OpenCL"};
static const char *const gp_cl_file_names[] = {"OpenCL", "libOpenCL.dylib"};
#define GP_CL_SYSTEM_SEARCH "the system's library search"
#define GP_CL_INSTALL_HINT  "install an OpenCL driver"
#elif defined(_WIN32)
/* The Khronos ICD loader that GPU drivers install into System32; it finds the drivers through
 * the registry (HKLM\SOFTWARE\Khronos\OpenCL\Vendors). */
static const char *const gp_cl_default_names[] = {"OpenCL.dll"};
static const char *const gp_cl_file_names[] = {"OpenCL.dll"};
#define GP_CL_SYSTEM_SEARCH "the system's DLL search (the program's folder, System32, PATH)"
#define GP_CL_INSTALL_HINT                                                                         \
    "install the GPU's driver (NVIDIA, AMD and Intel drivers install OpenCL.dll), or for the CPU " \
    "an OpenCL runtime such as Intel's"
#else
static const char *const gp_cl_default_names[] = {"libOpenCL.so.1", "libOpenCL.so"};
static const char *const gp_cl_file_names[] = {"libOpenCL.so.1", "libOpenCL.so"};
#define GP_CL_SYSTEM_SEARCH                                                                        \
    "the dynamic linker's search (LD_LIBRARY_PATH, the ld.so cache, /lib, /usr/lib)"
#define GP_CL_INSTALL_HINT "Debian/Ubuntu: ocl-icd-libopencl1 plus a driver such as pocl-opencl-icd"
#endif

/* Resolves every entry point; the first one missing is named in `why`. */
static gp_status gp_cl_api_resolve(gp_cl_api *api, char *why, size_t whylen)
{
    void *sym;
#define GP_CL_RESOLVE(ret, name, params)                                                           \
    sym = gp_dl_sym(api->library, #name);                                                          \
    if (!sym) {                                                                                    \
        snprintf(why, whylen,                                                                      \
                 "%s is not an OpenCL 1.2 ICD loader: it lacks %s; install an OpenCL 1.2 "         \
                 "or newer ICD loader (Debian: ocl-icd-libopencl1)",                               \
                 api->path, #name);                                                                \
        return GP_ERR_UNSUPPORTED;                                                                 \
    }                                                                                              \
    memcpy(&api->name, &sym, sizeof sym);
    GP_CL_ENTRY_POINTS(GP_CL_RESOLVE)
#undef GP_CL_RESOLVE
    return GP_OK;
}

/* Tries one name with dlopen; on failure appends "name (dlerror)" to the list of misses. */
static int gp_cl_try_open(gp_cl_api *api, const char *name, gp_strbuf *tried)
{
    void *lib = gp_dl_open(name);
    if (lib) {
        api->library = lib;
        size_t n = strlen(name); /* the path as shown: cut to the field if need be */
        if (n >= sizeof api->path) n = sizeof api->path - 1;
        memcpy(api->path, name, n);
        api->path[n] = '\0';
        return 1;
    }
    const char *err = gp_dl_error();
    if (tried->len) gp_strbuf_puts(tried, "; ");
    gp_strbuf_puts(tried, name);
    /* dlerror repeats the name and says "cannot open shared object file": keep only the
     * reason after the last ": " so that the list stays readable. */
    if (err) {
        const char *reason = strrchr(err, ':');
        gp_strbuf_printf(tried, " (%s)", reason ? reason + 2 : err);
    }
    return 0;
}

/* Tries one entry of a search list: a folder is tried for each usual file name. */
static int gp_cl_try_entry(gp_cl_api *api, const char *entry, gp_strbuf *tried)
{
    struct stat st;
    if (stat(entry, &st) == 0 && S_ISDIR(st.st_mode)) {
        for (size_t i = 0; i < sizeof gp_cl_file_names / sizeof gp_cl_file_names[0]; i++) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", entry, gp_cl_file_names[i]);
            if (gp_cl_try_open(api, path, tried)) return 1;
        }
        return 0;
    }
    return gp_cl_try_open(api, entry, tried);
}

static int gp_cl_try_list(gp_cl_api *api, const char *search_path, gp_strbuf *tried)
{
    char *copy = strdup(search_path);
    if (!copy) return 0;
    int found = 0;
    char *save = NULL;
    for (char *tok = strtok_r(copy, GP_PATH_LIST_SEP, &save); tok && !found;
         tok = strtok_r(NULL, GP_PATH_LIST_SEP, &save))
        found = gp_cl_try_entry(api, tok, tried);
    free(copy);
    return found;
}

gp_status gp_cl_api_open(gp_cl_api *api, const char *search_path, char *why, size_t whylen)
{
    memset(api, 0, sizeof *api);
    gp_strbuf tried = GP_STRBUF_INIT;
    int found = 0;
    if (search_path) {
        found = gp_cl_try_list(api, search_path, &tried);
    } else {
        for (size_t i = 0; !found && i < sizeof gp_cl_default_names / sizeof gp_cl_default_names[0];
             i++)
            found = gp_cl_try_open(api, gp_cl_default_names[i], &tried);
    }
    if (!found) {
        if (search_path)
            snprintf(why, whylen,
                     "OpenCL ICD loader not found in %s=\"%s\"; tried: %s. Point it at the "
                     "folder holding %s, or unset it to use the system's",
                     GP_CL_LIBRARY_PATH_ENV, search_path,
                     tried.len ? gp_strbuf_cstr(&tried) : "(an empty list)", gp_cl_file_names[0]);
        else
            snprintf(why, whylen,
                     "OpenCL ICD loader not found; tried %s through %s. Install one (%s) or set "
                     "%s to its folder",
                     gp_strbuf_cstr(&tried), GP_CL_SYSTEM_SEARCH, GP_CL_INSTALL_HINT,
                     GP_CL_LIBRARY_PATH_ENV);
        gp_strbuf_free(&tried);
        return GP_ERR_NOT_FOUND;
    }
    gp_strbuf_free(&tried);
    gp_status st = gp_cl_api_resolve(api, why, whylen);
    if (st != GP_OK) gp_cl_api_close(api);
    return st;
}

void gp_cl_api_close(gp_cl_api *api)
{
    if (api->library) gp_dl_close(api->library);
    memset(api, 0, sizeof *api);
}

/* The process-wide loader: opened once, kept for the life of the process. */
static gp_once gp_cl_global_once = GP_ONCE_INIT;
static gp_cl_api gp_cl_global_api;
static gp_status gp_cl_global_status;
static char gp_cl_global_why[2048];

static void gp_cl_global_open(void)
{
    const char *env = getenv(GP_CL_LIBRARY_PATH_ENV);
    gp_cl_global_status =
        gp_cl_api_open(&gp_cl_global_api, env, gp_cl_global_why, sizeof gp_cl_global_why);
}

const gp_cl_api *gp_cl_api_get(char *why, size_t whylen)
{
    gp_once_call(&gp_cl_global_once, gp_cl_global_open);
    if (gp_cl_global_status == GP_OK) return &gp_cl_global_api;
    if (why && whylen) snprintf(why, whylen, "%s", gp_cl_global_why);
    return NULL;
}
