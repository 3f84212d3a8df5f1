/* cmd_freeze.c — `gpuport freeze`: record what a run needs to be reproduced (a JSON manifest),
 * and `gpuport freeze --diff A B`: what differs between two runs that can change results. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "freeze/freeze.h"
#include "util/fs.h"
#include "util/json.h"
#include "util/term.h"

static const char freeze_usage[] =
    "usage: gpuport freeze [--data PATH]... [--seed NAME=VALUE]... [-o FILE [--force]]\n"
    "       gpuport freeze --diff A.json B.json [--all] [--json]\n"
    "\n"
    "Records what a run needs to be reproduced and compared: OS and CPU, compilers, the Python in\n"
    "use and its installed distributions, the conda environment, the environment variables that\n"
    "change results, the git commit and dirty state, the size and SHA-256 of every data file, and\n"
    "the seeds. The manifest (schema gpuport.freeze/1) goes to stdout or to FILE.\n"
    "\n"
    "  --data PATH        hash this file, or every file below this folder (repeatable)\n"
    "  --seed NAME=VALUE  record a seed the run used (repeatable)\n"
    "  -o, --output FILE  write the manifest to FILE (atomically; an existing FILE needs --force)\n"
    "  --force            allow -o to replace an existing file\n"
    "  --python PATH      describe this interpreter instead of python3 on PATH\n"
    "  --no-python        do not describe a Python (starts no interpreter)\n"
    "  --mps-report FILE  record a gpuport mps-check report's verdict and the operators that ran\n"
    "                     on the CPU (gpuport mps-check --output FILE)\n"
    "  -j, --jobs N       hash with N threads (default: one per core)\n"
    "  --diff A B         compare two manifests; exit 1 when something that can change results\n"
    "                     differs (backend, fallback setting, library versions, data hashes...)\n"
    "  --all              with --diff, also show differences that cannot change results\n"
    "  --json             with --diff, print the differences as JSON (gpuport.freeze-diff/1)\n"
    "  -h, --help         this help;  --version  the version\n"
    "\n"
    "Exit codes: 0 recorded / no difference that matters, 1 differences that matter,\n"
    "2 bad input (unreadable data path, malformed manifest, usage), 3 internal error.\n";

static int freeze_diff(const char *pa, const char *pb, bool all, bool json)
{
    char err[1024];
    gp_freeze_manifest a, b;
    if (gp_freeze_load(pa, &a, err, sizeof err) != 0)
        return gp_cli_input_error("freeze", "%s", err);
    if (gp_freeze_load(pb, &b, err, sizeof err) != 0) {
        gp_freeze_manifest_free(&a);
        return gp_cli_input_error("freeze", "%s", err);
    }
    gp_freeze_diff d;
    int drc = gp_freeze_diff_manifests(&a, &b, &d);
    gp_freeze_manifest_free(&a);
    gp_freeze_manifest_free(&b);
    if (drc != 0) return gp_cli_internal_error("freeze", "out of memory comparing manifests");
    size_t matters = 0;
    for (size_t i = 0; i < d.count; i++)
        matters += d.changes[i].matters;
    if (json) {
        cJSON *o = gp_freeze_diff_json(&d, pa, pb);
        gp_json_print(stdout, o);
        cJSON_Delete(o);
    } else {
        const char *bold = gp_term_color(stdout, GP_COLOR_BOLD);
        const char *red = gp_term_color(stdout, GP_COLOR_RED);
        const char *dim = gp_term_color(stdout, GP_COLOR_DIM);
        const char *off = gp_term_color(stdout, GP_COLOR_RESET);
        /* paths, keys and values come from the manifests: escaped for the terminal */
        char s1[GP_TERM_SAFE_MAX], s2[GP_TERM_SAFE_MAX];
        printf("%sA%s %s\n%sB%s %s\n\n", bold, off, gp_term_safe(pa, s1, sizeof s1), bold, off,
               gp_term_safe(pb, s2, sizeof s2));
        const char *area = "";
        for (size_t i = 0; i < d.count; i++) {
            const gp_freeze_change *c = &d.changes[i];
            if (!c->matters && !all) continue;
            if (strcmp(area, c->area) != 0)
                printf("%s%s%s\n", bold, gp_term_safe(area = c->area, s1, sizeof s1), off);
            printf("  %s%s %s%s\n", c->matters ? red : dim, c->matters ? "!" : " ",
                   gp_term_safe(c->key, s1, sizeof s1), off);
            printf("      A: %s\n", c->a ? gp_term_safe(c->a, s1, sizeof s1) : "(absent)");
            printf("      B: %s\n", c->b ? gp_term_safe(c->b, s2, sizeof s2) : "(absent)");
        }
        if (matters == 0)
            printf("No difference that can change results (%zu informational).\n", d.count);
        else
            printf("%zu difference%s that can change results%s.\n", matters,
                   matters == 1 ? "" : "s", all ? "" : " (--all shows the informational ones too)");
    }
    gp_freeze_diff_free(&d);
    return gp_cli_finish("freeze", matters ? GP_EXIT_FAIL : GP_EXIT_OK);
}

static int freeze_run(int argc, char **argv)
{
    enum {
        OPT_SEED = 256,
        OPT_DATA,
        OPT_FORCE,
        OPT_PYTHON,
        OPT_NO_PYTHON,
        OPT_DIFF,
        OPT_ALL,
        OPT_JSON,
        OPT_VERSION,
        OPT_MPS_REPORT
    };
    static const struct option opts[] = {{"data", required_argument, NULL, OPT_DATA},
                                         {"seed", required_argument, NULL, OPT_SEED},
                                         {"output", required_argument, NULL, 'o'},
                                         {"force", no_argument, NULL, OPT_FORCE},
                                         {"python", required_argument, NULL, OPT_PYTHON},
                                         {"no-python", no_argument, NULL, OPT_NO_PYTHON},
                                         {"mps-report", required_argument, NULL, OPT_MPS_REPORT},
                                         {"jobs", required_argument, NULL, 'j'},
                                         {"diff", no_argument, NULL, OPT_DIFF},
                                         {"all", no_argument, NULL, OPT_ALL},
                                         {"json", no_argument, NULL, OPT_JSON},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, OPT_VERSION},
                                         {NULL, 0, NULL, 0}};
    gp_freeze_options fo = {0};
    const char **data = calloc((size_t)argc + 1, sizeof *data);
    gp_freeze_seed *seeds = calloc((size_t)argc + 1, sizeof *seeds);
    const char *output = NULL;
    bool force = false, diff = false, all = false, json = false;
    int rc = -1, c;
    if (!data || !seeds) {
        rc = gp_cli_internal_error("freeze", "out of memory");
        goto done;
    }
    while (rc < 0 && (c = getopt_long(argc, argv, "ho:j:", opts, NULL)) != -1) {
        switch (c) {
        case OPT_DATA:
            data[fo.data_count++] = optarg;
            break;
        case OPT_SEED: {
            char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg) {
                rc = gp_cli_usage_error("freeze", "--seed needs NAME=VALUE, got '%s'", optarg);
                break;
            }
            *eq = '\0';
            for (size_t i = 0; i < fo.seed_count; i++)
                if (strcmp(seeds[i].name, optarg) == 0)
                    rc = gp_cli_usage_error("freeze", "seed '%s' given twice", optarg);
            seeds[fo.seed_count].name = optarg;
            seeds[fo.seed_count++].value = eq + 1;
            break;
        }
        case 'o':
            output = optarg;
            break;
        case OPT_FORCE:
            force = true;
            break;
        case OPT_PYTHON:
            fo.python = optarg;
            break;
        case OPT_NO_PYTHON:
            fo.no_python = true;
            break;
        case OPT_MPS_REPORT:
            fo.mps_report = optarg;
            break;
        case 'j': {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (*end || n < 1 || n > 256)
                rc = gp_cli_usage_error("freeze", "--jobs needs a number from 1 to 256");
            fo.threads = (int)n;
            break;
        }
        case OPT_DIFF:
            diff = true;
            break;
        case OPT_ALL:
            all = true;
            break;
        case OPT_JSON:
            json = true;
            break;
        case 'h':
            printf("%s", freeze_usage);
            rc = gp_cli_finish("freeze", GP_EXIT_OK);
            break;
        case OPT_VERSION:
            rc = gp_cli_print_version();
            break;
        default:
            rc = gp_cli_bad_option("freeze", argv, "ho:j:");
            break;
        }
    }
    if (rc >= 0) goto done;
    if (diff) {
        if (argc - optind != 2) {
            rc = gp_cli_usage_error("freeze", "--diff needs two manifests, A and B");
        } else if (fo.data_count || fo.seed_count || output || fo.mps_report) {
            rc = gp_cli_usage_error("freeze",
                                    "--diff takes no --data, --seed, --mps-report or --output");
        } else {
            rc = freeze_diff(argv[optind], argv[optind + 1], all, json);
        }
        goto done;
    }
    if (optind < argc) {
        rc = gp_cli_usage_error("freeze", "unexpected argument '%s' (data files go after --data)",
                                argv[optind]);
        goto done;
    }
    if (output && !force && gp_path_exists(output)) {
        rc = gp_cli_input_error("freeze", "%s: already exists; use --force to replace it", output);
        goto done;
    }
    fo.data_paths = data;
    fo.seeds = seeds;
    char err[1024];
    cJSON *m = gp_freeze_collect(&fo, err, sizeof err);
    if (!m) {
        rc = gp_cli_input_error("freeze", "%s", err);
        goto done;
    }
    char *text = cJSON_Print(m);
    cJSON_Delete(m);
    if (!text) {
        rc = gp_cli_internal_error("freeze", "cannot render the manifest");
        goto done;
    }
    if (output) {
        size_t n = strlen(text);
        char *withnl = malloc(n + 2);
        if (withnl) {
            memcpy(withnl, text, n);
            withnl[n] = '\n';
        }
        if (!withnl || gp_write_file_atomic(output, withnl, n + 1, err, sizeof err) != 0)
            rc = gp_cli_input_error("freeze", "%s", withnl ? err : "out of memory");
        else
            rc = GP_EXIT_OK;
        free(withnl);
    } else {
        puts(text);
        rc = gp_cli_finish("freeze", GP_EXIT_OK);
    }
    cJSON_free(text);
done:
    free(data);
    free(seeds);
    return rc;
}

const gp_command gp_cmd_freeze = {
    "freeze", "record a run's environment and data to reproduce and compare it", freeze_run};
