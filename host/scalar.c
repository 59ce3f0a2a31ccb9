/* host/scalar.c — the scalar path: the shared-header query in a plain loop, one per batch kind.
 *
 * Boxes, circles and circle–box pairs go through columns: the compiler vectorizes their sweeps
 * (written without branches) over arrays of each field, 4 to 16 pairs per instruction, never over
 * an array of records. The column loops serve the _soa batches directly; the record batches go a
 * block of records at a time, turned into columns by vector shuffles (the next block's records
 * fetched meanwhile) and back. Vector lanes compute what the scalar code computes, IEEE operation
 * by IEEE operation (no contraction, no reassociation), so the bits are the same.
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
 * are built the same two ways, for their copies into columns and back. */
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

/* Circle–box pairs [0, n) of the columns (a record's 11 floats: a, va, b, vb). The sweep computes
 * every case and selects the answer (core/circle.h), so one loop vectorizes; AVX-512 too, as for
 * circles, whose math it shares. */
MINK_CLONES_512
static void circle_aabb_columns(size_t n, float dt, const float *restrict ax, const float *restrict ay,
                                const float *restrict ar, const float *restrict vax, const float *restrict vay,
                                const float *restrict bx0, const float *restrict by0, const float *restrict bx1,
                                const float *restrict by1, const float *restrict vbx, const float *restrict vby,
                                float *restrict t, float *restrict normal_x, float *restrict normal_y,
                                float *restrict depth, float *restrict point_x, float *restrict point_y,
                                float *restrict t_exit, uint32_t *restrict flags) {
    for (size_t i = 0; i < n; i++)
        MINK_SWEEP_CIRCLE_AABB_COLUMN(mink_sweep_circle_aabb_inline, i, dt, ax, ay, ar, vax, vay, bx0, by0, bx1, by1,
                                      vbx, vby, t, normal_x, normal_y, depth, point_x, point_y, t_exit, flags);
}

void mink__scalar_circle_aabb_soa(size_t n, float dt, const mink_rotating_desc *desc, const void *const *arrays,
                                  void *const *out) {
    const float *const *in = (const float *const *)arrays;
    (void)desc;
    circle_aabb_columns(n, dt, in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], in[8], in[9], in[10], out[0],
                        out[1], out[2], out[3], out[4], out[5], out[6], out[7]);
}


/* Records per block: the columns of one block (20 × 4 × 128 bytes) stay in the L1 cache. */
#define MINK_BLOCK 128

/* A block of n records of `floats` floats each into columns: four records at a time by vector
 * shuffles (4 × 4 floats transposed; a record's last two floats, when `floats` is 2 more than a
 * multiple of 4, in pairs), the rest one float at a time. Compilers turn neither the plain loop
 * (an interleaved group of 10 or 12 loads) nor memcpy's into vectors. Always inlined: with
 * `floats` a constant the copy unrolls per kind. Only copies: the bits are the records'. */
MINK_ALWAYS_INLINE void load_columns(const void *records, size_t floats, size_t n, float col[][MINK_BLOCK]) {
    const float *restrict f = records; /* records of floats only (internal.h checks their sizes) */
    size_t i = 0;
#if defined(__SSE2__)
    for (; i + 4 <= n; i += 4) {
        const float *r = f + i * floats;
        size_t k = 0;
        for (; k + 4 <= floats; k += 4) {
            __m128 r0 = _mm_loadu_ps(r + k), r1 = _mm_loadu_ps(r + floats + k);
            __m128 r2 = _mm_loadu_ps(r + 2 * floats + k), r3 = _mm_loadu_ps(r + 3 * floats + k);
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            _mm_storeu_ps(&col[k][i], r0), _mm_storeu_ps(&col[k + 1][i], r1);
            _mm_storeu_ps(&col[k + 2][i], r2), _mm_storeu_ps(&col[k + 3][i], r3);
        }
        if (floats - k == 2) { /* x y of four records: x0 y0 x1 y1 | x2 y2 x3 y3, then x0..x3, y0..y3 */
            double xy[4]; /* each record's pair as 8 bytes, by memcpy: a record is only 4-byte aligned */
            for (size_t j = 0; j < 4; j++) memcpy(&xy[j], r + j * floats + k, sizeof xy[j]);
            __m128 lo = _mm_castpd_ps(_mm_set_pd(xy[1], xy[0])), hi = _mm_castpd_ps(_mm_set_pd(xy[3], xy[2]));
            _mm_storeu_ps(&col[k][i], _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)));
            _mm_storeu_ps(&col[k + 1][i], _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1)));
        } else {
            for (; k < floats; k++)
                for (size_t j = 0; j < 4; j++) col[k][i + j] = r[j * floats + k];
        }
    }
#endif
    for (; i < n; i++)
        for (size_t k = 0; k < floats; k++) col[k][i] = f[i * floats + k];
}

#if defined(__SSE2__)
/* Hits i .. i + 3 from a block's output columns by two 4 × 4 transposes (a hit is eight 4-byte
 * fields, in the order of the columns): v[k] is bytes 16k .. 16k + 15 of the four hits. */
MINK_ALWAYS_INLINE void four_hits(float out[7][MINK_BLOCK], const uint32_t *flags, size_t i, __m128 v[8]) {
    _Static_assert(sizeof(mink_hit) == 8 * sizeof(float), "a hit is eight 4-byte fields");
    __m128 t = _mm_loadu_ps(&out[0][i]), nx = _mm_loadu_ps(&out[1][i]);
    __m128 ny = _mm_loadu_ps(&out[2][i]), depth = _mm_loadu_ps(&out[3][i]);
    __m128 px = _mm_loadu_ps(&out[4][i]), py = _mm_loadu_ps(&out[5][i]);
    __m128 exit = _mm_loadu_ps(&out[6][i]), f = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)&flags[i]));
    _MM_TRANSPOSE4_PS(t, nx, ny, depth);
    _MM_TRANSPOSE4_PS(px, py, exit, f);
    v[0] = t, v[1] = px, v[2] = nx, v[3] = py, v[4] = ny, v[5] = exit, v[6] = depth, v[7] = f;
}
#endif

/* Hits [0, n) from a block's output columns: four at a time by shuffles (with `stream`, stored
 * past the caches: the hits must be 16-byte aligned), the rest one field at a time. Only copies. */
MINK_ALWAYS_INLINE void store_hits(mink_hit *restrict hits, size_t n, float out[7][MINK_BLOCK],
                                   const uint32_t *flags, int stream) {
    size_t i = 0;
#if defined(__SSE2__)
    __m128 v[8];
    for (; stream && i + 4 <= n; i += 4) {
        four_hits(out, flags, i, v);
        for (int k = 0; k < 8; k++) _mm_stream_si128((__m128i *)(void *)&hits[i] + k, _mm_castps_si128(v[k]));
    }
    for (; i + 4 <= n; i += 4) {
        four_hits(out, flags, i, v);
        for (int k = 0; k < 8; k++) _mm_storeu_si128((__m128i *)(void *)&hits[i] + k, _mm_castps_si128(v[k]));
    }
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

/* Records `floats` floats each, a block at a time: into columns, through the kind's column loop,
 * back into hits. Always inlined: with `floats` a constant the copies unroll per kind. */
MINK_ALWAYS_INLINE void sweep_records(const void *in, size_t floats, size_t count, float dt, mink_scalar_fn *columns,
                                      mink_hit *restrict hits) {
    float col[12][MINK_BLOCK], out[7][MINK_BLOCK];
    uint32_t flags[MINK_BLOCK];
    const void *c[12];
    void *o[8];
    for (size_t k = 0; k < floats; k++) c[k] = col[k];
    for (int k = 0; k < 7; k++) o[k] = out[k];
    o[7] = flags;
    int stream = count >= MINK_STREAM_HITS && ((uintptr_t)hits & 15u) == 0;
    for (size_t at = 0; at < count; at += MINK_BLOCK) {
        size_t n = count - at < MINK_BLOCK ? count - at : MINK_BLOCK;
        const char *block = (const char *)in + at * floats * sizeof(float);
        load_columns(block, floats, n, col);
        /* The next block's records asked for now, to arrive while this one is swept: loaded only
         * when needed, they stalled the copy (the column loops stream theirs as they compute).
         * Into L2, not L1 (locality 1: prefetcht2 on x86, which fills L2 on a Skylake-SP): there a
         * burst of 96 L1 prefetches waits on the fill buffers, and the sweep behind it waited too
         * (docs/benchmarks.md, "Records prefetched into L2"). */
        size_t left = (count - at - n) * floats * sizeof(float), ahead = MINK_BLOCK * floats * sizeof(float);
        const char *next = block + n * floats * sizeof(float);
        for (size_t b = 0; b < ahead && b < left; b += 64) __builtin_prefetch(next + b, 0, 1);
        columns(n, dt, NULL, c, o);
        store_hits(hits + at, n, out, flags, stream);
    }
#if defined(__SSE2__)
    if (stream) _mm_sfence();
#endif
}

/* The loops the table asks for (core/kinds.h: LOOP, TURNING, COLUMNS); OWN ones are above. */
#define MINK_SCALAR_LOOP(kind, record, query)                                                                \
    void mink__scalar_##kind(size_t n, float dt, const mink_rotating_desc *desc, const void *const *in,        \
                             void *const *out) {                                                               \
        const record *restrict records = in[0];                                                                \
        mink_hit *restrict hits = out[0];                                                                      \
        (void)desc;                                                                                            \
        for (size_t i = 0; i < n; i++) hits[i] = query(records[i], dt);                                        \
    }
#define MINK_SCALAR_TURNING(kind, record, query)                                                             \
    void mink__scalar_##kind(size_t n, float dt, const mink_rotating_desc *desc, const void *const *in,        \
                             void *const *out) {                                                               \
        const record *restrict records = in[0];                                                                \
        mink_hit *restrict hits = out[0];                                                                      \
        for (size_t i = 0; i < n; i++) hits[i] = query(records[i], dt, *desc);                                 \
    }
#define MINK_SCALAR_COLUMNS(kind, record, query)                                                             \
    MINK_CLONES static void kind##_records(size_t n, float dt, const void *in, mink_hit *hits) {                \
        sweep_records(in, sizeof(record) / sizeof(float), n, dt, mink__scalar_##kind##_soa, hits);             \
    }                                                                                                          \
    void mink__scalar_##kind(size_t n, float dt, const mink_rotating_desc *desc, const void *const *in,        \
                             void *const *out) {                                                               \
        (void)desc;                                                                                            \
        kind##_records(n, dt, in[0], out[0]);                                                                  \
    }
#define MINK_SCALAR_OWN(kind, record, query)
#define MINK_KIND_SCALAR(KIND, kind, function, record, arrays, query, kernel, scalar, sample, sample_pairs) \
    MINK_SCALAR_##scalar(kind, record, query)
MINK_BATCH_KINDS(MINK_KIND_SCALAR)
