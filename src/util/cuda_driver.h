/* cuda_driver.h — the one table of which Linux NVIDIA driver each CUDA release needs (from NVIDIA's
 * release notes), shared by the CUDA backend's error messages, doctor and archcheck. A new CUDA
 * release is one more row in cuda_driver.c. */
#ifndef GP_UTIL_CUDA_DRIVER_H
#define GP_UTIL_CUDA_DRIVER_H

/* The minimum Linux driver for CUDA major.minor ("550.54.14"). A minor that was never released
 * (12.7) needs what the next release needs; NULL when newer than the table or older than 11.0. */
const char *gp_cuda_min_driver_for(int major, int minor);
/* The highest CUDA release a Linux driver version ("535.129.03") supports, as major*10+minor
 * (122 for 12.2); 0 when the driver is older than every row or the text is not a version. */
int gp_cuda_max_for_driver(const char *driver_version);

#endif
