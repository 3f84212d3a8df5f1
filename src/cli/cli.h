/* cli.h — what every subcommand shares: its table entry, the exit codes, and the messages for
 * usage and input errors. Each src/cli/cmd_<name>.c defines `const gp_command gp_cmd_<name>`;
 * the build generates the table from the file names. */
#ifndef GP_CLI_CLI_H
#define GP_CLI_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "util/compiler.h"

typedef struct gp_command {
    const char *name;    /* "doctor" */
    const char *summary; /* one line for `gpuport --help` */
    /* argv[0] is the subcommand's name; returns an exit code. */
    int (*run)(int argc, char **argv);
} gp_command;

/* The exit codes of every subcommand (DESIGN.md). */
enum {
    GP_EXIT_OK = 0,       /* ok / pass */
    GP_EXIT_FAIL = 1,     /* the check failed: findings, tolerance exceeded, no image */
    GP_EXIT_USAGE = 2,    /* the input is wrong: usage, unreadable or malformed file */
    GP_EXIT_INTERNAL = 3, /* internal error */
};

/* Prints "gpuport CMD: MESSAGE" and "Try 'gpuport CMD --help'." on stderr; returns 2. */
int gp_cli_usage_error(const char *cmd, const char *fmt, ...) GP_PRINTF_LIKE(2, 3);
/* Prints "gpuport CMD: MESSAGE" on stderr (the message names the file); returns 2. */
int gp_cli_input_error(const char *cmd, const char *fmt, ...) GP_PRINTF_LIKE(2, 3);
/* Prints "gpuport CMD: internal error: MESSAGE" on stderr; returns 3. */
int gp_cli_internal_error(const char *cmd, const char *fmt, ...) GP_PRINTF_LIKE(2, 3);
/* Prints "gpuport VERSION" on stdout; returns 0. */
int gp_cli_print_version(void);
/* Flushes stdout and turns a write error (a full disk, a closed pipe) into exit code 3. */
int gp_cli_finish(const char *cmd, int code);
/* The options of a subcommand that takes only --json, --help and --version: parses them, sets
 * *json, and returns -1 to go on (optind then points at the first operand) or the exit code to
 * return (after --help, --version or an unknown option). `usage` prints the help on stdout. */
int gp_cli_parse_plain(const char *cmd, int argc, char **argv, void (*usage)(void), bool *json);
/* Resets getopt so that a subcommand can parse its own argv (also when run twice in tests). */
void gp_cli_getopt_reset(void);

#endif
