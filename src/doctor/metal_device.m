/* metal_device.m — the default Metal device's facts for doctor: name, unified memory, the
 * recommended working set, and the highest Apple GPU family it supports. Objective-C, built
 * only on Apple platforms (the build globs *.m there), called from probe_macos.c. */
#import <Metal/Metal.h>

#include "doctor/probe.h"

/* Apple's MTLGPUFamily values, as numbers so that older SDKs build this file; named
 * GP_<Apple's name>, which the check against Apple's declarations holds to Apple's values. */
enum { GP_MTLGPUFamilyApple1 = 1001, GP_MTLGPUFamilyApple10 = 1010 };

void gp_probe_metal(gp_doctor_facts *f)
{
    @autoreleasepool {
        id<MTLDevice> dev = MTLCreateSystemDefaultDevice();
        if (!dev) return;
        gp_doctor_mac *m = &f->mac;
        m->metal = true;
        gp_copy(m->metal_name, sizeof m->metal_name, [[dev name] UTF8String]);
        m->metal_unified = [dev hasUnifiedMemory];
        m->metal_working_set = (uint64_t)[dev recommendedMaxWorkingSetSize];
        if (@available(macOS 10.15, *)) {
            for (int fam = GP_MTLGPUFamilyApple10; fam >= GP_MTLGPUFamilyApple1; fam--) {
                if ([dev supportsFamily:(MTLGPUFamily)fam]) {
                    m->metal_family = fam - GP_MTLGPUFamilyApple1 + 1;
                    break;
                }
            }
        }
#if !__has_feature(objc_arc)
        [dev release];
#endif
    }
}
