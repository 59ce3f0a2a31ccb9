/* tests/test_random.c — a million random box pairs: the scalar path against an independent
 * double-precision oracle, and the OpenCL path against the scalar path bit for bit.
 *
 * The oracle does not use the Minkowski difference or slabs: it writes the four conditions for the
 * moving boxes' interiors to overlap (a.min < b.max and b.min < a.max on each axis, each linear
 * in t) and intersects the half-lines in double precision.
 *
 * Stated tolerance, per pair, with S its largest magnitude (coordinate or displacement), D its
 * largest displacement, eps = FLT_EPSILON and r_k the relative displacement on axis k:
 *   t, t_exit:    tol_t = 1e-6 + max_k 16 eps S / |r_k|   (t_exit also 1e-5 relative)
 *   point, depth: tol_p = 32 eps S + D tol_t
 * Pairs closer than that to a decision (t near 0 or 1, a graze, a tie of axes) are ambiguous in
 * float: they are counted, not compared, and must stay under 1%. */
#include <float.h>
#include <math.h>

#include "test_util.h"

enum { KIND_NONE, KIND_CONTACT, KIND_OVERLAP };

typedef struct oracle {
    int kind, ambiguous;
    double t, t_exit, nx, ny, depth, px, py, tol_t, tol_p;
} oracle;

static double dmax(double a, double b) { return a > b ? a : b; }
static double dmin(double a, double b) { return a < b ? a : b; }

static oracle oracle_sweep(const mink_aabb_pair *p, double dt) {
    oracle o = {0};
    const double amin[2] = {p->a.min.x, p->a.min.y}, amax[2] = {p->a.max.x, p->a.max.y};
    const double bmin[2] = {p->b.min.x, p->b.min.y}, bmax[2] = {p->b.max.x, p->b.max.y};
    const double da[2] = {p->va.x * dt, p->va.y * dt}, db[2] = {p->vb.x * dt, p->vb.y * dt};
    double S = 0, D = 0;
    for (int k = 0; k < 2; k++) {
        S = dmax(S, dmax(dmax(fabs(amin[k]), fabs(amax[k])), dmax(fabs(bmin[k]), fabs(bmax[k]))));
        D = dmax(D, dmax(fabs(da[k]), fabs(db[k])));
    }
    S = dmax(S, D);
    const double eps = FLT_EPSILON;
    o.tol_t = 1e-6;
    for (int k = 0; k < 2; k++)
        if (db[k] - da[k] != 0) o.tol_t = dmax(o.tol_t, 1e-6 + 16 * eps * S / fabs(db[k] - da[k]));
    o.tol_p = 32 * eps * S + D * o.tol_t;

    /* Each condition is c0 + c1 t > 0. */
    double enter[2] = {-INFINITY, -INFINITY}, hi = INFINITY;
    int never = 0;
    for (int k = 0; k < 2; k++) {
        const double c0[2] = {bmax[k] - amin[k], amax[k] - bmin[k]};
        const double c1[2] = {db[k] - da[k], da[k] - db[k]};
        for (int c = 0; c < 2; c++) {
            if (c1[c] == 0) {
                if (c0[c] <= 0) never = 1;
                if (fabs(c0[c]) <= 16 * eps * S) o.ambiguous = 1;
            } else if (c1[c] > 0) {
                enter[k] = dmax(enter[k], -c0[c] / c1[c]);
            } else {
                hi = dmin(hi, -c0[c] / c1[c]);
            }
        }
    }
    double lo = dmax(enter[0], enter[1]);
    int axis = enter[1] > enter[0];
    if (!never && (fabs(lo) < o.tol_t || fabs(lo - 1) < o.tol_t || fabs(hi - lo) < o.tol_t))
        o.ambiguous = 1;
    if (never || !(lo < hi)) return o;

    if (lo < 0 && 0 < hi) { /* already overlapping: the shortest of four moves */
        o.kind = KIND_OVERLAP;
        const double cand[4] = {amax[0] - bmin[0], bmax[0] - amin[0], amax[1] - bmin[1], bmax[1] - amin[1]};
        const double nx[4] = {-1, 1, 0, 0}, ny[4] = {0, 0, -1, 1};
        int best = 0;
        for (int i = 1; i < 4; i++)
            if (cand[i] < cand[best]) best = i;
        for (int i = 0; i < 4; i++)
            if (i != best && fabs(cand[i] - cand[best]) <= o.tol_p) o.ambiguous = 1;
        o.depth = cand[best], o.nx = nx[best], o.ny = ny[best];
        o.t = 0, o.t_exit = hi;
        o.px = (dmax(amin[0], bmin[0]) + dmin(amax[0], bmax[0])) / 2;
        o.py = (dmax(amin[1], bmin[1]) + dmin(amax[1], bmax[1])) / 2;
        return o;
    }
    if (!(lo >= 0 && lo < 1)) return o;
    o.kind = KIND_CONTACT;
    if (fabs(enter[0] - enter[1]) < o.tol_t) o.ambiguous = 1;
    o.t = lo, o.t_exit = hi;
    double rel = db[axis] - da[axis];
    o.nx = axis == 0 ? (rel > 0 ? 1 : -1) : 0;
    o.ny = axis == 1 ? (rel > 0 ? 1 : -1) : 0;
    double at[2][2], bt[2][2];
    for (int k = 0; k < 2; k++) {
        at[0][k] = amin[k] + da[k] * lo, at[1][k] = amax[k] + da[k] * lo;
        bt[0][k] = bmin[k] + db[k] * lo, bt[1][k] = bmax[k] + db[k] * lo;
    }
    o.px = (dmax(at[0][0], bt[0][0]) + dmin(at[1][0], bt[1][0])) / 2;
    o.py = (dmax(at[0][1], bt[0][1]) + dmin(at[1][1], bt[1][1])) / 2;
    return o;
}

typedef struct tally {
    size_t compared, ambiguous, contacts, overlaps;
    double worst_t, worst_p; /* largest error as a fraction of its tolerance */
} tally;

static void fail_pair(const mink_aabb_pair *p, const mink_hit *h, const oracle *o, const char *what) {
    print_pair(p);
    print_hit("got", h);
    fprintf(stderr, "  oracle: kind %d t %.17g t_exit %.17g normal (%g %g) depth %.17g point (%.17g %.17g) tol_t %g tol_p %g\n",
            o->kind, o->t, o->t_exit, o->nx, o->ny, o->depth, o->px, o->py, o->tol_t, o->tol_p);
    fail_msg("scalar result disagrees with the oracle: %s", what);
}

static void check_against_oracle(const mink_aabb_pair *p, const mink_hit *h, double dt, tally *ty) {
    oracle o = oracle_sweep(p, dt);
    /* Never NaN, whatever the case. */
    if (isnan(h->t) || isnan(h->normal.x) || isnan(h->normal.y) || isnan(h->depth) ||
        isnan(h->point.x) || isnan(h->point.y) || isnan(h->t_exit))
        fail_pair(p, h, &o, "NaN in a result");
    if (o.ambiguous) {
        ty->ambiguous++;
        return;
    }
    ty->compared++;
    int kind = h->flags == 0 ? KIND_NONE
             : h->flags == MINK_HIT_CONTACT ? KIND_CONTACT
             : h->flags == (MINK_HIT_CONTACT | MINK_HIT_OVERLAP) ? KIND_OVERLAP : -1;
    if (kind != o.kind) fail_pair(p, h, &o, "hit or no hit");
    if (kind == KIND_NONE) return;
    ty->contacts += kind == KIND_CONTACT;
    ty->overlaps += kind == KIND_OVERLAP;
    if (h->normal.x != o.nx || h->normal.y != o.ny) fail_pair(p, h, &o, "normal");
    double et = fabs(h->t - o.t) / o.tol_t;
    double exit_tol = o.tol_t + 1e-5 * fabs(o.t_exit);
    if (isinf(o.t_exit) ? !isinf(h->t_exit) : fabs(h->t_exit - o.t_exit) > exit_tol)
        fail_pair(p, h, &o, "t_exit");
    double ep = dmax(fabs(h->point.x - o.px), fabs(h->point.y - o.py));
    if (kind == KIND_OVERLAP) ep = dmax(ep, fabs(h->depth - o.depth));
    else if (h->depth != 0) fail_pair(p, h, &o, "depth of a contact");
    ep /= o.tol_p;
    if (et > 1) fail_pair(p, h, &o, "t");
    if (ep > 1) fail_pair(p, h, &o, "point or depth");
    ty->worst_t = dmax(ty->worst_t, et);
    ty->worst_p = dmax(ty->worst_p, ep);
}

static void scale_pairs(mink_aabb_pair *p, size_t n, int exponent) {
    float k = ldexpf(1.0f, exponent);
    for (size_t i = 0; i < n; i++) {
        float *f = (float *)&p[i];
        for (size_t j = 0; j < sizeof p[i] / sizeof(float); j++) f[j] *= k;
    }
}

enum { MILLION = 1 << 20 };

static void run_set(const paths *p, uint64_t seed, size_t n, int exponent, float dt, int use_oracle) {
    mink_aabb_pair *pairs = malloc(n * sizeof *pairs);
    mink_hit *hits = malloc(n * sizeof *hits);
    assert_true(pairs && hits);
    mink_sample_aabb_pairs(seed, n, pairs);
    scale_pairs(pairs, n, exponent);
    sweep_both(p, pairs, n, dt, hits); /* OpenCL == scalar, bit for bit */
    if (use_oracle) {
        tally ty = {0};
        for (size_t i = 0; i < n; i++) check_against_oracle(&pairs[i], &hits[i], dt, &ty);
        printf("  seed %llu, %zu pairs, scale 2^%d, dt %g: compared %zu (contacts %zu, overlaps %zu), "
               "ambiguous %zu; worst error / tolerance: t %.3f, point %.3f\n",
               (unsigned long long)seed, n, exponent, (double)dt, ty.compared, ty.contacts, ty.overlaps,
               ty.ambiguous, ty.worst_t, ty.worst_p);
        assert_true(ty.ambiguous * 100 < n);
    }
    free(pairs);
    free(hits);
}

/* The sample is what the contract asks for: about a third hitting, many of them tunnelling. */
static void scalar_sample_has_hits_and_tunnelling(void **state) {
    (void)state;
    enum { N = 100000 };
    mink_aabb_pair *pairs = malloc(N * sizeof *pairs);
    assert_non_null(pairs);
    mink_sample_aabb_pairs(2026, N, pairs);
    size_t hits = 0, tunnels = 0;
    for (size_t i = 0; i < N; i++) {
        const mink_aabb_pair *q = &pairs[i];
        mink_hit h = mink_sweep_aabb(q->a, q->va, q->b, q->vb, 1);
        mink_aabb a1 = {{q->a.min.x + q->va.x, q->a.min.y + q->va.y}, {q->a.max.x + q->va.x, q->a.max.y + q->va.y}};
        mink_aabb b1 = {{q->b.min.x + q->vb.x, q->b.min.y + q->vb.y}, {q->b.max.x + q->vb.x, q->b.max.y + q->vb.y}};
        hits += h.flags != 0;
        tunnels += h.flags == MINK_HIT_CONTACT && mink_overlap_aabb(a1, b1).flags == 0;
    }
    printf("  %zu pairs: %.1f%% hit, %.1f%% would tunnel (clear at both ends of the step)\n", (size_t)N,
           100.0 * hits / N, 100.0 * tunnels / N);
    assert_true(hits > N / 4 && hits < N / 2);
    assert_true(tunnels > N / 10);
    free(pairs);
}

static void opencl_million_pairs(void **state) { run_set(*state, 2026, MILLION, 0, 1.0f, 1); }

static void opencl_short_step(void **state) { run_set(*state, 99, MILLION / 8, 0, 0.25f, 1); }

static void opencl_huge_coordinates(void **state) { run_set(*state, 3, MILLION / 8, 100, 1.0f, 1); }

static void opencl_tiny_coordinates(void **state) { run_set(*state, 4, MILLION / 8, -100, 1.0f, 1); }

/* Subnormal coordinates: the oracle's tolerances do not hold there, but the bits must. */
static void opencl_subnormal_coordinates(void **state) { run_set(*state, 5, MILLION / 8, -135, 1.0f, 0); }

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scalar_sample_has_hits_and_tunnelling),
        cmocka_unit_test_setup_teardown(opencl_million_pairs, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_short_step, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_huge_coordinates, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_tiny_coordinates, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_subnormal_coordinates, paths_setup, paths_teardown),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests_name("random", tests, NULL, NULL);
}
