/* mach_time.h — a STAND-IN for the Mach clock declarations the Metal backend uses (syntax check
 * only; see Foundation.h in this folder). */
#ifndef GP_STANDIN_MACH_TIME_H
#define GP_STANDIN_MACH_TIME_H
#include <stdint.h>
typedef struct mach_timebase_info {
    uint32_t numer;
    uint32_t denom;
} mach_timebase_info_data_t;
int mach_timebase_info(mach_timebase_info_data_t *info);
uint64_t mach_absolute_time(void);
#endif
