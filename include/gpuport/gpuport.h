/*
 * gpuport.h — the portable GPU runtime: one C API over CUDA, Metal, OpenCL and the CPU.
 *
 * Every function returns a gp_status (0 = GP_OK, negative = error); after an error,
 * gp_last_error() returns a message for the calling thread that names the cause and the fix.
 */
#ifndef GPUPORT_GPUPORT_H
#define GPUPORT_GPUPORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define GP_API __declspec(dllexport)
#elif defined(__GNUC__)
#define GP_API __attribute__((visibility("default")))
#else
#define GP_API
#endif

/* ---- status ------------------------------------------------------------------------------ */
typedef enum gp_status {
    GP_OK = 0,
    GP_ERR_INVALID_ARGUMENT = -1, /* a NULL handle, a bad spec string, a wrong kernel argument */
    GP_ERR_NOT_FOUND = -2,        /* no such device, kernel or backend */
    GP_ERR_UNSUPPORTED = -3,      /* the device or backend cannot do this (fp64, async copy...) */
    GP_ERR_OUT_OF_MEMORY = -4,    /* host or device allocation failed */
    GP_ERR_BUILD = -5,            /* kernel compilation failed; the message holds the log */
    GP_ERR_LAUNCH = -6,           /* the launch was refused (group size, resources) */
    GP_ERR_BACKEND = -7,          /* the backend's runtime returned an error; the message has it */
    GP_ERR_IO = -8,               /* a file could not be read or written (the kernel cache) */
    GP_ERR_INTERNAL = -9,         /* a bug in gpuport: please report it */
} gp_status;

/* Thread-safe. Returns the message of the last error on the calling thread ("" if none).
 * The pointer stays valid until the next gpuport call on the same thread. */
GP_API const char *gp_last_error(void);
/* Thread-safe. The symbolic name of a status ("GP_ERR_BUILD"). */
GP_API const char *gp_status_name(gp_status status);
/* Thread-safe. The library's version, "MAJOR.MINOR.PATCH". */
GP_API const char *gp_version_string(void);

#ifdef __cplusplus
}
#endif
#endif /* GPUPORT_GPUPORT_H */
