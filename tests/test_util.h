/* tests/test_util.h — what every suite shares: contexts on both paths and exact comparisons. */
#ifndef MINK_TEST_UTIL_H
#define MINK_TEST_UTIL_H

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

/* memcmp of two result arrays; on a difference, prints the first one with its input. */
static inline void assert_hits_identical(const mink_hit *got, const mink_hit *want, size_t n,
                                         const mink_aabb_pair *pairs, const char *what) {
    for (size_t i = 0; i < n; i++) {
        if (memcmp(&got[i], &want[i], sizeof want[i]) != 0) {
            fprintf(stderr, "%s: first difference at pair %zu of %zu\n", what, i, n);
            if (pairs) print_pair(&pairs[i]);
            print_hit("got ", &got[i]);
            print_hit("want", &want[i]);
            fail_msg("%s differ at pair %zu", what, i);
        }
    }
}

/* Sweeps on both paths and checks that the bits agree; the scalar results go to `out`. */
static inline void sweep_both(const paths *p, const mink_aabb_pair *pairs, size_t n, float dt,
                              mink_hit *out) {
    mink_hit *cl = malloc((n ? n : 1) * sizeof *cl);
    assert_non_null(cl);
    assert_int_equal(mink_batch_sweep_aabb(p->scalar, pairs, n, dt, out), MINK_OK);
    assert_int_equal(mink_batch_sweep_aabb(p->opencl, pairs, n, dt, cl), MINK_OK);
    assert_hits_identical(cl, out, n, pairs, "OpenCL and scalar results");
    free(cl);
}

#endif /* MINK_TEST_UTIL_H */
