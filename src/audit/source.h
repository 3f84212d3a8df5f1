/* source.h — one file's bytes for a lexer: small files read into a reusable buffer, large ones
 * mapped and released behind the lexer as it goes, so memory stays bounded whatever the file
 * size. Also the per-file result every scanner fills: findings, suppressions, facts for verdicts.
 */
#ifndef GP_AUDIT_SOURCE_H
#define GP_AUDIT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "audit/rules.h"
#include "util/strbuf.h"

typedef struct gp_audit_source {
    const char *data; /* the whole file's bytes (a mapping may be partly released) */
    size_t size;
    size_t released; /* bytes [0, released) are no longer resident (see gp_audit_source_rewind) */
    bool mapped;
} gp_audit_source;

/* The length of the valid UTF-8 sequence at p[0, n) (1 for ASCII), or 0 when it is not one
 * (a stray continuation byte, an overlong form, a surrogate, a cut sequence). */
size_t gp_audit_utf8_len(const unsigned char *p, size_t n);
/* Appends s with each byte that starts no valid UTF-8 sequence as U+FFFD: names from the file
 * system, which may be any bytes, written into JSON. */
void gp_audit_utf8_append(gp_strbuf *sb, const char *s);

/* The length of a UTF-8 byte-order mark at the start of the bytes (3), or 0: readers start after
 * it, and line 1's columns count from there. */
static inline size_t gp_audit_source_bom(const gp_audit_source *s)
{
    return s->size >= 3 && memcmp(s->data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

/* Drops the pages before `keep` (minus a margin) from memory; a no-op for read files. */
void gp_audit_source_release(gp_audit_source *s, size_t keep);
/* Before reading from `pos` again: the pages from there map in again when read, and a later
 * release drops them again. */
void gp_audit_source_rewind(gp_audit_source *s, size_t pos);

/* The bounds of a mapped file's reading (GP_AUDIT_CHUNK, the release margin, the spans the word
 * search looks ahead) are MiBs, divided by 2^GP_AUDIT_SCALE_DOWN: 256 in fuzz builds, so that
 * inputs of tens of KiB take the paths that release, rewind and look a span at a time. */
#if defined(GPUPORT_FUZZING)
#define GP_AUDIT_SCALE_DOWN 8
#else
#define GP_AUDIT_SCALE_DOWN 0
#endif
/* A single token or comment may be longer than the memory bound: loops that run through one
 * look GP_AUDIT_CHUNK bytes at a time and release behind them. */
#define GP_AUDIT_CHUNK ((1u << 20) >> GP_AUDIT_SCALE_DOWN)
/* memchr over d[from, to), releasing behind itself in a mapped file. */
const char *gp_audit_source_memchr_chunked(gp_audit_source *s, size_t from, size_t to, int c);
static inline const char *gp_audit_source_memchr(gp_audit_source *s, size_t from, size_t to, int c)
{
    if (s->mapped) return gp_audit_source_memchr_chunked(s, from, to, c);
    return from < to ? (const char *)memchr(s->data + from, c, to - from) : NULL;
}
/* Comments are read for suppressions in their first GP_AUDIT_NOTE_MAX bytes. */
#define GP_AUDIT_NOTE_MAX 4096

/* What a file is (decided from its name). */
typedef enum gp_audit_lang {
    GP_AL_NONE = 0,
    GP_AL_PYTHON,
    GP_AL_SETUP_PY,
    GP_AL_NOTEBOOK,
    GP_AL_C,    /* C/C++ */
    GP_AL_CUDA, /* .cu / .cuh */
    GP_AL_CMAKE,
    GP_AL_MAKE,
    GP_AL_SHELL,
    GP_AL_PYPROJECT,
    GP_AL_SETUP_CFG,
    GP_AL_REQUIREMENTS,
    GP_AL_CONDA,
    GP_AL_DOCKERFILE,
    GP_AL_COMPOSE,
    GP_AL_METAL, /* not scanned; counts as a Metal implementation */
} gp_audit_lang;

gp_audit_lang gp_audit_lang_of(const char *name);

/* What a finding's report shows about it (gp_audit_finding.marks). */
enum {
    GP_MARK_CUT_BEFORE = 1u << 0, /* its snippet starts inside its line */
    GP_MARK_CUT_AFTER = 1u << 1,  /* its snippet ends before its line does */
    GP_MARK_KERNEL = 1u << 2,     /* C-KERN-001 at a kernel's definition (`__global__`) */
    GP_MARK_SELF_CUDA = 1u << 3,  /* PY-DEV-001 at `self.cuda()`: a base class of the project
                                   * may define its own cuda() (resolve.c) */
};

typedef struct gp_audit_finding {
    uint16_t rule;
    uint8_t severity;
    uint8_t guarded;
    uint8_t marks; /* GP_MARK_* */
    uint32_t line;
    uint32_t col;
    uint32_t cell;     /* notebook code cell (1-based), 0 elsewhere */
    uint32_t snip_off; /* into the result's text buffer */
    uint32_t snip_len;
    uint32_t file_line, file_col; /* notebooks: the place in the .ipynb file, or 0 */
    uint32_t fact; /* the import it is about: its offset in the result's facts + 1, or 0 */
} gp_audit_finding;

typedef struct gp_audit_suppress {
    uint32_t line;
    uint32_t cell;
    bool alone;      /* the comment is the only thing on its line: it covers the next line too */
    char rules[120]; /* "PY-DEV-001,C-RT-001", or "" for every rule */
} gp_audit_suppress;

#define GP_AUDIT_MAX_FINDINGS_PER_FILE 20000

typedef struct gp_audit_result {
    gp_audit_finding *f;
    size_t nf, capf;
    size_t dropped; /* findings past GP_AUDIT_MAX_FINDINGS_PER_FILE */
    gp_strbuf text; /* snippets */
    gp_audit_suppress *sup;
    size_t nsup, capsup;
    uint32_t cell; /* current notebook cell while scanning one */
    /* facts for verdicts */
    bool cpu_impl;       /* a source named as a CPU implementation with real bodies */
    bool metal_impl;     /* a .metal file */
    bool has_main_guard; /* python: if __name__ == "__main__" */
    bool has_checks;     /* python: code behind a CUDA or distributed check (a hint: reach.c
                          * scans the file again for where, only when it has some) */
    bool cuda_dispatch;  /* c++: a dispatch on the device with a CUDA branch */
    bool dist_required;  /* python: the paths without a distributed run only raise */
    bool mps_impl;       /* an MPS branch (`is_mps()`, `kMPS`) or an MPS implementation */
    bool prefiltered;    /* decided by the prefilter without tokenizing */
    /* python, when not NULL (reach.c asks it of a full scan): the code behind a CUDA or
     * distributed check, one "a-b:chain:branch" line per stretch (bytes a to b; its
     * if/elif/else chain and branch), or a line "?" when they are not all known */
    gp_strbuf *guard_out;
    bool skipped_binary;
    gp_strbuf facts;     /* what resolve.c reads across files (gp_audit_fact) */
    const char *problem; /* static reason the file could not be scanned, or NULL */
    char problem_detail[160];
} gp_audit_result;

/* Facts a scanner records for the decisions that need every file (resolve.c): one record each,
 * a kind, flags and a short text (a module name, a path, an option). */
typedef enum gp_audit_fact_kind {
    GP_FACT_IMPORT = 1,   /* python: an imported module as written ("." prefixes when relative) */
    GP_FACT_INCLUDE,      /* c/c++: a quoted #include */
    GP_FACT_SUBDIR,       /* cmake: add_subdirectory(X) */
    GP_FACT_SOURCE,       /* a build file names a source file or glob (relative to its folder) */
    GP_FACT_CUDA_OPTION,  /* cmake: an option on CUDA that defaults to OFF */
    GP_FACT_CUDA_BACKEND, /* cmake: a backend named CUDA added through a project function */
    GP_FACT_CUDA_GATED,   /* a build file that compiles CUDA only in a guarded branch */
    GP_FACT_CUDA_TARGET,  /* make: a target built only in a CUDA branch */
    GP_FACT_DEF,          /* python: "name:first-last", a top-level function or class with errors or
                           * stop-condition findings (on lines first to last) not behind a check: its
                           * callers decide (resolve.c, reach.c); GP_FACTF_OWN_PLAIN when its own file
                           * uses it outside a check */
    GP_FACT_CUDA_METHOD,  /* python: a class (its name) that defines its own method cuda() */
    GP_FACT_EXT_MODULE,   /* setup.py: the module a CUDAExtension builds ("pkg._C"); GUARDED when
                           * only a CUDA branch of the build makes it; CPU_EXT for a
                           * CppExtension's */
} gp_audit_fact_kind;

enum {
    GP_FACTF_GUARDED = 1u << 0,      /* under a CUDA check (a build's CUDA branch, a device test) */
    GP_FACTF_TRY = 1u << 1,          /* an import inside try/except ImportError */
    GP_FACTF_NAME = 1u << 2,         /* `from X import name`: X.name, which may be a module */
    GP_FACTF_TYPE = 1u << 3,         /* an import only for type checkers (if TYPE_CHECKING) */
    GP_FACTF_USED_GUARDED = 1u << 4, /* `from X import name`: every use of name in the file is
                                      * behind a CUDA or distributed check */
    GP_FACTF_OWN_PLAIN = 1u << 5,    /* GP_FACT_DEF: its own file uses it outside a check */
    GP_FACTF_METHOD = 1u << 6,       /* GP_FACT_DEF: "Class.method", a method of a class */
    GP_FACTF_CPU_EXT = 1u << 7,      /* GP_FACT_EXT_MODULE: built by a CppExtension (no CUDA) */
};

#define GP_AUDIT_FACT_MAX 255
/* Appends a fact (text cut at GP_AUDIT_FACT_MAX bytes). */
void gp_audit_fact(gp_audit_result *r, int kind, unsigned flags, const char *text, size_t n);
/* Walks the facts at p[0, n): returns the next record's kind (0 at the end) and moves *at. */
int gp_audit_fact_next(const char *p, size_t n, size_t *at, unsigned *flags, const char **text,
                       size_t *len);

void gp_audit_result_init(gp_audit_result *r);
void gp_audit_result_free(gp_audit_result *r);

/* Adds a finding of `rule` at line/col (1-based) for code at src[off, off+len): the snippet is
 * the text around it, cut to its line and 160 bytes. `guarded` applies the rule's guarded
 * severity (or its guarded_as rule). Returns the finding index, or -1 when nothing was added.
 * The snippet and column are the same however far the reader has gone (bytes it released are
 * read again, see gp_audit_source_rewind). */
long gp_audit_add(gp_audit_result *r, gp_audit_source *s, int rule, bool guarded, uint32_t line,
                  size_t line_off, size_t off, size_t len);
/* Re-rates finding i as guarded (a later `except ImportError` found it was inside a try). */
void gp_audit_guard_finding(gp_audit_result *r, size_t i);
/* Records a `gpuport: ignore[...]` comment found at src[off, off+len) on `line`. */
void gp_audit_note_comment(gp_audit_result *r, const char *text, size_t len, uint32_t line,
                           bool alone);
/* Drops findings covered by suppression comments (call once after scanning). */
void gp_audit_apply_suppressions(gp_audit_result *r);

/* True when an identifier names CUDA in a configuration switch (USE_CUDA, __CUDACC__,
 * GGML_USE_CUDA, WITH_GPU, HAVE_NCCL ...): one of its '_'-separated parts is CUDA-ish. */
bool gp_audit_word_is_cuda_switch(const char *s, size_t n);
/* The i-th '_'-separated part (upper case) that makes a word a CUDA switch, NULL past the last
 * (a part starting with CUDA is one too). */
const char *gp_audit_cuda_switch_part(size_t i);

#endif
