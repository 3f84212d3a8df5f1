/*
 * device.m — Metal devices: enumeration (MTLCopyAllDevices, the system default first), what
 * each can do, and the state an opened device keeps (the language version its programs are
 * compiled for, the in-process library cache, its live queues).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/metal/metal_impl.h"

/* Apple's MTLGPUFamily and MTLLanguageVersion values, spelled as numbers so that any SDK since
 * 10.15 builds this file (newer families and versions come with newer SDKs only). Each is named
 * GP_<Apple's name>: the check against Apple's declarations (tests/runtime/metal/apple) holds it
 * to Apple's value and availability. */
enum {
    GP_MTLGPUFamilyApple1 = 1001,
    GP_MTLGPUFamilyApple4 = 1004,
    GP_MTLGPUFamilyApple9 = 1009,
    GP_MTLGPUFamilyMac2 = 2002,
    GP_MTLGPUFamilyMetal3 = 5001,
    GP_MTLLanguageVersion2_3 = (2 << 16) + 3,
    GP_MTLLanguageVersion2_4 = (2 << 16) + 4,
    GP_MTLLanguageVersion3_0 = 3 << 16,
};

NSString *gp_mtl_error_text(NSError *err)
{
    if (!err) return @"(no error description)";
    NSString *reason = err.localizedFailureReason;
    if (reason.length && ![err.localizedDescription containsString:reason])
        return [NSString stringWithFormat:@"%@ (%@)", err.localizedDescription, reason];
    /* A copy of our own: the error (and the string it holds) may go before the caller is done. */
    return [[err.localizedDescription copy] autorelease];
}

/* Every device, the system default first (autoreleased). */
static NSArray *gp_mtl_devices(void)
{
    NSMutableArray *list = [NSMutableArray array];
    id<MTLDevice> dflt = MTLCreateSystemDefaultDevice();
    if (dflt) {
        [list addObject:dflt];
        [dflt release];
    }
#if TARGET_OS_OSX
    NSArray *all = MTLCopyAllDevices();
    for (id<MTLDevice> d in all)
        if (!dflt || d.registryID != dflt.registryID) [list addObject:d];
    [all release];
#endif
    return list;
}

/* "apple8", "mac2": the newest family the device reports, the architecture the cache keys on. */
static void gp_mtl_family(id<MTLDevice> d, char *buf, size_t cap)
{
    for (int f = GP_MTLGPUFamilyApple9; f >= GP_MTLGPUFamilyApple1; f--) {
        if ([d supportsFamily:(MTLGPUFamily)f]) {
            snprintf(buf, cap, "apple%d", f - GP_MTLGPUFamilyApple1 + 1);
            return;
        }
    }
    snprintf(buf, cap, "%s", [d supportsFamily:(MTLGPUFamily)GP_MTLGPUFamilyMac2] ? "mac2" : "mac");
}

/* Metal 3 where the OS and GPU have it (native float atomics in the prelude); else 2.4 on macOS
 * 12, else 2.3. Set explicitly so a program means the same on every OS version. */
static MTLLanguageVersion gp_mtl_language(id<MTLDevice> d)
{
    if (@available(macOS 13.0, iOS 16.0, *)) {
        if ([d supportsFamily:(MTLGPUFamily)GP_MTLGPUFamilyMetal3])
            return (MTLLanguageVersion)GP_MTLLanguageVersion3_0;
    }
    if (@available(macOS 12.0, iOS 15.0, *)) return (MTLLanguageVersion)GP_MTLLanguageVersion2_4;
    return (MTLLanguageVersion)GP_MTLLanguageVersion2_3;
}

/* How gp_printf prints on d: os_log where MSL 3.2 runs (macOS 15, a Metal 3 GPU, and a library
 * built with the macOS 15 SDK), else through a print buffer of records, with *why saying why
 * (GPUPORT_METAL_PRINT=buffer asks for the buffer). */
static bool gp_mtl_print_oslog(id<MTLDevice> d, const char **why)
{
    const char *e = getenv("GPUPORT_METAL_PRINT");
    if (e && !strcmp(e, "buffer")) {
        *why = "GPUPORT_METAL_PRINT=buffer";
        return false;
    }
#if defined(__MAC_15_0) || defined(__IPHONE_18_0)
    NSOperatingSystemVersion v15 = {15, 0, 0};
#if TARGET_OS_OSX
    if (![[NSProcessInfo processInfo] isOperatingSystemAtLeastVersion:v15]) {
        *why = "os_log in kernels needs macOS 15 (MSL 3.2)";
        return false;
    }
#else
    v15.majorVersion = 18;
    if (![[NSProcessInfo processInfo] isOperatingSystemAtLeastVersion:v15]) {
        *why = "os_log in kernels needs iOS 18 (MSL 3.2)";
        return false;
    }
#endif
    if ([d supportsFamily:(MTLGPUFamily)GP_MTLGPUFamilyMetal3]) return true;
    *why = "os_log needs MSL 3.2, which needs a GPU of the Metal 3 family";
#else
    (void)d;
    *why = "this library was built with an SDK before macOS 15, which has no shader logging";
#endif
    return false;
}

gp_status gp_mtl_op_probe(gp_selection_entry *out)
{
    @autoreleasepool {
        memset(out, 0, sizeof *out);
        out->backend = GP_BACKEND_METAL;
        out->device_index = -1;
        NSArray *devs = gp_mtl_devices();
        out->device_count = (uint32_t)devs.count;
        if (devs.count == 0) {
            out->outcome = GP_SELECT_NO_DEVICE;
            gp_copy_str(out->detail, sizeof out->detail,
                        "Metal reports no GPU (MTLCopyAllDevices is empty): a virtual machine "
                        "without GPU access, or a Mac whose GPU has no Metal support");
            return GP_OK;
        }
        id<MTLDevice> d = devs[0];
        const char *why = "";
        bool oslog = gp_mtl_print_oslog(d, &why);
        NSString *detail = [NSString
            stringWithFormat:@"%lu device(s); %@ (%s memory, Metal %d.%d programs; gp_printf "
                             @"through %s%s%s)",
                             (unsigned long)devs.count, d.name,
                             d.hasUnifiedMemory ? "unified" : "discrete",
                             (int)(gp_mtl_language(d) >> 16), (int)(gp_mtl_language(d) & 0xffff),
                             oslog ? "os_log" : "a print buffer", oslog ? "" : ": ", why];
        gp_copy_str(out->detail, sizeof out->detail, detail.UTF8String);
        out->outcome = GP_SELECT_AVAILABLE;
        return GP_OK;
    }
}

static void gp_mtl_fill_info(id<MTLDevice> d, uint32_t index, gp_device_info *info)
{
    memset(info, 0, sizeof *info);
    info->backend = GP_BACKEND_METAL;
    info->index = (int32_t)index;
    snprintf(info->spec, sizeof info->spec, "metal:%u", index);
    gp_copy_str(info->name, sizeof info->name, d.name.UTF8String);
    NSString *name = d.name;
    const char *vendor = [name hasPrefix:@"AMD"]     ? "AMD"
                         : [name hasPrefix:@"Intel"] ? "Intel"
                                                     : "Apple";
    gp_copy_str(info->vendor, sizeof info->vendor, vendor);
    NSString *os = [NSProcessInfo processInfo].operatingSystemVersionString;
    snprintf(info->driver_version, sizeof info->driver_version, "macOS %s", os.UTF8String);
    gp_mtl_family(d, info->arch, sizeof info->arch);
    info->total_memory = d.recommendedMaxWorkingSetSize;
    info->max_shared_memory = d.maxThreadgroupMemoryLength;
    info->max_buffer_size = d.maxBufferLength;
    info->compute_units = 0; /* Metal does not say how many GPU cores there are */
    MTLSize m = d.maxThreadsPerThreadgroup;
    info->max_group_dims[0] = (uint32_t)m.width;
    info->max_group_dims[1] = (uint32_t)m.height;
    info->max_group_dims[2] = (uint32_t)m.depth;
    /* Every Apple and Mac family allows 1024 threads in a group (fewer per pipeline, which
     * kernel_create reports); the per-dimension limits above are the device's. */
    info->max_group_size = (uint32_t)(m.width < 1024 ? m.width : 1024);
    info->simd_width = 32;
    info->unified_memory = d.hasUnifiedMemory ? 1u : 0u;
    info->fp64 = 0;     /* MSL has no double */
    info->atomic64 = 0; /* nor 64-bit add or compare-exchange on device memory */
    info->fp16 = 1;
    /* Apple GPUs run SIMD groups of 32; AMD and Intel GPUs in Macs vary per pipeline, so the
     * SIMD-group operations are offered on Apple GPUs only. */
    info->simd_group_width = strcmp(vendor, "Apple") == 0 ? 32u : 0u;
}

gp_status gp_mtl_op_device_info(uint32_t index, gp_device_info *info)
{
    @autoreleasepool {
        NSArray *devs = gp_mtl_devices();
        if (index >= devs.count)
            return gp_error_set(GP_ERR_NOT_FOUND, "no Metal device %u (there are %lu)", index,
                                (unsigned long)devs.count);
        gp_mtl_fill_info(devs[index], index, info);
        return GP_OK;
    }
}

gp_status gp_mtl_op_device_open(gp_device_state *dev)
{
    @autoreleasepool {
        NSArray *devs = gp_mtl_devices();
        if (dev->index >= devs.count)
            return gp_error_set(GP_ERR_NOT_FOUND, "no Metal device %u (there are %lu)", dev->index,
                                (unsigned long)devs.count);
        gp_mtl_device *m = calloc(1, sizeof *m);
        if (!m) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
        m->device = [devs[dev->index] retain];
        m->dispatch_threads = [m->device supportsFamily:(MTLGPUFamily)GP_MTLGPUFamilyApple4] ||
                              [m->device supportsFamily:(MTLGPUFamily)GP_MTLGPUFamilyMac2];
        m->language = gp_mtl_language(m->device);
        const char *why = "";
        m->print_oslog = gp_mtl_print_oslog(m->device, &why);
        dev->print_records = !m->print_oslog;
        if (m->print_oslog)
            gp_log_info("metal:%u: gp_printf prints through os_log (MSL 3.2)", dev->index);
        else
            gp_log_info("metal:%u: gp_printf prints through a print buffer (%s)", dev->index, why);
        pthread_mutex_init(&m->lock, NULL);
        m->libraries = [[NSMutableDictionary alloc] init];
        m->pipelines = [[NSMutableDictionary alloc] init];
        dev->impl = m;
        return GP_OK;
    }
}

void gp_mtl_op_device_close(gp_device_state *dev)
{
    @autoreleasepool {
        gp_mtl_device *m = gp_mtl_dev(dev);
        if (!m) return;
        [m->pipelines release];
        [m->libraries release];
        [m->device release];
        pthread_mutex_destroy(&m->lock);
        free(m);
        dev->impl = NULL;
    }
}

gp_status gp_mtl_op_compiler_id(gp_device_state *dev, char *buf, size_t cap)
{
    @autoreleasepool {
        gp_mtl_device *m = gp_mtl_dev(dev);
        NSString *os = [NSProcessInfo processInfo].operatingSystemVersionString;
        snprintf(buf, cap, "metal %d.%d; macOS %s", (int)(m->language >> 16),
                 (int)(m->language & 0xffff), os.UTF8String);
        return GP_OK;
    }
}

gp_status gp_mtl_op_device_synchronize(gp_device_state *dev)
{
    gp_mtl_device *m = gp_mtl_dev(dev);
    /* The device lock keeps every queue alive while it is waited for (lock order: device, then
     * queue; queue_release takes the device lock only after its own wait). */
    gp_status first = GP_OK;
    pthread_mutex_lock(&m->lock);
    for (gp_mtl_queue *q = m->queues; q; q = q->next) {
        gp_status st = gp_mtl_queue_wait(q);
        if (first == GP_OK) first = st;
    }
    pthread_mutex_unlock(&m->lock);
    return first;
}
