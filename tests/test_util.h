/* tests/test_util.h — what every suite shares: contexts on both paths and exact comparisons. */
#ifndef MINK_TEST_UTIL_H
#define MINK_TEST_UTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mink/mink.h"
#include "mink/sample.h"
#include "core/step.h" /* the shared math and the step, inline: tests reach inside */

/* The length of a long random or many-step run: `whole` in the plain build, `short_` in the
 * sanitizer build (tests/CMakeLists.txt), where the sanitizers, not the count, are the point and
 * CI runs both inside its time. */
#ifdef MINK_TEST_SHORT
#define MINK_TEST_LENGTH(whole, short_) (short_)
#else
#define MINK_TEST_LENGTH(whole, short_) (whole)
#endif

/* Both paths, as a per-test fixture (so tests that need no device, such as valgrind's scalar run,
 * never start one). The OpenCL context must exist: a missing device fails the test; it must never
 * turn into a silent skip in CI, where PoCL is the device. */
typedef struct paths {
    mink_context *scalar;
    mink_context *opencl;
} paths;

static inline int paths_setup(void **state) {
    static paths p;
    if (mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &p.scalar) != MINK_OK) {
        fprintf(stderr, "scalar context: %s\n", mink_last_error());
        return -1;
    }
    if (mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_OPENCL}, &p.opencl) != MINK_OK) {
        fprintf(stderr, "no OpenCL context (the OpenCL tests need one, e.g. PoCL): %s\n", mink_last_error());
        mink_context_destroy(p.scalar);
        return -1;
    }
    *state = &p;
    return 0;
}

static inline int paths_teardown(void **state) {
    paths *p = *state;
    mink_context_destroy(p->scalar);
    mink_context_destroy(p->opencl);
    return 0;
}

/* World shapes centred on the body's position. */
static inline mink_shape box_shape(float hw, float hh) {
    mink_shape s = {.type = MINK_SHAPE_AABB};
    s.geom.aabb.min = mink_v2(-hw, -hh);
    s.geom.aabb.max = mink_v2(hw, hh);
    return s;
}

static inline mink_shape circle_shape(float r) {
    mink_shape s = {.type = MINK_SHAPE_CIRCLE};
    s.geom.circle.radius = r;
    return s;
}

/* A capsule from (x1, y1) to (x2, y2) about the body's position (radius 0: a segment). */
static inline mink_shape capsule_shape(float x1, float y1, float x2, float y2, float r) {
    mink_shape s = {.type = MINK_SHAPE_CAPSULE};
    s.geom.capsule.center1 = mink_v2(x1, y1);
    s.geom.capsule.center2 = mink_v2(x2, y2);
    s.geom.capsule.radius = r;
    return s;
}

/* The body carried by d. */
static inline mink_body moved_body(mink_body b, mink_vec2 d) {
    if (b.type == MINK_SHAPE_POLYGON) {
        b.shape.polygon.position = mink_v2(b.shape.polygon.position.x + d.x, b.shape.polygon.position.y + d.y);
    } else if (b.type == MINK_SHAPE_AABB) {
        b.shape.aabb.min = mink_v2(b.shape.aabb.min.x + d.x, b.shape.aabb.min.y + d.y);
        b.shape.aabb.max = mink_v2(b.shape.aabb.max.x + d.x, b.shape.aabb.max.y + d.y);
    } else if (b.type == MINK_SHAPE_CIRCLE) {
        b.shape.circle.center = mink_v2(b.shape.circle.center.x + d.x, b.shape.circle.center.y + d.y);
    } else {
        b.shape.capsule.center1 = mink_v2(b.shape.capsule.center1.x + d.x, b.shape.capsule.center1.y + d.y);
        b.shape.capsule.center2 = mink_v2(b.shape.capsule.center2.x + d.x, b.shape.capsule.center2.y + d.y);
    }
    return b;
}

static inline void print_pair(const mink_aabb_pair *p) {
    fprintf(stderr, "  a [%a %a]-[%a %a] va (%a %a)\n  b [%a %a]-[%a %a] vb (%a %a)\n",
            (double)p->a.min.x, (double)p->a.min.y, (double)p->a.max.x, (double)p->a.max.y,
            (double)p->va.x, (double)p->va.y, (double)p->b.min.x, (double)p->b.min.y,
            (double)p->b.max.x, (double)p->b.max.y, (double)p->vb.x, (double)p->vb.y);
}

static inline void print_hit(const char *label, const mink_hit *h) {
    fprintf(stderr, "  %s: flags %u t %a normal (%a %a) depth %a point (%a %a) t_exit %a\n", label,
            (unsigned)h->flags, (double)h->t, (double)h->normal.x, (double)h->normal.y,
            (double)h->depth, (double)h->point.x, (double)h->point.y, (double)h->t_exit);
}

/* Any record, word by word: every mink record is 32-bit floats and tags. */
static inline void print_record(const void *record, size_t size) {
    const unsigned char *bytes = record;
    fprintf(stderr, "  record:");
    for (size_t w = 0; w + 4 <= size; w += 4) {
        float f;
        uint32_t u;
        memcpy(&f, bytes + w, 4);
        memcpy(&u, bytes + w, 4);
        if (u < 16) fprintf(stderr, " %u", (unsigned)u); /* a shape tag */
        else fprintf(stderr, " %a", (double)f);
    }
    fprintf(stderr, "\n");
}

/* memcmp of two result arrays; on a difference, prints the first one with its input record. */
static inline void assert_hits_identical_records(const mink_hit *got, const mink_hit *want, size_t n,
                                                 const void *records, size_t record_size, const char *what) {
    for (size_t i = 0; i < n; i++) {
        if (memcmp(&got[i], &want[i], sizeof want[i]) != 0) {
            fprintf(stderr, "%s: first difference at record %zu of %zu\n", what, i, n);
            if (records) print_record((const char *)records + i * record_size, record_size);
            print_hit("got ", &got[i]);
            print_hit("want", &want[i]);
            fail_msg("%s differ at record %zu", what, i);
        }
    }
}

static inline void assert_hits_identical(const mink_hit *got, const mink_hit *want, size_t n,
                                         const mink_aabb_pair *pairs, const char *what) {
    assert_hits_identical_records(got, want, n, pairs, sizeof *pairs, what);
}

/* Runs batch function `fn` on both paths and checks that the bits agree; the scalar results go to
 * `out`. Works for every batch kind. */
#define SWEEP_BOTH(p, fn, records, n, dt, out)                                                     \
    do {                                                                                           \
        size_t n_ = (n);                                                                           \
        mink_hit *cl_ = malloc((n_ ? n_ : 1) * sizeof *cl_);                                       \
        assert_non_null(cl_);                                                                      \
        assert_int_equal(fn((p)->scalar, (records), n_, (dt), (out)), MINK_OK);                    \
        assert_int_equal(fn((p)->opencl, (records), n_, (dt), cl_), MINK_OK);                      \
        assert_hits_identical_records(cl_, (out), n_, (records), sizeof *(records),                \
                                      #fn ": OpenCL and scalar results");                          \
        free(cl_);                                                                                 \
    } while (0)

static inline void sweep_both(const paths *p, const mink_aabb_pair *pairs, size_t n, float dt,
                              mink_hit *out) {
    SWEEP_BOTH(p, mink_batch_sweep_aabb, pairs, n, dt, out);
}

/* No NaN anywhere; a result without contact is all zeros; a contact has t in [0, 1) (never -0)
 * and a unit normal. */
static inline void assert_hit_sane(const mink_hit *h) {
    assert_false(isnan(h->t) || isnan(h->normal.x) || isnan(h->normal.y) || isnan(h->depth) ||
                 isnan(h->point.x) || isnan(h->point.y) || isnan(h->t_exit));
    if (h->flags == 0 || h->flags == MINK_HIT_INVALID) {
        mink_hit zero = {0};
        zero.flags = h->flags;
        assert_memory_equal(h, &zero, sizeof zero);
    } else {
        assert_true(h->t >= 0.0f && h->t < 1.0f && !signbit(h->t));
        assert_true(fabsf(h->normal.x * h->normal.x + h->normal.y * h->normal.y - 1.0f) < 1e-5f);
    }
}

#endif /* MINK_TEST_UTIL_H */
