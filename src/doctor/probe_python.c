/* probe_python.c — PyTorch without importing it (or running Python): find the python3 on PATH
 * (through pyenv shims), its real interpreter and architecture (from the executable's header),
 * every site-packages it and the active virtualenv / conda env use, and in each one
 * torch/version.py and the wheel's WHEEL tag. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doctor/parse.h"
#include "doctor/probe.h"

#define GP_MAX_SITES 24

typedef struct site_list {
    int n;
    char dir[GP_MAX_SITES][GP_DOCTOR_PATH];
    const char *from[GP_MAX_SITES];
    char unreadable[GP_DOCTOR_TEXT];
} site_list;

static void site_add(const gp_probe_ctx *c, site_list *sl, const char *dir, const char *from)
{
    char real[GP_DOCTOR_PATH];
    if (sl->n >= GP_MAX_SITES || !gp_sysroot_resolve(&c->sr, dir, real, sizeof real)) return;
    if (!gp_sysroot_is_dir(&c->sr, real)) return;
    DIR *d = gp_sysroot_opendir(&c->sr, real);
    if (!d) {
        /* a site-packages we cannot list may hold the PyTorch that python3 imports */
        if (!sl->unreadable[0])
            snprintf(sl->unreadable, sizeof sl->unreadable, "%.200s: %s", real, strerror(errno));
        return;
    }
    closedir(d);
    for (int i = 0; i < sl->n; i++)
        if (strcmp(sl->dir[i], real) == 0) return;
    gp_copy(sl->dir[sl->n], GP_DOCTOR_PATH, real);
    sl->from[sl->n++] = from;
}

/* lib/python3.*\/{site,dist}-packages; `xy` ("3.11") narrows it when known. */
static void site_add_libdir(const gp_probe_ctx *c, site_list *sl, const char *lib, const char *xy,
                            const char *from)
{
    DIR *d = gp_sysroot_opendir(&c->sr, lib);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "python3", 7) != 0 || strlen(e->d_name) > 32) continue;
        if (xy && xy[0] && strcmp(e->d_name + 6, xy) != 0 && strcmp(e->d_name, "python3") != 0)
            continue;
        char p[2 * GP_DOCTOR_PATH];
        snprintf(p, sizeof p, "%s/%.32s/site-packages", lib, e->d_name);
        site_add(c, sl, p, from);
        snprintf(p, sizeof p, "%s/%.32s/dist-packages", lib, e->d_name);
        site_add(c, sl, p, from);
    }
    closedir(d);
}

/* prefix/lib/python3.*\/{site,dist}-packages */
static void site_add_prefix(const gp_probe_ctx *c, site_list *sl, const char *prefix,
                            const char *xy, const char *from)
{
    char lib[GP_DOCTOR_PATH + 8];
    snprintf(lib, sizeof lib, "%s/lib", prefix);
    site_add_libdir(c, sl, lib, xy, from);
}

/* A pyenv shim is a shell script; the interpreter it runs is versions/<v>/bin/python3, with
 * <v> from $PYENV_VERSION, else `.python-version` up from the working folder, else
 * $PYENV_ROOT/version. False when the shim selects the system Python. */
static bool pyenv_interpreter(const gp_probe_ctx *c, const char *shim, char *out, size_t n)
{
    char err[GP_DOCTOR_TEXT], root[GP_DOCTOR_PATH];
    char *t = gp_sysroot_read(&c->sr, shim, 4096, NULL, err, sizeof err);
    bool is_shim = t && strncmp(t, "#!", 2) == 0 && strstr(t, "pyenv");
    free(t);
    if (!is_shim) return false;
    gp_copy(root, sizeof root, shim);
    gp_path_dirname(root); /* .../shims */
    gp_path_dirname(root);
    const char *env_root = getenv("PYENV_ROOT");
    if (env_root && *env_root) gp_copy(root, sizeof root, env_root);
    char ver[128] = "";
    const char *v = getenv("PYENV_VERSION");
    if (v && *v) gp_copy_line(ver, sizeof ver, v);
    if (!ver[0] && c->sr.host) {
        char dir[GP_DOCTOR_PATH];
        if (getcwd(dir, sizeof dir)) {
            for (;;) {
                char p[GP_DOCTOR_PATH + 32];
                snprintf(p, sizeof p, "%s/.python-version", strcmp(dir, "/") ? dir : "");
                if ((t = gp_sysroot_read(&c->sr, p, 4096, NULL, err, sizeof err))) {
                    gp_copy_line(ver, sizeof ver, t);
                    free(t);
                    break;
                }
                if (strcmp(dir, "/") == 0) break;
                gp_path_dirname(dir);
            }
        }
    }
    if (!ver[0]) {
        char p[GP_DOCTOR_PATH + 16];
        snprintf(p, sizeof p, "%s/version", root);
        if ((t = gp_sysroot_read(&c->sr, p, 4096, NULL, err, sizeof err))) {
            gp_copy_line(ver, sizeof ver, t);
            free(t);
        }
    }
    /* "3.11.7 3.12.1": the first one wins for python3 */
    ver[strcspn(ver, " :")] = '\0';
    if (!ver[0] || strcmp(ver, "system") == 0 || strchr(ver, '/')) return false;
    int w = snprintf(out, n, "%s/versions/%s/bin/python3", root, ver);
    return w > 0 && (size_t)w < n && gp_sysroot_exists(&c->sr, out);
}

/* PATH without the folders up to and including `dir` (to look past a system-selecting shim). */
static const char *path_after(const char *path_env, const char *dir)
{
    size_t dl = strlen(dir);
    const char *s = path_env;
    while (*s) {
        size_t l = strcspn(s, ":");
        bool match = l == dl && strncmp(s, dir, l) == 0;
        s += l;
        if (*s == ':') s++;
        if (match) return s;
    }
    return NULL;
}

static void find_python(const gp_probe_ctx *c, gp_doctor_python *py)
{
    const char *path = getenv("PATH");
    char found[GP_DOCTOR_PATH];
    for (int tries = 0; tries < 4 && path; tries++) {
        if (!gp_sysroot_which(&c->sr, "python3", path, found, sizeof found)) return;
        char interp[GP_DOCTOR_PATH];
        if (!pyenv_interpreter(c, found, interp, sizeof interp)) {
            char err[GP_DOCTOR_TEXT];
            char *t = gp_sysroot_read(&c->sr, found, 64, NULL, err, sizeof err);
            bool shim = t && strncmp(t, "#!", 2) == 0 && strstr(found, "/shims/");
            free(t);
            if (shim) { /* pyenv "system": the next python3 on PATH */
                char dir[GP_DOCTOR_PATH];
                gp_copy(dir, sizeof dir, found);
                gp_path_dirname(dir);
                path = path_after(path, dir);
                continue;
            }
            gp_copy(interp, sizeof interp, found);
        }
        py->found = true;
        gp_copy(py->path, sizeof py->path, interp);
        if (!gp_sysroot_resolve(&c->sr, interp, py->real, sizeof py->real))
            gp_copy(py->real, sizeof py->real, interp);
        return;
    }
}

static void read_arch(const gp_probe_ctx *c, gp_doctor_python *py)
{
    char err[GP_DOCTOR_TEXT];
    size_t len = 0;
    char *t = gp_sysroot_read(&c->sr, py->real, 4096, &len, err, sizeof err);
    if (!t) return;
    if (!gp_parse_exec_arch((const unsigned char *)t, len, py->arch, sizeof py->arch,
                            &py->has_arm64, &py->has_x86_64))
        gp_copy(py->arch, sizeof py->arch, "unknown");
    free(t);
}

/* The sites of the interpreter at machine path `path` (resolved to `real`). */
static void python_sites(const gp_probe_ctx *c, const gp_doctor_python *py, site_list *sl)
{
    char dir[GP_DOCTOR_PATH], cfg[GP_DOCTOR_PATH + 16], err[GP_DOCTOR_TEXT];
    /* A virtualenv: bin/python3 -> base interpreter; pyvenv.cfg sits one level above bin/. */
    gp_copy(dir, sizeof dir, py->path);
    gp_path_dirname(dir);
    gp_path_dirname(dir);
    snprintf(cfg, sizeof cfg, "%s/pyvenv.cfg", dir);
    size_t len;
    char *t = gp_sysroot_read(&c->sr, cfg, 64 * 1024, &len, err, sizeof err);
    bool system_site = true;
    if (t) {
        char home[GP_DOCTOR_PATH];
        gp_parse_pyvenv_cfg(t, len, home, sizeof home, &system_site);
        free(t);
        site_add_prefix(c, sl, dir, NULL, "python3 on PATH (virtualenv)");
    }
    if (!system_site) return;
    const char *base = strrchr(py->real, '/');
    char xy[16] = "";
    if (base && strncmp(base + 1, "python3.", 8) == 0 && strlen(base + 7) < sizeof xy)
        gp_copy(xy, sizeof xy, base + 7); /* "3.11" */
    char prefix[GP_DOCTOR_PATH];
    gp_copy(prefix, sizeof prefix, py->real);
    gp_path_dirname(prefix);
    gp_path_dirname(prefix);
    site_add_prefix(c, sl, prefix, xy, "python3 on PATH");
    if (strcmp(prefix, "/usr") == 0) { /* Debian and Ubuntu */
        site_add(c, sl, "/usr/lib/python3/dist-packages", "python3 on PATH");
        site_add_prefix(c, sl, "/usr/local", xy, "python3 on PATH");
    }
    const char *home = getenv("HOME");
    if (home && *home && xy[0]) {
        char p[GP_DOCTOR_PATH + 64];
        snprintf(p, sizeof p, "%s/.local/lib/python%s/site-packages", home, xy);
        site_add(c, sl, p, "python3 on PATH (user site)");
        snprintf(p, sizeof p, "%s/Library/Python/%s/lib/python/site-packages", home, xy);
        site_add(c, sl, p, "python3 on PATH (user site)");
    }
}

/* "2.5.1+cu124" -> "12.4" into out; false without a +cuXYZ tag. */
static bool cuda_from_local_tag(const char *version, char *out, size_t n)
{
    const char *p = strstr(version, "+cu");
    if (!p || strlen(p + 3) < 3) return false;
    int v = atoi(p + 3);
    if (v < 100) return false;
    snprintf(out, n, "%d.%d", v / 10, v % 10);
    return true;
}

/* No torch/version.py: the wheel's METADATA gives the version, the +cuXYZ tag or the
 * nvidia-cuda-runtime requirement the CUDA, and RECORD whether torch's CUDA library is there. */
static void read_dist_info(const gp_probe_ctx *c, gp_doctor_torch *t, const char *dist)
{
    char p[2 * GP_DOCTOR_PATH], err[GP_DOCTOR_TEXT], cuda[32] = "";
    size_t len;
    snprintf(p, sizeof p, "%s/METADATA", dist);
    char *s = gp_sysroot_read(&c->sr, p, 256 * 1024, &len, err, sizeof err);
    if (!s) return;
    t->parsed = gp_parse_wheel_metadata(s, len, t->version, sizeof t->version, cuda, sizeof cuda);
    free(s);
    if (!t->parsed) {
        gp_copy(t->reason, sizeof t->reason, "no torch/version.py and no Version: in METADATA");
        return;
    }
    t->reason[0] = '\0';
    gp_copy(t->version_from, sizeof t->version_from, "METADATA");
    if (!cuda[0]) cuda_from_local_tag(t->version, cuda, sizeof cuda);
    snprintf(p, sizeof p, "%s/RECORD", dist);
    bool lib = false;
    if ((s = gp_sysroot_read(&c->sr, p, 8 * 1024 * 1024, &len, err, sizeof err))) {
        lib = gp_parse_record_has_cuda(s, len);
        free(s);
    }
    t->cuda_build = cuda[0] && (lib || !strstr(t->version, "+cpu"));
    if (t->cuda_build) gp_copy(t->cuda, sizeof t->cuda, cuda);
}

void gp_probe_torch_site(const gp_probe_ctx *c, gp_doctor_python *py, const char *site,
                         const char *from)
{
    char p[2 * GP_DOCTOR_PATH], err[GP_DOCTOR_TEXT], dist[GP_DOCTOR_PATH + 256] = "";
    if (py->torch_count >= GP_DOCTOR_MAX_TORCH) return;
    snprintf(p, sizeof p, "%s/torch", site);
    bool pkg = gp_sysroot_is_dir(&c->sr, p);
    DIR *d = gp_sysroot_opendir(&c->sr, site);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t l = strlen(e->d_name);
            if (strncmp(e->d_name, "torch-", 6) != 0 || l < 16 || l > 200 ||
                strcmp(e->d_name + l - 10, ".dist-info") != 0)
                continue;
            snprintf(dist, sizeof dist, "%s/%s", site, e->d_name);
            break;
        }
        closedir(d);
    }
    if (!pkg && !dist[0]) return;
    gp_doctor_torch *t = &py->torch[py->torch_count++];
    gp_copy(t->site, sizeof t->site, site);
    gp_copy(t->from, sizeof t->from, from);
    snprintf(p, sizeof p, "%s/torch/version.py", site);
    size_t len;
    char *s = gp_sysroot_read(&c->sr, p, 64 * 1024, &len, err, sizeof err);
    if (!s) {
        gp_copy(t->reason, sizeof t->reason, err);
        if (dist[0] && !gp_sysroot_exists(&c->sr, p)) read_dist_info(c, t, dist);
    } else {
        t->parsed = gp_parse_torch_version(s, len, t);
        if (t->parsed) gp_copy(t->version_from, sizeof t->version_from, "torch/version.py");
        free(s);
    }
    if (!dist[0]) return;
    snprintf(p, sizeof p, "%s/WHEEL", dist);
    if ((s = gp_sysroot_read(&c->sr, p, 64 * 1024, &len, err, sizeof err))) {
        gp_parse_wheel_platform(s, len, t->wheel_platform, sizeof t->wheel_platform);
        free(s);
    }
}

/* The site-packages of the usual prefixes, whichever Python owns them: a machine tree's PyTorch
 * is found even where its python3 cannot be found or run (nothing from the tree is run). */
static void machine_sites(const gp_probe_ctx *c, const gp_doctor_python *py, site_list *sl)
{
    const char *from = py->found ? "site-packages of another Python" : "site-packages (no python3)";
    static const char *const prefixes[] = {"/usr/local", "/usr", "/opt/conda"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        site_add_prefix(c, sl, prefixes[i], NULL, from);
    site_add(c, sl, "/usr/lib/python3/dist-packages", from);
    site_add_libdir(c, sl, "/usr/lib64", NULL, from); /* Fedora, RHEL, SUSE */
    site_add_libdir(c, sl, "/usr/local/lib64", NULL, from);
    if (c->sr.host) return;
    site_add_prefix(c, sl, "/root/.local", NULL, from);
    DIR *d = gp_sysroot_opendir(&c->sr, "/home");
    struct dirent *e;
    for (int n = 0; d && (e = readdir(d)) && n < 64; n++) {
        if (e->d_name[0] == '.' || strlen(e->d_name) > 64) continue;
        char p[GP_DOCTOR_PATH];
        snprintf(p, sizeof p, "/home/%s/.local", e->d_name);
        site_add_prefix(c, sl, p, NULL, from);
    }
    if (d) closedir(d);
}

void gp_probe_python(const gp_probe_ctx *c, gp_doctor_facts *f)
{
    gp_doctor_python *py = &f->py;
    const char *fb = getenv("PYTORCH_ENABLE_MPS_FALLBACK");
    if (fb) {
        py->mps_fallback_set = true;
        gp_copy(py->mps_fallback, sizeof py->mps_fallback, fb);
    }
    site_list *sl = calloc(1, sizeof *sl);
    if (!sl) return;
    const char *venv = getenv("VIRTUAL_ENV"), *conda = getenv("CONDA_PREFIX");
    if (venv && *venv) site_add_prefix(c, sl, venv, NULL, "VIRTUAL_ENV");
    if (conda && *conda) site_add_prefix(c, sl, conda, NULL, "CONDA_PREFIX");
    find_python(c, py);
    if (py->found) {
        read_arch(c, py);
        python_sites(c, py, sl);
    }
    for (int i = 0; i < sl->n; i++)
        gp_probe_torch_site(c, py, sl->dir[i], sl->from[i]);
    if (py->torch_count == 0) { /* none where python3 looks: any other site-packages here */
        int seen = sl->n;
        machine_sites(c, py, sl);
        for (int i = seen; i < sl->n; i++)
            gp_probe_torch_site(c, py, sl->dir[i], sl->from[i]);
    }
    gp_copy(py->unreadable, sizeof py->unreadable, sl->unreadable);
    free(sl);
}
