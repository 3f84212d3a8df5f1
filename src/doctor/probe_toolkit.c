/* probe_toolkit.c — the CUDA toolkits on this machine: where builds will find one ($CUDA_HOME,
 * $CUDA_PATH, nvcc on PATH, /usr/local/cuda) and every other installed one, each with its
 * version read from version.json, version.txt or include/cuda.h. `nvcc --version` runs only
 * when a toolkit has none of these files: the one fact here that may need a subprocess. Also
 * the LD_LIBRARY_PATH entries that carry another CUDA runtime, and pip's index settings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/parse.h"
#include "doctor/probe.h"
#include "util/spawn.h"

#define GP_VERSION_FILE_CAP (256 * 1024)

static bool dir_has_prefix(const gp_probe_ctx *c, const char *dir, const char *prefix, int *major)
{
    DIR *d = gp_sysroot_opendir(&c->sr, dir);
    if (!d) return false;
    struct dirent *e;
    bool found = false;
    size_t pl = strlen(prefix);
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, prefix, pl) != 0) continue;
        found = true;
        if (major && e->d_name[pl] >= '1' && e->d_name[pl] <= '9') {
            int m = atoi(e->d_name + pl);
            if (m > *major) *major = m;
        }
    }
    closedir(d);
    return found;
}

static void toolkit_version(const gp_probe_ctx *c, gp_doctor_facts *f, gp_doctor_toolkit *t)
{
    char p[GP_DOCTOR_PATH + 64], err[GP_DOCTOR_TEXT];
    size_t len;
    snprintf(p, sizeof p, "%s/version.json", t->path);
    char *s = gp_sysroot_read(&c->sr, p, GP_VERSION_FILE_CAP, &len, err, sizeof err);
    if (s) {
        t->version_read = gp_parse_cuda_version_json(s, len, &t->version, t->version_reason,
                                                     sizeof t->version_reason);
        free(s);
        gp_copy(t->version_from, sizeof t->version_from, "version.json");
        if (t->version_read) return;
    } else if (gp_sysroot_exists(&c->sr, p)) { /* there but unreadable (a FIFO, no access) */
        gp_copy(t->version_reason, sizeof t->version_reason, err);
    }
    snprintf(p, sizeof p, "%s/version.txt", t->path);
    if ((s = gp_sysroot_read(&c->sr, p, GP_VERSION_FILE_CAP, &len, err, sizeof err))) {
        bool ok = gp_parse_cuda_version_txt(s, len, &t->version);
        free(s);
        if (ok) {
            t->version_read = true;
            gp_copy(t->version_from, sizeof t->version_from, "version.txt");
            return;
        }
        if (!t->version_reason[0])
            gp_copy(t->version_reason, sizeof t->version_reason,
                    "version.txt has no 'CUDA Version N.N' line");
    }
    snprintf(p, sizeof p, "%s/include/cuda.h", t->path);
    /* CUDA_VERSION sits in the first 16 KiB of the 1 MiB header: read only the start */
    if ((s = gp_sysroot_read(&c->sr, p, 128 * 1024, &len, err, sizeof err))) {
        bool ok = gp_parse_cuda_h(s, len, &t->version);
        free(s);
        if (ok) {
            t->version_read = true;
            gp_copy(t->version_from, sizeof t->version_from, "include/cuda.h");
            return;
        }
    }
    if (!t->has_nvcc || !c->sr.host) {
        if (!t->version_reason[0])
            gp_copy(t->version_reason, sizeof t->version_reason,
                    "no version.json, version.txt or include/cuda.h with a version");
        return;
    }
    /* The version exists nowhere but in nvcc itself. */
    snprintf(p, sizeof p, "%s/bin/nvcc", t->path);
    char *argv[] = {p, "--version", NULL};
    gp_spawn_result r;
    f->subprocesses++;
    if (gp_spawn_capture(argv, NULL, 10.0, 64 * 1024, &r, err, sizeof err) == 0) {
        if (gp_parse_nvcc_version(r.out, r.out_len, &t->version)) {
            t->version_read = true;
            gp_copy(t->version_from, sizeof t->version_from, "nvcc --version");
        }
        gp_spawn_result_free(&r);
    }
    if (!t->version_read)
        gp_copy(t->version_reason, sizeof t->version_reason,
                "no version file, and `nvcc --version` printed no release line");
}

/* Adds the toolkit at `dir` (resolved) unless it is known or is not a toolkit. Its index. */
static int add_toolkit(const gp_probe_ctx *c, gp_doctor_facts *f, const char *dir, const char *by)
{
    char real[GP_DOCTOR_PATH];
    if (!gp_sysroot_resolve(&c->sr, dir, real, sizeof real)) return -1;
    gp_doctor_cuda_env *ce = &f->cuda;
    for (int i = 0; i < ce->toolkit_count; i++)
        if (strcmp(ce->toolkits[i].path, real) == 0) return i;
    char p[GP_DOCTOR_PATH + 64];
    snprintf(p, sizeof p, "%s/bin/nvcc", real);
    bool nvcc = gp_sysroot_is_exec(&c->sr, p);
    snprintf(p, sizeof p, "%s/version.json", real);
    bool vjson = gp_sysroot_exists(&c->sr, p);
    snprintf(p, sizeof p, "%s/version.txt", real);
    bool vtxt = gp_sysroot_exists(&c->sr, p);
    if (!nvcc && !vjson && !vtxt) return -1;
    if (ce->toolkit_count >= GP_DOCTOR_MAX_TOOLKITS) return -1;
    gp_doctor_toolkit *t = &ce->toolkits[ce->toolkit_count];
    gp_copy(t->path, sizeof t->path, real);
    gp_copy(t->found_by, sizeof t->found_by, by);
    t->has_nvcc = nvcc;
    snprintf(p, sizeof p, "%s/lib64", real);
    t->has_nvrtc = dir_has_prefix(c, p, "libnvrtc.so", NULL);
    snprintf(p, sizeof p, "%s/lib", real);
    t->has_nvrtc = t->has_nvrtc || dir_has_prefix(c, p, "libnvrtc.so", NULL);
    toolkit_version(c, f, t);
    return ce->toolkit_count++;
}

static void probe_ldpath(const gp_probe_ctx *c, gp_doctor_cuda_env *ce)
{
    const char *s = getenv("LD_LIBRARY_PATH");
    while (s && *s && ce->ld_count < GP_DOCTOR_MAX_LDPATH) {
        size_t l = strcspn(s, ":");
        if (l > 0 && l < GP_DOCTOR_PATH && s[0] == '/') {
            char *dir = ce->ld_dirs[ce->ld_count];
            memcpy(dir, s, l);
            dir[l] = '\0';
            int major = 0;
            dir_has_prefix(c, dir, "libcudart.so.", &major);
            ce->ld_cudart_major[ce->ld_count++] = major;
        }
        s += l;
        if (*s == ':') s++;
    }
}

/* True when machine folder `dir` is (inside) the toolkit's lib folder. */
static bool is_toolkit_lib(const gp_probe_ctx *c, const gp_doctor_cuda_env *ce, const char *dir)
{
    char real[GP_DOCTOR_PATH];
    if (!ce->toolkit_lib[0] || !gp_sysroot_resolve(&c->sr, dir, real, sizeof real)) return false;
    return strcmp(real, ce->toolkit_lib) == 0;
}

/* The lines of an ld.so.conf file that name the toolkit's lib folder. */
static bool conf_names_toolkit(const gp_probe_ctx *c, const gp_doctor_cuda_env *ce,
                               const char *file)
{
    char err[GP_DOCTOR_TEXT], line[GP_DOCTOR_PATH];
    size_t len;
    char *t = gp_sysroot_read(&c->sr, file, 64 * 1024, &len, err, sizeof err);
    if (!t) return false;
    bool found = false;
    for (char *s = t; *s && !found; s += strcspn(s, "\n"), s += *s == '\n') {
        gp_copy_line(line, sizeof line, s);
        if (line[0] == '/') found = is_toolkit_lib(c, ce, line);
    }
    free(t);
    return found;
}

static void probe_cudart_loadable(const gp_probe_ctx *c, gp_doctor_cuda_env *ce)
{
    if (ce->toolkit_count == 0) return;
    const char *libs[] = {"lib64", "lib"};
    for (size_t i = 0; i < 2 && !ce->toolkit_lib[0]; i++) {
        char p[GP_DOCTOR_PATH + 8], real[GP_DOCTOR_PATH];
        snprintf(p, sizeof p, "%s/%s", ce->toolkits[0].path, libs[i]);
        if (gp_sysroot_resolve(&c->sr, p, real, sizeof real) &&
            dir_has_prefix(c, real, "libcudart.so", NULL))
            gp_copy(ce->toolkit_lib, sizeof ce->toolkit_lib, real);
    }
    if (!ce->toolkit_lib[0]) return;
    for (int i = 0; i < ce->ld_count; i++) {
        if (is_toolkit_lib(c, ce, ce->ld_dirs[i])) {
            ce->cudart_known = true;
            gp_copy(ce->cudart_via, sizeof ce->cudart_via, "LD_LIBRARY_PATH");
            return;
        }
    }
    if (conf_names_toolkit(c, ce, "/etc/ld.so.conf")) {
        ce->cudart_known = true;
        gp_copy(ce->cudart_via, sizeof ce->cudart_via, "/etc/ld.so.conf");
        return;
    }
    DIR *d = gp_sysroot_opendir(&c->sr, "/etc/ld.so.conf.d");
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) && !ce->cudart_known) {
        size_t l = strlen(e->d_name);
        if (l < 6 || l > 128 || strcmp(e->d_name + l - 5, ".conf") != 0) continue;
        char p[GP_DOCTOR_PATH];
        snprintf(p, sizeof p, "/etc/ld.so.conf.d/%s", e->d_name);
        if (conf_names_toolkit(c, ce, p)) {
            ce->cudart_known = true;
            gp_copy(ce->cudart_via, sizeof ce->cudart_via, p);
        }
    }
    closedir(d);
}

static void probe_pip_index(gp_doctor_cuda_env *ce)
{
    const char *vars[] = {"PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL"};
    for (size_t i = 0; i < 2; i++) {
        const char *v = getenv(vars[i]);
        if (v && strstr(v, "/whl/cu")) {
            ce->pip_cuda_index = true;
            snprintf(ce->pip_index, sizeof ce->pip_index, "%s=%.200s", vars[i], v);
        }
    }
}

void gp_probe_toolkit(const gp_probe_ctx *c, gp_doctor_facts *f)
{
    gp_doctor_cuda_env *ce = &f->cuda;
    ce->nvcc_toolkit = -1;
    const char *home = getenv("CUDA_HOME"), *by = "CUDA_HOME";
    if (!home || !*home) home = getenv("CUDA_PATH"), by = "CUDA_PATH";
    if (home && *home) {
        gp_copy(ce->cuda_home, sizeof ce->cuda_home, home);
        gp_copy(ce->cuda_home_by, sizeof ce->cuda_home_by, by);
        add_toolkit(c, f, home, by);
    }
    if (gp_sysroot_which(&c->sr, "nvcc", getenv("PATH"), ce->nvcc_on_path,
                         sizeof ce->nvcc_on_path)) {
        char real[GP_DOCTOR_PATH];
        if (gp_sysroot_resolve(&c->sr, ce->nvcc_on_path, real, sizeof real)) {
            gp_path_dirname(real);
            gp_path_dirname(real);
            gp_copy(ce->nvcc_root, sizeof ce->nvcc_root, real);
            ce->nvcc_toolkit = add_toolkit(c, f, real, "nvcc on PATH");
        }
    }
    add_toolkit(c, f, "/usr/local/cuda", "/usr/local/cuda");
    const char *parents[] = {"/usr/local", "/opt"};
    for (size_t k = 0; k < 2; k++) {
        DIR *d = gp_sysroot_opendir(&c->sr, parents[k]);
        if (!d) continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (strncmp(e->d_name, "cuda", 4) != 0 || strlen(e->d_name) > 64) continue;
            char p[GP_DOCTOR_PATH];
            snprintf(p, sizeof p, "%s/%s", parents[k], e->d_name);
            add_toolkit(c, f, p, "installed");
        }
        closedir(d);
    }
    probe_ldpath(c, ce);
    probe_cudart_loadable(c, ce);
    probe_pip_index(ce);
}
