/* cli.h — what every subcommand shares: its table entry, the exit codes, and the messages for
 * usage and input errors. Each src/cli/cmd_<name>.c defines `const gp_command gp_cmd_<name>`;
 * the build generates the table from the file names.
 *
 * The conventions every command gets from here: an error is printed once, on stderr, as
 * "gpuport CMD: MESSAGE" with control characters escaped; with --json anywhere before "--" on
 * the command line, the same error also goes to stdout as one JSON object (schema
 * gpuport.error/1, docs/json.md) unless the command already printed its document; getopt prints
 * nothing itself (gp_cli_bad_option names the option); a closed stdout (the reader of a pipe went
 * away: `gpuport audit . | head`) ends the command quietly, by SIGPIPE, as Unix tools end. */
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

/* Prints "gpuport CMD: MESSAGE" and "Try 'gpuport CMD --help'." on stderr (and the JSON error
 * object, see above); returns 2. */
int gp_cli_usage_error(const char *cmd, const char *fmt, ...) GP_PRINTF_LIKE(2, 3);
/* Prints "gpuport CMD: MESSAGE" on stderr (the message names the file); returns 2. */
int gp_cli_input_error(const char *cmd, const char *fmt, ...) GP_PRINTF_LIKE(2, 3);
/* Prints "gpuport CMD: internal error: MESSAGE" on stderr; returns 3. */
int gp_cli_internal_error(const char *cmd, const char *fmt, ...) GP_PRINTF_LIKE(2, 3);
/* The message for the option getopt_long just refused ('?'), named from argv and optopt:
 * "unknown option '--bogus'", "option '--cc' needs a value", "option '--json' takes no value".
 * `shortopts` is the optstring given to getopt_long. A usage error: returns 2. */
int gp_cli_bad_option(const char *cmd, char **argv, const char *shortopts);
/* main() calls it with the subcommand's arguments: whether --json was asked for. */
void gp_cli_detect_json(int argc, char **argv);
/* Prints "gpuport VERSION" on stdout; returns 0. */
int gp_cli_print_version(void);
/* Flushes stdout and turns a write error (a full disk) into exit code 3; a closed pipe ends the
 * process quietly by SIGPIPE instead, as it ends any Unix tool. */
int gp_cli_finish(const char *cmd, int code);
/* The options of a subcommand that takes only --json, --help and --version: parses them, sets
 * *json, and returns -1 to go on (optind then points at the first operand) or the exit code to
 * return (after --help, --version or an unknown option). `usage` prints the help on stdout. */
int gp_cli_parse_plain(const char *cmd, int argc, char **argv, void (*usage)(void), bool *json);
/* Resets getopt so that a subcommand can parse its own argv (also when run twice in tests), and
 * silences getopt's own messages (the command prints one, gp_cli_bad_option). */
void gp_cli_getopt_reset(void);

#endif
