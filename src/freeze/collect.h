/* collect.h — the sections of a freeze manifest, one collector each (internal to src/freeze). */
#ifndef GP_FREEZE_COLLECT_H
#define GP_FREEZE_COLLECT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "freeze/freeze.h"

cJSON *gp_freeze_host(void);
cJSON *gp_freeze_compilers(void);
/* Python in use and its distributions; `python` NULL = python3 on PATH. */
cJSON *gp_freeze_python(const char *python);
/* The active conda environment ($CONDA_PREFIX/conda-meta), or a null section with a reason. */
cJSON *gp_freeze_conda(void);
cJSON *gp_freeze_git(const char *dir);
cJSON *gp_freeze_environment(void);
/* The device `auto` picks here and the selection record (outcome per backend). */
cJSON *gp_freeze_device(void);
/* Hashes every file of every path; NULL with "PATH: reason" in err on an unreadable path. */
cJSON *gp_freeze_data(const char *const *paths, size_t count, int threads, char *err,
                      size_t errlen);
/* gp_freeze_validate's rules for every top-level member but "data" (which need not be there).
 * 0, or -1 with the reason in err. */
int gp_freeze_validate_rest(const cJSON *m, char *err, size_t errlen);
/* 64 lowercase hex digits (len bytes) into 32 bytes; false when they are not that. */
bool gp_freeze_sha256_from_hex(const char *hex, size_t len, unsigned char out[32]);
/* Appends one data entry to a manifest's table. 0, or -1 out of memory. */
int gp_freeze_add_file(gp_freeze_manifest *m, const char *path, size_t plen, double size,
                       const unsigned char sha256[32]);
/* A section that could not be collected: {"available": false, "reason": why}. */
cJSON *gp_freeze_unavailable(const char *why);
/* First line of a program's --version output, or NULL (the program is absent or failed). */
char *gp_freeze_tool_version(const char *prog, const char *flag, const char *pick);

#endif
