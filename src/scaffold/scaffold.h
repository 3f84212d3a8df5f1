/* scaffold.h — the project skeleton `gpuport new` writes. */
#ifndef GP_SCAFFOLD_SCAFFOLD_H
#define GP_SCAFFOLD_SCAFFOLD_H

#include <stdbool.h>
#include <stddef.h>

/* A name usable as a folder, a CMake target and a program: a letter or '_', then letters,
 * digits, '_' or '-', at most 64 characters. */
bool gp_scaffold_name_ok(const char *name);
/* Writes the project into `dir` (which must not exist). 0, or -1 with "PATH: reason" in err. */
int gp_scaffold_write(const char *dir, const char *name, bool python, char *err, size_t errlen);

/* The cmake argument that lets the generated project find the gpuport CMake package that came
 * with the gpuport executable at `exe` ("-Dgpuport_DIR=BUILD" for a build tree,
 * "-DCMAKE_PREFIX_PATH=PREFIX" for an install outside /usr and /usr/local), or "" when none is
 * needed or none was found. */
void gp_scaffold_package_hint(const char *exe, char *buf, size_t cap);

#endif
