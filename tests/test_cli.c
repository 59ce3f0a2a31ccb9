/* tests/test_cli.c — the built `mink` command end to end: batch files through `mink run` agree
 * with the library called directly, bit for bit; malformed files give the documented message and
 * exit code and leave no output; the demo writes a PNG that decodes; `mink bench` writes its CSV
 * and plot. The files are written here by hand, not by the command's own writers. */
#define _GNU_SOURCE /* truncate, mknod, makedev */
#include <dirent.h>
#include <fcntl.h>
#include <png.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

#ifndef MINK_CLI
#error "MINK_CLI: the path of the built command"
#endif
#ifndef SCRATCH
#error "SCRATCH: a folder the test may write in"
#endif
#ifndef NO_TMPFILE
#error "NO_TMPFILE: the preloaded library that takes O_TMPFILE away (tests/no_tmpfile.c)"
#endif

/* ---- running the command -------------------------------------------------------------------- */

static char out_text[1 << 16];

/* Runs a shell command in the scratch folder with $M naming the command, its standard error into
 * out_text; returns its exit code. */
static int shell(const char *body) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && M='%s' && { %s; } 2> stderr.txt", SCRATCH, MINK_CLI, body);
    int status = system(cmd);
    char path[4096];
    snprintf(path, sizeof path, "%s/stderr.txt", SCRATCH);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(out_text, 1, sizeof out_text - 1, f) : 0;
    out_text[n] = '\0';
    if (f) fclose(f);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* `mink ARGS`. */
static int mink(const char *fmt, ...) {
    char args[4096], body[4200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(body, sizeof body, "\"$M\" %s", args);
    return shell(body);
}

/* Any shell command, $M being the command. */
static int sh(const char *fmt, ...) {
    char body[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    return shell(body);
}

static char *scratch(const char *name) {
    static char path[4][4096];
    static int k;
    k = (k + 1) % 4;
    snprintf(path[k], sizeof path[k], "%s/%s", SCRATCH, name);
    return path[k];
}

static int exists(const char *name) {
    struct stat st;
    return stat(scratch(name), &st) == 0;
}

/* Nothing in the scratch folder whose name starts with `stem.` and goes on (a temporary). */
static void assert_no_temporaries(const char *stem) {
    DIR *dir = opendir(SCRATCH);
    assert_non_null(dir);
    size_t len = strlen(stem);
    for (struct dirent *e; (e = readdir(dir)) != NULL;)
        if (!strncmp(e->d_name, stem, len) && e->d_name[len] == '.' && strchr(e->d_name + len + 1, '.') == NULL &&
            strlen(e->d_name + len + 1) >= 6)
            fail_msg("temporary left behind: %s", e->d_name);
    closedir(dir);
}

/* No output file and no temporary left beside it. */
static void assert_no_output(const char *name) {
    assert_false(exists(name));
    assert_no_temporaries(name);
}

static void write_text(const char *name, const char *text) {
    FILE *f = fopen(scratch(name), "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* ---- an independent writer and readers ------------------------------------------------------ */

static const char header[] = "a_kind,a_minx,a_miny,a_maxx,a_maxy,a_x,a_y,a_r,a_angle,a_points,a_vx,a_vy,a_spin,"
                             "b_kind,b_minx,b_miny,b_maxx,b_maxy,b_x,b_y,b_r,b_angle,b_points,b_vx,b_vy,b_spin\n";

static void put_body(FILE *f, const mink_body *b) {
    if (b->type == MINK_SHAPE_AABB)
        fprintf(f, "box,%.9g,%.9g,%.9g,%.9g,,,,,,", b->shape.aabb.min.x, b->shape.aabb.min.y, b->shape.aabb.max.x,
                b->shape.aabb.max.y);
    else if (b->type == MINK_SHAPE_CIRCLE)
        fprintf(f, "circle,,,,,%.9g,%.9g,%.9g,,,", b->shape.circle.center.x, b->shape.circle.center.y,
                b->shape.circle.radius);
    else if (b->type == MINK_SHAPE_CAPSULE)
        fprintf(f, "capsule,,,,,,,%.9g,,%.9g %.9g %.9g %.9g,", b->shape.capsule.radius, b->shape.capsule.center1.x,
                b->shape.capsule.center1.y, b->shape.capsule.center2.x, b->shape.capsule.center2.y);
    else {
        const mink_polygon *p = &b->shape.polygon;
        fprintf(f, "polygon,,,,,%.9g,%.9g,,%.9g,", p->position.x, p->position.y, p->angle);
        for (uint32_t i = 0; i < p->count; i++) fprintf(f, "%s%.9g %.9g", i ? " " : "", p->vertices[i].x, p->vertices[i].y);
        fputc(',', f);
    }
    fprintf(f, "%.9g,%.9g,%.9g", b->velocity.x, b->velocity.y, b->angular_velocity);
}

static void write_csv(const char *name, const mink_pair *pairs, size_t n) {
    FILE *f = fopen(scratch(name), "wb");
    assert_non_null(f);
    fputs(header, f);
    for (size_t i = 0; i < n; i++) {
        put_body(f, &pairs[i].a);
        fputc(',', f);
        put_body(f, &pairs[i].b);
        fputc('\n', f);
    }
    fclose(f);
}

static void write_binary(const char *name, const mink_pair *pairs, size_t n, uint64_t count_field) {
    FILE *f = fopen(scratch(name), "wb");
    assert_non_null(f);
    uint32_t vr[2] = {1, 328};
    uint64_t tail[2] = {count_field, 0};
    fwrite("MINKPAIR", 1, 8, f);
    fwrite(vr, 4, 2, f);
    fwrite(tail, 8, 2, f);
    fwrite(pairs, sizeof *pairs, n, f);
    fclose(f);
}

/* Reads a CSV results file back into hits (strtof gives back the very floats printed). */
static size_t read_csv_hits(const char *name, mink_hit *hits, size_t cap) {
    FILE *f = fopen(scratch(name), "rb");
    assert_non_null(f);
    char line[1024], word[32];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "pair,result,t,t_exit,normal_x,normal_y,depth,point_x,point_y,flags\n");
    size_t n = 0;
    while (fgets(line, sizeof line, f) && n < cap) {
        unsigned long long index;
        char t[8][40];
        unsigned flags;
        int got = sscanf(line, "%llu,%31[a-z],%39[^,],%39[^,],%39[^,],%39[^,],%39[^,],%39[^,],%39[^,],%u", &index, word,
                         t[0], t[1], t[2], t[3], t[4], t[5], t[6], &flags);
        assert_int_equal(got, 10);
        assert_int_equal(index, n);
        mink_hit *h = &hits[n++];
        h->t = strtof(t[0], NULL), h->t_exit = strtof(t[1], NULL);
        h->normal = mink_v2(strtof(t[2], NULL), strtof(t[3], NULL));
        h->depth = strtof(t[4], NULL);
        h->point = mink_v2(strtof(t[5], NULL), strtof(t[6], NULL));
        h->flags = flags;
        const char *want = flags & MINK_HIT_INVALID ? "invalid" : flags & MINK_HIT_OVERLAP ? "overlap"
                           : flags & MINK_HIT_CONTACT ? "contact" : "none";
        assert_string_equal(word, want);
    }
    fclose(f);
    return n;
}

static size_t read_binary_hits(const char *name, mink_hit *hits, size_t cap, uint64_t *count_field) {
    FILE *f = fopen(scratch(name), "rb");
    assert_non_null(f);
    char magic[8];
    uint32_t vr[2];
    uint64_t tail[2];
    assert_int_equal(fread(magic, 1, 8, f), 8);
    assert_memory_equal(magic, "MINKHITS", 8);
    assert_int_equal(fread(vr, 4, 2, f), 2);
    assert_int_equal(vr[0], 1);
    assert_int_equal(vr[1], 32);
    assert_int_equal(fread(tail, 8, 2, f), 2);
    *count_field = tail[0];
    size_t n = fread(hits, sizeof *hits, cap, f);
    fclose(f);
    return n;
}

/* ---- the batch: every shape, turning and not, a few invalid ------------------------------- */

enum { N = 3000 };

static mink_pair *make_batch(void) {
    mink_pair *p = calloc(N, sizeof *p);
    mink_polygon_pair *poly = calloc(N / 3, sizeof *poly);
    assert_non_null(p);
    assert_non_null(poly);
    mink_sample_pairs(7, N / 3, p);
    mink_sample_rotating_pairs(8, N / 3, p + N / 3);
    mink_sample_polygon_pairs(9, N / 3, 0, poly);
    for (size_t i = 0; i < N / 3; i++) {
        p[2 * N / 3 + i].a = mink_body_polygon(poly[i].a, poly[i].va);
        p[2 * N / 3 + i].b = mink_body_polygon(poly[i].b, poly[i].vb);
    }
    free(poly);
    /* capsules among them, turning ones too (every 9th b from the 20th) */
    for (size_t i = 20; i < N; i += 9) {
        mink_vec2 at = p[i].a.velocity;
        float k = (float)(i % 7);
        mink_body c = mink_body_capsule((mink_capsule){{at.x * 0.1f, k * 0.3f}, {at.x * 0.1f + k * 0.5f, -1.0f}, 0.25f * k},
                                        mink_v2(-at.x, 0.5f * k));
        c.angular_velocity = i >= N / 3 && i < 2 * N / 3 ? 0.5f * k : 0.0f;
        p[i].b = c;
    }
    /* invalid geometry in well-formed rows: an inverted box, a NaN, a negative radius */
    p[10].a = mink_body_aabb((mink_aabb){{1, 1}, {0, 0}}, mink_v2(0, 0));
    p[11].b.velocity.x = NAN;
    p[12].a = mink_body_circle((mink_circle){{0, 0}, -1.0f}, mink_v2(1, 0));
    return p;
}

static mink_hit *library_hits(const mink_pair *pairs, float dt) {
    mink_context *ctx = NULL;
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &ctx), MINK_OK);
    mink_hit *hits = calloc(N, sizeof *hits);
    assert_int_equal(mink_batch_sweep(ctx, pairs, N, dt, hits), MINK_OK);
    mink_context_destroy(ctx);
    return hits;
}

static void assert_same_hits(const mink_hit *got, const mink_hit *want, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (memcmp(&got[i], &want[i], sizeof *got))
            fail_msg("pair %zu: t %a vs %a, flags %u vs %u", i, (double)got[i].t, (double)want[i].t,
                     (unsigned)got[i].flags, (unsigned)want[i].flags);
}

/* ---- round trips ---------------------------------------------------------------------------- */

static void csv_round_trip(void **state) {
    (void)state;
    mink_pair *pairs = make_batch();
    mink_hit *want = library_hits(pairs, 0.75f), *got = calloc(N, sizeof *got);
    write_csv("in.csv", pairs, N);
    assert_int_equal(mink("run in.csv -o out.csv --dt 0.75 --check"), 0);
    assert_non_null(strstr(out_text, "mink run: 3000 pairs"));
    assert_non_null(strstr(out_text, "3 invalid"));
    assert_non_null(strstr(out_text, "--check: bit-identical"));
    assert_int_equal(read_csv_hits("out.csv", got, N), N);
    assert_same_hits(got, want, N);
    for (int i = 10; i <= 12; i++) assert_int_equal(got[i].flags, MINK_HIT_INVALID);
    /* the same through pipes, on the scalar backend, in small chunks */
    assert_int_equal(mink("run --backend scalar --dt 0.75 --chunk 7 < in.csv > out2.csv"), 0);
    assert_int_equal(system("cmp -s '" SCRATCH "/out2.csv' '" SCRATCH "/out.csv'"), 0);
    free(pairs), free(want), free(got);
}

static void binary_round_trip(void **state) {
    (void)state;
    mink_pair *pairs = make_batch();
    mink_hit *want = library_hits(pairs, 1.0f), *got = calloc(N + 1, sizeof *got);
    uint64_t count = 0;
    write_binary("in.bin", pairs, N, N);
    assert_int_equal(mink("run in.bin -o out.bin"), 0);
    assert_int_equal(read_binary_hits("out.bin", got, N + 1, &count), N);
    assert_int_equal(count, N);
    assert_same_hits(got, want, N);
    /* a stream of unknown length (count UINT64_MAX) through a pipe, chunk by chunk */
    write_binary("in_stream.bin", pairs, N, UINT64_MAX);
    assert_int_equal(mink("run --chunk 1000 - < in_stream.bin | cat > out_stream.bin"), 0);
    memset(got, 0, N * sizeof *got);
    assert_int_equal(read_binary_hits("out_stream.bin", got, N + 1, &count), N);
    assert_true(count == UINT64_MAX);
    assert_same_hits(got, want, N);
    /* binary in, CSV out: the same results */
    assert_int_equal(mink("run in.bin --format csv -o out_bin.csv -q"), 0);
    assert_string_equal(out_text, "");
    memset(got, 0, N * sizeof *got);
    assert_int_equal(read_csv_hits("out_bin.csv", got, N), N);
    assert_same_hits(got, want, N);
    free(pairs), free(want), free(got);
}

/* `mink sample` and `mink run` agree with each other across formats. */
static void sample_formats_agree(void **state) {
    (void)state;
    assert_int_equal(mink("sample --count 5000 --kind rotating -o s.csv"), 0);
    assert_int_equal(mink("sample --count 5000 --kind rotating --format binary -o s.bin"), 0);
    assert_int_equal(mink("run s.csv --format binary -o s_csv.out"), 0);
    assert_int_equal(mink("run s.bin -o s_bin.out"), 0);
    assert_int_equal(system("cmp -s '" SCRATCH "/s_csv.out' '" SCRATCH "/s_bin.out'"), 0);
}

/* ---- malformed input ------------------------------------------------------------------------ */

typedef struct bad_case {
    const char *name, *text; /* text NULL: written by the test below */
    const char *message;
} bad_case;

static void expect_bad(const char *file, const char *message) {
    unlink(scratch("result.csv")); /* from an earlier run of this suite */
    int rc = mink("run %s -o result.csv", file);
    if (rc != 3 || !strstr(out_text, message))
        fail_msg("%s: exit %d, message '%s'; expected 3 and '%s'", file, rc, out_text, message);
    assert_non_null(strstr(out_text, file)); /* the message names the file */
    assert_no_output("result.csv");
}

static void malformed_csv(void **state) {
    (void)state;
    mink_hit hits_bom[1];
    static const bad_case cases[] = {
        {"empty.csv", "", "empty file"},
        {"blank.csv", "\n# only a comment\n\n", "empty file: expected a header line"},
        {"bad_number.csv", "a_kind,a_minx,a_miny,a_maxx,a_maxy,a_vx,a_vy,b_kind,b_x,b_y,b_r,b_vx,b_vy\n"
                           "box,0,0,1,1,0,0,circle,5,5,1,0,0\n"
                           "box,0,abc,1,1,0,0,circle,5,5,1,0,0\n",
         "line 3, column 3 (a_miny): expected a number, got 'abc'"},
        {"trailing.csv", "a_kind,a_minx,a_miny,a_maxx,a_maxy,a_vx,a_vy,b_kind,b_x,b_y,b_r,b_vx,b_vy\n"
                         "box,0,0,1,1,0,0,circle,5,5,1x,0,0\n",
         "line 2, column 11 (b_r): expected a number, got '1x'"},
        {"empty_field.csv", "a_kind,a_minx,a_miny,a_maxx,a_maxy,a_vx,a_vy,b_kind,b_x,b_y,b_r,b_vx,b_vy\n"
                            "box,0,0,1,1,0,,circle,5,5,1,0,0\n",
         "line 2, column 7 (a_vy): expected a number, got ''"},
        {"missing_column.csv", "a_kind,a_minx,a_miny,a_maxx,a_maxy,a_vx,a_vy,b_kind,b_x,b_y,b_vx,b_vy\n"
                               "box,0,0,1,1,0,0,circle,5,5,0,0\n",
         "line 2: a circle needs column 'b_r', which the header lacks"},
        {"no_velocity.csv", "a_kind,a_minx,a_miny,a_maxx,a_maxy,a_vx,b_kind,b_x,b_y,b_r,b_vx,b_vy\n",
         "line 1: the header lacks column 'a_vy'"},
        {"unknown_column.csv", "a_kind,a_vx,a_vy,b_kind,b_vx,b_vy,a_colour\n", "column 7: unknown column 'a_colour'"},
        {"twice.csv", "a_kind,a_vx,a_vy,b_kind,b_vx,b_vy,a_vx\n", "column 7: column 'a_vx' appears twice"},
        {"fields.csv", "a_kind,a_minx,a_miny,a_maxx,a_maxy,a_vx,a_vy,b_kind,b_x,b_y,b_r,b_vx,b_vy\n"
                       "box,0,0,1,1,0,0,circle,5,5,1,0\n",
         "line 2: 12 fields, expected 13 as in the header"},
        {"kind.csv", "a_kind,a_minx,a_miny,a_maxx,a_maxy,a_vx,a_vy,b_kind,b_x,b_y,b_r,b_vx,b_vy\n"
                     "box,0,0,1,1,0,0,triangle,5,5,1,0,0\n",
         "line 2, column 8 (b_kind): expected box, circle, polygon or capsule, got 'triangle'"},
        {"points.csv", "a_kind,a_x,a_y,a_points,a_vx,a_vy,b_kind,b_x,b_y,b_r,b_vx,b_vy\n"
                       "polygon,0,0,0 0 1 0 1,0,0,circle,5,5,1,0,0\n",
         "(a_points): expected an even count of numbers"},
        {"binary_junk.csv", "\x01\x02\x03\x04\x05\x06\x07\x08 junk", "neither a CSV header nor the magic MINKPAIR"},
        {"hits.csv", "MINKHITS\x01", "a results file"},
        {"wrong_magic.bin", "MINKPAIX and more bytes after it", "unknown magic 'MINKPAIX'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_text(cases[i].name, cases[i].text);
        expect_bad(cases[i].name, cases[i].message);
    }
    /* a huge line: bounded memory, a clear message */
    FILE *f = fopen(scratch("huge.csv"), "wb");
    assert_non_null(f);
    fputs("a_kind,a_minx,a_miny,a_maxx,a_maxy,a_vx,a_vy,b_kind,b_x,b_y,b_r,b_vx,b_vy\nbox,", f);
    for (int i = 0; i < 200000; i++) fputc('1', f);
    fputc('\n', f);
    fclose(f);
    expect_bad("huge.csv", "line 2: longer than 65535 bytes");
    /* bytes a text reader would hide: a NUL inside a row is an error, not the row's end; a UTF-8
     * byte order mark before the header is skipped; the file's bytes are never echoed raw */
    static const char nul_rows[] = "a_kind,a_minx,a_miny,a_maxx,a_maxy,a_vx,a_vy,b_kind,b_x,b_y,b_r,b_vx,b_vy\n"
                                   "box,0,0,1,1,0,0,circle,5,5,1\0,0,0\n";
    f = fopen(scratch("nul.csv"), "wb");
    fwrite(nul_rows, 1, sizeof nul_rows - 1, f);
    fclose(f);
    write_text("bom.csv", "\xef\xbb\xbf" "a_kind,a_minx,a_miny,a_maxx,a_maxy,a_vx,a_vy,b_kind,b_x,b_y,b_r,b_vx,b_vy\n"
                          "box,0,0,1,1,10,0,circle,5,0.5,1,0,0\n");
    write_text("escape.csv", "a_kind,a_vx,a_vy,b_kind,b_vx,b_vy,\x1b[2J\x1b]0;owned\x07\n");
    for (int b = 0; b < 2; b++) {
        const char *be = b ? "opencl" : "scalar";
        assert_int_equal(mink("run --backend %s nul.csv -o result.csv", be), 3);
        assert_non_null(strstr(out_text, "nul.csv: line 2, byte 29: a NUL byte"));
        assert_no_output("result.csv");
        assert_int_equal(mink("run --backend %s bom.csv -o bom_out.csv", be), 0);
        assert_int_equal(read_csv_hits("bom_out.csv", hits_bom, 1), 1);
        assert_int_equal(hits_bom[0].flags, MINK_HIT_CONTACT);
        assert_int_equal(mink("run --backend %s escape.csv -o result.csv", be), 3);
        assert_non_null(strstr(out_text, "unknown column '\\x1b[2J\\x1b]0;owned\\x07'"));
        assert_null(strchr(out_text, '\x1b'));
        assert_null(strchr(out_text, '\x07'));
        /* a folder is the system's refusal (1), not a malformed file (3) */
        assert_int_equal(mink("run --backend %s . -o result.csv", be), 1);
        assert_non_null(strstr(out_text, ".: Is a directory"));
        assert_no_output("result.csv");
    }
    /* invalid geometry in a well-formed row is a result, not an error */
    write_text("invalid_rows.csv", "a_kind,a_minx,a_miny,a_maxx,a_maxy,a_vx,a_vy,b_kind,b_x,b_y,b_r,b_vx,b_vy\n"
                                   "box,1,1,0,0,0,0,circle,5,5,1,0,0\n"
                                   "box,0,0,1,1,nan,0,circle,5,5,1,0,0\n"
                                   "box,0,0,1,1,inf,0,circle,5,5,-1,0,0\n"
                                   "box,0,0,1,1,10,0,circle,5,0.5,1,0,0\n");
    assert_int_equal(mink("run invalid_rows.csv -o invalid_out.csv"), 0);
    mink_hit hits[4];
    assert_int_equal(read_csv_hits("invalid_out.csv", hits, 4), 4);
    for (int i = 0; i < 3; i++) assert_int_equal(hits[i].flags, MINK_HIT_INVALID);
    assert_int_equal(hits[3].flags, MINK_HIT_CONTACT);
}

static void malformed_binary(void **state) {
    (void)state;
    mink_pair *pairs = make_batch();
    write_binary("short_header.bin", pairs, 0, 0);
    truncate(scratch("short_header.bin"), 20);
    expect_bad("short_header.bin", "header: truncated (20 of 32 bytes)");
    write_binary("truncated.bin", pairs, 10, 10);
    truncate(scratch("truncated.bin"), 32 + 9 * 328 + 100);
    expect_bad("truncated.bin", "record 9: truncated (100 of 328 bytes)");
    write_binary("short.bin", pairs, 9, 10);
    expect_bad("short.bin", "record 9: the file ends, but its header promises 10 records");
    write_binary("long.bin", pairs, 10, 9);
    expect_bad("long.bin", "after record 9: bytes beyond the 9 records");
    write_binary("version.bin", pairs, 1, 1);
    FILE *f = fopen(scratch("version.bin"), "r+b");
    uint32_t v = 7;
    fseek(f, 8, SEEK_SET);
    fwrite(&v, 4, 1, f);
    fclose(f);
    expect_bad("version.bin", "header: version 7");
    /* a failure never clobbers an output that was there before */
    write_text("keep.csv", "precious\n");
    assert_int_equal(mink("run truncated.bin -o keep.csv"), 3);
    f = fopen(scratch("keep.csv"), "rb");
    char buf[16] = {0};
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "precious\n");
    /* a record with a nonsense shape type or polygon count comes back INVALID */
    pairs[0].a.type = 99;
    pairs[1].a.shape.polygon.count = 1000;
    pairs[1].a.type = MINK_SHAPE_POLYGON;
    write_binary("nonsense.bin", pairs, 2, 2);
    assert_int_equal(mink("run nonsense.bin --format csv -o nonsense.csv"), 0);
    mink_hit hits[2];
    assert_int_equal(read_csv_hits("nonsense.csv", hits, 2), 2);
    assert_int_equal(hits[0].flags, MINK_HIT_INVALID);
    assert_int_equal(hits[1].flags, MINK_HIT_INVALID);
    free(pairs);
}

/* ---- usage ---------------------------------------------------------------------------------- */

static void usage_errors(void **state) {
    (void)state;
    write_text("tiny.csv", "a_kind,a_minx,a_miny,a_maxx,a_maxy,a_vx,a_vy,b_kind,b_x,b_y,b_r,b_vx,b_vy\n");
    static const struct {
        const char *args, *message;
    } cases[] = {
        {"run tiny.csv --bogus", "mink: run: unknown option '--bogus'\nTry 'mink run --help'."},
        {"run tiny.csv --dt", "option '--dt' needs a value"},
        {"run tiny.csv --dt -1", "--dt needs a finite number >= 0, not '-1'"},
        {"run tiny.csv --dt nan", "--dt needs a finite number"},
        {"run tiny.csv --format xml", "--format is csv or binary, not 'xml'"},
        {"run tiny.csv --backend gpu", "--backend is auto, scalar or opencl"},
        {"run tiny.csv other.csv", "one input file at most"},
        {"run tiny.csv --chunk 0", "--chunk needs a whole number"},
        {"frobnicate", "unknown command 'frobnicate'\nTry 'mink --help'."},
        {"--frobnicate", "unknown option '--frobnicate'"},
        {"demo --steps 0", "--steps needs a whole number"},
        {"sample --kind teapot", "--kind is mixed, polygon or rotating"},
        {"bench --max 10", "--max needs a whole number from 1000"},
        {"help teapot", "unknown command 'teapot'"},
        {"help run demo", "one command at a time"},
        {"run tiny.csv --check=yes", "option '--check' takes no value"},
        {"run tiny.csv -x", "unknown option '-x'"},
        {"devices extra", "unexpected argument 'extra'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = mink("%s", cases[i].args);
        if (rc != 2 || !strstr(out_text, cases[i].message))
            fail_msg("'%s': exit %d, '%s'; expected 2 and '%s'", cases[i].args, rc, out_text, cases[i].message);
    }
    assert_int_equal(mink("run tiny.csv -o tiny.out"), 0); /* a header alone is an empty batch */
    /* getopt_long's forms: --name=value, -ovalue, "--" before a name that looks like an option */
    assert_int_equal(mink("run --dt=0.5 --backend=scalar tiny.csv -otiny2.out"), 0);
    assert_true(exists("tiny2.out"));
    write_text("-dash.csv", "a_kind,a_minx,a_miny,a_maxx,a_maxy,a_vx,a_vy,b_kind,b_x,b_y,b_r,b_vx,b_vy\n");
    assert_int_equal(mink("run -q -o dash.out -- -dash.csv"), 0);
    assert_int_equal(mink("help help > help.txt"), 0);
    assert_int_equal(sh("grep -q 'usage: mink help' help.txt"), 0);
    assert_int_equal(mink("run missing.csv -o x.out"), 1);
    assert_non_null(strstr(out_text, "missing.csv: No such file"));
    for (const char *const *c = (const char *const[]){"run", "sample", "demo", "bench", "devices", "help", NULL}; *c; c++) {
        assert_int_equal(mink("%s --help > help.txt", *c), 0);
        assert_int_equal(mink("help %s > help2.txt", *c), 0);
        assert_int_equal(system("cmp -s '" SCRATCH "/help.txt' '" SCRATCH "/help2.txt'"), 0);
    }
}

/* The progress bar appears on a terminal (script(1) gives the command one), and not on a pipe;
 * so does the build of the device's program, on a first use. */
static void progress_on_a_terminal(void **state) {
    (void)state;
    if (system("command -v script > /dev/null") != 0) skip();
    assert_int_equal(mink("sample --count 300000 --format binary -o big.bin"), 0);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && script -qec \"'%s' run --chunk 4096 big.bin -o big.out\" /dev/null < /dev/null > tty.txt",
             SCRATCH, MINK_CLI);
    assert_int_equal(system(cmd), 0);
    FILE *f = fopen(scratch("tty.txt"), "rb");
    assert_non_null(f);
    static char tty[1 << 20];
    size_t n = fread(tty, 1, sizeof tty - 1, f);
    tty[n] = '\0';
    fclose(f);
    assert_non_null(strstr(tty, "M pairs/s"));
    assert_non_null(strstr(tty, "% "));
    assert_non_null(strstr(tty, "mink run: 300000 pairs"));
    /* On a device, the first chunk builds the mixed kind's part, and the line says so. */
    if (strstr(tty, "Portable Computing Language") || strstr(tty, "NVIDIA"))
        assert_non_null(strstr(tty, "building the device's program for mink_batch_sweep (its first use"));
    assert_int_equal(mink("run big.bin -o big.out"), 0); /* not a terminal: the summary alone */
    assert_null(strstr(out_text, "pairs/s  "));
    assert_null(strstr(out_text, "\r"));
}

/* ---- the demo and the bench ------------------------------------------------------------------ */

static void assert_png(const char *name, unsigned width, unsigned height) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    assert_true(png_image_begin_read_from_file(&image, scratch(name)));
    if (width) assert_int_equal(image.width, width);
    if (height) assert_int_equal(image.height, height);
    image.format = PNG_FORMAT_RGB;
    void *pixels = malloc(PNG_IMAGE_SIZE(image));
    assert_true(png_image_finish_read(&image, NULL, pixels, 0, NULL));
    /* not blank: some pixel is lit */
    size_t lit = 0;
    for (size_t i = 0; i < PNG_IMAGE_SIZE(image); i++) lit += ((unsigned char *)pixels)[i] > 64;
    assert_true(lit > 100);
    free(pixels);
}

/* NAME (in the scratch folder) holds NEEDLE. */
static void assert_file_has(const char *name, const char *needle) {
    FILE *f = fopen(scratch(name), "rb");
    assert_non_null(f);
    char text[8192] = {0};
    fread(text, 1, sizeof text - 1, f);
    fclose(f);
    if (strstr(text, needle) == NULL) fail_msg("%s lacks \"%s\":\n%s", name, needle, text);
}

static void demo_writes_png(void **state) {
    (void)state;
    assert_int_equal(mink("demo --bullets 2000 --steps 40 --size 200 --out demo.png --check > demo.txt"), 0);
    assert_file_has("demo.txt", "tunnelled: 0\n");
    assert_file_has("demo.txt", "bit-identical to the scalar path: yes");
    assert_file_has("demo.txt", "steps/s");
    assert_png("demo.png", 200, 200);
    assert_false(exists("demo.png.tmp"));
}

/* The crowd streaming through a maze: none inside a wall, the same bits on both paths (steps and
 * lines of sight). */
static void crowd_demo_writes_png(void **state) {
    (void)state;
    assert_int_equal(mink("demo --scene crowd --bodies 1500 --rooms 3 --steps 60 --size 160 --out crowd.png --check > crowd.txt"), 0);
    assert_file_has("crowd.txt", "tunnelled: 0\n");
    assert_file_has("crowd.txt", "bit-identical to the scalar path: yes");
    assert_file_has("crowd.txt", "deepest overlap: ");
    assert_file_has("crowd.txt", "lines of sight: 9 cameras x 150 discs, 1350 rays a step");
    assert_png("crowd.png", 160, 160);
    assert_int_equal(mink("demo --scene plaza > /dev/null 2> scene.err"), 2);
}

static void bench_writes_csv_and_plot(void **state) {
    (void)state;
    /* Without gnuplot (a machine set up by hand) the CSV is still written and the exit is 1. */
    int plotted = system("command -v gnuplot > /dev/null 2>&1") == 0;
    assert_int_equal(mink("bench --max 3000 --out benchdir > bench.txt 2> bench.err"), plotted ? 0 : 1);
    if (!plotted) assert_file_has("bench.err", "gnuplot is not installed");
    FILE *f = fopen(scratch("benchdir/batch.csv"), "rb");
    assert_non_null(f);
    char line[256];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "backend,kind,pairs,seconds,pairs_per_second,fraction_of_bound\n");
    int rows = 0, opencl = 0, automatic = 0;
    while (fgets(line, sizeof line, f)) {
        rows++, opencl += !strncmp(line, "opencl,", 7), automatic += !strncmp(line, "auto,", 5);
        double fraction = strtod(strrchr(line, ',') + 1, NULL);
        assert_true(fraction > 0.0); /* a GPU's own memory may outrun the host's: no upper limit */
    }
    fclose(f);
    assert_int_equal(rows, 3 * 3 * 2); /* three backends, three kinds, 1000 and 3000 pairs */
    assert_int_equal(opencl, 6);
    assert_int_equal(automatic, 6);
    if (plotted) assert_png("benchdir/throughput.png", 0, 0);
}

/* ---- output files: what the path names decides how it is written (cli/outfile.h) ------------ */

static const char *const backends[] = {"scalar", "opencl"};

static mode_t kind_of(const char *name) {
    struct stat st;
    assert_int_equal(lstat(scratch(name), &st), 0);
    return st.st_mode & S_IFMT;
}

static void assert_same_file(const char *a, const char *b) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", scratch(a), scratch(b));
    if (system(cmd) != 0) fail_msg("%s and %s differ", a, b);
}

static void fresh(const char *name) {
    unlink(scratch(name));
}

static void output_targets(void **state) {
    (void)state;
    mink_pair *pairs = make_batch();
    write_csv("in.csv", pairs, N);
    free(pairs);
    mkdir(scratch("sub"), 0777);
    mkdir(scratch("folder.csv"), 0777);
    for (int b = 0; b < 2; b++) {
        const char *be = backends[b];
        assert_int_equal(mink("run --backend %s in.csv -o ref.csv -q", be), 0);
        /* a FIFO is written through and stays a FIFO: its reader gets every byte */
        fresh("out.fifo");
        assert_int_equal(mkfifo(scratch("out.fifo"), 0666), 0);
        assert_int_equal(sh("cat out.fifo > fifo.got & \"$M\" run --backend %s in.csv -o out.fifo -q; rc=$?; wait; exit $rc", be), 0);
        assert_int_equal(kind_of("out.fifo"), S_IFIFO);
        assert_same_file("fifo.got", "ref.csv");
        /* a character device (made here when we may: root) is written through and stays one */
        fresh("null.dev");
        if (mknod(scratch("null.dev"), S_IFCHR | 0666, makedev(1, 3)) == 0) {
            assert_int_equal(mink("run --backend %s in.csv -o null.dev -q", be), 0);
            assert_int_equal(kind_of("null.dev"), S_IFCHR);
            fresh("null.dev");
        }
        /* a symlink: the file it names gets the output, the link stays a link */
        fresh("target.csv"), fresh("link.csv");
        write_text("target.csv", "old\n");
        assert_int_equal(symlink("target.csv", scratch("link.csv")), 0);
        assert_int_equal(mink("run --backend %s in.csv -o link.csv -q", be), 0);
        assert_int_equal(kind_of("link.csv"), S_IFLNK);
        assert_same_file("target.csv", "ref.csv");
        /* ... and a failed run leaves that file as it was */
        write_text("target.csv", "precious\n");
        write_text("bad.csv", "a_kind,a_vx,a_vy,b_kind,b_vx,b_vy\nbox,0,0,triangle,0,0\n");
        assert_int_equal(mink("run --backend %s bad.csv -o link.csv", be), 3);
        assert_int_equal(kind_of("link.csv"), S_IFLNK);
        FILE *f = fopen(scratch("target.csv"), "rb");
        char text[16] = {0};
        assert_non_null(fgets(text, sizeof text, f));
        fclose(f);
        assert_string_equal(text, "precious\n");
        /* a relative link in a folder, to a file not there yet: the file is made where it points */
        fresh("sub/dangling.csv"), fresh("made.csv");
        assert_int_equal(symlink("../made.csv", scratch("sub/dangling.csv")), 0);
        assert_int_equal(mink("run --backend %s in.csv -o sub/dangling.csv -q", be), 0);
        assert_int_equal(kind_of("sub/dangling.csv"), S_IFLNK);
        assert_same_file("made.csv", "ref.csv");
        /* a regular file is replaced whole and keeps its permissions */
        write_text("mode.csv", "old\n");
        chmod(scratch("mode.csv"), 0640);
        assert_int_equal(mink("run --backend %s in.csv -o mode.csv -q", be), 0);
        struct stat st;
        assert_int_equal(stat(scratch("mode.csv"), &st), 0);
        assert_int_equal(st.st_mode & 07777, 0640);
        assert_same_file("mode.csv", "ref.csv");
        /* a folder is refused as a runtime failure, and nothing is written */
        assert_int_equal(mink("run --backend %s in.csv -o folder.csv", be), 1);
        assert_non_null(strstr(out_text, "folder.csv: Is a directory"));
        /* the demo's picture, through a FIFO and through a link */
        fresh("pic.fifo"), fresh("pic.png"), fresh("piclink.png");
        assert_int_equal(mkfifo(scratch("pic.fifo"), 0666), 0);
        assert_int_equal(sh("cat pic.fifo > pic.got & \"$M\" demo --backend %s --bullets 50 --steps 2 --size 32 "
                            "--out pic.fifo > /dev/null; rc=$?; wait; exit $rc", be), 0);
        assert_int_equal(kind_of("pic.fifo"), S_IFIFO);
        assert_png("pic.got", 32, 32);
        assert_int_equal(symlink("pic.png", scratch("piclink.png")), 0);
        assert_int_equal(mink("demo --backend %s --bullets 50 --steps 2 --size 32 --out piclink.png > /dev/null", be), 0);
        assert_int_equal(kind_of("piclink.png"), S_IFLNK);
        assert_png("pic.png", 32, 32);
    }
    /* `mink sample -o` the same way */
    fresh("s.fifo");
    assert_int_equal(mkfifo(scratch("s.fifo"), 0666), 0);
    assert_int_equal(mink("sample --count 100 -o s_ref.csv"), 0);
    assert_int_equal(sh("cat s.fifo > s.got & \"$M\" sample --count 100 -o s.fifo; rc=$?; wait; exit $rc"), 0);
    assert_int_equal(kind_of("s.fifo"), S_IFIFO);
    assert_same_file("s.got", "s_ref.csv");
    for (const char *const *stem = (const char *const[]){"target.csv", "made.csv", "mode.csv", "pic.png", "s_ref.csv", NULL};
         *stem; stem++)
        assert_no_temporaries(*stem);
}

/* ---- signals: no temporary survives one that can be caught ---------------------------------- */

/* Whether the running command holds its output open yet: a file in the scratch folder that has no
 * name (O_TMPFILE: "/#123 (deleted)") or a named temporary "sig.csv.XXXXXX". */
static int holds_output(pid_t pid, int named) {
    char dir[64], link[8192], target[8192];
    snprintf(dir, sizeof dir, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(dir);
    if (d == NULL) return 0;
    int found = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && !found;) {
        snprintf(link, sizeof link, "%s/%s", dir, e->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n <= 0) continue;
        target[n] = '\0';
        if (strncmp(target, SCRATCH "/", strlen(SCRATCH) + 1)) continue;
        found = named ? strstr(target, "/sig.csv.") != NULL : strstr(target, " (deleted)") != NULL;
    }
    closedir(d);
    return found;
}

/* `mink run` reading a FIFO that stays open, killed by sig once it holds its output; or, for
 * SIGXFSZ on the scalar path, run on a whole file under a file-size limit it outgrows.
 * named: O_TMPFILE taken away. */
static void run_killed(const char *backend, int sig, int named, const char *input, size_t prefix) {
    /* PoCL's compiler writes files too, and fails under the limit: on OpenCL the signal is sent */
    int real_limit = sig == SIGXFSZ && !strcmp(backend, "scalar");
    fresh("sig.csv"), fresh("sig.fifo");
    assert_int_equal(mkfifo(scratch("sig.fifo"), 0666), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (chdir(SCRATCH) != 0) _exit(120);
        setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0});
        signal(SIGPIPE, SIG_DFL); /* this test ignores it, and an ignored signal stays ignored across exec */
        if (real_limit) setrlimit(RLIMIT_FSIZE, &(struct rlimit){4096, 4096});
        if (named) setenv("LD_PRELOAD", NO_TMPFILE, 1);
        /* the sanitizer build: its runtime after the preload, and its crash handlers out of the way
         * (a handler already there is left alone, cli/outfile.c) */
        char asan[1024];
        const char *old = getenv("ASAN_OPTIONS");
        snprintf(asan, sizeof asan, "%s%sverify_asan_link_order=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0",
                 old ? old : "", old ? ":" : "");
        setenv("ASAN_OPTIONS", asan, 1);
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 2);
        execl(MINK_CLI, "mink", "run", "--backend", backend, "--chunk", "64", "-q",
              real_limit ? "sig_in.csv" : "sig.fifo", "-o", "sig.csv", (char *)NULL);
        _exit(121);
    }
    int fd = -1;
    if (!real_limit) {
        fd = open(scratch("sig.fifo"), O_WRONLY);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, input, prefix), (ssize_t)prefix); /* then held open: it waits for more */
        int held = 0;
        for (int tries = 0; tries < 12000 && !(held = holds_output(pid, named)); tries++)
            nanosleep(&(struct timespec){0, 10000000}, NULL);
        assert_true(held);
        kill(pid, sig);
    }
    int status = 0, ended = 0;
    for (int tries = 0; tries < 6000 && !(ended = waitpid(pid, &status, WNOHANG) == pid); tries++)
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    if (!ended) kill(pid, SIGKILL), waitpid(pid, &status, 0);
    if (fd >= 0) close(fd);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != sig)
        fail_msg("%s, signal %d%s: ended with status %#x", backend, sig, named ? " (named)" : "", (unsigned)status);
    assert_false(exists("sig.csv"));
    assert_no_temporaries("sig.csv");
}

static void signals_leave_nothing(void **state) {
    (void)state;
    assert_int_equal(sh("rm -f sig.csv.*"), 0); /* from an earlier run of this suite, stopped midway */
    signal(SIGPIPE, SIG_IGN);
    assert_int_equal(mink("sample --count 30000 -o sig_in.csv"), 0);
    FILE *f = fopen(scratch("sig_in.csv"), "rb");
    assert_non_null(f);
    static char input[8 << 20];
    size_t n = fread(input, 1, sizeof input - 1, f);
    fclose(f);
    input[n] = '\0';
    assert_true(n > (1 << 20) + 4096);
    size_t prefix = (size_t)(strchr(input + (1 << 20) + 1024, '\n') - input) + 1; /* past the reader's first 1 MiB */
    static const int every[] = {SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGUSR1, SIGSEGV, SIGUSR2,
                                SIGPIPE, SIGALRM, SIGTERM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGSYS, 0};
    static const int some[] = {SIGINT, SIGTERM, SIGPIPE, SIGUSR1, SIGALRM, SIGSEGV, SIGXFSZ, 0};
    for (int named = 0; named < 2; named++)
        for (int b = 0; b < 2; b++) {
            const int *sigs = b == 0 ? every : some;
            for (int k = 0; sigs[k]; k++)
                run_killed(backends[b], sigs[k], named, input, prefix);
            run_killed(backends[b], SIGRTMIN + 3, named, input, prefix);
        }
    signal(SIGPIPE, SIG_DFL);
}

int main(void) {
    mkdir(SCRATCH, 0777);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_round_trip),
        cmocka_unit_test(binary_round_trip),
        cmocka_unit_test(sample_formats_agree),
        cmocka_unit_test(malformed_csv),
        cmocka_unit_test(malformed_binary),
        cmocka_unit_test(usage_errors),
        cmocka_unit_test(progress_on_a_terminal),
        cmocka_unit_test(demo_writes_png),
        cmocka_unit_test(crowd_demo_writes_png),
        cmocka_unit_test(bench_writes_csv_and_plot),
        cmocka_unit_test(output_targets),
        cmocka_unit_test(signals_leave_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
