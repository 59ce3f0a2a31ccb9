/* cli/batch_file.h — batch files: pairs in, hits out, as CSV or as little-endian binary records.
 * The formats are documented, with examples, in docs/formats.md.
 *
 * Readers stream: a file of any size is read in chunks of the caller's choosing, and memory
 * stays what those chunks take. Every malformed input gives a message naming the file, the
 * line (CSV) or record (binary), the column and what was expected. Invalid geometry in a
 * well-formed row is not an error: the pair reaches the library and comes back INVALID. */
#ifndef MINK_CLI_BATCH_FILE_H
#define MINK_CLI_BATCH_FILE_H

#include <stdint.h>
#include <stdio.h>

#include "mink/mink.h"

typedef enum cli_format {
    CLI_FORMAT_CSV = 1,
    CLI_FORMAT_BINARY = 2,
} cli_format;

/// Binary header: 32 bytes, then `count` records of `record_size` bytes.
#define CLI_MAGIC_PAIRS "MINKPAIR"
#define CLI_MAGIC_HITS "MINKHITS"
#define CLI_BINARY_VERSION 1u
#define CLI_COUNT_UNKNOWN UINT64_MAX ///< a stream whose writer could not seek back: read to the end
#define CLI_MAX_LINE 65536           ///< longest CSV line, newline included

/// The columns a CSV row may hold for each body (prefixed a_ or b_ in the header).
enum {
    CLI_COL_KIND, CLI_COL_MINX, CLI_COL_MINY, CLI_COL_MAXX, CLI_COL_MAXY, CLI_COL_X, CLI_COL_Y,
    CLI_COL_R, CLI_COL_ANGLE, CLI_COL_POINTS, CLI_COL_VX, CLI_COL_VY, CLI_COL_SPIN, CLI_BODY_COLUMNS
};

typedef struct cli_reader {
    FILE *file;
    const char *name;   ///< for messages: the path, or "<stdin>"
    cli_format format;  ///< found from the first bytes
    char *buf;          ///< CSV: the read buffer
    size_t len, pos;
    int eof;
    uint64_t line;              ///< CSV: lines read so far
    int columns;                ///< CSV: fields in the header
    int col[2][CLI_BODY_COLUMNS]; ///< CSV: field index of each body column, or -1
    uint64_t records;           ///< pairs read so far
    uint64_t expected;          ///< binary: the header's count
    uint64_t bytes;             ///< bytes consumed, for progress
    int io_error;               ///< the last failure was the system's (a read error), not the file's
    char error[600];            ///< the message of the last failure
} cli_reader;

/// Reads the header (CSV header line, or binary header). 0 on success, -1 with r->error set.
int cli_reader_open(cli_reader *r, FILE *file, const char *name);
/// Reads up to `capacity` pairs into out; *count 0 means the end. 0 on success, -1 with r->error.
int cli_reader_read(cli_reader *r, mink_pair *out, size_t capacity, size_t *count);
void cli_reader_close(cli_reader *r);

/// Writers: a header, records, and a finish that fills in the binary count when the file can seek.
/// Each returns 0, or -1 when the stream failed (errno says why). CSV has words for the three
/// shape kinds only: a body of another type fails the CSV writer with EINVAL.
int cli_write_hits_header(FILE *f, cli_format format);
int cli_write_hits(FILE *f, cli_format format, const mink_hit *hits, size_t count, uint64_t first_index);
int cli_write_pairs_header(FILE *f, cli_format format);
int cli_write_pairs(FILE *f, cli_format format, const mink_pair *pairs, size_t count);
int cli_write_finish(FILE *f, cli_format format, uint64_t count);

/// A hit's result as one word: "invalid", "overlap", "contact" or "none".
const char *cli_result_word(uint32_t flags);

#endif /* MINK_CLI_BATCH_FILE_H */
