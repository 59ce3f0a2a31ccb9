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

/* The device's program, built in parts on first use (a first run on a machine: seconds on PoCL),
 * said on the progress line while it builds. */
static void progress_build(const mink_build_info *b, void *user) {
    progress *pg = user;
    if (!pg->on) return;
    if (b->done) pg->start += b->seconds, fputs("\r\033[K", stderr); /* the rate is the sweeps' */
    else fprintf(stderr, "\rbuilding the device's program for %s (its first use in this run)\033[K", b->part);
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

/* Everything one run holds, released by run_close whatever happened. */
typedef struct run {
    run_options o;
    int to_stdout, reader_open, thread_live;
    FILE *in, *out;
    cli_outfile outfile;
    mink_context *ctx, *scalar;
    mink_hit *hits, *ref;
    cli_reader reader;
    pipeline pipe;
    pthread_t thread;
    tally t;
    progress pg;
    double start;
} run;

/* Input, output, contexts and chunks; MINK_EXIT_OK, or the exit code after its message. */
static int run_open(run *r) {
    const run_options *o = &r->o;
    int from_stdin = o->input == NULL || !strcmp(o->input, "-");
    char err[2 * CLI_PATH_MAX];
    r->to_stdout = o->output == NULL || !strcmp(o->output, "-");
    if (from_stdin && isatty(STDIN_FILENO)) return cli_usage_error("run", "no input: name a batch file, or pipe one in");
    r->in = from_stdin ? stdin : fopen(o->input, "rb");
    struct stat st;
    if (r->in == NULL || (fstat(fileno(r->in), &st) == 0 && S_ISDIR(st.st_mode))) {
        fprintf(stderr, "mink: run: %s: %s\n", o->input, strerror(r->in ? EISDIR : errno));
        return MINK_EXIT_FAILURE;
    }
    r->reader_open = 1;
    if (cli_reader_open(&r->reader, r->in, from_stdin ? "<stdin>" : o->input) != 0) {
        fprintf(stderr, "mink: run: %s\n", r->reader.error);
        return r->reader.io_error ? MINK_EXIT_FAILURE : MINK_EXIT_BAD_INPUT;
    }
    if (r->o.format == 0) r->o.format = r->reader.format;
    if (r->to_stdout && o->format == CLI_FORMAT_BINARY && isatty(STDOUT_FILENO))
        return cli_usage_error("run", "binary output to a terminal: give -o FILE or --format csv");
    if (!r->to_stdout && cli_outfile_open(&r->outfile, o->output, err, sizeof err) != 0) {
        fprintf(stderr, "mink: run: %s\n", err);
        return MINK_EXIT_FAILURE;
    }
    r->out = r->to_stdout ? stdout : r->outfile.file;
    r->pg = (progress){.on = !o->quiet && isatty(STDERR_FILENO), .start = r->start};
    if (fstat(fileno(r->in), &st) == 0 && S_ISREG(st.st_mode)) r->pg.total_bytes = (uint64_t)st.st_size;
    mink_context_desc desc = o->desc;
    desc.on_build = progress_build, desc.on_build_user = &r->pg;
    if (mink_context_create(&desc, &r->ctx) != MINK_OK ||
        (o->check && mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &r->scalar) != MINK_OK)) {
        fprintf(stderr, "mink: run: %s\n", mink_last_error());
        return MINK_EXIT_FAILURE;
    }
    if (mink_context_error(r->ctx)[0] && !o->quiet) fprintf(stderr, "mink: note: %s\n", mink_context_error(r->ctx));
    for (int k = 0; k < 2; k++) r->pipe.slots[k].pairs = malloc(o->chunk * sizeof(mink_pair));
    r->hits = malloc(o->chunk * sizeof *r->hits);
    r->ref = o->check ? malloc(o->chunk * sizeof *r->ref) : NULL;
    if (!r->pipe.slots[0].pairs || !r->pipe.slots[1].pairs || !r->hits || (o->check && !r->ref)) {
        fprintf(stderr, "mink: run: out of memory for chunks of %zu pairs (try a smaller --chunk)\n", o->chunk);
        return MINK_EXIT_FAILURE;
    }
    return MINK_EXIT_OK;
}

static int write_failed(const run *r) {
    fprintf(stderr, "mink: run: writing %s: %s\n", r->to_stdout ? "<stdout>" : r->o.output, strerror(errno));
    return MINK_EXIT_FAILURE;
}

/* One chunk swept (and checked against the scalar path) and written. */
static int run_chunk(run *r, const slot *s) {
    if (mink_batch_sweep(r->ctx, s->pairs, s->count, r->o.dt, r->hits) != MINK_OK) {
        progress_draw(&r->pg, r->t.pairs, 0, 1);
        fprintf(stderr, "mink: run: %s\n", mink_last_error());
        return MINK_EXIT_FAILURE;
    }
    if (r->o.check) {
        if (mink_batch_sweep(r->scalar, s->pairs, s->count, r->o.dt, r->ref) != MINK_OK) {
            fprintf(stderr, "mink: run: scalar check: %s\n", mink_last_error());
            return MINK_EXIT_FAILURE;
        }
        for (size_t i = 0; i < s->count; i++)
            if (memcmp(&r->hits[i], &r->ref[i], sizeof *r->hits) != 0) {
                progress_draw(&r->pg, r->t.pairs, 0, 1);
                fprintf(stderr, "mink: run: --check: pair %llu differs from the scalar path (t %a vs %a, flags %u vs %u)\n",
                        (unsigned long long)(r->t.pairs + i), (double)r->hits[i].t, (double)r->ref[i].t,
                        (unsigned)r->hits[i].flags, (unsigned)r->ref[i].flags);
                return MINK_EXIT_FAILURE;
            }
    }
    if (cli_write_hits(r->out, r->o.format, r->hits, s->count, r->t.pairs) != 0) return write_failed(r);
    count_hits(&r->t, r->hits, s->count);
    return MINK_EXIT_OK;
}

/* The reader thread fills one slot while this sweeps the other, to the end of the input. */
static int run_sweep(run *r) {
    if (cli_write_hits_header(r->out, r->o.format) != 0) return write_failed(r);
    if (pthread_create(&r->thread, NULL, reader_main, &r->pipe) != 0) {
        fprintf(stderr, "mink: run: cannot start the reader thread\n");
        return MINK_EXIT_FAILURE;
    }
    r->thread_live = 1;
    for (int k = 0;; k ^= 1) {
        slot *s = &r->pipe.slots[k];
        pthread_mutex_lock(&r->pipe.mu);
        while (!s->full) pthread_cond_wait(&r->pipe.cv, &r->pipe.mu);
        pthread_mutex_unlock(&r->pipe.mu);
        if (s->error) {
            progress_draw(&r->pg, r->t.pairs, 0, 1);
            fprintf(stderr, "mink: run: %s\n", r->reader.error);
            return r->reader.io_error ? MINK_EXIT_FAILURE : MINK_EXIT_BAD_INPUT;
        }
        if (s->count == 0) break;
        int rc = run_chunk(r, s);
        if (rc != MINK_EXIT_OK) return rc;
        uint64_t bytes = s->bytes;
        pthread_mutex_lock(&r->pipe.mu);
        s->full = 0;
        pthread_cond_broadcast(&r->pipe.cv);
        pthread_mutex_unlock(&r->pipe.mu);
        progress_draw(&r->pg, r->t.pairs, bytes, 0);
    }
    progress_draw(&r->pg, r->t.pairs, 0, 1);
    if (cli_write_finish(r->out, r->o.format, r->t.pairs) != 0) return write_failed(r);
    char err[2 * CLI_PATH_MAX];
    if (!r->to_stdout && cli_outfile_commit(&r->outfile, err, sizeof err) != 0) {
        fprintf(stderr, "mink: run: %s\n", err);
        return MINK_EXIT_FAILURE;
    }
    return MINK_EXIT_OK;
}

static void run_summary(const run *r) {
    double secs = cli_now_s() - r->start;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fprintf(stderr,
            "mink run: %llu pairs, %llu contacts (%llu already overlapping), %llu invalid; %s; %.3f s, %.0f pairs/s; "
            "peak memory %.1f MiB%s\n",
            (unsigned long long)r->t.pairs, (unsigned long long)r->t.contacts, (unsigned long long)r->t.overlaps,
            (unsigned long long)r->t.invalid, mink_context_device(r->ctx), secs,
            (double)r->t.pairs / (secs > 0 ? secs : 1), (double)ru.ru_maxrss / 1024.0,
            r->o.check ? "; --check: bit-identical to the scalar path" : "");
}

static void run_close(run *r) {
    if (r->thread_live) {
        pthread_mutex_lock(&r->pipe.mu);
        r->pipe.stop = 1;
        pthread_cond_broadcast(&r->pipe.cv);
        pthread_mutex_unlock(&r->pipe.mu);
        pthread_join(r->thread, NULL);
    }
    cli_outfile_discard(&r->outfile); /* nothing, after a commit */
    if (r->reader_open) cli_reader_close(&r->reader);
    if (r->in != NULL && r->in != stdin) fclose(r->in);
    mink_context_destroy(r->ctx);
    mink_context_destroy(r->scalar);
    free(r->pipe.slots[0].pairs);
    free(r->pipe.slots[1].pairs);
    free(r->hits);
    free(r->ref);
}

int cli_run(int argc, char **argv) {
    static run r; /* large (the reader's state); one run a process */
    memset(&r, 0, sizeof r);
    r.o = (run_options){.dt = 1.0f, .chunk = 65536};
    int parsed = parse(argc, argv, &r.o);
    if (parsed == -1) return MINK_EXIT_OK;
    if (parsed == -2) return MINK_EXIT_USAGE;
    r.pipe = (pipeline){.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER, .reader = &r.reader,
                        .chunk = r.o.chunk};
    r.start = cli_now_s();
    int rc = run_open(&r);
    if (rc == MINK_EXIT_OK) rc = run_sweep(&r);
    if (rc == MINK_EXIT_OK && !r.o.quiet) run_summary(&r);
    run_close(&r);
    return rc;
}
