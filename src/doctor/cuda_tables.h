/* cuda_tables.h — the published CUDA compatibility facts doctor judges by: the minimum Linux
 * driver per toolkit, the compute capabilities each toolkit and each PyTorch wheel family
 * supports, and which GPUs are datacenter parts (where cuda-compat works). */
#ifndef GP_DOCTOR_CUDA_TABLES_H
#define GP_DOCTOR_CUDA_TABLES_H

#include <stdbool.h>
#include <stddef.h>

#include "doctor/facts.h"

/* The highest CUDA a Linux driver supports, as {major, minor}; n == 0 when older than 450. */
gp_version gp_cuda_for_driver(const gp_version *driver);
/* The lowest compute capability (x10) a toolkit major supports: 13 -> 75, 12 -> 50. */
int gp_cuda_min_cc(int toolkit_major);
/* The first toolkit (major*10+minor) that builds native code for CC x10; 0 when unknown. */
int gp_cuda_first_toolkit_for_cc(int cc);
/* "Hopper" for 90; "unknown" otherwise. */
const char *gp_cc_arch_name(int cc);
/* The SASS targets (CC x10) of the official PyTorch wheels built with CUDA major.minor. */
size_t gp_torch_wheel_targets(int major, int minor, int *out, size_t n);
/* True when a wheel with these targets has code that runs on CC x10 (same major, minor <=). */
bool gp_torch_runs_on(const int *targets, size_t n, int cc);
/* The PyTorch wheel index ("cu128") that best fits a driver supporting CUDA `driver_cuda`
 * (major*10+minor) and a GPU of CC x10 (0 = unknown); NULL when none fits. */
const char *gp_torch_index_for(int driver_cuda, int cc);
/* Whether a GPU supports CUDA forward compatibility (the cuda-compat package). NVIDIA's rule
 * (CUDA Compatibility, "Forward Compatibility"): NVIDIA Data Center GPUs, select NGC Server
 * Ready SKUs of RTX cards, and Jetson boards; elsewhere cuInit returns 804
 * (CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE). */
typedef enum gp_forward_compat {
    GP_FC_UNKNOWN,  /* no name, no PCI class to judge by */
    GP_FC_YES,      /* data-centre GPU */
    GP_FC_SELECTED, /* professional RTX/Quadro: only NVIDIA's select NGC-Ready SKUs */
    GP_FC_NO,       /* GeForce, TITAN and the rest */
} gp_forward_compat;
gp_forward_compat gp_gpu_forward_compat(const char *name, unsigned pci_class);
/* The lowest driver with which a CUDA `major`.x application runs under minor-version
 * compatibility (NVIDIA's release notes, "CUDA Toolkit and Minimum Required Driver Version for
 * CUDA Minor Version Compatibility"): 12 -> "525.60.13" (Linux), "528.33" (Windows). False for
 * a major without minor-version compatibility. */
bool gp_cuda_major_min_driver(int major, const char **linux_min, const char **windows_min);

#endif
