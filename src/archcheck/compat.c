/* compat.c — the rules that decide whether a module runs on a device of a given compute
 * capability: SASS within its family (with the Tegra exceptions and the "a"/"f" variants), PTX
 * JIT-compiled for newer devices when the driver knows its PTX ISA, and the driver each image
 * needs. A module is one fatbin container; a file's verdict counts its modules. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "archcheck/archcheck.h"
#include "util/cuda_driver.h"

/* The old name of CC 11.0 (Thor) was 10.1. */
static int ac_norm(int cc)
{
    return cc == 101 ? 110 : cc;
}

/* Tegra parts that share no SASS with their numeric neighbours. */
static bool ac_standalone(int cc)
{
    return cc == 53 || cc == 62 || cc == 72 || cc == 87;
}

/* CCs that "f" (family) code for `arch` runs on. */
static bool ac_family_runs(int arch, int cc)
{
    static const struct {
        int arch;
        int ccs[3];
    } fam[] = {
        {100, {100, 103, 0}}, {103, {103, 0, 0}}, {110, {110, 0, 0}},
        {120, {120, 121, 0}}, {121, {121, 0, 0}},
    };
    for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++) {
        if (fam[i].arch != arch) continue;
        for (int j = 0; j < 3 && fam[i].ccs[j]; j++)
            if (fam[i].ccs[j] == cc) return true;
        return false;
    }
    return arch == cc; /* a family this table does not know yet: only its own CC is sure */
}

bool gp_ac_sass_runs(uint32_t arch32, char variant, gp_cc cc)
{
    int arch = ac_norm((int)arch32);
    cc = ac_norm(cc);
    if (variant == 'a') return arch == cc;
    if (variant == 'f') return ac_family_runs(arch, cc);
    if (ac_standalone(arch) || ac_standalone(cc)) return arch == cc;
    return arch / 10 == cc / 10 && arch % 10 <= cc % 10;
}

bool gp_ac_ptx_jits(uint32_t arch32, char variant, gp_cc cc)
{
    int arch = ac_norm((int)arch32);
    cc = ac_norm(cc);
    if (variant == 'a') return arch == cc;
    if (variant == 'f') return ac_family_runs(arch, cc);
    return cc >= arch;
}

int gp_ac_ptx_isa_cuda(int isa)
{
    static const int map[][2] = {
        {60, 90},  {61, 91},  {62, 92},  {63, 100}, {64, 101}, {65, 102}, {70, 110},
        {71, 111}, {72, 112}, {73, 113}, {74, 114}, {75, 115}, {76, 116}, {77, 117},
        {78, 118}, {80, 120}, {81, 121}, {82, 122}, {83, 123}, {84, 124}, {85, 125},
        {86, 127}, {87, 128}, {88, 129}, {90, 130}, {91, 131}, {92, 132},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i][0] == isa) return map[i][1];
    return 0;
}

const char *gp_ac_cuda_driver(int cuda)
{
    return cuda > 0 ? gp_cuda_min_driver_for(cuda / 10, cuda % 10) : NULL;
}

/* Drivers decompress zstd-compressed fatbin entries from CUDA 12.4 on. */
#define AC_ZSTD_CUDA 124

static int ac_entry_cuda(const gp_ac_entry *e, bool jit)
{
    int need = 0;
    if (jit && e->ptx_isa) need = gp_ac_ptx_isa_cuda(e->ptx_isa);
    if (strcmp(e->compression, "zstd") == 0 && need < AC_ZSTD_CUDA) need = AC_ZSTD_CUDA;
    return need;
}

gp_ac_run gp_ac_judge_module(const gp_ac_file *f, size_t container, gp_cc cc, size_t *chosen)
{
    const gp_ac_container *c = &f->containers[container];
    size_t best = SIZE_MAX;
    for (size_t i = c->first_entry; i < c->first_entry + c->entry_count; i++) {
        const gp_ac_entry *e = &f->entries[i];
        if (e->kind == GP_AC_SASS && gp_ac_sass_runs(e->arch, e->variant, cc)) {
            *chosen = i;
            return GP_AC_RUN_NATIVE;
        }
    }
    /* No SASS: the driver JIT-compiles the PTX of the highest architecture it can. */
    for (size_t i = c->first_entry; i < c->first_entry + c->entry_count; i++) {
        const gp_ac_entry *e = &f->entries[i];
        if (e->kind == GP_AC_PTX && gp_ac_ptx_jits(e->arch, e->variant, cc) &&
            (best == SIZE_MAX || e->arch > f->entries[best].arch))
            best = i;
    }
    *chosen = best;
    return best == SIZE_MAX ? GP_AC_RUN_NONE : GP_AC_RUN_JIT;
}

/* A container the loader can use: it holds SASS or PTX. */
static bool ac_is_module(const gp_ac_file *f, const gp_ac_container *c)
{
    for (size_t i = c->first_entry; i < c->first_entry + c->entry_count; i++)
        if (f->entries[i].kind == GP_AC_SASS || f->entries[i].kind == GP_AC_PTX) return true;
    return false;
}

/* A module whose every image is a cubin without kernels or functions (a stub nvlink writes):
 * loading it runs nothing, so no GPU needs an image of it. */
static bool ac_is_empty_module(const gp_ac_file *f, const gp_ac_container *c)
{
    for (size_t i = c->first_entry; i < c->first_entry + c->entry_count; i++) {
        const gp_ac_entry *e = &f->entries[i];
        if (e->kind == GP_AC_PTX || (e->kind == GP_AC_SASS && !e->no_code)) return false;
    }
    return true;
}

/* Device-link modules (the glue nvcc links into every executable, built only for the real
 * architectures) are judged only when a file has nothing else: a PTX-only build gets an empty
 * one and still runs, so their lacking an image is no failure of their own. */
static bool ac_judge_linked(const gp_ac_file *f)
{
    for (size_t c = 0; c < f->container_count; c++) {
        const gp_ac_container *k = &f->containers[c];
        if (!k->linked && ac_is_module(f, k) && !ac_is_empty_module(f, k)) return false;
    }
    return true;
}

void gp_ac_judge(const gp_ac_file *f, gp_cc cc, gp_ac_verdict *v)
{
    memset(v, 0, sizeof *v);
    v->cc = cc;
    bool judge_linked = ac_judge_linked(f);
    for (size_t c = 0; c < f->container_count; c++) {
        if (!ac_is_module(f, &f->containers[c])) continue;
        if (f->containers[c].linked && !judge_linked) {
            v->linked_modules++;
            continue;
        }
        if (ac_is_empty_module(f, &f->containers[c])) {
            v->empty_modules++;
            continue;
        }
        v->modules_total++;
        size_t chosen;
        gp_ac_run r = gp_ac_judge_module(f, c, cc, &chosen);
        if (r == GP_AC_RUN_NONE) {
            v->modules_without_image++;
            continue;
        }
        const gp_ac_entry *e = &f->entries[chosen];
        if (r == GP_AC_RUN_NATIVE)
            v->modules_native++;
        else {
            v->modules_jit++;
            if (e->ptx_isa > v->jit_ptx_isa) v->jit_ptx_isa = e->ptx_isa;
        }
        if (strcmp(e->compression, "zstd") == 0) v->needs_zstd = true;
        int need = ac_entry_cuda(e, r == GP_AC_RUN_JIT);
        if (need > v->min_cuda) v->min_cuda = need;
    }
}

const char *gp_ac_verdict_status(const gp_ac_verdict *v, const gp_ac_file *f)
{
    (void)f;
    if (v->modules_total == 0) return v->empty_modules ? "runs" : "no_code";
    if (v->modules_without_image == v->modules_total) return "no_image";
    if (v->modules_without_image) return "partial";
    if (v->modules_jit) return "runs_after_jit";
    return "runs";
}

int gp_ac_file_min_cuda(const gp_ac_file *f, const char **why)
{
    int need = 0;
    *why = NULL;
    for (size_t i = 0; i < f->entry_count; i++) {
        const gp_ac_entry *e = &f->entries[i];
        if (e->kind != GP_AC_SASS && e->kind != GP_AC_PTX) continue;
        int n = ac_entry_cuda(e, e->kind == GP_AC_PTX);
        if (n > need) {
            need = n;
            *why = (e->kind == GP_AC_PTX && gp_ac_ptx_isa_cuda(e->ptx_isa) == n)
                       ? "PTX ISA"
                       : "zstd compression";
        }
    }
    return need;
}
