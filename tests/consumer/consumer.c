/* A program outside the tree, built against an installed mink (CMake package or pkg-config). */
#include <stdio.h>

#include <mink/mink.h>

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
    mink_context_destroy(ctx);
    return s == MINK_OK && hit.flags == MINK_HIT_CONTACT ? 0 : 1;
}
