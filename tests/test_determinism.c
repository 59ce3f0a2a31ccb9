/* tests/test_determinism.c — one hash over every batch kind's answers to its sample batch and over
 * a seeded 300-step mixed world, on both paths, compared with a committed value (as Box2D's
 * test_determinism.c). A changed hash is a changed behaviour: noticed at once, and changed on
 * purpose only, with the reason in the commit that changes the constant. */
#include "test_util.h"

#include "mink/world.h"
#include "host/world_internal.h" /* order_always, rounds_in_one */

/* The committed hashes (FNV-1a, 64 bits, over the bytes of every answer in order), and why each
 * last changed (both come out of GCC and clang alike since every sample, and this file's world,
 * draws its numbers in a set order: the one GCC had taken, so neither hash moved; `make test`
 * checks them in its clang build too):
 * - BATCH_HASH 0x30ce7ed84e15fd77 -> 0xbfc5b25aed703cc3: a turning pair whose bounding disks
 *   never meet in the step is answered none without an advance, and one whose disks are apart at
 *   t = 0 advances from where they meet (core/rotating.h, mink_movers_start), so its times come
 *   out of other advances; pairs that reached the cap far apart now answer none.
 * - BATCH_HASH 0x8de9a6cc856a14da -> 0x30ce7ed84e15fd77: GJK's bound takes b's centre from a's
 *   by their differences, its margin from the pair's size, not from its distance to the origin
 *   (a review's finding: far from the origin, the advances crawled to their cap), and the exact
 *   distance places both shapes about a's centre as the bound does.
 * - BATCH_HASH 0x7f87b1e58bb3681e -> 0x8de9a6cc856a14da: turning pairs advance by GJK's bound
 *   while they are far apart (core/rotating.h, mink_movers_gap), so their times come out of other
 *   roundings; a world's bodies do not turn, so WORLD_HASH did not move.
 * - BATCH_HASH 0xb39f51eb3c030a85 -> 0x7f87b1e58bb3681e: the capsule samples draw their numbers
 *   in a fixed order (a call's arguments had drawn in whatever order the compiler chose); the
 *   capsule batches' answers to the new samples. Before that:
 * - BATCH_HASH 0x443dd7b796af5057 -> 0xb39f51eb3c030a85: circle–box columns
 *   (mink_batch_sweep_circle_aabb_soa, issue 32) joined the hash, last; no other kind's answers
 *   moved (the circle–box sweep, now written without branches, gives the same bits). Before that:
 * - BATCH_HASH 0x85c99633377c695c -> 0x443dd7b796af5057: the capsule batches
 *   (mink_batch_sweep_capsule, _capsule_circle, issue 31) joined the hash, after every other kind;
 *   no other kind's answers moved (a capsule's meet point now takes each segment's flatness from
 *   its own length, but these samples hold no capsule). Before that:
 * - WORLD_HASH 0x3a17c4b47311046d -> 0xf891284b780c244a: pushes out of walls are swept and, with
 *   the push out of dynamic bodies, no longer than the push reach a step; that push is no longer
 *   stopped by a wall the body is inside already (issue 29: "pushes are swept like any other
 *   motion"). Before that:
 * - BATCH_HASH 0xef92d87ad5847c87 -> 0x85c99633377c695c: the ray casts (mink_batch_cast_ray, issue
 *   31) joined the hash, after every other kind; no other kind's answers moved. Before that:
 * - BATCH_HASH 0xa5ff8b1c0c423c31 -> 0xef92d87ad5847c87 and WORLD_HASH 0xc3ca94dbfa2714c6 ->
 *   0x3a17c4b47311046d: contact points lie on both shapes (issue 30): swept SAT's meet point is
 *   taken about a's first vertex with a feature tolerance of a few ulps of the coordinates too, and
 *   conservative advancement gives the meet point where the cores touch (it gave the middle of each
 *   hull's first vertex). Only points moved. Before that:
 * - BATCH_HASH 0xbc4a5ee825dd22cb -> 0xa5ff8b1c0c423c31 and WORLD_HASH 0xf3fdb6694b98e246 ->
 *   0xc3ca94dbfa2714c6: a pair with a turning body is advanced in one order of its two bodies
 *   (mink_mover_before) and mirrored when named the other way round, and no normal holds a −0
 *   (mink_hit_checked turns it into +0, as boxes give; polygons gave −0 from negated hull normals).
 *   Issue 30. Before that:
 * - BATCH_HASH 0xc7b63886fd580d25 -> 0xbc4a5ee825dd22cb and WORLD_HASH 0xf5ba24d798e97a4a ->
 *   0xf3fdb6694b98e246: the circle–box sweep takes the box's slabs relative to the centre before
 *   adding the radius (issue 30: the other order rounded a small radius away, and a disk missed a
 *   point box). In the circle–box sample of a million pairs 21.9 % of the hits changed in their
 *   last bits (t by at most 5e-6), none in its flags. The circle roots' new scaling (the overlap at
 *   t = 0 decided at the scale of offset and radius) changed no bit of either hash.
 * - WORLD_HASH 0xeda2a59a5a783812 -> 0xf5ba24d798e97a4a: dynamic bodies meet each other through
 *   impulse rounds (one impulse a pair, equal and opposite) and safety rounds (core/solve.h)
 *   instead of each reacting alone to the other's planned path (issue 29). Before that,
 *   0x3652f1866c21c2f8 -> 0xeda2a59a5a783812: handles carry a generation, so default user ids
 *   changed. */
#define BATCH_HASH 0xbfc5b25aed703cc3ull
#define WORLD_HASH 0xf891284b780c244aull

static uint64_t fnv(uint64_t h, const void *bytes, size_t n) {
    const unsigned char *p = bytes;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static const uint64_t FNV_START = 0xcbf29ce484222325ull;

static void ok(mink_status st) {
    if (st != MINK_OK) fprintf(stderr, "%s: %s\n", mink_status_string(st), mink_last_error());
    assert_int_equal(st, MINK_OK);
}

static void check_hash(const char *what, uint64_t got, uint64_t want) {
    if (got != want) fail_msg("%s hash %#018llx, committed %#018llx", what, (unsigned long long)got, (unsigned long long)want);
}

/* ---- batches -------------------------------------------------------------------------------- */

enum { N = 4096 };

/* Sweeps on one context; returns the hash of every kind's hits in a fixed order. */
static uint64_t batch_hash(mink_context *ctx) {
    uint64_t h = FNV_START;
    mink_hit *hits = calloc(N, sizeof *hits);
    assert_non_null(hits);
#define HASH_KIND(type, sample, batch)                                                             \
    do {                                                                                           \
        type *in = calloc(N, sizeof *in);                                                          \
        assert_non_null(in);                                                                       \
        sample;                                                                                    \
        ok(batch);                                                                                 \
        h = fnv(h, hits, N * sizeof *hits);                                                        \
        free(in);                                                                                  \
    } while (0)
    HASH_KIND(mink_aabb_pair, mink_sample_aabb_pairs(11, N, in), mink_batch_sweep_aabb(ctx, in, N, 0.75f, hits));
    HASH_KIND(mink_circle_pair, mink_sample_circle_pairs(12, N, in), mink_batch_sweep_circle(ctx, in, N, 0.75f, hits));
    HASH_KIND(mink_circle_aabb_pair, mink_sample_circle_aabb_pairs(13, N, in),
              mink_batch_sweep_circle_aabb(ctx, in, N, 0.75f, hits));
    HASH_KIND(mink_polygon_pair, mink_sample_polygon_pairs(14, N, 0, in), mink_batch_sweep_polygon(ctx, in, N, 0.75f, hits));
    HASH_KIND(mink_polygon_aabb_pair, mink_sample_polygon_aabb_pairs(15, N, in),
              mink_batch_sweep_polygon_aabb(ctx, in, N, 0.75f, hits));
    HASH_KIND(mink_polygon_circle_pair, mink_sample_polygon_circle_pairs(16, N, in),
              mink_batch_sweep_polygon_circle(ctx, in, N, 0.75f, hits));
    HASH_KIND(mink_pair, mink_sample_pairs(17, N, in), mink_batch_sweep(ctx, in, N, 0.75f, hits));
    HASH_KIND(mink_pair, mink_sample_rotating_pairs(18, N, in), mink_batch_sweep(ctx, in, N, 0.75f, hits));
    HASH_KIND(mink_pair, mink_sample_rotating_pairs(19, N, in),
              mink_batch_sweep_rotating(ctx, in, N, 0.75f, &(mink_rotating_desc){.target = 1e-3f, .max_iterations = 20},
                                        hits));
    HASH_KIND(mink_ray_cast, mink_sample_ray_casts(20, N, in), mink_batch_cast_ray(ctx, in, N, hits));
    HASH_KIND(mink_capsule_pair, mink_sample_capsule_pairs(23, N, in),
              mink_batch_sweep_capsule(ctx, in, N, 0.75f, hits));
    HASH_KIND(mink_capsule_circle_pair, mink_sample_capsule_circle_pairs(24, N, in),
              mink_batch_sweep_capsule_circle(ctx, in, N, 0.75f, hits));
#undef HASH_KIND
    /* columns: the sample batches as arrays, answers field by field */
    mink_aabb_pair *boxes = calloc(N, sizeof *boxes);
    mink_circle_pair *circles = calloc(N, sizeof *circles);
    float *col = calloc(22 * (size_t)N, sizeof *col), *out = calloc(8 * (size_t)N, sizeof *out);
    assert_true(boxes && circles && col && out);
    mink_sample_aabb_pairs(21, N, boxes);
    mink_sample_circle_pairs(22, N, circles);
    float *c[22];
    for (int k = 0; k < 22; k++) c[k] = col + (size_t)k * N;
    for (size_t i = 0; i < N; i++) {
        const float *b = (const float *)&boxes[i], *r = (const float *)&circles[i];
        for (int k = 0; k < 12; k++) c[k][i] = b[k];
        for (int k = 0; k < 10; k++) c[12 + k][i] = r[k];
    }
    mink_hit_soa hs = {out, out + N, out + 2 * N, out + 3 * N, out + 4 * N, out + 5 * N, out + 6 * N,
                       (uint32_t *)(out + 7 * N)};
    ok(mink_batch_sweep_aabb_soa(ctx, &(mink_aabb_pair_soa){c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9],
                                                            c[10], c[11]},
                                 N, 0.75f, &hs));
    h = fnv(h, out, 8 * (size_t)N * sizeof *out);
    ok(mink_batch_sweep_circle_soa(ctx, &(mink_circle_pair_soa){c[12], c[13], c[14], c[15], c[16], c[17], c[18], c[19],
                                                                c[20], c[21]},
                                   N, 0.75f, &hs));
    h = fnv(h, out, 8 * (size_t)N * sizeof *out);
    mink_circle_aabb_pair *circle_boxes = calloc(N, sizeof *circle_boxes);
    assert_non_null(circle_boxes);
    mink_sample_circle_aabb_pairs(25, N, circle_boxes);
    for (size_t i = 0; i < N; i++)
        for (int k = 0; k < 11; k++) c[k][i] = ((const float *)&circle_boxes[i])[k];
    mink_circle_aabb_pair_soa cb = {c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10]};
    ok(mink_batch_sweep_circle_aabb_soa(ctx, &cb, N, 0.75f, &hs));
    h = fnv(h, out, 8 * (size_t)N * sizeof *out);
    free(boxes), free(circles), free(circle_boxes), free(col), free(out), free(hits);
    return h;
}

static void batches_hash(void **state) {
    paths *p = *state;
    uint64_t scalar = batch_hash(p->scalar), opencl = batch_hash(p->opencl);
    check_hash("scalar batches", scalar, BATCH_HASH);
    check_hash("OpenCL batches", opencl, BATCH_HASH);
}

/* ---- a mixed world -------------------------------------------------------------------------- */

enum { BODIES = 600, STEPS = 300 };

/* Walls, boxes, circles, a pentagon; slide, stop, bounce, sensors; static, heavy and light
 * bodies; removals, additions and changes along the way. Returns the hash of every step's
 * positions, velocities and events. renumber: the bodies renumbered by place before every step
 * (host/world_order.c; a world of its own does so only where many bodies meet each other), which
 * must change nothing: every tie goes by the public slot. in_one: the impulse rounds, and the
 * safety rounds after the first, all in one item (1: its lists are short, as a world of its own
 * does here on a CPU; the hash was committed before it could; a GPU keeps the passes whatever
 * this says) or pass by pass (-1), which must change nothing either. */
static uint64_t world_hash(mink_context *ctx, int renumber, int in_one, uint32_t items_each) {
    mink_world *w = NULL;
    ok(mink_world_create(ctx, &(mink_world_desc){.initial_bodies = 64}, &w));
    w->order_always = renumber;
    w->rounds_in_one = in_one;
    w->items_each = items_each;
    mink_shape shapes[6] = {box_shape(0.05f, 20.0f), box_shape(40.0f, 0.05f), circle_shape(0.15f),
                            box_shape(0.2f, 0.1f), circle_shape(1.0f), {.type = MINK_SHAPE_POLYGON}};
    mink_vec2 pent[5];
    for (int k = 0; k < 5; k++) pent[k] = mink_v2(0.3f * cosf(1.2566371f * (float)k), 0.3f * sinf(1.2566371f * (float)k));
    assert_int_equal(mink_polygon_make(pent, 5, mink_v2(0, 0), 0.0f, &shapes[5].geom.polygon), MINK_POLYGON_OK);
    uint32_t ids[6], walls[6], h[BODIES];
    ok(mink_world_add_shapes(w, shapes, 6, ids));
    uint32_t wall_shape[6] = {ids[0], ids[0], ids[0], ids[1], ids[1], 0};
    mink_vec2 wall_pos[6] = {{0, 20}, {40, 20}, {80, 20}, {40, 0}, {40, 40}, {0, 0}};
    float zero[6] = {0};
    ok(mink_world_add(w, &(mink_world_bodies){.count = 5, .shape = wall_shape, .position = wall_pos, .inv_mass = zero},
                      walls));
    mink_rng rng = mink_rng_seed(2026);
    uint32_t shape[BODIES], response[BODIES];
    mink_vec2 pos[BODIES], vel[BODIES];
    float inv_mass[BODIES], restitution[BODIES];
    for (int k = 0; k < BODIES; k++) {
        int kind = k % 20;
        shape[k] = ids[kind < 8 ? 2 : kind < 14 ? 3 : kind < 17 ? 5 : 4];
        /* Each draw its own statement: C leaves a call's arguments in no set order (this is the
         * one GCC took, last to first, when the hash was committed). */
        float y = mink_rng_float(&rng, 1.0f, 39.0f), x = mink_rng_float(&rng, 1.0f, 79.0f);
        float vy = mink_rng_float(&rng, -30.0f, 30.0f), vx = mink_rng_float(&rng, -30.0f, 30.0f);
        pos[k] = mink_v2(x, y);
        vel[k] = mink_v2(vx, vy);
        inv_mass[k] = kind == 18 ? 0.0f : kind == 17 ? 0.1f : 1.0f;
        response[k] = kind == 19 ? MINK_RESPONSE_SENSOR : (uint32_t)(k % 3);
        restitution[k] = mink_rng_float(&rng, 0.5f, 1.0f);
    }
    ok(mink_world_add(w, &(mink_world_bodies){.count = BODIES, .shape = shape, .position = pos, .velocity = vel,
                                              .inv_mass = inv_mass, .restitution = restitution, .response = response},
                      h));
    size_t cap = 1 << 14, slots = 0, events = 0;
    mink_vec2 *gp = malloc(2 * BODIES * sizeof *gp), *gv = malloc(2 * BODIES * sizeof *gv);
    mink_event *ev = malloc(cap * sizeof *ev);
    assert_true(gp && gv && ev);
    uint64_t hash = FNV_START;
    for (int s = 0; s < STEPS; s++) {
        if (s % 60 == 30) { /* churn: remove ten bodies, add ten back elsewhere, kick others */
            uint32_t gone[10], sh[10];
            mink_vec2 at[10], kick[10];
            for (int k = 0; k < 10; k++) {
                gone[k] = h[(s * 7 + k * 13) % BODIES];
                sh[k] = shape[k];
                at[k] = mink_v2(5.0f + 7.0f * (float)k, 20.0f);
                kick[k] = mink_v2(3.0f, -(float)k);
            }
            ok(mink_world_remove(w, gone, 10));
            uint32_t born[10];
            ok(mink_world_add(w, &(mink_world_bodies){.count = 10, .shape = sh, .position = at, .velocity = kick}, born));
            for (int k = 0; k < 10; k++) h[(s * 7 + k * 13) % BODIES] = born[k];
            ok(mink_world_set(w, h + 200, &(mink_world_bodies){.count = 10, .velocity = kick}));
        }
        ok(mink_world_step(w, 1.0f / 30.0f));
        slots = mink_world_get_stats(w).slots;
        assert_true(slots <= 2 * BODIES);
        size_t n = 0;
        ok(mink_world_get(w, NULL, slots, gp, gv));
        ok(mink_world_events(w, ev, cap, &n));
        assert_true(n <= cap);
        hash = fnv(hash, gp, slots * sizeof *gp);
        hash = fnv(hash, gv, slots * sizeof *gv);
        hash = fnv(hash, ev, n * sizeof *ev);
        events += n;
    }
    assert_true(events > 500); /* a scene where things happen */
    free(gp), free(gv), free(ev);
    mink_world_destroy(w);
    return hash;
}

static void world_hash_is_committed(void **state) {
    paths *p = *state;
    uint64_t scalar = world_hash(p->scalar, 0, 0, 0), opencl = world_hash(p->opencl, 0, 0, 0);
    check_hash("scalar world", scalar, WORLD_HASH);
    check_hash("OpenCL world", opencl, WORLD_HASH);
    check_hash("scalar world, renumbered every step", world_hash(p->scalar, 1, 0, 0), WORLD_HASH);
    check_hash("OpenCL world, renumbered every step", world_hash(p->opencl, 1, 0, 0), WORLD_HASH);
    check_hash("scalar world, impulse and safety rounds in one item", world_hash(p->scalar, 0, 1, 0), WORLD_HASH);
    check_hash("OpenCL world, impulse and safety rounds in one item", world_hash(p->opencl, 0, 1, 0), WORLD_HASH);
    check_hash("scalar world, impulse and safety rounds pass by pass", world_hash(p->scalar, 0, -1, 0), WORLD_HASH);
    check_hash("OpenCL world, impulse and safety rounds pass by pass", world_hash(p->opencl, 0, -1, 0), WORLD_HASH);
    /* The scalar path's passes split over threads (host/world_scalar.c) however small: any number
     * of threads, the same bits. */
    for (unsigned threads = 1; threads <= 5; threads += 2) {
        mink_context *ctx = NULL;
        ok(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR, .threads = threads}, &ctx));
        char what[80];
        snprintf(what, sizeof what, "scalar world, every pass on %u threads", threads);
        check_hash(what, world_hash(ctx, 0, -1, 1), WORLD_HASH);
        snprintf(what, sizeof what, "scalar world, renumbered, on %u threads", threads);
        check_hash(what, world_hash(ctx, 1, 0, 7), WORLD_HASH);
        mink_context_destroy(ctx);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(batches_hash, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(world_hash_is_committed, paths_setup, paths_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
