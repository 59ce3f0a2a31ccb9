/* cli/batch_file.c — reading and writing batch files (see batch_file.h and docs/formats.md). */
#include "batch_file.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Records are written as the structs lie in memory, which is the documented little-endian layout
 * only on a little-endian machine. */
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "mink's binary batch files are read and written on little-endian machines only"
#endif
_Static_assert(sizeof(mink_pair) == 328, "a binary pair record is 328 bytes");
_Static_assert(sizeof(mink_hit) == 32, "a binary hit record is 32 bytes");
_Static_assert(offsetof(mink_body, shape) == 16 && offsetof(mink_polygon, count) == 144,
               "binary body layout (docs/formats.md)");

typedef struct binary_header {
    char magic[8];
    uint32_t version, record_size;
    uint64_t count, reserved;
} binary_header;
_Static_assert(sizeof(binary_header) == 32, "binary header is 32 bytes");

enum { READ_CHUNK = 1 << 20 };

static const char *const column_names[CLI_BODY_COLUMNS] = {
    "kind", "minx", "miny", "maxx", "maxy", "x", "y", "r", "angle", "points", "vx", "vy", "spin"};

static int fail(cli_reader *r, const char *fmt, ...) {
    int n = snprintf(r->error, sizeof r->error, "%s: ", r->name);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof r->error) vsnprintf(r->error + n, sizeof r->error - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* A read that failed (errno says why): the system's trouble, not a malformed file. */
static int io_fail(cli_reader *r, const char *fmt, ...) {
    int saved = errno;
    char where[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(where, sizeof where, fmt, ap);
    va_end(ap);
    r->io_error = 1;
    return fail(r, "%s: %s", where, strerror(saved));
}

/* Bytes from the file, fit to print in a message: anything but printable ASCII is written as
 * \xNN (a BOM, a terminal's escape sequence), and a long text is cut. Returns out. */
static const char *shown(const char *s, char *out, size_t size) {
    size_t n = 0;
    for (; *s && n + 8 < size; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c < 0x7f && c != '\\') out[n++] = (char)c;
        else n += (size_t)snprintf(out + n, size - n, "\\x%02x", c);
    }
    if (*s) memcpy(out + n, "...", 3), n += 3;
    out[n] = '\0';
    return out;
}
enum { SHOWN = 100 }; /* room for a shown field */

/* ---- binary --------------------------------------------------------------------------------- */

/* Reads exactly n bytes unless the file ends; returns how many were read. */
static size_t read_full(cli_reader *r, void *dst, size_t n) {
    size_t got = 0;
    if (r->len > r->pos) { /* bytes already peeked by format detection */
        size_t take = r->len - r->pos < n ? r->len - r->pos : n;
        memcpy(dst, r->buf + r->pos, take);
        r->pos += take;
        got = take;
    }
    if (got < n) got += fread((char *)dst + got, 1, n - got, r->file);
    r->bytes += got;
    return got;
}

/* Polygons are rebuilt from their points, position and angle: the derived fields in a file are
 * never trusted, and a refused polygon becomes count 0 (an INVALID result). */
static void rebuild_body(mink_body *b) {
    if (b->type != MINK_SHAPE_POLYGON) return;
    mink_polygon p = b->shape.polygon;
    uint32_t n = p.count <= MINK_MAX_POLYGON_VERTICES ? p.count : MINK_MAX_POLYGON_VERTICES + 1u;
    mink_polygon_make(p.vertices, n, p.position, p.angle, &b->shape.polygon);
}

static int binary_open(cli_reader *r) {
    binary_header h;
    size_t got = read_full(r, &h, sizeof h);
    if (got < sizeof h) return fail(r, "header: truncated (%zu of 32 bytes)", got);
    if (h.version != CLI_BINARY_VERSION)
        return fail(r, "header: version %u, this mink reads version %u", (unsigned)h.version, CLI_BINARY_VERSION);
    if (h.record_size != sizeof(mink_pair))
        return fail(r, "header: record size %u, expected %zu", (unsigned)h.record_size, sizeof(mink_pair));
    r->expected = h.count;
    return 0;
}

static int binary_read(cli_reader *r, mink_pair *out, size_t capacity, size_t *count) {
    if (r->expected != CLI_COUNT_UNKNOWN && capacity > r->expected - r->records)
        capacity = (size_t)(r->expected - r->records);
    size_t bytes = capacity * sizeof *out, got = read_full(r, out, bytes);
    if (ferror(r->file)) return io_fail(r, "record %llu", (unsigned long long)r->records);
    size_t n = got / sizeof *out;
    if (got % sizeof *out)
        return fail(r, "record %llu: truncated (%zu of %zu bytes)", (unsigned long long)(r->records + n),
                    got % sizeof *out, sizeof *out);
    if (got < bytes && r->expected != CLI_COUNT_UNKNOWN)
        return fail(r, "record %llu: the file ends, but its header promises %llu records",
                    (unsigned long long)(r->records + n), (unsigned long long)r->expected);
    if (n == 0 && r->expected != CLI_COUNT_UNKNOWN && r->records == r->expected) {
        /* all promised records read: anything after them is an error, not silently dropped */
        char extra;
        if (read_full(r, &extra, 1) == 1)
            return fail(r, "after record %llu: bytes beyond the %llu records the header promises",
                        (unsigned long long)r->records, (unsigned long long)r->expected);
    }
    for (size_t i = 0; i < n; i++) {
        rebuild_body(&out[i].a);
        rebuild_body(&out[i].b);
    }
    r->records += n;
    *count = n;
    return 0;
}

/* ---- CSV ------------------------------------------------------------------------------------ */

/* The next line, without its newline (and without a '\r' before it), NUL-terminated in the
 * buffer; NULL at the end of the file or on an error (r->error set, *err = 1). */
static char *next_line(cli_reader *r, int *err) {
    *err = 0;
    for (;;) {
        char *start = r->buf + r->pos, *nl = memchr(start, '\n', r->len - r->pos);
        if (nl != NULL || (r->eof && r->pos < r->len)) {
            size_t n = nl ? (size_t)(nl - start) : r->len - r->pos;
            if (n + 1 > CLI_MAX_LINE) break;
            r->pos += n + (nl != NULL);
            r->bytes += n + (nl != NULL);
            r->line++;
            const char *nul = memchr(start, '\0', n); /* it would end the row early, unseen */
            if (nul != NULL) {
                *err = 1;
                fail(r, "line %llu, byte %zu: a NUL byte (is this a CSV batch file?)", (unsigned long long)r->line,
                     (size_t)(nul - start) + 1);
                return NULL;
            }
            if (n > 0 && start[n - 1] == '\r') n--;
            start[n] = '\0';
            return start;
        }
        if (r->eof) return NULL;
        if (r->len - r->pos >= CLI_MAX_LINE) break;
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
        size_t got = fread(r->buf + r->len, 1, READ_CHUNK - r->len, r->file);
        r->len += got;
        if (got == 0) {
            if (ferror(r->file)) {
                *err = 1;
                io_fail(r, "line %llu", (unsigned long long)r->line + 1);
                return NULL;
            }
            r->eof = 1;
        }
    }
    *err = 1;
    fail(r, "line %llu: longer than %d bytes (is this a CSV batch file?)", (unsigned long long)r->line + 1,
         CLI_MAX_LINE - 1);
    return NULL;
}

static char *trim(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = '\0';
    return s;
}

/* Splits a line at commas in place; returns the number of fields (up to max + 1, to detect more). */
static int split(char *line, char **fields, int max) {
    int n = 0;
    for (char *p = line;; p++) {
        if (n <= max) fields[n] = p;
        n++;
        p = strchr(p, ',');
        if (p == NULL) break;
        *p = '\0';
    }
    for (int i = 0; i < n && i <= max; i++) fields[i] = trim(fields[i]);
    return n;
}

static int is_blank_or_comment(const char *line) {
    while (*line == ' ' || *line == '\t') line++;
    return *line == '\0' || *line == '#';
}

enum { MAX_FIELDS = 2 * CLI_BODY_COLUMNS };

static int csv_open(cli_reader *r) {
    int err = 0;
    char *line;
    do line = next_line(r, &err);
    while (line != NULL && is_blank_or_comment(line));
    if (err) return -1;
    if (line == NULL) return fail(r, "empty file: expected a header line naming the columns (see docs/formats.md)");
    memset(r->col, -1, sizeof r->col);
    char *fields[MAX_FIELDS + 1];
    int n = split(line, fields, MAX_FIELDS);
    if (n > MAX_FIELDS)
        return fail(r, "line %llu: %d columns in the header, at most %d are known", (unsigned long long)r->line, n,
                    MAX_FIELDS);
    for (int i = 0; i < n; i++) {
        const char *name = fields[i];
        int body = name[0] == 'a' ? 0 : name[0] == 'b' ? 1 : -1, which = -1;
        if (body >= 0 && name[1] == '_')
            for (int c = 0; c < CLI_BODY_COLUMNS; c++)
                if (!strcmp(name + 2, column_names[c])) which = c;
        char text[SHOWN];
        if (which < 0)
            return fail(r, "line %llu, column %d: unknown column '%s' (expected a_ or b_ followed by one of kind, minx, "
                           "miny, maxx, maxy, x, y, r, angle, points, vx, vy, spin)",
                        (unsigned long long)r->line, i + 1, shown(name, text, sizeof text));
        if (r->col[body][which] >= 0)
            return fail(r, "line %llu, column %d: column '%s' appears twice", (unsigned long long)r->line, i + 1, name);
        r->col[body][which] = i;
    }
    static const int required[] = {CLI_COL_KIND, CLI_COL_VX, CLI_COL_VY};
    for (int body = 0; body < 2; body++)
        for (size_t k = 0; k < sizeof required / sizeof required[0]; k++)
            if (r->col[body][required[k]] < 0)
                return fail(r, "line %llu: the header lacks column '%c_%s'", (unsigned long long)r->line, 'a' + body,
                            column_names[required[k]]);
    r->columns = n;
    return 0;
}

typedef struct row {
    cli_reader *r;
    char **fields;
    int body;
} row;

static int row_fail(row w, int c, const char *what, const char *got) {
    char text[SHOWN];
    return fail(w.r, "line %llu, column %d (%c_%s): expected %s, got '%s'", (unsigned long long)w.r->line,
                w.r->col[w.body][c] + 1, 'a' + w.body, column_names[c], what, shown(got, text, sizeof text));
}

/* A number in column c. Anything strtof reads whole is a number, nan and inf included: such a
 * pair is well formed and comes back INVALID. Optional columns that are absent read as 0. */
static int row_float(row w, int c, int required, const char *kind, float *out) {
    int at = w.r->col[w.body][c];
    if (at < 0) {
        *out = 0.0f;
        if (!required) return 0;
        return fail(w.r, "line %llu: a %s needs column '%c_%s', which the header lacks", (unsigned long long)w.r->line,
                    kind, 'a' + w.body, column_names[c]);
    }
    const char *s = w.fields[at];
    if (*s == '\0' && !required) {
        *out = 0.0f;
        return 0;
    }
    char *end = NULL;
    errno = 0;
    *out = strtof(s, &end);
    if (end == s || *end != '\0') return row_fail(w, c, "a number", s);
    return 0;
}

static int row_points(row w, mink_vec2 *pts, uint32_t *count) {
    int at = w.r->col[w.body][CLI_COL_POINTS];
    if (at < 0)
        return fail(w.r, "line %llu: a polygon or capsule needs column '%c_points', which the header lacks",
                    (unsigned long long)w.r->line, 'a' + w.body);
    const char *s = w.fields[at];
    uint32_t n = 0, values = 0;
    float xy[2];
    for (const char *p = s;;) {
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '\0') break;
        char *end = NULL;
        float v = strtof(p, &end);
        if (end == p || (*end != '\0' && *end != ' ' && *end != '\t'))
            return row_fail(w, CLI_COL_POINTS, "points as 'x y x y ...' separated by spaces", s);
        xy[values++ % 2] = v;
        if (values % 2 == 0) {
            if (n < MINK_MAX_POLYGON_VERTICES) pts[n] = mink_v2(xy[0], xy[1]);
            n++;
        }
        p = end;
    }
    if (values % 2) return row_fail(w, CLI_COL_POINTS, "an even count of numbers (x y pairs)", s);
    *count = n > MINK_MAX_POLYGON_VERTICES ? MINK_MAX_POLYGON_VERTICES + 1u : n; /* too many: refused */
    return 0;
}

static int row_body(row w, mink_body *b) {
    const char *kind = w.fields[w.r->col[w.body][CLI_COL_KIND]];
    uint32_t type = !strcmp(kind, "box")      ? MINK_SHAPE_AABB
                    : !strcmp(kind, "circle")  ? MINK_SHAPE_CIRCLE
                    : !strcmp(kind, "polygon") ? MINK_SHAPE_POLYGON
                    : !strcmp(kind, "capsule") ? MINK_SHAPE_CAPSULE
                                               : 0;
    if (type == 0) return row_fail(w, CLI_COL_KIND, "box, circle, polygon or capsule", kind);
    mink_vec2 v;
    float spin;
    if (row_float(w, CLI_COL_VX, 1, kind, &v.x) || row_float(w, CLI_COL_VY, 1, kind, &v.y) ||
        row_float(w, CLI_COL_SPIN, 0, kind, &spin))
        return -1;
    *b = mink_body_zero(type, v);
    b->angular_velocity = spin;
    if (type == MINK_SHAPE_AABB) {
        mink_aabb *box = &b->shape.aabb;
        return row_float(w, CLI_COL_MINX, 1, kind, &box->min.x) || row_float(w, CLI_COL_MINY, 1, kind, &box->min.y) ||
                       row_float(w, CLI_COL_MAXX, 1, kind, &box->max.x) || row_float(w, CLI_COL_MAXY, 1, kind, &box->max.y)
                   ? -1
                   : 0;
    }
    if (type == MINK_SHAPE_CAPSULE) { /* its two centres as points, and its radius */
        mink_vec2 ends[MINK_MAX_POLYGON_VERTICES];
        uint32_t n = 0;
        if (row_float(w, CLI_COL_R, 1, kind, &b->shape.capsule.radius) || row_points(w, ends, &n)) return -1;
        if (n != 2)
            return row_fail(w, CLI_COL_POINTS, "a capsule's two centres as 'x1 y1 x2 y2'",
                            w.fields[w.r->col[w.body][CLI_COL_POINTS]]);
        b->shape.capsule.center1 = ends[0];
        b->shape.capsule.center2 = ends[1];
        return 0;
    }
    mink_vec2 at;
    if (row_float(w, CLI_COL_X, 1, kind, &at.x) || row_float(w, CLI_COL_Y, 1, kind, &at.y)) return -1;
    if (type == MINK_SHAPE_CIRCLE) {
        b->shape.circle.center = at;
        return row_float(w, CLI_COL_R, 1, kind, &b->shape.circle.radius);
    }
    float angle;
    mink_vec2 pts[MINK_MAX_POLYGON_VERTICES];
    uint32_t n = 0;
    if (row_float(w, CLI_COL_ANGLE, 0, kind, &angle) || row_points(w, pts, &n)) return -1;
    mink_polygon_make(pts, n, at, angle, &b->shape.polygon); /* refused: count 0, an INVALID result */
    return 0;
}

static int csv_read(cli_reader *r, mink_pair *out, size_t capacity, size_t *count) {
    size_t n = 0;
    char *fields[MAX_FIELDS + 1];
    while (n < capacity) {
        int err = 0;
        char *line = next_line(r, &err);
        if (err) return -1;
        if (line == NULL) break;
        if (is_blank_or_comment(line)) continue;
        int got = split(line, fields, MAX_FIELDS);
        if (got != r->columns)
            return fail(r, "line %llu: %d fields, expected %d as in the header", (unsigned long long)r->line, got,
                        r->columns);
        if (row_body((row){r, fields, 0}, &out[n].a) || row_body((row){r, fields, 1}, &out[n].b)) return -1;
        n++;
    }
    r->records += n;
    *count = n;
    return 0;
}

/* ---- the reader ----------------------------------------------------------------------------- */

int cli_reader_open(cli_reader *r, FILE *file, const char *name) {
    memset(r, 0, sizeof *r);
    r->file = file;
    r->name = name;
    r->expected = CLI_COUNT_UNKNOWN;
    r->buf = malloc(READ_CHUNK + 1);
    if (r->buf == NULL) return fail(r, "out of memory");
    /* Peek at the first bytes: a binary file starts with its magic, anything else is CSV. */
    r->len = fread(r->buf, 1, 8, file);
    if (ferror(file)) return io_fail(r, "the first bytes");
    if (r->len < 8) r->eof = feof(file);
    if (r->len == 8 && !memcmp(r->buf, CLI_MAGIC_HITS, 8))
        return fail(r, "this is a results file (magic " CLI_MAGIC_HITS "), not a batch of pairs");
    if (r->len == 8 && !memcmp(r->buf, CLI_MAGIC_PAIRS, 8)) {
        r->format = CLI_FORMAT_BINARY;
        return binary_open(r);
    }
    if (r->len == 0) return fail(r, "empty file: expected a CSV header line or a binary header");
    if (r->len == 8 && !memcmp(r->buf, "MINK", 4)) {
        char magic[9] = {0}, text[SHOWN];
        memcpy(magic, r->buf, 8);
        return fail(r, "unknown magic '%s': expected " CLI_MAGIC_PAIRS " (a binary batch of pairs)",
                    shown(magic, text, sizeof text));
    }
    /* A UTF-8 byte order mark, as some spreadsheets write, is not part of the first column's name. */
    if (r->len >= 3 && !memcmp(r->buf, "\xef\xbb\xbf", 3)) r->pos = r->bytes = 3;
    for (size_t i = r->pos; i < r->len; i++) {
        unsigned char c = (unsigned char)r->buf[i];
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            return fail(r, "byte %zu: neither a CSV header nor the magic " CLI_MAGIC_PAIRS " of a binary batch", i);
    }
    r->format = CLI_FORMAT_CSV;
    return csv_open(r);
}

int cli_reader_read(cli_reader *r, mink_pair *out, size_t capacity, size_t *count) {
    *count = 0;
    return r->format == CLI_FORMAT_BINARY ? binary_read(r, out, capacity, count) : csv_read(r, out, capacity, count);
}

void cli_reader_close(cli_reader *r) {
    free(r->buf);
    r->buf = NULL;
}

/* ---- writers -------------------------------------------------------------------------------- */

static int write_header(FILE *f, const char *magic, uint32_t record_size) {
    binary_header h = {.version = CLI_BINARY_VERSION, .record_size = record_size, .count = CLI_COUNT_UNKNOWN};
    memcpy(h.magic, magic, 8);
    return fwrite(&h, sizeof h, 1, f) == 1 ? 0 : -1;
}

int cli_write_finish(FILE *f, cli_format format, uint64_t count) {
    if (fflush(f) != 0) return -1;
    if (format != CLI_FORMAT_BINARY) return 0;
    /* A file that can seek gets its count; a pipe keeps "read to the end". */
    long end = ftell(f);
    if (end < 0 || fseek(f, offsetof(binary_header, count), SEEK_SET) != 0) return 0;
    if (fwrite(&count, sizeof count, 1, f) != 1 || fseek(f, end, SEEK_SET) != 0) return -1;
    return fflush(f) == 0 ? 0 : -1;
}

const char *cli_result_word(uint32_t flags) {
    if (flags & MINK_HIT_INVALID) return "invalid";
    if (flags & MINK_HIT_OVERLAP) return "overlap";
    if (flags & MINK_HIT_CONTACT) return "contact";
    return "none";
}

/* Nine significant digits read back as the same float, always. */
#define F9 "%.9g"

int cli_write_hits_header(FILE *f, cli_format format) {
    if (format == CLI_FORMAT_BINARY) return write_header(f, CLI_MAGIC_HITS, sizeof(mink_hit));
    return fputs("pair,result,t,t_exit,normal_x,normal_y,depth,point_x,point_y,flags\n", f) < 0 ? -1 : 0;
}

int cli_write_hits(FILE *f, cli_format format, const mink_hit *hits, size_t count, uint64_t first_index) {
    if (format == CLI_FORMAT_BINARY) return fwrite(hits, sizeof *hits, count, f) == count ? 0 : -1;
    for (size_t i = 0; i < count; i++) {
        const mink_hit *h = &hits[i];
        if (fprintf(f, "%llu,%s," F9 "," F9 "," F9 "," F9 "," F9 "," F9 "," F9 ",%u\n",
                    (unsigned long long)(first_index + i), cli_result_word(h->flags), (double)h->t, (double)h->t_exit,
                    (double)h->normal.x, (double)h->normal.y, (double)h->depth, (double)h->point.x,
                    (double)h->point.y, (unsigned)h->flags) < 0)
            return -1;
    }
    return 0;
}

int cli_write_pairs_header(FILE *f, cli_format format) {
    if (format == CLI_FORMAT_BINARY) return write_header(f, CLI_MAGIC_PAIRS, sizeof(mink_pair));
    for (int body = 0; body < 2; body++)
        for (int c = 0; c < CLI_BODY_COLUMNS; c++)
            if (fprintf(f, "%s%c_%s", body + c ? "," : "", 'a' + body, column_names[c]) < 0) return -1;
    return fputc('\n', f) == EOF ? -1 : 0;
}

/* One body's 13 fields; the columns its kind does not use stay empty. */
static int write_body(FILE *f, const mink_body *b, int first) {
    const char *sep = first ? "" : ",";
    if (b->type == MINK_SHAPE_AABB) {
        const mink_aabb *box = &b->shape.aabb;
        if (fprintf(f, "%sbox," F9 "," F9 "," F9 "," F9 ",,,,,", sep, (double)box->min.x, (double)box->min.y,
                    (double)box->max.x, (double)box->max.y) < 0)
            return -1;
    } else if (b->type == MINK_SHAPE_CIRCLE) {
        const mink_circle *c = &b->shape.circle;
        if (fprintf(f, "%scircle,,,,," F9 "," F9 "," F9 ",,", sep, (double)c->center.x, (double)c->center.y,
                    (double)c->radius) < 0)
            return -1;
    } else if (b->type == MINK_SHAPE_POLYGON) {
        const mink_polygon *p = &b->shape.polygon;
        if (fprintf(f, "%spolygon,,,,," F9 "," F9 ",," F9 ",", sep, (double)p->position.x, (double)p->position.y,
                    (double)p->angle) < 0)
            return -1;
        for (uint32_t i = 0; i < p->count && i < MINK_MAX_POLYGON_VERTICES; i++)
            if (fprintf(f, "%s" F9 " " F9, i ? " " : "", (double)p->vertices[i].x, (double)p->vertices[i].y) < 0)
                return -1;
    } else if (b->type == MINK_SHAPE_CAPSULE) {
        const mink_capsule *c = &b->shape.capsule;
        if (fprintf(f, "%scapsule,,,,,,," F9 ",," F9 " " F9 " " F9 " " F9, sep, (double)c->radius, (double)c->center1.x,
                    (double)c->center1.y, (double)c->center2.x, (double)c->center2.y) < 0)
            return -1;
    } else {
        errno = EINVAL; /* CSV has no word for it: better no file than a body of another kind */
        return -1;
    }
    return fprintf(f, "," F9 "," F9 "," F9, (double)b->velocity.x, (double)b->velocity.y,
                   (double)b->angular_velocity) < 0
               ? -1
               : 0;
}

int cli_write_pairs(FILE *f, cli_format format, const mink_pair *pairs, size_t count) {
    if (format == CLI_FORMAT_BINARY) return fwrite(pairs, sizeof *pairs, count, f) == count ? 0 : -1;
    for (size_t i = 0; i < count; i++)
        if (write_body(f, &pairs[i].a, 1) || write_body(f, &pairs[i].b, 0) || fputc('\n', f) == EOF) return -1;
    return 0;
}
