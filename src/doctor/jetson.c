/* jetson.c — see jetson.h. Sources: NVIDIA's JetPack archive and JetPack release pages
 * (developer.nvidia.com/embedded/jetpack-archive, .../jetpack/downloads/archive-7.x) and the
 * Jetson Linux archive (docs.nvidia.com/jetson/archives) for L4T -> JetPack -> CUDA; the CUDA
 * GPU Compute Capability pages (developer.nvidia.com/cuda-gpus and cuda-legacy-gpus) for each
 * Jetson's CC; "Installing PyTorch for Jetson Platform" (docs.nvidia.com/deeplearning/frameworks)
 * and NVIDIA's PyTorch for Jetson wheel list for the wheel indexes. A new release is one row. */
#include "doctor/jetson.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define JP4  "Jetson Nano, TX1, TX2, AGX Xavier, Xavier NX"
#define JP5  "Jetson AGX Xavier, Xavier NX, AGX Orin, Orin NX, Orin Nano"
#define JP6  "Jetson AGX Orin, Orin NX, Orin Nano"
#define JP70 "Jetson AGX Thor, T5000, T4000"
#define JP72 "Jetson AGX Orin, Orin NX, Orin Nano, AGX Thor, T5000, T4000"

static const gp_l4t_release releases[] = {
    {{32, 1, 0}, "4.2", 100, JP4},      {{32, 2, 0}, "4.2.1", 100, JP4},
    {{32, 2, 1}, "4.2.2", 100, JP4},    {{32, 2, 3}, "4.2.3", 100, JP4},
    {{32, 3, 1}, "4.3", 100, JP4},      {{32, 4, 2}, "4.4 DP", 102, JP4},
    {{32, 4, 3}, "4.4", 102, JP4},      {{32, 4, 4}, "4.4.1", 102, JP4},
    {{32, 5, 0}, "4.5", 102, JP4},      {{32, 5, 1}, "4.5.1", 102, JP4},
    {{32, 6, 1}, "4.6", 102, JP4},      {{32, 7, 1}, "4.6.1", 102, JP4},
    {{32, 7, 2}, "4.6.2", 102, JP4},    {{32, 7, 3}, "4.6.3", 102, JP4},
    {{32, 7, 4}, "4.6.4", 102, JP4},    {{32, 7, 5}, "4.6.5", 102, JP4},
    {{32, 7, 6}, "4.6.6", 102, JP4},    {{34, 1, 0}, "5.0 DP", 114, JP5},
    {{34, 1, 1}, "5.0.1 DP", 114, JP5}, {{35, 1, 0}, "5.0.2", 114, JP5},
    {{35, 2, 1}, "5.1", 114, JP5},      {{35, 3, 1}, "5.1.1", 114, JP5},
    {{35, 4, 1}, "5.1.2", 114, JP5},    {{35, 5, 0}, "5.1.3", 114, JP5},
    {{35, 6, 0}, "5.1.4", 114, JP5},    {{35, 6, 1}, "5.1.5", 114, JP5},
    {{36, 2, 0}, "6.0 DP", 122, JP6},   {{36, 3, 0}, "6.0", 122, JP6},
    {{36, 4, 0}, "6.1", 126, JP6},      {{36, 4, 3}, "6.2", 126, JP6},
    {{36, 4, 4}, "6.2.1", 126, JP6},    {{36, 5, 0}, "6.2.2", 126, JP6},
    {{38, 2, 0}, "7.0", 130, JP70},     {{38, 2, 1}, "7.0", 130, JP70},
    {{38, 4, 0}, "7.1", 130, JP70},     {{39, 2, 0}, "7.2", 132, JP72},
};

static const gp_tegra_soc socs[] = {
    {210, "nvidia,tegra210", 0x21, "Jetson Nano, TX1", "Maxwell", 53, "4.6.x"},
    {186, "nvidia,tegra186", 0x18, "Jetson TX2", "Pascal", 62, "4.6.x"},
    {194, "nvidia,tegra194", 0x19, "Jetson AGX Xavier, Xavier NX", "Volta", 72, "5.1.x"},
    {234, "nvidia,tegra234", 0x23, "Jetson AGX Orin, Orin NX, Orin Nano", "Ampere", 87, NULL},
    {264, "nvidia,tegra264", 0x26, "Jetson AGX Thor, T5000, T4000", "Blackwell", 110, NULL},
};

static int cmp3(const int a[3], const int b[3])
{
    for (int i = 0; i < 3; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

const gp_l4t_release *gp_l4t_lookup(const int l4t[3], bool *exact)
{
    const gp_l4t_release *best = NULL;
    if (exact) *exact = false;
    for (size_t i = 0; i < sizeof releases / sizeof releases[0]; i++) {
        const gp_l4t_release *r = &releases[i];
        if (r->l4t[0] != l4t[0]) continue;
        int c = cmp3(r->l4t, l4t);
        if (c == 0) {
            if (exact) *exact = true;
            return r;
        }
        if (c < 0) best = r;
    }
    if (!best) /* older than the first row of its major: that row says what the major ships */
        for (size_t i = 0; i < sizeof releases / sizeof releases[0] && !best; i++)
            if (releases[i].l4t[0] == l4t[0]) best = &releases[i];
    return best;
}

const gp_tegra_soc *gp_tegra_soc_by_number(int soc)
{
    for (size_t i = 0; i < sizeof socs / sizeof socs[0]; i++)
        if (socs[i].soc == soc) return &socs[i];
    return NULL;
}

const gp_tegra_soc *gp_tegra_soc_by_compatible(const char *compatible)
{
    if (!compatible) return NULL;
    for (size_t i = 0; i < sizeof socs / sizeof socs[0]; i++) {
        const char *p = strstr(compatible, socs[i].compat);
        size_t l = strlen(socs[i].compat);
        if (p && (p[l] == '\0' || p[l] == ',' || p[l] == ' ')) return &socs[i];
    }
    return NULL;
}

const gp_tegra_soc *gp_tegra_soc_by_chip_id(unsigned chip_id)
{
    for (size_t i = 0; i < sizeof socs / sizeof socs[0]; i++)
        if (socs[i].chip_id == chip_id) return &socs[i];
    return NULL;
}

static bool ci_has(const char *s, const char *w)
{
    size_t wl = strlen(w);
    for (; *s; s++)
        if (strncasecmp(s, w, wl) == 0) return true;
    return false;
}

const gp_tegra_soc *gp_tegra_soc_by_model(const char *model)
{
    if (!model || !*model) return NULL;
    if (ci_has(model, "thor") || ci_has(model, "T5000") || ci_has(model, "T4000"))
        return gp_tegra_soc_by_number(264);
    if (ci_has(model, "orin")) return gp_tegra_soc_by_number(234);
    if (ci_has(model, "xavier") || ci_has(model, "Jetson-AGX")) return gp_tegra_soc_by_number(194);
    if (ci_has(model, "TX2") || ci_has(model, "quill") || ci_has(model, "lightning"))
        return gp_tegra_soc_by_number(186);
    if (ci_has(model, "nano") || ci_has(model, "TX1")) return gp_tegra_soc_by_number(210);
    return NULL;
}

bool gp_l4t_is_sbsa(const int l4t[3])
{
    return l4t[0] >= 38;
}

void gp_jetson_torch_fix(const int l4t[3], const char *jetpack, char *out, size_t n)
{
    const char *jp = jetpack ? jetpack : "?";
    if (gp_l4t_is_sbsa(l4t)) {
        snprintf(out, n,
                 "pip install --force-reinstall torch --index-url "
                 "https://download.pytorch.org/whl/cu130 (JetPack %s uses the Arm-server (SBSA) "
                 "CUDA 13, so PyTorch's own aarch64 CUDA wheels are the right ones)",
                 jp);
        return;
    }
    const char *dir = NULL, *py = "3.10";
    int v = l4t[0] * 10000 + l4t[1] * 100 + l4t[2];
    if (v >= 360400)
        dir = "v61";
    else if (v >= 360000)
        dir = "v60";
    else if (v >= 350401)
        dir = "v512", py = "3.8";
    else if (v >= 350301)
        dir = "v511", py = "3.8";
    else if (v >= 350201)
        dir = "v51", py = "3.8";
    else if (v >= 350100)
        dir = "v502", py = "3.8";
    else if (v >= 340000)
        dir = "v50", py = "3.8";
    if (dir) {
        snprintf(out, n,
                 "install NVIDIA's PyTorch for JetPack %s, not a PyPI wheel (those are CPU-only or "
                 "built for Arm servers): pip3 install --no-cache "
                 "https://developer.download.nvidia.com/compute/redist/jp/%s/pytorch/<the "
                 "torch-*-cp%c%s-cp%c%s-linux_aarch64.whl listed there> (Python %s); see "
                 "NVIDIA's \"Installing PyTorch for Jetson Platform\"",
                 jp, dir, py[0], py + 2, py[0], py + 2, py);
        return;
    }
    snprintf(out, n,
             "install NVIDIA's PyTorch for JetPack %s, not a PyPI wheel: the JetPack 4 wheels "
             "(PyTorch <= 1.10, Python 3.6) are listed in NVIDIA's \"PyTorch for Jetson\" thread, "
             "https://forums.developer.nvidia.com/t/pytorch-for-jetson/72048",
             jp);
}
