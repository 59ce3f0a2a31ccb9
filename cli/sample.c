/* cli/sample.c — `mink sample`: a random batch file, the same bits for the same seed anywhere. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch_file.h"
#include "cli.h"
#include "outfile.h"
#include "mink/sample.h"

const char cli_sample_usage[] =
    "usage: mink sample [--count N] [--seed S] [--kind K] [--format csv|binary] [-o FILE]\n"
    "\n"
    "Writes N pairs (default 1000) made from seed S (default 1) as a batch file for `mink run`.\n"
    "  --kind K    mixed (boxes and circles, default), polygon (polygon pairs) or rotating\n"
    "              (bodies of every shape, most of them turning)\n"
    "  --format F  csv (default) or binary\n"
    "  -o FILE     write here instead of standard output\n";

enum { SAMPLE_CHUNK = 65536 };

static void make_pairs(const char *kind, uint64_t seed, size_t count, mink_pair *out, mink_polygon_pair *tmp) {
    if (!strcmp(kind, "mixed")) return mink_sample_pairs(seed, count, out);
    if (!strcmp(kind, "rotating")) return mink_sample_rotating_pairs(seed, count, out);
    mink_sample_polygon_pairs(seed, count, 0, tmp);
    for (size_t i = 0; i < count; i++) {
        out[i].a = mink_body_polygon(tmp[i].a, tmp[i].va);
        out[i].b = mink_body_polygon(tmp[i].b, tmp[i].vb);
    }
}

int cli_sample(int argc, char **argv) {
    static const cli_option table[] = {{"--count", 1}, {"--seed", 1}, {"--kind", 1}, {"--format", 1},
                                       {"-o", 1},      {"--output", 1}, {NULL, 0}};
    size_t count = 1000;
    unsigned long long seed = 1;
    const char *kind = "mixed", *path = NULL;
    cli_format format = CLI_FORMAT_CSV;
    cli_args args = {.command = "sample", .usage = cli_sample_usage, .table = table, .argc = argc, .argv = argv};
    for (const char *val;;) {
        int code, k = cli_next_option(&args, &val, &code);
        if (k == CLI_END) break;
        if (k == CLI_STOP) return code;
        const char *name = table[k].name;
        if (!strcmp(name, "--count")) {
            if (!cli_count_option("sample", name, val, 0, 1e12, &count)) return MINK_EXIT_USAGE;
        } else if (!strcmp(name, "--seed")) {
            if (!cli_seed_option("sample", val, &seed)) return MINK_EXIT_USAGE;
        } else if (!strcmp(name, "--kind")) {
            if (strcmp(val, "mixed") && strcmp(val, "polygon") && strcmp(val, "rotating"))
                return cli_usage_error("sample", "--kind is mixed, polygon or rotating, not '%s'", val);
            kind = val;
        } else if (!strcmp(name, "--format")) {
            if (!strcmp(val, "csv")) format = CLI_FORMAT_CSV;
            else if (!strcmp(val, "binary")) format = CLI_FORMAT_BINARY;
            else return cli_usage_error("sample", "--format is csv or binary, not '%s'", val);
        } else {
            path = val;
        }
    }
    int to_stdout = path == NULL || !strcmp(path, "-");
    if (to_stdout && format == CLI_FORMAT_BINARY && isatty(STDOUT_FILENO))
        return cli_usage_error("sample", "binary output to a terminal: give -o FILE or --format csv");
    cli_outfile out = {0};
    char message[2 * CLI_PATH_MAX];
    if (!to_stdout && cli_outfile_open(&out, path, message, sizeof message) != 0) {
        fprintf(stderr, "mink: sample: %s\n", message);
        return MINK_EXIT_FAILURE;
    }
    FILE *f = to_stdout ? stdout : out.file;
    /* Written in chunks, each from its own seed, so memory stays small for any count. */
    size_t chunk = count < SAMPLE_CHUNK ? count : SAMPLE_CHUNK;
    mink_pair *pairs = malloc((chunk ? chunk : 1) * sizeof *pairs);
    mink_polygon_pair *tmp = malloc((chunk ? chunk : 1) * sizeof *tmp);
    int ok = pairs && tmp && cli_write_pairs_header(f, format) == 0;
    for (size_t done = 0, c = 0; ok && done < count; done += chunk, c++) {
        size_t n = count - done < chunk ? count - done : chunk;
        make_pairs(kind, seed + c * 0x9e3779b97f4a7c15ull, n, pairs, tmp);
        ok = cli_write_pairs(f, format, pairs, n) == 0;
    }
    ok = ok && cli_write_finish(f, format, count) == 0;
    int err = errno, memory = pairs && tmp;
    free(pairs);
    free(tmp);
    if (!ok) {
        cli_outfile_discard(&out);
        fprintf(stderr, "mink: sample: writing %s: %s\n", to_stdout ? "<stdout>" : path,
                memory ? strerror(err) : "out of memory");
        return MINK_EXIT_FAILURE;
    }
    if (to_stdout ? fflush(f) != 0 : cli_outfile_commit(&out, message, sizeof message) != 0) {
        fprintf(stderr, "mink: sample: %s\n", to_stdout ? strerror(errno) : message);
        return MINK_EXIT_FAILURE;
    }
    return MINK_EXIT_OK;
}
