/* cmd_translate.c — `gpuport translate`: CUDA kernels into the portable dialect, or a refusal
 * with the line and the reason. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "translate/translate.h"
#include "util/fs.h"
#include "util/json.h"
#include "util/term.h"

static const char translate_usage[] =
    "usage: gpuport translate FILE.cu [-o FILE.gpk] [--report FILE.json] [--partial]\n"
    "                         [--simd-width 32|0] [-I DIR]... [-D NAME[=VALUE]]...\n"
    "                         [-T|--instantiate 'NAME<ARGS>']... [--no-verify]\n"
    "                         [--metal-standin DIR] [--for-check] [--force] [--json]\n"
    "\n"
    "Rewrites the CUDA kernels of FILE.cu (the subset in docs/translate.md) into the portable\n"
    "kernel dialect, which gpuport builds for CUDA, Metal, OpenCL and the CPU. Constructs outside\n"
    "the subset are refused with their line and the reason; nothing is guessed.\n"
    "\n"
    "  -o FILE          write the dialect source to FILE (default: stdout)\n"
    "  --report FILE    write the report (schema gpuport.translate/1) to FILE\n"
    "  --json           print the report on stdout instead of the source\n"
    "  --partial        translate what can be, leaving GP_TODO(\"...\") markers (which compile\n"
    "                   nowhere) for refused constructs; exit 1 all the same\n"
    "  --simd-width 32  (the default: CUDA warp code means 32 lanes) translate warp shuffles,\n"
    "                   votes and syncs (__shfl_*_sync, __ballot_sync, __any_sync, __all_sync,\n"
    "                   __syncwarp with the full mask) and warpSize to the dialect's gp_simd_*\n"
    "                   operations; a kernel that uses them then requires SIMD groups of 32\n"
    "                   lanes (CUDA, Apple GPUs, the CPU backend; not OpenCL) and says so\n"
    "  --simd-width 0   refuse warp code instead (for output that must build everywhere)\n"
    "  -I DIR           also look for #include \"...\" headers in DIR\n"
    "  -D NAME[=VALUE]  define a macro (as nvcc -D)\n"
    "  -T, --instantiate 'k<float, 256>'\n"
    "                   also make this instance of a template (those the file launches or\n"
    "                   instantiates itself are made anyway)\n"
    "  --no-verify      do not build the result; the report then claims no target (by default\n"
    "                   every kernel is built for each target this machine can build for, and\n"
    "                   the report says a kernel runs there only if it built)\n"
    "  --metal-standin DIR\n"
    "                   where there is no Metal device, check the Metal build against the\n"
    "                   stand-in <metal_stdlib> in DIR with clang++ -fsyntax-only\n"
    "  --for-check      translate to run checked (docs/check.md), as `gpuport run FILE.cu` does:\n"
    "                   #line directives and columns of FILE.cu, --simd-width 32, and shared-\n"
    "                   memory ordering left to the checker (no warp-lockstep refusal or rewrite)\n"
    "  --force          replace existing -o / --report files\n"
    "  -h, --help       this help;  --version  the version\n"
    "\n"
    "A summary goes to stderr: kernels translated, device functions cloned, each refusal.\n"
    "Exit codes: 0 translated, 1 something was refused, 2 unreadable or malformed input.\n";

static bool has_metal_stdlib(const char *dir)
{
    char *p = gp_path_join(dir, "metal_stdlib");
    bool ok = p && gp_path_is_file(p);
    free(p);
    return ok;
}

static int write_out(const char *path, const char *text, bool force)
{
    char err[512];
    if (!force && gp_path_exists(path))
        return gp_cli_input_error("translate", "%s: already exists; use --force to replace it",
                                  path);
    if (gp_write_file_atomic(path, text, strlen(text), err, sizeof err) != 0)
        return gp_cli_input_error("translate", "%s", err);
    /* the atomic write makes a private temporary file: the result gets the mode any file the
     * user creates gets (0666 less the umask), as a compiler's output does */
    mode_t mask = umask(0);
    umask(mask);
    if (chmod(path, 0666 & ~mask) != 0)
        return gp_cli_input_error("translate", "%s: %s", path, strerror(errno));
    return 0;
}

/* The report's ready `gpuport run` lines, for the file as written (-o FILE, else FILE.gpk). */
static void run_lines(const cJSON *rep, const char *output)
{
    const cJSON *k;
    char safe[GP_TERM_SAFE_MAX];
    bool any = false;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(rep, "kernels"))
    {
        const char *run = gp_json_str(k, "run", NULL);
        if (!run) continue;
        if (!any)
            fprintf(stderr, "ready to run (from the first <<<...>>> launch of each kernel; "
                            "'<...>' marks what the file does not fix):\n");
        any = true;
        /* "gpuport run FILE.gpk KERNEL ...": the file as written */
        const char *rest = strchr(run + strlen("gpuport run "), ' ');
        if (output && rest && !strncmp(run, "gpuport run ", 12))
            fprintf(stderr, "  gpuport run %s%s\n", gp_term_safe(output, safe, sizeof safe), rest);
        else
            fprintf(stderr, "  %s\n", gp_term_safe(run, safe, sizeof safe));
    }
}

static void summary(const cJSON *rep)
{
    const cJSON *k, *r;
    int nk = 0, nt = 0, nclones = 0;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(rep, "kernels"))
    {
        nk++;
        nt += cJSON_IsTrue(cJSON_GetObjectItem(k, "translated"));
    }
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(rep, "helpers")) nclones +=
        cJSON_GetArraySize(cJSON_GetObjectItem(k, "clones"));
    fprintf(stderr, "gpuport translate: %d of %d kernel%s translated, %d device-function clone%s\n",
            nt, nk, nk == 1 ? "" : "s", nclones, nclones == 1 ? "" : "s");
    char file[GP_TERM_SAFE_MAX], why[GP_TERM_SAFE_MAX]; /* names and text from the input */
    /* where each kernel runs: only what was built here is claimed; when every kernel has the
     * same line (and no failure), one line says it for all */
    static const char *const targets[] = {"cpu", "opencl", "metal", "cuda"};
    char first[512] = "";
    bool same = true;
    struct shown {
        const char *detail, *kernel;
    } logs[64];
    int nlogs = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && same && nt > 1) {
            fprintf(stderr, "  all %d kernels: %s\n", nt, first);
            break;
        }
        int seen = 0;
        cJSON_ArrayForEach(k, cJSON_GetObjectItem(rep, "kernels"))
        {
            if (!cJSON_IsTrue(cJSON_GetObjectItem(k, "translated"))) continue;
            const cJSON *t = cJSON_GetObjectItem(k, "targets");
            char built[128] = "", unchecked[128] = "", failed[128] = "", line[512];
            for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
                const cJSON *v = cJSON_GetObjectItem(t, targets[i]);
                const cJSON *b = cJSON_GetObjectItem(cJSON_GetObjectItem(k, "builds"), targets[i]);
                char *dst = cJSON_IsTrue(v)                                          ? built
                            : cJSON_IsNull(v)                                        ? unchecked
                            : (b && !strcmp(gp_json_str(b, "result", ""), "failed")) ? failed
                                                                                     : NULL;
                if (dst)
                    snprintf(dst + strlen(dst), 128 - strlen(dst), "%s%s", dst[0] ? ", " : "",
                             targets[i]);
            }
            snprintf(line, sizeof line, "built for %s%s%s%s%s", built[0] ? built : "nothing",
                     unchecked[0] ? "; not checked: " : "", unchecked,
                     failed[0] ? "; FAILED: " : "", failed);
            if (pass == 0) {
                if (!seen++) snprintf(first, sizeof first, "%s", line);
                same = same && !failed[0] && !strcmp(first, line);
                continue;
            }
            fprintf(stderr, "  %s: %s\n", gp_json_str(k, "name", "?"), line);
            cJSON_ArrayForEach(r, cJSON_GetObjectItem(k, "builds"))
            {
                if (strcmp(gp_json_str(r, "result", ""), "failed")) continue;
                /* a build log once: the kernels of one failed build share it */
                const char *detail = gp_json_str(r, "detail", "");
                const char *shown_for = NULL;
                for (int i = 0; i < nlogs && !shown_for; i++)
                    if (!strcmp(logs[i].detail, detail)) shown_for = logs[i].kernel;
                if (shown_for) {
                    fprintf(stderr, "    %s: the build log shown for %s\n", r->string, shown_for);
                    continue;
                }
                if (nlogs < (int)(sizeof logs / sizeof *logs))
                    logs[nlogs++] = (struct shown){detail, gp_json_str(k, "name", "?")};
                fprintf(stderr, "    %s: %s\n", r->string, gp_term_safe(detail, why, sizeof why));
            }
        }
    }
    const cJSON *ver = cJSON_GetObjectItem(rep, "verification");
    cJSON_ArrayForEach(r, ver)
        fprintf(stderr, "  %s: %s\n", r->string, gp_term_safe(r->valuestring, why, sizeof why));
    /* a kernel that keeps the whole file from a target */
    const cJSON *why_not =
        cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "output_targets"), "why_not");
    cJSON_ArrayForEach(r, why_not)
        fprintf(stderr, "  the output file is not for %s: %s\n", r->string,
                gp_term_safe(r->valuestring, why, sizeof why));
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(rep, "refusals"))
        fprintf(stderr, "%s:%d: refused: %s: %s\n",
                gp_term_safe(gp_json_str(r, "file", "?"), file, sizeof file),
                (int)cJSON_GetObjectItem(r, "line")->valuedouble, gp_json_str(r, "construct", ""),
                gp_term_safe(gp_json_str(r, "reason", ""), why, sizeof why));
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(rep, "notes")) fprintf(
        stderr, "%s:%d: note: %s\n", gp_term_safe(gp_json_str(r, "file", "?"), file, sizeof file),
        (int)cJSON_GetObjectItem(r, "line")->valuedouble,
        gp_term_safe(gp_json_str(r, "reason", ""), why, sizeof why));
}

static int translate_run(int argc, char **argv)
{
    enum {
        OPT_REPORT = 256,
        OPT_PARTIAL,
        OPT_FORCE,
        OPT_JSON,
        OPT_VERSION,
        OPT_SIMD,
        OPT_INSTANTIATE,
        OPT_NO_VERIFY,
        OPT_STANDIN,
        OPT_FOR_CHECK
    };
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"instantiate", required_argument, NULL, OPT_INSTANTIATE},
                                         {"no-verify", no_argument, NULL, OPT_NO_VERIFY},
                                         {"metal-standin", required_argument, NULL, OPT_STANDIN},
                                         {"report", required_argument, NULL, OPT_REPORT},
                                         {"partial", no_argument, NULL, OPT_PARTIAL},
                                         {"for-check", no_argument, NULL, OPT_FOR_CHECK},
                                         {"simd-width", required_argument, NULL, OPT_SIMD},
                                         {"force", no_argument, NULL, OPT_FORCE},
                                         {"json", no_argument, NULL, OPT_JSON},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, OPT_VERSION},
                                         {NULL, 0, NULL, 0}};
    const char *output = NULL, *report = NULL;
    bool force = false, json = false;
    gp_translate_options to = {0};
    to.verify = true;
    to.simd_width = 32; /* CUDA code means warps of 32 (--simd-width 0 refuses warp code) */
    const char **incs = calloc((size_t)argc + 1, sizeof *incs);
    const char **defs = calloc((size_t)argc + 1, sizeof *defs);
    const char **insts = calloc((size_t)argc + 1, sizeof *insts);
    int rc = -1, c;
    if (!incs || !defs || !insts) {
        free(incs);
        free(defs);
        free(insts);
        return gp_cli_internal_error("translate", "out of memory");
    }
    while (rc < 0 && (c = getopt_long(argc, argv, "ho:I:D:T:", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            output = optarg;
            break;
        case OPT_REPORT:
            report = optarg;
            break;
        case OPT_PARTIAL:
            to.partial = true;
            break;
        case OPT_FOR_CHECK:
            to.line_directives = to.checked_run = true;
            to.simd_width = 32;
            break;
        case OPT_FORCE:
            force = true;
            break;
        case OPT_SIMD:
            /* CUDA warp code is written for 32 lanes (its masks, its `& 31`, its 16-8-4-2-1
             * reductions); another width would compute something else. 0 refuses it. */
            if (strcmp(optarg, "32") != 0 && strcmp(optarg, "0") != 0)
                rc = gp_cli_usage_error("translate",
                                        "--simd-width %s: CUDA warp code assumes 32 lanes, so "
                                        "32 is the only width it can be translated for (0 "
                                        "refuses warp code)",
                                        optarg);
            to.simd_width = atoi(optarg) == 32 ? 32 : 0;
            break;
        case OPT_JSON:
            json = true;
            break;
        case 'I':
            incs[to.ninclude_dirs++] = optarg;
            break;
        case 'D':
            defs[to.ndefines++] = optarg;
            break;
        case 'T':
        case OPT_INSTANTIATE:
            insts[to.ninstantiate++] = optarg;
            break;
        case OPT_NO_VERIFY:
            to.verify = false;
            break;
        case OPT_STANDIN:
            if (!has_metal_stdlib(optarg))
                rc = gp_cli_input_error("translate", "--metal-standin %s: no metal_stdlib there",
                                        optarg);
            to.metal_standin = optarg;
            break;
        case 'h':
            printf("%s", translate_usage);
            rc = gp_cli_finish("translate", GP_EXIT_OK);
            break;
        case OPT_VERSION:
            rc = gp_cli_print_version();
            break;
        default:
            rc = gp_cli_bad_option("translate", argv, "ho:I:D:T:");
            break;
        }
    }
    if (rc < 0 && argc - optind != 1)
        rc = gp_cli_usage_error("translate", argc - optind
                                                 ? "one input file at a time"
                                                 : "which file? (gpuport translate FILE.cu)");
    if (rc >= 0) {
        free(incs);
        free(defs);
        free(insts);
        return rc;
    }
    to.include_dirs = incs;
    to.defines = defs;
    to.instantiate = insts;
    const char *in = argv[optind];
    /* check the outputs before any work, so that nothing is half-written */
    if (!force && output && gp_path_exists(output))
        rc = gp_cli_input_error("translate", "%s: already exists; use --force to replace it",
                                output);
    else if (!force && report && gp_path_exists(report))
        rc = gp_cli_input_error("translate", "%s: already exists; use --force to replace it",
                                report);
    if (rc >= 0) {
        free(incs);
        free(defs);
        free(insts);
        return rc;
    }
    gp_translate_result res;
    gp_translate(in, NULL, 0, &to, &res);
    free(incs);
    free(defs);
    free(insts);
    if (res.status == GP_TRANSLATE_BAD_INPUT) {
        rc = gp_cli_input_error("translate", "%s", res.error);
        gp_translate_result_free(&res);
        return rc;
    }
    summary(res.report);
    rc = res.status == GP_TRANSLATE_OK ? GP_EXIT_OK : GP_EXIT_FAIL;
    if (report) {
        char *text = cJSON_Print(res.report);
        int w = text ? write_out(report, text, true) : GP_EXIT_INTERNAL;
        cJSON_free(text);
        if (w) rc = w;
    }
    /* the files first: a reader of stdout that stops early (| head) must not cost them */
    if (res.output && output) {
        int w = write_out(output, res.output, true);
        if (w) rc = w;
    }
    if (res.output && rc <= GP_EXIT_FAIL) run_lines(res.report, output);
    if (!res.output)
        fprintf(stderr,
                "gpuport translate: nothing was written%s: a kernel was refused; --partial writes "
                "the kernels that translated\n",
                output ? " (no -o file)" : "");
    if (json)
        gp_json_print(stdout, res.report);
    else if (res.output && !output)
        fputs(res.output, stdout);
    gp_translate_result_free(&res);
    return gp_cli_finish("translate", rc);
}

const gp_command gp_cmd_translate = {"translate", "rewrite CUDA kernels into the portable dialect",
                                     translate_run};
