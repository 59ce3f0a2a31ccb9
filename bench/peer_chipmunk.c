/* bench/peer_chipmunk.c — see peer_chipmunk.h. */
#include "peer_chipmunk.h"

#include <chipmunk/chipmunk.h>
#include <chipmunk/chipmunk_unsafe.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct peer_chipmunk {
    cpBody *body;
    cpShape *box, *circle;
};

peer_chipmunk *peer_chipmunk_create(void) {
    peer_chipmunk *p = calloc(1, sizeof *p);
    if (p == NULL) return NULL;
    p->body = cpBodyNewStatic();
    p->box = cpBoxShapeNew2(p->body, cpBBNew(-1, -1, 1, 1), 0.0);
    p->circle = cpCircleShapeNew(p->body, 1.0, cpvzero);
    if (!p->body || !p->box || !p->circle) {
        peer_chipmunk_destroy(p);
        return NULL;
    }
    return p;
}

void peer_chipmunk_destroy(peer_chipmunk *p) {
    if (p == NULL) return;
    if (p->box) cpShapeFree(p->box);
    if (p->circle) cpShapeFree(p->circle);
    if (p->body) cpBodyFree(p->body);
    free(p);
}

/* b as a static Chipmunk shape, grown by (gx, gy) on each side when it is a box. */
static cpShape *shape_of(peer_chipmunk *p, const mink_body *b, cpFloat gx, cpFloat gy) {
    if (b->type == MINK_SHAPE_CIRCLE) {
        cpCircleShapeSetRadius(p->circle, b->shape.circle.radius);
        cpCircleShapeSetOffset(p->circle, cpv(b->shape.circle.center.x, b->shape.circle.center.y));
        cpShapeUpdate(p->circle, cpTransformIdentity);
        return p->circle;
    }
    const mink_aabb *box = &b->shape.aabb;
    cpVect v[4] = {cpv(box->min.x - gx, box->min.y - gy), cpv(box->max.x + gx, box->min.y - gy),
                   cpv(box->max.x + gx, box->max.y + gy), cpv(box->min.x - gx, box->max.y + gy)};
    cpPolyShapeSetVertsRaw(p->box, 4, v);
    cpShapeUpdate(p->box, cpTransformIdentity);
    return p->box;
}

int peer_chipmunk_sweep(peer_chipmunk *p, const mink_body *a, const mink_body *b, float dt, float *t) {
    cpVect d = cpv(((cpFloat)a->velocity.x - b->velocity.x) * dt, ((cpFloat)a->velocity.y - b->velocity.y) * dt);
    cpVect start;
    cpFloat radius = 0.0;
    const cpShape *target;
    if (a->type == MINK_SHAPE_CIRCLE) {
        start = cpv(a->shape.circle.center.x, a->shape.circle.center.y);
        radius = a->shape.circle.radius;
        target = shape_of(p, b, 0.0, 0.0);
    } else if (a->type == MINK_SHAPE_AABB && b->type == MINK_SHAPE_AABB) {
        const mink_aabb *box = &a->shape.aabb;
        start = cpv(((cpFloat)box->min.x + box->max.x) * 0.5, ((cpFloat)box->min.y + box->max.y) * 0.5);
        target = shape_of(p, b, ((cpFloat)box->max.x - box->min.x) * 0.5, ((cpFloat)box->max.y - box->min.y) * 0.5);
    } else {
        return -1;
    }
    cpSegmentQueryInfo info;
    if (!cpShapeSegmentQuery(target, start, cpvadd(start, d), radius, &info)) return 0;
    *t = (float)info.alpha;
    return 1;
}

const char *peer_chipmunk_version(void) {
    static char text[48];
    snprintf(text, sizeof text, "Chipmunk %s", cpVersionString);
    return text;
}

/* ---- a space of static shapes, for segment queries -------------------------------------------- */

struct peer_chipmunk_space {
    cpSpace *space;
    cpShape **shapes;
    size_t count;
};

peer_chipmunk_space *peer_chipmunk_space_create(const float *x, const float *y, const float *hx, const float *hy,
                                                size_t count) {
    peer_chipmunk_space *s = calloc(1, sizeof *s);
    if (s == NULL || (s->shapes = calloc(count ? count : 1, sizeof *s->shapes)) == NULL ||
        (s->space = cpSpaceNew()) == NULL) {
        peer_chipmunk_space_destroy(s);
        return NULL;
    }
    cpBody *ground = cpSpaceGetStaticBody(s->space);
    for (size_t k = 0; k < count; k++, s->count++) {
        cpShape *shape = hy[k] > 0.0f ? cpBoxShapeNew2(ground, cpBBNew(x[k] - hx[k], y[k] - hy[k], x[k] + hx[k], y[k] + hy[k]), 0.0)
                                      : cpCircleShapeNew(ground, hx[k], cpv(x[k], y[k]));
        if (shape == NULL) {
            peer_chipmunk_space_destroy(s);
            return NULL;
        }
        cpShapeSetUserData(shape, (cpDataPointer)(uintptr_t)k);
        s->shapes[k] = cpSpaceAddShape(s->space, shape);
    }
    cpSpaceReindexStatic(s->space);
    return s;
}

void peer_chipmunk_space_destroy(peer_chipmunk_space *s) {
    if (s == NULL) return;
    for (size_t k = 0; k < s->count; k++) {
        cpSpaceRemoveShape(s->space, s->shapes[k]);
        cpShapeFree(s->shapes[k]);
    }
    if (s->space) cpSpaceFree(s->space);
    free(s->shapes);
    free(s);
}

int peer_chipmunk_space_ray(peer_chipmunk_space *s, float x, float y, float dx, float dy, float *t, size_t *body) {
    cpSegmentQueryInfo info;
    cpShape *hit = cpSpaceSegmentQueryFirst(s->space, cpv(x, y), cpv((cpFloat)x + dx, (cpFloat)y + dy), 0.0,
                                            CP_SHAPE_FILTER_ALL, &info);
    if (hit == NULL) return 0;
    *t = (float)info.alpha;
    *body = (size_t)(uintptr_t)cpShapeGetUserData(hit);
    return 1;
}
