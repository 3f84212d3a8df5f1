/* scanfile.c — one file through its reader: small files are read into the worker's buffer,
 * large ones mapped (and released page by page behind the lexer), binary files recognised by a
 * NUL byte in their first 8 KiB, notebooks size-capped because they are parsed as JSON. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit/audit.h"
#include "audit/prefilter.h"
#include "audit/scanners.h"
#include "util/fs.h"

#define NOTEBOOK_CAP (8u << 20)

static void dispatch(const char *path, gp_audit_lang lang, gp_audit_source *s, gp_audit_result *r)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (gp_audit_prefilter_skip(s, lang, path, r)) { /* no trigger word: no finding */
        r->prefiltered = true;
        return;
    }
    switch (lang) {
    case GP_AL_PYTHON:
        gp_audit_scan_python(s, r, false, base);
        break;
    case GP_AL_SETUP_PY:
        gp_audit_scan_python(s, r, true, base);
        break;
    case GP_AL_NOTEBOOK:
        gp_audit_scan_notebook(s, r);
        break;
    case GP_AL_C:
        gp_audit_scan_c(s, r, false, path);
        break;
    case GP_AL_CUDA:
        gp_audit_scan_c(s, r, true, path);
        break;
    case GP_AL_CMAKE:
        gp_audit_scan_cmake(s, r);
        break;
    case GP_AL_MAKE:
        gp_audit_scan_make(s, r, false);
        break;
    case GP_AL_SHELL:
        gp_audit_scan_make(s, r, true);
        break;
    case GP_AL_PYPROJECT:
        gp_audit_scan_pyproject(s, r);
        break;
    case GP_AL_SETUP_CFG:
        gp_audit_scan_setup_cfg(s, r);
        break;
    case GP_AL_REQUIREMENTS:
        gp_audit_scan_requirements(s, r);
        break;
    case GP_AL_CONDA:
        gp_audit_scan_conda(s, r);
        break;
    case GP_AL_DOCKERFILE:
        gp_audit_scan_dockerfile(s, r);
        break;
    case GP_AL_COMPOSE:
        gp_audit_scan_compose(s, r);
        break;
    case GP_AL_METAL:
        r->metal_impl = true;
        break;
    case GP_AL_NONE:
        break;
    }
}

static bool looks_binary(const char *d, size_t n)
{
    return memchr(d, '\0', n < 8192 ? n : 8192) != NULL;
}

void gp_audit_scan_bytes(const char *name, const char *data, size_t size, gp_audit_result *r)
{
    gp_audit_lang lang = gp_audit_lang_of(strrchr(name, '/') ? strrchr(name, '/') + 1 : name);
    if (looks_binary(data, size)) {
        r->skipped_binary = true;
        return;
    }
    gp_audit_source s = {data, size, 0, false};
    dispatch(name, lang, &s, r);
    gp_audit_apply_suppressions(r);
}

static void problem(gp_audit_result *r, const char *what, int err)
{
    r->problem = what;
    snprintf(r->problem_detail, sizeof r->problem_detail, "%s", strerror(err));
}

void gp_audit_scan_path(const char *path, gp_audit_lang lang, gp_audit_result *r, char *buf,
                        size_t bufcap)
{
    if (lang == GP_AL_METAL) {
        r->metal_impl = true;
        return;
    }
    /* the walker checked where a link leads; a FIFO or device is refused unopened */
    struct stat st;
    char why[256];
    int fd = gp_open_regular(path, 0, &st, why, sizeof why);
    if (fd < 0) {
        struct stat ls;
        size_t pl = strlen(path);
        r->problem =
            stat(path, &ls) == 0 && !S_ISREG(ls.st_mode) ? "not a regular file" : "cannot open";
        const char *reason = strncmp(why, path, pl) == 0 && why[pl] == ':' ? why + pl + 2 : why;
        snprintf(r->problem_detail, sizeof r->problem_detail, "%.*s",
                 (int)sizeof r->problem_detail - 1, reason);
        return;
    }
    size_t size = (size_t)st.st_size;
    if (lang == GP_AL_NOTEBOOK && size > NOTEBOOK_CAP) {
        r->problem = "notebook larger than 8 MiB: not parsed";
        snprintf(r->problem_detail, sizeof r->problem_detail, "%zu bytes", size);
        close(fd);
        return;
    }
    gp_audit_source s = {NULL, 0, 0, false};
    void *map = NULL;
    if (size < bufcap) {
        size_t got = 0;
        while (got < size) {
            ssize_t k = read(fd, buf + got, size - got);
            if (k < 0 && errno == EINTR) continue;
            if (k < 0) {
                problem(r, "cannot read", errno);
                close(fd);
                return;
            }
            if (k == 0) break;
            got += (size_t)k;
        }
        buf[got] = '\0';
        s.data = buf;
        s.size = got;
    } else {
        map = gp_map_fd(fd, size);
        if (!map) {
            problem(r, "cannot map", errno);
            close(fd);
            return;
        }
        gp_map_advise(map, size, GP_MAP_SEQUENTIAL);
        s.data = map;
        s.size = size;
        s.mapped = true;
    }
    close(fd);
    if (looks_binary(s.data, s.size)) {
        r->skipped_binary = true;
    } else {
        dispatch(path, lang, &s, r);
        gp_audit_apply_suppressions(r);
    }
    gp_unmap(map, size);
}
