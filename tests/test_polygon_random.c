/* tests/test_polygon_random.c — a million random pairs per polygon kind: OpenCL == scalar under
 * memcmp, and mink's answers against the independent double-precision oracle of oracle2d.h;
 * conservative advancement against densely sampled true contacts. */
#include "oracle_check.h"

#define MILLION MINK_TEST_LENGTH(1u << 20, 1u << 17)

#define ORACLE_EVERY 8 /* the oracle is slow: every 8th pair of the million */

static void opencl_polygon_million(void **state) {
    const paths *p = *state;
    static const uint32_t counts[3] = {0, 4, 8};
    for (int c = 0; c < 3; c++) {
        size_t n = c == 0 ? MILLION : MILLION / 8;
        mink_polygon_pair *pairs = malloc(n * sizeof *pairs);
        mink_hit *hits = malloc(n * sizeof *hits);
        assert_true(pairs && hits);
        mink_sample_polygon_pairs(4 + (uint64_t)c, n, counts[c], pairs);
        SWEEP_BOTH(p, mink_batch_sweep_polygon, pairs, n, 1.0f, hits);
        tally t = {0};
        for (size_t i = 0; i < n; i += ORACLE_EVERY) {
            dshape a = d_polygon(&pairs[i].a, 0), b = d_polygon(&pairs[i].b, 0);
            check_against_oracle(&t, i, &a, (dv2){pairs[i].va.x, pairs[i].va.y}, &b, (dv2){pairs[i].vb.x, pairs[i].vb.y}, &hits[i]);
        }
        char what[64];
        snprintf(what, sizeof what, "polygon-polygon (%s vertices)", c == 0 ? "3 to 8" : (c == 1 ? "4" : "8"));
        report(what, n, &t);
        free(pairs), free(hits);
    }
}

/* A million pairs of one kind through its batch on both paths, every ORACLE_EVERY-th against the
 * oracle; `to_b` turns the record's b into the oracle's shape. */
#define ORACLE_KIND_TEST(name, label, record, sample, batch, to_b)                                 \
    static void name(void **state) {                                                               \
        const paths *p = *state;                                                                   \
        size_t n = MILLION;                                                                        \
        record *pairs = malloc(n * sizeof *pairs);                                                 \
        mink_hit *hits = malloc(n * sizeof *hits);                                                 \
        assert_true(pairs && hits);                                                                \
        sample;                                                                                    \
        SWEEP_BOTH(p, batch, pairs, n, 1.0f, hits);                                                \
        tally t = {0};                                                                             \
        for (size_t i = 0; i < n; i += ORACLE_EVERY) {                                             \
            dshape a = d_polygon(&pairs[i].a, 0), b = to_b(pairs[i].b);                            \
            check_against_oracle(&t, i, &a, (dv2){pairs[i].va.x, pairs[i].va.y}, &b,               \
                                 (dv2){pairs[i].vb.x, pairs[i].vb.y}, &hits[i]);                   \
        }                                                                                          \
        report(label, n, &t);                                                                      \
        free(pairs), free(hits);                                                                   \
    }

static dshape d_box_still(mink_aabb b) { return d_box(b, 0); }

ORACLE_KIND_TEST(opencl_polygon_aabb_million, "polygon-box", mink_polygon_aabb_pair,
                 mink_sample_polygon_aabb_pairs(5, n, pairs), mink_batch_sweep_polygon_aabb, d_box_still)
ORACLE_KIND_TEST(opencl_polygon_circle_million, "polygon-circle", mink_polygon_circle_pair,
                 mink_sample_polygon_circle_pairs(6, n, pairs), mink_batch_sweep_polygon_circle, d_circle)

/* ---- conservative advancement ------------------------------------------------------------------ */

#define SAMPLES 1000

/* The rotating batch on both paths for a million pairs; on a sample of them, the true gap
 * sampled SAMPLES times over the step: CA never reports a time after the first sampled contact,
 * never misses one, and where it converged, the shapes are apart by at most the target at its t. */
static void opencl_rotating_million(void **state) {
    const paths *p = *state;
    size_t n = MILLION;
    const float dt = 0.5f;
    mink_pair *pairs = malloc(n * sizeof *pairs);
    mink_hit *hits = malloc(n * sizeof *hits);
    assert_true(pairs && hits);
    mink_sample_rotating_pairs(7, n, pairs);
    mink_hit *cl = malloc(n * sizeof *cl);
    assert_non_null(cl);
    assert_int_equal(mink_batch_sweep_rotating(p->scalar, pairs, n, dt, NULL, hits), MINK_OK);
    assert_int_equal(mink_batch_sweep_rotating(p->opencl, pairs, n, dt, NULL, cl), MINK_OK);
    assert_hits_identical_records(cl, hits, n, pairs, sizeof *pairs, "rotating: OpenCL and scalar");
    free(cl);

    size_t checked = 0, sampled_contacts = 0, ca_contacts = 0, not_converged = 0, overlaps = 0;
    double worst_early = 0; /* how far before the sampled contact CA stopped, as a fraction of the step */
    for (size_t i = 0; i < n; i += 256) {
        const mink_body *a = &pairs[i].a, *b = &pairs[i].b;
        const mink_hit *h = &hits[i];
        assert_hit_sane(h);
        checked++;
        double tol = 1e-5 * (100.0 + 30.0 * dt);
        double first = first_sampled_contact(a, b, dt, tol, SAMPLES);
        if (h->flags & MINK_HIT_OVERLAP) {
            overlaps++;
            assert_true(body_gap(a, b, dt, 0) < tol);
            continue;
        }
        if (first >= 0) {
            sampled_contacts++;
            check_not_after(i, h, first);
            if (first - h->t > worst_early) worst_early = first - h->t;
        }
        if (h->flags & MINK_HIT_CONTACT) {
            ca_contacts++;
            double g = body_gap(a, b, dt, h->t);
            if (g < -tol) fail_msg("pair %zu: CA's t = %g is past contact (gap %g)", i, (double)h->t, g);
            if (h->flags & MINK_HIT_NOT_CONVERGED) {
                not_converged++;
                continue;
            }
            /* The default target: 1/1024 of the shapes' reach plus radius. */
            mink_mover ma = mink_body_mover(*a, dt), mb = mink_body_mover(*b, dt);
            double target = (ma.reach + ma.hull.radius + mb.reach + mb.hull.radius) / 1024.0;
            if (g > target + tol) fail_msg("pair %zu: CA stopped at gap %g, more than the target %g", i, g, target);
        }
    }
    printf("  rotating: %zu pairs, %zu sampled x %d: contacts found by sampling %zu, by CA %zu "
           "(not converged %zu), overlaps %zu; CA stops at most %.4f of the step before the first sample in contact\n",
           n, checked, SAMPLES, sampled_contacts, ca_contacts, not_converged, overlaps, worst_early);
    assert_true(sampled_contacts > checked / 8);
    free(pairs), free(hits);
}

/* Without turning, conservative advancement stops no later than swept SAT's exact time. */
static void rotating_query_bounds_swept_sat(void **state) {
    (void)state;
    enum { N = 20000 };
    mink_polygon_pair *pairs = malloc(N * sizeof *pairs);
    assert_non_null(pairs);
    mink_sample_polygon_pairs(8, N, 0, pairs);
    size_t both = 0;
    for (size_t i = 0; i < N; i++) {
        mink_body a = mink_body_polygon(pairs[i].a, pairs[i].va), b = mink_body_polygon(pairs[i].b, pairs[i].vb);
        mink_hit sat = mink_sweep_polygon(pairs[i].a, pairs[i].va, pairs[i].b, pairs[i].vb, 1.0f);
        uint32_t it = 0;
        mink_hit ca = mink_sweep_rotating(a, b, 1.0f, (mink_rotating_desc){0}, &it);
        if ((sat.flags & MINK_HIT_CONTACT) && !(sat.flags & MINK_HIT_OVERLAP)) {
            /* A touch that SAT calls a contact CA must see too, no later. */
            assert_true(ca.flags & MINK_HIT_CONTACT);
            assert_true(ca.t <= sat.t);
            both++;
        }
        assert_true(it <= MINK_ROTATING_DEFAULT_ITERATIONS);
    }
    assert_true(both > N / 10);
    free(pairs);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(opencl_polygon_million, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_polygon_aabb_million, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_polygon_circle_million, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_rotating_million, paths_setup, paths_teardown),
        cmocka_unit_test(rotating_query_bounds_swept_sat),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests_name("polygon_random", tests, NULL, NULL);
}
