/* cli/main.c — the `mink` command: dispatch, help, the shared option helpers, and `mink devices`.
 * Each other command has a file of its own (run.c, sample.c, demo.c, bench.c). */
#include <getopt.h>
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

/* Options through glibc's getopt_long, so they read as in every GNU tool: --dt=0.5 and --dt 0.5,
 * -ofile and -o file, "--" before a file named like an option. The table is turned into
 * getopt's two forms on the first call; long options return 1000 + their index. */
enum { LONG_BASE = 1000 };

static void options_start(cli_args *a) {
    int nl = 0, ns = 0;
    a->shorts[ns++] = '-'; /* plain arguments come back in order, as option 1 */
    a->shorts[ns++] = ':'; /* a missing value comes back as ':' */
    a->shorts[ns++] = 'h';
    for (int k = 0; a->table[k].name; k++) {
        const char *name = a->table[k].name;
        if (name[1] != '-') {
            a->shorts[ns++] = name[1];
            if (a->table[k].takes_value) a->shorts[ns++] = ':';
        } else {
            a->longs[nl++] = (struct option){name + 2, a->table[k].takes_value ? required_argument : no_argument,
                                             NULL, LONG_BASE + k};
        }
    }
    a->longs[nl++] = (struct option){"help", no_argument, NULL, 'h'};
    a->longs[nl] = (struct option){0};
    a->shorts[ns] = '\0';
    a->started = 1;
    optind = 0; /* glibc: start afresh */
    opterr = 0; /* the messages are ours */
}

static int plain_argument(cli_args *a, const char *arg, const char **value) {
    *value = arg;
    if (a->positional) return CLI_POSITIONAL;
    cli_usage_error(a->command, "unexpected argument '%s'", arg);
    return CLI_STOP;
}

int cli_next_option(cli_args *a, const char **value, int *exit_code) {
    *exit_code = MINK_EXIT_USAGE;
    if (!a->started) options_start(a);
    if (a->rest) return optind < a->argc ? plain_argument(a, a->argv[optind++], value) : CLI_END;
    int c = getopt_long(a->argc, a->argv, a->shorts, a->longs, NULL);
    const char *arg = a->argv[optind - 1];
    if (c == -1) {
        a->rest = 1; /* the end, or "--": what follows is plain */
        return cli_next_option(a, value, exit_code);
    }
    if (c == 1) return plain_argument(a, optarg, value);
    if (c == 'h') {
        fputs(a->usage, stdout);
        *exit_code = MINK_EXIT_OK;
        return CLI_STOP;
    }
    if (c == ':') return cli_usage_error(a->command, "option '%s' needs a value", arg), CLI_STOP;
    if (c == '?' && optopt >= LONG_BASE)
        return cli_usage_error(a->command, "option '%s' takes no value", a->table[optopt - LONG_BASE].name), CLI_STOP;
    if (c == '?' && optopt)
        return cli_usage_error(a->command, "unknown option '-%c'", optopt), CLI_STOP;
    if (c == '?') return cli_usage_error(a->command, "unknown option '%s'", arg), CLI_STOP;
    *value = optarg;
    if (c >= LONG_BASE) return c - LONG_BASE;
    for (int k = 0; a->table[k].name; k++)
        if (a->table[k].name[1] == c) return k;
    return cli_usage_error(a->command, "unknown option '%s'", arg), CLI_STOP;
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

/* Where PoCL keeps the kernels it compiled (its own rules: POCL_CACHE_DIR, else the XDG cache), so
 * a user knows what the first run's build left behind and what to remove. */
static void print_pocl_cache(void) {
    const char *off = getenv("POCL_KERNEL_CACHE"), *dir = getenv("POCL_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (off != NULL && strcmp(off, "0") == 0) {
        printf("      compiled kernels: not kept (POCL_KERNEL_CACHE=0): every run builds them\n");
    } else if (dir != NULL && dir[0] != '\0') {
        printf("      compiled kernels kept in %s (POCL_CACHE_DIR)\n", dir);
    } else if (xdg != NULL && xdg[0] != '\0') {
        printf("      compiled kernels kept in %s/pocl/kcache\n", xdg);
    } else if (home != NULL) {
        printf("      compiled kernels kept in %s/.cache/pocl/kcache\n", home);
    }
}

int cli_devices(int argc, char **argv) {
    static const cli_option table[] = {{NULL, 0}};
    cli_args args = {.command = "devices", .usage = cli_devices_usage, .table = table, .argc = argc, .argv = argv};
    for (const char *val;;) {
        int code, k = cli_next_option(&args, &val, &code);
        if (k == CLI_END) break;
        return code; /* devices takes no options: help, or a usage error */
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
        if (strstr(d->platform, "Portable Computing Language") != NULL) print_pocl_cache();
    }
    printf("a device builds its kernels in parts, each on first use: a batch kind's when that kind first\n"
           "runs there, a world's passes when a world is made, those for polygons and capsules at the first\n"
           "step that has them, the queries at the first query (seconds each; once cached, far less);\n"
           "batches --backend auto sends to the scalar path build nothing\n");
    printf(any_default ? "* = what --backend auto picks\n"
                       : "no usable device: --backend auto uses the scalar path\n");
    free(infos);
    return MINK_EXIT_OK;
}

/* ---- dispatch ------------------------------------------------------------------------------- */

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command's name */
    const char *usage;
} command;

static int cli_help(int argc, char **argv);

static const char cli_help_usage[] =
    "usage: mink help [COMMAND]\n"
    "\n"
    "Shows what mink does and its commands, or one command's options (as `mink COMMAND --help`).\n";

static const command commands[] = {
    {"run", cli_run, cli_run_usage},       {"sample", cli_sample, cli_sample_usage},
    {"demo", cli_demo, cli_demo_usage},    {"bench", cli_bench, cli_bench_usage},
    {"devices", cli_devices, cli_devices_usage}, {"help", cli_help, cli_help_usage},
};
enum { COMMANDS = sizeof commands / sizeof commands[0] };

static int cli_help(int argc, char **argv) {
    static const cli_option table[] = {{NULL, 0}};
    cli_args args = {.command = "help", .usage = cli_help_usage, .table = table, .argc = argc, .argv = argv, .positional = 1};
    const char *topic = NULL;
    for (const char *val;;) {
        int code, k = cli_next_option(&args, &val, &code);
        if (k == CLI_END) break;
        if (k == CLI_STOP) return code;
        if (topic) return cli_usage_error("help", "one command at a time (got '%s' and '%s')", topic, val);
        topic = val;
    }
    if (topic == NULL) return fputs(usage_text, stdout), MINK_EXIT_OK;
    for (int k = 0; k < COMMANDS; k++)
        if (!strcmp(topic, commands[k].name)) return fputs(commands[k].usage, stdout), MINK_EXIT_OK;
    return cli_usage_error("help", "unknown command '%s'", topic);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs(usage_text, stderr);
        return MINK_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (cli_is_help(cmd)) return fputs(usage_text, stdout), MINK_EXIT_OK;
    if (!strcmp(cmd, "--version"))
        return printf("mink %d.%d.%d\n", MINK_VERSION_MAJOR, MINK_VERSION_MINOR, MINK_VERSION_PATCH), MINK_EXIT_OK;
    for (int k = 0; k < COMMANDS; k++)
        if (!strcmp(cmd, commands[k].name)) return commands[k].run(argc - 1, argv + 1);
    if (cmd[0] == '-') return cli_usage_error(NULL, "unknown option '%s'", cmd);
    return cli_usage_error(NULL, "unknown command '%s'", cmd);
}
