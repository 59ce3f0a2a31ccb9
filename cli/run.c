/* cli/run.c — `mink run`: a batch file in, one result per pair out, streamed chunk by chunk.
 *
 * A reader thread parses the next chunk while the device sweeps this one, so reading and
 * sweeping overlap and memory stays two chunks whatever the input's size. The output is put in
 * place only on success (outfile.h): a failure, a bad row or a signal leaves no half-written
 * output. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch_file.h"
#include "cli.h"
#include "outfile.h"

const char cli_run_usage[] =
    "usage: mink run [OPTIONS] [INPUT] [-o OUTPUT]\n"
    "\n"
    "Reads a batch of pairs (CSV or binary, told apart by the first bytes; '-' or nothing is\n"
    "standard input), sweeps each pair over one step and writes one result per pair, in order,\n"
    "to OUTPUT (default standard output). The formats are in docs/formats.md.\n"
    "\n"
    "  -o, --output FILE  write here, put in place only on success (a FIFO or a device is\n"
    "                     written through)\n"
    "  --format F         csv or binary output (default: the input's format)\n"
    "  --backend B        auto (default: best OpenCL device, else scalar), scalar or opencl\n"
    "  --device NAME      an OpenCL device whose \"name (platform)\" contains NAME\n"
    "  --dt DT            the step (default 1; finite, >= 0)\n"
    "  --check            also sweep on the scalar path and compare every result bit for bit\n"
    "  --chunk N          pairs read and swept at a time (default 65536): memory is two chunks\n"
    "  -q, --quiet        no progress bar and no summary\n"
    "\n"
    "A progress bar is drawn on standard error when it is a terminal; a one-line summary follows.\n"
    "exit codes: 0 success, 1 runtime failure (device, I/O, --check mismatch), 2 usage error,\n"
    "            3 malformed input (the message names file, line or record, and column)\n";

/* ---- the reader thread ---------------------------------------------------------------------- */

typedef struct slot {
    mink_pair *pairs;
    size_t count;    /* 0: the end of the input */
    uint64_t bytes;  /* input bytes consumed once this chunk was read */
    int error;       /* the reader failed: its message is in reader.error */
    int full;        /* ready for the sweeping thread */
} slot;

typedef struct pipeline {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    slot slots[2];
    cli_reader *reader;
    size_t chunk;
    int stop; /* the sweeping side gave up: the reader ends too */
} pipeline;

static void *reader_main(void *arg) {
    pipeline *p = arg;
    for (int k = 0;; k ^= 1) {
        slot *s = &p->slots[k];
        pthread_mutex_lock(&p->mu);
        while (s->full && !p->stop) pthread_cond_wait(&p->cv, &p->mu);
        int stop = p->stop;
        pthread_mutex_unlock(&p->mu);
        if (stop) return NULL;
        size_t n = 0;
        int error = cli_reader_read(p->reader, s->pairs, p->chunk, &n) != 0;
        pthread_mutex_lock(&p->mu);
        s->count = n;
        s->error = error;
        s->bytes = p->reader->bytes;
        s->full = 1;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        if (error || n == 0) return NULL;
    }
}

/* ---- progress ------------------------------------------------------------------------------- */

typedef struct progress {
    int on;
    uint64_t total_bytes; /* 0: unknown (a pipe) */
    double start, last;
} progress;

static void progress_draw(progress *pg, uint64_t pairs, uint64_t bytes, int final) {
    if (!pg->on) return;
    double now = cli_now_s();
    if (!final && now - pg->last < 0.1) return;
    pg->last = now;
    double rate = pairs / (now - pg->start > 1e-9 ? now - pg->start : 1e-9);
    if (final) {
        fputs("\r\033[K", stderr);
        return;
    }
    if (pg->total_bytes > 0) {
        double frac = (double)bytes / (double)pg->total_bytes;
        if (frac > 1.0) frac = 1.0;
        char bar[31];
        int fill = (int)(frac * 30.0);
        for (int i = 0; i < 30; i++) bar[i] = i < fill ? '#' : '-';
        bar[30] = '\0';
        double left = frac > 0.0 ? (now - pg->start) * (1.0 - frac) / frac : 0.0;
        fprintf(stderr, "\r[%s] %3.0f%%  %llu pairs  %.3g M pairs/s  %.0f s left\033[K", bar, frac * 100.0,
                (unsigned long long)pairs, rate * 1e-6, left);
    } else {
        fprintf(stderr, "\r%llu pairs  %.3g M pairs/s\033[K", (unsigned long long)pairs, rate * 1e-6);
    }
}

/* ---- the command ---------------------------------------------------------------------------- */

typedef struct run_options {
    mink_context_desc desc;
    const char *input, *output;
    cli_format format; /* 0: as the input */
    float dt;
    int check, quiet;
    size_t chunk;
} run_options;

static int parse(int argc, char **argv, run_options *o) {
    static const cli_option table[] = {{"-o", 1},      {"--output", 1}, {"--format", 1}, {"--backend", 1},
                                       {"--device", 1}, {"--dt", 1},     {"--check", 0},  {"--chunk", 1},
                                       {"-q", 0},       {"--quiet", 0},  {NULL, 0}};
    cli_args args = {.command = "run", .usage = cli_run_usage, .table = table, .argc = argc, .argv = argv, .positional = 1};
    for (const char *val;;) {
        int code, k = cli_next_option(&args, &val, &code);
        if (k == CLI_END) break;
        if (k == CLI_STOP) return code == MINK_EXIT_OK ? -1 : -2;
        const char *name = k >= 0 ? table[k].name : "";
        if (k == CLI_POSITIONAL) {
            if (o->input) return cli_usage_error("run", "one input file at most (got '%s' and '%s')", o->input, val), -2;
            o->input = val;
        } else if (!strcmp(name, "-o") || !strcmp(name, "--output")) {
            o->output = val;
        } else if (!strcmp(name, "--format")) {
            if (!strcmp(val, "csv")) o->format = CLI_FORMAT_CSV;
            else if (!strcmp(val, "binary")) o->format = CLI_FORMAT_BINARY;
            else return cli_usage_error("run", "--format is csv or binary, not '%s'", val), -2;
        } else if (!strcmp(name, "--backend")) {
            if (!cli_parse_backend(val, &o->desc.backend))
                return cli_usage_error("run", "--backend is auto, scalar or opencl, not '%s'", val), -2;
        } else if (!strcmp(name, "--device")) {
            o->desc.device = val;
        } else if (!strcmp(name, "--dt")) {
            if (!cli_parse_float(val, &o->dt) || o->dt < 0.0f)
                return cli_usage_error("run", "--dt needs a finite number >= 0, not '%s'", val), -2;
        } else if (!strcmp(name, "--check")) {
            o->check = 1;
        } else if (!strcmp(name, "--chunk")) {
            if (!cli_count_option("run", name, val, 1, 1 << 24, &o->chunk)) return -2;
        } else {
            o->quiet = 1;
        }
    }
    return 0;
}

typedef struct tally {
    uint64_t pairs, contacts, overlaps, invalid;
} tally;

static void count_hits(tally *t, const mink_hit *hits, size_t n) {
    for (size_t i = 0; i < n; i++) {
        t->contacts += (hits[i].flags & MINK_HIT_CONTACT) != 0;
        t->overlaps += (hits[i].flags & MINK_HIT_OVERLAP) != 0;
        t->invalid += (hits[i].flags & MINK_HIT_INVALID) != 0;
    }
    t->pairs += n;
}

int cli_run(int argc, char **argv) {
    run_options o = {.dt = 1.0f, .chunk = 65536};
    int parsed = parse(argc, argv, &o);
    if (parsed == -1) return MINK_EXIT_OK;
    if (parsed == -2) return MINK_EXIT_USAGE;
    int from_stdin = o.input == NULL || !strcmp(o.input, "-");
    int to_stdout = o.output == NULL || !strcmp(o.output, "-");
    if (from_stdin && isatty(STDIN_FILENO))
        return cli_usage_error("run", "no input: name a batch file, or pipe one in");

    int rc = MINK_EXIT_FAILURE, reader_open = 0, thread_live = 0;
    const char *in_name = from_stdin ? "<stdin>" : o.input;
    FILE *in = from_stdin ? stdin : fopen(o.input, "rb"), *out = NULL;
    cli_outfile outfile = {0};
    char err[2 * CLI_PATH_MAX];
    mink_context *ctx = NULL, *scalar = NULL;
    mink_hit *hits = NULL, *ref = NULL;
    cli_reader reader;
    pipeline pipe = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER, .reader = &reader, .chunk = o.chunk};
    pthread_t thread;
    tally t = {0};
    double start = cli_now_s();

    struct stat st;
    if (in == NULL || (fstat(fileno(in), &st) == 0 && S_ISDIR(st.st_mode))) {
        fprintf(stderr, "mink: run: %s: %s\n", o.input, strerror(in ? EISDIR : errno));
        if (in != NULL) fclose(in);
        return MINK_EXIT_FAILURE;
    }
    reader_open = 1;
    if (cli_reader_open(&reader, in, in_name) != 0) {
        fprintf(stderr, "mink: run: %s\n", reader.error);
        rc = reader.io_error ? MINK_EXIT_FAILURE : MINK_EXIT_BAD_INPUT;
        goto done;
    }
    cli_format format = o.format ? o.format : reader.format;
    if (to_stdout && format == CLI_FORMAT_BINARY && isatty(STDOUT_FILENO)) {
        rc = cli_usage_error("run", "binary output to a terminal: give -o FILE or --format csv");
        goto done;
    }
    if (!to_stdout && cli_outfile_open(&outfile, o.output, err, sizeof err) != 0) {
        fprintf(stderr, "mink: run: %s\n", err);
        goto done;
    }
    out = to_stdout ? stdout : outfile.file;
    if (mink_context_create(&o.desc, &ctx) != MINK_OK ||
        (o.check && mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &scalar) != MINK_OK)) {
        fprintf(stderr, "mink: run: %s\n", mink_last_error());
        goto done;
    }
    if (mink_context_error(ctx)[0] && !o.quiet) fprintf(stderr, "mink: note: %s\n", mink_context_error(ctx));

    for (int k = 0; k < 2; k++) pipe.slots[k].pairs = malloc(o.chunk * sizeof(mink_pair));
    hits = malloc(o.chunk * sizeof *hits);
    ref = o.check ? malloc(o.chunk * sizeof *ref) : NULL;
    if (!pipe.slots[0].pairs || !pipe.slots[1].pairs || !hits || (o.check && !ref)) {
        fprintf(stderr, "mink: run: out of memory for chunks of %zu pairs (try a smaller --chunk)\n", o.chunk);
        goto done;
    }
    if (cli_write_hits_header(out, format) != 0) goto write_failed;
    if (pthread_create(&thread, NULL, reader_main, &pipe) != 0) {
        fprintf(stderr, "mink: run: cannot start the reader thread\n");
        goto done;
    }
    thread_live = 1;

    progress pg = {.on = !o.quiet && isatty(STDERR_FILENO), .start = start};
    if (fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode)) pg.total_bytes = (uint64_t)st.st_size;

    for (int k = 0;; k ^= 1) {
        slot *s = &pipe.slots[k];
        pthread_mutex_lock(&pipe.mu);
        while (!s->full) pthread_cond_wait(&pipe.cv, &pipe.mu);
        pthread_mutex_unlock(&pipe.mu);
        if (s->error) {
            progress_draw(&pg, t.pairs, 0, 1);
            fprintf(stderr, "mink: run: %s\n", reader.error);
            rc = reader.io_error ? MINK_EXIT_FAILURE : MINK_EXIT_BAD_INPUT;
            goto done;
        }
        if (s->count == 0) break;
        if (mink_batch_sweep(ctx, s->pairs, s->count, o.dt, hits) != MINK_OK) {
            progress_draw(&pg, t.pairs, 0, 1);
            fprintf(stderr, "mink: run: %s\n", mink_last_error());
            goto done;
        }
        if (o.check) {
            if (mink_batch_sweep(scalar, s->pairs, s->count, o.dt, ref) != MINK_OK) {
                fprintf(stderr, "mink: run: scalar check: %s\n", mink_last_error());
                goto done;
            }
            for (size_t i = 0; i < s->count; i++)
                if (memcmp(&hits[i], &ref[i], sizeof *hits) != 0) {
                    progress_draw(&pg, t.pairs, 0, 1);
                    fprintf(stderr, "mink: run: --check: pair %llu differs from the scalar path (t %a vs %a, flags %u vs %u)\n",
                            (unsigned long long)(t.pairs + i), (double)hits[i].t, (double)ref[i].t,
                            (unsigned)hits[i].flags, (unsigned)ref[i].flags);
                    goto done;
                }
        }
        if (cli_write_hits(out, format, hits, s->count, t.pairs) != 0) goto write_failed;
        count_hits(&t, hits, s->count);
        uint64_t bytes = s->bytes;
        pthread_mutex_lock(&pipe.mu);
        s->full = 0;
        pthread_cond_broadcast(&pipe.cv);
        pthread_mutex_unlock(&pipe.mu);
        progress_draw(&pg, t.pairs, bytes, 0);
    }
    progress_draw(&pg, t.pairs, 0, 1);
    if (cli_write_finish(out, format, t.pairs) != 0) goto write_failed;
    if (!to_stdout) {
        out = NULL;
        if (cli_outfile_commit(&outfile, err, sizeof err) != 0) {
            fprintf(stderr, "mink: run: %s\n", err);
            goto done;
        }
    }
    if (!o.quiet) {
        double secs = cli_now_s() - start;
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        fprintf(stderr,
                "mink run: %llu pairs, %llu contacts (%llu already overlapping), %llu invalid; %s; %.3f s, %.0f pairs/s; "
                "peak memory %.1f MiB%s\n",
                (unsigned long long)t.pairs, (unsigned long long)t.contacts, (unsigned long long)t.overlaps,
                (unsigned long long)t.invalid, mink_context_device(ctx), secs, (double)t.pairs / (secs > 0 ? secs : 1),
                (double)ru.ru_maxrss / 1024.0, o.check ? "; --check: bit-identical to the scalar path" : "");
    }
    rc = MINK_EXIT_OK;
    goto done;

write_failed:
    fprintf(stderr, "mink: run: writing %s: %s\n", to_stdout ? "<stdout>" : o.output, strerror(errno));
    rc = MINK_EXIT_FAILURE;
done:
    if (thread_live) {
        pthread_mutex_lock(&pipe.mu);
        pipe.stop = 1;
        pthread_cond_broadcast(&pipe.cv);
        pthread_mutex_unlock(&pipe.mu);
        pthread_join(thread, NULL);
    }
    cli_outfile_discard(&outfile);
    if (reader_open) cli_reader_close(&reader);
    if (in != NULL && in != stdin) fclose(in);
    mink_context_destroy(ctx);
    mink_context_destroy(scalar);
    free(pipe.slots[0].pairs);
    free(pipe.slots[1].pairs);
    free(hits);
    free(ref);
    return rc;
}
