/*
 * cl_api.h — our own declarations of the OpenCL 1.2 types, constants and entry points that the
 * OpenCL backend uses, so that no OpenCL SDK or header is needed at build time. The entry
 * points are resolved at run time from the ICD loader (loader.c) into a gp_cl_api table.
 * Values are those of the Khronos OpenCL 1.2 specification.
 */
#ifndef GP_RUNTIME_OPENCL_CL_API_H
#define GP_RUNTIME_OPENCL_CL_API_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define GP_CL_CALL __stdcall
#else
#define GP_CL_CALL
#endif

/* ---- scalar types ------------------------------------------------------------------------ */
typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef int64_t cl_long;
typedef uint64_t cl_ulong;
typedef cl_uint cl_bool;
typedef cl_ulong cl_bitfield;
typedef cl_bitfield cl_device_type;
typedef cl_bitfield cl_mem_flags;
typedef cl_bitfield cl_map_flags;
typedef cl_bitfield cl_command_queue_properties;
typedef cl_bitfield cl_device_fp_config;
typedef cl_uint cl_platform_info;
typedef cl_uint cl_buffer_create_type;
typedef struct cl_buffer_region {
    size_t origin, size;
} cl_buffer_region;
typedef cl_uint cl_device_info;
typedef cl_uint cl_program_info;
typedef cl_uint cl_program_build_info;
typedef cl_int cl_build_status;
typedef cl_uint cl_kernel_info;
typedef cl_uint cl_kernel_arg_info;
typedef cl_uint cl_kernel_arg_address_qualifier;
typedef cl_uint cl_kernel_work_group_info;
typedef cl_uint cl_event_info;
typedef cl_uint cl_profiling_info;
typedef intptr_t cl_context_properties;

/* ---- opaque handles ---------------------------------------------------------------------- */
typedef struct _cl_platform_id *cl_platform_id;
typedef struct _cl_device_id *cl_device_id;
typedef struct _cl_context *cl_context;
typedef struct _cl_command_queue *cl_command_queue;
typedef struct _cl_mem *cl_mem;
typedef struct _cl_program *cl_program;
typedef struct _cl_kernel *cl_kernel;
typedef struct _cl_event *cl_event;

/* ---- constants ----------------------------------------------------------------------------- */
#define CL_FALSE 0
#define CL_TRUE  1

/* error codes: see errors.c for names and fixes */
#define CL_SUCCESS                       0
#define CL_DEVICE_NOT_FOUND              -1
#define CL_MEM_OBJECT_ALLOCATION_FAILURE -4
#define CL_OUT_OF_RESOURCES              -5
#define CL_OUT_OF_HOST_MEMORY            -6
#define CL_BUILD_PROGRAM_FAILURE         -11
#define CL_INVALID_VALUE                 -30
#define CL_INVALID_BINARY                -42
#define CL_INVALID_KERNEL_NAME           -46
#define CL_INVALID_ARG_SIZE              -51
#define CL_INVALID_WORK_GROUP_SIZE       -54
#define CL_INVALID_BUFFER_SIZE           -61
#define CL_PLATFORM_NOT_FOUND_KHR        -1001

#define CL_PLATFORM_PROFILE    0x0900
#define CL_PLATFORM_VERSION    0x0901
#define CL_PLATFORM_NAME       0x0902
#define CL_PLATFORM_VENDOR     0x0903
#define CL_PLATFORM_EXTENSIONS 0x0904

#define CL_DEVICE_TYPE_DEFAULT     (1u << 0)
#define CL_DEVICE_TYPE_CPU         (1u << 1)
#define CL_DEVICE_TYPE_GPU         (1u << 2)
#define CL_DEVICE_TYPE_ACCELERATOR (1u << 3)
#define CL_DEVICE_TYPE_CUSTOM      (1u << 4)
#define CL_DEVICE_TYPE_ALL         0xFFFFFFFFu

#define CL_DEVICE_TYPE                         0x1000
#define CL_DEVICE_VENDOR_ID                    0x1001
#define CL_DEVICE_MAX_COMPUTE_UNITS            0x1002
#define CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS     0x1003
#define CL_DEVICE_MAX_WORK_GROUP_SIZE          0x1004
#define CL_DEVICE_MAX_WORK_ITEM_SIZES          0x1005
#define CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT 0x100A
#define CL_DEVICE_MAX_CLOCK_FREQUENCY          0x100C
#define CL_DEVICE_MAX_MEM_ALLOC_SIZE           0x1010
#define CL_DEVICE_MEM_BASE_ADDR_ALIGN          0x1019
#define CL_DEVICE_GLOBAL_MEM_SIZE              0x101F
#define CL_DEVICE_LOCAL_MEM_SIZE               0x1023
#define CL_DEVICE_PROFILING_TIMER_RESOLUTION   0x1025
#define CL_DEVICE_AVAILABLE                    0x1027
#define CL_DEVICE_COMPILER_AVAILABLE           0x1028
#define CL_DEVICE_NAME                         0x102B
#define CL_DEVICE_VENDOR                       0x102C
#define CL_DRIVER_VERSION                      0x102D
#define CL_DEVICE_VERSION                      0x102F
#define CL_DEVICE_EXTENSIONS                   0x1030
#define CL_DEVICE_PLATFORM                     0x1031
#define CL_DEVICE_DOUBLE_FP_CONFIG             0x1032
#define CL_DEVICE_HOST_UNIFIED_MEMORY          0x1035
#define CL_DEVICE_OPENCL_C_VERSION             0x103D
/* vendor extensions (cl_nv_device_attribute_query, cl_amd_device_attribute_query) */
#define CL_DEVICE_WARP_SIZE_NV        0x4003
#define CL_DEVICE_WAVEFRONT_WIDTH_AMD 0x4043

#define CL_CONTEXT_PLATFORM 0x1084

#define CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE (1u << 0)
#define CL_QUEUE_PROFILING_ENABLE              (1u << 1)

#define CL_MEM_READ_WRITE     (1u << 0)
#define CL_MEM_WRITE_ONLY     (1u << 1)
#define CL_MEM_READ_ONLY      (1u << 2)
#define CL_MEM_USE_HOST_PTR   (1u << 3)
#define CL_MEM_ALLOC_HOST_PTR (1u << 4)
#define CL_MEM_COPY_HOST_PTR  (1u << 5)

#define CL_BUFFER_CREATE_TYPE_REGION 0x1220

#define CL_MAP_READ  (1u << 0)
#define CL_MAP_WRITE (1u << 1)

#define CL_PROGRAM_NUM_DEVICES  0x1162
#define CL_PROGRAM_DEVICES      0x1163
#define CL_PROGRAM_BINARY_SIZES 0x1165
#define CL_PROGRAM_BINARIES     0x1166
#define CL_PROGRAM_NUM_KERNELS  0x1167
#define CL_PROGRAM_KERNEL_NAMES 0x1168

#define CL_PROGRAM_BUILD_STATUS 0x1181
#define CL_PROGRAM_BUILD_LOG    0x1183

#define CL_KERNEL_FUNCTION_NAME 0x1190
#define CL_KERNEL_NUM_ARGS      0x1191

#define CL_KERNEL_ARG_ADDRESS_QUALIFIER 0x1196
#define CL_KERNEL_ARG_TYPE_NAME         0x1198
#define CL_KERNEL_ARG_NAME              0x119A
#define CL_KERNEL_ARG_ADDRESS_GLOBAL    0x119B
#define CL_KERNEL_ARG_ADDRESS_LOCAL     0x119C
#define CL_KERNEL_ARG_ADDRESS_CONSTANT  0x119D
#define CL_KERNEL_ARG_ADDRESS_PRIVATE   0x119E

#define CL_KERNEL_WORK_GROUP_SIZE                    0x11B0
#define CL_KERNEL_LOCAL_MEM_SIZE                     0x11B2
#define CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE 0x11B3
#define CL_KERNEL_PRIVATE_MEM_SIZE                   0x11B4

#define CL_EVENT_COMMAND_EXECUTION_STATUS 0x11D3
#define CL_COMPLETE                       0x0

#define CL_PROFILING_COMMAND_QUEUED 0x1280
#define CL_PROFILING_COMMAND_SUBMIT 0x1281
#define CL_PROFILING_COMMAND_START  0x1282
#define CL_PROFILING_COMMAND_END    0x1283

/* ---- entry points ------------------------------------------------------------------------ */
typedef void(GP_CL_CALL *gp_cl_notify_fn)(const char *errinfo, const void *private_info, size_t cb,
                                          void *user_data);

/* X(return type, name, parameter list): one line per entry point we resolve. Every one of them
 * exists in OpenCL 1.2, so a loader that lacks one is refused as too old. */
#define GP_CL_ENTRY_POINTS(X)                                                                      \
    X(cl_int, clGetPlatformIDs, (cl_uint, cl_platform_id *, cl_uint *))                            \
    X(cl_int, clGetPlatformInfo, (cl_platform_id, cl_platform_info, size_t, void *, size_t *))     \
    X(cl_int, clGetDeviceIDs,                                                                      \
      (cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *))                        \
    X(cl_int, clGetDeviceInfo, (cl_device_id, cl_device_info, size_t, void *, size_t *))           \
    X(cl_context, clCreateContext,                                                                 \
      (const cl_context_properties *, cl_uint, const cl_device_id *, gp_cl_notify_fn, void *,      \
       cl_int *))                                                                                  \
    X(cl_int, clReleaseContext, (cl_context))                                                      \
    X(cl_command_queue, clCreateCommandQueue,                                                      \
      (cl_context, cl_device_id, cl_command_queue_properties, cl_int *))                           \
    X(cl_int, clReleaseCommandQueue, (cl_command_queue))                                           \
    X(cl_mem, clCreateBuffer, (cl_context, cl_mem_flags, size_t, void *, cl_int *))                \
    X(cl_int, clReleaseMemObject, (cl_mem))                                                        \
    X(cl_mem, clCreateSubBuffer,                                                                   \
      (cl_mem, cl_mem_flags, cl_buffer_create_type, const void *, cl_int *))                       \
    X(cl_int, clEnqueueReadBuffer,                                                                 \
      (cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, cl_uint, const cl_event *,       \
       cl_event *))                                                                                \
    X(cl_int, clEnqueueWriteBuffer,                                                                \
      (cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *, cl_uint, const cl_event *, \
       cl_event *))                                                                                \
    X(cl_int, clEnqueueCopyBuffer,                                                                 \
      (cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint, const cl_event *,        \
       cl_event *))                                                                                \
    X(cl_int, clEnqueueFillBuffer,                                                                 \
      (cl_command_queue, cl_mem, const void *, size_t, size_t, size_t, cl_uint, const cl_event *,  \
       cl_event *))                                                                                \
    X(void *, clEnqueueMapBuffer,                                                                  \
      (cl_command_queue, cl_mem, cl_bool, cl_map_flags, size_t, size_t, cl_uint, const cl_event *, \
       cl_event *, cl_int *))                                                                      \
    X(cl_int, clEnqueueUnmapMemObject,                                                             \
      (cl_command_queue, cl_mem, void *, cl_uint, const cl_event *, cl_event *))                   \
    X(cl_program, clCreateProgramWithSource,                                                       \
      (cl_context, cl_uint, const char **, const size_t *, cl_int *))                              \
    X(cl_program, clCreateProgramWithBinary,                                                       \
      (cl_context, cl_uint, const cl_device_id *, const size_t *, const unsigned char **,          \
       cl_int *, cl_int *))                                                                        \
    X(cl_int, clBuildProgram,                                                                      \
      (cl_program, cl_uint, const cl_device_id *, const char *,                                    \
       void(GP_CL_CALL *)(cl_program, void *), void *))                                            \
    X(cl_int, clGetProgramInfo, (cl_program, cl_program_info, size_t, void *, size_t *))           \
    X(cl_int, clGetProgramBuildInfo,                                                               \
      (cl_program, cl_device_id, cl_program_build_info, size_t, void *, size_t *))                 \
    X(cl_int, clReleaseProgram, (cl_program))                                                      \
    X(cl_kernel, clCreateKernel, (cl_program, const char *, cl_int *))                             \
    X(cl_int, clReleaseKernel, (cl_kernel))                                                        \
    X(cl_int, clGetKernelInfo, (cl_kernel, cl_kernel_info, size_t, void *, size_t *))              \
    X(cl_int, clGetKernelArgInfo,                                                                  \
      (cl_kernel, cl_uint, cl_kernel_arg_info, size_t, void *, size_t *))                          \
    X(cl_int, clGetKernelWorkGroupInfo,                                                            \
      (cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t, void *, size_t *))              \
    X(cl_int, clSetKernelArg, (cl_kernel, cl_uint, size_t, const void *))                          \
    X(cl_int, clEnqueueNDRangeKernel,                                                              \
      (cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *, const size_t *,       \
       cl_uint, const cl_event *, cl_event *))                                                     \
    X(cl_int, clEnqueueMarkerWithWaitList,                                                         \
      (cl_command_queue, cl_uint, const cl_event *, cl_event *))                                   \
    X(cl_int, clEnqueueBarrierWithWaitList,                                                        \
      (cl_command_queue, cl_uint, const cl_event *, cl_event *))                                   \
    X(cl_int, clFlush, (cl_command_queue))                                                         \
    X(cl_int, clFinish, (cl_command_queue))                                                        \
    X(cl_int, clWaitForEvents, (cl_uint, const cl_event *))                                        \
    X(cl_int, clGetEventInfo, (cl_event, cl_event_info, size_t, void *, size_t *))                 \
    X(cl_int, clSetEventCallback,                                                                  \
      (cl_event, cl_int, void(GP_CL_CALL *)(cl_event, cl_int, void *), void *))                    \
    X(cl_int, clGetEventProfilingInfo, (cl_event, cl_profiling_info, size_t, void *, size_t *))    \
    X(cl_int, clRetainEvent, (cl_event))                                                           \
    X(cl_int, clReleaseEvent, (cl_event))

#define GP_CL_DECLARE_POINTER(ret, name, params) ret(GP_CL_CALL *name) params;

/* The resolved entry points of one opened ICD loader (see loader.h). */
typedef struct gp_cl_api {
    void *library;  /* the dlopen handle */
    char path[512]; /* the file that was opened, as given to dlopen */
    GP_CL_ENTRY_POINTS(GP_CL_DECLARE_POINTER)
} gp_cl_api;

#endif
