/* facts.h — everything doctor learns about a machine, as one plain C struct with fixed-size
 * fields. The probes (Linux procfs/sysfs, macOS sysctl + Metal, the driver libraries, the
 * toolkit, Python) fill it; the checks read it and nothing else, so tests can fill it by hand
 * to cover the logic of a platform that is not the one running the tests. */
#ifndef GP_DOCTOR_FACTS_H
#define GP_DOCTOR_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#define GP_DOCTOR_MAX_GPUS     16
#define GP_DOCTOR_MAX_TOOLKITS 8
#define GP_DOCTOR_MAX_TORCH    8
#define GP_DOCTOR_MAX_CL       8
#define GP_DOCTOR_MAX_LDPATH   8
#define GP_DOCTOR_PATH         512
#define GP_DOCTOR_TEXT         256

typedef enum gp_doctor_platform {
    GP_DOCTOR_LINUX,
    GP_DOCTOR_MACOS,
    GP_DOCTOR_WINDOWS,
    GP_DOCTOR_OTHER,
} gp_doctor_platform;

/* A version read from text: "535.129.03" -> {535, 129, 3}, n = 3. n == 0: none read. */
typedef struct gp_version {
    int part[4];
    int n;
} gp_version;

typedef struct gp_doctor_os {
    bool release_read;                   /* os-release was found and parsed */
    char release_reason[GP_DOCTOR_TEXT]; /* why not, when !release_read */
    char id[64], id_like[64], version_id[64];
    char pretty[GP_DOCTOR_TEXT];
    char kernel[GP_DOCTOR_TEXT]; /* /proc/sys/kernel/osrelease or uname */
    bool wsl;                    /* kernel release names Microsoft/WSL */
    bool container;
    char container_why[GP_DOCTOR_TEXT]; /* "/.dockerenv", "cgroup: kubepods" */
} gp_doctor_os;

typedef struct gp_doctor_cpu {
    int logical;     /* online logical CPUs */
    int performance; /* Apple perflevel0 cores; 0 when the CPU has one kind of core */
    int efficiency;  /* Apple perflevel1 cores */
    char model[GP_DOCTOR_TEXT];
    char arch[32];         /* "x86_64", "aarch64" (uname's names); "arm64" on a Mac */
    char arch_from[96];    /* where the architecture was read ("uname", "/bin/sh's ELF header") */
    uint64_t memory_bytes; /* total RAM, 0 when unknown */
} gp_doctor_cpu;

/* An NVIDIA device seen on the PCI bus (sysfs). */
typedef struct gp_doctor_pci_gpu {
    char bdf[32];
    unsigned device;
    unsigned class_code; /* 0x030000 VGA, 0x030200 3D controller, 0x038000 display */
    char driver[32];     /* "nvidia", "nouveau", "vfio-pci", "" when unbound */
} gp_doctor_pci_gpu;

/* One GPU as NVML, the CUDA driver or /proc/driver/nvidia reports it. */
typedef struct gp_doctor_gpu {
    char name[96];
    char uuid[96];
    char bdf[32];           /* PCI address when known ("0000:01:00.0") */
    int cc_major, cc_minor; /* 0.0 when unknown */
    char cc_from[64];       /* "NVML", "CUDA driver", "PCI id table (10de:2684)", "name table" */
    uint64_t memory_bytes;  /* 0 when unknown */
    int sm_count;           /* 0 when unknown */
} gp_doctor_gpu;

/* A driver library loaded with dlopen (libcuda.so.1, libnvidia-ml.so.1, libOpenCL.so.1). */
typedef struct gp_doctor_lib {
    bool loaded;
    char path[GP_DOCTOR_PATH];    /* where it was found ("" = the default search) */
    char error[GP_DOCTOR_TEXT];   /* dlopen's message when !loaded */
    char missing[GP_DOCTOR_TEXT]; /* entry points it lacks, comma-separated */
} gp_doctor_lib;

/* NVIDIA Jetson (Tegra): an integrated GPU, no PCI device, the driver and CUDA from the L4T
 * board support package (Jetson Linux) of a JetPack release. */
typedef struct gp_doctor_tegra {
    bool found;                    /* any Jetson evidence below */
    char evidence[GP_DOCTOR_TEXT]; /* what said so first ("/etc/nv_tegra_release") */
    bool release_read;             /* the L4T release is known */
    int l4t[3];                    /* {36, 4, 3} */
    char l4t_from[64];             /* "/etc/nv_tegra_release", "nvidia-l4t-core 36.4.3-..." */
    char board[32];                /* nv_tegra_release BOARD: "t186ref", "generic" */
    char release_reason[GP_DOCTOR_TEXT];
    char l4t_core[64];               /* dpkg: nvidia-l4t-core's Version */
    char jetpack_pkg[64];            /* dpkg: nvidia-jetpack's Version; "" not installed */
    char model[96];                  /* /proc/device-tree/model */
    char compatible[GP_DOCTOR_TEXT]; /* /proc/device-tree/compatible, ", "-joined */
    unsigned chip_id;                /* /etc/nv_boot_control.conf TEGRA_CHIPID (0x23 Orin) */
    int soc;                         /* 210, 186, 194, 234, 264; 0 unknown */
    char soc_from[64];
    bool gpu_node; /* the GPU's platform device in sysfs */
    char gpu_node_path[GP_DOCTOR_PATH];
    bool nvgpu_module; /* /sys/module/nvgpu */
    bool dev_gpu;      /* /dev/nvhost-ctrl-gpu, /dev/nvgpu/igpu0/ctrl */
    char dev_path[GP_DOCTOR_PATH];
    bool dev_denied;
    bool libcuda; /* L4T's libcuda in the tree */
    char libcuda_path[GP_DOCTOR_PATH];
} gp_doctor_tegra;

typedef struct gp_doctor_nvidia {
    /* Linux kernel side */
    int pci_count; /* listed in pci[] (at most GP_DOCTOR_MAX_GPUS) */
    int pci_total; /* NVIDIA GPUs on the bus, all of them */
    gp_doctor_pci_gpu pci[GP_DOCTOR_MAX_GPUS];
    bool kmod_present; /* /proc/driver/nvidia/version exists */
    bool kmod_parsed;
    bool kmod_open; /* the open kernel module */
    char kmod_version[32];
    char kmod_reason[GP_DOCTOR_TEXT]; /* why the version could not be read */
    bool nouveau_loaded;              /* /sys/module/nouveau */
    int proc_gpu_count;               /* /proc/driver/nvidia/gpus/<bdf> (listed) */
    int proc_gpu_total;               /* all of them */
    gp_doctor_gpu proc_gpus[GP_DOCTOR_MAX_GPUS];
    bool dev_ctl, dev_uvm, dev_dxg, dev_nvswitch;
    int dev_gpu_count; /* /dev/nvidia[0-9]* */
    bool dev_access_denied;
    char dev_denied_path[GP_DOCTOR_PATH];
    /* WSL */
    bool wsl_lib;          /* /usr/lib/wsl/lib/libcuda.so.1 */
    bool wsl_linux_driver; /* a Linux driver's libcuda installed inside WSL */
    char wsl_linux_driver_path[GP_DOCTOR_PATH];
    bool wsl_ldconf; /* /etc/ld.so.conf.d lists /usr/lib/wsl/lib */
    /* NVML */
    gp_doctor_lib nvml;
    bool nvml_probed;
    int nvml_init_rc; /* nvmlInit_v2's result */
    char nvml_init_error[GP_DOCTOR_TEXT];
    char nvml_driver[32];
    int nvml_cuda;      /* 12020 = 12.2; 0 unknown */
    int nvml_gpu_count; /* listed */
    int nvml_gpu_total; /* nvmlDeviceGetCount_v2 */
    gp_doctor_gpu nvml_gpus[GP_DOCTOR_MAX_GPUS];
    /* libcuda */
    gp_doctor_lib cuda;
    char cuda_real[GP_DOCTOR_PATH]; /* realpath of libcuda.so.1 (names the driver version) */
    int cuda_driver_version;        /* cuDriverGetVersion: 12040; 0 unknown */
    bool deep;                      /* cuInit was called */
    int cuinit_rc;
    char cuinit_name[64];
    char cuinit_text[GP_DOCTOR_TEXT];
    int cuda_gpu_count; /* listed */
    int cuda_gpu_total; /* cuDeviceGetCount */
    gp_doctor_gpu cuda_gpus[GP_DOCTOR_MAX_GPUS];
    /* the environment */
    bool visible_set;
    char visible[GP_DOCTOR_TEXT];    /* CUDA_VISIBLE_DEVICES */
    bool container_expects_gpu;      /* NVIDIA_VISIBLE_DEVICES set in a container */
    char compat_dir[GP_DOCTOR_PATH]; /* a cuda-compat libcuda on the library path */
    char compat_via[GP_DOCTOR_PATH]; /* "LD_LIBRARY_PATH", "/etc/ld.so.conf.d/x.conf", "loaded" */
    gp_doctor_tegra tegra;
} gp_doctor_nvidia;

typedef struct gp_doctor_toolkit {
    char path[GP_DOCTOR_PATH];
    char found_by[32]; /* "CUDA_HOME", "CUDA_PATH", "nvcc on PATH", "/usr/local/cuda" */
    bool version_read;
    gp_version version;
    char version_from[32]; /* "version.json", "version.txt", "cuda.h", "nvcc --version" */
    char version_reason[GP_DOCTOR_TEXT];
    bool has_nvcc;
    bool has_nvrtc;
} gp_doctor_toolkit;

typedef struct gp_doctor_cuda_env {
    int toolkit_count;
    gp_doctor_toolkit toolkits[GP_DOCTOR_MAX_TOOLKITS]; /* [0] is the one builds use */
    char cuda_home[GP_DOCTOR_PATH];                     /* $CUDA_HOME or $CUDA_PATH as set */
    char cuda_home_by[16]; /* which of the two: "CUDA_HOME" or "CUDA_PATH" ("" when unset) */
    char nvcc_on_path[GP_DOCTOR_PATH]; /* the first nvcc on PATH */
    char nvcc_root[GP_DOCTOR_PATH];    /* its toolkit folder (realpath/../..) */
    int nvcc_toolkit;                  /* index into toolkits of nvcc_root, -1 none */
    /* LD_LIBRARY_PATH entries that hold a libcudart of another major than the toolkit */
    int ld_count;
    char ld_dirs[GP_DOCTOR_MAX_LDPATH][GP_DOCTOR_PATH];
    int ld_cudart_major[GP_DOCTOR_MAX_LDPATH]; /* 0 when the dir has none */
    /* Whether the dynamic loader finds the toolkit's libcudart: through LD_LIBRARY_PATH or a
     * line of /etc/ld.so.conf(.d); `toolkit_lib` is its lib folder (lib64 or lib). */
    bool cudart_known;
    char cudart_via[GP_DOCTOR_PATH];
    char toolkit_lib[GP_DOCTOR_PATH];
    bool pip_cuda_index; /* PIP_INDEX_URL/PIP_EXTRA_INDEX_URL point at a cuXYZ index */
    char pip_index[GP_DOCTOR_TEXT];
} gp_doctor_cuda_env;

typedef struct gp_doctor_torch {
    char site[GP_DOCTOR_PATH]; /* the site-packages folder */
    char from[32];             /* "python3 on PATH", "VIRTUAL_ENV", "CONDA_PREFIX" */
    bool parsed;               /* version.py was read */
    char reason[GP_DOCTOR_TEXT];
    char version[64]; /* "2.7.1+cu126" */
    bool cuda_build;  /* cuda != None */
    char cuda[32];    /* "12.6" */
    bool hip_build;
    char wheel_platform[96]; /* "manylinux_2_28_x86_64", "macosx_11_0_arm64", "" */
    char version_from[32];   /* "torch/version.py", "METADATA" */
} gp_doctor_torch;

typedef struct gp_doctor_python {
    bool found;
    char path[GP_DOCTOR_PATH]; /* python3 on PATH (after pyenv shims) */
    char real[GP_DOCTOR_PATH];
    char arch[48]; /* from its ELF/Mach-O header: "x86_64", "arm64", "universal" */
    bool has_arm64, has_x86_64;
    int torch_count;
    gp_doctor_torch torch[GP_DOCTOR_MAX_TORCH];
    char unreadable[GP_DOCTOR_TEXT]; /* "SITE: reason" for a site-packages that cannot be read */
    char mps_fallback[32];           /* PYTORCH_ENABLE_MPS_FALLBACK */
    bool mps_fallback_set;
} gp_doctor_python;

typedef struct gp_doctor_cl_device {
    char platform[96];
    char name[96];
    char type[16]; /* "cpu", "gpu", "accelerator" */
    int compute_units;
    uint64_t memory_bytes;
} gp_doctor_cl_device;

typedef struct gp_doctor_opencl {
    gp_doctor_lib loader;
    int icd_count; /* .icd files in /etc/OpenCL/vendors */
    bool enumerated;
    int platform_count;
    char error[GP_DOCTOR_TEXT];
    int device_count;
    gp_doctor_cl_device devices[GP_DOCTOR_MAX_CL];
} gp_doctor_opencl;

typedef struct gp_doctor_mac {
    char product_version[32]; /* kern.osproductversion */
    bool apple_silicon;       /* hw.optional.arm64 (1 also under Rosetta) */
    bool translated;          /* sysctl.proc_translated: this process runs under Rosetta */
    bool metal;               /* a Metal device exists */
    char metal_name[96];
    bool metal_unified;
    uint64_t metal_working_set; /* recommendedMaxWorkingSetSize */
    int metal_family;           /* highest MTLGPUFamilyAppleN supported, 0 none */
} gp_doctor_mac;

/* Windows: what nvidia-smi.exe, NVML or the registry say of the driver and the GPUs, Visual
 * Studio's compiler and WSL (probe_windows.c; the toolkit and PyTorch go to the shared sections).
 */
typedef struct gp_doctor_win {
    char version[GP_DOCTOR_TEXT];    /* "Windows 11 Pro 23H2 (build 22631)" */
    char driver_from[48];            /* "nvidia-smi -q", "NVML", "registry (display adapter)" */
    char smi_reason[GP_DOCTOR_TEXT]; /* why nvidia-smi told nothing */
    char reg_reason[GP_DOCTOR_TEXT]; /* a registry export that could not be read */
    char driver[32];                 /* "560.94" */
    char driver_file_version[32];    /* the registry's DriverVersion "32.0.15.6094" */
    int cuda;                        /* highest CUDA of the driver, 12060 = 12.6; 0 unknown */
    int gpu_count, gpu_total;
    gp_doctor_gpu gpus[GP_DOCTOR_MAX_GPUS];
    char model_current[GP_DOCTOR_MAX_GPUS][8]; /* "WDDM", "TCC", "MCDM", "" unknown */
    char model_pending[GP_DOCTOR_MAX_GPUS][8];
    char brand[GP_DOCTOR_MAX_GPUS][32]; /* nvidia-smi's Product Brand: "GeForce", "NVIDIA" */
    int reg_adapters;                   /* NVIDIA display adapters in the registry */
    char reg_adapter[96];               /* the first one's DriverDesc */
    /* Visual Studio's C++ compiler, which nvcc needs on Windows */
    char cl_path[GP_DOCTOR_PATH]; /* cl.exe on PATH, "" none */
    char vs_path[GP_DOCTOR_PATH]; /* vswhere's installationPath */
    char vs_name[96];             /* "Visual Studio Community 2022" */
    char vs_version[32];          /* "17.9.34607.119" */
    bool vs_has_cl; /* the installation holds VC\Tools\MSVC\*\bin\Hostx64\x64\cl.exe */
    /* WSL */
    bool wsl;         /* wsl.exe lists distributions */
    int wsl_distros;  /* listed */
    int wsl2_distros; /* of them, WSL 2 (the only kind CUDA runs in) */
    char wsl_names[GP_DOCTOR_TEXT];
} gp_doctor_win;

typedef struct gp_doctor_facts {
    gp_doctor_platform platform;
    char root[GP_DOCTOR_PATH]; /* "/" on the real machine */
    gp_doctor_os os;
    gp_doctor_cpu cpu;
    gp_doctor_nvidia nv;
    gp_doctor_cuda_env cuda;
    gp_doctor_python py;
    gp_doctor_opencl cl;
    gp_doctor_mac mac;
    gp_doctor_win win;
    int subprocesses; /* programs started to learn a fact (see docs/doctor.md) */
} gp_doctor_facts;

#endif
