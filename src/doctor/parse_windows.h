/* parse_windows.h — the readers of what Windows tools print, for doctor's Windows checks:
 * `nvidia-smi -q`, `wsl.exe -l -v`, vswhere, `set` (the environment) and the display driver's
 * file version. Pure functions over a buffer of known length, fuzzed by fuzz/fuzz_doctor_windows.c
 * (with the registry export reader, regfile.h). */
#ifndef GP_DOCTOR_PARSE_WINDOWS_H
#define GP_DOCTOR_PARSE_WINDOWS_H

#include <stdbool.h>
#include <stddef.h>

#include "doctor/facts.h"

/* `nvidia-smi -q`: Driver Version, CUDA Version, and per GPU its Product Name and Brand, UUID,
 * Bus Id, Device Id (the compute capability from the PCI id table, else the name), total memory
 * and the Driver Model (Current, Pending). False when there is no Driver Version line. */
bool gp_parse_smi_query(const char *s, size_t len, gp_doctor_win *w);
/* `wsl.exe -l -v` as UTF-8 (see gp_utf16le_to_utf8): the distributions and how many are WSL 2.
 * False when it is neither such a list nor the message that none is installed. */
bool gp_parse_wsl_list(const char *s, size_t len, gp_doctor_win *w);
/* vswhere's text output: installationPath, displayName, installationVersion of the first
 * instance. False without an installationPath. */
bool gp_parse_vswhere(const char *s, size_t len, gp_doctor_win *w);
/* The value of `name` in `set`-style NAME=value lines (names compared without case, as Windows
 * does). */
bool gp_parse_env_get(const char *s, size_t len, const char *name, char *out, size_t n);
/* A display driver's Windows file version ("32.0.15.6094") as NVIDIA numbers it ("560.94"): the
 * last five digits of the last two fields. False when it is not such a version. */
bool gp_win_driver_version(const char *file_version, char *out, size_t n);

#endif
