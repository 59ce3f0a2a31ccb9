/* A program outside the tree, built against an installed mink (CMake package or pkg-config) with
 * flags of its own that would change float results if the queries were compiled here:
 * -O3 -march=native -ffp-contract=fast (install_test.sh). The single queries are the library's,
 * so each answers exactly as the batches do: compared with memcmp over every sample kind. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mink/mink.h>
#include <mink/sample.h>

enum { N = 100000 };

static int differ(const char *what, const mink_hit *single, const mink_hit *batch, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (memcmp(&single[i], &batch[i], sizeof *batch) != 0) {
            fprintf(stderr, "consumer: %s pair %zu: the single query differs from the batch (t %a vs %a)\n", what, i,
                    (double)single[i].t, (double)batch[i].t);
            return 1;
        }
    return 0;
}

/* One kind: sample it, sweep it as a batch and one query at a time, compare. */
#define SAME(what, type, sample, batch, query)                                                     \
    do {                                                                                           \
        type *in = malloc(N * sizeof *in);                                                         \
        if (in == NULL) return 1;                                                                  \
        sample;                                                                                    \
        if ((batch) != MINK_OK) return fprintf(stderr, "consumer: %s\n", mink_last_error()), 1;    \
        for (size_t i = 0; i < N; i++) one[i] = query;                                             \
        bad |= differ(what, one, many, N);                                                         \
        free(in);                                                                                  \
    } while (0)

int main(void) {
    mink_context *ctx;
    if (mink_context_create(NULL, &ctx) != MINK_OK) {
        fprintf(stderr, "consumer: %s\n", mink_last_error());
        return 1;
    }
    /* The seed's small fast box and thin platform. */
    mink_aabb_pair pair = {{{-0.25f, 5}, {0.25f, 5.5f}}, {0, -160}, {{-10, 0}, {10, 0.125f}}, {0, 0}};
    mink_hit hit;
    mink_status s = mink_batch_sweep_aabb(ctx, &pair, 1, 0.0625f, &hit);
    printf("consumer: %s on %s: flags %u t %g normal (%g, %g)\n", mink_status_string(s),
           mink_context_device(ctx), (unsigned)hit.flags, (double)hit.t, (double)hit.normal.x,
           (double)hit.normal.y);
    int bad = s != MINK_OK || hit.flags != MINK_HIT_CONTACT;

    mink_hit *one = malloc(N * sizeof *one), *many = malloc(N * sizeof *many);
    if (one == NULL || many == NULL) return 1;
    const float dt = 0.75f;
    SAME("box", mink_aabb_pair, mink_sample_aabb_pairs(1, N, in), mink_batch_sweep_aabb(ctx, in, N, dt, many),
         mink_sweep_aabb(in[i].a, in[i].va, in[i].b, in[i].vb, dt));
    SAME("circle", mink_circle_pair, mink_sample_circle_pairs(2, N, in), mink_batch_sweep_circle(ctx, in, N, dt, many),
         mink_sweep_circle(in[i].a, in[i].va, in[i].b, in[i].vb, dt));
    SAME("circle-box", mink_circle_aabb_pair, mink_sample_circle_aabb_pairs(3, N, in),
         mink_batch_sweep_circle_aabb(ctx, in, N, dt, many), mink_sweep_circle_aabb(in[i].a, in[i].va, in[i].b, in[i].vb, dt));
    SAME("polygon", mink_polygon_pair, mink_sample_polygon_pairs(4, N, 0, in),
         mink_batch_sweep_polygon(ctx, in, N, dt, many), mink_sweep_polygon(in[i].a, in[i].va, in[i].b, in[i].vb, dt));
    SAME("polygon-box", mink_polygon_aabb_pair, mink_sample_polygon_aabb_pairs(5, N, in),
         mink_batch_sweep_polygon_aabb(ctx, in, N, dt, many),
         mink_sweep_polygon_aabb(in[i].a, in[i].va, in[i].b, in[i].vb, dt));
    SAME("polygon-circle", mink_polygon_circle_pair, mink_sample_polygon_circle_pairs(6, N, in),
         mink_batch_sweep_polygon_circle(ctx, in, N, dt, many),
         mink_sweep_polygon_circle(in[i].a, in[i].va, in[i].b, in[i].vb, dt));
    SAME("capsule", mink_capsule_pair, mink_sample_capsule_pairs(9, N, in),
         mink_batch_sweep_capsule(ctx, in, N, dt, many), mink_sweep_capsule(in[i].a, in[i].va, in[i].b, in[i].vb, dt));
    SAME("capsule-circle", mink_capsule_circle_pair, mink_sample_capsule_circle_pairs(10, N, in),
         mink_batch_sweep_capsule_circle(ctx, in, N, dt, many),
         mink_sweep_capsule_circle(in[i].a, in[i].va, in[i].b, in[i].vb, dt));
    SAME("mixed", mink_pair, mink_sample_pairs(7, N, in), mink_batch_sweep(ctx, in, N, dt, many),
         mink_sweep_bodies(in[i].a, in[i].b, dt));
    SAME("turning", mink_pair, mink_sample_rotating_pairs(8, N / 10, in), mink_batch_sweep(ctx, in, N / 10, dt, many),
         i < N / 10 ? mink_sweep_bodies(in[i].a, in[i].b, dt) : many[i]);
    free(one), free(many);
    mink_context_destroy(ctx);
    if (!bad) printf("consumer: single queries equal the batches bit for bit (every kind, %d pairs each)\n", N);
    return bad;
}
