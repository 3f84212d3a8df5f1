/* parse.h — the readers of the text and binary files doctor looks at (driver version lines,
 * os-release, torch/version.py, WHEEL, the toolkit's version files, executable headers).
 * Pure functions over a buffer of known length: bounds-checked, never allocating more than
 * the input, fuzzed by fuzz/fuzz_doctor_parse.c. */
#ifndef GP_DOCTOR_PARSE_H
#define GP_DOCTOR_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "doctor/facts.h"

/* The first token shaped like N.N or N.N.N (each part at most 6 digits). */
bool gp_version_find(const char *s, size_t len, gp_version *v);
/* -1, 0, 1; missing parts count as 0. */
int gp_version_cmp(const gp_version *a, const gp_version *b);
/* "12.4" or "535.129.03" style, into out (parts after the first zero-padded to 2 digits when
 * `driver_style`). */
void gp_version_format(const gp_version *v, bool driver_style, char *out, size_t n);
/* A CUDA version as the driver API encodes it (12040) -> {12, 4}. */
gp_version gp_version_from_cuda_int(int v);

/* /proc/driver/nvidia/version: version and whether it is the open kernel module. */
bool gp_parse_nvidia_version(const char *s, size_t len, char *ver, size_t vn, bool *open);
/* os-release (KEY=value or KEY="value" lines). False when no ID or NAME is found. */
bool gp_parse_os_release(const char *s, size_t len, gp_doctor_os *os);
/* torch/version.py: __version__, cuda, hip. False with a reason when __version__ is missing
 * or not a string literal. */
bool gp_parse_torch_version(const char *s, size_t len, gp_doctor_torch *t);
/* A dist-info WHEEL file: the platform part of the first Tag line. */
bool gp_parse_wheel_platform(const char *s, size_t len, char *out, size_t n);
/* The toolkit's version.json ({"cuda":{"version":"12.4.1"}}). */
bool gp_parse_cuda_version_json(const char *s, size_t len, gp_version *v, char *reason, size_t rn);
/* version.txt ("CUDA Version 10.2.89"), include/cuda.h ("#define CUDA_VERSION 12040") and
 * `nvcc --version` ("release 12.1, V12.1.66"). */
bool gp_parse_cuda_version_txt(const char *s, size_t len, gp_version *v);
bool gp_parse_cuda_h(const char *s, size_t len, gp_version *v);
bool gp_parse_nvcc_version(const char *s, size_t len, gp_version *v);
/* /proc/driver/nvidia/gpus/<bdf>/information: Model and GPU UUID. */
bool gp_parse_gpu_information(const char *s, size_t len, gp_doctor_gpu *g);
/* An executable's header (ELF, Mach-O, universal): its architectures. False when unknown. */
bool gp_parse_exec_arch(const unsigned char *b, size_t len, char *arch, size_t n, bool *arm64,
                        bool *x86_64);
/* A kernel CPU list ("0-3,8-11" -> 8); 0 when it is not one. */
int gp_parse_cpu_list(const char *s, size_t len);
/* pyvenv.cfg: `home` and `include-system-site-packages`. */
bool gp_parse_pyvenv_cfg(const char *s, size_t len, char *home, size_t hn, bool *system_site);
/* /etc/nv_tegra_release's first line ("# R36 (release), REVISION: 4.3, ..., BOARD: generic, ..."):
 * the L4T release {36, 4, 3} and the BOARD field. */
bool gp_parse_nv_tegra_release(const char *s, size_t len, int l4t[3], char *board, size_t bn);
/* A Debian package version that starts with an L4T release ("36.4.3-20250107174145"). */
bool gp_parse_l4t_version(const char *s, size_t len, int l4t[3]);
/* var/lib/dpkg/status: `field` of the installed `package` ("Version", "Architecture"). False when
 * the package is absent or not installed. */
bool gp_parse_dpkg_field(const char *s, size_t len, const char *package, const char *field,
                         char *out, size_t n);
/* A device-tree string list (NUL-separated, /proc/device-tree/compatible) as "a, b, c". */
bool gp_parse_dt_strings(const char *s, size_t len, char *out, size_t n);
/* /proc/cpuinfo: the number of "processor : N" entries, and the architecture its fields show
 * ("x86_64", "aarch64", "armv7l", "ppc64le", "s390x", "riscv64"); false when it shows none. */
int gp_parse_cpuinfo_count(const char *s, size_t len);
bool gp_parse_cpuinfo_arch(const char *s, size_t len, char *arch, size_t n);
/* An ELF header's machine as uname names it ("x86_64", "aarch64", ...). False when not ELF. */
bool gp_parse_elf_machine(const unsigned char *b, size_t len, char *arch, size_t n);
/* A Debian architecture ("arm64") as uname names it ("aarch64"); NULL when unknown. */
const char *gp_dpkg_arch_to_uname(const char *dpkg_arch);
/* A wheel's dist-info METADATA: Version, and the CUDA of a nvidia-cuda-runtime requirement
 * ("Requires-Dist: nvidia-cuda-runtime-cu12==12.4.127" -> "12.4", "" when none). */
bool gp_parse_wheel_metadata(const char *s, size_t len, char *version, size_t vn, char *cuda,
                             size_t cn);
/* A dist-info RECORD lists torch's CUDA library (torch/lib/libtorch_cuda.so). */
bool gp_parse_record_has_cuda(const char *s, size_t len);
/* "KEY:  value" / "KEY=value" line lookup: the value of the first line starting with key. */
bool gp_parse_keyed_line(const char *s, size_t len, const char *key, char *out, size_t n);

#endif
