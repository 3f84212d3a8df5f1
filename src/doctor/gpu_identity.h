/* gpu_identity.h — a GPU's compute capability from its identity when no driver reports it: the
 * PCI device id (sysfs, /proc/driver/nvidia) through the table generated from NVIDIA's
 * supported-chips list (gpu_ids.c, written by gpu_ids_gen.py), the id's chip block for ids newer
 * than the table, and the marketing name (NVML, /proc/driver/nvidia/gpus/<bdf>/information). */
#ifndef GP_DOCTOR_GPU_IDENTITY_H
#define GP_DOCTOR_GPU_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

typedef struct gp_gpu_id {
    unsigned short devid;
    unsigned char cc;          /* x10: 89 = 8.9 */
    unsigned char name_unique; /* no other chip is sold under this name */
    const char *name;          /* as the driver's list names it */
} gp_gpu_id;

typedef struct gp_gpu_block {
    unsigned short lo, hi; /* device ids NVIDIA gave one chip family */
    unsigned char cc;
    const char *family; /* "Ada AD102-AD107" */
} gp_gpu_block;

extern const gp_gpu_id gp_gpu_ids[]; /* sorted by devid */
extern const unsigned gp_gpu_id_count;
extern const gp_gpu_block gp_gpu_blocks[];
extern const unsigned gp_gpu_block_count;

/* The CC (x10) of PCI device 10de:`devid`, 0 when unknown. *name gets the driver's name for the
 * id (NULL when only its chip block is known); `from` says which ("PCI id table (10de:2684)",
 * "PCI id range 10de:2600-28ff (Ada AD102-AD107)"). */
int gp_gpu_cc_for_pci(unsigned devid, const char **name, char *from, size_t fn);
/* The CC (x10) of a GPU named `name` ("NVIDIA GeForce RTX 3060", "Tesla V100-SXM2-16GB"), 0 when
 * unknown: the driver list's names first, then NVIDIA's product families. */
int gp_gpu_cc_for_name(const char *name, char *from, size_t fn);

#endif
