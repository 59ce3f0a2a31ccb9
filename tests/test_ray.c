/* tests/test_ray.c — ray casts (mink_cast_ray, mink_batch_cast_ray): hand-computed cases, random
 * rays against an independent double-precision oracle, and OpenCL against scalar bit for bit.
 *
 * The oracle clips the ray by each face's half-plane (Cyrus–Beck) for boxes and polygons, whose
 * world vertices it turns itself in double, and solves the quadratic for circles. A ray's contact
 * is the open interior met at some t in [0, 1). Stated tolerance, per ray, with S the largest
 * magnitude among its coordinates, the body's and the translation, |d| the translation's length,
 * eps = FLT_EPSILON: tol_p = 64 eps S, tol_t = 1e-6 + tol_p / |d|; normals within 1e-4. Rays within
 * those of a decision (grazing, running along a face's line, passing a vertex or clipping a
 * corner, ending on the boundary, starting on it) are ambiguous: not compared, and fewer than 10%
 * of the sample (which aims a fifth of its rays at a vertex). Passing near a vertex, the normal and
 * t_exit are not compared (either face is right); t's tolerance grows as the face crossed lies
 * along the ray (tol_p over the translation's component along the face's normal). */
#include <float.h>

#include "test_util.h"

enum { NONE, CONTACT, OVERLAP };

typedef struct ray_oracle {
    int kind, ambiguous, normal_ambiguous, exit_ambiguous;
    double t, t_exit, nx, ny, depth, px, py, tol_t, tol_exit, tol_p;
} ray_oracle;

static double dmax(double a, double b) { return a > b ? a : b; }

/* The body's faces in double: outward unit normals and offsets (n·x <= c inside), and vertices. */
typedef struct faces {
    int n;
    double nx[MINK_MAX_POLYGON_VERTICES], ny[MINK_MAX_POLYGON_VERTICES], c[MINK_MAX_POLYGON_VERTICES];
    double vx[MINK_MAX_POLYGON_VERTICES], vy[MINK_MAX_POLYGON_VERTICES];
} faces;

static faces body_faces(const mink_body *b) {
    faces f = {0};
    if (b->type == MINK_SHAPE_AABB) {
        mink_aabb x = b->shape.aabb;
        double vx[4] = {x.min.x, x.max.x, x.max.x, x.min.x}, vy[4] = {x.min.y, x.min.y, x.max.y, x.max.y};
        f.n = 4;
        memcpy(f.vx, vx, sizeof vx), memcpy(f.vy, vy, sizeof vy);
    } else {
        const mink_polygon *p = &b->shape.polygon;
        double cs = cos((double)p->angle), sn = sin((double)p->angle);
        f.n = (int)p->count;
        for (int i = 0; i < f.n; i++) {
            f.vx[i] = p->position.x + (cs * p->vertices[i].x - sn * p->vertices[i].y);
            f.vy[i] = p->position.y + (sn * p->vertices[i].x + cs * p->vertices[i].y);
        }
    }
    for (int i = 0; i < f.n; i++) { /* counter-clockwise: the outward normal is the edge turned right */
        int j = (i + 1) % f.n;
        double ex = f.vx[j] - f.vx[i], ey = f.vy[j] - f.vy[i], len = sqrt(ex * ex + ey * ey);
        f.nx[i] = ey / len, f.ny[i] = -ex / len;
        f.c[i] = f.nx[i] * f.vx[i] + f.ny[i] * f.vy[i];
    }
    return f;
}

static ray_oracle oracle_ray(const mink_ray_cast *r) {
    ray_oracle o = {0};
    double ox = r->ray.origin.x, oy = r->ray.origin.y, dx = r->ray.translation.x, dy = r->ray.translation.y;
    double dlen = sqrt(dx * dx + dy * dy), S = dmax(dmax(fabs(ox), fabs(oy)), dlen);
    const mink_body *b = &r->body;
    faces f = {0};
    if (b->type == MINK_SHAPE_CIRCLE) {
        mink_circle c = b->shape.circle;
        S = dmax(S, dmax(dmax(fabs(c.center.x), fabs(c.center.y)), c.radius));
    } else {
        f = body_faces(b);
        for (int i = 0; i < f.n; i++) S = dmax(S, dmax(fabs(f.vx[i]), fabs(f.vy[i])));
    }
    o.tol_p = 64 * FLT_EPSILON * S;
    o.tol_t = o.tol_exit = 1e-6 + (dlen > 0 ? o.tol_p / dlen : 0);
    double lo = -INFINITY, hi = INFINITY; /* the open interval of t inside */
    if (b->type == MINK_SHAPE_CIRCLE) {
        mink_circle c = b->shape.circle;
        double sx = ox - c.center.x, sy = oy - c.center.y, R = c.radius, len = sqrt(sx * sx + sy * sy);
        if (fabs(len - R) < o.tol_p) o.ambiguous = 1;                                        /* starts on it */
        if (dlen > 0 && fabs(fabs(sx * dy - sy * dx) / dlen - R) < o.tol_p) o.ambiguous = 1; /* grazes */
        if (len < R) {
            o.kind = OVERLAP, o.depth = R - len;
            o.nx = sx / len, o.ny = sy / len;
            o.normal_ambiguous = len < o.tol_p;
            return o;
        }
        double a = dx * dx + dy * dy, bb = sx * dx + sy * dy, disc = bb * bb - a * (sx * sx + sy * sy - R * R);
        if (a == 0 || disc <= 0) return o;
        lo = (-bb - sqrt(disc)) / a, hi = (-bb + sqrt(disc)) / a;
        if (!(lo < 1 && hi > 0)) return o;
        o.kind = CONTACT, o.t = lo, o.t_exit = hi;
        o.px = ox + dx * lo, o.py = oy + dy * lo;
        o.nx = (o.px - c.center.x) / R, o.ny = (o.py - c.center.y) / R;
    } else {
        int inside = 1, enter = -1, leave = -1;
        double deepest = INFINITY, second = -INFINITY, apart = -INFINITY;
        for (int i = 0; i < f.n; i++) {
            double s = f.nx[i] * ox + f.ny[i] * oy - f.c[i], e = f.nx[i] * dx + f.ny[i] * dy;
            if (s >= 0) inside = 0;
            apart = dmax(apart, s);
            if (-s < deepest) { /* the nearest face from inside */
                deepest = -s;
                o.nx = f.nx[i], o.ny = f.ny[i];
            }
            if (e == 0) {
                if (s >= 0) lo = INFINITY; /* parallel, outside or on the line: never inside */
                continue;
            }
            double t = -s / e;
            if (e < 0) {
                if (t > lo) second = lo, lo = t, enter = i;
                else if (t > second) second = t;
            } else if (t < hi) {
                hi = t, leave = i;
            }
        }
        if (!inside && apart < o.tol_p) o.ambiguous = 1; /* starts on the boundary */
        /* Running along a face's line: the float faces may put it just inside or just outside. And
         * passing a vertex: which face it crosses there is the float faces' call. */
        int near_vertex = 0, along_face = 0;
        for (int i = 0; i < f.n; i++) {
            double s = f.nx[i] * ox + f.ny[i] * oy - f.c[i], e = f.nx[i] * dx + f.ny[i] * dy;
            along_face |= s == 0 && e == 0 && b->type == MINK_SHAPE_AABB; /* exact: a box's faces are */
            if (fabs(s) < o.tol_p && fabs(e) < o.tol_p && !along_face) o.ambiguous = 1;
            double wx = f.vx[i] - ox, wy = f.vy[i] - oy, along = dlen > 0 ? (wx * dx + wy * dy) / (dlen * dlen) : 0;
            if (dlen > 0 && along > -o.tol_t && along < 1 + o.tol_t && fabs(wx * dy - wy * dx) / dlen < 4 * o.tol_p)
                near_vertex = 1;
        }
        if (inside) {
            double nearest = INFINITY, next = INFINITY;
            for (int i = 0; i < f.n; i++) {
                double d = f.c[i] - (f.nx[i] * ox + f.ny[i] * oy);
                if (d < nearest) next = nearest, nearest = d;
                else if (d < next) next = d;
            }
            o.kind = OVERLAP, o.depth = nearest;
            o.normal_ambiguous = next - nearest < o.tol_p;
            if (nearest < o.tol_p) o.ambiguous = 1;
            return o;
        }
        if (!(lo < hi && lo < 1 && hi > 0)) {
            if (!along_face && (near_vertex || (hi - lo > -o.tol_t && lo < 1 + o.tol_t))) o.ambiguous = 1; /* grazes */
            return o;
        }
        o.kind = CONTACT, o.t = lo, o.t_exit = hi;
        o.px = ox + dx * lo, o.py = oy + dy * lo;
        o.nx = f.nx[enter], o.ny = f.ny[enter];
        /* t is as good as the faces crossed are steep: a face nearly along the ray moves it far. */
        o.tol_t = 1e-6 + o.tol_p / fabs(f.nx[enter] * dx + f.ny[enter] * dy);
        if (leave >= 0) o.tol_exit = 1e-6 + o.tol_p / fabs(f.nx[leave] * dx + f.ny[leave] * dy);
        o.normal_ambiguous = near_vertex || lo - second < o.tol_t;
        o.exit_ambiguous = near_vertex;
        /* A chord that stays within tol of the boundary (a corner clipped) may be none in float. */
        double tm = (lo + (hi < 1 ? hi : 1)) * 0.5, mx = ox + dx * tm, my = oy + dy * tm, in = INFINITY;
        for (int i = 0; i < f.n; i++) in = fmin(in, f.c[i] - (f.nx[i] * mx + f.ny[i] * my));
        if (in < 4 * o.tol_p) o.ambiguous = 1;
    }
    if (o.t_exit - o.t < o.tol_t || 1 - o.t < o.tol_t) o.ambiguous = 1; /* grazes; meets it at the end */
    return o;
}

/* Whether hit h is what the oracle says, within its tolerances; prints the first few that are not. */
static int agrees(const mink_ray_cast *r, const mink_hit *h, const ray_oracle *o) {
    int ok = 1, kind = (h->flags & MINK_HIT_OVERLAP) ? OVERLAP : (h->flags & MINK_HIT_CONTACT) ? CONTACT : NONE;
    if (h->flags & MINK_HIT_INVALID) ok = 0;
    if (kind != o->kind) ok = 0;
    if (ok && kind == CONTACT) {
        double dlen = hypot(r->ray.translation.x, r->ray.translation.y);
        ok = fabs(h->t - o->t) <= o->tol_t && fabs(h->point.x - o->px) <= o->tol_p + dlen * o->tol_t &&
             fabs(h->point.y - o->py) <= o->tol_p + dlen * o->tol_t;
        if (o->t_exit < 1e30 && !o->exit_ambiguous) ok &= fabs(h->t_exit - o->t_exit) <= o->tol_exit + 1e-5 * fabs(o->t_exit);
    }
    if (ok && kind == OVERLAP) ok = fabs(h->depth - o->depth) <= o->tol_p && h->t == 0.0f;
    if (ok && kind != NONE && !o->normal_ambiguous)
        ok = fabs(h->normal.x - o->nx) <= 1e-4 && fabs(h->normal.y - o->ny) <= 1e-4;
    return ok;
}

static mink_body box_body(float x0, float y0, float x1, float y1) {
    return mink_body_aabb((mink_aabb){{x0, y0}, {x1, y1}}, mink_v2(0, 0));
}

static mink_body square_polygon(void) { /* the box [-1, 1]^2 as a polygon */
    mink_vec2 pts[4] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    mink_polygon p;
    assert_int_equal(mink_polygon_make(pts, 4, mink_v2(0, 0), 0.0f, &p), MINK_POLYGON_OK);
    return mink_body_polygon(p, mink_v2(0, 0));
}

/* Cast by the single query and by both batches: all three the same bits. */
static mink_hit cast_all(paths *p, mink_ray ray, mink_body body) {
    mink_ray_cast c = {ray, body};
    mink_hit one = mink_cast_ray(ray, body), batch[2];
    assert_int_equal(mink_batch_cast_ray(p->scalar, &c, 1, &batch[0]), MINK_OK);
    assert_int_equal(mink_batch_cast_ray(p->opencl, &c, 1, &batch[1]), MINK_OK);
    assert_memory_equal(&one, &batch[0], sizeof one);
    assert_memory_equal(&one, &batch[1], sizeof one);
    return one;
}

static void expect_hit(mink_hit h, uint32_t flags, float t, float nx, float ny, float px, float py) {
    if (h.flags != flags) print_hit("got", &h);
    assert_int_equal(h.flags, flags);
    assert_true(h.t == t);
    assert_true(h.normal.x == nx && h.normal.y == ny);
    if (flags == MINK_HIT_CONTACT) assert_true(h.point.x == px && h.point.y == py);
}

static void hand_computed(void **state) {
    paths *p = *state;
    mink_body shapes[3] = {box_body(-1, -1, 1, 1), mink_body_circle((mink_circle){{0, 0}, 1}, mink_v2(0, 0)),
                           square_polygon()};
    for (int s = 0; s < 3; s++) {
        mink_body b = shapes[s];
        /* Head-on from the left: meets x = -1 at t = 0.4, leaves at 0.6. */
        mink_hit h = cast_all(p, (mink_ray){{-5, 0}, {10, 0}}, b);
        expect_hit(h, MINK_HIT_CONTACT, 0.4f, -1, 0, -1, 0);
        assert_true(h.t_exit == 0.6f);
        /* Ending exactly on the boundary (t = 1), and short of it: no contact. */
        assert_int_equal(cast_all(p, (mink_ray){{-5, 0}, {4, 0}}, b).flags, 0);
        assert_int_equal(cast_all(p, (mink_ray){{-5, 0}, {3, 0}}, b).flags, 0);
        /* Along the top (a box's face, the circle's tangent): grazing, no contact. */
        assert_int_equal(cast_all(p, (mink_ray){{-5, 1}, {10, 0}}, b).flags, 0);
        /* Away from it, and no motion outside: none. */
        assert_int_equal(cast_all(p, (mink_ray){{-5, 0}, {-10, 0}}, b).flags, 0);
        assert_int_equal(cast_all(p, (mink_ray){{-5, 0}, {0, 0}}, b).flags, 0);
        /* From inside, moving or not: OVERLAP at 0, the shortest way out. */
        h = cast_all(p, (mink_ray){{0.5f, 0}, {0, 3}}, b);
        expect_hit(h, MINK_HIT_CONTACT | MINK_HIT_OVERLAP, 0, 1, 0, 0, 0);
        assert_true(h.depth == 0.5f);
        h = cast_all(p, (mink_ray){{0, -0.75f}, {0, 0}}, b);
        expect_hit(h, MINK_HIT_CONTACT | MINK_HIT_OVERLAP, 0, 0, -1, 0, 0);
        assert_true(h.depth == 0.25f);
        /* Starting on the boundary, going in: contact at 0, not an overlap (the interior is open). */
        h = cast_all(p, (mink_ray){{1, 0}, {-4, 0}}, b);
        expect_hit(h, MINK_HIT_CONTACT, 0, 1, 0, 1, 0);
        /* Far from the origin, the same distances: exact at 2^20. */
        const float F = 1048576.0f;
        mink_body far = b;
        if (b.type == MINK_SHAPE_AABB) far.shape.aabb = (mink_aabb){{F - 1, F - 1}, {F + 1, F + 1}};
        if (b.type == MINK_SHAPE_CIRCLE) far.shape.circle.center = mink_v2(F, F);
        if (b.type == MINK_SHAPE_POLYGON) far.shape.polygon.position = mink_v2(F, F);
        h = cast_all(p, (mink_ray){{F, F + 5}, {0, -10}}, far);
        expect_hit(h, MINK_HIT_CONTACT, 0.4f, 0, 1, F, F + 1);
    }
    /* A ray through a box's corner, diagonally inwards: contact at the corner. */
    mink_hit h = cast_all(p, (mink_ray){{-3, -3}, {4, 4}}, shapes[0]);
    assert_int_equal(h.flags, MINK_HIT_CONTACT);
    assert_true(h.t == 0.5f && h.point.x == -1 && h.point.y == -1);
    /* Just past the corner, outwards: only the corner is touched, no contact. */
    assert_int_equal(cast_all(p, (mink_ray){{-3, 1}, {4, -4}}, shapes[0]).flags, 0);
}

static void bad_input(void **state) {
    paths *p = *state;
    mink_ray_cast c[3];
    mink_sample_ray_casts(5, 3, c);
    c[1].ray.origin.x = NAN;
    mink_hit want[3], got[3];
    for (int k = 0; k < 3; k++) want[k] = mink_cast_ray(c[k].ray, c[k].body);
    assert_true(want[1].flags & MINK_HIT_INVALID);
    mink_context *ctxs[2] = {p->scalar, p->opencl};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(mink_batch_cast_ray(ctxs[k], c, 3, got), MINK_OK);
        assert_memory_equal(got, want, sizeof want); /* the others untouched */
        assert_int_equal(mink_batch_cast_ray(ctxs[k], NULL, 3, got), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_batch_cast_ray(ctxs[k], c, 3, NULL), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_batch_cast_ray(ctxs[k], c, SIZE_MAX / 8, got), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_batch_cast_ray(ctxs[k], NULL, 0, NULL), MINK_OK);
    }
    assert_int_equal(mink_batch_cast_ray(NULL, c, 3, got), MINK_ERR_INVALID_ARGUMENT);
}

/* 200 000 sample rays against the oracle on the scalar path, and OpenCL the same bits. */
static void random_against_oracle(void **state) {
    paths *p = *state;
    const size_t n = 200000;
    mink_ray_cast *c = malloc(n * sizeof *c);
    mink_hit *hs = malloc(n * sizeof *hs), *hc = malloc(n * sizeof *hc);
    mink_sample_ray_casts(20261125, n, c);
    assert_int_equal(mink_batch_cast_ray(p->scalar, c, n, hs), MINK_OK);
    assert_int_equal(mink_batch_cast_ray(p->opencl, c, n, hc), MINK_OK);
    assert_memory_equal(hs, hc, n * sizeof *hs);
    size_t ambiguous = 0, wrong = 0, kinds[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        ray_oracle o = oracle_ray(&c[i]);
        if (o.ambiguous) {
            ambiguous++;
            continue;
        }
        kinds[o.kind]++;
        if (!agrees(&c[i], &hs[i], &o)) {
            if (wrong++ < 5) {
                fprintf(stderr, "ray %zu (type %u): origin (%a %a) translation (%a %a); oracle kind %d t %.9g t_exit %.9g "
                        "n (%.6g %.6g) depth %.9g point (%.9g %.9g) tol_t %.3g\n",
                        i, (unsigned)c[i].body.type, (double)c[i].ray.origin.x, (double)c[i].ray.origin.y,
                        (double)c[i].ray.translation.x, (double)c[i].ray.translation.y, o.kind, o.t, o.t_exit, o.nx,
                        o.ny, o.depth, o.px, o.py, o.tol_t);
                print_hit("got", &hs[i]);
            }
        }
    }
    fprintf(stderr, "rays: %zu none, %zu contacts, %zu from inside, %zu ambiguous\n", kinds[NONE], kinds[CONTACT],
            kinds[OVERLAP], ambiguous);
    assert_int_equal(wrong, 0);
    assert_true(ambiguous * 10 < n); /* the sample aims a fifth of its rays at a vertex or corner */
    assert_true(kinds[CONTACT] > n / 5 && kinds[OVERLAP] > n / 10 && kinds[NONE] > n / 10);
    free(c), free(hs), free(hc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(hand_computed, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(bad_input, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(random_against_oracle, paths_setup, paths_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
