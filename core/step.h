/* core/step.h — one world step, item by item, for the host and the device.
 *
 * Valid C99 and OpenCL C, under the rules of core/geom.h. A world step is a handful of passes
 * (core/broadphase.h has the first three, this file the rest); each is a function of one item (a
 * body, a sorted rank, a pair, a block) that reads and writes arrays through a mink_world_view. The kernels in kernels/world.cl call one item per work-item;
 * the scalar world (host/world_scalar.c) calls the same functions in a loop. So both paths compute
 * every value with the same operations, and agree bit for bit.
 *
 * The only thing that differs is the order in which concurrent work-items append to a list
 * (a body's contacts, the step's events). Nothing depends on that order: a body picks its contact by
 * a total order on (t, the other's id, the other's handle), and the host sorts events.
 */
#ifndef MINK_CORE_STEP_H
#define MINK_CORE_STEP_H

/* passes 1-3, and dynamic bodies meeting each other */
#include "core/solve.h"
/* questions to the world between steps, through the same grid */
#include "core/query.h"

/* ---- before a step, now and then: the bodies renumbered by place (host/world_order.c) ----------- */

/// Slot i's place in a new order: the bucket of the grid cell its position is in (g: the last
/// step's grid), and i, the sort's value; a dead slot last (key g.buckets). Buckets are the cells
/// row by row, the order the pair scan walks them: the passes over sorted entries then read the
/// bodies' arrays nearly in sequence, and the other body of a pair is about a row of cells away
/// at most. A Morton order of the cells did no better (docs/benchmarks.md) and sorts a byte more.
MINK_INLINE void mink_order_key_item(mink_world_view w, mink_grid g, uint32_t i) {
    mink_vec2 p = w.pos[i];
    uint32_t x = mink_grid_column(p.x, g.inv_cell), y = mink_grid_column(p.y, g.inv_cell);
    w.keys[i] = w.shape_of[i] == MINK_WORLD_DEAD ? g.buckets : mink_grid_bucket(g, x, y);
    w.order[i] = i;
}

/// Slot k of the new order: the position and velocity of the body sorted there (w.order[k]).
MINK_INLINE void mink_order_gather_item(mink_world_view w, uint32_t k) {
    uint32_t i = w.order[k];
    w.pos_out[k] = w.pos[i];
    w.vel_out[k] = w.vel[i];
}

/* ---- pass 4: each body's list of pairs, sized ------------------------------------------------- */

MINK_INLINE void mink_degree_item(mink_world_view w, uint32_t k) {
    mink_world_pair p = w.pairs[k];
    MINK_ATOMIC_INC(&w.adj_start[p.a]);
    MINK_ATOMIC_INC(&w.adj_start[p.b]);
}

/* ---- pass 5: narrowphase, into the lists ------------------------------------------------------- */

/// Side `slot` of a pair: its sorted grid entry, or for a large body (in no cell) the same values
/// from its arrays.
MINK_INLINE mink_grid_entry mink_narrow_side(mink_world_view w, mink_step_params sp, uint32_t entry, uint32_t slot) {
    return entry != MINK_WORLD_DEAD ? w.entries[entry] : mink_grid_entry_of(w, sp, slot);
}

/// Whether two dynamic bodies are near at the step's start: their shapes' boxes, each grown by its
/// push reach, overlap. Near pairs, and pairs whose planned paths meet, are the ones the impulse
/// rounds look at; the others could only meet after an impulse turned one of them, and then the
/// safety rounds hold them apart until the next step's narrowphase sees them.
MINK_INLINE int mink_bodies_near(MINK_GLOBAL const mink_shape *a, mink_vec2 pa, MINK_GLOBAL const mink_shape *b,
                                 mink_vec2 pb) {
    mink_aabb ba = mink_shape_bounds(a, pa), bb = mink_shape_bounds(b, pb);
    float ga = mink_push_reach(a), gb = mink_push_reach(b);
    ba.min = mink_v2(ba.min.x - ga, ba.min.y - ga);
    ba.max = mink_v2(ba.max.x + ga, ba.max.y + ga);
    bb.min = mink_v2(bb.min.x - gb, bb.min.y - gb);
    bb.max = mink_v2(bb.max.x + gb, bb.max.y + gb);
    return mink_bounds_overlap(ba, bb);
}

/// The exact sweep of pair k over the whole step, both bodies on their planned paths, written to
/// both bodies' lists (b's mirrored) from each list's start. A pair of dynamic bodies that neither
/// meet on those paths nor are near (mink_bodies_near) is not written at all: no pass would read
/// it (they could only meet after an impulse turned one of them, which the safety rounds catch),
/// and in a crowd such pairs are half of them. The list's room past what was written stays unused.
/// The place in each list depends on thread timing; nothing reads the lists in an order that
/// matters (see the file's comment). The bodies are read from the pair's grid entries, which the
/// pair scan left side by side.
MINK_INLINE void mink_narrow_item(mink_world_view w, mink_step_state s, uint32_t k) {
    mink_step_params sp = s.params;
    mink_world_pair p = w.pairs[k], e = w.pair_entries[k];
    mink_grid_entry ea = mink_narrow_side(w, sp, e.a, p.a), eb = mink_narrow_side(w, sp, e.b, p.b);
    mink_contact ca, cb;
    /* Velocities are the step's moves and dt is 1: later sub-steps sweep the same way. */
    ca.hit = mink_sweep_placed_near(w.shapes + ea.shape, ea.pos, ea.move, w.shapes + eb.shape, eb.pos, eb.move, sp.hulls);
    if ((ea.flags & eb.flags & MINK_CONTACT_DYNAMIC) && !(ca.hit.flags & MINK_HIT_CONTACT) &&
        !mink_bodies_near(w.shapes + ea.shape, ea.pos, w.shapes + eb.shape, eb.pos))
        return;
    cb.hit = mink_hit_mirror(ca.hit);
    ca.other = p.b | eb.flags;
    cb.other = p.a | ea.flags;
    uint32_t ia = w.adj_start[p.a] + MINK_ATOMIC_INC(&w.adj_fill[p.a]);
    uint32_t ib = w.adj_start[p.b] + MINK_ATOMIC_INC(&w.adj_fill[p.b]);
    w.contacts[ia] = ca;
    w.contacts[ib] = cb;
    w.twin[ia] = ib;
    w.twin[ib] = ia;
}

/* ---- pass 6: resolution ------------------------------------------------------------------------ */

/// The earliest contact of a body of `shape` at p, moving by `move` over what is left of the step
/// (from tau), with the static and kinematic bodies of its list [first, last): the narrowphase's
/// hits when `cached` (the body is where it started, on its planned path), else fresh sweeps;
/// with `swept_only`, not the bodies it starts inside. Its slot in *best_j, or MINK_WORLD_DEAD
/// when there is none. Dynamic bodies are not here: they met in the impulse rounds and meet again
/// in the safety rounds (core/solve.h); sensors never push.
MINK_INLINE mink_hit mink_earliest_contact_with(mink_world_view w, mink_step_params sp, uint32_t first, uint32_t last,
                                               int cached, int swept_only, MINK_GLOBAL const mink_shape *shape,
                                               mink_vec2 p, mink_vec2 move, float tau, uint32_t *best_j) {
    mink_hit best = mink_hit_none();
    uint64_t best_id = 0;
    float dt = sp.dt, span = 1.0f - tau;
    for (uint32_t e = first; e < last; e++) {
        uint32_t bits = w.contacts[e].other, j = bits & MINK_CONTACT_SLOT;
        if (bits & (MINK_CONTACT_SENSOR | MINK_CONTACT_DYNAMIC)) continue;
        mink_hit h;
        if (cached) {
            h = w.contacts[e].hit;
        } else {
            mink_vec2 vj = w.vel[j], pj = w.pos[j];
            mink_vec2 at = mink_v2(pj.x + vj.x * dt * tau, pj.y + vj.y * dt * tau);
            h = mink_sweep_placed(shape, p, move, w.shapes + w.shape_of[j], at,
                                  mink_v2(vj.x * dt * span, vj.y * dt * span), sp.hulls);
        }
        if ((h.flags & MINK_HIT_CONTACT) && !(swept_only && (h.flags & MINK_HIT_OVERLAP)) &&
            (*best_j == MINK_WORLD_DEAD ||
             mink_hit_before(h, w.ids[j], w.slot_of[j], best, best_id, w.slot_of[*best_j]))) {
            best = h;
            best_id = w.ids[j];
            *best_j = j;
        }
    }
    return best;
}

/* In a kernel, mink_earliest_contact_with is one function, its arguments by address: a step's
 * resolution asks it at three places (the push out of dynamic bodies, a push out of a wall, each
 * contact), and inlined at each it made the resolution's build several times longer. One for
 * each build of the sweeps (kernels/world.cl), with its shapes' literal, as mink_query_meet's. */
#ifdef MINK_OPENCL
#define MINK_EARLIEST_CONTACT_OUTLINED(name, hulls_)                                                                  \
    MINK_OUTLINE mink_hit name(const mink_world_view *w, const mink_step_params *sp, uint32_t first, uint32_t last,   \
                               int cached, int swept_only, MINK_GLOBAL const mink_shape *shape, mink_vec2 p,          \
                               mink_vec2 move, float tau, uint32_t *best_j) {                                          \
        mink_step_params at = *sp;                                                                                     \
        at.hulls = hulls_;                                                                                             \
        return mink_earliest_contact_with(*w, at, first, last, cached, swept_only, shape, p, move, tau, best_j);      \
    }
MINK_EARLIEST_CONTACT_OUTLINED(mink_earliest_contact_boxes, 0u)
MINK_EARLIEST_CONTACT_OUTLINED(mink_earliest_contact_polygons, MINK_HULLS_POLYGONS)
MINK_EARLIEST_CONTACT_OUTLINED(mink_earliest_contact_any, sp->hulls)
#endif
MINK_INLINE mink_hit mink_earliest_contact(mink_world_view w, mink_step_params sp, uint32_t first, uint32_t last,
                                          int cached, int swept_only, MINK_GLOBAL const mink_shape *shape,
                                          mink_vec2 p, mink_vec2 move, float tau, uint32_t *best_j) {
#ifdef MINK_OPENCL
    if (sp.hulls == 0u) return mink_earliest_contact_boxes(&w, &sp, first, last, cached, swept_only, shape, p, move, tau, best_j);
    if (sp.hulls == MINK_HULLS_POLYGONS)
        return mink_earliest_contact_polygons(&w, &sp, first, last, cached, swept_only, shape, p, move, tau, best_j);
    return mink_earliest_contact_any(&w, &sp, first, last, cached, swept_only, shape, p, move, tau, best_j);
#else
    return mink_earliest_contact_with(w, sp, first, last, cached, swept_only, shape, p, move, tau, best_j);
#endif
}

/// Where a body of `shape` at p ends when pushed by `push` at tau: the push swept against the
/// static and kinematic bodies of its list [first, last) where they stand at tau, as far as the
/// first it would enter and out of that one by its skin. The bodies it is inside already do not
/// stop it: the push is what takes it out of them.
MINK_INLINE mink_vec2 mink_pushed(mink_world_view w, mink_step_params sp, uint32_t first, uint32_t last,
                                  MINK_GLOBAL const mink_shape *shape, mink_vec2 p, mink_vec2 push, float tau,
                                  float skin) {
    mink_step_params at = sp;
    at.dt = sp.dt * tau; /* from tau 1 of this: the walls where they are at tau, still over the push */
    uint32_t wall = MINK_WORLD_DEAD;
    mink_hit h = mink_earliest_contact(w, at, first, last, 0, 1, shape, p, push, 1.0f, &wall);
    float k = wall == MINK_WORLD_DEAD ? 1.0f : h.t;
    mink_vec2 out = wall == MINK_WORLD_DEAD ? mink_v2(0.0f, 0.0f) : mink_v2(h.normal.x * skin, h.normal.y * skin);
    return mink_v2((p.x + push.x * k) + out.x, (p.y + push.y * k) + out.y);
}

/// The push out of its overlaps with dynamic bodies that body i (of `shape`, at p) takes: along
/// each penetration vector, its share (its inverse mass over the pair's), summed, no longer than
/// its push reach (the broadphase grew its box by that much). The deepest of those overlaps goes to
/// *deepest_out, for the safety rounds.
MINK_INLINE mink_vec2 mink_overlap_push(mink_world_view w, uint32_t i, MINK_GLOBAL const mink_shape *shape,
                                        float *deepest_out) {
    mink_vec2 push = mink_v2(0.0f, 0.0f);
    float inv = w.props[i].inv_mass, deepest = 0.0f;
    uint32_t first = w.adj_start[i], last = first + w.adj_fill[i];
    /* Summed in the order of the other bodies' public slots, not the list's (which thread timing
     * sets): float sums depend on their order. A body overlaps a few others: the quadratic search is
     * short. */
    for (uint32_t after = 0u, done = 0u; !done;) {
        uint32_t next = MINK_WORLD_DEAD, next_j = 0u, at = 0u;
        for (uint32_t e = first; e < last; e++) {
            uint32_t bits = w.contacts[e].other, j = bits & MINK_CONTACT_SLOT;
            if (!(bits & MINK_CONTACT_DYNAMIC) || !(w.contacts[e].hit.flags & MINK_HIT_OVERLAP)) continue;
            uint32_t slot = w.slot_of[j];
            if (slot + 1u > after && (next == MINK_WORLD_DEAD || slot < next)) {
                next = slot;
                next_j = j;
                at = e;
            }
        }
        done = next == MINK_WORLD_DEAD;
        if (done) break;
        mink_hit h = w.contacts[at].hit;
        deepest = mink_maxf(deepest, h.depth);
        float share = inv / (inv + w.props[next_j].inv_mass);
        push = mink_v2(push.x + h.normal.x * (h.depth * share), push.y + h.normal.y * (h.depth * share));
        after = next + 1u;
    }
    *deepest_out = deepest;
    float len = mink_length(push), most = mink_push_reach(shape);
    if (len > most) push = mink_v2(push.x * (most / len), push.y * (most / len));
    return push;
}

/// Slot i's step. A sensor, a static or a kinematic body moves by its velocity and nothing else (a
/// sensor reports each body it passes through). A dynamic body: first pushed out of its overlaps
/// with dynamic bodies (mink_overlap_push), swept against the walls; then, if the impulse rounds
/// gave it an impulse, on its planned path to the first one and on with its new velocity; then, up
/// to `iterations` contacts in all, it takes its earliest contact with a static or kinematic body,
/// advances to it and out by its skin, or, already overlapping, is pushed out along the
/// penetration vector; STOP stops, SLIDE removes the closing normal velocity, BOUNCE reflects it ×
/// restitution. When no iteration is left it stays at its last contact. Its path within the step
/// is never longer than speed × dt (the broadphase's reach), its pushes (swept, mink_pushed) never
/// longer than its push reach all together, and a position that would leave the finite floats
/// stays where it was, at rest. Where its path turned (a push or an impulse) and
/// where it first met a wall go to place[i] for the safety rounds.
MINK_INLINE void mink_resolve_item(mink_world_view w, mink_step_state s, uint32_t i) {
    mink_step_params sp = s.params;
    mink_vec2 p0 = w.pos[i], v0 = w.vel[i];
    mink_vec2 p = p0, v = v0;
    uint32_t sid = w.shape_of[i];
    if (sid == MINK_WORLD_DEAD) {
        w.pos_out[i] = p0;
        w.vel_out[i] = v0;
        return;
    }
    mink_body_props pr = w.props[i];
    float dt = sp.dt;
    mink_vec2 move = mink_v2(v.x * dt, v.y * dt), kink = p0, mid = p0;
    uint32_t first = w.adj_start[i], last = first + w.adj_fill[i]; /* the near part of its list */
    int walled = 0; /* met a wall */
    float deepest = 0.0f;       /* its deepest overlap with a dynamic body (mink_overlap_push) */
    /* A moving body in no pair takes its whole move, as the loop below would: most bullets, most
     * steps, without copying its shape (a polygon's size) twice to find that out. */
    if (!mink_is_dynamic(pr) || first == last) {
        if (mink_is_sensor(pr))
            for (uint32_t e = first; e < last; e++) {
                mink_contact c = w.contacts[e];
                if (c.hit.flags & MINK_HIT_CONTACT)
                    mink_emit_event(w, i, c.other & MINK_CONTACT_SLOT, c.hit, 0.0f, 1.0f, MINK_EVENT_SENSOR, 0u);
            }
        p = mink_v2(p.x + move.x, p.y + move.y);
    } else {
        MINK_GLOBAL const mink_shape *shape = w.shapes + sid;
        float budget = mink_length(move), travelled = 0.0f, tau = 0.0f;
        float skin = sp.skin > 0.0f ? sp.skin : mink_body_skin(mink_shape_bounds(shape, p0), budget);
        int cached = 1; /* where it started, on its planned path: the narrowphase's hits hold */
        uint32_t it = 0u;
        mink_vec2 push = mink_overlap_push(w, i, shape, &deepest);
        /* The pushes of a step, out of dynamic bodies and out of walls, stay within its push reach
         * all together: the broadphase grew its box by that much, so its list holds every wall a
         * push could meet. */
        float reach = mink_push_reach(shape);
        if (push.x != 0.0f || push.y != 0.0f) { /* swept against the walls as they stand at the start */
            p = mink_pushed(w, sp, first, last, shape, p, push, 0.0f, skin);
            reach = mink_maxf(reach - mink_length(push), 0.0f);
            cached = 0;
            kink = p;
        }
        MINK_GLOBAL const mink_solve_body *me = w.solve + i;
        if (w.flags[i] & MINK_SOLVE_FIRED) {
            if (cached) { /* its first impulse came before any wall: on its planned path to it */
                float t = me->first_t;
                mink_vec2 n = me->first_n;
                p = mink_v2((p.x + move.x * t) + n.x * skin, (p.y + move.y * t) + n.y * skin);
                travelled = budget * t;
                tau = t;
                kink = p;
                it = 1u;
            }
            v = w.motion[i].vel;
            cached = 0;
            move = mink_v2(v.x * dt * (1.0f - tau), v.y * dt * (1.0f - tau));
            float len = mink_length(move), left = mink_maxf(budget - travelled, 0.0f);
            if (len > left) { /* never farther than the broadphase looked */
                float k = left / len;
                move = mink_v2(move.x * k, move.y * k);
            }
        }
        for (; it < sp.iterations; it++) {
            uint32_t best_j = MINK_WORLD_DEAD;
            float span = 1.0f - tau;
            mink_hit best = mink_earliest_contact(w, sp, first, last, cached, 0, shape, p, move, tau, &best_j);
            cached = 0;
            if (best_j == MINK_WORLD_DEAD) { /* free: the rest of the move */
                p = mink_v2(p.x + move.x, p.y + move.y);
                break;
            }
            mink_emit_event(w, i, best_j, best, tau, span, 0u, it);
            mink_vec2 n = best.normal;
            if (best.flags & MINK_HIT_OVERLAP) { /* out along the penetration vector, swept, within the reach */
                float out = mink_minf(best.depth + skin, reach);
                reach -= out;
                p = mink_pushed(w, sp, first, last, shape, p, mink_v2(n.x * out, n.y * out), tau, skin);
            } else {
                p = mink_v2((p.x + move.x * best.t) + n.x * skin, (p.y + move.y * best.t) + n.y * skin);
                travelled += mink_length(move) * best.t;
                tau = tau + span * best.t;
            }
            if (!walled) {
                walled = 1;
                mid = p;
            }
            if (pr.response == (uint32_t)MINK_RESPONSE_STOP) {
                v = mink_v2(0.0f, 0.0f);
                break;
            }
            mink_vec2 vj = w.vel[best_j];
            float vn = (v.x - vj.x) * n.x + (v.y - vj.y) * n.y;
            if (vn < 0.0f) {
                float e = pr.response == (uint32_t)MINK_RESPONSE_BOUNCE ? pr.restitution : 0.0f;
                float dv = vn * (1.0f + e);
                v = mink_v2(v.x - n.x * dv, v.y - n.y * dv);
            }
            if (it + 1u == sp.iterations) break; /* out of iterations: stay at the contact */
            span = 1.0f - tau;
            move = mink_v2(v.x * dt * span, v.y * dt * span);
            float len = mink_length(move), left = mink_maxf(budget - travelled, 0.0f);
            if (len > left) { /* never farther than the broadphase looked */
                float k = left / len;
                move = mink_v2(move.x * k, move.y * k);
            }
        }
    }
    if (!walled) mid = p;
    if (!mink__vec2_is_valid(p) || !mink__vec2_is_valid(v)) {
        p = kink = mid = p0;
        v = mink_v2(0.0f, 0.0f);
    }
    w.pos_out[i] = p;
    w.vel_out[i] = v;
    w.place[i].kink = kink;
    w.place[i].mid = mid;
    w.place[i].keep[0] = w.place[i].keep[1] = 0x3f800000u; /* 1.0f */
    w.place[i].deepest = deepest;
    w.place[i].pad = 0u;
}

#endif /* MINK_CORE_STEP_H */
