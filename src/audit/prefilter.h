/* prefilter.h — a per-file shortcut taken before lexing: every finding of the Python and C/C++
 * scanners needs one of a known set of literal words (its trigger) somewhere in the file's bytes,
 * so a file with none of them is decided without tokenizing it. The trigger sets come from the
 * scanners' own tables (see gp_audit_python_triggers, gp_audit_c_triggers); the other readers
 * are always lexed. */
#ifndef GP_AUDIT_PREFILTER_H
#define GP_AUDIT_PREFILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "audit/source.h"

/* A literal word, optionally followed by one character of a class: 0 any (nothing more), 'U'
 * upper case, 'L' lower case, 'E' '_', upper case or digit (the classes of scan_c.c's families);
 * or '$': the word anywhere within the file's last GP_AUDIT_TAIL bytes. */
typedef struct gp_audit_trigger {
    const char *text;
    char next;
    /* The word starts a token: the byte before it is not a name character of the language.
     * (The lexers never start a token right after one, so a word inside a longer name is no
     * trigger for a rule keyed on a token's start.) */
    bool word;
} gp_audit_trigger;

#define GP_AUDIT_TAIL 6

/* The scanners' trigger lists; each returns the count and sets *out to a static array. */
size_t gp_audit_python_triggers(const gp_audit_trigger **out);
size_t gp_audit_c_triggers(const gp_audit_trigger **out);

/* The word sets of the Python and the C/C++ scanners. */
typedef enum gp_audit_pf { GP_PF_PYTHON, GP_PF_C } gp_audit_pf;

/* The start of the earliest word of the set at or after `from`, or `size` when none. */
size_t gp_audit_prefilter_find(gp_audit_pf which, const char *data, size_t size, size_t from);
/* The same looking only at starts before `lim` (a word may run past it): `lim` when none. The
 * bytes read stay within a bounded distance of `from` (for mapped files, released behind). */
size_t gp_audit_prefilter_find_before(gp_audit_pf which, const char *data, size_t size, size_t from,
                                      size_t lim);
/* The same through one search: `vector`, the vector screen where the CPU has one (otherwise every
 * position one by one), or the step-sampled scalar search. The results are the same. */
size_t gp_audit_prefilter_find_how(gp_audit_pf which, const char *data, size_t size, size_t from,
                                   bool vector);

/* Could a file of reader `lang` with these bytes yield a finding? False only when it provably
 * cannot (no trigger of its language occurs); always true for readers without a trigger set. */
bool gp_audit_prefilter_may_match(gp_audit_lang lang, const char *data, size_t size);

/* Decides a file without lexing it when the prefilter allows: sets the facts the scanner would
 * have set from the file's name alone and returns true; false means "scan it". Only whole files
 * held in memory are decided this way (mapped large files and notebook cells are always lexed). */
bool gp_audit_prefilter_skip(const gp_audit_source *s, gp_audit_lang lang, const char *path,
                             gp_audit_result *r);

#endif
