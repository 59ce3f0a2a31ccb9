/* cli/crowd.c — `mink demo --scene crowd`: a crowd streaming through the doorways of a maze.
 *
 * A maze of square rooms, walls 0.2 thick, doorways 1 unit wide (every room reachable, a few
 * loops); an open strip before it and after it. Discs of radius 0.08 to 0.12 (dynamic, inverse
 * mass 1, SLIDE: they press and slide on each other and on the walls) are steered each step
 * towards the doorway that leads their room on to the exit (the velocity eased towards 1.5 units a
 * second), and those that leave the maze come back at its entrance, so the stream never ends.
 * Counts bodies inside a wall (tunnelled: there must be none), the deepest overlap between two
 * discs, the kinetic energy, and draws the walls, the discs coloured by speed and a few paths.
 * Lines of sight: a camera in a corner of each room looks at one disc in SIGHT after every step,
 * a ray cast into the world from the camera to the disc's centre (mink_world_cast_rays); the disc
 * is seen when the ray's first hit is that disc, no wall and no other disc before it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "cli.h"
#include "mink/sample.h"
#include "mink/world.h"

#define ROOM 8.0f
#define THICK 0.2f
#define DOOR 1.0f
#define STRIP 4.0f /* the open strips before and after the maze */
#define SPEED 1.5f
#define DT (1.0f / 60.0f)
#define NEVER ((size_t)-1)
enum { MAX_ROOMS = 8, MAX_WALLS = 4 * (MAX_ROOMS + 1) * (MAX_ROOMS + 1) + 8, TRACE = 500, SIGHT = 10 };

typedef struct crowd {
    int rooms;
    float side; /* the maze's */
    mink_aabb wall[MAX_WALLS];
    size_t walls;
    mink_vec2 next[MAX_ROOMS][MAX_ROOMS], through[MAX_ROOMS][MAX_ROOMS]; /* each room's way on: door, direction */
    float entry[MAX_ROOMS];                                              /* the entrance doors' centres (y) */
    mink_world *world[2];
    mink_context *ctx[2];
    int worlds;
    size_t n;
    uint32_t *handles[2];
    float *radius;
    mink_vec2 *pos, *vel, *prev, *check;
    size_t *born; /* the step each disc last came in at the entrance, NEVER if it has not */
    size_t steps;
    mink_rng rng;
    size_t through_count, tunnelled;
    double world_s, deepest;
    /* lines of sight: rays[camera * watched + k] from a camera to disc k * SIGHT, their hits */
    mink_vec2 camera[MAX_ROOMS * MAX_ROOMS];
    size_t cameras, watched;
    mink_ray *rays;
    mink_world_hit *sight[2];
    size_t sight_casts, seen;
    double sight_s;
} crowd;

/* ---- the maze --------------------------------------------------------------------------------- */

static void add_wall(crowd *c, mink_vec2 lo, mink_vec2 hi) {
    if (hi.x - lo.x > 1e-3f && hi.y - lo.y > 1e-3f && c->walls < MAX_WALLS) c->wall[c->walls++] = (mink_aabb){lo, hi};
}

/* A wall segment from a to b along x (horizontal) or y, with a door centred at `door` (NAN: none). */
static void add_segment(crowd *c, int horizontal, float at, float a, float b, float door) {
    float h = 0.5f * THICK, lo = isnan(door) ? b + h : door - 0.5f * DOOR, hi = isnan(door) ? b + h : door + 0.5f * DOOR;
    if (horizontal) {
        add_wall(c, mink_v2(a - h, at - h), mink_v2(lo, at + h));
        add_wall(c, mink_v2(hi, at - h), mink_v2(b + h, at + h));
    } else {
        add_wall(c, mink_v2(at - h, a - h), mink_v2(at + h, lo));
        add_wall(c, mink_v2(at - h, hi), mink_v2(at + h, b + h));
    }
}

/* The maze: a random spanning tree of the rooms (every room reachable) and one edge in five more;
 * each room's way on found backwards from the exits (a door in every row of the right side). */
static void build_maze(crowd *c) {
    int R = c->rooms, open_x[MAX_ROOMS + 1][MAX_ROOMS] = {{0}}, open_y[MAX_ROOMS][MAX_ROOMS + 1] = {{0}};
    int seen[MAX_ROOMS][MAX_ROOMS] = {{0}}, stack[MAX_ROOMS * MAX_ROOMS], top = 0;
    float door_x[MAX_ROOMS + 1][MAX_ROOMS], door_y[MAX_ROOMS][MAX_ROOMS + 1];
    for (int i = 0; i <= R; i++)
        for (int j = 0; j < R; j++) door_x[i][j] = (float)j * ROOM + mink_rng_float(&c->rng, 1.0f, ROOM - 1.0f);
    for (int i = 0; i < R; i++)
        for (int j = 0; j <= R; j++) door_y[i][j] = (float)i * ROOM + mink_rng_float(&c->rng, 1.0f, ROOM - 1.0f);
    stack[top++] = 0, seen[0][0] = 1;
    while (top > 0) { /* depth first, from room (0, 0) */
        int r = stack[top - 1], i = r % R, j = r / R, options[4], n = 0;
        if (i > 0 && !seen[i - 1][j]) options[n++] = 0;
        if (i < R - 1 && !seen[i + 1][j]) options[n++] = 1;
        if (j > 0 && !seen[i][j - 1]) options[n++] = 2;
        if (j < R - 1 && !seen[i][j + 1]) options[n++] = 3;
        if (n == 0) {
            top--;
            continue;
        }
        int o = options[mink_rng_u32(&c->rng) % (uint32_t)n];
        int ni = i + (o == 0 ? -1 : o == 1 ? 1 : 0), nj = j + (o == 2 ? -1 : o == 3 ? 1 : 0);
        if (o < 2) open_x[o == 0 ? i : i + 1][j] = 1;
        else open_y[i][o == 2 ? j : j + 1] = 1;
        seen[ni][nj] = 1;
        stack[top++] = nj * R + ni;
    }
    for (int i = 1; i < R; i++)
        for (int j = 0; j < R; j++) open_x[i][j] |= mink_rng_u32(&c->rng) % 5u == 0u;
    for (int j = 0; j < R; j++) open_x[0][j] = open_x[R][j] = 1, c->entry[j] = door_x[0][j];
    for (int i = 0; i <= R; i++) /* vertical lines, then horizontal ones */
        for (int j = 0; j < R; j++)
            add_segment(c, 0, (float)i * ROOM, (float)j * ROOM, (float)(j + 1) * ROOM, open_x[i][j] ? door_x[i][j] : NAN);
    for (int j = 0; j <= R; j++)
        for (int i = 0; i < R; i++)
            add_segment(c, 1, (float)j * ROOM, (float)i * ROOM, (float)(i + 1) * ROOM,
                        j > 0 && j < R && open_y[i][j] ? door_y[i][j] : NAN);
    /* The strips: closed above and below and at their far ends. */
    float S = c->side, h = 0.5f * THICK;
    add_wall(c, mink_v2(-STRIP - h, -h), mink_v2(-STRIP + h, S + h));
    add_wall(c, mink_v2(S + STRIP - h, -h), mink_v2(S + STRIP + h, S + h));
    add_wall(c, mink_v2(-STRIP, -h), mink_v2(0.0f, h));
    add_wall(c, mink_v2(-STRIP, S - h), mink_v2(0.0f, S + h));
    add_wall(c, mink_v2(S, -h), mink_v2(S + STRIP, h));
    add_wall(c, mink_v2(S, S - h), mink_v2(S + STRIP, S + h));
    /* Each room's way on: breadth first from the right column (out through its own exit door). */
    int dist[MAX_ROOMS][MAX_ROOMS], queue[MAX_ROOMS * MAX_ROOMS], head = 0, tail = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < R; j++) dist[i][j] = -1;
    for (int j = 0; j < R; j++) {
        dist[R - 1][j] = 0, queue[tail++] = j * R + R - 1;
        c->next[R - 1][j] = mink_v2(S, door_x[R][j]), c->through[R - 1][j] = mink_v2(1.0f, 0.0f);
    }
    while (head < tail) {
        int r = queue[head++], i = r % R, j = r / R;
        const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
        for (int k = 0; k < 4; k++) {
            int ni = i + di[k], nj = j + dj[k];
            if (ni < 0 || nj < 0 || ni >= R || nj >= R || dist[ni][nj] >= 0) continue;
            int open = k < 2 ? open_x[k == 0 ? i : i + 1][j] : open_y[i][k == 2 ? j : j + 1];
            if (!open) continue;
            dist[ni][nj] = dist[i][j] + 1, queue[tail++] = nj * R + ni;
            /* from (ni, nj) through the door into (i, j) */
            c->next[ni][nj] = k < 2 ? mink_v2((float)(k == 0 ? i : i + 1) * ROOM, door_x[k == 0 ? i : i + 1][j])
                                    : mink_v2(door_y[i][k == 2 ? j : j + 1], (float)(k == 2 ? j : j + 1) * ROOM);
            c->through[ni][nj] = mink_v2((float)-di[k], (float)-dj[k]);
        }
    }
}

/* Where a disc at p heads: past the door that leads on from its room (or into the maze, or out). */
static mink_vec2 goal(const crowd *c, mink_vec2 p) {
    if (p.x < 0.0f) {
        int j = (int)fminf(fmaxf(p.y / ROOM, 0.0f), (float)(c->rooms - 1));
        return mink_v2(0.6f, c->entry[j]);
    }
    if (p.x >= c->side) return mink_v2(c->side + 2.0f * STRIP, p.y);
    int i = (int)fminf(p.x / ROOM, (float)(c->rooms - 1)), j = (int)fminf(fmaxf(p.y / ROOM, 0.0f), (float)(c->rooms - 1));
    mink_vec2 d = c->next[i][j], t = c->through[i][j];
    return mink_v2(d.x + t.x * 0.6f, d.y + t.y * 0.6f);
}

static int inside_a_wall(const crowd *c, mink_vec2 p) {
    for (size_t k = 0; k < c->walls; k++) {
        mink_aabb w = c->wall[k];
        if (p.x > w.min.x && p.x < w.max.x && p.y > w.min.y && p.y < w.max.y) return 1;
    }
    return 0;
}

/* Whether a disc of radius r at p keeps 0.05 from every wall. */
static int clear_of_walls(const crowd *c, mink_vec2 p, float r) {
    for (size_t k = 0; k < c->walls; k++) {
        mink_aabb w = c->wall[k];
        if (p.x + r > w.min.x - 0.05f && p.x - r < w.max.x + 0.05f && p.y + r > w.min.y - 0.05f && p.y - r < w.max.y + 0.05f)
            return 0;
    }
    return 1;
}

/* Whether a disc of radius r at p would overlap one of the first n discs (a plain scan: used when
 * placing discs, a few a step). */
static int overlaps_a_disc(const crowd *c, mink_vec2 p, float r, size_t n) {
    for (size_t k = 0; k < n; k++) {
        float dx = c->pos[k].x - p.x, dy = c->pos[k].y - p.y, R = c->radius[k] + r + 0.01f;
        if (dx * dx + dy * dy < R * R) return 1;
    }
    return 0;
}

/* ---- the run ----------------------------------------------------------------------------------- */

typedef cli_demo_options crowd_options;

static int setup(crowd *c, const crowd_options *o) {
    c->rooms = (int)o->rooms, c->side = (float)o->rooms * ROOM, c->n = o->count, c->worlds = o->check ? 2 : 1;
    c->rng = mink_rng_seed(o->seed);
    build_maze(c);
    size_t n = c->n;
    c->radius = malloc(n * sizeof *c->radius);
    c->pos = malloc(n * sizeof *c->pos), c->vel = calloc(n, sizeof *c->vel), c->prev = malloc(n * sizeof *c->prev);
    c->check = malloc(n * sizeof *c->check), c->born = malloc(n * sizeof *c->born);
    c->handles[0] = malloc(n * 4), c->handles[1] = malloc(n * 4);
    uint32_t *shape = malloc(n * 4), *ids = malloc(n * 4), wall_shape[MAX_WALLS], wall_handle[MAX_WALLS], disc[5];
    if (!c->born || !c->radius || !c->pos || !c->vel || !c->prev || !c->check || !c->born || !c->handles[0] || !c->handles[1] ||
        !shape || !ids)
        return free(shape), free(ids), fprintf(stderr, "mink: demo: out of memory\n"), 0;
    int ok = mink_context_create(&o->desc, &c->ctx[0]) == MINK_OK &&
             (!o->check || mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &c->ctx[1]) == MINK_OK);
    if (ok && mink_context_error(c->ctx[0])[0]) fprintf(stderr, "mink: note: %s\n", mink_context_error(c->ctx[0]));
    mink_shape discs[5], walls[MAX_WALLS];
    mink_vec2 wall_pos[MAX_WALLS];
    float wall_inv[MAX_WALLS];
    for (int k = 0; k < 5; k++) discs[k] = (mink_shape){.type = MINK_SHAPE_CIRCLE}, discs[k].geom.circle.radius = 0.08f + 0.01f * (float)k;
    for (size_t k = 0; k < c->walls; k++) { /* each wall its own box, centred on its position */
        mink_aabb w = c->wall[k];
        wall_pos[k] = mink_v2(0.5f * (w.min.x + w.max.x), 0.5f * (w.min.y + w.max.y));
        walls[k] = (mink_shape){.type = MINK_SHAPE_AABB};
        walls[k].geom.aabb = (mink_aabb){mink_v2(w.min.x - wall_pos[k].x, w.min.y - wall_pos[k].y),
                                         mink_v2(w.max.x - wall_pos[k].x, w.max.y - wall_pos[k].y)};
        wall_inv[k] = 0.0f;
    }
    for (size_t k = 0; c->born && k < n; k++) c->born[k] = NEVER;
    for (size_t k = 0; k < n; k++) { /* anywhere clear of the walls, before, in or after the maze */
        uint32_t s = mink_rng_u32(&c->rng) % 5u;
        c->radius[k] = discs[s].geom.circle.radius;
        shape[k] = s;
        do c->pos[k] = mink_v2(mink_rng_float(&c->rng, -STRIP, c->side + STRIP), mink_rng_float(&c->rng, 0.0f, c->side));
        while (!clear_of_walls(c, c->pos[k], c->radius[k]) || overlaps_a_disc(c, c->pos[k], c->radius[k], k));
    }
    for (int w = 0; ok && w < c->worlds; w++) {
        ok = mink_world_create(c->ctx[w], &(mink_world_desc){.initial_bodies = n + c->walls}, &c->world[w]) == MINK_OK &&
             mink_world_add_shapes(c->world[w], discs, 5, disc) == MINK_OK &&
             mink_world_add_shapes(c->world[w], walls, c->walls, wall_shape) == MINK_OK;
        mink_world_bodies wb = {.count = c->walls, .shape = wall_shape, .position = wall_pos, .inv_mass = wall_inv};
        ok = ok && mink_world_add(c->world[w], &wb, wall_handle) == MINK_OK;
        for (size_t k = 0; ok && k < n; k++) ids[k] = disc[shape[k]];
        mink_world_bodies b = {.count = n, .shape = ids, .position = c->pos};
        ok = ok && mink_world_add(c->world[w], &b, c->handles[w]) == MINK_OK;
    }
    free(shape), free(ids);
    if (!ok) fprintf(stderr, "mink: demo: %s\n", mink_last_error());
    c->cameras = (size_t)c->rooms * (size_t)c->rooms, c->watched = (n + SIGHT - 1) / SIGHT;
    for (size_t r = 0; r < c->cameras; r++) /* each in a corner of its room, the corner turning with r */
        c->camera[r] = mink_v2((float)(r % (size_t)c->rooms) * ROOM + ((r & 1u) ? ROOM - 0.4f : 0.4f),
                               (float)(r / (size_t)c->rooms) * ROOM + ((r & 2u) ? ROOM - 0.4f : 0.4f));
    c->rays = malloc(c->cameras * c->watched * sizeof *c->rays);
    c->sight[0] = malloc(c->cameras * c->watched * sizeof *c->sight[0]);
    c->sight[1] = c->worlds == 2 ? malloc(c->cameras * c->watched * sizeof *c->sight[1]) : NULL;
    if (ok && (!c->rays || !c->sight[0] || (c->worlds == 2 && !c->sight[1])))
        return fprintf(stderr, "mink: demo: out of memory\n"), 0;
    return ok;
}

/* Every camera's rays to the watched discs, cast into every world: with --check, the same bits on
 * both paths. 0 after a message. */
static int look(crowd *c) {
    size_t m = c->cameras * c->watched;
    for (size_t r = 0; r < c->cameras; r++)
        for (size_t k = 0; k < c->watched; k++) {
            mink_vec2 o = c->camera[r], p = c->pos[k * SIGHT];
            c->rays[r * c->watched + k] = (mink_ray){o, mink_v2(p.x - o.x, p.y - o.y)};
        }
    for (int w = 0; w < c->worlds; w++) {
        double t0 = cli_now_s();
        if (mink_world_cast_rays(c->world[w], c->rays, m, NULL, c->sight[w]) != MINK_OK)
            return fprintf(stderr, "mink: demo: %s\n", mink_last_error()), 0;
        c->sight_s += w == 0 ? cli_now_s() - t0 : 0.0; /* the device's, not the check's */
    }
    if (c->worlds == 2 && memcmp(c->sight[0], c->sight[1], m * sizeof *c->sight[0]) != 0)
        return printf("MISMATCH: lines of sight differ from the scalar path\n"), 0;
    c->sight_casts += m;
    for (size_t i = 0; i < m; i++) c->seen += c->sight[0][i].body == c->handles[0][(i % c->watched) * SIGHT];
    return 1;
}

/* Steers every disc, sends those past the exit strip back to the entrance, steps every world. */
static int step(crowd *c) {
    size_t n = c->n;
    if (mink_world_get(c->world[0], c->handles[0], n, c->pos, c->vel) != MINK_OK) return 0;
    for (size_t k = 0; k < n; k++) {
        mink_vec2 p = c->pos[k], g = goal(c, p), v = c->vel[k];
        if (p.x > c->side + 0.6f * STRIP) { /* out: back in at the entrance, on its way */
            c->through_count++;
            int tries = 0;
            do p = mink_v2(-STRIP + mink_rng_float(&c->rng, 0.3f, 1.5f), mink_rng_float(&c->rng, 0.3f, c->side - 0.3f));
            while ((!clear_of_walls(c, p, c->radius[k]) || overlaps_a_disc(c, p, c->radius[k], n)) && ++tries < 100);
            c->pos[k] = p, v = mink_v2(SPEED, 0.0f), g = goal(c, p), c->born[k] = c->steps;
        }
        float dx = g.x - p.x, dy = g.y - p.y, len = sqrtf(dx * dx + dy * dy) + 1e-6f;
        c->vel[k] = mink_v2(v.x + (SPEED * dx / len - v.x) * 0.1f, v.y + (SPEED * dy / len - v.y) * 0.1f);
    }
    memcpy(c->prev, c->pos, n * sizeof *c->pos);
    c->steps++;
    double t0 = cli_now_s();
    for (int w = 0; w < c->worlds; w++) {
        mink_world_bodies set = {.count = n, .position = c->pos, .velocity = c->vel};
        if (mink_world_set(c->world[w], c->handles[w], &set) != MINK_OK || mink_world_step(c->world[w], DT) != MINK_OK)
            return 0;
    }
    if (mink_world_get(c->world[0], c->handles[0], n, c->pos, c->vel) != MINK_OK) return 0;
    c->world_s += cli_now_s() - t0;
    if (c->worlds == 2) {
        if (mink_world_get(c->world[1], c->handles[1], n, c->check, NULL) != MINK_OK) return 0;
        if (memcmp(c->pos, c->check, n * sizeof *c->pos) != 0) return printf("MISMATCH: positions differ from the scalar path\n"), -1;
    }
    for (size_t k = 0; k < n; k++) c->tunnelled += (size_t)inside_a_wall(c, c->pos[k]); /* moving 0.04 a step at most: a
                                                                                            crossing ends a step inside */
    return 1;
}

static const crowd *sort_crowd;
static int by_left(const void *a, const void *b) {
    const crowd *c = sort_crowd;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    float x = c->pos[i].x - c->radius[i], y = c->pos[j].x - c->radius[j];
    return (x > y) - (x < y);
}

/* The deepest overlap between two discs, as a fraction of the smaller radius; not counting discs
 * put back at the entrance in the last 60 steps (put down anywhere, they may overlap others: the
 * world pushes them apart in a few steps). */
static double deepest(const crowd *c) {
    size_t *order = malloc(c->n * sizeof *order);
    double most = 0.0;
    if (order == NULL) return -1.0;
    for (size_t k = 0; k < c->n; k++) order[k] = k;
    sort_crowd = c;
    qsort(order, c->n, sizeof *order, by_left);
    for (size_t a = 0; a < c->n; a++)
        for (size_t b = a + 1; b < c->n && c->pos[order[b]].x - c->radius[order[b]] < c->pos[order[a]].x + c->radius[order[a]]; b++) {
            size_t i = order[a], j = order[b];
            if ((c->born[i] != NEVER && c->born[i] + 60 > c->steps) || (c->born[j] != NEVER && c->born[j] + 60 > c->steps))
                continue;
            double d = c->radius[i] + c->radius[j] - hypot((double)c->pos[i].x - c->pos[j].x, (double)c->pos[i].y - c->pos[j].y);
            most = fmax(most, d / fmin(c->radius[i], c->radius[j]));
        }
    free(order);
    return most;
}

static void draw(const crowd *c, cli_canvas *pic, int paths) {
    static const float WALL_RGB[3] = {0.6f, 0.6f, 0.6f}, PATH_RGB[3] = {1.5f, 1.5f, 1.5f};
    static const float SIGHT_RGB[3] = {1.2f, 1.0f, 0.2f};
    if (paths) {
        for (size_t k = 0; k < c->n; k += TRACE)
            if (fabsf(c->pos[k].x - c->prev[k].x) < 1.0f) cli_canvas_line(pic, c->prev[k], c->pos[k], PATH_RGB);
        return;
    }
    for (size_t k = 0; k < c->walls; k++) cli_canvas_box(pic, c->wall[k].min, c->wall[k].max, WALL_RGB);
    for (size_t i = 0; i < c->cameras * c->watched; i++) /* the last step's lines of sight */
        if (c->sight[0][i].body == c->handles[0][(i % c->watched) * SIGHT])
            cli_canvas_line(pic, c->rays[i].origin, c->pos[(i % c->watched) * SIGHT], SIGHT_RGB);
    for (size_t r = 0; r < c->cameras; r++) cli_canvas_dot(pic, c->camera[r], 2, SIGHT_RGB);
    for (size_t k = 0; k < c->n; k++) { /* by how far it went in the last step: blue still, green at the
                                          * stream's speed, red faster */
        float s = fminf(hypotf(c->pos[k].x - c->prev[k].x, c->pos[k].y - c->prev[k].y) / (SPEED * DT), 2.0f);
        if (fabsf(c->pos[k].x - c->prev[k].x) > 1.0f) s = 1.0f; /* just put back at the entrance */
        float rgb[3] = {s > 1.0f ? 2.0f * (s - 1.0f) : 0.0f, s < 1.0f ? 1.5f * s : 1.5f * (2.0f - s), s < 1.0f ? 1.5f * (1.0f - s) : 0.0f};
        cli_canvas_disc(pic, c->pos[k], c->radius[k], rgb);
    }
}

int cli_demo_crowd(const cli_demo_options *options) {
    const cli_demo_options o = *options;
    static crowd c;
    cli_canvas pic = {0};
    int rc = MINK_EXIT_FAILURE, ok = setup(&c, &o);
    float side = c.side + 2.0f * STRIP + 1.0f;
    ok = ok && cli_canvas_init(&pic, (int)o.size, mink_v2(-STRIP - 0.5f, 0.5f * (c.side - side)), side);
    if (ok) {
        printf("device: %s\n", mink_context_device(c.ctx[0]));
        printf("scene: crowd, %zux%zu rooms of %.0f, walls %.1f thick, doors %.0f wide, %zu discs (radius 0.08 to 0.12)\n",
               o.rooms, o.rooms, (double)ROOM, (double)THICK, (double)DOOR, o.count);
        fflush(stdout);
    }
    int stepped = 1;
    for (size_t s = 0; ok && stepped == 1 && s < o.steps; s++) {
        stepped = step(&c);
        if (stepped == 1) stepped = look(&c) ? 1 : -1;
        if (stepped == 1) draw(&c, &pic, 1);
    }
    if (stepped == 0) fprintf(stderr, "mink: demo: %s\n", mink_last_error());
    ok = ok && stepped == 1;
    if (ok) {
        double energy = 0.0;
        for (size_t k = 0; k < c.n; k++) energy += 0.5 * ((double)c.vel[k].x * c.vel[k].x + (double)c.vel[k].y * c.vel[k].y);
        printf("steps: %zu, %.1f steps/s (%.2f ms a step in the world, positions and velocities set and read back)\n",
               o.steps, (double)o.steps / c.world_s, c.world_s * 1e3 / (double)o.steps);
        printf("through the maze: %zu\n", c.through_count);
        printf("kinetic energy: %.4f a disc (steering towards %.1f units a second: %.4f)\n", energy / (double)c.n,
               (double)SPEED, 0.5 * SPEED * SPEED);
        printf("deepest overlap: %.4f of the smaller radius\n", deepest(&c));
        printf("tunnelled: %zu\n", c.tunnelled);
        printf("lines of sight: %zu cameras x %zu discs, %zu rays a step in %.2f ms (%.2f M rays/s), %.1f %% seen\n",
               c.cameras, c.watched, c.cameras * c.watched, c.sight_s * 1e3 / (double)o.steps,
               (double)c.sight_casts / (c.sight_s + 1e-12) / 1e6,
               100.0 * (double)c.seen / (double)(c.sight_casts + !c.sight_casts));
        if (o.check) printf("bit-identical to the scalar path: yes\n");
        draw(&c, &pic, 0);
        if (cli_canvas_write(&pic, o.out, "demo")) {
            printf("picture: %s (%zux%zu)\n", o.out, o.size, o.size);
            rc = c.tunnelled ? MINK_EXIT_FAILURE : MINK_EXIT_OK;
            if (c.tunnelled) fprintf(stderr, "mink: demo: %zu bodies ended inside a wall\n", c.tunnelled);
        }
    }
    cli_canvas_free(&pic);
    for (int w = 0; w < 2; w++) mink_world_destroy(c.world[w]), mink_context_destroy(c.ctx[w]);
    free(c.born), free(c.radius), free(c.pos), free(c.vel), free(c.prev), free(c.check), free(c.handles[0]), free(c.handles[1]);
    free(c.rays), free(c.sight[0]), free(c.sight[1]);
    return rc;
}
