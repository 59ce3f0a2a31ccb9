/* mink/world.h — a world: bodies kept on the device, stepped with continuous collision.
 *
 * Each step: every body's box over the step, a broadphase on the device (radix sort and sweep) that
 * finds every pair whose boxes overlap (two dynamic bodies: whose paths come close), the exact sweep
 * of each pair; dynamic bodies that meet each other exchange equal and opposite impulses (momentum
 * kept, energy never gained); each dynamic body then takes its earliest contact with a static or
 * kinematic body, moves to it and responds (slide, stop, bounce), up to a few times a step, so
 * nothing fast passes through anything thin; last, moves that would cross or overlap another
 * body's are held back. docs/world.md says what is guaranteed. The scalar path runs the same
 * passes (core/) and gives the same bits. Between steps the world answers questions in batches
 * (rays, shape casts, overlaps, dry runs of moves: the end of this file).
 *
 * Bodies are named by handles that stay valid until the body is removed, and never name another
 * body after (mink_world_slot). Shapes live in a table and bodies name them by id.
 *
 * Threads: a world belongs to its context; use both from one thread at a time. Worlds on separate
 * contexts may step in separate threads at once.
 *
 * Failures: every call returns a status, with the message in mink_context_error. A failed OpenCL
 * call leaves the world as the function's comment says and usable once the device is; a world
 * can always be destroyed (tests/test_faults.c makes each OpenCL call fail in turn).
 */
#ifndef MINK_WORLD_H
#define MINK_WORLD_H

#include "mink/body.h"

/* ---- what a world holds: value types, shared with the kernels (valid OpenCL C) --------------- */

/// A shape in its body's own frame: the body's position is added to a box's corners, a circle's
/// centre, a polygon's position, a capsule's two centres. Shapes live in a world's table and bodies
/// name them by id, so a million bullets share one circle. 152 bytes.
typedef struct mink_shape {
    uint32_t type; ///< MINK_SHAPE_AABB, MINK_SHAPE_CIRCLE, MINK_SHAPE_POLYGON or MINK_SHAPE_CAPSULE
    union {
        mink_aabb aabb;
        mink_circle circle;
        mink_polygon polygon;
        mink_capsule capsule;
    } geom;
} mink_shape;

/// What a body does when it meets another (bump.lua's responses).
typedef enum mink_response {
    MINK_RESPONSE_SLIDE = 0, ///< advance to the contact, drop the normal velocity, go on along the surface
    MINK_RESPONSE_STOP,      ///< advance to the contact and stop there
    MINK_RESPONSE_BOUNCE,    ///< advance to the contact, reflect the normal velocity × restitution, go on
    MINK_RESPONSE_SENSOR,    ///< move freely; report what it passes through; others pass through it
    MINK_RESPONSE_COUNT
} mink_response;

/// A candidate pair from the broadphase: two body handles, a first in the sort.
typedef struct mink_world_pair {
    uint32_t a, b;
} mink_world_pair;

/// One contact a body took in a step (or, for a sensor, one body it passed through). 64 bytes.
typedef struct mink_event {
    uint64_t a, b;           ///< user ids: the body that moved (or the sensor), and what it met
    uint32_t body_a, body_b; ///< their handles
    float t;                 ///< when, as a fraction of the step, in [0, 1)
    float t_exit;            ///< when the interiors would part on the paths planned at t; INFINITY if never
    mink_vec2 normal;        ///< unit, from b towards a
    mink_vec2 point;         ///< where they meet at t
    float depth;             ///< > 0 when they already overlapped (MINK_HIT_OVERLAP)
    uint32_t flags;          ///< the hit's flags, with MINK_EVENT_SENSOR when a sensor reports
    uint32_t iteration;      ///< which sub-iteration of a's step found it (0 first)
    uint32_t reserved;       ///< 0
} mink_event;

enum { MINK_EVENT_SENSOR = 1u << 8 };

/// A question to a world (mink_world_cast, mink_world_overlap): a shape of the world's table, or a
/// point, placed at `position` as a body's shape is, and moved by `translation` (zero: where it
/// stands). 24 bytes.
typedef struct mink_world_query {
    mink_vec2 position;
    mink_vec2 translation;
    uint32_t shape;    ///< a shape id from mink_world_add_shapes, or MINK_QUERY_POINT
    uint32_t reserved; ///< 0
} mink_world_query;

/// The shape id of a query that is a point (a box of no size: a ray, when it moves).
#define MINK_QUERY_POINT 0xfffffffeu

/// A body a query met: the sweep of the query (a) against the body (b) standing still, as
/// mink_sweep_bodies and mink_cast_ray give it: t the fraction of the translation, normal from the
/// body towards the query, OVERLAP (t 0) when the query starts inside it. 40 bytes.
typedef struct mink_world_hit {
    mink_hit hit;      ///< flags 0: the query met no body (and body is MINK_WORLD_DEAD)
    uint32_t body;     ///< the body's handle
    uint32_t reserved; ///< 0
} mink_world_hit;

/// A move tried without moving (mink_world_check). 56 bytes.
typedef struct mink_world_move {
    mink_vec2 end;        ///< where the body would stop
    uint32_t contacts;    ///< the contacts it would take on the way (at most the world's max_iterations)
    uint32_t reserved;    ///< 0
    mink_world_hit first; ///< the first of them (flags 0: none), as mink_world_cast gives a hit
} mink_world_move;

/// A slot whose body was removed: its shape id.
#define MINK_WORLD_DEAD 0xffffffffu
/// The most bodies (slots) a world holds.
#define MINK_WORLD_MAX_BODIES (1u << 22)
/// The largest inverse mass a body may have, and the largest |coordinate| of a shape about its
/// body's position: beyond them a pair's shares or a body's bounds would overflow, and the step
/// would silently miss contacts, so mink_world_add_shapes, _add and _set refuse them.
#define MINK_WORLD_MAX_INV_MASS 1e30f
#define MINK_WORLD_MAX_SHAPE 1e30f

#if !defined(__OPENCL_C_VERSION__) && !defined(__OPENCL_VERSION__)
#include "mink/mink.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Zeroed fields mean defaults; a NULL desc means all defaults.
typedef struct mink_world_desc {
    size_t initial_bodies;   ///< slots reserved at creation; 0: 1024. The world grows as needed.
    size_t max_pairs;        ///< candidate pairs a step may hold; 0: 64 a body, at least 2^20 (a pair
                             ///< costs 88 bytes). At most 2^31 - 1. A step that needs more fails
                             ///< with MINK_ERR_CAPACITY before it allocates for them, says how
                             ///< many it needed (counted in 64 bits), and keeps no memory for them.
    uint32_t max_iterations; ///< contacts one body may take in one step; 0: 4
    uint32_t max_rounds;     ///< rounds of impulses between dynamic bodies in one step; 0: 8. A chain
                             ///< of n bodies passes a push along in about n rounds; what is left
                             ///< waits for the next step (docs/world.md)
    float skin;              ///< gap left after a contact; 0: each body's own (mink_body_skin)
} mink_world_desc;

/// Many bodies at once, as arrays of `count` entries. For mink_world_add a NULL array means the
/// default for every body; for mink_world_set it means "leave as it is".
typedef struct mink_world_bodies {
    size_t count;
    const uint32_t *shape;       ///< shape ids from mink_world_add_shapes (required to add)
    const mink_vec2 *position;   ///< default (0, 0)
    const mink_vec2 *velocity;   ///< default (0, 0)
    const float *inv_mass;       ///< default 1; 0 is static or kinematic; at most MINK_WORLD_MAX_INV_MASS
    const float *restitution;    ///< default 1, in [0, 1]; used by BOUNCE
    const uint32_t *response;    ///< mink_response, default MINK_RESPONSE_SLIDE
    const uint32_t *category;    ///< default 1
    const uint32_t *mask;        ///< default all bits
    const uint64_t *user_id;     ///< reported in events; default the handle
} mink_world_bodies;

/// Figures from the last step (bodies and slots: as the world is now).
typedef struct mink_world_stats {
    size_t bodies;        ///< alive
    size_t slots;         ///< slots in use or free for reuse: every handle's slot is below this
    size_t pairs;         ///< candidate pairs the broadphase found
    size_t pairs_needed;  ///< equal to pairs, or what a failed step would have needed
    size_t events;        ///< events recorded
    size_t large;         ///< bodies too large for the grid's cells: every slot was tested against each
    double bounds_ms, broadphase_ms, narrowphase_ms, resolution_ms, transfer_ms, total_ms;
    size_t bytes;         ///< memory the world holds (device buffers, or host arrays on the scalar path)
} mink_world_stats;

typedef struct mink_world mink_world;

/// Which bodies a world query sees: the live ones whose category has a bit of the filter's mask
/// and whose mask has a bit of the filter's category (Box2D's rule). Zeroed fields mean defaults;
/// a NULL filter means all defaults.
typedef struct mink_world_filter {
    uint32_t category; ///< the query's own category bits; 0: all bits
    uint32_t mask;     ///< the categories it sees; 0: all bits
    uint32_t sensors;  ///< 1: sensors too; 0: bodies that are not sensors only
} mink_world_filter;

/// A handle names one body for as long as it lives: its slot in the low MINK_WORLD_SLOT_BITS bits
/// and a generation above them, moved on each time the slot's body is removed. A removed body's
/// handle is refused by every call (MINK_ERR_INVALID_ARGUMENT), also after its slot holds another
/// body. The slot is where the body is in the arrays mink_world_get reads with handles NULL.
#define MINK_WORLD_SLOT_BITS 22u
/// The slot a handle names.
static inline uint32_t mink_world_slot(uint32_t handle) { return handle & ((1u << MINK_WORLD_SLOT_BITS) - 1u); }

/// Arrays given to a world call may share memory, outputs with inputs too (ids over the shapes,
/// handles over the bodies' arrays): every call reads all its inputs before it writes an output.

/// Creates a world on a context (which must outlive it). desc may be NULL.
mink_status mink_world_create(mink_context *ctx, const mink_world_desc *desc, mink_world **out);
/// Frees everything the world holds. NULL is ignored.
void mink_world_destroy(mink_world *world);

/// Adds shapes to the world's table; ids[k] receives shape k's id. A shape that is not valid
/// (mink_body_is_valid at the origin) fails the call and adds nothing.
mink_status mink_world_add_shapes(mink_world *world, const mink_shape *shapes, size_t count, uint32_t *ids);

/// Adds bodies->count bodies; handles[k] receives body k's handle (written last: handles may be
/// one of the input arrays). Every field is checked first
/// (finite, a known shape, inv_mass >= 0, restitution in [0, 1], a known response): one bad entry
/// fails the call with a message naming it, and nothing is added. A device failure adds nothing.
mink_status mink_world_add(mink_world *world, const mink_world_bodies *bodies, uint32_t *handles);
/// Changes the fields given (non-NULL) of the bodies named by handles; checked as for add. After a
/// device failure the bodies' other fields are as they were, while some of the positions and
/// velocities given may already be written: calling it again completes the change.
mink_status mink_world_set(mink_world *world, const uint32_t *handles, const mink_world_bodies *bodies);
/// Removes bodies. A handle that is not alive (or repeated) fails the call; nothing is removed.
/// A device failure removes nothing.
mink_status mink_world_remove(mink_world *world, const uint32_t *handles, size_t count);

/// Steps the world by dt (finite, >= 0). Events of the previous step are replaced. On failure the
/// bodies are as they were before the call. Fails with MINK_ERR_INVALID_ARGUMENT when dt carries a
/// body's planned move past the float range (velocity × dt, its length, or where it would end,
/// overflows).
mink_status mink_world_step(mink_world *world, float dt);

/// Reads positions and/or velocities (either may be NULL) of `count` bodies: those named by
/// handles, or, with handles NULL, the slots 0 .. count-1. Only what is asked is read back.
mink_status mink_world_get(mink_world *world, const uint32_t *handles, size_t count, mink_vec2 *positions,
                           mink_vec2 *velocities);

/// The last step's events, ordered by t, then a's id, b's id, a's handle, b's handle, iteration.
/// Writes up to capacity of them (out may be NULL with capacity 0) and the total to *count.
mink_status mink_world_events(mink_world *world, mink_event *out, size_t capacity, size_t *count);

/// The last step's candidate pairs (handles), in the order the broadphase found them, which may
/// change from step to step with how the grid sorts its cells; a is the body outside the world's
/// crowd, else the smaller slot (with a body too large for the cells: the large one). Writes up to
/// capacity and the total to *count. For tests and debugging views.
mink_status mink_world_pairs(mink_world *world, mink_world_pair *out, size_t capacity, size_t *count);

/* ---- questions to the world as it stands (docs/world.md, "Queries") ------------------------------
 * Bodies are where the last step left them (or where add and set put them). Each call builds a grid
 * over the bodies its filter sees and answers every query on the device (or the scalar path, with
 * the same bits). A query that is not valid (a non-finite position or translation, an unknown
 * shape id, reserved not 0) gets an INVALID hit, or no bodies, and leaves the others untouched.
 * Ties are broken by the body's slot: the same answers whatever the path or the device. */

/// Each query's first hit along its translation: the body with the smallest t, then the smallest
/// slot (a query starting inside bodies: OVERLAP with the first of them). hits[k] answers
/// queries[k]. A body whose sweep with the query would overflow (both near the float limit) is
/// not met, as in a step.
mink_status mink_world_cast(mink_world *world, const mink_world_query *queries, size_t count,
                            const mink_world_filter *filter, mink_world_hit *hits);
/// mink_world_cast of points: each ray's first hit (mink_cast_ray's meaning for each body).
mink_status mink_world_cast_rays(mink_world *world, const mink_ray *rays, size_t count,
                                 const mink_world_filter *filter, mink_world_hit *hits);
/// Every body each query meets along its translation, by t, then slot: query k's hits are
/// hits[starts[k] .. starts[k + 1]). starts (count + 1 entries) is always written, and
/// starts[count] is the total needed; a query's hits are written only when they all fit below
/// capacity (hits may be NULL with capacity 0, to count them).
mink_status mink_world_cast_all(mink_world *world, const mink_world_query *queries, size_t count,
                                const mink_world_filter *filter, mink_world_hit *hits, size_t capacity,
                                size_t *starts);
/// The bodies whose interiors each query's shape (or point) overlaps where it stands (its
/// translation is not used), as handles in slot order: query k's are bodies[starts[k] ..
/// starts[k + 1]), with starts and capacity as for mink_world_cast_all. Touching is not
/// overlapping.
mink_status mink_world_overlap(mink_world *world, const mink_world_query *queries, size_t count,
                               const mink_world_filter *filter, uint32_t *bodies, size_t capacity, size_t *starts);

/// A dry run of moves, as bump.lua's check: body handles[k] tries translations[k] from where it
/// stands, and moves[k] says where it would end and what it would meet, nothing moving. A dynamic
/// body meets the bodies whose filters meet its own (its category in their mask and theirs in
/// its), sensors and itself left out, all standing still, and answers each contact as a step
/// answers a wall (ties by t, user id, slot): up to max_iterations contacts, each advanced to and
/// left by its skin; STOP stops there, SLIDE goes on along the surface, BOUNCE reflects ×
/// restitution; a body starting inside another is pushed out first, as a step pushes (swept, and
/// no farther in all than a quarter of its smaller side); the path is never longer than the
/// translation. A body that is not dynamic moves through everything, as in a step. When it meets
/// only static and kinematic bodies, a step of 1 at the translation as velocity ends where its dry
/// run said, bit for bit. A non-finite translation gives an
/// INVALID first hit and the body where it is. Handles must be alive, each named once.
mink_status mink_world_check(mink_world *world, const uint32_t *handles, const mink_vec2 *translations, size_t count,
                             mink_world_move *moves);

/// Figures from the last step.
mink_world_stats mink_world_get_stats(const mink_world *world);

#ifdef __cplusplus
}
#endif

#endif /* !OpenCL C */

#endif /* MINK_WORLD_H */
