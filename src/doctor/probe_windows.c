/* probe_windows.c — a Windows machine as doctor reads it: the live one (the tools run, NVML
 * loaded from nvml.dll, the registry through `reg export`), or a tree of one on any host. A tree
 * is a copy of the system drive (C:\ is its root, so it holds Windows/System32) with what the
 * tools printed in captured/: environment.txt (`set`), nvidia-smi-q.txt (`nvidia-smi -q`),
 * nvcc-version.txt (`nvcc --version`), vswhere.txt, wsl-l-v.txt (`wsl.exe -l -v`) and registry
 * exports (*.reg). Nothing from a tree is ever run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "doctor/gpu_identity.h"
#include "doctor/parse.h"
#include "doctor/parse_windows.h"
#include "doctor/probe.h"
#include "doctor/regfile.h"
#include "util/spawn.h"

#define GP_WIN_CAPTURE_CAP   (4u * 1024 * 1024)
#define GP_WIN_DISPLAY_CLASS "\\control\\class\\{4d36e968-e325-11ce-bfc1-08002be10318}\\"
#define GP_WIN_NT_VERSION    "hkey_local_machine\\software\\microsoft\\windows nt\\currentversion"

/* strcasestr, which the Windows C runtime lacks */
static bool ci_has(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0) return true;
    return false;
}

typedef struct win_probe {
    const gp_probe_ctx *c;
    gp_doctor_facts *f;
    char *env; /* a tree's captured/environment.txt; NULL on the live machine */
    size_t env_len;
} win_probe;

bool gp_probe_is_windows(const gp_probe_ctx *c)
{
#if defined(_WIN32)
    if (c->sr.host) return true;
#endif
    return !c->sr.host && gp_sysroot_is_dir(&c->sr, "/Windows/System32");
}

static bool win_getenv(const win_probe *w, const char *name, char *out, size_t n)
{
    out[0] = '\0';
    if (!w->c->sr.host) return w->env && gp_parse_env_get(w->env, w->env_len, name, out, n);
    const char *v = getenv(name);
    if (!v || !*v) return false;
    gp_copy(out, n, v);
    return true;
}

/* A Windows path ("C:\Program Files\x") as the path to read: itself on the live machine, in a
 * tree the same path below its root ("/Program Files/x"). */
static void win_path(const win_probe *w, const char *wp, char *out, size_t n)
{
    if (w->c->sr.host) {
        gp_copy(out, n, wp);
        return;
    }
    if (((wp[0] | 0x20) >= 'a' && (wp[0] | 0x20) <= 'z') && wp[1] == ':') wp += 2;
    size_t k = 0;
    if (*wp != '\\' && *wp != '/' && k + 1 < n) out[k++] = '/';
    for (; *wp && k + 1 < n; wp++)
        out[k++] = *wp == '\\' ? '/' : *wp;
    while (k > 1 && out[k - 1] == '/')
        k--;
    out[k] = '\0';
}

static bool win_is_file(const win_probe *w, const char *wp)
{
    char p[GP_DOCTOR_PATH];
    win_path(w, wp, p, sizeof p);
    return gp_sysroot_is_file(&w->c->sr, p);
}

/* What a tool printed: in a tree the captured file, on the live machine the tool run (argv).
 * NULL with the reason in why. */
static char *captured(win_probe *w, const char *file, char *const argv[], size_t *len, char *why,
                      size_t wn)
{
    if (!w->c->sr.host) {
        char p[128];
        snprintf(p, sizeof p, "/captured/%s", file);
        if (!gp_sysroot_exists(&w->c->sr, p)) {
            snprintf(why, wn, "not run (the tree has no captured/%s)", file);
            return NULL;
        }
        return gp_sysroot_read(&w->c->sr, p, GP_WIN_CAPTURE_CAP, len, why, wn);
    }
    gp_spawn_result r;
    w->f->subprocesses++;
    if (gp_spawn_capture(argv, NULL, 20.0, GP_WIN_CAPTURE_CAP, &r, why, wn) != 0) return NULL;
    free(r.err);
    *len = r.out_len;
    return r.out;
}

/* Output as UTF-8 (wsl.exe, regedit and some consoles write UTF-16LE). */
static char *as_utf8(char *s, size_t *len)
{
    if (!s || !gp_looks_utf16le((const unsigned char *)s, *len)) return s;
    char *u = gp_utf16le_to_utf8((const unsigned char *)s, *len, len);
    free(s);
    return u;
}

/* --- the registry ------------------------------------------------------------------------- */

typedef struct reg_adapter {
    char key[160];
    char provider[64], desc[96], version[32], device[96];
} reg_adapter;

typedef struct reg_state {
    char product[96], display[32], build[16];
    int n;
    reg_adapter a[GP_DOCTOR_MAX_GPUS];
} reg_state;

static bool ends_with_4digits(const char *s)
{
    size_t n = strlen(s);
    if (n < 5 || s[n - 5] != '\\') return false;
    for (size_t i = n - 4; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

static bool on_reg_value(void *ud, const char *key, const char *name, gp_reg_type type,
                         const char *text)
{
    reg_state *st = ud;
    (void)type;
    char lk[GP_DOCTOR_PATH];
    size_t i = 0;
    for (; key[i] && i + 1 < sizeof lk; i++)
        lk[i] = (char)(key[i] >= 'A' && key[i] <= 'Z' ? key[i] + 32 : key[i]);
    lk[i] = '\0';
    if (strcmp(lk, GP_WIN_NT_VERSION) == 0) {
        if (strcasecmp(name, "ProductName") == 0) gp_copy(st->product, sizeof st->product, text);
        if (strcasecmp(name, "DisplayVersion") == 0) gp_copy(st->display, sizeof st->display, text);
        if (strcasecmp(name, "CurrentBuild") == 0) gp_copy(st->build, sizeof st->build, text);
        return true;
    }
    const char *cls = strstr(lk, GP_WIN_DISPLAY_CLASS);
    if (!cls || !ends_with_4digits(cls + strlen(GP_WIN_DISPLAY_CLASS) - 1)) return true;
    reg_adapter *a = NULL;
    for (int k = 0; k < st->n; k++)
        if (strcmp(st->a[k].key, lk) == 0) a = &st->a[k];
    if (!a) {
        if (st->n >= GP_DOCTOR_MAX_GPUS) return true;
        a = &st->a[st->n++];
        memset(a, 0, sizeof *a);
        gp_copy(a->key, sizeof a->key, lk);
    }
    if (strcasecmp(name, "ProviderName") == 0) gp_copy(a->provider, sizeof a->provider, text);
    if (strcasecmp(name, "DriverDesc") == 0) gp_copy(a->desc, sizeof a->desc, text);
    if (strcasecmp(name, "DriverVersion") == 0) gp_copy(a->version, sizeof a->version, text);
    if (strcasecmp(name, "MatchingDeviceId") == 0) gp_copy(a->device, sizeof a->device, text);
    return true;
}

static void reg_read(win_probe *w, reg_state *st, const char *what, char *s, size_t len)
{
    char err[GP_DOCTOR_TEXT];
    if (!gp_reg_parse(s, len, on_reg_value, st, err, sizeof err) && !w->f->win.reg_reason[0])
        snprintf(w->f->win.reg_reason, sizeof w->f->win.reg_reason, "%.100s: %.140s", what, err);
}

/* A tree: every .reg file in captured/. The live machine: `reg export` of the two keys doctor
 * reads. */
static void reg_collect(win_probe *w, reg_state *st)
{
    if (!w->c->sr.host) {
        DIR *d = gp_sysroot_opendir(&w->c->sr, "/captured");
        struct dirent *e;
        for (int n = 0; d && (e = readdir(d)) && n < 64; n++) {
            size_t l = strlen(e->d_name);
            if (l < 5 || l > 96 || strcasecmp(e->d_name + l - 4, ".reg") != 0) continue;
            char p[128], why[GP_DOCTOR_TEXT];
            snprintf(p, sizeof p, "/captured/%.100s", e->d_name);
            size_t len;
            char *s = gp_sysroot_read(&w->c->sr, p, GP_REG_MAX_INPUT, &len, why, sizeof why);
            if (s) reg_read(w, st, p + 1, s, len);
            free(s);
        }
        if (d) closedir(d);
        return;
    }
    static const char *const keys[] = {
        "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion",
        "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}"};
    char tmp[GP_DOCTOR_PATH];
    if (!win_getenv(w, "TEMP", tmp, sizeof tmp)) return;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char file[GP_DOCTOR_PATH + 32], why[GP_DOCTOR_TEXT];
        snprintf(file, sizeof file, "%s\\gpuport-doctor-%u.reg", tmp, (unsigned)i);
        char *argv[] = {"reg", "export", (char *)keys[i], file, "/y", NULL};
        size_t len;
        char *out = captured(w, "", argv, &len, why, sizeof why);
        char *s =
            out ? gp_sysroot_read(&w->c->sr, file, GP_REG_MAX_INPUT, &len, why, sizeof why) : NULL;
        free(out);
        if (s)
            reg_read(w, st, keys[i], s, len);
        else if (!w->f->win.reg_reason[0])
            snprintf(w->f->win.reg_reason, sizeof w->f->win.reg_reason, "reg export %.80s: %.150s",
                     keys[i], why);
        free(s);
        remove(file);
    }
}

static void probe_registry(win_probe *w, reg_state *st)
{
    reg_collect(w, st);
    gp_doctor_win *win = &w->f->win;
    gp_doctor_os *os = &w->f->os;
    gp_copy(os->id, sizeof os->id, "windows");
    if (st->product[0]) {
        char product[96];
        gp_copy(product, sizeof product, st->product);
        /* Windows 11 still names itself "Windows 10" in ProductName; its builds start at 22000 */
        if (atoi(st->build) >= 22000 && strncmp(product, "Windows 10", 10) == 0) product[9] = '1';
        snprintf(win->version, sizeof win->version, "%s%s%s%s%s%s", product,
                 st->display[0] ? " " : "", st->display, st->build[0] ? " (build " : "", st->build,
                 st->build[0] ? ")" : "");
        os->release_read = true;
    } else {
        gp_copy(win->version, sizeof win->version, "Windows");
        gp_copy(os->release_reason, sizeof os->release_reason,
                "no ProductName under HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion");
    }
    gp_copy(os->pretty, sizeof os->pretty, win->version);
    if (st->build[0]) snprintf(os->kernel, sizeof os->kernel, "NT build %s", st->build);
    for (int i = 0; i < st->n; i++) {
        reg_adapter *a = &st->a[i];
        if (!ci_has(a->provider, "NVIDIA") && !ci_has(a->device, "ven_10de")) continue;
        if (win->reg_adapters++ == 0) {
            gp_copy(win->reg_adapter, sizeof win->reg_adapter, a->desc);
            gp_copy(win->driver_file_version, sizeof win->driver_file_version, a->version);
        }
    }
}

/* The GPUs of the registry's NVIDIA display adapters (for when neither nvidia-smi nor NVML
 * answers): the name from DriverDesc, the compute capability from the PCI id. */
static void gpus_from_registry(gp_doctor_win *win, const reg_state *st)
{
    win->gpu_count = 0;
    for (int i = 0; i < st->n && win->gpu_count < GP_DOCTOR_MAX_GPUS; i++) {
        const reg_adapter *a = &st->a[i];
        if (!ci_has(a->provider, "NVIDIA") && !ci_has(a->device, "ven_10de")) continue;
        gp_doctor_gpu *g = &win->gpus[win->gpu_count++];
        memset(g, 0, sizeof *g);
        gp_copy(g->name, sizeof g->name, a->desc);
        const char *dev = NULL;
        for (const char *p = a->device; *p && !dev; p++)
            if (strncasecmp(p, "dev_", 4) == 0) dev = p + 4;
        int cc = dev ? gp_gpu_cc_for_pci((unsigned)strtoul(dev, NULL, 16), NULL, g->cc_from,
                                         sizeof g->cc_from)
                     : 0;
        if (!cc && g->name[0]) cc = gp_gpu_cc_for_name(g->name, g->cc_from, sizeof g->cc_from);
        g->cc_major = cc / 10;
        g->cc_minor = cc % 10;
    }
    win->gpu_total = win->gpu_count;
}

/* The first line of a tool's output, for the report ("NVIDIA-SMI has failed because ..."). */
static void first_line(const char *s, size_t len, char *out, size_t n)
{
    while (len > 0 && (*s == '\r' || *s == '\n' || *s == ' '))
        s++, len--;
    size_t k = 0;
    while (k < len && s[k] != '\r' && s[k] != '\n')
        k++;
    snprintf(out, n, "%.*s", (int)(k < 200 ? k : 200), s);
}

/* The driver and the GPUs: nvidia-smi -q, else NVML (the live machine only), else the registry. */
static void probe_driver(win_probe *w, const reg_state *st)
{
    gp_doctor_win *win = &w->f->win;
    char why[GP_DOCTOR_TEXT] = "", smi[GP_DOCTOR_PATH] = "nvidia-smi", pf[GP_DOCTOR_PATH];
    size_t len = 0;
    /* the older standard (non-DCH) driver packages put it in Program Files, not System32 */
    char old_smi[GP_DOCTOR_PATH + 48];
    if (w->c->sr.host && win_getenv(w, "ProgramFiles", pf, sizeof pf)) {
        snprintf(old_smi, sizeof old_smi, "%s\\NVIDIA Corporation\\NVSMI\\nvidia-smi.exe", pf);
        if (win_is_file(w, old_smi)) gp_copy(smi, sizeof smi, old_smi);
    }
    char *argv[] = {smi, "-q", NULL};
    char *s = as_utf8(captured(w, "nvidia-smi-q.txt", argv, &len, why, sizeof why), &len);
    if (s && gp_parse_smi_query(s, len, win)) {
        gp_copy(win->driver_from, sizeof win->driver_from, "nvidia-smi -q");
        free(s);
        return;
    }
    if (s) {
        char line[GP_DOCTOR_TEXT - 40];
        first_line(s, len, line, sizeof line);
        snprintf(win->smi_reason, sizeof win->smi_reason, "nvidia-smi -q printed no driver: %s",
                 line[0] ? line : "(nothing)");
        free(s);
    } else {
        snprintf(win->smi_reason, sizeof win->smi_reason, "nvidia-smi -q: %.230s", why);
    }
    win->gpu_count = win->gpu_total = 0;
    win->driver[0] = '\0';
    win->cuda = 0;
    gp_doctor_nvidia *nv = &w->f->nv;
    if (w->c->sr.host) {
        gp_probe_nvml(w->c, nv, "nvml.dll");
        if (nv->nvml_driver[0]) {
            gp_copy(win->driver, sizeof win->driver, nv->nvml_driver);
            gp_copy(win->driver_from, sizeof win->driver_from, "NVML (nvml.dll)");
            win->cuda = nv->nvml_cuda;
            win->gpu_count = nv->nvml_gpu_count;
            win->gpu_total = nv->nvml_gpu_total;
            memcpy(win->gpus, nv->nvml_gpus, sizeof win->gpus);
            return;
        }
    }
    if (win->driver_file_version[0] &&
        gp_win_driver_version(win->driver_file_version, win->driver, sizeof win->driver)) {
        gp_copy(win->driver_from, sizeof win->driver_from, "registry (display adapter)");
        gpus_from_registry(win, st);
    }
}

/* --- the toolkit, Visual Studio, PyTorch, WSL ---------------------------------------------- */

static bool dir_has(const win_probe *w, const char *wdir, const char *prefix, const char *suffix)
{
    char p[GP_DOCTOR_PATH];
    win_path(w, wdir, p, sizeof p);
    DIR *d = gp_sysroot_opendir(&w->c->sr, p);
    if (!d) return false;
    struct dirent *e;
    bool found = false;
    size_t pl = strlen(prefix), sl = strlen(suffix);
    while (!found && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        found = l >= pl + sl && strncasecmp(e->d_name, prefix, pl) == 0 &&
                strcasecmp(e->d_name + l - sl, suffix) == 0;
    }
    closedir(d);
    return found;
}

static void add_toolkit(win_probe *w, const char *wdir, const char *by)
{
    gp_doctor_cuda_env *ce = &w->f->cuda;
    char dir[GP_DOCTOR_PATH];
    gp_copy(dir, sizeof dir, wdir);
    size_t l = strlen(dir);
    while (l > 3 && (dir[l - 1] == '\\' || dir[l - 1] == '/'))
        dir[--l] = '\0';
    for (int i = 0; i < ce->toolkit_count; i++)
        if (strcasecmp(ce->toolkits[i].path, dir) == 0) return;
    if (ce->toolkit_count >= GP_DOCTOR_MAX_TOOLKITS) return;
    char p[GP_DOCTOR_PATH + 32];
    snprintf(p, sizeof p, "%s\\bin\\nvcc.exe", dir);
    bool nvcc = win_is_file(w, p);
    snprintf(p, sizeof p, "%s\\version.json", dir);
    bool vjson = win_is_file(w, p);
    if (!nvcc && !vjson) return;
    gp_doctor_toolkit *t = &ce->toolkits[ce->toolkit_count++];
    gp_copy(t->path, sizeof t->path, dir);
    gp_copy(t->found_by, sizeof t->found_by, by);
    t->has_nvcc = nvcc;
    snprintf(p, sizeof p, "%s\\bin", dir);
    t->has_nvrtc = dir_has(w, p, "nvrtc64_", ".dll");
    char rp[GP_DOCTOR_PATH], why[GP_DOCTOR_TEXT];
    size_t len;
    char *s = NULL;
    if (vjson) {
        snprintf(p, sizeof p, "%s\\version.json", dir);
        win_path(w, p, rp, sizeof rp);
        s = gp_sysroot_read(&w->c->sr, rp, 256 * 1024, &len, why, sizeof why);
        if (s)
            t->version_read = gp_parse_cuda_version_json(s, len, &t->version, t->version_reason,
                                                         sizeof t->version_reason);
        free(s);
        if (t->version_read) {
            gp_copy(t->version_from, sizeof t->version_from, "version.json");
            return;
        }
    }
    /* a tree captures the nvcc --version of the toolkit builds use (the first) */
    if (!nvcc || (!w->c->sr.host && ce->toolkit_count > 1)) {
        if (!t->version_reason[0])
            gp_copy(t->version_reason, sizeof t->version_reason, "no version.json");
        return;
    }
    snprintf(p, sizeof p, "%s\\bin\\nvcc.exe", dir);
    char *argv[] = {p, "--version", NULL};
    s = captured(w, "nvcc-version.txt", argv, &len, why, sizeof why);
    if (s && gp_parse_nvcc_version(s, len, &t->version)) {
        t->version_read = true;
        gp_copy(t->version_from, sizeof t->version_from, "nvcc --version");
    } else if (!t->version_reason[0]) {
        snprintf(t->version_reason, sizeof t->version_reason,
                 "no version.json, and nvcc --version %.200s", s ? "printed no release line" : why);
    }
    free(s);
}

static void probe_toolkits(win_probe *w)
{
    char v[GP_DOCTOR_PATH], name[32];
    if (win_getenv(w, "CUDA_PATH", v, sizeof v)) {
        gp_copy(w->f->cuda.cuda_home, sizeof w->f->cuda.cuda_home, v);
        gp_copy(w->f->cuda.cuda_home_by, sizeof w->f->cuda.cuda_home_by, "CUDA_PATH");
        add_toolkit(w, v, "CUDA_PATH");
    }
    for (int major = 13; major >= 9; major--)
        for (int minor = 9; minor >= 0; minor--) {
            snprintf(name, sizeof name, "CUDA_PATH_V%d_%d", major, minor);
            if (win_getenv(w, name, v, sizeof v)) add_toolkit(w, v, "CUDA_PATH_Vx_y");
        }
    /* installed but named by no variable */
    char pf[GP_DOCTOR_PATH] = "C:\\Program Files", base[GP_DOCTOR_PATH + 48], p[GP_DOCTOR_PATH];
    win_getenv(w, "ProgramFiles", pf, sizeof pf);
    if (!pf[0]) gp_copy(pf, sizeof pf, "C:\\Program Files");
    snprintf(base, sizeof base, "%s\\NVIDIA GPU Computing Toolkit\\CUDA", pf);
    win_path(w, base, p, sizeof p);
    DIR *d = gp_sysroot_opendir(&w->c->sr, p);
    struct dirent *e;
    for (int n = 0; d && (e = readdir(d)) && n < 64; n++) {
        if ((e->d_name[0] | 0x20) != 'v' || strlen(e->d_name) > 16) continue;
        char dir[2 * GP_DOCTOR_PATH];
        snprintf(dir, sizeof dir, "%s\\%s", base, e->d_name);
        add_toolkit(w, dir, "Program Files");
    }
    if (d) closedir(d);
}

/* Each folder of the ;-separated PATH that holds `exe`: the first's Windows path into out. */
static bool on_path(const win_probe *w, const char *path, const char *exe, char *out, size_t n)
{
    const char *s = path;
    while (*s) {
        size_t l = strcspn(s, ";"), k = l;
        while (k > 3 && (s[k - 1] == '\\' || s[k - 1] == '/'))
            k--; /* "C:\Python311\" */
        if (k > 0 && k < GP_DOCTOR_PATH) {
            char cand[GP_DOCTOR_PATH + 32];
            snprintf(cand, sizeof cand, "%.*s\\%s", (int)k, s, exe);
            /* the Microsoft Store's python.exe is an installer alias, not a Python */
            bool alias = k >= 11 && strncasecmp(s + k - 11, "WindowsApps", 11) == 0;
            if (!alias && win_is_file(w, cand)) {
                gp_copy(out, n, cand);
                return true;
            }
        }
        s += l;
        if (*s == ';') s++;
    }
    return false;
}

static void probe_msvc(win_probe *w, const char *path)
{
    gp_doctor_win *win = &w->f->win;
    on_path(w, path, "cl.exe", win->cl_path, sizeof win->cl_path);
    char pf86[GP_DOCTOR_PATH] = "", vswhere[GP_DOCTOR_PATH + 64], why[GP_DOCTOR_TEXT];
    if (!win_getenv(w, "ProgramFiles(x86)", pf86, sizeof pf86))
        gp_copy(pf86, sizeof pf86, "C:\\Program Files (x86)");
    snprintf(vswhere, sizeof vswhere, "%s\\Microsoft Visual Studio\\Installer\\vswhere.exe", pf86);
    if (w->c->sr.host && !win_is_file(w, vswhere)) return;
    char *argv[] = {vswhere, "-latest", "-products", "*", NULL};
    size_t len;
    char *s = captured(w, "vswhere.txt", argv, &len, why, sizeof why);
    if (s && gp_parse_vswhere(s, len, win)) {
        char tools[GP_DOCTOR_PATH + 32], p[GP_DOCTOR_PATH];
        snprintf(tools, sizeof tools, "%s\\VC\\Tools\\MSVC", win->vs_path);
        win_path(w, tools, p, sizeof p);
        DIR *d = gp_sysroot_opendir(&w->c->sr, p);
        struct dirent *e;
        for (int n = 0; d && !win->vs_has_cl && (e = readdir(d)) && n < 64; n++) {
            if (e->d_name[0] == '.') continue;
            char cl[2 * GP_DOCTOR_PATH];
            snprintf(cl, sizeof cl, "%s\\%.64s\\bin\\Hostx64\\x64\\cl.exe", tools, e->d_name);
            win->vs_has_cl = win_is_file(w, cl);
        }
        if (d) closedir(d);
    }
    free(s);
}

static void torch_in(win_probe *w, const char *wsite, const char *from)
{
    char p[GP_DOCTOR_PATH];
    win_path(w, wsite, p, sizeof p);
    int before = w->f->py.torch_count;
    gp_probe_torch_site(w->c, &w->f->py, p, from);
    if (w->f->py.torch_count > before)
        gp_copy(w->f->py.torch[before].site, sizeof w->f->py.torch[before].site, wsite);
}

static void probe_python(win_probe *w, const char *path)
{
    gp_doctor_python *py = &w->f->py;
    char v[GP_DOCTOR_PATH], site[GP_DOCTOR_PATH + 32];
    if (win_getenv(w, "VIRTUAL_ENV", v, sizeof v)) {
        snprintf(site, sizeof site, "%s\\Lib\\site-packages", v);
        torch_in(w, site, "VIRTUAL_ENV");
    }
    if (win_getenv(w, "CONDA_PREFIX", v, sizeof v)) {
        snprintf(site, sizeof site, "%s\\Lib\\site-packages", v);
        torch_in(w, site, "CONDA_PREFIX");
    }
    if (on_path(w, path, "python.exe", py->path, sizeof py->path)) {
        py->found = true;
        gp_copy(py->real, sizeof py->real, py->path);
        gp_copy(v, sizeof v, py->path);
        char *slash = strrchr(v, '\\');
        if (slash) *slash = '\0';
        snprintf(site, sizeof site, "%s\\Lib\\site-packages", v);
        torch_in(w, site, "python.exe on PATH");
    }
    /* pip install --user: %APPDATA%\Python\Python3NN\site-packages */
    char appdata[GP_DOCTOR_PATH], base[GP_DOCTOR_PATH + 16], p[GP_DOCTOR_PATH];
    if (py->torch_count == 0 && win_getenv(w, "APPDATA", appdata, sizeof appdata)) {
        snprintf(base, sizeof base, "%s\\Python", appdata);
        win_path(w, base, p, sizeof p);
        DIR *d = gp_sysroot_opendir(&w->c->sr, p);
        struct dirent *e;
        for (int n = 0; d && (e = readdir(d)) && n < 32; n++) {
            if (strncasecmp(e->d_name, "Python3", 7) != 0 || strlen(e->d_name) > 16) continue;
            char s2[2 * GP_DOCTOR_PATH];
            snprintf(s2, sizeof s2, "%s\\%s\\site-packages", base, e->d_name);
            torch_in(w, s2, "pip --user site-packages");
        }
        if (d) closedir(d);
    }
}

static void probe_wsl(win_probe *w)
{
    gp_doctor_win *win = &w->f->win;
    char sysroot[GP_DOCTOR_PATH] = "", exe[GP_DOCTOR_PATH + 32], why[GP_DOCTOR_TEXT];
    if (!win_getenv(w, "SystemRoot", sysroot, sizeof sysroot))
        gp_copy(sysroot, sizeof sysroot, "C:\\Windows");
    snprintf(exe, sizeof exe, "%s\\System32\\wsl.exe", sysroot);
    if (w->c->sr.host && !win_is_file(w, exe)) return;
    char *argv[] = {exe, "-l", "-v", NULL};
    size_t len;
    char *s = as_utf8(captured(w, "wsl-l-v.txt", argv, &len, why, sizeof why), &len);
    if (s) gp_parse_wsl_list(s, len, win);
    free(s);
}

static void probe_cpu(win_probe *w)
{
    gp_doctor_cpu *cpu = &w->f->cpu;
    char v[GP_DOCTOR_TEXT];
    if (win_getenv(w, "NUMBER_OF_PROCESSORS", v, sizeof v)) cpu->logical = atoi(v);
    if (win_getenv(w, "PROCESSOR_IDENTIFIER", v, sizeof v))
        gp_copy(cpu->model, sizeof cpu->model, v);
    if (win_getenv(w, "PROCESSOR_ARCHITECTURE", v, sizeof v)) {
        gp_copy(cpu->arch, sizeof cpu->arch,
                strcasecmp(v, "AMD64") == 0   ? "x86_64"
                : strcasecmp(v, "ARM64") == 0 ? "aarch64"
                                              : v);
        gp_copy(cpu->arch_from, sizeof cpu->arch_from, "PROCESSOR_ARCHITECTURE");
    }
}

void gp_probe_windows(const gp_probe_ctx *c, gp_doctor_facts *f)
{
    f->platform = GP_DOCTOR_WINDOWS;
    win_probe w = {c, f, NULL, 0};
    char why[GP_DOCTOR_TEXT];
    if (!c->sr.host)
        w.env = as_utf8(gp_sysroot_read(&c->sr, "/captured/environment.txt", GP_WIN_CAPTURE_CAP,
                                        &w.env_len, why, sizeof why),
                        &w.env_len);
    reg_state *st = calloc(1, sizeof *st);
    if (st) {
        probe_registry(&w, st);
        probe_driver(&w, st);
        free(st);
    }
    probe_cpu(&w);
    char *path = malloc(32768);
    if (path) {
        win_getenv(&w, "PATH", path, 32768);
        probe_toolkits(&w);
        probe_msvc(&w, path);
        probe_python(&w, path);
        free(path);
    }
    probe_wsl(&w);
    char v[GP_DOCTOR_TEXT];
    if (win_getenv(&w, "CUDA_VISIBLE_DEVICES", v, sizeof v)) {
        f->nv.visible_set = true;
        gp_copy(f->nv.visible, sizeof f->nv.visible, v);
    }
    free(w.env);
}
