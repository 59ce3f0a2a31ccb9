/* tests/fuzz/fuzz.h — what the fuzz targets share: a reader that turns fuzz bytes into the values
 * mink sees (biased toward the edges: zeros of both signs, subnormals, FLT_MAX, infinities, NaN,
 * 2^±100), the invariants every hit must keep, and the contexts of both paths.
 *
 * Each target is one LLVMFuzzerTestOneInput. Built with clang -fsanitize=fuzzer it is a libFuzzer
 * program; built with replay.c (any compiler) it runs the committed corpus once, as a regression
 * test in the ordinary suite. A broken invariant prints what broke and aborts: that is how a
 * fuzzer learns of it (mink itself never aborts). */
#ifndef MINK_FUZZ_H
#define MINK_FUZZ_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/body.h" /* the inline helpers the checks use */
#include "mink/mink.h"

/* The input being run, saved to fuzz-failure.bin when a check breaks (before the abort, so the
 * input is kept however the process ends). */
static const uint8_t *fuzz_input;
static size_t fuzz_input_size;

static inline void fuzz_failed(void) {
    FILE *f = fopen("fuzz-failure.bin", "wb");
    if (f != NULL) {
        fwrite(fuzz_input, 1, fuzz_input_size, f);
        fclose(f);
        fprintf(stderr, "the input is in fuzz-failure.bin\n");
    }
    abort();
}

#define FUZZ_CHECK(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: broken: %s: ", __FILE__, __LINE__, #cond);                      \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            fuzz_failed();                                                                         \
        }                                                                                          \
    } while (0)

typedef struct fuzz_in {
    const uint8_t *p;
    size_t left;
} fuzz_in;

/* The reader of one input, which is kept for fuzz_failed. */
static inline fuzz_in fuzz_start(const uint8_t *data, size_t size) {
    fuzz_input = data;
    fuzz_input_size = size;
    fuzz_in in = {data, size};
    return in;
}

static inline uint8_t fuzz_u8(fuzz_in *in) {
    if (in->left == 0) return 0;
    in->left--;
    return *in->p++;
}

static inline uint32_t fuzz_u32(fuzz_in *in) {
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) v |= (uint32_t)fuzz_u8(in) << (8 * k);
    return v;
}

/* One float: a selector byte, then the bits, a small integer, a fixed-point value or an edge. */
static inline float fuzz_float(fuzz_in *in) {
    static const float edges[16] = {0.0f, -0.0f, 1.0f, -1.0f, FLT_MAX, -FLT_MAX, INFINITY, -INFINITY,
                                    NAN, FLT_MIN, 1e-45f, 0x1p100f, 0x1p-100f, 0.5f, 1e30f, -1e-30f};
    uint8_t sel = fuzz_u8(in);
    switch (sel & 3) {
    case 0: {
        uint32_t bits = fuzz_u32(in);
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    case 1: return (float)(int8_t)fuzz_u8(in) * 0.25f;
    case 2: return (float)(int16_t)(fuzz_u8(in) | fuzz_u8(in) << 8) * (1.0f / 256.0f);
    default: return edges[(sel >> 2) & 15];
    }
}

static inline mink_vec2 fuzz_vec2(fuzz_in *in) {
    float x = fuzz_float(in);
    return mink_v2(x, fuzz_float(in));
}

/* A body of the given type (0 box, 1 circle, 2 polygon, 3 capsule, else the byte's own choice:
 * a capsule from 0xf0 up, below it the byte mod 3, as before capsules, so the corpus's inputs
 * still make the shapes they were kept for). Polygons come from mink_polygon_make, as every reader
 * of mink's formats builds them; refused points leave the all-zero polygon, INVALID everywhere. */
static inline mink_body fuzz_body(fuzz_in *in, int type, int turning) {
    if (type > 3) {
        uint8_t b = fuzz_u8(in);
        type = b >= 0xf0 ? 3 : b % 3;
    }
    mink_vec2 v = fuzz_vec2(in);
    mink_body b;
    if (type == 0) {
        mink_aabb box;
        box.min = fuzz_vec2(in);
        box.max = fuzz_vec2(in);
        b = mink_body_aabb(box, v);
    } else if (type == 1) {
        mink_circle c;
        c.center = fuzz_vec2(in);
        c.radius = fuzz_float(in);
        b = mink_body_circle(c, v);
    } else if (type == 3) {
        mink_capsule c;
        c.center1 = fuzz_vec2(in);
        c.center2 = fuzz_vec2(in);
        c.radius = fuzz_float(in);
        b = mink_body_capsule(c, v);
    } else {
        mink_vec2 pts[MINK_MAX_POLYGON_VERTICES + 1];
        uint32_t n = fuzz_u8(in) % (MINK_MAX_POLYGON_VERTICES + 2);
        for (uint32_t k = 0; k < n; k++) pts[k] = fuzz_vec2(in);
        mink_vec2 at = fuzz_vec2(in);
        float angle = fuzz_float(in);
        mink_polygon poly;
        mink_polygon_make(pts, n, at, angle, &poly);
        b = mink_body_polygon(poly, v);
    }
    if (turning) b.angular_velocity = fuzz_float(in);
    return b;
}

/* What every hit must be: geom.h's conventions. */
static inline void fuzz_check_hit(const mink_hit *h, const char *what) {
    const uint32_t known = MINK_HIT_CONTACT | MINK_HIT_OVERLAP | MINK_HIT_INVALID | MINK_HIT_NOT_CONVERGED;
    FUZZ_CHECK((h->flags & ~known) == 0, "%s: flags %#x", what, (unsigned)h->flags);
    FUZZ_CHECK(!isnan(h->t) && !isnan(h->normal.x) && !isnan(h->normal.y) && !isnan(h->depth) &&
                   !isnan(h->point.x) && !isnan(h->point.y) && !isnan(h->t_exit),
               "%s: a NaN in the result", what);
    if (h->flags & MINK_HIT_INVALID) {
        mink_hit invalid = {0};
        invalid.flags = MINK_HIT_INVALID;
        FUZZ_CHECK(memcmp(h, &invalid, sizeof *h) == 0, "%s: INVALID with other fields set", what);
        return;
    }
    if (h->flags == 0) return;
    FUZZ_CHECK(h->flags & MINK_HIT_CONTACT, "%s: flags %#x without CONTACT", what, (unsigned)h->flags);
    FUZZ_CHECK(h->t >= 0.0f && h->t < 1.0f, "%s: t = %a", what, (double)h->t);
    float len2 = h->normal.x * h->normal.x + h->normal.y * h->normal.y;
    FUZZ_CHECK(fabsf(len2 - 1.0f) <= 1e-5f, "%s: normal (%a, %a) is not unit", what, (double)h->normal.x,
               (double)h->normal.y);
    FUZZ_CHECK(h->depth >= 0.0f, "%s: depth %a", what, (double)h->depth);
    if (h->flags & MINK_HIT_OVERLAP) FUZZ_CHECK(h->t == 0.0f, "%s: OVERLAP at t = %a", what, (double)h->t);
    else FUZZ_CHECK(h->depth == 0.0f, "%s: depth %a without OVERLAP", what, (double)h->depth);
    FUZZ_CHECK(h->t_exit >= h->t, "%s: t_exit %a before t %a", what, (double)h->t_exit, (double)h->t);
}

/* The scalar path and the default OpenCL device, made once per process and destroyed at its end
 * (so LeakSanitizer sees everything given back). */
static mink_context *fuzz_contexts[2];

static void fuzz_destroy_contexts(void) {
    for (int k = 0; k < 2; k++) mink_context_destroy(fuzz_contexts[k]);
}

static inline mink_context *fuzz_context(int opencl) {
    mink_context **ctx = fuzz_contexts;
    if (ctx[0] == NULL && ctx[1] == NULL) atexit(fuzz_destroy_contexts);
    if (ctx[opencl] == NULL) {
        mink_context_desc desc = {.backend = opencl ? MINK_BACKEND_OPENCL : MINK_BACKEND_SCALAR};
        mink_status s = mink_context_create(&desc, &ctx[opencl]);
        FUZZ_CHECK(s == MINK_OK, "no %s context: %s", opencl ? "OpenCL" : "scalar", mink_last_error());
    }
    return ctx[opencl];
}

#endif /* MINK_FUZZ_H */
