/* state.h — what one audit run accumulates while files come back from the workers in walk
 * order: a table of every file scanned (its walk module, the facts its scanner recorded), a
 * spool file holding every finding (so memory does not grow with the number of findings), and
 * problems. Once the walk is done, resolve.c reads the facts of all files together (which build
 * branch compiles a file, which imports reach it), decides the components and what each finding
 * counts as, and computes verdicts, stop conditions and the summary the reporters print. Shared
 * by audit.c (collection), resolve.c, baseline.c and the reporters. */
#ifndef GP_AUDIT_STATE_H
#define GP_AUDIT_STATE_H

#include <stdint.h>
#include <stdio.h>

#include "audit/audit.h"
#include "audit/walk.h"

#define GP_STOP_EVIDENCE   3
#define GP_PROBLEMS_LISTED 200
#define GP_TOP_RULES       5
#define GP_NEXT_STEPS      8

typedef struct gp_stop_ev {
    uint32_t file, line, col;
    uint32_t cell; /* a notebook's code cell (1-based), or 0 */
    uint16_t rule;
    uint8_t score; /* shown first: the project's own files, then kernels' definitions */
} gp_stop_ev;

/* What a component is for (a default-built part has none). */
typedef enum gp_audit_role {
    GP_ROLE_NONE = 0,
    GP_ROLE_CUDA_OPTIONAL, /* CUDA sources the default build leaves out (an option, a branch) */
    GP_ROLE_SCRIPT,        /* a program of its own: a file with a __main__ guard nothing imports */
    GP_ROLE_SUPPORT,       /* examples, tests, benchmarks, docs: not the project's own code */
} gp_audit_role;

/* Remarks a component (or the project) gets in words. */
enum {
    GP_REMARK_NO_MPS = 1u << 0,    /* CUDA and CPU implementations, none for MPS/Metal */
    GP_REMARK_WRAPS_EXT = 1u << 1, /* imports the project's CUDA extension without a fallback */
};

/* A component: a walk module (Python package or its first sub-package, CMake folder, top-level
 * folder), split where the build or the imports say a part stands apart. */
typedef struct gp_audit_module {
    char *path;
    gp_module_kind kind;
    gp_audit_role role;
    size_t files;
    size_t count[4];   /* reported findings by severity, as reported */
    size_t kernels;    /* CUDA kernels defined (C-KERN-001 at `__global__`) */
    size_t raw_errors; /* errors before an optional part's findings were lowered */
    bool cpu_impl, metal_impl;
    bool cuda_impl;   /* CUDA kernels, CUDA sources or a dispatch to CUDA */
    bool stub_cpu;    /* a PY-EXT-003 error: the CPU implementation only raises */
    unsigned remarks; /* GP_REMARK_* */
    size_t stop_count[GP_STOP_COUNT];
    gp_stop_ev ev[GP_STOP_COUNT][GP_STOP_EVIDENCE];
    /* guarded or optional stop evidence: a stop only for that path (multi-GPU training, the
     * optional CUDA backend) */
    size_t cond_count[GP_STOP_COUNT];
    gp_stop_ev cond_ev[GP_STOP_COUNT][GP_STOP_EVIDENCE];
    size_t cond_unreached[GP_STOP_COUNT]; /* of those, in code no entry point reaches */
    /* computed by resolve.c */
    gp_audit_vclass verdict;
    int decided_by;  /* rule index, -1 */
    int decided_sev; /* the severity that finding counted with (gp_audit_sev) */
    const char *effort;
    bool stop[GP_STOP_COUNT];
    bool cond_stop[GP_STOP_COUNT];
    char gate[128]; /* an optional part: what leaves it out of the default build */
    bool excluded;  /* left out of the project's verdict (optional, or examples and tests) */
} gp_audit_module;

/* One spooled finding, as its scanner found it (resolve.c decides what it counts as). */
typedef struct gp_spool_rec {
    uint16_t rule;
    uint8_t severity;
    uint8_t flags; /* 1 guarded, 2 in the baseline, GP_MARK_* << 2 */
    uint32_t line, col, cell, file;
    uint32_t snip_len;
    uint32_t file_line, file_col; /* notebooks: the place in the .ipynb file itself, or 0 */
    uint32_t fact;                /* the import it is about (in its file's facts) + 1, or 0 */
    char fp[33];
} gp_spool_rec;

/* A finding as reported: its rule, severity (GP_SEV_NONE: not reported) and why it is lower. */
typedef struct gp_eff {
    uint16_t rule;
    uint8_t severity;
    bool guarded;
    bool optional;  /* in a part the default build leaves out */
    bool unreached; /* in a function no entry point of the project reaches (reach.c) */
} gp_eff;

typedef struct gp_problem {
    char *path;
    char *what;
} gp_problem;

/* File flags (gp_audit_file.flags). */
enum {
    GP_FF_CPU_IMPL = 1u << 0,
    GP_FF_METAL_IMPL = 1u << 1,
    GP_FF_MAIN_GUARD = 1u << 2,
    GP_FF_CUDA_DISPATCH = 1u << 3, /* C++ dispatch on the device with a CUDA branch */
    GP_FF_MPS_IMPL = 1u << 4,      /* an MPS branch or implementation */
    GP_FF_PREFILTERED = 1u << 5,   /* decided without tokenizing: no trigger word */
    GP_FF_CHECKS = 1u << 6,        /* python: has code behind a CUDA or distributed check */
    GP_FF_DIST_REQUIRED = 1u << 7, /* python: its paths without a distributed run only raise */
    /* set by resolve.c */
    GP_FF_OPTIONAL = 1u << 8,       /* the default build leaves it out */
    GP_FF_IMPORT_GUARDED = 1u << 9, /* imported only behind a CUDA check */
    GP_FF_SCRIPT = 1u << 10,
    GP_FF_GATES = 1u << 11,         /* a build file that compiles CUDA only in a guarded branch */
    GP_FF_CALLS_GUARDED = 1u << 12, /* has functions other modules use only behind a check */
    GP_FF_JIT_FALLBACK = 1u << 13,  /* python: JIT-builds its folder's CUDA sources behind a test
                                       of the tensor's device, with a PyTorch path beside it */
};

/* Lines lo to hi of a file (a function its callers use only behind a check, or one no entry
 * point reaches). */
typedef struct gp_line_span {
    uint32_t file, lo, hi;
    bool unreached;
} gp_line_span;

/* A Python file importing another (indexes into gp_audit_state.files). */
typedef struct gp_import_edge {
    uint32_t from, to;
    bool guarded; /* the import is behind a CUDA check or in try/except ImportError */
} gp_import_edge;

/* Every file scanned (in walk order). */
typedef struct gp_audit_file {
    uint32_t path;   /* offset into gp_audit_state.paths */
    uint32_t module; /* walk module (gp_audit_state.wmods) */
    uint32_t comp;   /* component (gp_audit_state.mods), set by resolve.c */
    uint16_t flags;
    uint8_t lang;
    uint8_t wkind;          /* the walk's module kind for this file (gp_module_kind) */
    uint8_t gate;           /* the optional part's reason, an index into resolve.c's words */
    uint16_t gate_dir;      /* when not 0: its path's first gate_dir bytes name the folder of
                             * the build it belongs to (a sub-build the default one leaves out) */
    uint32_t facts, nfacts; /* the file's facts: bytes at gp_audit_state.facts + facts */
    size_t first_rec, nrec; /* its spooled findings */
    long spool_at;          /* the spool offset of its first one */
    uint16_t build_guarded, build_unguarded; /* CUDA build findings (CMK, MK, PY-EXT) */
    uint16_t blockers; /* unguarded imports that fail off CUDA (PY-IMP-001, Triton) */
    uint32_t count[4]; /* reported findings by severity */
} gp_audit_file;

/* A module as the walk saw it. */
typedef struct gp_walk_mod {
    char *path;
    gp_module_kind kind;
} gp_walk_mod;

typedef struct gp_rule_count {
    size_t n;
    uint32_t file, line, cell; /* the first one of the worst severity */
    int sev;                   /* the worst severity reported */
    size_t own_n;              /* those in the project's own code (not examples, tests, vendored) */
    uint32_t own_file, own_line, own_cell; /* the first of those of the worst severity */
    int own_sev;                           /* that severity */
    long spool_at;                         /* the first one's place in the spool */
} gp_rule_count;

typedef struct gp_audit_state {
    const gp_audit_options *o;
    gp_strbuf paths; /* every scanned file's display path, NUL-terminated, one after another */
    gp_audit_file *files;
    size_t nfiles, capfiles;
    gp_strbuf facts;
    size_t scanned, other, binary;
    size_t by_lang[GP_AL_METAL + 1];
    gp_problem *problems;
    size_t nproblems, capproblems, problems_total;
    size_t arg_problems; /* a path argument itself could not be read */
    gp_walk_mod *wmods;
    size_t nwmods, capwmods;
    size_t *modhash; /* open addressing over wmods: index+1, 0 = empty */
    size_t modhash_cap;
    gp_audit_module *mods; /* components, made by resolve.c */
    size_t nmods;
    FILE *spool;
    size_t nrec;
    long spool_pos;           /* bytes written to the spool */
    size_t count[4];          /* reported findings by severity */
    size_t optional_findings; /* reported findings in optional parts */
    size_t baselined;         /* findings found in the baseline */
    size_t dropped;           /* past the per-file cap */
    uint8_t (*baseline)[16];
    size_t nbaseline;
    /* project level, computed by resolve.c */
    gp_audit_vclass verdict;
    const char *effort;
    bool stop[GP_STOP_COUNT];
    bool cond_stop[GP_STOP_COUNT];
    gp_rule_count rule_count[GP_R_COUNT]; /* reported findings by rule */
    size_t kernels;                       /* CUDA kernels defined, among the reported findings */
    char **tops; /* the top-level Python packages and modules of the tree, sorted */
    size_t ntops;
    gp_line_span *gdefs; /* functions used elsewhere only behind a CUDA or distributed check */
    size_t ngdefs, capgdefs;
    gp_line_span *owncuda; /* `self.cuda()` calls of a class whose base defines its own cuda() */
    size_t nowncuda;
    bool failed_alloc;
} gp_audit_state;

static inline const char *gp_audit_path(const gp_audit_state *st, uint32_t file)
{
    return st->paths.data + st->files[file].path;
}

/* reach.c: follows the calls between the project's functions from its entry points (programs,
 * console scripts, documented commands) and adds to st->gdefs the functions with stop findings
 * that are reached only behind a CUDA or distributed check, or not at all. `dotted`: each
 * file's module name (NULL for non-Python files). */
void gp_audit_reach(gp_audit_state *st, const gp_import_edge *e, size_t ne, char *const *dotted);
/* Adds a span to st->gdefs (false when out of memory). */
bool gp_audit_gdef_add(gp_audit_state *st, uint32_t file, uint32_t lo, uint32_t hi, bool unreached);

/* resolve.c: components, effective findings, verdicts (after the walk, before any report) */
int gp_audit_resolve(gp_audit_state *st);
/* What spooled finding r is in the report. */
void gp_audit_effective(const gp_audit_state *st, const gp_spool_rec *r, gp_eff *e);
const char *gp_audit_verdict_name(gp_audit_vclass v);
const char *gp_audit_role_name(gp_audit_role r);
/* The stop condition's title for this project: the custom-kernels one says where the CPU or
 * Metal implementations are when some module has them. */
const char *gp_audit_stop_title_for(const gp_audit_state *st, gp_audit_stop s);
/* Is path p in vendored third-party code (a folder named third_party, vendor, external... under
 * the scanned folder)? */
bool gp_audit_path_vendored(const gp_audit_state *st, const char *p);
/* The bytes of p that name the scanned folder it is under, with its '/' (0 for "."). */
size_t gp_audit_root_len(const gp_audit_state *st, const char *p);
/* Why a conditional stop is only conditional, for component m. */
const char *gp_audit_cond_scope(const gp_audit_module *m, gp_audit_stop s);
/* The one thing that decides the project's verdict, in a sentence. */
void gp_audit_decided(const gp_audit_state *st, char *buf, size_t cap);
/* The ordered list of what to do first (at most GP_NEXT_STEPS lines, each one sentence). */
size_t gp_audit_next_steps(const gp_audit_state *st, char lines[][400], size_t cap);
/* Are the errors and warnings all outside the project's own code (examples, tests, docs,
 * benchmarks, vendored code), with no stop condition and no optional CUDA part? */
bool gp_audit_steps_outside(const gp_audit_state *st);
/* The code of a rule's first reported finding (its example), and its record's flags. */
bool gp_audit_rule_example(gp_audit_state *st, int rule, char *snip, size_t cap, unsigned *flags);
/* Rules in order of reported count, most first (at most cap). */
size_t gp_audit_top_rules(const gp_audit_state *st, int *out, size_t cap);

/* baseline.c */
int gp_audit_baseline_load(gp_audit_state *st, const char *path, char *err, size_t errlen);
bool gp_audit_baseline_has(const gp_audit_state *st, const char *fp);
int gp_audit_baseline_write(gp_audit_state *st, const char *path, char *err, size_t errlen);

/* Reads spooled finding i's record and snippet in order (rewind first with fseek 0). */
int gp_spool_read(FILE *f, gp_spool_rec *rec, char *snip, size_t cap);

/* The spool read from its start in large blocks (the passes over every finding). */
typedef struct gp_spool_reader {
    FILE *f;
    size_t len, at;
    long pos; /* the spool offset of the next record */
    char buf[1u << 16];
} gp_spool_reader;

/* Starts reading from the beginning; -1 when the spool cannot be rewound. */
int gp_spool_begin(gp_spool_reader *rd, FILE *f);
/* The next record and (when snip is not NULL) its code, NUL-terminated; *at (when not NULL)
 * its offset in the spool. -1 at the end or on a read error. */
int gp_spool_next(gp_spool_reader *rd, gp_spool_rec *rec, char *snip, size_t cap, long *at);

/* reporters */
int gp_audit_report_human(gp_audit_state *st, FILE *out);
int gp_audit_report_json(gp_audit_state *st, FILE *out);
/* Adds a path (any bytes) to a JSON object as valid UTF-8 (bad bytes as U+FFFD). */
struct cJSON;
void gp_audit_json_add_path(struct cJSON *o, const char *key, const char *path);
int gp_audit_report_sarif(gp_audit_state *st, FILE *out);

#endif
