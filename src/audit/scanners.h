/* scanners.h — one scanner per language family. Each reads a source through its lexer and adds
 * findings to a result; none keeps state between files, so files scan in parallel. */
#ifndef GP_AUDIT_SCANNERS_H
#define GP_AUDIT_SCANNERS_H

#include "audit/source.h"

/* `name` is the file's base name, `lang` its reader (see gp_audit_lang_of). */
void gp_audit_scan_python(gp_audit_source *s, gp_audit_result *r, bool setup_py, const char *name);
/* The same with the line shortcut on or off (the results are the same; tests compare them). */
void gp_audit_scan_python_how(gp_audit_source *s, gp_audit_result *r, bool setup_py,
                              const char *name, bool shortcut);
/* Parses the notebook JSON (cJSON) and scans its code cells; positions are cell and line. */
void gp_audit_scan_notebook(gp_audit_source *s, gp_audit_result *r);
void gp_audit_scan_c(gp_audit_source *s, gp_audit_result *r, bool cuda, const char *path);
void gp_audit_scan_c_how(gp_audit_source *s, gp_audit_result *r, bool cuda, const char *path,
                         bool shortcut);
void gp_audit_scan_cmake(gp_audit_source *s, gp_audit_result *r);
void gp_audit_scan_make(gp_audit_source *s, gp_audit_result *r, bool shell);
void gp_audit_scan_requirements(gp_audit_source *s, gp_audit_result *r);
void gp_audit_scan_pyproject(gp_audit_source *s, gp_audit_result *r);
void gp_audit_scan_setup_cfg(gp_audit_source *s, gp_audit_result *r);
void gp_audit_scan_conda(gp_audit_source *s, gp_audit_result *r);
void gp_audit_scan_dockerfile(gp_audit_source *s, gp_audit_result *r);
void gp_audit_scan_compose(gp_audit_source *s, gp_audit_result *r);

/* Facts the Python and C scanners take from a file's name (the prefilter needs them too). */
bool gp_audit_python_name_is_cpu_impl(const char *base_name);
bool gp_audit_c_path_is_cpu_named(const char *path);

/* Checks one requirement specifier ("torch==2.1+cu121; sys_platform == 'linux'", or a pip
 * option line) at src[off, off+len). Shared by requirements, pyproject, setup.cfg, setup.py and
 * the pip part of conda files. */
void gp_audit_check_requirement(gp_audit_source *s, gp_audit_result *r, uint32_t line,
                                size_t line_off, size_t off, size_t len);

#endif
