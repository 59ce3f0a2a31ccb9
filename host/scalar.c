/* host/scalar.c — the scalar path: the shared-header query in a plain loop, one per batch kind.
 *
 * Boxes, circles and circle–box pairs go through columns: the compiler vectorizes their sweeps
 * (written without branches) over arrays of each field, 4 to 16 pairs per instruction, never over
 * an array of records. The column loops serve the _soa batches directly; the record batches go a
 * block of records at a time, turned into columns by vector shuffles (the next block's records
 * fetched meanwhile) and back. Vector lanes compute what the scalar code computes, IEEE operation
 * by IEEE operation (no contraction, no reassociation), so the bits are the same. Pairs of a
 * polygon against a polygon, a box or a circle, typed or gathered from a mixed batch, are checked
 * a block at a time, side by side.
 *
 * This file is built with -fno-trapping-math, -fno-math-errno, -fno-thread-jumps, -fno-tree-pre
 * and -fno-ssa-phiopt (CMakeLists.txt). None changes a value: the first lets GCC compute a
 * division whose result a select drops (it could only raise a floating-point flag, which mink never
 * reads), the second lets sqrtf be one instruction (it could only set errno, which mink never
 * reads), and the last three stop GCC from turning the selects back into branches, or into
 * selects between flags, neither of which it can vectorize. */
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "internal.h"

/* One build for AVX2 machines (8 pairs per instruction) and one for any x86-64, picked when the
 * library loads; circles and circle–box pairs, whose math is heavier than their memory traffic,
 * one for AVX-512 (16) too (docs/benchmarks.md, "Figures behind the code"). The record functions
 * are built for AVX2 and for any machine too, for their copies into columns and back (below).
 * No build may fuse a multiply and an add (tests: no_fused_multiply_add). */
#if defined(__GNUC__) && defined(__x86_64__) && defined(__ELF__)
#define MINK_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#define MINK_CLONES_512 __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define MINK_CLONES
#define MINK_CLONES_512
#endif

/* Batches (a thread's share) of at least this many pairs write their hits with non-temporal
 * stores: past the caches, which they would not fit, and without first reading each line in. */
#define MINK_STREAM_HITS ((size_t)1 << 20)
/* The same for record batches, whose hits go out 32 bytes a hit from a block already in the L1
 * cache: from a quarter of that (8 MiB of hits a thread) they ran faster streamed
 * (docs/benchmarks.md, "Records by eight"). */
#define MINK_STREAM_RECORDS ((size_t)1 << 18)

/* Pairs [0, n) of the columns. restrict on every parameter: GCC trusts it there, and without it
 * would have to check 20 arrays against each other before vectorizing. Always inlined into the two
 * builds below, which differ only in the vector width the compiler picks. */
MINK_ALWAYS_INLINE void aabb_loop(size_t n, float dt, const float *restrict a_min_x, const float *restrict a_min_y,
                                  const float *restrict a_max_x, const float *restrict a_max_y,
                                  const float *restrict va_x, const float *restrict va_y,
                                  const float *restrict b_min_x, const float *restrict b_min_y,
                                  const float *restrict b_max_x, const float *restrict b_max_y,
                                  const float *restrict vb_x, const float *restrict vb_y, float *restrict t,
                                  float *restrict normal_x, float *restrict normal_y, float *restrict depth,
                                  float *restrict point_x, float *restrict point_y, float *restrict t_exit,
                                  uint32_t *restrict flags) {
    for (size_t i = 0; i < n; i++)
        MINK_SWEEP_AABB_COLUMN(i, dt, a_min_x, a_min_y, a_max_x, a_max_y, va_x, va_y, b_min_x, b_min_y, b_max_x,
                               b_max_y, vb_x, vb_y, t, normal_x, normal_y, depth, point_x, point_y, t_exit, flags);
}

#define MINK_AABB_COLUMNS_ARGS(in, out)                                                            \
    in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], in[8], in[9], in[10], in[11], out[0], out[1], out[2], \
        out[3], out[4], out[5], out[6], out[7]

MINK_CLONES static void aabb_columns(size_t n, float dt, const float *const *in, void *const *out) {
    aabb_loop(n, dt, MINK_AABB_COLUMNS_ARGS(in, out));
}
MINK_CLONES_512 static void aabb_columns_wide(size_t n, float dt, const float *const *in, void *const *out) {
    aabb_loop(n, dt, MINK_AABB_COLUMNS_ARGS(in, out));
}

/* Whether the x86-64-v4 (AVX-512) build runs here. */
static int wide_vectors(void) {
#if defined(__GNUC__) && defined(__x86_64__) && defined(__ELF__)
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
    return 0;
#endif
}

/* Whether more than 8 of the 20 arrays start at the same 64-byte line of a 4 KiB page, as
 * separate large allocations do (each its own pages, at the same offset in them). Their lines
 * then share one set of the L1 cache, which holds 8. With 16 pairs a vector (AVX-512) each line
 * is used once, and that build is the faster there; with 8 (AVX2) each is used in two halves and
 * evicted between them, and the columns are copied a block at a time instead (aabb_staged). The
 * answers do not depend on the way (docs/benchmarks.md, "Figures behind the code"). */
static int crowded(const float *const *in, void *const *out) {
    unsigned lines[64] = {0}, most = 0;
    for (int k = 0; k < 20; k++) {
        unsigned line = (unsigned)((uintptr_t)(k < 12 ? (const void *)in[k] : out[k - 12]) >> 6) & 63u;
        if (++lines[line] > most) most = lines[line];
    }
    return most > 8;
}

/* Records per block: the columns of one block (20 × 4 × 32 bytes) stay in the L1 cache. Blocks of
 * 32 ran faster from memory than of 16, 64 or 128 (docs/benchmarks.md, "Records by eight"). */
#define MINK_BLOCK 32
/* The floats of a record block's column: room for the largest block (MINK_CIRCLE_AABB_BLOCK;
 * 10 KiB of columns on the caller's stack). */
#define MINK_RECORD_ROW 128

/* Pairs per block of staged box columns, and the floats between two staged columns: a line more,
 * so that no two share a set of the L1 cache. */
#define MINK_STAGE 1024
#define MINK_STAGE_ROW (MINK_STAGE + 16)

/* n 4-byte words (floats, or the flags) copied to `to`; with `stream`, past the caches from the
 * first 16-byte boundary of `to` on. Through integer vectors and memcpy: the words' types vary. */
MINK_ALWAYS_INLINE void copy_out(void *restrict to, const void *restrict from, size_t n, int stream) {
    char *d = to;
    const char *f = from;
    size_t i = 0;
    (void)stream; /* without SSE2, nothing goes past the caches */
#if defined(__SSE2__)
    size_t peel = ((16u - ((uintptr_t)d & 15u)) & 15u) / 4u; /* words before the boundary */
    if (stream && peel < n) {
        memcpy(d, f, peel * 4);
        for (i = peel; i + 4 <= n; i += 4) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(f + 4 * i));
            _mm_stream_si128((__m128i *)(void *)(d + 4 * i), v);
        }
    }
#endif
    memcpy(d + 4 * i, f + 4 * i, (n - i) * 4);
}

/* Crowded box columns without AVX-512, a block at a time: each input array's run copied into a
 * column of `stage` (20 × MINK_STAGE_ROW floats), the loop over those, each output copied out,
 * one array at a time in runs of 4 KiB. Circles, whose math outweighs their memory traffic,
 * measured no faster so. Only copies: the bits are the loop's. */
MINK_CLONES static void aabb_staged(size_t count, float dt, const float *const *in, void *const *out,
                                    float *stage) {
    int stream = count >= MINK_STREAM_HITS;
    const float *c[12];
    void *o[8];
    for (int k = 0; k < 12; k++) c[k] = stage + k * MINK_STAGE_ROW;
    for (int k = 0; k < 8; k++) o[k] = stage + (12 + k) * MINK_STAGE_ROW;
    for (size_t at = 0; at < count; at += MINK_STAGE) {
        size_t n = count - at < MINK_STAGE ? count - at : MINK_STAGE;
        for (int k = 0; k < 12; k++) memcpy(stage + k * MINK_STAGE_ROW, in[k] + at, n * sizeof(float));
        aabb_loop(n, dt, MINK_AABB_COLUMNS_ARGS(c, o));
        for (int k = 0; k < 8; k++) copy_out((char *)out[k] + 4 * at, o[k], n, stream);
    }
#if defined(__SSE2__)
    if (stream) _mm_sfence();
#endif
}

/* Crowded box columns with AVX-512, a thread's share of MINK_STREAM_HITS pairs or more: the wide
 * loop reads the columns in place (each line once) and writes a block's answers into `stage` (its
 * rows 12 to 19, as aabb_staged's), copied out past the caches: written in place, each output line
 * was first read in, 32 bytes a pair more than the bound counts (docs/benchmarks.md, "Box columns'
 * answers past the caches"). Only copies: the bits are the loop's. */
MINK_CLONES_512 static void aabb_wide_staged(size_t count, float dt, const float *const *in, void *const *out,
                                             float *stage) {
    const float *c[12];
    void *o[8];
    for (int k = 0; k < 8; k++) o[k] = stage + (12 + k) * MINK_STAGE_ROW;
    for (size_t at = 0; at < count; at += MINK_STAGE) {
        size_t n = count - at < MINK_STAGE ? count - at : MINK_STAGE;
        for (int k = 0; k < 12; k++) c[k] = in[k] + at;
        aabb_loop(n, dt, MINK_AABB_COLUMNS_ARGS(c, o));
        for (int k = 0; k < 8; k++) copy_out((char *)out[k] + 4 * at, o[k], n, 1);
    }
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

void mink__scalar_aabb_soa(size_t n, float dt, const mink_rotating_desc *desc, const void *const *arrays,
                           void *const *out) {
    const float *const *in = (const float *const *)arrays;
    (void)desc;
    /* A record block's columns (sweep_records, below) lie in the L1 cache, where the
     * arithmetic is the limit and 16 pairs an instruction ran 1.9 times as fast as 8; from memory
     * the 8 ran faster (docs/benchmarks.md, "Records by eight"). */
    if (n <= MINK_BLOCK && wide_vectors()) {
        aabb_columns_wide(n, dt, in, out);
        return;
    }
    if (!crowded(in, out)) {
        aabb_columns(n, dt, in, out);
        return;
    }
    /* The stage on the heap: a caller's thread may have a small stack. Without it, in place. */
    int wide = wide_vectors();
    float *stage = !wide || n >= MINK_STREAM_HITS ? malloc(20 * MINK_STAGE_ROW * sizeof(float)) : NULL;
    if (stage == NULL)
        aabb_columns_wide(n, dt, in, out);
    else if (wide)
        aabb_wide_staged(n, dt, in, out, stage);
    else
        aabb_staged(n, dt, in, out, stage);
    free(stage);
}

/* Circle–box pairs per block, in columns and in records: the states after the first part and
 * the answers of the pairs swept whole wait in the L1 cache. About one pair in ten is swept
 * whole, padded to a vector of 16: blocks of 32 would pad three pairs to sixteen. */
#define MINK_CIRCLE_AABB_BLOCK 128
_Static_assert(MINK_CIRCLE_AABB_BLOCK % 16 == 0, "the padded list stays within the block");
_Static_assert(MINK_STAGE % MINK_CIRCLE_AABB_BLOCK == 0, "a stage holds whole blocks");

/* Circle–box pairs [0, m) of the columns (a record's 11 floats: a, va, b, vb) into the answer
 * columns o0 .. o7. Two pairs in three never come near the box, and most of the rest enter and
 * leave it through a face; only about one in ten needs the roots and normalizations that are most
 * of the sweep's arithmetic. So the first loop answers every pair that way (none, or a face
 * contact), and the pairs it cannot answer (a corner, an overlap, invalid input) are listed,
 * swept whole, and written over. Each loop computes every case and selects the answer
 * (core/circle.h), so it vectorizes, AVX-512 too, as for circles, whose math it shares. A pair's
 * bits are mink_sweep_circle_aabb_inline's whichever loop answers it (core/circle.h says why). */
MINK_ALWAYS_INLINE void circle_aabb_loop(size_t m, float dt, const float *restrict ax, const float *restrict ay,
                                          const float *restrict ar, const float *restrict vax,
                                          const float *restrict vay, const float *restrict bx0,
                                          const float *restrict by0, const float *restrict bx1,
                                          const float *restrict by1, const float *restrict vbx,
                                          const float *restrict vby, float *restrict o0, float *restrict o1,
                                          float *restrict o2, float *restrict o3, float *restrict o4,
                                          float *restrict o5, float *restrict o6, uint32_t *restrict o7) {
    enum { B = MINK_CIRCLE_AABB_BLOCK };
    int ok[B], reach[B], on_y[B], whole[B];
    float t_in[B], t_out[B], w[7][B];
    uint32_t wf[B], which[B];
    size_t k = 0;
    for (size_t j = 0; j < m; j++) {
        mink_circle a;
        mink_aabb b;
        a.center = mink_v2(ax[j], ay[j]), a.radius = ar[j];
        b.min = mink_v2(bx0[j], by0[j]), b.max = mink_v2(bx1[j], by1[j]);
        mink_vec2 va = mink_v2(vax[j], vay[j]), vb = mink_v2(vbx[j], vby[j]);
        mink_circle_aabb_reach(a, va, b, vb, dt, &ok[j], &reach[j], &on_y[j], &t_in[j], &t_out[j]);
        int face;
        mink_hit h = mink_circle_aabb_face_hit(a, va, b, vb, dt, ok[j], reach[j], on_y[j], t_in[j], t_out[j], &face);
        whole[j] = (ok[j] == 0) | (reach[j] & (face == 0));
        h = mink_hit_select(face, h, mink_hit_none());
        MINK_STORE_HIT_COLUMN(j, h, o0, o1, o2, o3, o4, o5, o6, o7);
    }
    for (size_t j = 0; j < m; j++) which[k] = (uint32_t)j, k += (size_t)whole[j];
    if (k == 0) return;
    /* Padded to whole vectors with copies of the last listed pair: a vector loop's remainder runs
     * one pair at a time, and of a sweep this long that cost more than the padding. */
    size_t padded = (k + 15) & ~(size_t)15;
    for (size_t q = k; q < padded; q++) which[q] = which[k - 1];
    for (size_t q = 0; q < padded; q++) {
        size_t j = which[q];
        mink_circle a;
        mink_aabb b;
        a.center = mink_v2(ax[j], ay[j]), a.radius = ar[j];
        b.min = mink_v2(bx0[j], by0[j]), b.max = mink_v2(bx1[j], by1[j]);
        mink_hit h = mink_sweep_circle_aabb_reached(a, mink_v2(vax[j], vay[j]), b, mink_v2(vbx[j], vby[j]), dt,
                                                    ok[j], reach[j], on_y[j], t_in[j], t_out[j]);
        MINK_STORE_HIT_COLUMN(q, h, w[0], w[1], w[2], w[3], w[4], w[5], w[6], wf);
    }
    for (size_t q = 0; q < k; q++) {
        size_t j = which[q];
        o0[j] = w[0][q], o1[j] = w[1][q], o2[j] = w[2][q], o3[j] = w[3][q];
        o4[j] = w[4][q], o5[j] = w[5][q], o6[j] = w[6][q], o7[j] = wf[q];
    }
}

/* Pairs [0, n) of circle–box columns a block at a time: into the answer columns in place, or for a
 * large batch into `stage` (8 rows of MINK_STAGE_ROW), copied out past the caches every
 * MINK_STAGE pairs: written in place, each line of the answers was first read in, 32 bytes a pair
 * more than the bound counts (as for box columns), and runs of a block's 128 answers streamed
 * slower than of 1024 (docs/benchmarks.md, "Circle–box pairs by face"). */
MINK_CLONES_512
static void circle_aabb_columns(size_t n, float dt, const float *const *in, void *const *out, float *stage) {
    for (size_t at = 0; at < n; at += MINK_CIRCLE_AABB_BLOCK) {
        size_t m = n - at < MINK_CIRCLE_AABB_BLOCK ? n - at : MINK_CIRCLE_AABB_BLOCK;
        size_t row = at % MINK_STAGE;
        float *o[8];
        for (int c = 0; c < 8; c++) o[c] = stage ? stage + c * MINK_STAGE_ROW + row : (float *)out[c] + at;
        circle_aabb_loop(m, dt, in[0] + at, in[1] + at, in[2] + at, in[3] + at, in[4] + at, in[5] + at, in[6] + at,
                          in[7] + at, in[8] + at, in[9] + at, in[10] + at, o[0], o[1], o[2], o[3], o[4], o[5], o[6],
                          (uint32_t *)(void *)o[7]);
        if (stage && (row + m == MINK_STAGE || at + m == n))
            for (int c = 0; c < 8; c++)
                copy_out((char *)out[c] + 4 * (at - row), stage + c * MINK_STAGE_ROW, row + m, 1);
    }
#if defined(__SSE2__)
    if (stage) _mm_sfence();
#endif
}

void mink__scalar_circle_aabb_soa(size_t n, float dt, const mink_rotating_desc *desc, const void *const *arrays,
                                  void *const *out) {
    (void)desc;
    /* The stage on the heap: a caller's thread may have a small stack. Without it, in place. */
    float *stage = n >= MINK_STREAM_HITS ? malloc(8 * MINK_STAGE_ROW * sizeof(float)) : NULL;
    circle_aabb_columns(n, dt, (const float *const *)arrays, out, stage);
    free(stage);
}


/* The copies by transposes need __builtin_shufflevector (clang, GCC 12 and later); without it
 * they go one float at a time, the same bits. */
#if defined(__SSE2__) && defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define MINK_SHUFFLES 1
#endif
#endif

#if defined(MINK_SHUFFLES)
/* Rows of four floats (SSE), and of eight in two halves of four (AVX2): the compiler's generic
 * vectors, so one source serves both builds. Every shuffle below keeps floats within their half
 * of four, the shuffles every x86 vector unit does fastest. An SSE build lowers a shuffle of eight
 * one float at a time, so it never sees one (sweep_records' `width`). Macros, not functions: GCC
 * kept arrays of rows, and rows returned, in memory. */
typedef float mink_f4 __attribute__((vector_size(16)));
typedef float mink_f8 __attribute__((vector_size(32)));
#define MINK_MASK(...) __VA_ARGS__
#define MINK_SHUFFLE(a, b, mask) __builtin_shufflevector(a, b, MINK_MASK mask)

/* Four rows transposed in each half of four: afterwards row m holds field m of the records whose
 * four fields the rows held, in that half. lo/hi interleave the first/last two floats of each half,
 * lo2/hi2 its first/last two pairs. */
#define MINK_TRANSPOSE(T, r0, r1, r2, r3, lo, hi, lo2, hi2)                                     \
    do {                                                                                        \
        T t0_ = MINK_SHUFFLE(r0, r1, lo), t1_ = MINK_SHUFFLE(r0, r1, hi);                       \
        T t2_ = MINK_SHUFFLE(r2, r3, lo), t3_ = MINK_SHUFFLE(r2, r3, hi);                       \
        r0 = MINK_SHUFFLE(t0_, t2_, lo2), r1 = MINK_SHUFFLE(t0_, t2_, hi2);                     \
        r2 = MINK_SHUFFLE(t1_, t3_, lo2), r3 = MINK_SHUFFLE(t1_, t3_, hi2);                     \
    } while (0)
#define MINK_TRANSPOSE4(r0, r1, r2, r3)                                                         \
    MINK_TRANSPOSE(mink_f4, r0, r1, r2, r3, (0, 4, 1, 5), (2, 6, 3, 7), (0, 1, 4, 5), (2, 3, 6, 7))
#define MINK_TRANSPOSE8(r0, r1, r2, r3)                                                         \
    MINK_TRANSPOSE(mink_f8, r0, r1, r2, r3, (0, 8, 1, 9, 4, 12, 5, 13), (2, 10, 3, 11, 6, 14, 7, 15), \
                   (0, 1, 8, 9, 4, 5, 12, 13), (2, 3, 10, 11, 6, 7, 14, 15))

/* Row j of a group of four records `floats` apart from r: their floats k .. k + 3, of record j
 * (four), or of records j and j + 4, one a half (eight). */
#define MINK_ROW4(row, r, floats, j, k) memcpy(&row, (r) + (j) * (floats) + (k), sizeof row)
#define MINK_ROW8(row, r, floats, j, k)                                                         \
    do {                                                                                        \
        mink_f4 lo_, hi_;                                                                       \
        memcpy(&lo_, (r) + (j) * (floats) + (k), sizeof lo_);                                   \
        memcpy(&hi_, (r) + ((j) + 4) * (floats) + (k), sizeof hi_);                             \
        row = __builtin_shufflevector(lo_, hi_, 0, 1, 2, 3, 4, 5, 6, 7);                        \
    } while (0)

/* Records [i, n) of the block, `stride` floats apart, into columns: their first `floats` floats
 * (4 or more), `width` records at a time, four floats of each at once (a count of floats not a
 * multiple of four ends with four that overlap the four before: written twice, the same values). */
#define MINK_RECORDS_TO_COLUMNS(T, width)                                                       \
    for (; i + (width) <= n; i += (width)) {                                                    \
        const float *r = f + i * stride;                                                        \
        _Pragma("GCC unroll 4") for (size_t c = 0; c < floats; c += 4) {                        \
            size_t k = c + 4 <= floats ? c : floats - 4;                                        \
            T r0, r1, r2, r3;                                                                   \
            MINK_ROW##width(r0, r, stride, 0, k);                                               \
            MINK_ROW##width(r1, r, stride, 1, k);                                               \
            MINK_ROW##width(r2, r, stride, 2, k);                                               \
            MINK_ROW##width(r3, r, stride, 3, k);                                               \
            MINK_TRANSPOSE##width(r0, r1, r2, r3);                                              \
            memcpy(&col[k][i], &r0, sizeof r0), memcpy(&col[k + 1][i], &r1, sizeof r1);         \
            memcpy(&col[k + 2][i], &r2, sizeof r2), memcpy(&col[k + 3][i], &r3, sizeof r3);     \
        }                                                                                       \
    }

/* Records [i, n) into columns by the transposes of `width` (4 or 8), as far as whole groups go. */
#define MINK_RECORDS_BY_TRANSPOSES(width)                                                       \
    do {                                                                                        \
        if ((width) == 8)                                                                       \
            MINK_RECORDS_TO_COLUMNS(mink_f8, 8)                                                 \
        else                                                                                    \
            MINK_RECORDS_TO_COLUMNS(mink_f4, 4)                                                 \
    } while (0)

/* 16 bytes of a hit stored: with `stream`, past the caches. */
#define MINK_STORE16(p, q, stream) ((stream) ? _mm_stream_ps((p), (q)) : (void)memcpy((p), &(q), 16))

/* Hits from their fields 0-3 (front) and 4-7 (back): hit h (four), or hits h and h + 4, one a half
 * (eight). */
#define MINK_HITS4(h, front, back, stream)                                                      \
    do {                                                                                        \
        float *p_ = (float *)(void *)(h);                                                       \
        MINK_STORE16(p_, front, stream), MINK_STORE16(p_ + 4, back, stream);                    \
    } while (0)
#define MINK_HITS8(h, front, back, stream)                                                      \
    do {                                                                                        \
        mink_f4 f0_ = __builtin_shufflevector(front, front, 0, 1, 2, 3);                        \
        mink_f4 b0_ = __builtin_shufflevector(back, back, 0, 1, 2, 3);                          \
        mink_f4 f1_ = __builtin_shufflevector(front, front, 4, 5, 6, 7);                        \
        mink_f4 b1_ = __builtin_shufflevector(back, back, 4, 5, 6, 7);                          \
        MINK_HITS4(h, f0_, b0_, stream);                                                        \
        MINK_HITS4((h) + 4, f1_, b1_, stream);                                                  \
    } while (0)

/* Hits [i, n) from the block's output columns, `width` at a time: fields 0-3 and 4-7 of each by
 * two transposes. */
#define MINK_COLUMNS_TO_HITS(T, width)                                                          \
    for (; i + (width) <= n; i += (width)) {                                                    \
        T f0, f1, f2, f3, b0, b1, b2, b3;                                                       \
        memcpy(&f0, &out[0][i], sizeof f0), memcpy(&f1, &out[1][i], sizeof f1);                 \
        memcpy(&f2, &out[2][i], sizeof f2), memcpy(&f3, &out[3][i], sizeof f3);                 \
        memcpy(&b0, &out[4][i], sizeof b0), memcpy(&b1, &out[5][i], sizeof b1);                 \
        memcpy(&b2, &out[6][i], sizeof b2), memcpy(&b3, &flags[i], sizeof b3);                  \
        MINK_TRANSPOSE##width(f0, f1, f2, f3);                                                  \
        MINK_TRANSPOSE##width(b0, b1, b2, b3);                                                  \
        MINK_HITS##width(hits + i, f0, b0, stream);                                             \
        MINK_HITS##width(hits + i + 1, f1, b1, stream);                                         \
        MINK_HITS##width(hits + i + 2, f2, b2, stream);                                         \
        MINK_HITS##width(hits + i + 3, f3, b3, stream);                                         \
    }
#endif
#if !defined(MINK_SHUFFLES)
#define MINK_RECORDS_BY_TRANSPOSES(width) ((void)(width), (void)stride) /* one float at a time, after */
#endif

/* A block of n records of `floats` floats each into columns, `width` (4 or 8) at a time by
 * transposes, the rest one float at a time. Compilers turn neither the plain loop (an interleaved
 * group of 10 to 12 loads) nor memcpy's into vectors. Always inlined: with `floats` and `width`
 * constants the copy unrolls per kind and build. Only copies: the bits are the records'. */
MINK_ALWAYS_INLINE void load_columns(const void *records, size_t floats, size_t n, float col[][MINK_RECORD_ROW],
                                     int width) {
    const float *restrict f = records; /* records of floats only (internal.h checks their sizes) */
    size_t i = 0, stride = floats;
    MINK_RECORDS_BY_TRANSPOSES(width);
    for (; i < n; i++)
        for (size_t k = 0; k < floats; k++) col[k][i] = f[i * floats + k];
}

/* Hits [0, n) from a block's output columns (a hit is eight 4-byte fields, in the order of the
 * columns), `width` at a time by transposes (with `stream`, stored past the caches: the hits must
 * be 16-byte aligned), the rest one field at a time. Only copies. */
MINK_ALWAYS_INLINE void store_hits(mink_hit *restrict hits, size_t n, float out[7][MINK_RECORD_ROW],
                                   const uint32_t *flags, int stream, int width) {
    _Static_assert(sizeof(mink_hit) == 8 * sizeof(float), "a hit is eight 4-byte fields");
    size_t i = 0;
#if defined(MINK_SHUFFLES)
    if (width == 8)
        MINK_COLUMNS_TO_HITS(mink_f8, 8)
    else
        MINK_COLUMNS_TO_HITS(mink_f4, 4)
#else
    (void)width, (void)stream;
#endif
    for (; i < n; i++) {
        mink_hit *h = &hits[i];
        h->t = out[0][i];
        h->normal = mink_v2(out[1][i], out[2][i]);
        h->depth = out[3][i];
        h->point = mink_v2(out[4][i], out[5][i]);
        h->t_exit = out[6][i];
        h->flags = flags[i];
    }
}

/* Circle pairs per block: the roots of one (3 × 4 × 32 bytes) wait in the L1 cache for the
 * answers; 32 measured a little faster than 64. */
#define MINK_CIRCLE_BLOCK 32

/* Circles [0, n) of the columns (a record's 10 floats: a, va, b, vb), a block at a time: the
 * roots of every pair in it, then the answers (core/circle.h says why in two loops). */
MINK_CLONES_512
static void circle_columns(size_t n, float dt, const float *restrict ax, const float *restrict ay,
                           const float *restrict ar, const float *restrict vax, const float *restrict vay,
                           const float *restrict bx, const float *restrict by, const float *restrict br,
                           const float *restrict vbx, const float *restrict vby, float *restrict t,
                           float *restrict normal_x, float *restrict normal_y, float *restrict depth,
                           float *restrict point_x, float *restrict point_y, float *restrict t_exit,
                           uint32_t *restrict flags) {
    float t0[MINK_CIRCLE_BLOCK], t1[MINK_CIRCLE_BLOCK], roots[MINK_CIRCLE_BLOCK];
    for (size_t at = 0; at < n; at += MINK_CIRCLE_BLOCK) {
        size_t m = n - at < MINK_CIRCLE_BLOCK ? n - at : MINK_CIRCLE_BLOCK;
        /* A block of tame pairs (mink_circle_tame: offsets and moves within 2^12 of the radii,
         * nothing tiny or huge; every pair of the circle sample) goes through the same operations
         * without the power-of-two scalings, which change no bit there. */
        int tame = 1;
        for (size_t j = 0; j < m; j++) {
            size_t i = at + j;
            mink_circle a = {{ax[i], ay[i]}, ar[i]}, b = {{bx[i], by[i]}, br[i]};
            tame &= mink_circle_pair_tame(a, mink_v2(vax[i], vay[i]), b, mink_v2(vbx[i], vby[i]), dt);
        }
        if (tame) {
            for (size_t j = 0; j < m; j++)
                MINK_CIRCLE_COLUMN_ROOTS_AS(1, at + j, j, dt, ax, ay, ar, vax, vay, bx, by, br, vbx, vby, t0, t1, roots);
            for (size_t j = 0; j < m; j++)
                MINK_CIRCLE_COLUMN_ANSWER_AS(1, at + j, j, dt, ax, ay, ar, vax, vay, bx, by, br, vbx, vby, t0, t1, roots,
                                             t, normal_x, normal_y, depth, point_x, point_y, t_exit, flags);
            continue;
        }
        for (size_t j = 0; j < m; j++)
            MINK_CIRCLE_COLUMN_ROOTS(at + j, j, dt, ax, ay, ar, vax, vay, bx, by, br, vbx, vby, t0, t1, roots);
        for (size_t j = 0; j < m; j++)
            MINK_CIRCLE_COLUMN_ANSWER(at + j, j, dt, ax, ay, ar, vax, vay, bx, by, br, vbx, vby, t0, t1, roots, t,
                                      normal_x, normal_y, depth, point_x, point_y, t_exit, flags);
    }
}

void mink__scalar_circle_soa(size_t n, float dt, const mink_rotating_desc *desc, const void *const *arrays,
                             void *const *out) {
    const float *const *in = (const float *const *)arrays;
    (void)desc;
    circle_columns(n, dt, in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], in[8], in[9], out[0], out[1],
                   out[2], out[3], out[4], out[5], out[6], out[7]);
}

/* The record functions' two builds: AVX2's, whose copies go eight records at a time, and any
 * machine's (four). */
#if defined(MINK_SHUFFLES) && defined(__GNUC__) && defined(__x86_64__) && defined(__ELF__)
#define MINK_AVX2 __attribute__((target("avx2")))
static int avx2(void) {
#ifdef MINK_FAULT_SEAM
    if (mink__seam_baseline) return 0; /* the test build's switch (host/seam.h) */
#endif
    return __builtin_cpu_supports("avx2");
}
#else
#define MINK_AVX2
static int avx2(void) { return 0; }
#endif

/* Polygon pairs per block: their polygons as columns, placed hulls and states (about 22 KiB) wait
 * in the L1 cache. */
#define MINK_POLYGON_BLOCK 32
_Static_assert(MINK_MAX_POLYGON_VERTICES == 8, "mink_polygon_is_valid_within writes out eight corners");

/* A block's polygons (one side of its pairs) as columns, each pair's velocity on that side after
 * them: row k of pair j at row[k][j], the rows in the order of the floats of a polygon and its
 * velocity in a typed record (mink_polygon_pair's a and va), so that a block's records go into
 * columns by transposes (rows_to_columns). */
enum { POLYGON_ROWS = sizeof(mink_polygon) / sizeof(float) + 2 };
typedef union polygon_columns {
    float row[POLYGON_ROWS][MINK_POLYGON_BLOCK];
    struct {
        float v[2 * MINK_MAX_POLYGON_VERTICES][MINK_POLYGON_BLOCK]; /* x0, y0, x1, y1, ... */
        float n[2 * MINK_MAX_POLYGON_VERTICES][MINK_POLYGON_BLOCK];
        float px[MINK_POLYGON_BLOCK], py[MINK_POLYGON_BLOCK], angle[MINK_POLYGON_BLOCK], radius[MINK_POLYGON_BLOCK];
        uint32_t count[MINK_POLYGON_BLOCK];
        float velx[MINK_POLYGON_BLOCK], vely[MINK_POLYGON_BLOCK];
    };
} polygon_columns;
_Static_assert(offsetof(mink_polygon, count) == (POLYGON_ROWS - 3) * sizeof(float) &&
                   offsetof(mink_polygon_pair, va) == sizeof(mink_polygon) &&
                   offsetof(polygon_columns, vely) == (POLYGON_ROWS - 1) * sizeof(float) * MINK_POLYGON_BLOCK &&
                   offsetof(mink_polygon_pair, b) == POLYGON_ROWS * sizeof(float) &&
                   offsetof(mink_polygon_aabb_pair, b) == POLYGON_ROWS * sizeof(float) &&
                   offsetof(mink_polygon_circle_pair, b) == POLYGON_ROWS * sizeof(float),
               "a polygon and its velocity are the columns' rows, in their order");

MINK_ALWAYS_INLINE mink_polygon polygon_from_columns(const polygon_columns *c, size_t j) {
    mink_polygon p;
    for (int i = 0; i < MINK_MAX_POLYGON_VERTICES; i++) {
        p.vertices[i] = mink_v2(c->v[2 * i][j], c->v[2 * i + 1][j]);
        p.normals[i] = mink_v2(c->n[2 * i][j], c->n[2 * i + 1][j]);
    }
    p.position = mink_v2(c->px[j], c->py[j]);
    p.angle = c->angle[j], p.radius = c->radius[j], p.count = c->count[j];
    return p;
}

/* Whether each pair of the block is valid and not clearly apart (state 2), valid and apart (1) or
 * invalid (0): every check made side by side, 16 pairs an instruction with AVX-512 (the polygons'
 * checks over every corner a polygon may have, or four in a block of quads:
 * mink_polygon_is_valid_within). The same IEEE operations
 * as one pair's, and no multiply fused with an add. GCC 12 fuses a hull's rotations, x and y side
 * by side, into vfmaddsub in an AVX build even with -ffp-contract=off: here they are turned a
 * column at a time (place_polygons), which it leaves alone (docs/benchmarks.md, "Polygon batches
 * checked side by side": objdump -d of this file's object shows no fused instruction). */
/* f(..., corners) with corners 4 for a block of quads, else 8: a constant in each call, so that
 * each unrolls its own corners. */
#define MINK_BY_CORNERS(quads, f, ...) ((quads) ? f(__VA_ARGS__, 4) : f(__VA_ARGS__, MINK_MAX_POLYGON_VERTICES))

MINK_ALWAYS_INLINE void polygon_states_of(size_t m, float dt, const polygon_columns *restrict a,
                                          const polygon_columns *restrict b, int *restrict state, uint32_t corners) {
    for (size_t j = 0; j < m; j++) {
        mink_vec2 va = mink_v2(a->velx[j], a->vely[j]), vb = mink_v2(b->velx[j], b->vely[j]);
        state[j] = mink_polygon_pair_state(polygon_from_columns(a, j), va, polygon_from_columns(b, j), vb, dt, corners);
    }
}
MINK_CLONES_512 static void polygon_states(size_t m, float dt, const polygon_columns *restrict a,
                                           const polygon_columns *restrict b, int *restrict state, int quads) {
    MINK_BY_CORNERS(quads, polygon_states_of, m, dt, a, b, state);
}

/* A block's boxes (the other side of polygon–box pairs) as columns, and their velocities. */
typedef union box_columns {
    float row[6][MINK_POLYGON_BLOCK]; /* a box and its velocity in mink_polygon_aabb_pair, in order */
    struct {
        float x0[MINK_POLYGON_BLOCK], y0[MINK_POLYGON_BLOCK], x1[MINK_POLYGON_BLOCK], y1[MINK_POLYGON_BLOCK];
        float velx[MINK_POLYGON_BLOCK], vely[MINK_POLYGON_BLOCK];
    };
} box_columns;
_Static_assert(sizeof(mink_polygon_aabb_pair) == (POLYGON_ROWS + 6) * sizeof(float) &&
                   offsetof(mink_polygon_aabb_pair, b.max) == (POLYGON_ROWS + 2) * sizeof(float) &&
                   offsetof(mink_polygon_aabb_pair, vb) == (POLYGON_ROWS + 4) * sizeof(float),
               "a box and its velocity: 6 rows, in the columns' order");

/* polygon_states for polygon–box pairs. */
MINK_ALWAYS_INLINE void polygon_box_states_of(size_t m, float dt, const polygon_columns *restrict a,
                                              const box_columns *restrict b, int *restrict state, uint32_t corners) {
    for (size_t j = 0; j < m; j++) {
        mink_aabb box;
        box.min = mink_v2(b->x0[j], b->y0[j]), box.max = mink_v2(b->x1[j], b->y1[j]);
        mink_vec2 va = mink_v2(a->velx[j], a->vely[j]), vb = mink_v2(b->velx[j], b->vely[j]);
        state[j] = mink_polygon_aabb_pair_state(polygon_from_columns(a, j), va, box, vb, dt, corners);
    }
}
MINK_CLONES_512 static void polygon_box_states(size_t m, float dt, const polygon_columns *restrict a,
                                               const box_columns *restrict b, int *restrict state, int quads) {
    MINK_BY_CORNERS(quads, polygon_box_states_of, m, dt, a, b, state);
}

/* A block's circles (the other side of polygon–circle pairs) as columns, and their velocities. */
typedef union disk_columns {
    float row[5][MINK_POLYGON_BLOCK]; /* a circle and its velocity in mink_polygon_circle_pair, in order */
    struct {
        float x[MINK_POLYGON_BLOCK], y[MINK_POLYGON_BLOCK], radius[MINK_POLYGON_BLOCK];
        float velx[MINK_POLYGON_BLOCK], vely[MINK_POLYGON_BLOCK];
    };
} disk_columns;
_Static_assert(sizeof(mink_polygon_circle_pair) == (POLYGON_ROWS + 5) * sizeof(float) &&
                   offsetof(mink_polygon_circle_pair, b.radius) == (POLYGON_ROWS + 2) * sizeof(float) &&
                   offsetof(mink_polygon_circle_pair, vb) == (POLYGON_ROWS + 3) * sizeof(float),
               "a circle and its velocity: 5 rows, in the columns' order");

/* Floats [0, floats) of n records `stride` floats apart into a block's columns, `width` records at
 * a time by transposes, the rest one at a time; columns [n, MINK_POLYGON_BLOCK) copies of column
 * 0 (a short block's: swept with the others, never read). Only copies, by memcpy: a polygon's
 * count is copied as the bits it is. */
MINK_ALWAYS_INLINE void rows_to_columns(const float *f, size_t stride, size_t floats, size_t n,
                                        float (*col)[MINK_POLYGON_BLOCK], int width) {
    size_t i = 0;
    MINK_RECORDS_BY_TRANSPOSES(width);
    for (; i < n; i++)
        for (size_t k = 0; k < floats; k++) memcpy(&col[k][i], f + i * stride + k, sizeof(float));
    for (size_t k = 0; k < floats; k++)
        for (size_t j = n; j < MINK_POLYGON_BLOCK; j++) memcpy(&col[k][j], &col[k][0], sizeof(float));
}

/* A block of n typed polygon records (`stride` floats each) into columns: the polygon and its
 * velocity into a, the other side's `rows` floats into b. */
MINK_AVX2 static void polygon_rows8(const float *f, size_t stride, size_t n, polygon_columns *a,
                                    float (*b)[MINK_POLYGON_BLOCK], size_t rows) {
    rows_to_columns(f, stride, POLYGON_ROWS, n, a->row, 8);
    rows_to_columns(f + POLYGON_ROWS, stride, rows, n, b, 8);
}
static void polygon_rows4(const float *f, size_t stride, size_t n, polygon_columns *a,
                          float (*b)[MINK_POLYGON_BLOCK], size_t rows) {
    rows_to_columns(f, stride, POLYGON_ROWS, n, a->row, 4);
    rows_to_columns(f + POLYGON_ROWS, stride, rows, n, b, 4);
}

/* polygon_states for polygon–circle pairs (checked as mink_sweep_circle_polygon does, the circle
 * first). */
MINK_ALWAYS_INLINE void polygon_circle_states_of(size_t m, float dt, const polygon_columns *restrict a,
                                                 const disk_columns *restrict b, int *restrict state,
                                                 uint32_t corners) {
    for (size_t j = 0; j < m; j++) {
        mink_circle c;
        c.center = mink_v2(b->x[j], b->y[j]), c.radius = b->radius[j];
        mink_vec2 va = mink_v2(a->velx[j], a->vely[j]), vb = mink_v2(b->velx[j], b->vely[j]);
        state[j] = mink_circle_polygon_pair_state(c, vb, polygon_from_columns(a, j), va, dt, corners);
    }
}
MINK_CLONES_512 static void polygon_circle_states(size_t m, float dt, const polygon_columns *restrict a,
                                                  const disk_columns *restrict b, int *restrict state, int quads) {
    MINK_BY_CORNERS(quads, polygon_circle_states_of, m, dt, a, b, state);
}

/* A block's hulls (one side of its pairs), placed as mink_polygon_hull or mink_aabb_hull places
 * them, as columns: corner i of pair j at [i][j]; and each pair's motion over the step on that
 * side. The corners past a hull's count (what its polygon held there, turned; a box's are 0) are
 * read by the masked loops but never change an answer. */
typedef struct hull_columns {
    float vx[MINK_MAX_POLYGON_VERTICES][MINK_POLYGON_BLOCK], vy[MINK_MAX_POLYGON_VERTICES][MINK_POLYGON_BLOCK];
    float nx[MINK_MAX_POLYGON_VERTICES][MINK_POLYGON_BLOCK], ny[MINK_MAX_POLYGON_VERTICES][MINK_POLYGON_BLOCK];
    uint32_t count[MINK_POLYGON_BLOCK], axes[MINK_POLYGON_BLOCK];
    float dx[MINK_POLYGON_BLOCK], dy[MINK_POLYGON_BLOCK];
} hull_columns;

/* Swept SAT's state of each pair of a block (mink_swept_sat), as columns. */
typedef struct sat_columns {
    float t_enter[MINK_POLYGON_BLOCK], t_leave[MINK_POLYGON_BLOCK], depth[MINK_POLYGON_BLOCK];
    float enter_x[MINK_POLYGON_BLOCK], enter_y[MINK_POLYGON_BLOCK];
    float depth_x[MINK_POLYGON_BLOCK], depth_y[MINK_POLYGON_BLOCK];
    int overlap[MINK_POLYGON_BLOCK], bad[MINK_POLYGON_BLOCK];
} sat_columns;

MINK_ALWAYS_INLINE mink_swept_sat sat_get(const sat_columns *c, size_t j) {
    mink_swept_sat s;
    s.t_enter = c->t_enter[j], s.t_leave = c->t_leave[j], s.depth = c->depth[j];
    s.enter_n = mink_v2(c->enter_x[j], c->enter_y[j]), s.depth_n = mink_v2(c->depth_x[j], c->depth_y[j]);
    s.overlap = c->overlap[j], s.bad = c->bad[j];
    return s;
}

MINK_ALWAYS_INLINE void sat_set(sat_columns *c, size_t j, mink_swept_sat s) {
    c->t_enter[j] = s.t_enter, c->t_leave[j] = s.t_leave, c->depth[j] = s.depth;
    c->enter_x[j] = s.enter_n.x, c->enter_y[j] = s.enter_n.y, c->depth_x[j] = s.depth_n.x, c->depth_y[j] = s.depth_n.y;
    c->overlap[j] = s.overlap, c->bad[j] = s.bad;
}

/* Every polygon of the block (all MINK_POLYGON_BLOCK columns) placed, with its motion over dt: its
 * first `corners` corners (4 or 8), those the sweeps of the block read. */
MINK_ALWAYS_INLINE void place_polygons_of(float dt, const polygon_columns *restrict p, hull_columns *restrict h,
                                          uint32_t corners) {
    for (size_t j = 0; j < MINK_POLYGON_BLOCK; j++) {
        float s, c;
        mink_sincosf(p->angle[j], &s, &c);
        mink_vec2 at = mink_v2(p->px[j] + 0.0f, p->py[j] + 0.0f); /* mink_polygon_hull's, offset 0 */
        for (uint32_t i = 0; i < corners; i++) {
            mink_vec2 v = mink_hull_corner(at, mink_v2(p->v[2 * i][j], p->v[2 * i + 1][j]), s, c);
            mink_vec2 n = mink_rotate(mink_v2(p->n[2 * i][j], p->n[2 * i + 1][j]), s, c);
            h->vx[i][j] = v.x, h->vy[i][j] = v.y, h->nx[i][j] = n.x, h->ny[i][j] = n.y;
        }
        h->count[j] = h->axes[j] = p->count[j];
        h->dx[j] = p->velx[j] * dt, h->dy[j] = p->vely[j] * dt;
    }
}
MINK_CLONES_512 static void place_polygons(float dt, const polygon_columns *restrict p, hull_columns *restrict h,
                                           int quads) {
    MINK_BY_CORNERS(quads, place_polygons_of, dt, p, h);
}

/* The same for the boxes of polygon–box pairs (mink_aabb_hull: two axes, -y and +x). */
MINK_CLONES static void place_boxes(float dt, const box_columns *restrict b, hull_columns *restrict h) {
    for (size_t j = 0; j < MINK_POLYGON_BLOCK; j++) {
        mink_aabb box;
        box.min = mink_v2(b->x0[j], b->y0[j]), box.max = mink_v2(b->x1[j], b->y1[j]);
        mink_hull hull = mink_aabb_hull(box);
        for (int i = 0; i < MINK_MAX_POLYGON_VERTICES; i++) {
            h->vx[i][j] = hull.v[i].x, h->vy[i][j] = hull.v[i].y;
            h->nx[i][j] = hull.n[i].x, h->ny[i][j] = hull.n[i].y;
        }
        h->count[j] = hull.count, h->axes[j] = hull.axes;
        h->dx[j] = b->velx[j] * dt, h->dy[j] = b->vely[j] * dt;
    }
}

/* Hull j of the columns projected on n (mink_hull_project, its count at most `corners`). */
MINK_ALWAYS_INLINE void project_column(const hull_columns *h, size_t j, mink_vec2 n, float *lo, float *hi,
                                       uint32_t corners) {
    float a = mink_dot(mink_v2(h->vx[0][j], h->vy[0][j]), n), b = a;
    for (uint32_t i = 1; i < corners; i++)
        mink_extent_add(&a, &b, mink_dot(mink_v2(h->vx[i][j], h->vy[i][j]), n), i < h->count[j]);
    *lo = a;
    *hi = b;
}

/* Swept SAT (mink_hull_sweep) over the block's placed hulls, every pair side by side: the checks,
 * then a's axes and b's in order, each pair past its own axes left as it was. `axes_a` and
 * `axes_b`: the most any pair to sweep has; `corners` (4 or 8, a constant once inlined): at least
 * its count. */
MINK_ALWAYS_INLINE void sweep_columns(const hull_columns *restrict a, const hull_columns *restrict b,
                                      sat_columns *restrict st, uint32_t axes_a, uint32_t axes_b, uint32_t corners) {
    for (size_t j = 0; j < MINK_POLYGON_BLOCK; j++) {
        mink_swept_sat s = mink_swept_sat_start();
        int valid = mink__vec2_is_valid(mink_v2(a->dx[j] - b->dx[j], a->dy[j] - b->dy[j]));
        for (uint32_t i = 0; i < corners; i++) {
            int on_a = i < a->count[j], on_b = i < b->count[j];
            valid &= (!on_a) | mink__vec2_is_valid(mink_v2(a->vx[i][j], a->vy[i][j]));
            valid &= (!on_b) | mink__vec2_is_valid(mink_v2(b->vx[i][j], b->vy[i][j]));
        }
        s.bad = !valid;
        sat_set(st, j, s);
    }
    for (uint32_t side = 0; side < 2; side++) {
        const hull_columns *h = side ? b : a;
        for (uint32_t k = 0; k < (side ? axes_b : axes_a); k++) {
            for (size_t j = 0; j < MINK_POLYGON_BLOCK; j++) {
                mink_vec2 n = mink_v2(h->nx[k][j], h->ny[k][j]);
                mink_vec2 d = mink_v2(a->dx[j] - b->dx[j], a->dy[j] - b->dy[j]);
                float alo, ahi, blo, bhi;
                project_column(a, j, n, &alo, &ahi, corners);
                project_column(b, j, n, &blo, &bhi, corners);
                mink_swept_sat s = sat_get(st, j), was = s;
                mink_swept_sat_axis(&s, n, alo, ahi, blo, bhi, d);
                if (!(k < h->axes[j])) s = was;
                sat_set(st, j, s);
            }
        }
    }
}

/* Blocks whose pairs to sweep have at most four corners a side (boxes, quads), and the others. */
MINK_CLONES_512 static void sweep_columns4(const hull_columns *restrict a, const hull_columns *restrict b,
                                           sat_columns *restrict st, uint32_t axes_a, uint32_t axes_b) {
    sweep_columns(a, b, st, axes_a, axes_b, 4);
}
MINK_CLONES_512 static void sweep_columns8(const hull_columns *restrict a, const hull_columns *restrict b,
                                           sat_columns *restrict st, uint32_t axes_a, uint32_t axes_b) {
    sweep_columns(a, b, st, axes_a, axes_b, MINK_MAX_POLYGON_VERTICES);
}

/* A block's answers, as columns of the hit's fields. */
typedef struct hit_columns {
    float t[MINK_POLYGON_BLOCK], nx[MINK_POLYGON_BLOCK], ny[MINK_POLYGON_BLOCK], depth[MINK_POLYGON_BLOCK];
    float px[MINK_POLYGON_BLOCK], py[MINK_POLYGON_BLOCK], t_exit[MINK_POLYGON_BLOCK];
    uint32_t flags[MINK_POLYGON_BLOCK];
} hit_columns;

/* Corner i of hull j of the columns, moved and taken about a point as mink_hull_vertex does. */
MINK_ALWAYS_INLINE mink_vec2 column_vertex(const hull_columns *h, uint32_t i, size_t j, mink_vec2 move, int moved,
                                           mink_vec2 back, int about) {
    return mink_vertex_moved(mink_v2(h->vx[i][j], h->vy[i][j]), move, moved, back, about);
}

/* Every pair's answer from its swept SAT (mink_swept_sat_answer, and invalid where the sweep was
 * bad), side by side: the meeting point's projections and spans over `corners` corners, those
 * past a hull's count masked out, as mink_hull_meet_point_moved takes them in order. */
MINK_ALWAYS_INLINE void answer_columns(const hull_columns *restrict a, const hull_columns *restrict b,
                                       const sat_columns *restrict st, hit_columns *restrict out, uint32_t corners) {
    for (size_t j = 0; j < MINK_POLYGON_BLOCK; j++) {
        mink_swept_sat s = sat_get(st, j);
        mink_vec2 N, ma, mb, zero = mink_v2(0.0f, 0.0f);
        int moved = mink_swept_sat_meeting(&s, mink_v2(a->dx[j], a->dy[j]), mink_v2(b->dx[j], b->dy[j]), &N, &ma, &mb);
        mink_vec2 ref = column_vertex(a, 0u, j, ma, moved, zero, 0), back = mink_v2(-ref.x, -ref.y);
        float alo = mink_dot(column_vertex(a, 0u, j, ma, moved, back, 1), N), ahi = alo;
        float blo = mink_dot(column_vertex(b, 0u, j, mb, moved, back, 1), N), bhi = blo;
        _Pragma("GCC unroll 8") for (uint32_t i = 1; i < corners; i++) {
            mink_extent_add(&alo, &ahi, mink_dot(column_vertex(a, i, j, ma, moved, back, 1), N), i < a->count[j]);
            mink_extent_add(&blo, &bhi, mink_dot(column_vertex(b, i, j, mb, moved, back, 1), N), i < b->count[j]);
        }
        float tol_a, tol_b;
        mink_meet_tolerances(alo, ahi, blo, bhi, ref, 0.0f, 0.0f, &tol_a, &tol_b);
        float at0 = MINK_INF, at1 = -MINK_INF, bt0 = MINK_INF, bt1 = -MINK_INF;
        _Pragma("GCC unroll 8") for (uint32_t i = 0; i < corners; i++) {
            mink_meet_span_a(&at0, &at1, column_vertex(a, i, j, ma, moved, back, 1), N, alo, tol_a, i < a->count[j]);
            mink_meet_span_b(&bt0, &bt1, column_vertex(b, i, j, mb, moved, back, 1), N, bhi, tol_b, i < b->count[j]);
        }
        mink_hit h = mink_swept_sat_hit(&s, mink_meet_point_at(ref, N, alo, bhi, at0, at1, bt0, bt1));
        h = mink_hit_select(mink_swept_sat_meets(&s), h, mink_hit_none());
        h = mink_hit_select(s.bad, mink_hit_invalid(), h);
        out->t[j] = h.t, out->nx[j] = h.normal.x, out->ny[j] = h.normal.y, out->depth[j] = h.depth;
        out->px[j] = h.point.x, out->py[j] = h.point.y, out->t_exit[j] = h.t_exit, out->flags[j] = h.flags;
    }
}
MINK_CLONES_512 static void answer_columns4(const hull_columns *restrict a, const hull_columns *restrict b,
                                            const sat_columns *restrict st, hit_columns *restrict out) {
    answer_columns(a, b, st, out, 4);
}
MINK_CLONES_512 static void answer_columns8(const hull_columns *restrict a, const hull_columns *restrict b,
                                            const sat_columns *restrict st, hit_columns *restrict out) {
    answer_columns(a, b, st, out, MINK_MAX_POLYGON_VERTICES);
}

MINK_ALWAYS_INLINE mink_hit hit_from_columns(const hit_columns *c, size_t j) {
    mink_hit h;
    h.t = c->t[j], h.normal = mink_v2(c->nx[j], c->ny[j]), h.depth = c->depth[j];
    h.point = mink_v2(c->px[j], c->py[j]), h.t_exit = c->t_exit[j], h.flags = c->flags[j];
    return h;
}

/* The circle slabs of each pair of a block (mink_circle_slabs), as columns, and the relative
 * motion they were taken with. */
typedef struct slab_columns {
    float t_in[MINK_POLYGON_BLOCK], t_out[MINK_POLYGON_BLOCK], in_x[MINK_POLYGON_BLOCK], in_y[MINK_POLYGON_BLOCK];
    float dx[MINK_POLYGON_BLOCK], dy[MINK_POLYGON_BLOCK];
    int bad[MINK_POLYGON_BLOCK];
} slab_columns;

MINK_ALWAYS_INLINE mink_circle_slabs slabs_get(const slab_columns *c, size_t j) {
    mink_circle_slabs s;
    s.t_in = c->t_in[j], s.t_out = c->t_out[j], s.n_in = mink_v2(c->in_x[j], c->in_y[j]), s.bad = c->bad[j];
    return s;
}

MINK_ALWAYS_INLINE void slabs_set(slab_columns *c, size_t j, mink_circle_slabs s) {
    c->t_in[j] = s.t_in, c->t_out[j] = s.t_out, c->in_x[j] = s.n_in.x, c->in_y[j] = s.n_in.y, c->bad[j] = s.bad;
}

/* mink_sweep_circle_hull's slabs for the block's circles against its placed polygons, every pair
 * side by side, as sweep_columns takes swept SAT. */
MINK_ALWAYS_INLINE void slab_columns_of(const hull_columns *restrict h, const disk_columns *restrict c,
                                        const polygon_columns *restrict p, float dt, slab_columns *restrict st,
                                        uint32_t axes, uint32_t corners) {
    for (size_t j = 0; j < MINK_POLYGON_BLOCK; j++) {
        mink_circle_slabs s = mink_circle_slabs_start();
        mink_vec2 d = mink_v2((c->velx[j] - p->velx[j]) * dt, (c->vely[j] - p->vely[j]) * dt);
        int valid = mink__vec2_is_valid(d);
        for (uint32_t i = 0; i < corners; i++)
            valid &= (!(i < h->count[j])) | mink__vec2_is_valid(mink_v2(h->vx[i][j], h->vy[i][j]));
        s.bad = !valid;
        slabs_set(st, j, s);
        st->dx[j] = d.x, st->dy[j] = d.y;
    }
    for (uint32_t k = 0; k < axes; k++) {
        for (size_t j = 0; j < MINK_POLYGON_BLOCK; j++) {
            mink_vec2 n = mink_v2(h->nx[k][j], h->ny[k][j]);
            float blo, bhi;
            project_column(h, j, n, &blo, &bhi, corners);
            mink_circle_slabs s = slabs_get(st, j), was = s;
            mink_circle_slabs_axis(&s, n, blo, bhi, mink_v2(c->x[j], c->y[j]), c->radius[j],
                                   mink_v2(st->dx[j], st->dy[j]));
            if (!(k < h->axes[j])) s = was;
            slabs_set(st, j, s);
        }
    }
}
MINK_CLONES_512 static void slab_columns4(const hull_columns *restrict h, const disk_columns *restrict c,
                                          const polygon_columns *restrict p, float dt, slab_columns *restrict st,
                                          uint32_t axes) {
    slab_columns_of(h, c, p, dt, st, axes, 4);
}
MINK_CLONES_512 static void slab_columns8(const hull_columns *restrict h, const disk_columns *restrict c,
                                          const polygon_columns *restrict p, float dt, slab_columns *restrict st,
                                          uint32_t axes) {
    slab_columns_of(h, c, p, dt, st, axes, MINK_MAX_POLYGON_VERTICES);
}

/* Every pair's answer from its slabs (mink_circle_slabs_finish where they meet, none where not,
 * invalid where bad), side by side: the nearest features of the three points over `corners`
 * corners, those past a hull's count masked out, as mink_hull_feature takes them in order; the
 * circle's against the polygon, mirrored unless the pair was named circle first. */
MINK_ALWAYS_INLINE void answer_slabs(const hull_columns *restrict h, const disk_columns *restrict c,
                                     const slab_columns *restrict st, float dt, const int *restrict first,
                                     hit_columns *restrict out, uint32_t corners) {
    for (size_t j = 0; j < MINK_POLYGON_BLOCK; j++) {
        mink_circle_slabs s = slabs_get(st, j);
        mink_circle circle;
        circle.center = mink_v2(c->x[j], c->y[j]), circle.radius = c->radius[j];
        mink_vec2 d = mink_v2(st->dx[j], st->dy[j]), q[3];
        mink_circle_slabs_points(circle.center, d, &s, q);
        uint32_t count = h->count[j];
        mink_vec2 v0 = mink_v2(h->vx[0][j], h->vy[0][j]), n0 = mink_v2(h->nx[0][j], h->ny[0][j]);
        mink_vec2 v1 = mink_v2(count > 1u ? h->vx[1][j] : v0.x, count > 1u ? h->vy[1][j] : v0.y);
        mink_feature_search f[3];
        for (int k = 0; k < 3; k++) f[k] = mink_feature_start(n0, v0, v1);
        _Pragma("GCC unroll 8") for (uint32_t i = 0; i < corners; i++) {
            uint32_t after = (i + 1u) % corners; /* read, and used only where i + 1 < count */
            mink_vec2 v = mink_v2(h->vx[i][j], h->vy[i][j]), n = mink_v2(h->nx[i][j], h->ny[i][j]);
            int wraps = i + 1u >= count;
            mink_vec2 next = mink_v2(wraps ? v0.x : h->vx[after][j], wraps ? v0.y : h->vy[after][j]);
            for (int k = 0; k < 3; k++) mink_feature_corner(&f[k], q[k], v, n, next, i < count);
        }
        mink_hit hit = mink_circle_slabs_finish(circle, mink_v2(c->velx[j], c->vely[j]), dt, d, &s, f, count, 0);
        hit = mink_hit_select(mink_circle_slabs_meet(&s), hit, mink_hit_none());
        hit = mink_hit_select(s.bad, mink_hit_invalid(), hit);
        hit = mink_hit_select(first[j], hit, mink_hit_mirror(hit));
        out->t[j] = hit.t, out->nx[j] = hit.normal.x, out->ny[j] = hit.normal.y, out->depth[j] = hit.depth;
        out->px[j] = hit.point.x, out->py[j] = hit.point.y, out->t_exit[j] = hit.t_exit, out->flags[j] = hit.flags;
    }
}
MINK_CLONES_512 static void answer_slabs4(const hull_columns *restrict h, const disk_columns *restrict c,
                                          const slab_columns *restrict st, float dt, const int *restrict first,
                                          hit_columns *restrict out) {
    answer_slabs(h, c, st, dt, first, out, 4);
}
MINK_CLONES_512 static void answer_slabs8(const hull_columns *restrict h, const disk_columns *restrict c,
                                          const slab_columns *restrict st, float dt, const int *restrict first,
                                          hit_columns *restrict out) {
    answer_slabs(h, c, st, dt, first, out, MINK_MAX_POLYGON_VERTICES);
}

/* Share `part` of `parts` of the next block's records (`ahead` bytes from `next`) asked for, into
 * L2. Each stage of a block asks for a share: asked for all at once, or a record an answer in
 * the short loop that stores the answers, the requests waited on the fill buffers. */
MINK_ALWAYS_INLINE void prefetch_share(const char *next, size_t ahead, size_t part, size_t parts) {
    size_t from = (ahead / parts * part) & ~(size_t)63;
    size_t to = part + 1 == parts ? ahead : (ahead / parts * (part + 1)) & ~(size_t)63;
    for (size_t k = from; k < to; k += 64) __builtin_prefetch(next + k, 0, 1);
}

/* What stands against the polygons of a polygon batch. */
enum { VERSUS_POLYGONS, VERSUS_BOXES, VERSUS_CIRCLES };

/* Polygon pairs (or polygon–box, polygon–circle pairs: `versus`) [0, n), a block at a time
 * (`circle_first`, for a mixed batch's polygon–circle pairs: which were named circle first).
 * The block's records go into columns by transposes, and every pair's checks run side by side
 * (polygon_states). Polygon and polygon–box pairs are then placed and swept side by side too
 * (place_polygons, sweep_columns: 16 pairs an instruction with AVX-512) and answered side by side
 * (answer_columns); polygon–circle pairs take the circle's slabs the same way (slab_columns_of)
 * and are answered from them side by side (answer_slabs). The same checks and sweep as
 * mink__sweep_polygon, mink__sweep_polygon_aabb and mink__sweep_polygon_circle (or, circle first,
 * mink_sweep_circle_polygon): the same bits. */
MINK_ALWAYS_INLINE void polygon_batch(size_t count, float dt, const void *in, mink_hit *restrict hits, int versus,
                                      const uint8_t *circle_first) {
    enum { B = MINK_POLYGON_BLOCK };
    polygon_columns ca, cb;
    box_columns cbox;
    disk_columns ccircle;
    hull_columns ha, hb;
    sat_columns sat;
    slab_columns slabs;
    hit_columns answers;
    int state[B], first[B];
    for (size_t at = 0; at < count; at += B) {
        size_t m = count - at < B ? count - at : B;
        size_t rows = versus == VERSUS_BOXES ? 6 : versus == VERSUS_CIRCLES ? 5 : POLYGON_ROWS;
        size_t stride = POLYGON_ROWS + rows;
        float(*b)[B] = versus == VERSUS_BOXES ? cbox.row : versus == VERSUS_CIRCLES ? ccircle.row : cb.row;
        const float *f = (const float *)in + at * stride;
        if (avx2())
            polygon_rows8(f, stride, m, &ca, b, rows);
        else
            polygon_rows4(f, stride, m, &ca, b, rows);
        const char *next = (const char *)(f + m * stride);
        size_t ahead = (count - at - m < B ? count - at - m : B) * stride * sizeof(float);
        prefetch_share(next, ahead, 0, 4);
        /* Blocks of quads (and boxes, circles) only: their checks and places over four corners. */
        uint32_t most = 0;
        for (size_t j = 0; j < B; j++) {
            most = ca.count[j] > most ? ca.count[j] : most;
            if (versus == VERSUS_POLYGONS) most = cb.count[j] > most ? cb.count[j] : most;
        }
        int quads = most <= 4u;
        if (versus == VERSUS_BOXES)
            polygon_box_states(m, dt, &ca, &cbox, state, quads);
        else if (versus == VERSUS_CIRCLES)
            polygon_circle_states(m, dt, &ca, &ccircle, state, quads);
        else
            polygon_states(m, dt, &ca, &cb, state, quads);
        /* The hulls of pairs to sweep, side by side: the most axes and corners among them. */
        prefetch_share(next, ahead, 1, 4);
        uint32_t axes_a = 0, axes_b = 0, corners = 0;
        place_polygons(dt, &ca, &ha, quads);
        if (versus == VERSUS_BOXES) place_boxes(dt, &cbox, &hb);
        if (versus == VERSUS_POLYGONS) place_polygons(dt, &cb, &hb, quads);
        for (size_t j = 0; j < m; j++)
            if (state[j] == 2) {
                axes_a = ha.axes[j] > axes_a ? ha.axes[j] : axes_a;
                corners = ha.count[j] > corners ? ha.count[j] : corners;
                if (versus == VERSUS_CIRCLES) continue;
                axes_b = hb.axes[j] > axes_b ? hb.axes[j] : axes_b;
                corners = hb.count[j] > corners ? hb.count[j] : corners;
            }
        prefetch_share(next, ahead, 2, 4);
        int small = corners > 0 && corners <= 4, large = corners > 4;
        if (versus == VERSUS_CIRCLES)
            for (size_t j = 0; j < B; j++) first[j] = circle_first && j < m && circle_first[at + j];
        if (versus == VERSUS_CIRCLES && small) slab_columns4(&ha, &ccircle, &ca, dt, &slabs, axes_a);
        if (versus == VERSUS_CIRCLES && large) slab_columns8(&ha, &ccircle, &ca, dt, &slabs, axes_a);
        if (versus == VERSUS_CIRCLES && small) answer_slabs4(&ha, &ccircle, &slabs, dt, first, &answers);
        if (versus == VERSUS_CIRCLES && large) answer_slabs8(&ha, &ccircle, &slabs, dt, first, &answers);
        if (versus != VERSUS_CIRCLES && small) sweep_columns4(&ha, &hb, &sat, axes_a, axes_b);
        if (versus != VERSUS_CIRCLES && large) sweep_columns8(&ha, &hb, &sat, axes_a, axes_b);
        if (versus != VERSUS_CIRCLES && small) answer_columns4(&ha, &hb, &sat, &answers);
        if (versus != VERSUS_CIRCLES && large) answer_columns8(&ha, &hb, &sat, &answers);
        prefetch_share(next, ahead, 3, 4);
        for (size_t j = 0; j < m; j++) {
            mink_hit h = state[j] == 1 ? mink_hit_none() : mink_hit_invalid();
            if (state[j] == 2) h = hit_from_columns(&answers, j);
            hits[at + j] = h;
        }
    }
}

void mink__scalar_polygon(size_t n, float dt, const mink_rotating_desc *desc, const void *const *in,
                          void *const *out) {
    (void)desc;
    polygon_batch(n, dt, in[0], out[0], VERSUS_POLYGONS, NULL);
}

void mink__scalar_polygon_aabb(size_t n, float dt, const mink_rotating_desc *desc, const void *const *in,
                               void *const *out) {
    (void)desc;
    polygon_batch(n, dt, in[0], out[0], VERSUS_BOXES, NULL);
}

static void polygon_circle_batch(size_t n, float dt, const void *in, mink_hit *hits, const uint8_t *circle_first) {
    polygon_batch(n, dt, in, hits, VERSUS_CIRCLES, circle_first);
}

void mink__scalar_polygon_circle(size_t n, float dt, const mink_rotating_desc *desc, const void *const *in,
                                 void *const *out) {
    (void)desc;
    polygon_circle_batch(n, dt, in[0], out[0], NULL);
}

/* Mixed pairs (mink_batch_sweep). A polygon against a polygon, a box or a circle, neither turning,
 * is answered by the typed batches' queries (mink__sweep_bodies calls mink__sweep_polygon,
 * mink__sweep_polygon_aabb, mirrored when the box comes first, mink__sweep_polygon_circle, or
 * mink_sweep_circle_polygon when the circle does): such pairs are gathered a block per kind, as
 * typed records, and go through polygon_batch, whose checks run side by side. A pair of boxes and
 * circles is answered in place by its query; every other pair on its own, as mink_sweep_bodies
 * answers it. Each answer is mink__sweep_bodies', bit for bit: the same query and the same
 * mirror. */
enum {
    MIXED_OTHER,
    MIXED_POLYGONS,
    MIXED_POLYGON_BOX,
    MIXED_BOX_POLYGON,
    MIXED_POLYGON_CIRCLE,
    MIXED_CIRCLE_POLYGON,
    MIXED_PLAIN, /* boxes and circles: answered in place (mink_sweep_plain_pair) */
};

/* Which of those a pair is, by mink__sweep_bodies' tests in its order: angular velocities not
 * finite (invalid) or turning (conservative advancement) are answered on their own. */
static int mixed_form(const mink_pair *p) {
    if (!mink_isfinite(p->a.angular_velocity) || !mink_isfinite(p->b.angular_velocity) || mink_body_turns(p->a) ||
        mink_body_turns(p->b))
        return MIXED_OTHER;
    uint32_t ta = p->a.type, tb = p->b.type;
    if (ta == MINK_SHAPE_POLYGON)
        return tb == MINK_SHAPE_POLYGON ? MIXED_POLYGONS
               : tb == MINK_SHAPE_AABB  ? MIXED_POLYGON_BOX
               : tb == MINK_SHAPE_CIRCLE ? MIXED_POLYGON_CIRCLE
                                         : MIXED_OTHER;
    if (tb == MINK_SHAPE_POLYGON)
        return ta == MINK_SHAPE_AABB ? MIXED_BOX_POLYGON : ta == MINK_SHAPE_CIRCLE ? MIXED_CIRCLE_POLYGON : MIXED_OTHER;
    return mink_pair_is_plain(&p->a, &p->b) ? MIXED_PLAIN : MIXED_OTHER;
}

/* A block of each kind being gathered: the records, and where each pair's answer goes. */
typedef struct mixed_blocks {
    mink_polygon_pair polygons[MINK_POLYGON_BLOCK];
    mink_polygon_aabb_pair boxes[MINK_POLYGON_BLOCK];
    mink_polygon_circle_pair circles[MINK_POLYGON_BLOCK];
    size_t at[3][MINK_POLYGON_BLOCK];
    uint8_t mirror[MINK_POLYGON_BLOCK];       /* a box–polygon pair: the polygon–box answer mirrored */
    uint8_t circle_first[MINK_POLYGON_BLOCK]; /* a circle–polygon pair */
    size_t count[3];
    mink_hit hits[MINK_POLYGON_BLOCK];
} mixed_blocks;

/* The block of kind k (0 polygons, 1 boxes, 2 circles) answered, into hits at their places. */
static void mixed_flush(mixed_blocks *g, int k, float dt, mink_hit *restrict hits) {
    size_t m = g->count[k];
    const void *in[1] = {k == 0 ? (const void *)g->polygons : (const void *)g->boxes};
    void *out[1] = {g->hits};
    if (k == 0) mink__scalar_polygon(m, dt, NULL, in, out);
    if (k == 1) mink__scalar_polygon_aabb(m, dt, NULL, in, out);
    if (k == 2) polygon_circle_batch(m, dt, g->circles, g->hits, g->circle_first);
    for (size_t j = 0; j < m; j++)
        hits[g->at[k][j]] = k == 1 && g->mirror[j] ? mink_hit_mirror(g->hits[j]) : g->hits[j];
    g->count[k] = 0;
}

/* Mixed pairs asked for ahead of the one gathered (about 5 KiB; 8 and 32 measured the same). */
#define MIXED_AHEAD 16

void mink__scalar_pair(size_t n, float dt, const mink_rotating_desc *desc, const void *const *in, void *const *out) {
    const mink_pair *restrict pairs = in[0];
    mink_hit *restrict hits = out[0];
    /* The blocks (about 25 KiB) on the heap, at the first pair gathered: a caller's thread may have
     * a small stack, and polygon_batch's columns go on it too. Without them, every pair on its
     * own: the same bits. */
    mixed_blocks *g = NULL;
    int asked = 0;
    (void)desc;
    for (size_t i = 0; i < n; i++) {
        const mink_pair *p = &pairs[i];
        /* A pair some way ahead asked for now, into L2: each is read here first. */
        if (i + MIXED_AHEAD < n)
            for (size_t k = 0; k < sizeof *p; k += 64) __builtin_prefetch((const char *)&pairs[i + MIXED_AHEAD] + k, 0, 1);
        int form = mixed_form(p);
        if (form == MIXED_PLAIN) {
            hits[i] = mink_sweep_plain_pair(&p->a, &p->b, dt);
            continue;
        }
        if (form != MIXED_OTHER && !asked) {
            asked = 1;
            g = malloc(sizeof *g);
            if (g) g->count[0] = g->count[1] = g->count[2] = 0;
        }
        if (form == MIXED_OTHER || g == NULL) { /* turning, capsules, bad angular velocities */
            hits[i] = mink__built_sweep_bodies(&p->a, &p->b, dt);
            continue;
        }
        int k = form == MIXED_POLYGONS ? 0 : form == MIXED_POLYGON_BOX || form == MIXED_BOX_POLYGON ? 1 : 2;
        /* The polygon first, as the typed records have it. */
        int second = form == MIXED_BOX_POLYGON || form == MIXED_CIRCLE_POLYGON;
        const mink_body *poly = second ? &p->b : &p->a, *other = second ? &p->a : &p->b;
        size_t j = g->count[k]++;
        g->at[k][j] = i;
        if (k == 0) {
            g->polygons[j].a = poly->shape.polygon, g->polygons[j].va = poly->velocity;
            g->polygons[j].b = other->shape.polygon, g->polygons[j].vb = other->velocity;
        } else if (k == 1) {
            g->boxes[j].a = poly->shape.polygon, g->boxes[j].va = poly->velocity;
            g->boxes[j].b = other->shape.aabb, g->boxes[j].vb = other->velocity;
            g->mirror[j] = (uint8_t)second;
        } else {
            g->circles[j].a = poly->shape.polygon, g->circles[j].va = poly->velocity;
            g->circles[j].b = other->shape.circle, g->circles[j].vb = other->velocity;
            g->circle_first[j] = (uint8_t)second;
        }
        if (g->count[k] == MINK_POLYGON_BLOCK) mixed_flush(g, k, dt, hits);
    }
    for (int k = 0; k < 3 && g; k++)
        if (g->count[k] > 0) mixed_flush(g, k, dt, hits);
    free(g);
}

/* Records per block of each kind: circle–box pairs go by blocks of their own columns'. */
enum { aabb_records = MINK_BLOCK, circle_records = MINK_BLOCK, circle_aabb_records = MINK_CIRCLE_AABB_BLOCK };
_Static_assert(MINK_BLOCK <= MINK_RECORD_ROW && MINK_CIRCLE_AABB_BLOCK <= MINK_RECORD_ROW, "blocks fit the rows");

/* Records `floats` floats each, `block` (at most MINK_RECORD_ROW) at a time: into columns, through
 * the kind's column loop, back into hits. Always inlined: with `floats` a constant the copies
 * unroll per kind. */
MINK_ALWAYS_INLINE void sweep_records(const void *in, size_t floats, size_t block, size_t count, float dt,
                                      mink_scalar_fn *columns, mink_hit *restrict hits, int width) {
    float col[12][MINK_RECORD_ROW], out[7][MINK_RECORD_ROW];
    uint32_t flags[MINK_RECORD_ROW];
    const void *c[12];
    void *o[8];
    for (size_t k = 0; k < floats; k++) c[k] = col[k];
    for (int k = 0; k < 7; k++) o[k] = out[k];
    o[7] = flags;
    int stream = count >= MINK_STREAM_RECORDS && ((uintptr_t)hits & 15u) == 0;
    for (size_t at = 0; at < count; at += block) {
        size_t n = count - at < block ? count - at : block;
        const char *records = (const char *)in + at * floats * sizeof(float);
        load_columns(records, floats, n, col, width);
        /* The records of the block after next asked for now, to arrive while this one and the
         * next are swept: loaded only when needed, they stalled the copy (the column loops stream
         * theirs as they compute); asked for a block of 32 ahead, they came too late (a block of
         * 128 circle–box pairs is long enough: the next one's, asked for now, came in time,
         * where the one after it's ran 3-7 % slower). Into L2, not L1
         * (locality 1: prefetcht2 on x86, which fills L2 on a Skylake-SP): there a burst of L1
         * prefetches waits on the fill buffers, and the sweep behind it waited too
         * (docs/benchmarks.md, "Records prefetched into L2" and "Records by eight"). */
        size_t left = (count - at - n) * floats * sizeof(float), ahead = block * floats * sizeof(float);
        const char *next = records + n * floats * sizeof(float);
        size_t lead = block < 64 ? ahead : 0;
        for (size_t b = lead; b < lead + ahead && b < left; b += 64) __builtin_prefetch(next + b, 0, 1);
        columns(n, dt, NULL, c, o);
        store_hits(hits + at, n, out, flags, stream, width);
    }
#if defined(__SSE2__)
    if (stream) _mm_sfence();
#endif
}

/* The loops the table asks for (core/kinds.h: LOOP, COLUMNS); OWN ones are above (turning pairs': host/turning.c). */
#define MINK_SCALAR_LOOP(kind, record, query)                                                                \
    void mink__scalar_##kind(size_t n, float dt, const mink_rotating_desc *desc, const void *const *in,        \
                             void *const *out) {                                                               \
        const record *restrict records = in[0];                                                                \
        mink_hit *restrict hits = out[0];                                                                      \
        (void)desc;                                                                                            \
        for (size_t i = 0; i < n; i++) hits[i] = query(records[i], dt);                                        \
    }
#define MINK_SCALAR_COLUMNS(kind, record, query)                                                             \
    MINK_AVX2 static void kind##_records8(size_t n, float dt, const void *in, mink_hit *hits) {                 \
        sweep_records(in, sizeof(record) / sizeof(float), kind##_records, n, dt, mink__scalar_##kind##_soa, hits, 8); \
    }                                                                                                          \
    static void kind##_records4(size_t n, float dt, const void *in, mink_hit *hits) {                          \
        sweep_records(in, sizeof(record) / sizeof(float), kind##_records, n, dt, mink__scalar_##kind##_soa, hits, 4); \
    }                                                                                                          \
    void mink__scalar_##kind(size_t n, float dt, const mink_rotating_desc *desc, const void *const *in,        \
                             void *const *out) {                                                               \
        (void)desc;                                                                                            \
        if (avx2())                                                                                            \
            kind##_records8(n, dt, in[0], out[0]);                                                             \
        else                                                                                                   \
            kind##_records4(n, dt, in[0], out[0]);                                                             \
    }
#define MINK_SCALAR_OWN(kind, record, query)
#define MINK_KIND_SCALAR(KIND, kind, function, record, arrays, query, kernel, scalar, sample, sample_pairs) \
    MINK_SCALAR_##scalar(kind, record, query)
MINK_BATCH_KINDS(MINK_KIND_SCALAR)
