/* wheel.c — the shared libraries inside a Python wheel (a zip archive), read without unpacking
 * it to disk. */
#include "archcheck/archcheck.h"

#include <string.h>

size_t gp_ac_wheel_add(gp_ac_set *set, const char *path, const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    const char *b = strrchr(path, '/');
    gp_ac_file *f = gp_ac_set_new_file(set, path, b ? b + 1 : path);
    if (!f) return 0;
    f->status = GP_AC_MALFORMED;
    f->error = strdup("wheels cannot be read yet");
    return 1;
}
