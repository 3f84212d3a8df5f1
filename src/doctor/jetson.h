/* jetson.h — the published facts doctor judges a Jetson by: which JetPack and CUDA each L4T
 * (Jetson Linux) release is, which GPU each Tegra SoC integrates and its compute capability, and
 * where NVIDIA publishes the PyTorch wheels for each JetPack. */
#ifndef GP_DOCTOR_JETSON_H
#define GP_DOCTOR_JETSON_H

#include <stdbool.h>
#include <stddef.h>

typedef struct gp_l4t_release {
    int l4t[3];          /* {36, 4, 3}: R36 (release), REVISION: 4.3 */
    const char *jetpack; /* "6.2" */
    int cuda;            /* the CUDA the release ships, major*10+minor: 126 */
    const char *modules; /* the Jetson modules it supports */
} gp_l4t_release;

typedef struct gp_tegra_soc {
    int soc;                  /* 234 */
    const char *compat;       /* "nvidia,tegra234" */
    unsigned chip_id;         /* TEGRA_CHIPID in /etc/nv_boot_control.conf: 0x23 */
    const char *jetsons;      /* "Jetson AGX Orin, Orin NX, Orin Nano" */
    const char *gpu_arch;     /* "Ampere" */
    int cc;                   /* 87 */
    const char *last_jetpack; /* the newest JetPack for the SoC; NULL when current */
} gp_tegra_soc;

/* The row for an L4T release: the exact one, else the newest older release of the same major
 * (*exact false). NULL when the major is not in the table. */
const gp_l4t_release *gp_l4t_lookup(const int l4t[3], bool *exact);
/* The SoC with this number (234), compatible entry or chip id; NULL when unknown. */
const gp_tegra_soc *gp_tegra_soc_by_number(int soc);
const gp_tegra_soc *gp_tegra_soc_by_compatible(const char *compatible);
const gp_tegra_soc *gp_tegra_soc_by_chip_id(unsigned chip_id);
/* The SoC a device-tree model names ("NVIDIA Jetson AGX Orin Developer Kit"); NULL unknown. */
const gp_tegra_soc *gp_tegra_soc_by_model(const char *model);
/* True for L4T releases whose CUDA is the Arm-server (SBSA) CUDA: JetPack 7 and newer, where
 * PyTorch's own aarch64 CUDA wheels are the ones to use. */
bool gp_l4t_is_sbsa(const int l4t[3]);
/* The pip command that installs NVIDIA's PyTorch for this L4T release into out. */
void gp_jetson_torch_fix(const int l4t[3], const char *jetpack, char *out, size_t n);

#endif
