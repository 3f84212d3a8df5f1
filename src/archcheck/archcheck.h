/* archcheck.h — the pieces of `gpuport archcheck`: the inventory of CUDA device code in a file
 * (containers and entries, from ELF files, cubins, fatbins, PTX, directories and wheels), the
 * compatibility rules that turn it into a verdict per compute capability, the GPU name table,
 * the fix text, and the reports. The readers of outside bytes live in src/formats. */
#ifndef GP_ARCHCHECK_ARCHCHECK_H
#define GP_ARCHCHECK_ARCHCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

/* A compute capability, as 10 * major + minor (8.6 -> 86, 12.0 -> 120). */
typedef int gp_cc;
#define GP_CC(major, minor) ((major)*10 + (minor))
#define GP_CC_MAJOR(cc)     ((cc) / 10)
#define GP_CC_MINOR(cc)     ((cc) % 10)

typedef enum gp_ac_kind { GP_AC_SASS, GP_AC_PTX, GP_AC_LTOIR, GP_AC_OTHER } gp_ac_kind;

typedef struct gp_ac_entry {
    gp_ac_kind kind;
    uint32_t arch;              /* 86, 90, 100 ...; the virtual arch for PTX */
    char variant;               /* 'a', 'f' or 0 */
    int ptx_isa;                /* PTX: 10 * major + minor (90 = ISA 9.0); 0 otherwise */
    const char *compression;    /* "none", "lz4", "zstd" */
    uint64_t size;              /* bytes as stored */
    uint64_t uncompressed_size; /* 0 when not compressed */
    bool debug;
    bool no_code;     /* SASS whose (uncompressed) cubin has no kernel and no function */
    char *list_name;  /* the name `cuobjdump --list-elf --list-ptx` prints; NULL for LTO-IR */
    size_t container; /* index into the file's containers */
    uint64_t offset;  /* of the entry header in the file (a wheel member: in the member) */
} gp_ac_entry;

typedef struct gp_ac_container {
    uint64_t offset;  /* in the file (a wheel member: in the member) */
    char section[32]; /* ".nv_fatbin", "__nv_relfatbin", another section, or "file" */
    bool linked;      /* registered as the device-link module (wrapper version 2) */
    bool listed;      /* in the section cuobjdump lists by default */
    size_t member;    /* index into the file's archive members, or SIZE_MAX */
    size_t first_entry;
    size_t entry_count;
} gp_ac_container;

typedef enum gp_ac_status {
    GP_AC_OK = 0,        /* read; has device code */
    GP_AC_NO_CODE = 1,   /* read cleanly; no CUDA device code */
    GP_AC_MALFORMED = 2, /* unreadable or malformed; `error` says where */
} gp_ac_status;

typedef struct gp_ac_file {
    char *path;      /* as shown: "dir/lib.so", "pkg.whl!torch/lib/libc10_cuda.so" */
    char *list_base; /* basename used for the listing names */
    gp_ac_status status;
    char *error; /* "offset 0xN: reason" when status is MALFORMED */
    gp_ac_container *containers;
    size_t container_count;
    gp_ac_entry *entries;
    size_t entry_count;
    bool from_ptx_source; /* a .ptx text file */
    bool is_archive;      /* a static library (ar archive): containers belong to members */
    char **members;       /* the archive's member names, in order */
    size_t member_count;
    bool in_torch;       /* lies inside a PyTorch install (site-packages/torch, a torch wheel) */
    bool unknown_format; /* neither ELF, ar archive, fatbin nor PTX text (NO_CODE as read) */
} gp_ac_file;

typedef struct gp_ac_set {
    gp_ac_file *files;
    size_t count;
    size_t cap;
    size_t skipped_without_code; /* ELF files below a directory or in a wheel without device code */
    /* --strict: a "partial" verdict (some modules lack an image) fails and needs the fix too; by
     * default only "no image" does (libraries keep one module per architecture by design) */
    bool strict;
    /* Optional, per requested CC (the reports' `ccs`, same order): the GPU names it was asked
     * for ("Jetson AGX Orin", a device's name; "" none), shown beside the CC and its sm_XX. */
    const char *const *cc_names;
} gp_ac_set;

/* --- inventory (inventory.c, wheel.c) ----------------------------------------------------- */
/* Reads the device code of one buffer (ELF, cubin, fatbin or PTX text) into `f`, whose path
 * and list_base are set. Sets f->status; never fails otherwise. `mapped`: data is a private
 * file mapping whose scanned pages may be dropped to bound the resident set. */
void gp_ac_inventory_buffer(gp_ac_file *f, const uint8_t *data, size_t size, bool mapped);
/* Adds one file, or every regular file below a directory (symlinks are not followed out of
 * it), or the shared libraries inside a wheel, to the set. Unreadable paths become MALFORMED
 * files naming the reason. Returns the number of files added. */
size_t gp_ac_set_add_path(gp_ac_set *set, const char *path);
gp_ac_file *gp_ac_set_new_file(gp_ac_set *set, const char *path, const char *list_base);
void gp_ac_set_free(gp_ac_set *set);
/* Forgets the file added last (one that turned out to hold no device code). */
void gp_ac_set_drop_last(gp_ac_set *set);
/* Reads the shared libraries inside a wheel (zip) at `path` (wheel.c). */
size_t gp_ac_wheel_add(gp_ac_set *set, const char *path, const uint8_t *data, size_t size);

/* --- compatibility (compat.c) ------------------------------------------------------------- */
typedef enum gp_ac_run { GP_AC_RUN_NONE = 0, GP_AC_RUN_JIT = 1, GP_AC_RUN_NATIVE = 2 } gp_ac_run;

/* SASS for sm_<arch><variant> runs on a device of compute capability `cc`. */
bool gp_ac_sass_runs(uint32_t arch, char variant, gp_cc cc);
/* PTX for compute_<arch><variant> can be JIT-compiled for `cc`. */
bool gp_ac_ptx_jits(uint32_t arch, char variant, gp_cc cc);
/* The CUDA version (10 * major + minor) whose driver first accepts PTX ISA `isa`; 0 unknown. */
int gp_ac_ptx_isa_cuda(int isa);
/* The Linux driver version ("570.26") of the first driver for CUDA `cuda`, rounding up to
 * the next release listed; NULL when unknown. */
const char *gp_ac_cuda_driver(int cuda);

typedef struct gp_ac_verdict {
    gp_cc cc;
    size_t modules_total;
    size_t modules_native;
    size_t modules_jit;
    size_t modules_without_image;
    size_t linked_modules; /* device-link modules, listed but not judged (see docs) */
    size_t empty_modules;  /* modules whose every image is an empty cubin: nothing to run */
    int min_cuda;          /* CUDA version whose driver the chosen images need; 0 none */
    int jit_ptx_isa;       /* highest PTX ISA the JIT path needs; 0 none */
    bool needs_zstd;
} gp_ac_verdict;

/* "runs", "runs_after_jit", "partial", "no_image", "no_code" */
const char *gp_ac_verdict_status(const gp_ac_verdict *v, const gp_ac_file *f);
void gp_ac_judge(const gp_ac_file *f, gp_cc cc, gp_ac_verdict *v);
/* What a module does on `cc`: the run kind, and the entry chosen (or SIZE_MAX). */
gp_ac_run gp_ac_judge_module(const gp_ac_file *f, size_t container, gp_cc cc, size_t *chosen);
/* The CUDA version the file needs regardless of device (highest PTX ISA, zstd); 0 none. */
int gp_ac_file_min_cuda(const gp_ac_file *f, const char **why);

/* --- GPUs (gpus.c) ------------------------------------------------------------------------ */
typedef struct gp_ac_gpu {
    const char *name; /* "GeForce RTX 4090" */
    gp_cc cc;
    bool datacenter; /* datacenter or Jetson: can use cuda-compat */
} gp_ac_gpu;
/* Finds a GPU by name (case-insensitive, "NVIDIA"/"GeForce" prefixes optional). NULL when
 * unknown; then `suggest` gets up to `nsuggest` close names. */
const gp_ac_gpu *gp_ac_gpu_find(const char *name, const gp_ac_gpu **suggest, size_t nsuggest,
                                size_t *nsuggested);
const gp_ac_gpu *gp_ac_gpu_table(size_t *count);
/* The GPUs whose names hold `name` as whole words ("Jetson" -> every Jetson, "Orin Nano" ->
 * "Jetson Orin Nano"), for a name gp_ac_gpu_find does not know by itself: up to `max` into
 * `out`. Returns how many there are (may exceed max). */
size_t gp_ac_gpu_matches(const char *name, const gp_ac_gpu **out, size_t max);
/* Parses "8.6" / "86" / "sm_86" into a CC; -1 when it is not one. */
gp_cc gp_ac_cc_parse(const char *s);

/* --- this machine's GPUs (device.c) ------------------------------------------------------- */
/* Fills up to `max` CCs of this machine's GPUs (and names) through libcuda.so.1 loaded at run
 * time. Returns the count, or -1 with the reason in err (no driver, cuInit failed). */
int gp_ac_device_query(gp_cc *ccs, char (*names)[128], int max, int *driver_cuda, char *err,
                       size_t errlen);

/* --- the fix (fix.c) ---------------------------------------------------------------------- */
/* CMake CUDA_ARCHITECTURES value and nvcc -gencode flags covering the CCs. */
void gp_ac_fix_cmake(const gp_cc *ccs, size_t n, char *out, size_t outlen);
void gp_ac_fix_nvcc(const gp_cc *ccs, size_t n, char *out, size_t outlen);
/* The PyTorch CUDA wheel variants whose targets run on `cc` ("cu126, cu128, cu129, cu130"). */
void gp_ac_fix_torch(gp_cc cc, char *out, size_t outlen);

/* --- reports (report.c) ------------------------------------------------------------------- */
/* The exact lines `cuobjdump --list-elf --list-ptx` prints for the file. */
void gp_ac_report_list(FILE *out, const gp_ac_file *f);
void gp_ac_report_human(FILE *out, const gp_ac_set *set, const gp_cc *ccs, size_t nccs,
                        bool entries);
/* The CCs of ccs (in order) for which some file has no image at all (set->strict: for which some
 * module of some file has none): what the fix adds, and what fails the run. *torch (optional):
 * one of those files lies in a PyTorch install. Returns the count. */
size_t gp_ac_missing_ccs(const gp_ac_set *set, const gp_cc *ccs, size_t nccs, gp_cc *missing,
                         bool *torch);
cJSON *gp_ac_report_json(const gp_ac_set *set, const gp_cc *ccs, size_t nccs);
/* "sm_86", "sm_90a", "compute_90", "lto_89" into buf. */
const char *gp_ac_entry_arch_name(const gp_ac_entry *e, char *buf, size_t len);
/* "8.6" into buf. */
const char *gp_ac_cc_name(gp_cc cc, char *buf, size_t len);
/* "sm_86" into buf. */
const char *gp_ac_cc_sm(gp_cc cc, char *buf, size_t len);

#endif
