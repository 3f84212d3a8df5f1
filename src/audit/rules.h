/* rules.h — the one table of audit rules: id, the languages it reads, severity (and the severity
 * when the code is guarded), the verdict class it pushes a module towards, the stop condition it
 * is evidence for, and the words a user sees (explanation, fix). Scanners name rules by the enum;
 * docs/audit-rules.md is printed from this table. */
#ifndef GP_AUDIT_RULES_H
#define GP_AUDIT_RULES_H

#include <stdbool.h>
#include <stdio.h>

typedef enum gp_audit_sev {
    GP_SEV_NONE = 0, /* guarded use that is itself the fix: no finding */
    GP_SEV_NOTE = 1,
    GP_SEV_WARNING = 2,
    GP_SEV_ERROR = 3,
} gp_audit_sev;

/* What a module needs when a rule fires (the verdict scale, least to most). */
typedef enum gp_audit_vclass {
    GP_VC_PORTABLE = 0,
    GP_VC_ABSTRACTION = 1,
    GP_VC_REWRITE = 2,
} gp_audit_vclass;

/* The situations where a move off CUDA should not be forced. */
typedef enum gp_audit_stop {
    GP_STOP_NONE = 0,
    GP_STOP_CUSTOM_KERNELS, /* core paths on custom CUDA kernels, no CPU/Metal implementation */
    GP_STOP_CUDA_ONLY_EXT,  /* CUDA-only extension or third-party package without fallback */
    GP_STOP_NCCL,           /* NCCL / multi-GPU training */
    GP_STOP_CUDA_GRAPHS,    /* CUDA graphs */
    GP_STOP_CUDA_NUMERICS,  /* results that depend on CUDA-only numerics */
    GP_STOP_COUNT
} gp_audit_stop;

/* Language families (bit set). */
enum {
    GP_LANG_PY = 1u << 0,        /* .py, setup.py, notebooks' code cells */
    GP_LANG_C = 1u << 1,         /* .c .h .cc .cpp .cxx .hpp .cu .cuh ... */
    GP_LANG_CMAKE = 1u << 2,     /* CMakeLists.txt, *.cmake */
    GP_LANG_MAKE = 1u << 3,      /* Makefiles and shell scripts */
    GP_LANG_PYPROJECT = 1u << 4, /* setup.py, pyproject.toml, setup.cfg */
    GP_LANG_REQ = 1u << 5,       /* requirements / constraints files and dependency lists */
    GP_LANG_CONDA = 1u << 6,     /* conda environment files */
    GP_LANG_DOCKER = 1u << 7,    /* Dockerfiles and compose files */
};

typedef enum gp_audit_rule_id {
    GP_R_PY_DEV_001,
    GP_R_PY_DEV_002,
    GP_R_PY_DEV_003,
    GP_R_PY_DEV_004,
    GP_R_PY_DEV_005,
    GP_R_PY_AMP_001,
    GP_R_PY_CUDNN_001,
    GP_R_PY_DTYPE_001,
    GP_R_PY_MEM_001,
    GP_R_PY_DIST_001,
    GP_R_PY_DIST_002,
    GP_R_PY_EXT_001,
    GP_R_PY_EXT_002,
    GP_R_PY_EXT_003,
    GP_R_PY_IMP_001,
    GP_R_PY_IMP_002,
    GP_R_PY_TRITON_001,
    GP_R_PY_COMPILE_001,
    GP_R_PY_DL_001,
    GP_R_PY_MPS_001,
    GP_R_PY_QUANT_001,
    GP_R_C_INC_001,
    GP_R_C_RT_001,
    GP_R_C_DRV_001,
    GP_R_C_KERN_001,
    GP_R_C_KERN_002,
    GP_R_C_KERN_003,
    GP_R_C_LIB_001,
    GP_R_C_LIB_002,
    GP_R_C_LIB_003,
    GP_R_C_LIB_004,
    GP_R_C_LIB_005,
    GP_R_C_ATEN_001,
    GP_R_CMK_001,
    GP_R_CMK_002,
    GP_R_MK_001,
    GP_R_REQ_001,
    GP_R_REQ_002,
    GP_R_REQ_003,
    GP_R_REQ_004,
    GP_R_CONDA_001,
    GP_R_DOCKER_001,
    GP_R_COUNT
} gp_audit_rule_id;

typedef struct gp_audit_rule {
    const char *id;          /* "PY-DEV-001" */
    unsigned langs;          /* GP_LANG_* */
    gp_audit_sev severity;   /* unguarded */
    gp_audit_sev guarded;    /* under a guard (GP_SEV_NONE: the guarded form is the fix) */
    int guarded_as;          /* rule reported instead when guarded, or -1 */
    gp_audit_vclass vclass;  /* what an error of this rule makes its module need */
    gp_audit_stop stop;      /* stop condition an unguarded error is evidence for */
    const char *name;        /* short title */
    const char *pattern;     /* what it matches, in words */
    const char *explanation; /* why it matters on a Mac / the CPU */
    const char *fix;
} gp_audit_rule;

const gp_audit_rule *gp_audit_rule_get(int id);
/* The rule with this id ("PY-DEV-001"), or NULL. */
const gp_audit_rule *gp_audit_rule_find(const char *id, int *index);
const char *gp_audit_sev_name(gp_audit_sev s);
const char *gp_audit_vclass_name(gp_audit_vclass v);
const char *gp_audit_stop_name(gp_audit_stop s);
const char *gp_audit_stop_title(gp_audit_stop s);
/* Prints the table as Markdown (docs/audit-rules.md), as JSON, or as plain text. */
int gp_audit_rules_print_markdown(FILE *f);
int gp_audit_rules_print_json(FILE *f);
int gp_audit_rules_print_text(FILE *f);

#endif
