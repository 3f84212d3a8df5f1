/* mach_time.h — HAND-KEPT stand-in for the Mach clock declarations of <mach/mach_time.h> the
 * Metal backend uses (Darwin's C library is in none of the packages the stand-in SDK is generated
 * from; written from Apple's header as documented). Syntax check only; see
 * Foundation/Foundation.h. */
#ifndef GP_STANDIN_MACH_TIME_H
#define GP_STANDIN_MACH_TIME_H
#include <stdint.h>
typedef int kern_return_t;
struct mach_timebase_info {
    uint32_t numer;
    uint32_t denom;
};
typedef struct mach_timebase_info *mach_timebase_info_t;
typedef struct mach_timebase_info mach_timebase_info_data_t;
kern_return_t mach_timebase_info(mach_timebase_info_t info);
uint64_t mach_absolute_time(void);
#endif
