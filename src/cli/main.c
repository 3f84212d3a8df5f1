/* main.c — the `gpuport` entry point: finds the subcommand in the generated table and runs it.
 * Subcommands live one per file in src/cli/cmd_<name>.c. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli_commands.h"
#include "util/term.h"

static void print_help(FILE *f)
{
    fprintf(f, "usage: gpuport COMMAND [OPTIONS]\n\n"
               "Write GPU code once; run and trust it on CUDA, Metal, OpenCL and the CPU.\n\n"
               "Commands:\n");
    for (size_t i = 0; gp_commands[i]; i++)
        fprintf(f, "  %-10s %s\n", gp_commands[i]->name, gp_commands[i]->summary);
    fprintf(f, "\nRun 'gpuport COMMAND --help' for a command's options.\n"
               "Exit codes: 0 ok, 1 the check failed, 2 bad input or usage, 3 internal error.\n");
}

int main(int argc, char **argv)
{
    gp_term_init();
#if defined(SIGPIPE) /* Windows has no SIGPIPE: a write to a closed pipe fails there */
    /* A closed stdout ends gpuport as it ends any Unix tool, whatever the parent ignored. */
    signal(SIGPIPE, SIG_DFL);
#endif
    if (argc < 2) {
        print_help(stderr);
        return GP_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        print_help(stdout);
        return gp_cli_finish("help", GP_EXIT_OK);
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0)
        return gp_cli_finish("version", gp_cli_print_version());
    for (size_t i = 0; gp_commands[i]; i++) {
        if (strcmp(gp_commands[i]->name, name) == 0) {
            gp_cli_getopt_reset();
            gp_cli_detect_json(argc - 1, argv + 1);
            return gp_commands[i]->run(argc - 1, argv + 1);
        }
    }
    fprintf(stderr, "gpuport: unknown command '%s'\n", name);
    print_help(stderr);
    return GP_EXIT_USAGE;
}
