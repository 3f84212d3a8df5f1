/* cmd_archcheck.c — `gpuport archcheck`: will this binary's CUDA kernels run on that GPU?
 * Parses the options, gathers the compute capabilities asked about (--cc, --gpu, --device),
 * inventories the inputs and prints the listing, the report or the JSON; src/archcheck does
 * the work. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archcheck/archcheck.h"
#include "cli/cli.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/term.h"

#define AC_MAX_CCS 64

static const char ac_usage[] =
    "usage: gpuport archcheck [options] FILE|DIR...\n"
    "\n"
    "Lists the CUDA device code in ELF executables, shared and static libraries, objects,\n"
    "cubins, fatbins, PTX files, Python wheels and directories, and predicts whether it runs\n"
    "on a GPU: per module natively (SASS), after PTX JIT compilation, or not at all (\"no\n"
    "kernel image is available for execution on the device\"), with the fix.\n"
    "\n"
    "Options:\n"
    "  --cc X.Y        judge for compute capability X.Y (repeatable: --cc 8.6 --cc 12.0)\n"
    "  --gpu NAME      judge for a GPU by name (\"RTX 4090\", \"H100\", \"Jetson AGX Orin\") or\n"
    "                  architecture (sm_87); a name several GPUs share is listed with their CCs\n"
    "  --device        judge for the GPUs of this machine (through the CUDA driver)\n"
    "  --list          print exactly what `cuobjdump --list-elf --list-ptx` prints\n"
    "  --summary       one line of architectures per file instead of every entry\n"
    "  --strict        exit 1 also when only some modules lack an image (for your own\n"
    "                  builds; a library with one module per architecture always does)\n"
    "  --json          print JSON (schema gpuport.archcheck/1)\n"
    "  --help          print this help\n"
    "  --version       print the version\n"
    "\n"
    "Exit status: 0 every requested CC can run some module of every file (\"partial\" is a\n"
    "warning unless --strict); 1 a file has no image at all for a requested CC (with --strict:\n"
    "any module lacks one), or no input holds CUDA device code; 2 unreadable or malformed\n"
    "input (a file that is not ELF, a static library, a fatbin or PTX), or a usage error;\n"
    "3 internal error.\n";

typedef struct ac_opts {
    gp_cc ccs[AC_MAX_CCS];
    char names[AC_MAX_CCS][160]; /* per CC: the GPUs asked for by name, ", "-separated */
    const char *name_ptrs[AC_MAX_CCS];
    size_t nccs;
    bool list, json, summary, device, strict;
} ac_opts;

/* Adds a CC to judge, with the GPU name it was asked for ("" none). */
static int ac_add_cc(ac_opts *o, gp_cc cc, const char *name)
{
    size_t i = 0;
    while (i < o->nccs && o->ccs[i] != cc)
        i++;
    if (i == o->nccs) {
        if (o->nccs == AC_MAX_CCS)
            return gp_cli_usage_error("archcheck", "too many compute capabilities");
        o->ccs[i] = cc;
        o->names[i][0] = '\0';
        o->name_ptrs[i] = o->names[i];
        o->nccs++;
    }
    char *have = o->names[i];
    size_t n = strlen(have);
    if (name && *name && !strstr(have, name) && n + strlen(name) + 3 < sizeof o->names[i])
        snprintf(have + n, sizeof o->names[i] - n, "%s%s", n ? ", " : "", name);
    return 0;
}

static int ac_add_gpu(ac_opts *o, const char *name)
{
    /* the architecture's own name: sm_87, compute_87 */
    gp_cc cc = strncmp(name, "sm_", 3) == 0 || strncmp(name, "compute_", 8) == 0
                   ? gp_ac_cc_parse(name)
                   : -1;
    if (cc >= 0) return ac_add_cc(o, cc, "");
    const gp_ac_gpu *sug[5];
    size_t ns = 0;
    const gp_ac_gpu *g = gp_ac_gpu_find(name, sug, 5, &ns);
    if (g) return ac_add_cc(o, g->cc, g->name);
    /* a part of names: one CC for all of them is an answer; several are a question back */
    const gp_ac_gpu *m[24];
    size_t nm = gp_ac_gpu_matches(name, m, 24), shown = nm < 24 ? nm : 24;
    bool one_cc = nm > 0 && nm <= 24;
    for (size_t i = 1; i < shown; i++)
        one_cc = one_cc && m[i]->cc == m[0]->cc;
    if (one_cc) return ac_add_cc(o, m[0]->cc, nm == 1 ? m[0]->name : name);
    gp_strbuf msg = GP_STRBUF_INIT;
    if (nm > 1) {
        gp_strbuf_printf(&msg, "'%s' names GPUs of different compute capabilities:", name);
        for (size_t i = 0; i < shown; i++) {
            char ccn[16], sm[16];
            gp_strbuf_printf(&msg, "%s \"%s\" (%s, %s)", i ? "," : "", m[i]->name,
                             gp_ac_cc_name(m[i]->cc, ccn, sizeof ccn),
                             gp_ac_cc_sm(m[i]->cc, sm, sizeof sm));
        }
        if (nm > shown) gp_strbuf_printf(&msg, ", and %zu more", nm - shown);
        gp_strbuf_puts(&msg, "\n(give the full name, or the compute capability with --cc X.Y)");
        int rc = gp_cli_input_error("archcheck", "%s", gp_strbuf_cstr(&msg));
        gp_strbuf_free(&msg);
        return rc;
    }
    gp_strbuf_printf(&msg, "unknown GPU '%s'", name);
    if (ns) {
        gp_strbuf_puts(&msg, "; did you mean:");
        for (size_t i = 0; i < ns; i++)
            gp_strbuf_printf(&msg, "%s \"%s\"", i ? "," : "", sug[i]->name);
    }
    gp_strbuf_puts(&msg, "\n(or give its compute capability with --cc X.Y)");
    int rc = gp_cli_input_error("archcheck", "%s", gp_strbuf_cstr(&msg));
    gp_strbuf_free(&msg);
    return rc;
}

static int ac_add_device(ac_opts *o)
{
    gp_cc ccs[16];
    char names[16][128];
    char err[512];
    int drv = 0;
    int n = gp_ac_device_query(ccs, names, 16, &drv, err, sizeof err);
    if (n < 0) return gp_cli_input_error("archcheck", "--device: %s", err);
    for (int i = 0; i < n; i++) {
        char ccn[16];
        char sm[16];
        if (!o->json)
            fprintf(stderr, "device %d: %s, compute capability %s (%s)\n", i, names[i],
                    gp_ac_cc_name(ccs[i], ccn, sizeof ccn), gp_ac_cc_sm(ccs[i], sm, sizeof sm));
        int rc = ac_add_cc(o, ccs[i], names[i]);
        if (rc) return rc;
    }
    return 0;
}

static int ac_parse(int argc, char **argv, ac_opts *o, bool *done)
{
    static const struct option opts[] = {
        {"cc", required_argument, NULL, 'c'}, {"gpu", required_argument, NULL, 'g'},
        {"device", no_argument, NULL, 'd'},   {"list", no_argument, NULL, 'l'},
        {"summary", no_argument, NULL, 's'},  {"strict", no_argument, NULL, 'S'},
        {"json", no_argument, NULL, 'j'},     {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},  {NULL, 0, NULL, 0}};
    int c, rc;
    *done = false;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'c': {
            gp_cc cc = gp_ac_cc_parse(optarg);
            if (cc < 0)
                return gp_cli_usage_error("archcheck",
                                          "'%s' is not a compute capability (8.6, 12.0)", optarg);
            if ((rc = ac_add_cc(o, cc, ""))) return rc;
            break;
        }
        case 'g':
            if ((rc = ac_add_gpu(o, optarg))) return rc;
            break;
        case 'd':
            o->device = true;
            break;
        case 'l':
            o->list = true;
            break;
        case 's':
            o->summary = true;
            break;
        case 'S':
            o->strict = true;
            break;
        case 'j':
            o->json = true;
            break;
        case 'h':
            fputs(ac_usage, stdout);
            *done = true;
            return gp_cli_finish("archcheck", GP_EXIT_OK);
        case 'V':
            *done = true;
            return gp_cli_print_version();
        default:
            return gp_cli_bad_option("archcheck", argv, "h");
        }
    }
    if (o->list && o->json)
        return gp_cli_usage_error("archcheck", "--list and --json exclude each other");
    if (optind >= argc) return gp_cli_usage_error("archcheck", "no FILE or DIR given");
    if (o->device && (rc = ac_add_device(o))) return rc;
    return 0;
}

/* 2 when anything was unreadable; 1 when a file has no image at all for a requested CC (with
 * --strict: when any module lacks one) or no input held device code; 0 otherwise. "partial" is
 * a warning by default: every real CUDA library with one module per architecture (cuBLASLt,
 * cuFFT, cuDNN, NCCL) is partial on every GPU, and a CI job checks them with plain archcheck. */
static int ac_exit_code(const gp_ac_set *set, const ac_opts *o)
{
    bool malformed = false, any_code = false;
    for (size_t i = 0; i < set->count; i++) {
        const gp_ac_file *f = &set->files[i];
        if (f->status == GP_AC_MALFORMED) malformed = true;
        any_code = any_code || f->status == GP_AC_OK;
    }
    gp_cc miss[AC_MAX_CCS];
    bool missing = gp_ac_missing_ccs(set, o->ccs, o->nccs, miss, NULL) > 0;
    if (malformed) return GP_EXIT_USAGE;
    if (!any_code || missing) return GP_EXIT_FAIL;
    return GP_EXIT_OK;
}

/* Device code found only by the magic scan is real, but not what cuobjdump lists: say so. */
static void ac_note_unlisted(const gp_ac_file *f)
{
    size_t unlisted = 0;
    for (size_t c = 0; c < f->container_count; c++)
        unlisted += !f->containers[c].listed;
    if (!unlisted) return;
    char shown[GP_TERM_SAFE_MAX];
    const char *p = gp_term_safe(f->path, shown, sizeof shown);
    if (unlisted == f->container_count)
        fprintf(stderr,
                "gpuport archcheck: %s: %s lie%s outside .nv_fatbin and __nv_relfatbin, where "
                "cuobjdump does not look; see %s without --list\n",
                p, unlisted == 1 ? "its container" : "all its containers", unlisted == 1 ? "s" : "",
                unlisted == 1 ? "it" : "them");
    else
        fprintf(stderr,
                "gpuport archcheck: %s: %zu of its %zu containers lie outside .nv_fatbin and "
                "__nv_relfatbin (found by scanning), where cuobjdump does not look, and are not "
                "listed; see them without --list\n",
                p, unlisted, f->container_count);
}

/* Files that could not be read, and files without device code: on stderr, named once. */
static void ac_report_problems(const gp_ac_set *set)
{
    for (size_t i = 0; i < set->count; i++) {
        const gp_ac_file *f = &set->files[i];
        char shown[GP_TERM_SAFE_MAX], why[GP_TERM_SAFE_MAX];
        if (f->status == GP_AC_MALFORMED)
            fprintf(stderr, "gpuport archcheck: %s: %s\n",
                    gp_term_safe(f->path, shown, sizeof shown),
                    gp_term_safe(f->error ? f->error : "unreadable", why, sizeof why));
        else if (f->status == GP_AC_NO_CODE)
            fprintf(stderr, "gpuport archcheck: %s: does not contain CUDA device code\n",
                    gp_term_safe(f->path, shown, sizeof shown));
    }
}

static int archcheck_run(int argc, char **argv)
{
    ac_opts o;
    memset(&o, 0, sizeof o);
    bool done;
    gp_cli_getopt_reset();
    int rc = ac_parse(argc, argv, &o, &done);
    if (done || rc) return rc;
    gp_ac_set set = {.strict = o.strict, .cc_names = o.name_ptrs};
    for (int i = optind; i < argc; i++)
        gp_ac_set_add_path(&set, argv[i]);
    gp_term_progress_done();
    if (o.json) {
        cJSON *j = gp_ac_report_json(&set, o.ccs, o.nccs);
        int pr = j ? gp_json_print(stdout, j) : -1;
        cJSON_Delete(j);
        if (pr != 0) {
            gp_ac_set_free(&set);
            return gp_cli_internal_error("archcheck", "cannot render JSON");
        }
    } else if (o.list) {
        for (size_t i = 0; i < set.count; i++) {
            const gp_ac_file *f = &set.files[i];
            /* cuobjdump lists an archive's members even when none holds device code. */
            if (f->status != GP_AC_OK && !(f->status == GP_AC_NO_CODE && f->is_archive)) continue;
            if (set.count > 1) printf("%s:\n", set.files[i].path);
            gp_ac_report_list(stdout, f);
            if (f->status == GP_AC_OK) ac_note_unlisted(f);
        }
        ac_report_problems(&set);
    } else {
        gp_ac_report_human(stdout, &set, o.ccs, o.nccs, !o.summary);
    }
    if (!o.list) ac_report_problems(&set);
    rc = ac_exit_code(&set, &o);
    gp_ac_set_free(&set);
    return gp_cli_finish("archcheck", rc);
}

const gp_command gp_cmd_archcheck = {
    "archcheck", "will this binary's CUDA kernels run on that GPU (fatbin/cubin/PTX inventory)",
    archcheck_run};
