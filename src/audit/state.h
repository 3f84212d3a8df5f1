/* state.h — what one audit run accumulates while files come back from the workers in walk
 * order: counts, problems, modules with their facts and stop-condition evidence, and a spool
 * file holding every finding (so memory does not grow with the number of findings). Shared by
 * audit.c (collection), verdict.c, baseline.c and the reporters. */
#ifndef GP_AUDIT_STATE_H
#define GP_AUDIT_STATE_H

#include <stdint.h>
#include <stdio.h>

#include "audit/audit.h"
#include "audit/walk.h"

#define GP_STOP_EVIDENCE   3
#define GP_PROBLEMS_LISTED 200

typedef struct gp_stop_ev {
    uint32_t file, line, col;
    uint32_t cell; /* a notebook's code cell (1-based), or 0 */
    uint16_t rule;
} gp_stop_ev;

typedef struct gp_audit_module {
    char *path;
    gp_module_kind kind;
    size_t files;
    size_t count[4]; /* findings by severity (reported ones) */
    bool cpu_impl, metal_impl;
    bool stub_cpu; /* a PY-EXT-003 error: the CPU implementation only raises */
    size_t stop_count[GP_STOP_COUNT];
    gp_stop_ev ev[GP_STOP_COUNT][GP_STOP_EVIDENCE];
    /* computed by verdict.c */
    gp_audit_vclass verdict;
    int decided_by; /* rule index, -1 */
    const char *effort;
    bool stop[GP_STOP_COUNT];
} gp_audit_module;

/* One spooled finding. */
typedef struct gp_spool_rec {
    uint16_t rule;
    uint8_t severity;
    uint8_t flags; /* 1 guarded, 2 in the baseline */
    uint32_t line, col, cell, file;
    uint32_t snip_len;
    char fp[33];
} gp_spool_rec;

typedef struct gp_problem {
    char *path;
    char *what;
} gp_problem;

typedef struct gp_audit_state {
    const gp_audit_options *o;
    char **files; /* display paths of files that have findings, by file id */
    size_t nfiles, capfiles;
    size_t scanned, other, binary;
    size_t by_lang[GP_AL_METAL + 1];
    gp_problem *problems;
    size_t nproblems, capproblems, problems_total;
    gp_audit_module *mods;
    size_t nmods, capmods;
    size_t *modhash; /* open addressing: index+1, 0 = empty */
    size_t modhash_cap;
    FILE *spool;
    size_t nrec;
    size_t count[4];  /* reported findings by severity */
    size_t baselined; /* findings found in the baseline */
    size_t dropped;   /* past the per-file cap */
    uint8_t (*baseline)[16];
    size_t nbaseline;
    /* project level, computed by verdict.c */
    gp_audit_vclass verdict;
    const char *effort;
    bool stop[GP_STOP_COUNT];
    bool failed_alloc;
} gp_audit_state;

/* verdict.c */
void gp_audit_verdicts(gp_audit_state *st);
const char *gp_audit_verdict_name(gp_audit_vclass v);

/* baseline.c */
int gp_audit_baseline_load(gp_audit_state *st, const char *path, char *err, size_t errlen);
bool gp_audit_baseline_has(const gp_audit_state *st, const char *fp);
int gp_audit_baseline_write(gp_audit_state *st, const char *path, char *err, size_t errlen);

/* Reads spooled finding i's record and snippet in order (rewind first with fseek 0). */
int gp_spool_read(FILE *f, gp_spool_rec *rec, char *snip, size_t cap);

/* reporters */
int gp_audit_report_human(gp_audit_state *st, FILE *out);
int gp_audit_report_json(gp_audit_state *st, FILE *out);
/* Adds a path (any bytes) to a JSON object as valid UTF-8 (bad bytes as U+FFFD). */
struct cJSON;
void gp_audit_json_add_path(struct cJSON *o, const char *key, const char *path);
int gp_audit_report_sarif(gp_audit_state *st, FILE *out);

#endif
