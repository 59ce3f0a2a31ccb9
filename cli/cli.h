/* cli/cli.h — what the command's parts share: exit codes, option parsing, timing.
 *
 * The library never prints; the command does. Each command lives in its own file and returns
 * its exit code. */
#ifndef MINK_CLI_H
#define MINK_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include "mink/mink.h"

/// Exit codes, documented in `mink --help` and docs/formats.md.
enum {
    MINK_EXIT_OK = 0,       ///< success
    MINK_EXIT_FAILURE = 1,  ///< a runtime failure: no device, an I/O error, paths that differ
    MINK_EXIT_USAGE = 2,    ///< a usage error: unknown command or option, a missing or bad value
    MINK_EXIT_BAD_INPUT = 3 ///< a malformed input file (the message names file, line or record, column)
};

/// Prints "mink: COMMAND: message" and a hint to stderr; returns MINK_EXIT_USAGE.
int cli_usage_error(const char *command, const char *fmt, ...);
int cli_is_help(const char *arg);

/// Option parsing shared by the commands: a table of names, each taking a value or not.
typedef struct cli_option {
    const char *name;  ///< "--count"
    int takes_value;   ///< 1: the next argument is its value
} cli_option;

/// One command's arguments, for cli_next_option: argv[0] is the command's name.
typedef struct cli_args {
    const char *command;      ///< "run", for messages
    const char *usage;        ///< printed for -h and --help
    const cli_option *table;  ///< "-o" or "--output"; ends with a NULL name; at most 20
    int argc;
    char **argv;
    int positional;           ///< 1: plain arguments are the command's; 0: they are usage errors
    /* getopt_long's forms of the table, made on the first call */
    int started, rest;
    struct option longs[22];
    char shorts[64];
} cli_args;

enum { CLI_POSITIONAL = -1, CLI_STOP = -2, CLI_END = -3 };

/// The next option (getopt_long: --name=value, --name value, -xvalue, "--" ends the options).
/// Returns the option's index in the table with its value in *value, CLI_POSITIONAL for a plain
/// argument (in *value), CLI_END after the last, or CLI_STOP when the command must return
/// *exit_code at once (0 after printing its help, MINK_EXIT_USAGE after a usage error).
int cli_next_option(cli_args *args, const char **value, int *exit_code);

/// "auto", "scalar" or "opencl"; 0 when the word is none of them.
int cli_parse_backend(const char *word, mink_backend *out);
/// A whole number from lo to hi, written plainly or as 1e6.
int cli_parse_count(const char *word, double lo, double hi, size_t *out);
/// The same for an option's value; on a bad one prints the usage error and returns 0.
int cli_count_option(const char *command, const char *option, const char *value, double lo, double hi, size_t *out);
/// A seed: any unsigned number strtoull reads whole; on a bad one prints the usage error, returns 0.
int cli_seed_option(const char *command, const char *value, unsigned long long *out);
/// A finite float.
int cli_parse_float(const char *word, float *out);

double cli_now_s(void);

int cli_devices(int argc, char **argv);
int cli_run(int argc, char **argv);
int cli_sample(int argc, char **argv);
int cli_demo(int argc, char **argv);
/* What `mink demo` was asked (demo.c parses it for both scenes; 0 / NULL: the scene's default). */
typedef struct cli_demo_options {
    mink_context_desc desc;
    int crowd;        /* --scene crowd */
    size_t count;     /* --bullets or --bodies */
    size_t steps, rooms, size;
    unsigned long long seed;
    const char *out;
    int check;
} cli_demo_options;
int cli_demo_crowd(const cli_demo_options *o); /* mink demo --scene crowd (crowd.c) */
int cli_bench(int argc, char **argv);

extern const char cli_devices_usage[], cli_run_usage[], cli_sample_usage[], cli_demo_usage[],
    cli_bench_usage[];

#endif /* MINK_CLI_H */
