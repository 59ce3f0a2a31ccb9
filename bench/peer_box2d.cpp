// bench/peer_box2d.cpp — the Box2D side of the polygon comparison (see peer_box2d.h).
#include "peer_box2d.h"

#include <box2d/b2_distance.h>
#include <box2d/b2_time_of_impact.h>
#include <box2d/box2d.h>

#include <cstdio>
#include <new>

namespace {

// A body as Box2D's proxy and sweep see it: vertices about the centre of rotation.
struct proxy_body {
    b2Vec2 vertices[b2_maxPolygonVertices];
    b2DistanceProxy proxy;
    b2Sweep sweep;
};

void make(const mink_body *b, float dt, proxy_body *out) {
    b2Vec2 c(0.0f, 0.0f);
    float angle = 0.0f, radius = 0.0f;
    int count = 0;
    if (b->type == MINK_SHAPE_AABB) {
        const mink_aabb &box = b->shape.aabb;
        c.Set((box.min.x + box.max.x) * 0.5f, (box.min.y + box.max.y) * 0.5f);
        float hx = box.max.x - c.x, hy = box.max.y - c.y;
        out->vertices[0].Set(-hx, -hy), out->vertices[1].Set(hx, -hy);
        out->vertices[2].Set(hx, hy), out->vertices[3].Set(-hx, hy);
        count = 4;
    } else if (b->type == MINK_SHAPE_CIRCLE) {
        c.Set(b->shape.circle.center.x, b->shape.circle.center.y);
        out->vertices[0].Set(0.0f, 0.0f);
        radius = b->shape.circle.radius;
        count = 1;
    } else {
        const mink_polygon &p = b->shape.polygon;
        c.Set(p.position.x, p.position.y);
        angle = p.angle;
        count = (int)p.count;
        for (int i = 0; i < count; i++) out->vertices[i].Set(p.vertices[i].x, p.vertices[i].y);
    }
    out->proxy.Set(out->vertices, count, radius);
    out->sweep.localCenter.SetZero();
    out->sweep.c0 = c;
    out->sweep.c = c + dt * b2Vec2(b->velocity.x, b->velocity.y);
    out->sweep.a0 = angle;
    out->sweep.a = angle + dt * b->angular_velocity;
    out->sweep.alpha0 = 0.0f;
}

} // namespace

extern "C" peer_toi_state peer_box2d_toi(const mink_body *a, const mink_body *b, float dt, float *t) {
    proxy_body pa, pb;
    make(a, dt, &pa);
    make(b, dt, &pb);
    b2TOIInput in;
    in.proxyA = pa.proxy;
    in.proxyB = pb.proxy;
    in.sweepA = pa.sweep;
    in.sweepB = pb.sweep;
    in.tMax = 1.0f;
    b2TOIOutput out;
    b2TimeOfImpact(&out, &in);
    *t = out.t;
    switch (out.state) {
    case b2TOIOutput::e_overlapped: return PEER_TOI_OVERLAPPED;
    case b2TOIOutput::e_touching: return PEER_TOI_TOUCHING;
    case b2TOIOutput::e_separated: return PEER_TOI_SEPARATED;
    default: return PEER_TOI_FAILED;
    }
}

extern "C" const char *peer_box2d_version(void) {
    static char text[32];
    std::snprintf(text, sizeof text, "Box2D %d.%d.%d", b2_version.major, b2_version.minor, b2_version.revision);
    return text;
}

// ---- a world of static shapes, for ray casts ------------------------------------------------------

struct peer_box2d_world {
    b2World world{b2Vec2(0.0f, 0.0f)};
};

namespace {

// The closest fixture: returning the fraction clips the ray to it (Box2D's documented idiom).
struct closest_ray : b2RayCastCallback {
    float t = 2.0f;
    size_t body = 0;
    float ReportFixture(b2Fixture *f, const b2Vec2 &, const b2Vec2 &, float fraction) override {
        t = fraction;
        body = (size_t)f->GetBody()->GetUserData().pointer;
        return fraction;
    }
};

} // namespace

peer_box2d_world *peer_box2d_world_create(const float *x, const float *y, const float *hx, const float *hy,
                                          size_t count) {
    peer_box2d_world *w = new (std::nothrow) peer_box2d_world;
    if (w == nullptr) return nullptr;
    for (size_t k = 0; k < count; k++) {
        b2BodyDef def;
        def.type = b2_staticBody;
        def.position.Set(x[k], y[k]);
        def.userData.pointer = (uintptr_t)k;
        b2Body *body = w->world.CreateBody(&def);
        if (hy[k] > 0.0f) {
            b2PolygonShape box;
            box.SetAsBox(hx[k], hy[k]);
            body->CreateFixture(&box, 0.0f);
        } else {
            b2CircleShape circle;
            circle.m_radius = hx[k];
            body->CreateFixture(&circle, 0.0f);
        }
    }
    return w;
}

void peer_box2d_world_destroy(peer_box2d_world *w) { delete w; }

int peer_box2d_world_ray(peer_box2d_world *w, float x, float y, float dx, float dy, float *t, size_t *body) {
    closest_ray cb;
    w->world.RayCast(&cb, b2Vec2(x, y), b2Vec2(x + dx, y + dy));
    if (cb.t > 1.0f) return 0;
    *t = cb.t;
    *body = cb.body;
    return 1;
}
