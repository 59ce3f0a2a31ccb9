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

/* passes 1-3, over core/world.h */
#include "core/broadphase.h"

/* ---- pass 4: each body's list of pairs, sized ------------------------------------------------- */

MINK_INLINE void mink_degree_item(mink_world_view w, uint32_t k) {
    mink_world_pair p = w.pairs[k];
    MINK_ATOMIC_INC(&w.adj_start[p.a]);
    MINK_ATOMIC_INC(&w.adj_start[p.b]);
}

/* ---- pass 5: narrowphase, into the lists ------------------------------------------------------- */

/// Side `slot` of a pair: its sorted grid entry, or for a large body (in no cell) the same values
/// from its arrays.
MINK_INLINE mink_grid_entry mink_narrow_side(mink_world_view w, uint32_t entry, uint32_t slot) {
    return entry != MINK_WORLD_DEAD ? w.entries[entry] : mink_grid_entry_of(w, slot);
}

/// The exact sweep of pair k over the whole step, both bodies on their planned paths, written to
/// both bodies' lists (b's mirrored). The place in each list depends on thread timing; nothing
/// reads the lists in an order that matters (see the file's comment). The bodies are read from
/// the pair's grid entries, which the pair scan left side by side.
MINK_INLINE void mink_narrow_item(mink_world_view w, mink_step_params sp, uint32_t k) {
    mink_world_pair p = w.pairs[k], e = w.pair_entries[k];
    mink_grid_entry ea = mink_narrow_side(w, e.a, p.a), eb = mink_narrow_side(w, e.b, p.b);
    mink_contact ca, cb;
    /* Velocities are the step's moves and dt is 1: later sub-steps sweep the same way. */
    ca.hit = mink_sweep_placed(w.shapes + ea.shape, ea.pos, mink_v2(ea.vel.x * sp.dt, ea.vel.y * sp.dt),
                               w.shapes + eb.shape, eb.pos, mink_v2(eb.vel.x * sp.dt, eb.vel.y * sp.dt),
                               sp.polygons);
    cb.hit = mink_hit_mirror(ca.hit);
    ca.other = p.b | eb.flags;
    cb.other = p.a | ea.flags;
    uint32_t ia = MINK_ATOMIC_INC(&w.adj_fill[p.a]);
    uint32_t ib = MINK_ATOMIC_INC(&w.adj_fill[p.b]);
    w.contacts[w.adj_start[p.a] + ia] = ca;
    w.contacts[w.adj_start[p.b] + ib] = cb;
}

/* ---- pass 6: resolution ------------------------------------------------------------------------ */

MINK_INLINE void mink_emit_event(mink_world_view w, uint32_t i, uint32_t j, mink_hit h, float t0, float span,
                                 uint32_t flags, uint32_t iteration) {
    mink_event e;
    e.a = w.ids[i];
    e.b = w.ids[j];
    e.body_a = i;
    e.body_b = j;
    /* From the sub-step's fraction to the step's; never 1 by rounding. */
    e.t = mink_minf(t0 + h.t * span, 0.99999994f);
    e.t_exit = h.t_exit == MINK_INF ? MINK_INF : t0 + h.t_exit * span;
    e.normal = h.normal;
    e.point = h.point;
    e.depth = h.depth;
    e.flags = h.flags | flags;
    e.iteration = iteration;
    e.reserved = 0u;
    uint32_t at = MINK_ATOMIC_INC(w.event_count);
    if (at < w.event_capacity) w.events[at] = e;
}

/// Whether hit h with body j comes before the best so far: earlier, then the smaller user id, then
/// the smaller handle. A total order, so the pick does not depend on the list's order.
MINK_INLINE int mink_hit_before(mink_hit h, uint64_t id, uint32_t j, mink_hit best, uint64_t best_id,
                                uint32_t best_j) {
    if (h.t != best.t) return h.t < best.t;
    if (id != best_id) return id < best_id;
    return j < best_j;
}

/// The earliest contact of a body of `shape` at p, moving by `move` over what is left of the step
/// (from tau), among its pairs' list [first, last) at iteration `it` (see mink_resolve_item); its
/// slot in *best_j, or MINK_WORLD_DEAD when there is none.
MINK_INLINE mink_hit mink_earliest_contact(mink_world_view w, mink_step_params sp, uint32_t first, uint32_t last,
                                          uint32_t it, MINK_GLOBAL const mink_shape *shape, mink_vec2 p,
                                          mink_vec2 move, float tau, uint32_t *best_j) {
    mink_hit best = mink_hit_none();
    uint64_t best_id = 0;
    float dt = sp.dt, span = 1.0f - tau;
    for (uint32_t e = first; e < last; e++) {
        uint32_t bits = w.contacts[e].other, j = bits & MINK_CONTACT_SLOT;
        /* Sensors never push. After the first contact, only what no contact deflects (static and
         * kinematic bodies): a dynamic one's path is being decided at the same time, so its
         * planned path would be a guess. Overlaps this leaves are pushed apart next step. */
        if ((bits & MINK_CONTACT_SENSOR) || (it > 0u && (bits & MINK_CONTACT_DYNAMIC))) continue;
        mink_hit h;
        if (it == 0u) {
            h = w.contacts[e].hit;
        } else {
            mink_vec2 vj = w.vel[j], pj = w.pos[j];
            mink_vec2 at = mink_v2(pj.x + vj.x * dt * tau, pj.y + vj.y * dt * tau);
            h = mink_sweep_placed(shape, p, move, w.shapes + w.shape_of[j], at,
                                  mink_v2(vj.x * dt * span, vj.y * dt * span), sp.polygons);
        }
        if ((h.flags & MINK_HIT_CONTACT) &&
            (*best_j == MINK_WORLD_DEAD || mink_hit_before(h, w.ids[j], j, best, best_id, *best_j))) {
            best = h;
            best_id = w.ids[j];
            *best_j = j;
        }
    }
    return best;
}

/// Slot i's step. A sensor, a static or a kinematic body moves by its velocity and nothing else (a
/// sensor reports each body it passes through). A dynamic body, up to `iterations` times: takes its
/// earliest contact among its pairs (first the narrowphase's hits, every body on its planned path;
/// then fresh sweeps of what is left of its move against the static and kinematic ones, which no
/// contact deflects), advances to it and out by its skin, or,
/// already overlapping, is pushed out along the penetration vector by its share (its inverse mass
/// over the pair's); then STOP stops, SLIDE removes the closing normal velocity, BOUNCE reflects it
/// × restitution, the correction split by inverse mass. When no iteration is left it stays at its
/// last contact. Its path within the step is never longer than speed × dt (the broadphase's reach),
/// and a position that would leave the finite floats stays where it was, at rest.
MINK_INLINE void mink_resolve_item(mink_world_view w, mink_step_params sp, uint32_t i) {
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
    mink_vec2 move = mink_v2(v.x * dt, v.y * dt);
    uint32_t first = w.adj_start[i], last = w.adj_start[i + 1u];
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
        for (uint32_t it = 0; it < sp.iterations; it++) {
            uint32_t best_j = MINK_WORLD_DEAD;
            float span = 1.0f - tau;
            mink_hit best = mink_earliest_contact(w, sp, first, last, it, shape, p, move, tau, &best_j);
            if (best_j == MINK_WORLD_DEAD) { /* free: the rest of the move */
                p = mink_v2(p.x + move.x, p.y + move.y);
                break;
            }
            mink_emit_event(w, i, best_j, best, tau, span, 0u, it);
            mink_body_props pb = w.props[best_j];
            float inv_j = mink_is_dynamic(pb) ? pb.inv_mass : 0.0f;
            float share = pr.inv_mass / (pr.inv_mass + inv_j);
            mink_vec2 n = best.normal;
            if (best.flags & MINK_HIT_OVERLAP) {
                float push = best.depth * share + skin;
                p = mink_v2(p.x + n.x * push, p.y + n.y * push);
            } else {
                p = mink_v2((p.x + move.x * best.t) + n.x * skin, (p.y + move.y * best.t) + n.y * skin);
                travelled += mink_length(move) * best.t;
                tau = tau + span * best.t;
            }
            if (pr.response == (uint32_t)MINK_RESPONSE_STOP) {
                v = mink_v2(0.0f, 0.0f);
                break;
            }
            mink_vec2 vj = w.vel[best_j];
            float vn = (v.x - vj.x) * n.x + (v.y - vj.y) * n.y;
            if (vn < 0.0f) {
                float e = pr.response == (uint32_t)MINK_RESPONSE_BOUNCE ? pr.restitution : 0.0f;
                float dv = vn * (1.0f + e) * share;
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
    if (!mink__vec2_is_valid(p) || !mink__vec2_is_valid(v)) {
        p = p0;
        v = mink_v2(0.0f, 0.0f);
    }
    w.pos_out[i] = p;
    w.vel_out[i] = v;
}

#endif /* MINK_CORE_STEP_H */
