/* audit.h — `gpuport audit` as a library call: options in, reports out, exit code back. The CLI
 * (src/cli/cmd_audit.c) parses arguments into gp_audit_options; tests call gp_audit_run with a
 * memory stream. Pieces: walk (files, modules), scanfile (one file through its lexer), verdict
 * (modules, stop conditions), report_* (human, JSON, SARIF), baseline. */
#ifndef GP_AUDIT_AUDIT_H
#define GP_AUDIT_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "audit/rules.h"
#include "audit/source.h"

typedef enum gp_audit_format { GP_AUDIT_HUMAN, GP_AUDIT_JSON, GP_AUDIT_SARIF } gp_audit_format;

typedef struct gp_audit_options {
    const char *const *paths; /* default "." */
    size_t npaths;
    int jobs; /* 0: all online CPUs */
    bool respect_gitignore;
    bool no_default_excludes;
    const char *const *excludes; /* extra glob patterns (names or relative paths) */
    size_t nexcludes;
    const char *baseline;       /* findings listed here are known: not reported, not failing */
    const char *write_baseline; /* write every finding's fingerprint here */
    gp_audit_sev fail_on;       /* exit 1 when a finding is at least this; NONE: never */
    gp_audit_format format;
    bool progress;
    bool all; /* the human report lists every finding (else at most GP_HUMAN_PER_RULE a rule) */
} gp_audit_options;

/* Runs the audit; prints the report on `out`. Returns the exit code: 0 no finding at or above
 * fail_on, 1 there are, 2 bad input (a path that does not exist, an unreadable baseline, nothing
 * to scan), 3 internal error. With 2 or 3 the message (naming the file, without "gpuport audit: ")
 * is in msg (msglen > 0) for the caller to print; it is empty where the error came after the
 * report was out, and was said on stderr then. */
int gp_audit_run(const gp_audit_options *o, FILE *out, char *msg, size_t msglen);

/* Scans one file's bytes as if it were named `name` (a path: its base name picks the reader).
 * For tests and fuzzing; the result holds the findings after suppressions. */
void gp_audit_scan_bytes(const char *name, const char *data, size_t size, gp_audit_result *r);

/* One file from disk, as the scanner workers do it: bounded reads, mapping of large files,
 * binary detection. `buf`/`bufcap`: a reusable read buffer. */
void gp_audit_scan_path(const char *path, gp_audit_lang lang, gp_audit_result *r, char *buf,
                        size_t bufcap);

#endif
