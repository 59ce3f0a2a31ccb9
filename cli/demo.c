/* cli/demo.c — `mink demo`: a bullet-hell scene through the world, and a picture of it.
 *
 * Rooms of thin static walls (0.1 thick), an emitter in each room spraying fast bullets (2 to 10
 * units a step: up to 100 wall thicknesses), and a kinematic target sliding to and fro in each.
 * Bullets bounce off walls and targets, live a while and are replaced, so the world sees adds and
 * removes every step. A bullet that ends any step outside the room it was born in has tunnelled;
 * the demo counts them (there must be none) and draws every traced path, which stays inside its
 * room for the eye to check. In each room a laser gate (a capsule as thin as the walls) sweeps up
 * and down, a kinematic body the bullets bounce off, and a laser turns, cast into the world after
 * every step (mink_world_cast_rays): it stops at the first wall, target or gate, never beyond. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mink/sample.h"
#include "mink/world.h"
#include "canvas.h"

const char cli_demo_usage[] =
    "usage: mink demo [OPTIONS]\n"
    "\n"
    "Runs a scene through the world and draws it.\n"
    "bullets (the default): rooms of thin walls (0.1 thick), an emitter in each spraying bullets\n"
    "at up to 100 wall thicknesses a step, and a moving target in each. Prints steps per second,\n"
    "contacts and the number of bullets that tunnelled (0), and writes a PNG of the walls,\n"
    "targets, the paths of one bullet in 16, every hit point, a laser gate sweeping each room\n"
    "(a capsule 0.1 thick that bullets bounce off) and a laser turning in each room (a ray cast\n"
    "into the world after each step, drawn to its first wall, target or gate).\n"
    "crowd: discs streaming through the doorways of a maze (walls 0.2 thick, doors 1 wide), each\n"
    "steered towards the way out; those that leave come back in. Prints steps per second, the\n"
    "kinetic energy, the deepest overlap between discs and bodies inside a wall (0), and writes a\n"
    "PNG of the walls, the discs coloured by speed and the paths of one in 500. A camera in each\n"
    "room looks at one disc in 10 after every step (a ray cast into the world: seen when no wall\n"
    "and no other disc comes first) and the picture shows the last step's lines of sight.\n"
    "Exits 1 if a body tunnelled (or, with --check, if the paths differ).\n"
    "\n"
    "  --scene S      bullets or crowd\n"
    "  --bullets N    bullets alive at once (default 20000)\n"
    "  --bodies N     the crowd's discs (default 2000)\n"
    "  --steps N      steps (default 300; crowd: 600 of 1/60)\n"
    "  --rooms N      N x N rooms (default 4, at most 5; crowd: 5, at most 8)\n"
    "  --out FILE     the picture (default mink-demo.png; crowd: mink-crowd.png)\n"
    "  --size PIXELS  its width and height (default 1024)\n"
    "  --seed S       seed of the spray, or of the maze and the crowd (default 1)\n"
    "  --backend B    auto (default), scalar or opencl\n"
    "  --device NAME  an OpenCL device whose \"name (platform)\" contains NAME\n"
    "  --check        also run the scene on the scalar path and compare positions and\n"
    "                 events bit for bit after every step\n";

enum { CAT_WALL = 1, CAT_TARGET = 2, CAT_BULLET = 4, CAT_GATE = 8, LIFETIME = 100, BULLET_SHAPES = 3, TRACE = 16 };
#define ARENA 1000.0f
#define THICK 0.1f
#define TARGET_HALF 8.0f
#define TARGET_SPEED 1.5f
#define GATE_SPEED 2.0f
#define GATE_HALF 0.2f /* of a room: the gate's segment is 0.4 rooms long */
#define MARGIN 10.0f /* around the arena in the picture */

typedef struct bullet {
    int32_t room;    /* -1: the slot holds no bullet */
    uint32_t age, shape;
    uint32_t handle; /* the world's name for it (its slot is where it is kept here) */
} bullet;

typedef struct demo {
    mink_world *world[2]; /* the chosen backend, and the scalar path with --check */
    int worlds;
    int rooms;
    float room_size;
    uint32_t wall_shape[2], target_shape, gate_shape, bullet_shape[BULLET_SHAPES];
    float bullet_radius[BULLET_SHAPES];
    size_t cap;           /* slots are below this */
    bullet *bullets;      /* by slot */
    mink_vec2 *pos, *prev, *check_pos;
    uint32_t *targets;    /* handles: each room's target, then each room's gate */
    mink_vec2 *target_vel;
    uint32_t gate_slots[2]; /* the gates' slots: [first, end) */
    size_t gate_hits;
    size_t alive;
    mink_rng rng;
    cli_canvas picture;
    /* the run: its contexts, the last step's events (and the scalar path's, with --check), totals */
    mink_context *ctx[2];
    mink_event *events, *check_events;
    size_t event_cap, nevents;
    size_t contacts, tunnelled, pairs;
    double world_s, shares[4];
    mink_ray *lasers;             /* one a room */
    mink_world_hit *laser_hit[2]; /* their first hits, in each world */
    size_t laser_casts, laser_hits;
    double laser_s;
} demo;

/* ---- the scene ------------------------------------------------------------------------------ */

static int room_of(const demo *d, mink_vec2 p) {
    int rx = (int)floorf(p.x / d->room_size), ry = (int)floorf(p.y / d->room_size);
    if (!(p.x >= 0.0f && p.y >= 0.0f) || rx >= d->rooms || ry >= d->rooms) return -1;
    return ry * d->rooms + rx;
}

static mink_vec2 room_centre(const demo *d, int room) {
    return mink_v2(((float)(room % d->rooms) + 0.5f) * d->room_size, ((float)(room / d->rooms) + 0.5f) * d->room_size);
}

/* Every change goes to each world alike, and each must hand out the same handles. */
static int add_all(demo *d, const mink_world_bodies *b, uint32_t *handles) {
    uint32_t *other = malloc(b->count * sizeof *other + 1);
    int ok = other != NULL;
    for (int w = 0; ok && w < d->worlds; w++)
        ok = mink_world_add(d->world[w], b, w ? other : handles) == MINK_OK &&
             (w == 0 || memcmp(other, handles, b->count * sizeof *other) == 0);
    free(other);
    return ok;
}

static int make_shapes(demo *d) {
    float half = 0.5f * ARENA + 0.5f * THICK;
    mink_shape shapes[4 + BULLET_SHAPES] = {0};
    shapes[0].type = shapes[1].type = shapes[2].type = MINK_SHAPE_AABB;
    shapes[0].geom.aabb = (mink_aabb){{-0.5f * THICK, -half}, {0.5f * THICK, half}}; /* upright wall */
    shapes[1].geom.aabb = (mink_aabb){{-half, -0.5f * THICK}, {half, 0.5f * THICK}}; /* level wall */
    shapes[2].geom.aabb = (mink_aabb){{-TARGET_HALF, -TARGET_HALF}, {TARGET_HALF, TARGET_HALF}};
    float gate = GATE_HALF * d->room_size;
    shapes[3].type = MINK_SHAPE_CAPSULE;
    shapes[3].geom.capsule = (mink_capsule){{-gate, 0.0f}, {gate, 0.0f}, 0.5f * THICK};
    for (int k = 0; k < BULLET_SHAPES; k++) {
        d->bullet_radius[k] = 0.05f + 0.025f * (float)k;
        shapes[4 + k].type = MINK_SHAPE_CIRCLE;
        shapes[4 + k].geom.circle.radius = d->bullet_radius[k];
    }
    uint32_t ids[4 + BULLET_SHAPES];
    for (int w = 0; w < d->worlds; w++)
        if (mink_world_add_shapes(d->world[w], shapes, 4 + BULLET_SHAPES, ids) != MINK_OK) return 0;
    d->wall_shape[0] = ids[0];
    d->wall_shape[1] = ids[1];
    d->target_shape = ids[2];
    d->gate_shape = ids[3];
    for (int k = 0; k < BULLET_SHAPES; k++) d->bullet_shape[k] = ids[4 + k];
    return 1;
}

static int add_walls_and_targets(demo *d) {
    int n = d->rooms + 1, rooms = d->rooms * d->rooms;
    uint32_t shape[64], cat[64], mask[64], handles[64];
    mink_vec2 pos[64], vel[64] = {{0}};
    float inv_mass[64] = {0};
    int k = 0;
    for (int i = 0; i < n; i++) {
        float at = (float)i * d->room_size;
        pos[k] = mink_v2(at, 0.5f * ARENA), shape[k++] = d->wall_shape[0];
        pos[k] = mink_v2(0.5f * ARENA, at), shape[k++] = d->wall_shape[1];
    }
    for (int i = 0; i < k; i++) cat[i] = CAT_WALL, mask[i] = CAT_BULLET;
    int walls = k;
    for (int r = 0; r < rooms; r++, k++) {
        mink_vec2 c = room_centre(d, r);
        pos[k] = mink_v2(c.x, c.y + 0.25f * d->room_size);
        vel[k] = mink_v2(r % 2 ? TARGET_SPEED : -TARGET_SPEED, 0.0f);
        shape[k] = d->target_shape, cat[k] = CAT_TARGET, mask[k] = CAT_BULLET;
    }
    for (int r = 0; r < rooms; r++, k++) { /* the gates, in the rooms' lower halves */
        mink_vec2 c = room_centre(d, r);
        pos[k] = mink_v2(c.x, c.y - (0.15f + 0.2f * (float)(r % 3) / 2.0f) * d->room_size);
        vel[k] = mink_v2(0.0f, r % 2 ? -GATE_SPEED : GATE_SPEED);
        shape[k] = d->gate_shape, cat[k] = CAT_GATE, mask[k] = CAT_BULLET;
    }
    mink_world_bodies b = {.count = (size_t)k, .shape = shape, .position = pos, .velocity = vel,
                           .inv_mass = inv_mass, .category = cat, .mask = mask};
    if (!add_all(d, &b, handles)) return 0;
    for (int r = 0; r < 2 * rooms; r++) {
        d->targets[r] = handles[walls + r];
        d->target_vel[r] = vel[walls + r];
    }
    d->gate_slots[0] = mink_world_slot(handles[walls + rooms]);
    d->gate_slots[1] = mink_world_slot(handles[walls + 2 * rooms - 1]) + 1;
    return 1;
}

/* Old bullets go; new ones replace them, sprayed from each room's emitter in a turning fan. */
static int churn(demo *d, size_t bullets, size_t step) {
    uint32_t *gone = malloc(d->cap * sizeof *gone);
    size_t ngone = 0;
    if (!gone) return 0;
    for (size_t h = 0; h < d->cap; h++)
        if (d->bullets[h].room >= 0 && d->bullets[h].age >= LIFETIME) gone[ngone++] = d->bullets[h].handle;
    int ok = 1;
    for (int w = 0; ok && ngone && w < d->worlds; w++) ok = mink_world_remove(d->world[w], gone, ngone) == MINK_OK;
    for (size_t i = 0; i < ngone; i++) d->bullets[mink_world_slot(gone[i])].room = -1;
    d->alive -= ngone;
    free(gone);

    size_t rate = bullets / LIFETIME + 1, want = bullets - d->alive < rate ? bullets - d->alive : rate;
    if (!ok || want == 0) return ok;
    uint32_t *shape = malloc(want * sizeof *shape), *handles = malloc(want * sizeof *handles);
    uint32_t *response = malloc(want * sizeof *response), *cat = malloc(want * sizeof *cat), *mask = malloc(want * sizeof *mask);
    mink_vec2 *pos = malloc(want * sizeof *pos), *vel = malloc(want * sizeof *vel);
    int *room = malloc(want * sizeof *room);
    ok = shape && handles && response && cat && mask && pos && vel && room;
    int rooms = d->rooms * d->rooms;
    for (size_t i = 0; ok && i < want; i++) {
        room[i] = (int)(i % (size_t)rooms);
        float angle = 0.05f * (float)step + 2.399963f * (float)(i / (size_t)rooms); /* golden angle */
        float speed = mink_rng_float(&d->rng, 2.0f, 10.0f);
        mink_vec2 c = room_centre(d, room[i]), dir = mink_v2(cosf(angle), sinf(angle));
        pos[i] = mink_v2(c.x + dir.x, c.y + dir.y);
        vel[i] = mink_v2(speed * dir.x, speed * dir.y);
        shape[i] = mink_rng_u32(&d->rng) % BULLET_SHAPES;
        response[i] = MINK_RESPONSE_BOUNCE, cat[i] = CAT_BULLET, mask[i] = CAT_WALL | CAT_TARGET | CAT_GATE;
    }
    uint32_t *shape_ids = malloc(want * sizeof *shape_ids);
    ok = ok && shape_ids;
    for (size_t i = 0; ok && i < want; i++) shape_ids[i] = d->bullet_shape[shape[i]];
    mink_world_bodies b = {.count = want, .shape = shape_ids, .position = pos, .velocity = vel,
                           .response = response, .category = cat, .mask = mask};
    ok = ok && add_all(d, &b, handles);
    for (size_t i = 0; ok && i < want; i++) {
        uint32_t slot = mink_world_slot(handles[i]);
        if (slot >= d->cap) { ok = 0; break; }
        d->bullets[slot] = (bullet){.room = room[i], .age = 0, .shape = shape[i], .handle = handles[i]};
        d->pos[slot] = pos[i];
    }
    d->alive += ok ? want : 0;
    free(shape), free(shape_ids), free(handles), free(response), free(cat), free(mask), free(pos), free(vel), free(room);
    return ok;
}

/* Every slot's position. */
static int read_positions(demo *d, int w, mink_vec2 *out) {
    size_t slots = mink_world_get_stats(d->world[w]).slots;
    if (slots > d->cap) return 0;
    return mink_world_get(d->world[w], NULL, slots, out, NULL) == MINK_OK;
}

/* Targets turn round before they reach their room's walls; gates before the wall below them or
 * the emitter above. */
static int steer_targets(demo *d) {
    int rooms = d->rooms * d->rooms;
    for (int r = 0; r < rooms; r++) {
        float x = d->pos[mink_world_slot(d->targets[r])].x, lo = (float)(r % d->rooms) * d->room_size + 2.0f * TARGET_HALF;
        float hi = lo + d->room_size - 4.0f * TARGET_HALF;
        if ((x < lo && d->target_vel[r].x < 0.0f) || (x > hi && d->target_vel[r].x > 0.0f))
            d->target_vel[r].x = -d->target_vel[r].x;
        mink_vec2 *v = &d->target_vel[rooms + r];
        float y = d->pos[mink_world_slot(d->targets[rooms + r])].y, bottom = (float)(r / d->rooms) * d->room_size;
        if ((y < bottom + 0.05f * d->room_size && v->y < 0.0f) || (y > bottom + 0.4f * d->room_size && v->y > 0.0f))
            v->y = -v->y;
    }
    mink_world_bodies b = {.count = 2 * (size_t)rooms, .velocity = d->target_vel};
    for (int w = 0; w < d->worlds; w++)
        if (mink_world_set(d->world[w], d->targets, &b) != MINK_OK) return 0;
    return 1;
}

static const float PATH_RGB[3] = {0.02f, 0.06f, 0.10f}, HIT_RGB[3] = {0.9f, 0.15f, 0.03f},
                   TARGET_PATH_RGB[3] = {0.25f, 0.15f, 0.0f}, TUNNEL_RGB[3] = {4.0f, 0.0f, 4.0f},
                   LASER_RGB[3] = {1.6f, 0.0f, 0.9f}, GATE_RGB[3] = {0.0f, 1.2f, 1.6f},
                   GATE_TRAIL_RGB[3] = {0.0f, 0.05f, 0.07f};

/* A gate's capsule where it stands: its segment, and its ends' disks. */
static void draw_gate(demo *d, mink_vec2 p, const float rgb[3]) {
    float half = GATE_HALF * d->room_size;
    cli_canvas_line(&d->picture, mink_v2(p.x - half, p.y), mink_v2(p.x + half, p.y), rgb);
    cli_canvas_disc(&d->picture, mink_v2(p.x - half, p.y), 0.5f * THICK, rgb);
    cli_canvas_disc(&d->picture, mink_v2(p.x + half, p.y), 0.5f * THICK, rgb);
}

/* Each room's laser, turning a little every step from below and right of its centre (clear of the
 * gate's sweep), two rooms long: cast into every world (walls, targets and gates stop it, bullets
 * do not), drawn every fourth step to where it stops. With --check the two worlds' hits must be
 * the same bits. 0 after a message. */
static int cast_lasers(demo *d, size_t step) {
    size_t n = (size_t)d->rooms * (size_t)d->rooms;
    const mink_world_filter sees = {.category = CAT_BULLET, .mask = CAT_WALL | CAT_TARGET | CAT_GATE};
    for (size_t r = 0; r < n; r++) {
        float a = (float)step * 0.021f + (float)r * 2.4f, len = 2.0f * d->room_size;
        mink_vec2 c = room_centre(d, (int)r); /* in the room's lower half, beside the gate's sweep */
        d->lasers[r] = (mink_ray){mink_v2(c.x + 0.3f * d->room_size, c.y - 0.3f * d->room_size),
                                  mink_v2(len * cosf(a), len * sinf(a))};
    }
    double t0 = cli_now_s();
    for (int w = 0; w < d->worlds; w++)
        if (mink_world_cast_rays(d->world[w], d->lasers, n, &sees, d->laser_hit[w]) != MINK_OK)
            return fprintf(stderr, "mink: demo: %s\n", mink_last_error()), 0;
    d->laser_s += cli_now_s() - t0;
    if (d->worlds == 2 && memcmp(d->laser_hit[0], d->laser_hit[1], n * sizeof *d->laser_hit[0]) != 0)
        return fprintf(stderr, "mink: demo: the lasers' hits differ between the paths at step %zu\n", step), 0;
    for (size_t r = 0; r < n; r++) {
        const mink_world_hit *h = &d->laser_hit[0][r];
        float t = h->hit.flags ? h->hit.t : 1.0f;
        d->laser_casts++, d->laser_hits += h->hit.flags != 0;
        mink_vec2 o = d->lasers[r].origin, v = d->lasers[r].translation;
        if (step % 4 == 0) cli_canvas_line(&d->picture, o, mink_v2(o.x + v.x * t, o.y + v.y * t), LASER_RGB);
    }
    return 1;
}

/* The traced bullets' paths: from where each was, through each contact, to where it is. */
static void draw_step(demo *d, const mink_event *events, size_t nevents, size_t step) {
    size_t e = 0;
    /* events are sorted by t, not by body: walk them once, drawing each traced body's chain */
    mink_vec2 *at = d->check_pos; /* scratch: the last drawn point of each slot */
    for (size_t h = 0; h < d->cap; h++) at[h] = d->prev[h];
    for (e = 0; e < nevents; e++) {
        const mink_event *ev = &events[e];
        cli_canvas_dot(&d->picture, ev->point, 0, HIT_RGB);
        uint32_t met = mink_world_slot(ev->body_b);
        d->gate_hits += met >= d->gate_slots[0] && met < d->gate_slots[1];
        uint32_t h = mink_world_slot(ev->body_a);
        if (h >= d->cap || d->bullets[h].room < 0 || h % TRACE) continue;
        float r = d->bullet_radius[d->bullets[h].shape];
        mink_vec2 c = mink_v2(ev->point.x + ev->normal.x * r, ev->point.y + ev->normal.y * r);
        cli_canvas_line(&d->picture, at[h], c, PATH_RGB);
        at[h] = c;
    }
    for (size_t h = 0; h < d->cap; h += TRACE)
        if (d->bullets[h].room >= 0) cli_canvas_line(&d->picture, at[h], d->pos[h], PATH_RGB);
    int rooms = d->rooms * d->rooms;
    for (int r = 0; r < rooms; r++) {
        uint32_t t = mink_world_slot(d->targets[r]);
        cli_canvas_line(&d->picture, d->prev[t], d->pos[t], TARGET_PATH_RGB);
        if (step % 8 == 0) draw_gate(d, d->pos[mink_world_slot(d->targets[rooms + r])], GATE_TRAIL_RGB);
    }
}

static int write_picture(demo *d, const char *path) {
    static const float WALL_RGB[3] = {0.5f, 0.5f, 0.5f}, TARGET_RGB[3] = {3.0f, 1.2f, 0.0f};
    float half = 0.5f * THICK;
    for (int i = 0; i <= d->rooms; i++) {
        float at = (float)i * d->room_size;
        cli_canvas_box(&d->picture, mink_v2(at - half, -half), mink_v2(at + half, ARENA + half), WALL_RGB);
        cli_canvas_box(&d->picture, mink_v2(-half, at - half), mink_v2(ARENA + half, at + half), WALL_RGB);
    }
    int rooms = d->rooms * d->rooms;
    for (int r = 0; r < rooms; r++) {
        mink_vec2 p = d->pos[mink_world_slot(d->targets[r])];
        cli_canvas_box(&d->picture, mink_v2(p.x - TARGET_HALF, p.y - TARGET_HALF), mink_v2(p.x + TARGET_HALF, p.y + TARGET_HALF), TARGET_RGB);
        draw_gate(d, d->pos[mink_world_slot(d->targets[rooms + r])], GATE_RGB);
    }
    return cli_canvas_write(&d->picture, path, "demo");
}

/* ---- the command ---------------------------------------------------------------------------- */

typedef cli_demo_options demo_options;

/* MINK_EXIT_OK to go on, or the exit code (help shown, or a usage error). Both scenes' options. */
static int demo_parse(int argc, char **argv, demo_options *o) {
    static const cli_option table[] = {{"--scene", 1}, {"--bullets", 1}, {"--bodies", 1}, {"--steps", 1},
                                       {"--rooms", 1}, {"--out", 1},     {"--size", 1},   {"--seed", 1},
                                       {"--backend", 1}, {"--device", 1}, {"--check", 0},  {NULL, 0}};
    cli_args args = {.command = "demo", .usage = cli_demo_usage, .table = table, .argc = argc, .argv = argv};
    for (const char *val;;) {
        int code, k = cli_next_option(&args, &val, &code);
        if (k == CLI_END) break;
        if (k == CLI_STOP) return code == MINK_EXIT_OK ? -1 : code;
        const char *name = table[k].name;
        if (!strcmp(name, "--bullets") || !strcmp(name, "--bodies")) {
            if (!cli_count_option("demo", name, val, 1, 2e6, &o->count)) return MINK_EXIT_USAGE;
        } else if (!strcmp(name, "--steps")) {
            if (!cli_count_option("demo", name, val, 1, 1e6, &o->steps)) return MINK_EXIT_USAGE;
        } else if (!strcmp(name, "--rooms")) {
            if (!cli_count_option("demo", name, val, 1, 8, &o->rooms)) return MINK_EXIT_USAGE;
        } else if (!strcmp(name, "--size")) {
            if (!cli_count_option("demo", name, val, 16, 8192, &o->size)) return MINK_EXIT_USAGE;
        } else if (!strcmp(name, "--seed")) {
            if (!cli_seed_option("demo", val, &o->seed)) return MINK_EXIT_USAGE;
        } else if (!strcmp(name, "--backend")) {
            if (!cli_parse_backend(val, &o->desc.backend))
                return cli_usage_error("demo", "--backend is auto, scalar or opencl, not '%s'", val);
        } else if (!strcmp(name, "--device")) {
            o->desc.device = val;
        } else if (!strcmp(name, "--out")) {
            o->out = val;
        } else if (!strcmp(name, "--scene")) {
            if (strcmp(val, "bullets") != 0 && strcmp(val, "crowd") != 0)
                return cli_usage_error("demo", "--scene is bullets or crowd, not '%s'", val);
            o->crowd = !strcmp(val, "crowd");
        } else {
            o->check = 1;
        }
    }
    if (!o->crowd && o->rooms > 5) return cli_usage_error("demo", "--rooms is at most 5 for bullets, not %zu", o->rooms);
    /* Each scene's defaults. */
    if (!o->count) o->count = o->crowd ? 2000 : 20000;
    if (!o->steps) o->steps = o->crowd ? 600 : 300;
    if (!o->rooms) o->rooms = o->crowd ? 5 : 4;
    if (!o->out) o->out = o->crowd ? "mink-crowd.png" : "mink-demo.png";
    return MINK_EXIT_OK;
}

/* The arrays, the contexts and worlds, the walls and targets. 0 after its message. */
static int demo_setup(demo *d, const demo_options *o) {
    size_t rooms = o->rooms, size = o->size;
    *d = (demo){.worlds = o->check ? 2 : 1, .rooms = (int)rooms, .room_size = ARENA / (float)rooms,
                .rng = mink_rng_seed(o->seed)};
    d->cap = o->count + 64;
    d->bullets = malloc(d->cap * sizeof *d->bullets);
    d->pos = calloc(d->cap, sizeof *d->pos);
    d->prev = malloc(d->cap * sizeof *d->prev);
    d->check_pos = malloc(d->cap * sizeof *d->check_pos);
    d->targets = malloc(2 * rooms * rooms * sizeof *d->targets);
    d->target_vel = malloc(2 * rooms * rooms * sizeof *d->target_vel);
    d->lasers = malloc(rooms * rooms * sizeof *d->lasers);
    d->laser_hit[0] = malloc(rooms * rooms * sizeof *d->laser_hit[0]);
    d->laser_hit[1] = malloc(rooms * rooms * sizeof *d->laser_hit[1]);
    int drawn = cli_canvas_init(&d->picture, (int)size, mink_v2(-MARGIN, -MARGIN), ARENA + 2.0f * MARGIN);
    if (!d->bullets || !d->pos || !d->prev || !d->check_pos || !d->targets || !d->target_vel || !d->lasers ||
        !d->laser_hit[0] || !d->laser_hit[1] || !drawn)
        return fprintf(stderr, "mink: demo: out of memory\n"), 0;
    for (size_t h = 0; h < d->cap; h++) d->bullets[h] = (bullet){.room = -1};
    int ok = mink_context_create(&o->desc, &d->ctx[0]) == MINK_OK &&
             (!o->check || mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &d->ctx[1]) == MINK_OK);
    if (ok && mink_context_error(d->ctx[0])[0]) fprintf(stderr, "mink: note: %s\n", mink_context_error(d->ctx[0]));
    for (int w = 0; ok && w < d->worlds; w++)
        ok = mink_world_create(d->ctx[w], &(mink_world_desc){.initial_bodies = d->cap}, &d->world[w]) == MINK_OK;
    ok = ok && make_shapes(d) && add_walls_and_targets(d) && read_positions(d, 0, d->pos);
    if (!ok) fprintf(stderr, "mink: demo: %s\n", mink_last_error());
    return ok;
}

/* The last step's events into d->events (and the scalar world's, with --check). 0 after a message. */
static int read_events(demo *d) {
    size_t n = 0, n2 = 0;
    if (mink_world_events(d->world[0], NULL, 0, &n) != MINK_OK) return fprintf(stderr, "mink: demo: %s\n", mink_last_error()), 0;
    if (n > d->event_cap) {
        d->event_cap = n * 2;
        free(d->events), free(d->check_events);
        d->events = malloc(d->event_cap * sizeof *d->events);
        d->check_events = malloc(d->event_cap * sizeof *d->check_events);
        if (!d->events || !d->check_events) return fprintf(stderr, "mink: demo: out of memory for %zu events\n", n), 0;
    }
    int ok = n == 0 || mink_world_events(d->world[0], d->events, d->event_cap, &n) == MINK_OK;
    ok = ok && (d->worlds < 2 || mink_world_events(d->world[1], d->check_events, d->event_cap, &n2) == MINK_OK);
    if (!ok) return fprintf(stderr, "mink: demo: %s\n", mink_last_error()), 0;
    if (d->worlds == 2 && (n2 != n || (n && memcmp(d->events, d->check_events, n * sizeof *d->events))))
        return printf("MISMATCH: events differ from the scalar path (%zu vs %zu)\n", n, n2), 0;
    d->nevents = n;
    d->contacts += n;
    return 1;
}

/* With --check: every bullet where the scalar world has it, bit for bit. */
static int same_positions(demo *d, size_t step) {
    if (d->worlds < 2) return 1;
    if (!read_positions(d, 1, d->check_pos)) return fprintf(stderr, "mink: demo: %s\n", mink_last_error()), 0;
    for (size_t h = 0; h < d->cap; h++)
        if (d->bullets[h].room >= 0 && memcmp(&d->pos[h], &d->check_pos[h], sizeof d->pos[h]))
            return printf("MISMATCH at step %zu, body %zu: (%a, %a) vs scalar (%a, %a)\n", step, h, (double)d->pos[h].x,
                          (double)d->pos[h].y, (double)d->check_pos[h].x, (double)d->check_pos[h].y),
                   0;
    return 1;
}

/* A bullet outside its room went through a wall: counted, and marked in the picture. */
static void count_tunnelled(demo *d) {
    for (size_t h = 0; h < d->cap; h++) {
        if (d->bullets[h].room < 0) continue;
        d->bullets[h].age++;
        if (room_of(d, d->pos[h]) != d->bullets[h].room) {
            d->tunnelled++;
            cli_canvas_dot(&d->picture, d->pos[h], 3, TUNNEL_RGB);
            d->bullets[h].room = room_of(d, d->pos[h]) >= 0 ? room_of(d, d->pos[h]) : d->bullets[h].room;
        }
    }
}

/* One step of every world, checked, drawn and counted. 0 after a message. */
static int demo_step(demo *d, const demo_options *o, size_t step) {
    if (!churn(d, o->count, step) || !steer_targets(d)) return fprintf(stderr, "mink: demo: %s\n", mink_last_error()), 0;
    memcpy(d->prev, d->pos, d->cap * sizeof *d->pos);
    double t0 = cli_now_s();
    for (int w = 0; w < d->worlds; w++)
        if (mink_world_step(d->world[w], 1.0f) != MINK_OK) return fprintf(stderr, "mink: demo: %s\n", mink_last_error()), 0;
    if (!read_positions(d, 0, d->pos)) return fprintf(stderr, "mink: demo: %s\n", mink_last_error()), 0;
    d->world_s += cli_now_s() - t0;
    mink_world_stats st = mink_world_get_stats(d->world[0]);
    d->shares[0] += st.broadphase_ms, d->shares[1] += st.narrowphase_ms, d->shares[2] += st.resolution_ms;
    d->shares[3] += st.bounds_ms + st.transfer_ms, d->pairs += st.pairs;
    if (!read_events(d) || !same_positions(d, step)) return 0;
    draw_step(d, d->events, d->nevents, step);
    count_tunnelled(d);
    return cast_lasers(d, step);
}

static void demo_report(const demo *d, const demo_options *o) {
    double steps = (double)o->steps;
    printf("steps: %zu, %.1f steps/s (%.2f ms a step in the world, positions read back)\n", o->steps,
           steps / d->world_s, d->world_s * 1e3 / steps);
    printf("  per step: %zu candidate pairs; broadphase %.2f ms, narrowphase %.2f, resolution %.2f, bounds and "
           "transfers %.2f\n",
           d->pairs / o->steps, d->shares[0] / steps, d->shares[1] / steps, d->shares[2] / steps, d->shares[3] / steps);
    printf("contacts: %zu\n", d->contacts);
    printf("laser gates: %d capsules %.1f thick sweeping the rooms, met by bullets %zu times\n", d->rooms * d->rooms,
           (double)THICK, d->gate_hits);
    printf("lasers: %zu cast, %zu stopped by a wall, a target or a gate (%.3f ms a step)\n", d->laser_casts,
           d->laser_hits, d->laser_s * 1e3 / steps);
    printf("tunnelled: %zu\n", d->tunnelled);
    if (o->check) printf("bit-identical to the scalar path: yes\n");
}

int cli_demo(int argc, char **argv) {
    demo_options o = {.size = 1024, .seed = 1};
    int parsed = demo_parse(argc, argv, &o);
    if (parsed != MINK_EXIT_OK) return parsed == -1 ? MINK_EXIT_OK : parsed;
    if (o.crowd) return cli_demo_crowd(&o); /* a scene of its own: crowd.c */
    static demo d; /* the bullets' and the picture's arrays are the demo's; one a process */
    int rc = MINK_EXIT_FAILURE, ok = demo_setup(&d, &o);
    if (ok) {
        printf("device: %s\n", mink_context_device(d.ctx[0]));
        printf("scene: %zux%zu rooms of walls %.1f thick, %zu bullets (radius 0.05 to 0.1, 2 to 10 units a step: up "
               "to 100 wall thicknesses), %zu moving targets and laser gates\n",
               o.rooms, o.rooms, (double)THICK, o.count, o.rooms * o.rooms);
        fflush(stdout);
    }
    for (size_t step = 0; ok && step < o.steps; step++) ok = demo_step(&d, &o, step);
    if (ok) demo_report(&d, &o);
    if (ok && write_picture(&d, o.out)) {
        printf("picture: %s (%zux%zu)\n", o.out, o.size, o.size);
        rc = d.tunnelled ? MINK_EXIT_FAILURE : MINK_EXIT_OK;
        if (d.tunnelled) fprintf(stderr, "mink: demo: %zu bullets tunnelled through a wall\n", d.tunnelled);
    }
    for (int w = 0; w < 2; w++) mink_world_destroy(d.world[w]);
    for (int w = 0; w < 2; w++) mink_context_destroy(d.ctx[w]);
    free(d.bullets), free(d.pos), free(d.prev), free(d.check_pos), free(d.targets), free(d.target_vel);
    free(d.lasers), free(d.laser_hit[0]), free(d.laser_hit[1]);
    cli_canvas_free(&d.picture);
    free(d.events), free(d.check_events);
    return rc;
}
