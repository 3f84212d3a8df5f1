/* cmd_audit.c — `gpuport audit [PATH...]`: argument parsing only; the work is in src/audit/. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit/audit.h"
#include "cli/cli.h"
#include "util/term.h"

static void audit_usage(void)
{
    printf(
        "usage: gpuport audit [options] [PATH...]\n"
        "\n"
        "Finds what in a code base is tied to CUDA and what a move to a Mac (PyTorch MPS, Metal)\n"
        "or the CPU costs: findings with rule, place, severity, explanation and fix; a verdict "
        "per\n"
        "module and for the project; and the stop conditions where a move should not be forced.\n"
        "PATH defaults to the current directory.\n"
        "\n"
        "Output:\n"
        "  --json                  the report as JSON (schema gpuport.audit/1)\n"
        "  --sarif                 the report as SARIF 2.1.0 (GitHub code scanning)\n"
        "  --format FMT            human, json or sarif; with --list-rules also markdown, text\n"
        "  --list-rules            print the rule table and exit\n"
        "  --fail-on LEVEL         exit 1 when a finding is at least LEVEL: error (default),\n"
        "                          warning, note, or never\n"
        "  --all                   list every finding in the human report (it shows at most 5\n"
        "                          a rule; JSON and SARIF hold them all)\n"
        "Scope:\n"
        "  --exclude GLOB          skip files and folders matching GLOB (name or relative path;\n"
        "                          repeatable)\n"
        "  --no-default-excludes   also scan .git, build outputs and vendored folders\n"
        "  --respect-gitignore     skip what .gitignore files ignore\n"
        "Baseline:\n"
        "  --baseline FILE         do not report (or fail on) findings listed in FILE\n"
        "  --write-baseline FILE   write every finding of this run to FILE\n"
        "Other:\n"
        "  -j, --jobs N            scanner threads (default: all cores)\n"
        "  --help, --version\n"
        "\n"
        "Suppress one finding with a comment on its line (or alone on the line before):\n"
        "  # gpuport: ignore[PY-DEV-001]      // gpuport: ignore[C-RT-001,C-LIB-001]\n"
        "\n"
        "Exit codes: 0 no finding at the --fail-on level, 1 there are, 2 bad input (a path that\n"
        "does not exist or cannot be read, nothing to scan, a bad baseline or option), 3 internal\n"
        "error.\n");
}

static int audit_run(int argc, char **argv)
{
    enum {
        O_JSON = 256,
        O_SARIF,
        O_FORMAT,
        O_LIST,
        O_FAIL,
        O_EXCLUDE,
        O_NODEF,
        O_GITIGN,
        O_BASE,
        O_WBASE,
        O_VERSION,
        O_HELP,
        O_ALL
    };
    static const struct option opts[] = {{"json", no_argument, NULL, O_JSON},
                                         {"sarif", no_argument, NULL, O_SARIF},
                                         {"format", required_argument, NULL, O_FORMAT},
                                         {"list-rules", no_argument, NULL, O_LIST},
                                         {"fail-on", required_argument, NULL, O_FAIL},
                                         {"exclude", required_argument, NULL, O_EXCLUDE},
                                         {"no-default-excludes", no_argument, NULL, O_NODEF},
                                         {"respect-gitignore", no_argument, NULL, O_GITIGN},
                                         {"baseline", required_argument, NULL, O_BASE},
                                         {"write-baseline", required_argument, NULL, O_WBASE},
                                         {"jobs", required_argument, NULL, 'j'},
                                         {"all", no_argument, NULL, O_ALL},
                                         {"version", no_argument, NULL, O_VERSION},
                                         {"help", no_argument, NULL, O_HELP},
                                         {NULL, 0, NULL, 0}};
    gp_audit_options o;
    memset(&o, 0, sizeof o);
    o.fail_on = GP_SEV_ERROR;
    const char *format = NULL;
    char format_spelled[64] = ""; /* how the format was asked for, for the message above */
    bool list = false;
    const char **excl = calloc((size_t)argc + 1, sizeof *excl);
    if (!excl) return gp_cli_internal_error("audit", "out of memory");
    int c, rc = -1;
    opterr = 0; /* the messages below name the option, once */
    while (rc < 0 && (c = getopt_long(argc, argv, ":j:h", opts, NULL)) != -1) {
        switch (c) {
        case O_JSON:
        case O_SARIF:
        case O_FORMAT: {
            /* one report per run: two different formats asked for is an error, not "the last
             * one wins" */
            const char *f = c == O_JSON ? "json" : c == O_SARIF ? "sarif" : optarg;
            char spelled[64];
            if (c == O_FORMAT)
                snprintf(spelled, sizeof spelled, "--format %s", optarg);
            else
                snprintf(spelled, sizeof spelled, "%s", c == O_JSON ? "--json" : "--sarif");
            if (format && strcmp(format, f) != 0)
                rc = gp_cli_usage_error("audit", "%s and %s asked for together: choose one format",
                                        format_spelled, spelled);
            format = f;
            snprintf(format_spelled, sizeof format_spelled, "%s", spelled);
            break;
        }
        case O_LIST:
            list = true;
            break;
        case O_FAIL:
            if (strcmp(optarg, "error") == 0)
                o.fail_on = GP_SEV_ERROR;
            else if (strcmp(optarg, "warning") == 0)
                o.fail_on = GP_SEV_WARNING;
            else if (strcmp(optarg, "note") == 0)
                o.fail_on = GP_SEV_NOTE;
            else if (strcmp(optarg, "never") == 0)
                o.fail_on = GP_SEV_NONE;
            else
                rc = gp_cli_usage_error(
                    "audit", "--fail-on takes error, warning, note or never, not '%s'", optarg);
            break;
        case O_EXCLUDE:
            excl[o.nexcludes++] = optarg;
            break;
        case O_NODEF:
            o.no_default_excludes = true;
            break;
        case O_GITIGN:
            o.respect_gitignore = true;
            break;
        case O_BASE:
            o.baseline = optarg;
            break;
        case O_WBASE:
            o.write_baseline = optarg;
            break;
        case O_ALL:
            o.all = true;
            break;
        case 'j': {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (*end || n < 1 || n > 256)
                rc = gp_cli_usage_error("audit", "-j takes a number from 1 to 256, not '%s'",
                                        optarg);
            else
                o.jobs = (int)n;
            break;
        }
        case O_VERSION:
            rc = gp_cli_print_version();
            break;
        case 'h':
        case O_HELP:
            audit_usage();
            rc = gp_cli_finish("audit", GP_EXIT_OK);
            break;
        case ':':
            rc = gp_cli_usage_error("audit", "%s needs a value", argv[optind - 1]);
            break;
        default:
            rc = gp_cli_bad_option("audit", argv, ":j:h");
            break;
        }
    }
    if (rc >= 0) {
        free(excl);
        return rc;
    }
    o.excludes = excl;
    struct stat wst;
    if (o.write_baseline && stat(o.write_baseline, &wst) == 0 && S_ISDIR(wst.st_mode)) {
        free(excl);
        return gp_cli_usage_error("audit", "--write-baseline %s: is a folder; give a file name",
                                  o.write_baseline);
    }
    if (list) {
        int r;
        if (!format || strcmp(format, "text") == 0 || strcmp(format, "human") == 0)
            r = gp_audit_rules_print_text(stdout);
        else if (strcmp(format, "markdown") == 0)
            r = gp_audit_rules_print_markdown(stdout);
        else if (strcmp(format, "json") == 0)
            r = gp_audit_rules_print_json(stdout);
        else {
            free(excl);
            return gp_cli_usage_error(
                "audit", "--list-rules prints text, markdown or json, not '%s'", format);
        }
        free(excl);
        if (r != 0) return gp_cli_internal_error("audit", "cannot write the rule table");
        return gp_cli_finish("audit", GP_EXIT_OK);
    }
    if (!format || strcmp(format, "human") == 0)
        o.format = GP_AUDIT_HUMAN;
    else if (strcmp(format, "json") == 0)
        o.format = GP_AUDIT_JSON;
    else if (strcmp(format, "sarif") == 0)
        o.format = GP_AUDIT_SARIF;
    else {
        free(excl);
        return gp_cli_usage_error("audit", "--format takes human, json or sarif, not '%s'", format);
    }
    o.paths = (const char *const *)(argv + optind);
    o.npaths = (size_t)(argc - optind);
    o.progress = gp_term_is_terminal(stderr);
    char msg[1200];
    int code = gp_audit_run(&o, stdout, msg, sizeof msg);
    free(excl);
    if (code == GP_EXIT_OK || code == GP_EXIT_FAIL) return gp_cli_finish("audit", code);
    if (!msg[0]) return code;
    if (code == GP_EXIT_INTERNAL) return gp_cli_internal_error("audit", "%s", msg);
    return gp_cli_input_error("audit", "%s", msg);
}

const gp_command gp_cmd_audit = {
    "audit", "find what is tied to CUDA and what a move to a Mac or the CPU costs", audit_run};
