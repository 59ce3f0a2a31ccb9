/* cli/main.c — the `mink` command: dispatch, help, the shared option helpers, and `mink devices`.
 * Each other command has a file of its own (run.c, sample.c, demo.c, bench.c). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const char usage_text[] =
    "usage: mink COMMAND [OPTIONS]\n"
    "\n"
    "Batched continuous collision queries on OpenCL devices, with a bit-identical scalar path.\n"
    "\n"
    "commands:\n"
    "  run       sweep a batch file of pairs (CSV or binary) and write one result per pair\n"
    "  sample    write a random batch file, to try `mink run` on\n"
    "  demo      a bullet-hell scene through the world: steps per second, tunnelled bullets (0),\n"
    "            and a PNG picture of the paths and hit points\n"
    "  bench     measure pairs per second against batch size on each backend; CSV and a plot\n"
    "  devices   list the OpenCL devices and mark the one --backend auto picks\n"
    "  help      show this text, or `mink help COMMAND`\n"
    "\n"
    "options:\n"
    "  -h, --help     show help (also `mink COMMAND --help`)\n"
    "  --version      print the version\n"
    "\n"
    "exit codes: 0 success, 1 runtime failure, 2 usage error, 3 malformed input file\n"
    "File formats: docs/formats.md.\n";

const char cli_devices_usage[] =
    "usage: mink devices\n"
    "\n"
    "Lists every OpenCL device with its limits; '*' marks the one --backend auto picks.\n";

/* ---- shared helpers ------------------------------------------------------------------------- */

int cli_usage_error(const char *command, const char *fmt, ...) {
    fprintf(stderr, "mink: %s%s", command ? command : "", command ? ": " : "");
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'mink %s%s--help'.\n", command ? command : "", command ? " " : "");
    return MINK_EXIT_USAGE;
}

int cli_is_help(const char *arg) { return !strcmp(arg, "-h") || !strcmp(arg, "--help"); }

int cli_next_option(const cli_args *a, int *i, const char **value, int *exit_code) {
    const char *arg = a->argv[(*i)++];
    *exit_code = MINK_EXIT_USAGE;
    if (cli_is_help(arg)) {
        fputs(a->usage, stdout);
        *exit_code = MINK_EXIT_OK;
        return CLI_STOP;
    }
    if (arg[0] != '-' || !strcmp(arg, "-")) {
        *value = arg;
        if (a->positional) return CLI_POSITIONAL;
        cli_usage_error(a->command, "unexpected argument '%s'", arg);
        return CLI_STOP;
    }
    for (int k = 0; a->table[k].name; k++) {
        if (strcmp(arg, a->table[k].name)) continue;
        if (a->table[k].takes_value) {
            if (*i >= a->argc) return cli_usage_error(a->command, "option '%s' needs a value", arg), CLI_STOP;
            *value = a->argv[(*i)++];
        }
        return k;
    }
    cli_usage_error(a->command, "unknown option '%s'", arg);
    return CLI_STOP;
}

int cli_parse_backend(const char *word, mink_backend *out) {
    if (!strcmp(word, "auto")) *out = MINK_BACKEND_AUTO;
    else if (!strcmp(word, "scalar")) *out = MINK_BACKEND_SCALAR;
    else if (!strcmp(word, "opencl")) *out = MINK_BACKEND_OPENCL;
    else return 0;
    return 1;
}

int cli_parse_count(const char *word, double lo, double hi, size_t *out) {
    char *end = NULL;
    double v = strtod(word, &end);
    if (end == word || *end != '\0' || !(v >= lo) || !(v <= hi) || v != floor(v)) return 0;
    *out = (size_t)v;
    return 1;
}

int cli_count_option(const char *command, const char *option, const char *value, double lo, double hi, size_t *out) {
    if (cli_parse_count(value, lo, hi, out)) return 1;
    cli_usage_error(command, "%s needs a whole number from %g to %g, not '%s'", option, lo, hi, value);
    return 0;
}

int cli_seed_option(const char *command, const char *value, unsigned long long *out) {
    char *end = NULL;
    *out = strtoull(value, &end, 0);
    if (end != value && *end == '\0') return 1;
    cli_usage_error(command, "--seed needs a number, not '%s'", value);
    return 0;
}

int cli_parse_float(const char *word, float *out) {
    char *end = NULL;
    float v = strtof(word, &end);
    if (end == word || *end != '\0' || !isfinite(v)) return 0;
    *out = v;
    return 1;
}

double cli_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- mink devices --------------------------------------------------------------------------- */

int cli_devices(int argc, char **argv) {
    for (int i = 0; i < argc; i++) {
        if (cli_is_help(argv[i])) return fputs(cli_devices_usage, stdout), MINK_EXIT_OK;
        return cli_usage_error("devices", "unknown option '%s'", argv[i]);
    }
    size_t count = 0;
    if (mink_device_list(NULL, 0, &count) != MINK_OK) {
        fprintf(stderr, "mink: %s\n", mink_last_error());
        return MINK_EXIT_FAILURE;
    }
    if (count == 0) {
        printf("no OpenCL platform or device found: --backend auto uses the scalar path\n");
        return MINK_EXIT_OK;
    }
    mink_device_info *infos = calloc(count, sizeof *infos);
    if (infos == NULL || mink_device_list(infos, count, &count) != MINK_OK) {
        fprintf(stderr, "mink: %s\n", infos ? mink_last_error() : "out of memory");
        free(infos);
        return MINK_EXIT_FAILURE;
    }
    int any_default = 0;
    for (size_t i = 0; i < count; i++) {
        const mink_device_info *d = &infos[i];
        any_default |= d->is_default;
        printf("%c %zu: %s (%s)\n", d->is_default ? '*' : ' ', i, d->name, d->platform);
        printf("      %s, %s, %u compute units, %.1f GiB memory, %.1f GiB largest allocation\n",
               d->is_gpu ? "GPU" : "not a GPU", d->version, d->compute_units,
               (double)d->global_mem / (1u << 30), (double)d->max_alloc / (1u << 30));
        if (!d->usable) printf("      not usable: %s\n", d->reason);
    }
    printf(any_default ? "* = what --backend auto picks\n"
                       : "no usable device: --backend auto uses the scalar path\n");
    free(infos);
    return MINK_EXIT_OK;
}

/* ---- dispatch ------------------------------------------------------------------------------- */

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
} command;

static const command commands[] = {
    {"run", cli_run, cli_run_usage},       {"sample", cli_sample, cli_sample_usage},
    {"demo", cli_demo, cli_demo_usage},    {"bench", cli_bench, cli_bench_usage},
    {"devices", cli_devices, cli_devices_usage},
};
enum { COMMANDS = sizeof commands / sizeof commands[0] };

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs(usage_text, stderr);
        return MINK_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (cli_is_help(cmd)) return fputs(usage_text, stdout), MINK_EXIT_OK;
    if (!strcmp(cmd, "--version"))
        return printf("mink %d.%d.%d\n", MINK_VERSION_MAJOR, MINK_VERSION_MINOR, MINK_VERSION_PATCH), MINK_EXIT_OK;
    if (!strcmp(cmd, "help")) {
        if (argc < 3) return fputs(usage_text, stdout), MINK_EXIT_OK;
        for (int k = 0; k < COMMANDS; k++)
            if (!strcmp(argv[2], commands[k].name)) return fputs(commands[k].usage, stdout), MINK_EXIT_OK;
        return cli_usage_error("help", "unknown command '%s'", argv[2]);
    }
    for (int k = 0; k < COMMANDS; k++)
        if (!strcmp(cmd, commands[k].name)) return commands[k].run(argc - 2, argv + 2);
    if (cmd[0] == '-') return cli_usage_error(NULL, "unknown option '%s'", cmd);
    return cli_usage_error(NULL, "unknown command '%s'", cmd);
}
