/* report.c — how archcheck speaks: the cuobjdump-compatible listing (--list), the human
 * report (every container and entry, then a verdict per compute capability and the fix), and
 * the JSON document (schema gpuport.archcheck/1). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archcheck/archcheck.h"
#include "util/term.h"

const char *gp_ac_cc_name(gp_cc cc, char *buf, size_t len)
{
    snprintf(buf, len, "%d.%d", GP_CC_MAJOR(cc), GP_CC_MINOR(cc));
    return buf;
}

const char *gp_ac_cc_sm(gp_cc cc, char *buf, size_t len)
{
    snprintf(buf, len, "sm_%d%d", GP_CC_MAJOR(cc), GP_CC_MINOR(cc));
    return buf;
}

const char *gp_ac_entry_arch_name(const gp_ac_entry *e, char *buf, size_t len)
{
    const char *prefix = e->kind == GP_AC_SASS    ? "sm_"
                         : e->kind == GP_AC_PTX   ? "compute_"
                         : e->kind == GP_AC_LTOIR ? "lto_"
                                                  : "arch_";
    snprintf(buf, len, "%s%" PRIu32 "%s", prefix, e->arch,
             e->variant == 'a'   ? "a"
             : e->variant == 'f' ? "f"
                                 : "");
    return buf;
}

static const char *ac_kind_name(gp_ac_kind k)
{
    switch (k) {
    case GP_AC_SASS:
        return "sass";
    case GP_AC_PTX:
        return "ptx";
    case GP_AC_LTOIR:
        return "ltoir";
    default:
        return "other";
    }
}

/* cuobjdump heads each member of a static library with "\nmember ABSPATH:NAME:", members
 * without device code included. */
static void ac_list_members_until(FILE *out, const gp_ac_file *f, const char *shown, size_t *next,
                                  size_t until)
{
    for (; *next < f->member_count && *next <= until; ++*next) {
        char s1[GP_TERM_SAFE_MAX], s2[GP_TERM_SAFE_MAX];
        fprintf(out, "\nmember %s:%s:\n", gp_term_safe(shown, s1, sizeof s1),
                gp_term_safe(f->members[*next], s2, sizeof s2));
    }
}

void gp_ac_report_list(FILE *out, const gp_ac_file *f)
{
    /* cuobjdump numbers ELF and PTX files apart, and prints them in file order. */
    size_t nelf = 0, nptx = 0, next_member = 0;
    /* cuobjdump shows the archive as the working directory + "/" + the path given, unresolved. */
    char cwd[4096], *real = NULL;
    if (f->is_archive && f->path[0] != '/' && getcwd(cwd, sizeof cwd)) {
        size_t n = strlen(cwd) + strlen(f->path) + 2;
        if ((real = malloc(n))) snprintf(real, n, "%s/%s", cwd, f->path);
    }
    const char *shown = real ? real : f->path;
    for (size_t i = 0; i < f->entry_count; i++) {
        const gp_ac_entry *e = &f->entries[i];
        if (!e->list_name) continue;
        if (f->is_archive)
            ac_list_members_until(out, f, shown, &next_member, f->containers[e->container].member);
        char safe[GP_TERM_SAFE_MAX]; /* entry names come from the file */
        if (e->kind == GP_AC_SASS)
            fprintf(out, "ELF file %4zu: %s\n", ++nelf,
                    gp_term_safe(e->list_name, safe, sizeof safe));
        else if (e->kind == GP_AC_PTX)
            fprintf(out, "PTX file %4zu: %s\n", ++nptx,
                    gp_term_safe(e->list_name, safe, sizeof safe));
    }
    if (f->is_archive) ac_list_members_until(out, f, shown, &next_member, SIZE_MAX);
    free(real);
}

static void ac_count(const gp_ac_file *f, size_t *sass, size_t *ptx, size_t *lto, size_t *other)
{
    *sass = *ptx = *lto = *other = 0;
    for (size_t i = 0; i < f->entry_count; i++) {
        switch (f->entries[i].kind) {
        case GP_AC_SASS:
            ++*sass;
            break;
        case GP_AC_PTX:
            ++*ptx;
            break;
        case GP_AC_LTOIR:
            ++*lto;
            break;
        default:
            ++*other;
            break;
        }
    }
}

static void ac_print_entries(FILE *out, const gp_ac_file *f)
{
    char arch[32];
    for (size_t c = 0; c < f->container_count; c++) {
        const gp_ac_container *k = &f->containers[c];
        char where[320];
        char safe[GP_TERM_SAFE_MAX];
        if (k->member < f->member_count)
            snprintf(where, sizeof where, "member %s  %s",
                     gp_term_safe(f->members[k->member], safe, sizeof safe), k->section);
        else
            snprintf(where, sizeof where, "%s", k->section);
        fprintf(out, "  container %zu  %s  offset 0x%" PRIx64 "%s%s\n", c + 1, where, k->offset,
                k->linked ? "  (device link)" : "", k->entry_count ? "" : "  (empty)");
        for (size_t i = k->first_entry; i < k->first_entry + k->entry_count; i++) {
            const gp_ac_entry *e = &f->entries[i];
            char isa[32] = "";
            if (e->kind == GP_AC_PTX)
                snprintf(isa, sizeof isa, "ISA %d.%d", e->ptx_isa / 10, e->ptx_isa % 10);
            fprintf(out, "    %-5s %-13s %-8s %-5s %10" PRIu64 " bytes%s%s\n",
                    e->kind == GP_AC_SASS    ? "SASS"
                    : e->kind == GP_AC_PTX   ? "PTX"
                    : e->kind == GP_AC_LTOIR ? "LTOIR"
                                             : "?",
                    gp_ac_entry_arch_name(e, arch, sizeof arch), isa, e->compression, e->size,
                    e->debug ? "  debug" : "",
                    e->no_code ? "  empty (no kernel, no function)" : "");
        }
    }
}

/* "sm_75 sm_80 sm_86 compute_90" — the distinct architectures, in order of first sight. */
static void ac_print_arch_summary(FILE *out, const gp_ac_file *f)
{
    char seen[64][24];
    size_t n = 0;
    for (size_t i = 0; i < f->entry_count && n < 64; i++) {
        char a[24];
        gp_ac_entry_arch_name(&f->entries[i], a, sizeof a);
        size_t j = 0;
        while (j < n && strcmp(seen[j], a) != 0)
            j++;
        if (j == n) memcpy(seen[n++], a, sizeof a);
    }
    fprintf(out, "  architectures:");
    for (size_t j = 0; j < n; j++)
        fprintf(out, " %s", seen[j]);
    fprintf(out, "\n");
}

static void ac_print_verdict(FILE *out, const gp_ac_file *f, gp_cc cc, const char *names)
{
    gp_ac_verdict v;
    gp_ac_judge(f, cc, &v);
    char ccn[16], sm[16], label[160], shown[GP_TERM_SAFE_MAX];
    gp_ac_cc_name(cc, ccn, sizeof ccn);
    /* "8.7 (sm_87, Jetson AGX Orin)": the CC, the name nvcc and CMake use, the GPUs asked for */
    snprintf(label, sizeof label, "%s (%s%s%s)", ccn, gp_ac_cc_sm(cc, sm, sizeof sm),
             names && *names ? ", " : "",
             names && *names ? gp_term_safe(names, shown, sizeof shown) : "");
    const char *st = gp_ac_verdict_status(&v, f);
    const char *col = strcmp(st, "runs") == 0             ? gp_term_color(out, GP_COLOR_GREEN)
                      : strcmp(st, "runs_after_jit") == 0 ? gp_term_color(out, GP_COLOR_YELLOW)
                                                          : gp_term_color(out, GP_COLOR_RED);
    const char *reset = gp_term_color(out, GP_COLOR_RESET);
    fprintf(out, "  CC %-14s %s", label, col);
    if (strcmp(st, "runs") == 0 && v.modules_total == 0)
        fprintf(out, "runs%s: it holds no kernel (%s %zu module%s %s empty cubin%s)", reset,
                v.empty_modules == 1 ? "its" : "all", v.empty_modules,
                v.empty_modules == 1 ? "" : "s", v.empty_modules == 1 ? "is an" : "are",
                v.empty_modules == 1 ? "" : "s");
    else if (strcmp(st, "runs") == 0)
        fprintf(out, "runs%s: %s has native SASS", reset,
                v.modules_total == 1 ? "its module" : "every module");
    else if (strcmp(st, "runs_after_jit") == 0)
        fprintf(out, "runs after PTX JIT%s: %zu of %zu module%s JIT-compile%s PTX ISA %d.%d", reset,
                v.modules_jit, v.modules_total, v.modules_total == 1 ? "" : "s",
                v.modules_jit == 1 ? "s" : "", v.jit_ptx_isa / 10, v.jit_ptx_isa % 10);
    else if (strcmp(st, "partial") == 0)
        fprintf(out,
                "some modules lack an image%s: %zu of %zu modules ha%s neither SASS nor PTX "
                "for it (their kernels fail with \"no kernel image is available\")",
                reset, v.modules_without_image, v.modules_total,
                v.modules_without_image == 1 ? "s" : "ve");
    else if (strcmp(st, "no_image") == 0 && v.modules_total == 1)
        fprintf(out,
                "no image%s: its module cannot run (\"no kernel image is available for "
                "execution on the device\")",
                reset);
    else if (strcmp(st, "no_image") == 0)
        fprintf(out,
                "no image%s: none of the %zu modules can run (\"no kernel image is "
                "available for execution on the device\")",
                reset, v.modules_total);
    else
        fprintf(out, "nothing to judge%s", reset);
    if (v.min_cuda && v.modules_without_image < v.modules_total) {
        const char *drv = gp_ac_cuda_driver(v.min_cuda);
        fprintf(out, "; needs driver >= %s (CUDA %d.%d)", drv ? drv : "?", v.min_cuda / 10,
                v.min_cuda % 10);
    }
    if (strcmp(st, "partial") == 0) {
        size_t run = v.modules_native + v.modules_jit;
        fprintf(out,
                "\n                    (%zu module%s do%s run; a library that keeps one module per "
                "architecture, like cuBLASLt, loads only those on this GPU)",
                run, run == 1 ? "" : "s", run == 1 ? "es" : "");
    }
    fprintf(out, "\n");
}

static bool ac_file_fails(const gp_ac_file *f, gp_cc cc, bool strict)
{
    gp_ac_verdict v;
    gp_ac_judge(f, cc, &v);
    if (strict) return v.modules_without_image > 0;
    return v.modules_total > 0 && v.modules_without_image == v.modules_total;
}

size_t gp_ac_missing_ccs(const gp_ac_set *set, const gp_cc *ccs, size_t nccs, gp_cc *missing,
                         bool *torch)
{
    size_t n = 0;
    if (torch) *torch = false;
    for (size_t c = 0; c < nccs; c++) {
        bool fails = false;
        for (size_t i = 0; i < set->count; i++) {
            const gp_ac_file *f = &set->files[i];
            if (f->status != GP_AC_OK || !ac_file_fails(f, ccs[c], set->strict)) continue;
            fails = true;
            if (torch && f->in_torch) *torch = true;
        }
        if (fails) missing[n++] = ccs[c];
    }
    return n;
}

static void ac_print_fix(FILE *out, const gp_ac_set *set, const gp_cc *all, size_t nall)
{
    /* only what lacks an image: the architectures that already run are the build's as it is */
    gp_cc ccs[64];
    bool torch;
    size_t nccs = gp_ac_missing_ccs(set, all, nall < 64 ? nall : 64, ccs, &torch);
    if (!nccs) return;
    char cmake[512], nvcc[2048], name[16];
    gp_ac_fix_cmake(ccs, nccs, cmake, sizeof cmake);
    gp_ac_fix_nvcc(ccs, nccs, nvcc, sizeof nvcc);
    fprintf(out, "\nFix: add the architectures that lack an image to the build (keep the ones it "
                 "has):\n");
    fprintf(out,
            "  CMake: add \"%s\" to CMAKE_CUDA_ARCHITECTURES  (-DCMAKE_CUDA_ARCHITECTURES=\"<the "
            "ones you have>;%s\")\n",
            cmake, cmake);
    fprintf(out, "  nvcc:  add %s\n", nvcc);
    for (size_t c = 0; c < nccs; c++)
        if (ccs[c] < 75) {
            fprintf(out,
                    "  note: CUDA 13 no longer compiles for CC %s (it needs 7.5 or newer); "
                    "use a CUDA 12 toolkit\n",
                    gp_ac_cc_name(ccs[c], name, sizeof name));
            break;
        }
    if (!torch) return;
    for (size_t c = 0; c < nccs; c++) {
        char variants[128];
        gp_ac_fix_torch(ccs[c], variants, sizeof variants);
        gp_ac_cc_name(ccs[c], name, sizeof name);
        if (!variants[0]) {
            fprintf(out,
                    "  PyTorch: no CUDA wheel on the PyTorch index targets CC %s; build "
                    "PyTorch from source with TORCH_CUDA_ARCH_LIST=\"%s\"\n",
                    name, name);
            continue;
        }
        const char *last = strrchr(variants, ' ');
        last = last ? last + 1 : variants;
        fprintf(out,
                "  PyTorch: a GPU of CC %s needs a %s wheel: pip install --force-reinstall "
                "torch --index-url https://download.pytorch.org/whl/%s\n",
                name, variants, last);
    }
}

void gp_ac_report_human(FILE *out, const gp_ac_set *set, const gp_cc *ccs, size_t nccs,
                        bool entries)
{
    for (size_t i = 0; i < set->count; i++) {
        const gp_ac_file *f = &set->files[i];
        /* errors and files without device code are said on stderr, by the command */
        if (f->status != GP_AC_OK) continue;
        size_t sass, ptx, lto, other;
        ac_count(f, &sass, &ptx, &lto, &other);
        char shown[GP_TERM_SAFE_MAX];
        fprintf(out, "%s%s%s: %zu container%s, %zu SASS, %zu PTX",
                gp_term_color(out, GP_COLOR_BOLD), gp_term_safe(f->path, shown, sizeof shown),
                gp_term_color(out, GP_COLOR_RESET), f->container_count,
                f->container_count == 1 ? "" : "s", sass, ptx);
        if (lto) fprintf(out, ", %zu LTO-IR", lto);
        if (other) fprintf(out, ", %zu of unknown kind", other);
        fprintf(out, " entries\n");
        if (entries)
            ac_print_entries(out, f);
        else
            ac_print_arch_summary(out, f);
        const char *why;
        int need = gp_ac_file_min_cuda(f, &why);
        if (need) {
            const char *drv = gp_ac_cuda_driver(need);
            fprintf(out, "  minimum driver: %s (CUDA %d.%d) for its %s\n", drv ? drv : "unknown",
                    need / 10, need % 10, why);
        }
        for (size_t c = 0; c < nccs; c++)
            ac_print_verdict(out, f, ccs[c], set->cc_names ? set->cc_names[c] : NULL);
    }
    if (set->skipped_without_code)
        fprintf(out, "(%zu more file%s without CUDA device code)\n", set->skipped_without_code,
                set->skipped_without_code == 1 ? "" : "s");
    ac_print_fix(out, set, ccs, nccs);
}

static cJSON *ac_json_entry(const gp_ac_entry *e)
{
    char arch[32], isa[32];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kind", ac_kind_name(e->kind));
    cJSON_AddStringToObject(o, "arch", gp_ac_entry_arch_name(e, arch, sizeof arch));
    char v[2] = {e->variant, 0};
    cJSON_AddStringToObject(o, "variant", v);
    if (e->kind == GP_AC_PTX) {
        snprintf(isa, sizeof isa, "%d.%d", e->ptx_isa / 10, e->ptx_isa % 10);
        cJSON_AddStringToObject(o, "ptx_isa", isa);
    } else {
        cJSON_AddNullToObject(o, "ptx_isa");
    }
    cJSON_AddStringToObject(o, "compression", e->compression);
    cJSON_AddNumberToObject(o, "size", (double)e->size);
    if (e->uncompressed_size)
        cJSON_AddNumberToObject(o, "uncompressed_size", (double)e->uncompressed_size);
    cJSON_AddBoolToObject(o, "debug", e->debug);
    cJSON_AddBoolToObject(o, "no_code", e->no_code);
    cJSON_AddNumberToObject(o, "container", (double)e->container);
    cJSON_AddNumberToObject(o, "offset", (double)e->offset);
    if (e->list_name) cJSON_AddStringToObject(o, "name", e->list_name);
    return o;
}

static cJSON *ac_json_verdict(const gp_ac_file *f, gp_cc cc, const char *names)
{
    gp_ac_verdict v;
    gp_ac_judge(f, cc, &v);
    char ccn[16], sm[16];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "cc", gp_ac_cc_name(cc, ccn, sizeof ccn));
    cJSON_AddStringToObject(o, "sm", gp_ac_cc_sm(cc, sm, sizeof sm));
    if (names && *names)
        cJSON_AddStringToObject(o, "gpus", names);
    else
        cJSON_AddNullToObject(o, "gpus");
    cJSON_AddStringToObject(o, "status", gp_ac_verdict_status(&v, f));
    cJSON_AddNumberToObject(o, "modules_total", (double)v.modules_total);
    cJSON_AddNumberToObject(o, "modules_native", (double)v.modules_native);
    cJSON_AddNumberToObject(o, "modules_jit", (double)v.modules_jit);
    cJSON_AddNumberToObject(o, "modules_without_image", (double)v.modules_without_image);
    cJSON_AddNumberToObject(o, "modules_empty", (double)v.empty_modules);
    const char *drv = gp_ac_cuda_driver(v.min_cuda);
    if (drv && v.modules_without_image < v.modules_total) {
        cJSON_AddStringToObject(o, "min_driver", drv);
        char cuda[16];
        snprintf(cuda, sizeof cuda, "%d.%d", v.min_cuda / 10, v.min_cuda % 10);
        cJSON_AddStringToObject(o, "min_cuda", cuda);
    } else {
        cJSON_AddNullToObject(o, "min_driver");
    }
    return o;
}

cJSON *gp_ac_report_json(const gp_ac_set *set, const gp_cc *ccs, size_t nccs)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", "gpuport.archcheck/1");
    cJSON *files = cJSON_AddArrayToObject(root, "files");
    for (size_t i = 0; i < set->count; i++) {
        const gp_ac_file *f = &set->files[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(files, o);
        cJSON_AddStringToObject(o, "path", f->path);
        cJSON_AddStringToObject(o, "status",
                                f->status == GP_AC_OK        ? "ok"
                                : f->status == GP_AC_NO_CODE ? "no_device_code"
                                                             : "error");
        if (f->error) cJSON_AddStringToObject(o, "error", f->error);
        cJSON_AddNumberToObject(o, "containers", (double)f->container_count);
        /* Where the containers were found: ".nv_fatbin", "__nv_relfatbin", scanned sections. */
        cJSON *bysec = cJSON_AddObjectToObject(o, "containers_by_section");
        for (size_t c = 0; c < f->container_count; c++) {
            cJSON *n = cJSON_GetObjectItemCaseSensitive(bysec, f->containers[c].section);
            if (n)
                cJSON_SetNumberValue(n, n->valuedouble + 1);
            else
                cJSON_AddNumberToObject(bysec, f->containers[c].section, 1);
        }
        size_t linked = 0;
        for (size_t c = 0; c < f->container_count; c++)
            linked += f->containers[c].linked;
        cJSON_AddNumberToObject(o, "device_link_containers", (double)linked);
        cJSON *es = cJSON_AddArrayToObject(o, "entries");
        for (size_t e = 0; e < f->entry_count; e++)
            cJSON_AddItemToArray(es, ac_json_entry(&f->entries[e]));
        const char *why;
        int need = f->status == GP_AC_OK ? gp_ac_file_min_cuda(f, &why) : 0;
        const char *drv = gp_ac_cuda_driver(need);
        if (drv)
            cJSON_AddStringToObject(o, "min_driver", drv);
        else
            cJSON_AddNullToObject(o, "min_driver");
        cJSON *vs = cJSON_AddArrayToObject(o, "verdicts");
        for (size_t c = 0; f->status == GP_AC_OK && c < nccs; c++)
            cJSON_AddItemToArray(
                vs, ac_json_verdict(f, ccs[c], set->cc_names ? set->cc_names[c] : NULL));
    }
    /* every file read cleanly without device code: listed ones and those a walk counted */
    size_t without = set->skipped_without_code;
    for (size_t i = 0; i < set->count; i++)
        without += set->files[i].status == GP_AC_NO_CODE;
    cJSON_AddNumberToObject(root, "files_without_device_code", (double)without);
    if (nccs) {
        gp_cc miss[64];
        size_t nmiss = gp_ac_missing_ccs(set, ccs, nccs < 64 ? nccs : 64, miss, NULL);
        char cmake[512], nvcc[2048], ccn[16];
        gp_ac_fix_cmake(miss, nmiss, cmake, sizeof cmake);
        gp_ac_fix_nvcc(miss, nmiss, nvcc, sizeof nvcc);
        cJSON *fix = cJSON_AddObjectToObject(root, "fix");
        if (nmiss) {
            cJSON_AddStringToObject(fix, "cmake_cuda_architectures", cmake);
            cJSON_AddStringToObject(fix, "nvcc", nvcc);
        } else { /* everything asked about runs: nothing to add */
            cJSON_AddNullToObject(fix, "cmake_cuda_architectures");
            cJSON_AddNullToObject(fix, "nvcc");
        }
        cJSON *torch = cJSON_AddObjectToObject(fix, "torch_wheels");
        for (size_t c = 0; c < nmiss; c++) {
            char variants[128];
            gp_ac_fix_torch(miss[c], variants, sizeof variants);
            cJSON_AddStringToObject(torch, gp_ac_cc_name(miss[c], ccn, sizeof ccn), variants);
        }
    }
    return root;
}
