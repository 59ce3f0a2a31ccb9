/* tests/oracle2d.h — an independent double-precision oracle for the polygon tests.
 *
 * It shares no code and no method with mink's: shapes become point sets in double, two shapes'
 * configuration space obstacle is the convex hull of all vertex differences (Andrew's monotone
 * chain), and the signed distance of the origin to it, minus the radii, tells separation (> 0)
 * or penetration (< 0). Along linear motion that signed distance is a convex function of time, so
 * its first root is found by a ternary search for the minimum and a bisection before it. */
#ifndef MINK_ORACLE2D_H
#define MINK_ORACLE2D_H

#include <math.h>
#include <stdlib.h>

#include "mink/mink.h"

typedef struct dv2 {
    double x, y;
} dv2;

/* A convex shape in double: up to 8 points and a rounding radius (a circle is one point). */
typedef struct dshape {
    dv2 v[8];
    int n;
    double r;
} dshape;

static inline double d_cross(dv2 o, dv2 a, dv2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

static inline int d_cmp(const void *pa, const void *pb) {
    const dv2 *a = pa, *b = pb;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    return a->y < b->y ? -1 : (a->y > b->y);
}

/* Convex hull, counter-clockwise, collinear points dropped; returns the count (1 or 2 when
 * degenerate). `out` holds n + 1 points. */
static inline int d_hull(dv2 *p, int n, dv2 *out) {
    qsort(p, (size_t)n, sizeof *p, d_cmp);
    int k = 0;
    for (int i = 0; i < n; i++) {
        while (k >= 2 && d_cross(out[k - 2], out[k - 1], p[i]) <= 0) k--;
        out[k++] = p[i];
    }
    for (int i = n - 2, lo = k + 1; i >= 0; i--) {
        while (k >= lo && d_cross(out[k - 2], out[k - 1], p[i]) <= 0) k--;
        out[k++] = p[i];
    }
    return k > 1 ? k - 1 : k;
}

static inline double d_seg_dist(dv2 a, dv2 b, dv2 q) {
    double ex = b.x - a.x, ey = b.y - a.y, ee = ex * ex + ey * ey;
    double u = ee > 0 ? ((q.x - a.x) * ex + (q.y - a.y) * ey) / ee : 0;
    u = u < 0 ? 0 : (u > 1 ? 1 : u);
    return hypot(q.x - (a.x + ex * u), q.y - (a.y + ey * u));
}

/* Signed distance from q to the convex polygon h (m points, counter-clockwise). */
static inline double d_signed_dist(const dv2 *h, int m, dv2 q) {
    double best = INFINITY;
    int inside = m >= 3;
    for (int i = 0; i < m; i++) {
        dv2 a = h[i], b = h[(i + 1) % m];
        double d = d_seg_dist(a, b, q);
        if (d < best) best = d;
        if (m >= 3 && d_cross(a, b, q) <= 0) inside = 0;
    }
    return inside ? -best : best;
}

/* The shapes' signed distance when a is moved by da and b by db. */
static inline double d_gap(const dshape *a, dv2 da, const dshape *b, dv2 db) {
    dv2 pts[64], hull[65];
    int k = 0;
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++)
            pts[k++] = (dv2){(a->v[i].x + da.x) - (b->v[j].x + db.x), (a->v[i].y + da.y) - (b->v[j].y + db.y)};
    int m = d_hull(pts, k, hull);
    return d_signed_dist(hull, m, (dv2){0, 0}) - a->r - b->r;
}

typedef struct d_motion {
    const dshape *a, *b;
    dv2 da, db; /* displacement over the whole step */
} d_motion;

static inline double d_gap_at(const d_motion *m, double t) {
    return d_gap(m->a, (dv2){m->da.x * t, m->da.y * t}, m->b, (dv2){m->db.x * t, m->db.y * t});
}

/* The oracle's answer for linear motion over [0, 1]: *min_gap over the step, and the first time
 * the gap is negative (or -1). */
static inline double d_first_contact(const d_motion *m, double *min_gap, double *t_min) {
    double lo = 0, hi = 1;
    for (int i = 0; i < 100; i++) {
        double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (d_gap_at(m, m1) <= d_gap_at(m, m2)) hi = m2;
        else lo = m1;
    }
    double tm = (lo + hi) / 2, g0 = d_gap_at(m, 0), gm = d_gap_at(m, tm);
    if (g0 < gm) tm = 0, gm = g0;
    *min_gap = gm;
    *t_min = tm;
    if (g0 < 0) return 0;
    if (!(gm < 0)) return -1;
    lo = 0, hi = tm;
    for (int i = 0; i < 100; i++) {
        double mid = (lo + hi) / 2;
        if (d_gap_at(m, mid) < 0) hi = mid;
        else lo = mid;
    }
    return hi;
}

static inline dshape d_polygon(const mink_polygon *p, double angle_offset) {
    dshape s;
    double c = cos((double)p->angle + angle_offset), sn = sin((double)p->angle + angle_offset);
    s.n = (int)p->count;
    s.r = 0;
    for (int i = 0; i < s.n; i++) {
        double x = p->vertices[i].x, y = p->vertices[i].y;
        s.v[i] = (dv2){p->position.x + (c * x - sn * y), p->position.y + (sn * x + c * y)};
    }
    return s;
}

static inline dshape d_box(mink_aabb b, double angle) {
    dshape s;
    double cx = ((double)b.min.x + b.max.x) / 2, cy = ((double)b.min.y + b.max.y) / 2;
    double hx = ((double)b.max.x - b.min.x) / 2, hy = ((double)b.max.y - b.min.y) / 2;
    double c = cos(angle), sn = sin(angle);
    const double corners[4][2] = {{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}};
    for (int i = 0; i < 4; i++)
        s.v[i] = (dv2){cx + c * corners[i][0] - sn * corners[i][1], cy + sn * corners[i][0] + c * corners[i][1]};
    s.n = 4;
    s.r = 0;
    return s;
}

static inline dshape d_circle(mink_circle c) {
    dshape s;
    s.v[0] = (dv2){c.center.x, c.center.y};
    s.n = 1;
    s.r = c.radius;
    return s;
}

/* A capsule: its two centres rounded by its radius, turned by angle about its middle. */
static inline dshape d_capsule(mink_capsule k, double angle) {
    dshape s;
    double mx = ((double)k.center1.x + k.center2.x) / 2, my = ((double)k.center1.y + k.center2.y) / 2;
    double c = cos(angle), sn = sin(angle);
    const mink_vec2 ends[2] = {k.center1, k.center2};
    for (int i = 0; i < 2; i++) {
        double x = ends[i].x - mx, y = ends[i].y - my;
        s.v[i] = (dv2){mx + (c * x - sn * y), my + (sn * x + c * y)};
    }
    s.n = 2;
    s.r = k.radius;
    return s;
}

/* A body at time t of a step dt, turned by its angular velocity. */
static inline dshape d_body_at(const mink_body *b, double dt, double t) {
    dshape s;
    double turn = (double)b->angular_velocity * dt * t;
    if (b->type == MINK_SHAPE_AABB) s = d_box(b->shape.aabb, turn);
    else if (b->type == MINK_SHAPE_CIRCLE) s = d_circle(b->shape.circle);
    else if (b->type == MINK_SHAPE_CAPSULE) s = d_capsule(b->shape.capsule, turn);
    else s = d_polygon(&b->shape.polygon, turn);
    for (int i = 0; i < s.n; i++) s.v[i].x += b->velocity.x * dt * t, s.v[i].y += b->velocity.y * dt * t;
    return s;
}

/* How far a's lowest point along n lies above b's highest: 0 when they touch across n. */
static inline double d_separation_along(const dshape *a, const dshape *b, dv2 n) {
    double amin = INFINITY, bmax = -INFINITY;
    for (int i = 0; i < a->n; i++) amin = fmin(amin, a->v[i].x * n.x + a->v[i].y * n.y - a->r);
    for (int i = 0; i < b->n; i++) bmax = fmax(bmax, b->v[i].x * n.x + b->v[i].y * n.y + b->r);
    return amin - bmax;
}

/* Signed distance from q to the shape's boundary. */
static inline double d_shape_dist(const dshape *s, dv2 q) {
    dv2 pts[8], hull[9];
    for (int i = 0; i < s->n; i++) pts[i] = s->v[i];
    int m = d_hull(pts, s->n, hull);
    return d_signed_dist(hull, m, q) - s->r;
}

#endif /* MINK_ORACLE2D_H */
