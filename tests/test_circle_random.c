/* tests/test_circle_random.c — a million random pairs per kind: circle–circle and circle–box
 * against independent double-precision oracles, OpenCL against scalar bit for bit, and the mixed
 * batch against the typed ones.
 *
 * The circle–box oracle does not use slabs and corner tests: it writes the rounded box as the union
 * of six open convex pieces (the box widened along x, the box widened along y, four corner disks)
 * and takes the earliest entry into any of them; its penetration is the distance from the centre
 * to the rounded box's boundary.
 *
 * Stated tolerance, per pair, with S its largest magnitude (coordinate, radius or displacement),
 * |d| the relative displacement, R the radius (sum), eps = FLT_EPSILON:
 *   t, t_exit: tol_t = 1e-6 + 64 eps S / |d|   (t_exit also 1e-5 relative)
 *   point, depth: tol_p = 64 eps S + |d| tol_t;   normal: 64 eps S / R + 1e-5
 * Pairs within those of a decision (t near 0 or 1, a graze, touching at the start, a tie between
 * features) are counted as ambiguous, not compared, and must stay under 1%. */
#include <float.h>

#include "test_util.h"

enum { KIND_NONE, KIND_CONTACT, KIND_OVERLAP };

typedef struct oracle {
    int kind, ambiguous;
    double t, t_exit, nx, ny, depth, tol_t, tol_p, tol_n;
    double cx, cy, r; /* a's centre at t and radius: the point is centre − n·(r − depth/2) */
} oracle;

static double dmax(double a, double b) { return a > b ? a : b; }
static double dmin(double a, double b) { return a < b ? a : b; }

static void tolerances(oracle *o, double S, double dlen, double R) {
    const double eps = FLT_EPSILON;
    o->tol_t = 1e-6 + (dlen > 0 ? 64 * eps * S / dlen : 0);
    o->tol_p = 64 * eps * S + dlen * o->tol_t;
    o->tol_n = 1e-5 + (R > 0 ? 64 * eps * S / R : 1);
}

/* Open interval of t with |s + d t| < R; returns 0 if empty. */
static int disk_interval(double sx, double sy, double dx, double dy, double R, double *lo, double *hi) {
    double a = dx * dx + dy * dy, b = sx * dx + sy * dy, c = sx * sx + sy * sy - R * R;
    if (a == 0) {
        *lo = -INFINITY, *hi = INFINITY;
        return c < 0;
    }
    double disc = b * b - a * c;
    if (disc <= 0) return 0;
    *lo = (-b - sqrt(disc)) / a;
    *hi = (-b + sqrt(disc)) / a;
    return 1;
}

/* Open interval of t with lo < p + d t < hi on one axis, intersected into [*t0, *t1]. */
static void axis_interval(double p, double d, double lo, double hi, double *t0, double *t1) {
    if (d == 0) {
        if (!(lo < p && p < hi)) *t0 = INFINITY, *t1 = -INFINITY;
        return;
    }
    double a = (lo - p) / d, b = (hi - p) / d;
    *t0 = dmax(*t0, dmin(a, b));
    *t1 = dmin(*t1, dmax(a, b));
}

static oracle oracle_circle(const mink_circle_pair *p, double dt) {
    oracle o = {0};
    double sx = (double)p->a.center.x - p->b.center.x, sy = (double)p->a.center.y - p->b.center.y;
    double dx = ((double)p->va.x - p->vb.x) * dt, dy = ((double)p->va.y - p->vb.y) * dt;
    double R = (double)p->a.radius + p->b.radius, dlen = sqrt(dx * dx + dy * dy);
    double S = dmax(dmax(fabs(p->a.center.x), fabs(p->a.center.y)), dmax(fabs(p->b.center.x), fabs(p->b.center.y)));
    S = dmax(dmax(S, R), dlen);
    tolerances(&o, S, dlen, R);
    o.r = p->a.radius;
    double len = sqrt(sx * sx + sy * sy);
    if (fabs(len - R) < o.tol_p) o.ambiguous = 1; /* touching at the start */
    if (dlen > 0 && fabs(fabs(sx * dy - sy * dx) / dlen - R) < o.tol_p) o.ambiguous = 1; /* graze */
    double lo = INFINITY, hi = -INFINITY;
    int meets = disk_interval(sx, sy, dx, dy, R, &lo, &hi);
    if (len < R) {
        o.kind = KIND_OVERLAP;
        o.depth = R - len;
        o.nx = len > 0 ? sx / len : -1, o.ny = len > 0 ? sy / len : 0;
        o.t_exit = hi;
        o.cx = p->a.center.x, o.cy = p->a.center.y;
        return o;
    }
    if (!meets || hi <= 0) return o;
    if (fabs(lo) < o.tol_t || fabs(lo - 1) < o.tol_t) o.ambiguous = 1;
    if (!(lo >= 0 && lo < 1)) return o;
    o.kind = KIND_CONTACT;
    o.t = lo, o.t_exit = hi;
    double qx = sx + dx * lo, qy = sy + dy * lo, ql = sqrt(qx * qx + qy * qy);
    o.nx = qx / ql, o.ny = qy / ql;
    o.cx = p->a.center.x + (double)p->va.x * dt * lo, o.cy = p->a.center.y + (double)p->va.y * dt * lo;
    return o;
}

static oracle oracle_circle_aabb(const mink_circle_aabb_pair *p, double dt) {
    oracle o = {0};
    const double r = p->a.radius, px = p->a.center.x, py = p->a.center.y;
    const double x0 = p->b.min.x, y0 = p->b.min.y, x1 = p->b.max.x, y1 = p->b.max.y;
    const double dx = ((double)p->va.x - p->vb.x) * dt, dy = ((double)p->va.y - p->vb.y) * dt;
    double dlen = sqrt(dx * dx + dy * dy);
    double S = dmax(dmax(dmax(fabs(px), fabs(py)), dmax(fabs(x0), fabs(x1))), dmax(fabs(y0), fabs(y1)));
    S = dmax(dmax(S, r), dlen);
    tolerances(&o, S, dlen, r);
    o.r = r;

    /* Already overlapping: the distance from the centre to the rounded box's boundary. */
    double cxp = dmin(dmax(px, x0), x1), cyp = dmin(dmax(py, y0), y1);
    double ox = px - cxp, oy = py - cyp, out = sqrt(ox * ox + oy * oy);
    int inside = px > x0 && px < x1 && py > y0 && py < y1;
    double face[4] = {px - x0, x1 - px, py - y0, y1 - py};
    if (fabs(out - r) < o.tol_p || (r == 0 && out == 0 && !inside)) o.ambiguous |= out < o.tol_p || fabs(out - r) < o.tol_p;
    int overlap = out > 0 ? out < r : (inside || (r > 0));
    if (overlap) {
        o.kind = KIND_OVERLAP;
        if (out > 0) {
            o.depth = r - out, o.nx = ox / out, o.ny = oy / out;
        } else {
            static const double nx[4] = {-1, 1, 0, 0}, ny[4] = {0, 0, -1, 1};
            int best = 0;
            for (int i = 1; i < 4; i++)
                if (face[i] < face[best]) best = i;
            for (int i = 0; i < 4; i++)
                if (i != best && fabs(face[i] - face[best]) < o.tol_p) o.ambiguous = 1;
            o.depth = face[best] + r, o.nx = nx[best], o.ny = ny[best];
        }
        o.cx = px, o.cy = py;
    }

    /* The six pieces: entry and exit of each, and which one is entered first. */
    double lo = INFINITY, hi = -INFINITY, best_lo[2] = {INFINITY, INFINITY};
    double nx = 0, ny = 0;
    for (int piece = 0; piece < 6; piece++) {
        double t0 = -INFINITY, t1 = INFINITY, cnx = 0, cny = 0;
        if (piece < 2) {
            double gx = piece == 0 ? r : 0, gy = piece == 1 ? r : 0;
            axis_interval(px, dx, x0 - gx, x1 + gx, &t0, &t1);
            axis_interval(py, dy, y0 - gy, y1 + gy, &t0, &t1);
            if (!(t0 < t1)) continue;
            if (piece == 0) cnx = dx > 0 ? -1 : 1;
            else cny = dy > 0 ? -1 : 1;
        } else {
            double kx = (piece & 1) ? x1 : x0, ky = (piece & 2) ? y1 : y0;
            if (r == 0 || !disk_interval(px - kx, py - ky, dx, dy, r, &t0, &t1)) continue;
            double qx = px + dx * t0 - kx, qy = py + dy * t0 - ky, ql = sqrt(qx * qx + qy * qy);
            cnx = qx / ql, cny = qy / ql;
            if (dlen > 0 && fabs(fabs((px - kx) * dy - (py - ky) * dx) / dlen - r) < o.tol_p) o.ambiguous = 1;
        }
        hi = dmax(hi, t1);
        if (t0 < lo) {
            best_lo[1] = lo, lo = t0, nx = cnx, ny = cny;
        } else if (t0 < best_lo[1]) {
            best_lo[1] = t0;
        }
    }
    if (overlap) {
        o.t_exit = hi;
        return o;
    }
    if (!(lo < hi) || hi <= 0) return o;
    if (fabs(lo) < o.tol_t || fabs(lo - 1) < o.tol_t || fabs(hi - lo) < o.tol_t) o.ambiguous = 1;
    if (!(lo >= 0 && lo < 1)) return o;
    o.kind = KIND_CONTACT;
    o.t = lo, o.t_exit = hi, o.nx = nx, o.ny = ny;
    o.cx = px + (double)p->va.x * dt * lo, o.cy = py + (double)p->va.y * dt * lo;
    return o;
}

typedef struct tally {
    size_t compared, ambiguous, contacts, overlaps;
    double worst_t, worst_p, worst_n;
} tally;

static void fail_oracle(const void *rec, size_t size, const mink_hit *h, const oracle *o, const char *what) {
    print_record(rec, size);
    print_hit("got", h);
    fprintf(stderr, "  oracle: kind %d t %.9g t_exit %.9g normal (%.9g %.9g) depth %.9g tol_t %g tol_p %g tol_n %g\n",
            o->kind, o->t, o->t_exit, o->nx, o->ny, o->depth, o->tol_t, o->tol_p, o->tol_n);
    fail_msg("scalar result disagrees with the oracle: %s", what);
}

static void compare(const void *rec, size_t size, const mink_hit *h, const oracle *o, tally *ty) {
    assert_hit_sane(h);
    if (o->ambiguous) {
        ty->ambiguous++;
        return;
    }
    ty->compared++;
    int kind = h->flags == 0 ? KIND_NONE
             : h->flags == MINK_HIT_CONTACT ? KIND_CONTACT
             : h->flags == (MINK_HIT_CONTACT | MINK_HIT_OVERLAP) ? KIND_OVERLAP : -1;
    if (kind != o->kind) fail_oracle(rec, size, h, o, "hit or no hit");
    if (kind == KIND_NONE) return;
    ty->contacts += kind == KIND_CONTACT;
    ty->overlaps += kind == KIND_OVERLAP;
    double en = dmax(fabs(h->normal.x - o->nx), fabs(h->normal.y - o->ny)) / o->tol_n;
    double et = fabs(h->t - o->t) / o->tol_t;
    double back = o->r - o->depth / 2;
    double px = o->cx - o->nx * back, py = o->cy - o->ny * back;
    double ep = dmax(dmax(fabs(h->point.x - px), fabs(h->point.y - py)), fabs(h->depth - o->depth)) /
                (o->tol_p + o->r * o->tol_n);
    double exit_tol = o->tol_t + 1e-5 * fabs(o->t_exit);
    if (isinf(o->t_exit) ? !isinf(h->t_exit) : fabs(h->t_exit - o->t_exit) > exit_tol) fail_oracle(rec, size, h, o, "t_exit");
    if (en > 1) fail_oracle(rec, size, h, o, "normal");
    if (et > 1) fail_oracle(rec, size, h, o, "t");
    if (ep > 1) fail_oracle(rec, size, h, o, "point or depth");
    ty->worst_t = dmax(ty->worst_t, et), ty->worst_p = dmax(ty->worst_p, ep), ty->worst_n = dmax(ty->worst_n, en);
}

static void report(const char *kind, size_t n, int e, float dt, const tally *ty) {
    printf("  %s: %zu pairs, scale 2^%d, dt %g: compared %zu (contacts %zu, overlaps %zu), ambiguous %zu; "
           "worst error / tolerance: t %.3f, point %.3f, normal %.3f\n",
           kind, n, e, (double)dt, ty->compared, ty->contacts, ty->overlaps, ty->ambiguous, ty->worst_t,
           ty->worst_p, ty->worst_n);
    assert_true(ty->ambiguous * 100 < n);
}

static void scale_records(void *records, size_t n, size_t size, int e) {
    float k = ldexpf(1.0f, e);
    float *f = records;
    for (size_t i = 0; i < n * size / sizeof(float); i++) f[i] *= k;
}

enum { MILLION = 1 << 20 };

/* One random set of one kind: make, scale, sweep on both paths, compare with the oracle. */
typedef struct random_kind {
    const char *name;
    size_t size;
    void (*make)(uint64_t seed, size_t n, void *out);
    mink_status (*sweep)(mink_context *ctx, const void *in, size_t n, float dt, mink_hit *out);
    oracle (*oracle)(const void *rec, double dt);
} random_kind;

static void make_circles(uint64_t seed, size_t n, void *out) { mink_sample_circle_pairs(seed, n, out); }
static void make_circle_aabb(uint64_t seed, size_t n, void *out) { mink_sample_circle_aabb_pairs(seed, n, out); }
static mink_status sweep_circles(mink_context *c, const void *in, size_t n, float dt, mink_hit *out) {
    return mink_batch_sweep_circle(c, in, n, dt, out);
}
static mink_status sweep_circle_aabb(mink_context *c, const void *in, size_t n, float dt, mink_hit *out) {
    return mink_batch_sweep_circle_aabb(c, in, n, dt, out);
}
static oracle oracle_circles_rec(const void *rec, double dt) { return oracle_circle(rec, dt); }
static oracle oracle_circle_aabb_rec(const void *rec, double dt) { return oracle_circle_aabb(rec, dt); }

static const random_kind circles = {"circle", sizeof(mink_circle_pair), make_circles, sweep_circles, oracle_circles_rec};
static const random_kind circle_aabb = {"circle-box", sizeof(mink_circle_aabb_pair), make_circle_aabb,
                                        sweep_circle_aabb, oracle_circle_aabb_rec};

static void run(const paths *p, const random_kind *k, uint64_t seed, size_t n, int e, float dt) {
    char *recs = malloc(n * k->size);
    mink_hit *hits = malloc(n * sizeof *hits), *cl = malloc(n * sizeof *cl);
    assert_true(recs && hits && cl);
    k->make(seed, n, recs);
    scale_records(recs, n, k->size, e);
    assert_int_equal(k->sweep(p->scalar, recs, n, dt, hits), MINK_OK);
    assert_int_equal(k->sweep(p->opencl, recs, n, dt, cl), MINK_OK);
    assert_hits_identical_records(cl, hits, n, recs, k->size, "OpenCL and scalar results");
    tally ty = {0};
    for (size_t i = 0; i < n; i++) {
        oracle o = k->oracle(recs + i * k->size, dt);
        compare(recs + i * k->size, k->size, &hits[i], &o, &ty);
    }
    report(k->name, n, e, dt, &ty);
    free(recs), free(hits), free(cl);
}

static void opencl_circles_million(void **state) { run(*state, &circles, 2026, MILLION, 0, 1.0f); }
static void opencl_circles_scaled(void **state) {
    run(*state, &circles, 7, MILLION / 8, 100, 1.0f);
    run(*state, &circles, 8, MILLION / 8, -100, 0.25f);
}
static void opencl_circle_aabb_million(void **state) { run(*state, &circle_aabb, 2026, MILLION, 0, 1.0f); }
static void opencl_circle_aabb_scaled(void **state) {
    run(*state, &circle_aabb, 9, MILLION / 8, 100, 1.0f);
    run(*state, &circle_aabb, 10, MILLION / 8, -100, 0.25f);
}

/* The mixed batch gives each pair the bits of its typed query (mirrored for box–circle). */
static void opencl_mixed_million(void **state) {
    const paths *p = *state;
    size_t n = MILLION;
    mink_pair *pairs = malloc(n * sizeof *pairs);
    mink_hit *hits = malloc(n * sizeof *hits);
    assert_true(pairs && hits);
    mink_sample_pairs(2026, n, pairs);
    SWEEP_BOTH(p, mink_batch_sweep, pairs, n, 1.0f, hits);
    size_t kinds[4] = {0}, contacts = 0;
    for (size_t i = 0; i < n; i++) {
        const mink_body *a = &pairs[i].a, *b = &pairs[i].b;
        mink_hit want;
        if (a->type == MINK_SHAPE_AABB && b->type == MINK_SHAPE_AABB)
            want = mink_sweep_aabb(a->shape.aabb, a->velocity, b->shape.aabb, b->velocity, 1), kinds[0]++;
        else if (a->type == MINK_SHAPE_CIRCLE && b->type == MINK_SHAPE_CIRCLE)
            want = mink_sweep_circle(a->shape.circle, a->velocity, b->shape.circle, b->velocity, 1), kinds[1]++;
        else if (a->type == MINK_SHAPE_CIRCLE)
            want = mink_sweep_circle_aabb(a->shape.circle, a->velocity, b->shape.aabb, b->velocity, 1), kinds[2]++;
        else {
            want = mink_sweep_circle_aabb(b->shape.circle, b->velocity, a->shape.aabb, a->velocity, 1), kinds[3]++;
            want.normal.x = 0.0f - want.normal.x, want.normal.y = 0.0f - want.normal.y;
        }
        contacts += want.flags != 0;
        assert_hits_identical_records(&hits[i], &want, 1, &pairs[i], sizeof pairs[i], "mixed vs typed");
    }
    printf("  mixed: %zu pairs (box-box %zu, circle-circle %zu, circle-box %zu, box-circle %zu), %zu contacts\n",
           n, kinds[0], kinds[1], kinds[2], kinds[3], contacts);
    for (int k = 0; k < 4; k++) assert_true(kinds[k] > n / 8);
    free(pairs), free(hits);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(opencl_circles_million, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_circles_scaled, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_circle_aabb_million, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_circle_aabb_scaled, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_mixed_million, paths_setup, paths_teardown),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests_name("circle_random", tests, NULL, NULL);
}
