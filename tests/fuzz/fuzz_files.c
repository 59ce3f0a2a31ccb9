/* tests/fuzz/fuzz_files.c — the batch file readers of `mink run` (CSV and binary, told apart by
 * their first bytes) on fuzzed files: they either read pairs or stop with a message naming what is
 * wrong, never read past what they were given, and every pair they read gets a hit that keeps the
 * invariants (invalid geometry comes back INVALID). Pairs read are written out again and read
 * back: the writer and the reader agree on every pair. */
#include "../../cli/batch_file.h"
#include "fuzz.h"

enum { CHUNK = 7 };

static int known(uint32_t type) {
    return type == MINK_SHAPE_AABB || type == MINK_SHAPE_CIRCLE || type == MINK_SHAPE_POLYGON;
}

/* Reads everything; the pairs to *out (caller frees). 0, or -1 with the message checked. */
static int read_all(FILE *f, mink_pair **out, size_t *count) {
    cli_reader r;
    *out = NULL;
    *count = 0;
    if (cli_reader_open(&r, f, "fuzz") != 0) {
        FUZZ_CHECK(r.error[0] != '\0', "a failed open without a message");
        cli_reader_close(&r);
        return -1;
    }
    size_t cap = 0;
    for (;;) {
        if (*count + CHUNK > cap) {
            cap = cap ? cap * 2 : 64;
            mink_pair *p = realloc(*out, cap * sizeof *p);
            FUZZ_CHECK(p != NULL, "out of memory");
            *out = p;
        }
        size_t n = 0;
        if (cli_reader_read(&r, *out + *count, CHUNK, &n) != 0) {
            FUZZ_CHECK(r.error[0] != '\0', "a failed read without a message");
            cli_reader_close(&r);
            return -1;
        }
        if (n == 0) break;
        FUZZ_CHECK(n <= CHUNK, "read %zu pairs into room for %d", n, CHUNK);
        *count += n;
    }
    cli_reader_close(&r);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0; /* fmemopen wants a buffer; the empty file has its own test */
    fuzz_start(data, size);
    FILE *f = fmemopen((void *)data, size, "rb");
    FUZZ_CHECK(f != NULL, "fmemopen");
    mink_pair *pairs;
    size_t count;
    int ok = read_all(f, &pairs, &count) == 0;
    fclose(f);
    if (!ok) {
        free(pairs);
        return 0;
    }
    for (size_t k = 0; k < count; k++) {
        mink_hit h = mink_sweep_pair_record(pairs[k], 1.0f);
        fuzz_check_hit(&h, "a pair read from a file");
    }
    /* Out in both formats and back: every pair answers the same, to the bit. (CSV has no word for
     * a type that is not a shape: such pairs stay out; the binary reader keeps them, INVALID.) */
    size_t kept = 0;
    for (size_t k = 0; k < count; k++)
        if (known(pairs[k].a.type) && known(pairs[k].b.type)) pairs[kept++] = pairs[k];
    count = kept;
    for (int format = CLI_FORMAT_CSV; format <= CLI_FORMAT_BINARY; format++) {
        char *text = NULL;
        size_t len = 0;
        FILE *w = open_memstream(&text, &len);
        FUZZ_CHECK(w != NULL, "open_memstream");
        FUZZ_CHECK(cli_write_pairs_header(w, (cli_format)format) == 0 &&
                       cli_write_pairs(w, (cli_format)format, pairs, count) == 0 &&
                       cli_write_finish(w, (cli_format)format, count) == 0,
                   "writing %zu pairs", count);
        fclose(w);
        FILE *back = fmemopen(text, len, "rb");
        FUZZ_CHECK(back != NULL, "fmemopen");
        mink_pair *again;
        size_t n;
        int read_back = read_all(back, &again, &n);
        fclose(back);
        FUZZ_CHECK(read_back == 0 && n == count, "%s written, read back: %zu of %zu pairs",
                   format == CLI_FORMAT_CSV ? "CSV" : "binary", n, count);
        for (size_t k = 0; k < count; k++) {
            mink_hit h1 = mink_sweep_pair_record(pairs[k], 1.0f), h2 = mink_sweep_pair_record(again[k], 1.0f);
            FUZZ_CHECK(memcmp(&h1, &h2, sizeof h1) == 0, "pair %zu answers differently after a %s round trip", k,
                       format == CLI_FORMAT_CSV ? "CSV" : "binary");
        }
        free(again);
        free(text);
    }
    free(pairs);
    return 0;
}
