/* tests/oracle_check.h — one pair's answer against the double-precision oracle of oracle2d.h:
 * contact or none, t, depth, normal, point and t_exit, each within a tolerance scaled by the
 * pair's coordinates, pairs too close to call counted apart. Shared by the random suites. */
#ifndef MINK_ORACLE_CHECK_H
#define MINK_ORACLE_CHECK_H

#include "oracle2d.h"
#include "test_util.h"

typedef struct tally {
    size_t compared, ambiguous, contacts, overlaps;
    double worst; /* worst error / tolerance */
} tally;

static double scale_of(const dshape *a, const dshape *b, dv2 d) {
    double s = hypot(d.x, d.y);
    for (int i = 0; i < a->n; i++) s = fmax(s, fmax(fabs(a->v[i].x), fabs(a->v[i].y)) + a->r);
    for (int i = 0; i < b->n; i++) s = fmax(s, fmax(fabs(b->v[i].x), fabs(b->v[i].y)) + b->r);
    return s;
}

static void within(tally *t, double err, double tol, const char *what, size_t i, const mink_hit *h) {
    if (err / tol > t->worst) t->worst = err / tol;
    if (err > tol) {
        print_hit("mink", h);
        fail_msg("pair %zu: %s off by %g (tolerance %g)", i, what, err, tol);
    }
}

static double d_extent_along(const dshape *s, dv2 n) {
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < s->n; i++) {
        double p = s->v[i].x * n.x + s->v[i].y * n.y;
        lo = fmin(lo, p), hi = fmax(hi, p);
    }
    return hi - lo;
}

/* One pair against the oracle: shapes a and b (b may be rounded), displacements da and db. */
static void check_against_oracle(tally *t, size_t i, const dshape *a, dv2 da, const dshape *b, dv2 db,
                                 const mink_hit *h) {
    assert_hit_sane(h);
    assert_false(h->flags & MINK_HIT_INVALID);
    d_motion m = {a, b, da, db};
    dv2 d = {da.x - db.x, da.y - db.y};
    double tol = 2e-6 * scale_of(a, b, d);
    double gmin, tmin;
    double t_first = d_first_contact(&m, &gmin, &tmin);
    double g0 = d_gap_at(&m, 0), g1 = d_gap_at(&m, 1);
    /* Too close to call in float: touching or grazing, or arriving just at an end of the step. */
    if (fabs(g0) <= tol || fabs(gmin) <= tol || fabs(g1) <= tol) {
        t->ambiguous++;
        return;
    }
    t->compared++;
    int want = t_first >= 0;
    if (want != ((h->flags & MINK_HIT_CONTACT) != 0)) {
        print_hit("mink", h);
        fail_msg("pair %zu: oracle says %s (first contact %g, least gap %g, tolerance %g)", i,
                 want ? "contact" : "none", t_first, gmin, tol);
    }
    if (!want) return;
    dv2 n = {h->normal.x, h->normal.y};
    if (g0 < 0) { /* overlapping: the depth is the origin's distance to the obstacle's boundary */
        assert_true(h->flags & MINK_HIT_OVERLAP);
        t->overlaps++;
        within(t, fabs(h->depth - -g0), 8 * tol, "depth", i, h);
        /* Moving a by depth along the normal just separates them. */
        within(t, fabs(d_separation_along(a, b, n) + h->depth), 8 * tol, "normal (overlap)", i, h);
        return;
    }
    t->contacts++;
    assert_int_equal(h->flags, MINK_HIT_CONTACT);
    /* At mink's t the shapes touch, the normal is an axis across which they touch, and the point
     * lies on both boundaries. */
    double tt = h->t;
    dshape at = *a, bt = *b;
    for (int k = 0; k < at.n; k++) at.v[k].x += da.x * tt, at.v[k].y += da.y * tt;
    for (int k = 0; k < bt.n; k++) bt.v[k].x += db.x * tt, bt.v[k].y += db.y * tt;
    within(t, fabs(d_gap_at(&m, tt)), 8 * tol, "gap at t", i, h);
    within(t, fabs(d_separation_along(&at, &bt, n)), 8 * tol, "normal", i, h);
    /* mink counts a vertex within 1/4096 of the shapes' depth along the normal as part of the
     * touching feature (so nearly parallel edges meet in the middle): the point may be that far off. */
    dv2 q = {h->point.x, h->point.y};
    double feature = (d_extent_along(&at, n) + d_extent_along(&bt, n)) / 4096.0;
    within(t, fabs(d_shape_dist(&at, q)), 16 * tol + feature, "point on a", i, h);
    within(t, fabs(d_shape_dist(&bt, q)), 16 * tol + feature, "point on b", i, h);
    if (isfinite(h->t_exit)) {
        double te = h->t_exit;
        assert_true(te >= tt);
        within(t, fabs(d_gap_at(&m, te)), 8 * tol * fmax(1.0, te), "gap at t_exit", i, h);
    }
}

static void report(const char *what, size_t n, const tally *t) {
    printf("  %s: %zu pairs, compared %zu (contacts %zu, overlaps %zu), ambiguous %zu; worst error / tolerance %.3f\n",
           what, n, t->compared, t->contacts, t->overlaps, t->ambiguous, t->worst);
    /* Enough contacts that the comparisons mean something: the random sets give 12–15 %, which
     * pairs they hold depending on the compiler (the suites draw inside argument lists). */
    assert_true(t->contacts > t->compared / 10 && t->overlaps > 0);
}

/* ---- turning bodies: conservative advancement against the sampled true gap ---------------------- */

/// The true gap between two bodies (the oracle's) at time t of a step of dt.
static inline double body_gap(const mink_body *a, const mink_body *b, double dt, double t) {
    dshape sa = d_body_at(a, dt, t), sb = d_body_at(b, dt, t);
    return d_gap(&sa, (dv2){0, 0}, &sb, (dv2){0, 0});
}

/// The first of `samples` times over the step where the bodies overlap by more than tol; -1: none.
static inline double first_sampled_contact(const mink_body *a, const mink_body *b, double dt, double tol, int samples) {
    for (int k = 0; k < samples; k++)
        if (body_gap(a, b, dt, (double)k / samples) < -tol) return (double)k / samples;
    return -1;
}

/// Pair i's hit h never comes after the first sampled contact, nor misses it.
static inline void check_not_after(size_t i, const mink_hit *h, double first) {
    if (!(h->flags & MINK_HIT_CONTACT) || h->t > first) {
        print_hit("mink", h);
        fail_msg("pair %zu: sampling finds contact at t = %g; CA %s", i, first,
                 (h->flags & MINK_HIT_CONTACT) ? "reports it later" : "misses it");
    }
}

#endif /* MINK_ORACLE_CHECK_H */
