/* core/solve.h — dynamic bodies meeting each other: the impulse rounds and the safety rounds of a
 * world step (docs/world.md, "Resolution", says why it is built this way).
 *
 * Valid C99 and OpenCL C, under the rules of core/geom.h. Passes, in step order:
 *   impulse rounds (mink_pick_item, then mink_fire_item, per body, a few times): each dynamic body
 *     picks its earliest approaching contact with another dynamic body, each body on its planned
 *     path until its first impulse and on its velocity now after; two bodies that picked
 *     each other exchange one impulse, computed once, equal and opposite. So momentum is kept, and
 *     since the impulse never leaves a pair closing or parting faster than it closed, energy never
 *     grows. Bodies of one round's impulses share no body: the result depends on no order.
 *   resolution (core/step.h): each body's path against static and kinematic bodies, from its new
 *     velocity, as before.
 *   safety rounds (mink_final_bounds_item and a second broadphase, then mink_safety_item per pair
 *     and mink_place_item per body, a few times): the bodies' moves swept against each other; two
 *     that would cross or overlap too deeply are both held back to before the contact. Holding
 *     back never changes a velocity, and only shortens a path up to its first wall, which was
 *     swept against the walls already: nothing is moved through anything.
 */
#ifndef MINK_CORE_SOLVE_H
#define MINK_CORE_SOLVE_H

/* passes 1-3, over core/world.h */
#include "core/broadphase.h"

/// Event `at` of the step (when there is room: the host grows the room and runs the passes again
/// until every event fits): body i met j, h as i sees it over the sub-step [t0, t0 + span].
MINK_INLINE void mink_put_event(mink_world_view w, uint32_t at, uint32_t i, uint32_t j, mink_hit h, float t0,
                                float span, uint32_t flags, uint32_t iteration) {
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
    if (at < w.event_capacity) w.events[at] = e;
}

/// The next event of the step (mink_put_event).
MINK_INLINE void mink_emit_event(mink_world_view w, uint32_t i, uint32_t j, mink_hit h, float t0, float span,
                                 uint32_t flags, uint32_t iteration) {
    mink_put_event(w, MINK_ATOMIC_INC(w.event_count), i, j, h, t0, span, flags, iteration);
}

/// Whether hit h with body j comes before the best so far: earlier, then the smaller user id, then
/// the smaller handle (j and best_j: public slots, w.slot_of). A total order, so the pick does not
/// depend on the list's order.
MINK_INLINE int mink_hit_before(mink_hit h, uint64_t id, uint32_t j, mink_hit best, uint64_t best_id,
                                uint32_t best_j) {
    if (h.t != best.t) return h.t < best.t;
    if (id != best_id) return id < best_id;
    return j < best_j;
}

/// A pair's rank among contacts at the same time: a hash of both user ids, the same from either
/// side. Ties are common (a pressed crowd's contacts are all at t = 0); broken by one body's id,
/// the picks would form chains and a round would settle one pair a chain; broken by a hash, about
/// a third of the bodies pair off every round.
MINK_INLINE uint32_t mink_pair_rank(uint64_t a, uint64_t b) {
    uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
    uint32_t x = (uint32_t)lo ^ (uint32_t)(lo >> 32) * 0x9e3779b9u;
    x = (x ^ (uint32_t)hi * 0x85ebca6bu ^ (uint32_t)(hi >> 32)) * 0xc2b2ae35u;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    return x;
}

/// The restitution a body brings to a contact: its own when it bounces, else 0. A pair of dynamic
/// bodies takes the smaller of its two (STOP, like SLIDE, brings 0: a body cannot stop alone
/// without breaking momentum).
MINK_INLINE float mink_restitution_of(mink_body_props p) {
    return p.response == (uint32_t)MINK_RESPONSE_BOUNCE ? p.restitution : 0.0f;
}

/// Where body x is at time tau of the step, when it moved with its planned velocity until `kink`
/// and with velocity v after.
MINK_INLINE mink_vec2 mink_kinked_at(mink_world_view w, mink_step_params sp, uint32_t x, mink_vec2 v, float kink,
                                     float tau) {
    mink_vec2 p = w.pos[x], v0 = w.vel[x];
    float before = sp.dt * kink, after = sp.dt * (tau - kink);
    return mink_v2((p.x + v0.x * before) + v.x * after, (p.y + v0.y * before) + v.y * after);
}

/// Bodies i and j, each on its planned path until its first impulse (ki, kj; 0 for a body that
/// took none: its velocity is the planned one) and on its velocity now (vi, vj) after, swept from
/// the later of the two to the step's end, as i sees it; t as a fraction of the step. Always the
/// smaller public slot first, so both bodies of a pair get the same bits.
MINK_INLINE mink_hit mink_pair_sweep(mink_world_view w, mink_step_params sp, uint32_t i, mink_vec2 vi, float ki,
                                     uint32_t j, mink_vec2 vj, float kj) {
    int i_first = mink_public_before(w, i, j);
    uint32_t a = i_first ? i : j, b = i_first ? j : i;
    mink_vec2 va = i_first ? vi : vj, vb = i_first ? vj : vi;
    float ka = i_first ? ki : kj, kb = i_first ? kj : ki;
    float tau = mink_maxf(ka, kb), span = sp.dt * (1.0f - tau);
    mink_hit h = mink_sweep_placed_near(w.shapes + w.shape_of[a], mink_kinked_at(w, sp, a, va, ka, tau),
                                        mink_v2(va.x * span, va.y * span), w.shapes + w.shape_of[b],
                                        mink_kinked_at(w, sp, b, vb, kb, tau), mink_v2(vb.x * span, vb.y * span),
                                        sp.hulls);
    h.t = tau + h.t * (1.0f - tau);
    if (h.t_exit != MINK_INF) h.t_exit = tau + h.t_exit * (1.0f - tau);
    return i == a ? h : mink_hit_mirror(h);
}

/// The earliest contact of body i with a static or kinematic body of its list: the narrowphase's
/// while it took no impulse, else swept from its first impulse (`kink`) on its velocity vi now. 2
/// when none.
MINK_INLINE float mink_first_static(mink_world_view w, mink_step_params sp, uint32_t i, mink_vec2 vi, int changed,
                                    float kink) {
    float first = 2.0f, span = sp.dt * (1.0f - kink);
    mink_vec2 at = changed ? mink_kinked_at(w, sp, i, vi, kink, kink) : w.pos[i];
    for (uint32_t e = w.adj_start[i]; e < w.adj_start[i] + w.adj_fill[i]; e++) {
        uint32_t bits = w.contacts[e].other, j = bits & MINK_CONTACT_SLOT;
        if (bits & (MINK_CONTACT_SENSOR | MINK_CONTACT_DYNAMIC)) continue;
        mink_hit h = w.contacts[e].hit;
        if (changed) {
            mink_vec2 vj = w.vel[j], pj = w.pos[j];
            h = mink_sweep_placed(w.shapes + w.shape_of[i], at, mink_v2(vi.x * span, vi.y * span),
                                  w.shapes + w.shape_of[j], mink_v2(pj.x + vj.x * sp.dt * kink, pj.y + vj.y * sp.dt * kink),
                                  mink_v2(vj.x * span, vj.y * span), sp.hulls);
            h.t = kink + h.t * (1.0f - kink);
        }
        if (h.flags & MINK_HIT_CONTACT) first = mink_minf(first, h.t);
    }
    return first;
}

/// Impulse round `round` (> 0), listed body k, before the pick: when its velocity changed in the
/// round before, each contact of its list with a dynamic body swept again
/// (mink_pair_sweep: from the later of the two bodies' first impulses, on their velocities now)
/// into both ends' w.swept. A pair whose bodies both changed is swept by the smaller public slot's
/// item: once, where each end's pick would sweep it. The bits are those of a sweep from the smaller
/// public slot, as every sweep of a pair is.
MINK_INLINE void mink_resweep_item(mink_world_view w, mink_step_state s, uint32_t k) {
    uint32_t i = w.active[k];
    mink_solve_motion mi = w.motion[i];
    if (mi.moved != s.round) return;
    for (uint32_t e = w.adj_start[i]; e < w.adj_start[i] + w.adj_fill[i]; e++) {
        uint32_t bits = w.contacts[e].other, j = bits & MINK_CONTACT_SLOT;
        if (!(bits & MINK_CONTACT_DYNAMIC)) continue;
        mink_solve_motion mj = w.motion[j];
        int i_first = mink_public_before(w, i, j);
        if (!i_first && mj.moved == s.round) continue;
        mink_solve_motion ma = i_first ? mi : mj, mb = i_first ? mj : mi;
        uint32_t a = i_first ? i : j, b = i_first ? j : i, twin = w.twin[e];
        mink_hit h = mink_pair_sweep(w, s.params, a, ma.vel, ma.kink, b, mb.vel, mb.kink); /* as a sees it */
        w.swept[i == a ? e : twin] = h;
        w.swept[i == a ? twin : e] = mink_hit_mirror(h);
    }
}

/// Impulse round `round`, item k's pick: the earliest contact, among the dynamic bodies of
/// its body's list, that closes (by more than its skin over what is left of the step) and
/// comes no later than its first static contact (after that its path is the wall's business); at
/// the same time, the higher mink_pair_rank. Round 0 runs over every slot, sets up its state and
/// lists the bodies that have a dynamic body in their list (the only ones a round can
/// change) in w.active, in any order: later rounds and the fire pass run over that list, and
/// pick again only bodies that changed or whose pairs did (a pick that could not be taken stays
/// as it was: nothing it depends on moved). A contact of a body that changed is read from
/// w.swept, where mink_resweep_item put it; the first static contact is swept again only in the
/// round after the body changed, and kept in me->walls: the same bits as sweeping every time, for
/// a fraction of the work.
MINK_INLINE void mink_pick_item(mink_world_view w, mink_step_state s, uint32_t k) {
    uint32_t i = s.round == 0u ? k : w.active[k];
    MINK_GLOBAL mink_solve_body *me = w.solve + i;
    if (k == 0u) w.counters[0] = 0u; /* whether the round fired, set by the next pass */
    /* Round 0 sets up the listed bodies' state in this pass: it reads none of the others'. */
    if (s.round == 0u) {
        /* Every slot's flags; a solve entry only for a body with a dynamic body in its
         * list (most bodies have none: nothing to pick, and their entries are never read). */
        w.flags[i] = 0u;
        if (w.shape_of[i] == MINK_WORLD_DEAD || !mink_is_dynamic(w.props[i])) return;
        uint32_t e = w.adj_start[i], end = e + w.adj_fill[i];
        while (e < end && !(w.contacts[e].other & MINK_CONTACT_DYNAMIC)) e++;
        if (e == end) return;
        me->dirty = me->fired = me->pad = 0u;
        me->first_t = 1.0f;
        me->first_n = mink_v2(0.0f, 0.0f);
        mink_solve_motion m;
        m.vel = w.vel[i];
        m.kink = 0.0f;
        m.moved = 0u;
        w.motion[i] = m;
        w.active[MINK_ATOMIC_INC(&w.counters[3])] = i;
    } else if (me->dirty != s.round) {
        return;
    }
    me->pick = MINK_WORLD_DEAD;
    mink_vec2 vi = s.round == 0u ? w.vel[i] : w.motion[i].vel;
    uint32_t changed = me->fired, moved = s.round > 0u && w.motion[i].moved == s.round;
    uint32_t best_j = MINK_WORLD_DEAD;
    float kink = changed ? me->first_t : 0.0f;
    float walls = me->walls;
    if (s.round == 0u || moved) me->walls = walls = mink_first_static(w, s.params, i, vi, (int)changed, kink);
    /* A closing speed that would not cross its skin in what is left of the step needs no impulse:
     * without this floor, a pressed crowd's impulses shrink geometrically and never end. */
    mink_vec2 v0 = w.vel[i];
    float skin = s.params.skin > 0.0f ? s.params.skin
                                      : mink_body_skin(mink_shape_bounds(w.shapes + w.shape_of[i], w.pos[i]),
                                                       mink_length(mink_v2(v0.x * s.params.dt, v0.y * s.params.dt)));
    mink_hit best = mink_hit_none();
    uint64_t best_id = 0, id = w.ids[i];
    uint32_t best_rank = 0u;
    for (uint32_t e = w.adj_start[i]; e < w.adj_start[i] + w.adj_fill[i]; e++) {
        uint32_t bits = w.contacts[e].other, j = bits & MINK_CONTACT_SLOT;
        if (!(bits & MINK_CONTACT_DYNAMIC)) continue;
        /* After round 0, j's motion in one read: its velocity, and whether it took an impulse (it
         * moved in a round: then this contact is read from w.swept). Round 0 writes the motions. */
        mink_vec2 vj = w.vel[j];
        uint32_t other = 0u;
        if (s.round > 0u) {
            mink_solve_motion mj = w.motion[j];
            vj = mj.vel;
            other = mj.moved != 0u;
        }
        mink_hit h = changed | other ? w.swept[e] : w.contacts[e].hit;
        if (!(h.flags & MINK_HIT_CONTACT) || h.t > walls) continue;
        float vn = (vi.x - vj.x) * h.normal.x + (vi.y - vj.y) * h.normal.y;
        if (!(vn * s.params.dt * (1.0f - h.t) < -skin)) continue; /* parting, sliding past, or hardly closing */
        uint64_t jd = w.ids[j];
        uint32_t rank = mink_pair_rank(id, jd);
        /* Earliest first; at the same time the higher rank, then the smaller id and handle (the
         * public slots read only for such a tie). */
        int before = best_j == MINK_WORLD_DEAD || h.t < best.t ||
                     (h.t == best.t && (rank != best_rank ? rank > best_rank
                                                          : mink_hit_before(h, jd, w.slot_of[j], best, best_id,
                                                                            w.slot_of[best_j])));
        if (before) {
            best = h;
            best_id = jd;
            best_rank = rank;
            best_j = j;
        }
    }
    me->pick = best_j;
    me->hit = best;
}

/// Impulse round `round`, listed body k: when it and the body it picked picked each other, the
/// pair's impulse: the relative normal velocity vn becomes -e vn, e the pair's restitution, each
/// body's change scaled by its inverse mass. The smaller public slot's item changes both velocities in
/// place (a round's pairs share no body, so no other item reads them in this pass) and writes
/// both bodies' events.
MINK_INLINE void mink_fire_item(mink_world_view w, mink_step_state s, uint32_t k) {
    uint32_t i = w.active[k];
    MINK_GLOBAL mink_solve_body *me = w.solve + i;
    uint32_t j = me->pick;
    if (j == MINK_WORLD_DEAD || w.solve[j].pick != i) return;
    if (mink_public_before(w, i, j)) {
        mink_vec2 n = me->hit.normal, va = w.motion[i].vel, vb = w.motion[j].vel;
        mink_body_props pa = w.props[i], pb = w.props[j];
        float vn = (va.x - vb.x) * n.x + (va.y - vb.y) * n.y;
        float e = mink_minf(mink_restitution_of(pa), mink_restitution_of(pb));
        float impulse = -((1.0f + e) * vn) / (pa.inv_mass + pb.inv_mass);
        float ka = impulse * pa.inv_mass, kb = impulse * pb.inv_mass;
        w.motion[i].vel = mink_v2(va.x + n.x * ka, va.y + n.y * ka);
        w.motion[j].vel = mink_v2(vb.x - n.x * kb, vb.y - n.y * kb);
        /* Both bodies' events, for one atomic (on a CPU device each is a trip between cores; no
         * item of this pass writes a pick's hit). */
        uint32_t at = MINK_ATOMIC_ADD(w.event_count, 2u);
        mink_put_event(w, at, i, j, me->hit, 0.0f, 1.0f, 0u, s.round);
        mink_put_event(w, at + 1u, j, i, w.solve[j].hit, 0.0f, 1.0f, 0u, s.round);
    }
    if (!me->fired) {
        me->fired = 1u;
        me->first_t = me->hit.t;
        me->first_n = me->hit.normal;
        w.motion[i].kink = me->hit.t;
        w.flags[i] = MINK_SOLVE_FIRED;
    }
    w.motion[i].moved = s.round + 1u;
    /* It and every dynamic body of its list pick again next round. Every item of this pass stores
     * the same value, above any already there, and none reads it: plain stores, no atomics. */
    MINK_STORE(&me->dirty, s.round + 1u);
    for (uint32_t c = w.adj_start[i]; c < w.adj_start[i] + w.adj_fill[i]; c++) {
        uint32_t bits = w.contacts[c].other;
        if (bits & MINK_CONTACT_DYNAMIC) MINK_STORE(&w.solve[bits & MINK_CONTACT_SLOT].dirty, s.round + 1u);
    }
    if (MINK_LOAD(&w.counters[0]) == 0u) MINK_STORE(&w.counters[0], 1u); /* one fired: every item stores the same */
}

/// Where body i ends when the safety rounds keep `keep` of its path: all of it (1) where the
/// resolution put it, else that share of its path up to its first wall (start, kink, mid), by
/// length. That piece was swept against the walls: a body held back stays clear of them.
MINK_INLINE mink_vec2 mink_place_at(mink_world_view w, uint32_t i, float keep) {
    if (keep >= 1.0f) return w.pos_out[i];
    mink_vec2 p = w.pos[i], k = w.place[i].kink, m = w.place[i].mid;
    float first = mink_length(mink_v2(k.x - p.x, k.y - p.y)), second = mink_length(mink_v2(m.x - k.x, m.y - k.y));
    float d = keep * (first + second);
    if (d <= first) {
        float f = first > 0.0f ? d / first : 0.0f;
        return mink_v2(p.x + (k.x - p.x) * f, p.y + (k.y - p.y) * f);
    }
    float f = mink_minf((d - first) / second, 1.0f); /* second > 0 here */
    return mink_v2(k.x + (m.x - k.x) * f, k.y + (m.y - k.y) * f);
}

/// Whether box b lies within box g, as compared: a NaN in either says no.
MINK_INLINE int mink_aabb_within(mink_aabb b, mink_aabb g) {
    return (b.min.x >= g.min.x) & (b.min.y >= g.min.y) & (b.max.x <= g.max.x) & (b.max.y <= g.max.y);
}

/// Slot i's box for the safety rounds' own broadphase: a dynamic body's shape where it started,
/// where the resolution put it, where its path turned and where it met its first wall (wherever
/// the safety rounds may place it lies within), grown by twice its skin. Other bodies get none (an
/// invalid box): walls were the resolution's. Nor does a body of a dynamic crowd whose box here
/// lies within its box of the step's grid (its record's, read before it is replaced) where no
/// dynamic body outside the crowd met that box (w.near_crowd, mink_crowd_mark): it meets none of
/// the crowd, and no other body met its grid box, so it has no pair here (in the bullet hell,
/// about 85 % of the bullets). That holds only while each body outside the crowd also stays within
/// the grid box it marked from, and marked at all: one that does not (a box that overflowed, a
/// skin wider than its grid box allows) sets counters[6], and the host runs this pass again with
/// every body marked. The record's near is infinite: no cull.
MINK_INLINE void mink_final_bounds_item(mink_world_view w, mink_step_state st, uint32_t i) {
    mink_step_params sp = st.params;
    uint32_t sid = w.shape_of[i];
    mink_aabb b;
    b.min = b.max = mink_v2(MINK_INF, MINK_INF);
    mink_body_props props = w.props[i];
    if (sid == MINK_WORLD_DEAD || !mink_is_dynamic(props)) {
        w.bounds[i] = b;
        return;
    }
    MINK_GLOBAL const mink_shape *s = w.shapes + sid;
    mink_aabb b0 = mink_shape_bounds(s, w.pos[i]), b1 = mink_shape_bounds(s, w.pos_out[i]);
    mink_aabb b2 = mink_shape_bounds(s, w.place[i].mid), b3 = mink_shape_bounds(s, w.place[i].kink);
    b2.min = mink_v2(mink_minf(b2.min.x, b3.min.x), mink_minf(b2.min.y, b3.min.y));
    b2.max = mink_v2(mink_maxf(b2.max.x, b3.max.x), mink_maxf(b2.max.y, b3.max.y));
    mink_vec2 v = w.vel[i];
    float skin = sp.skin > 0.0f ? sp.skin : mink_body_skin(b0, mink_length(mink_v2(v.x * sp.dt, v.y * sp.dt)));
    float grow = 2.0f * skin;
    b.min = mink_v2(mink_minf(mink_minf(b0.min.x, b1.min.x), b2.min.x) - grow,
                    mink_minf(mink_minf(b0.min.y, b1.min.y), b2.min.y) - grow);
    b.max = mink_v2(mink_maxf(mink_maxf(b0.max.x, b1.max.x), b2.max.x) + grow,
                    mink_maxf(mink_maxf(b0.max.y, b1.max.y), b2.max.y) + grow);
    mink_grid_entry step = w.records[i];
    if (mink_grid_meets_crowd(st.grid, step)) {
        mink_aabb g = mink_grid_box(st.grid, step);
        /* A step record's near is finite: infinite (it overflowed), the body marked nothing. */
        if (!((step.near < MINK_INF) & mink__aabb_is_valid(g) & mink_aabb_within(b, g)) && MINK_LOAD(&w.counters[6]) == 0u)
            MINK_ATOMIC_MAX(&w.counters[6], 1u);
    } else if (w.near_crowd[i] == 0u && mink_grid_in_crowd(st.grid, props)) {
        mink_aabb g = mink_grid_box(st.grid, step);
        if (mink__aabb_is_valid(step.box) & mink__aabb_is_valid(g) & mink_aabb_within(b, g)) {
            w.bounds[i].min = w.bounds[i].max = mink_v2(MINK_INF, MINK_INF);
            return;
        }
    }
    w.bounds[i] = b;
    w.records[i] = mink_grid_record(w, sp, i, b); /* near infinite: no cull */
}

/// How much two bodies may end a step overlapping: 1/32 of the smaller one's push reach (1/128 of
/// its smaller side). Less than this is left to the next step's push; more is held back.
MINK_INLINE float mink_overlap_allowed(MINK_GLOBAL const mink_shape *a, MINK_GLOBAL const mink_shape *b) {
    return mink_minf(mink_push_reach(a), mink_push_reach(b)) * 0.03125f;
}

/// Safety round `round`, pair k, of two dynamic bodies (its broadphase has no others): when their
/// moves, as straight lines from where they started to where they would end, pass through each
/// other, or end overlapping by more than mink_overlap_allowed and than they started, both keep
/// only part of their moves: what comes before the contact, a little less (none of it when they
/// started overlapping, or with s.emit 1). The smallest keep any pair gives a body wins (an atomic
/// minimum on the bits of a float in [0, 1], which order as the float does). After round 0, only
/// pairs with a body whose keep just changed are swept.
MINK_INLINE void mink_safety_item(mink_world_view w, mink_step_state s, uint32_t k) {
    mink_world_pair p = w.pairs[k];
    /* Most pairs, after the first rounds: told by the flags (4 bytes a slot, which stay in the
     * caches), not by the places (32, read at random for a million pairs every round). This pass
     * ORs only MINK_SOLVE_LISTED into the flags: the bit it reads is the same all through it. */
    if (s.round > 0u && !((MINK_LOAD(&w.flags[p.a]) | MINK_LOAD(&w.flags[p.b])) & MINK_SOLVE_CHANGED)) return;
    /* Both bodies are dynamic: no other body has a box in this broadphase (mink_final_bounds_item),
     * so their props are not read (twice more at random, every pair of every round). */
    MINK_GLOBAL mink_place *qa = w.place + p.a, *qb = w.place + p.b;
    uint32_t now = s.round & 1u, next = now ^ 1u;
    /* keep[now] stays all through the pass; keep[next] falls by other items' atomics meanwhile. */
    float keep_a = mink_bits_float(qa->keep[now]), keep_b = mink_bits_float(qb->keep[now]);
    if (keep_a == 0.0f && keep_b == 0.0f) return;
    MINK_GLOBAL const mink_shape *sa = w.shapes + w.shape_of[p.a], *sb = w.shapes + w.shape_of[p.b];
    mink_vec2 pa = w.pos[p.a], pb = w.pos[p.b];
    mink_vec2 ea = mink_place_at(w, p.a, keep_a), eb = mink_place_at(w, p.b, keep_b);
    mink_vec2 ma = mink_v2(ea.x - pa.x, ea.y - pa.y), mb = mink_v2(eb.x - pb.x, eb.y - pb.y);
    mink_hit h = mink_sweep_placed_near(sa, pa, ma, sb, pb, mb, s.params.hulls);
    if (!(h.flags & MINK_HIT_CONTACT)) return;
    float allowed = mink_overlap_allowed(sa, sb), share = 0.0f;
    if ((h.flags & MINK_HIT_OVERLAP) || h.t_exit > 1.0f) { /* they end overlapping: by how much */
        mink_hit end = mink_sweep_placed(sa, ea, mink_v2(0.0f, 0.0f), sb, eb, mink_v2(0.0f, 0.0f), s.params.hulls);
        /* Overlapping already, they may part or stay as deep, never deeper (a body pressed into one
         * that cannot give way would creep in a step at a time); held, they stay where they were.
         * And a body pushed out of a deep overlap may press into another, up to half as deep: in
         * a packed crowd the overlaps spread and shrink, where holding every push would keep them. */
        float spread = 0.5f * mink_maxf(qa->deepest, qb->deepest);
        if (!(end.depth > mink_maxf(mink_maxf(h.depth, allowed), spread))) return;
    }
    if (!(h.flags & MINK_HIT_OVERLAP)) share = h.t * 0.99609375f; /* 2^-8 short of the contact */
    if (s.emit) share = 0.0f;
    /* Each atomic only where a plain read says it may change something: keeps only fall and the
     * bit is only set in this pass, so a stale read costs an atomic, never a lost one; most of a
     * crowd's conflicts repeat what another pair already did, and on a CPU device every atomic
     * on a shared line is a trip between cores. */
    uint32_t ka = mink_float_bits(keep_a * share), kb = mink_float_bits(keep_b * share);
    if (ka < MINK_LOAD(&qa->keep[next])) MINK_ATOMIC_MIN(&qa->keep[next], ka);
    if (kb < MINK_LOAD(&qb->keep[next])) MINK_ATOMIC_MIN(&qb->keep[next], kb);
    if (MINK_LOAD(&w.counters[1]) == 0u) MINK_STORE(&w.counters[1], 1u); /* a conflict: every item stores the same */
    /* Only a body in a conflict changes its keep: the place pass runs over these. */
    if (!(MINK_LOAD(&w.flags[p.a]) & MINK_SOLVE_LISTED) &&
        !(MINK_ATOMIC_OR(&w.flags[p.a], MINK_SOLVE_LISTED) & MINK_SOLVE_LISTED))
        w.active[MINK_ATOMIC_INC(&w.counters[4])] = p.a;
    if (!(MINK_LOAD(&w.flags[p.b]) & MINK_SOLVE_LISTED) &&
        !(MINK_ATOMIC_OR(&w.flags[p.b], MINK_SOLVE_LISTED) & MINK_SOLVE_LISTED))
        w.active[MINK_ATOMIC_INC(&w.counters[4])] = p.b;
}

/// Listed body k between safety rounds (s.emit 0): the keep that round `round` starts from copied
/// to the one it writes, and whether the round before changed it. After the last (s.emit 1): its
/// place. A body no conflict listed keeps all of its path: its keeps stay 1, unchanged.
MINK_INLINE void mink_place_item(mink_world_view w, mink_step_state s, uint32_t k) {
    uint32_t i = w.active[k];
    if (k == 0u && !s.emit) w.counters[1] = 0u; /* whether the round found a conflict, set by the next pass */
    /* Listed by a safety pair: alive and dynamic (mink_safety_item), so its props are not read. */
    MINK_GLOBAL mink_place *q = w.place + i;
    uint32_t now = q->keep[s.round & 1u];
    if (s.emit) {
        float keep = mink_bits_float(now);
        if (keep < 1.0f) w.pos_out[i] = mink_place_at(w, i, keep);
        return;
    }
    /* Only this item writes i's flags in this pass; the safety pass only reads this bit. */
    uint32_t flags = w.flags[i] & ~MINK_SOLVE_CHANGED;
    w.flags[i] = now != q->keep[(s.round & 1u) ^ 1u] ? flags | MINK_SOLVE_CHANGED : flags;
    q->keep[(s.round & 1u) ^ 1u] = now;
}

/* ---- the rounds in one work-item ---------------------------------------------------------------- */

/// The impulse rounds from round 0's fire on (its pick done and its list made), pass after pass as
/// the host's loop runs them (world_step.c), all in one item (k, 0, the only one): on a CPU device
/// a short list's rounds cost more in launches and waits than in work (docs/benchmarks.md, "Short
/// impulse rounds in one work-item"). The same bits as the passes: each pass's items depend on no
/// order, and none starts before the last one ended.
MINK_INLINE void mink_impulse_rounds_item(mink_world_view w, mink_step_state s, uint32_t k) {
    for (s.round = 0u;;) {
        for (k = 0u; k < s.listed; k++) mink_fire_item(w, s, k);
        if (w.counters[0] == 0u || ++s.round >= s.max_rounds) return;
        for (k = 0u; k < s.listed; k++) mink_resweep_item(w, s, k);
        for (k = 0u; k < s.listed; k++) mink_pick_item(w, s, k);
    }
}

/// The safety rounds from round 1 on (round 0 ran as a pass, its conflicts listed), and the place
/// after the last, all in one item (k, 0, the only one), as the host's loop runs them as passes
/// (world_step.c): the same bits, since each pass's items depend on no order (keeps fall by an
/// atomic minimum; a body's place is its own).
MINK_INLINE void mink_safety_rounds_item(mink_world_view w, mink_step_state s, uint32_t k) {
    for (s.round = 1u; w.counters[1] != 0u; s.round++) {
        s.listed = w.counters[4];
        s.emit = 0u;
        for (k = 0u; k < s.listed; k++) mink_place_item(w, s, k); /* and clears the round's flag */
        s.emit = s.round >= 8u;
        for (k = 0u; k < s.pairs; k++) mink_safety_item(w, s, k);
    }
    s.listed = w.counters[4];
    s.emit = 1u;
    for (k = 0u; k < s.listed; k++) mink_place_item(w, s, k);
}

#endif /* MINK_CORE_SOLVE_H */
