/* metal_device.m — the default Metal device's facts for doctor: name, unified memory, the
 * recommended working set, and the highest Apple GPU family it supports. Objective-C, built
 * only on Apple platforms (the build globs *.m there), called from probe_macos.c. */
#import <Metal/Metal.h>

#include "doctor/probe.h"

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
            for (int fam = 10; fam >= 1; fam--) {
                /* MTLGPUFamilyApple1 = 1001 ... Apple10 = 1010 */
                if ([dev supportsFamily:(MTLGPUFamily)(1000 + fam)]) {
                    m->metal_family = fam;
                    break;
                }
            }
        }
#if !__has_feature(objc_arc)
        [dev release];
#endif
    }
}
