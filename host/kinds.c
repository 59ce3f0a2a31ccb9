/* host/kinds.c — the batch kinds' table, made from core/kinds.h, and the public batch functions:
 * each puts its arrays in a job and hands it to the pipeline (batch.c). */
#include "internal.h"
#include "mink/sample.h"

/* AUTO measures polygons with the library's default vertex counts. */
static void mink__sample_polygon_pairs(uint64_t seed, size_t count, mink_polygon_pair *out) {
    mink_sample_polygon_pairs(seed, count, 0, out);
}

#define MINK_KIND_SAMPLE(KIND, kind, function, record, arrays, query, kernel, scalar, sample, sample_pairs) \
    static void sample_##kind(size_t count, void *records) { sample(1, count, (record *)records); }
MINK_BATCH_KINDS(MINK_KIND_SAMPLE)
#undef MINK_KIND_SAMPLE

/* What a kernel style (core/kinds.h) means for its launch: a run of pairs per work-item, the
 * turning query's parameters. */
#define MINK_RUNS_ONE 0
#define MINK_RUNS_TURNING 0
#define MINK_RUNS_RUN 1
#define MINK_TURNS_ONE 0
#define MINK_TURNS_TURNING 1
#define MINK_TURNS_RUN 0
#define MINK_KIND_ROW(KIND, kind, function, record, arrays, query, kernel, scalar, sample, sample_pairs)    \
    [MINK_KERNEL_SWEEP_##KIND] = {#function,        MINK_KERNEL_SWEEP_##KIND, sizeof(record), arrays,          \
                                  mink__scalar_##kind, sample_##kind, sample_pairs, MINK_RUNS_##kernel,           \
                                  MINK_TURNS_##kernel},
const mink_batch_kind mink__batch_kinds[MINK_BATCH_KIND_COUNT] = {MINK_BATCH_KINDS(MINK_KIND_ROW)};
#undef MINK_KIND_ROW

/* A batch of records: one array in, one of hits out. */
static mink_status records(mink_context *ctx, mink_kernel_id kind, const void *pairs, size_t count, float dt,
                           const mink_rotating_desc *desc, mink_hit *hits) {
    mink_batch_job job = {.kind = &mink__batch_kinds[kind], .in = {pairs}, .out = {hits}, .dt = dt};
    if (desc) job.desc = *desc;
    return mink__batch_run(ctx, &job, pairs, hits, count);
}

mink_status mink_batch_sweep_aabb(mink_context *ctx, const mink_aabb_pair *pairs, size_t count, float dt,
                                  mink_hit *hits) {
    return records(ctx, MINK_KERNEL_SWEEP_AABB, pairs, count, dt, NULL, hits);
}

mink_status mink_batch_sweep_circle(mink_context *ctx, const mink_circle_pair *pairs, size_t count, float dt,
                                    mink_hit *hits) {
    return records(ctx, MINK_KERNEL_SWEEP_CIRCLE, pairs, count, dt, NULL, hits);
}

mink_status mink_batch_sweep_circle_aabb(mink_context *ctx, const mink_circle_aabb_pair *pairs, size_t count,
                                         float dt, mink_hit *hits) {
    return records(ctx, MINK_KERNEL_SWEEP_CIRCLE_AABB, pairs, count, dt, NULL, hits);
}

mink_status mink_batch_sweep(mink_context *ctx, const mink_pair *pairs, size_t count, float dt, mink_hit *hits) {
    return records(ctx, MINK_KERNEL_SWEEP_PAIR, pairs, count, dt, NULL, hits);
}

mink_status mink_batch_sweep_polygon(mink_context *ctx, const mink_polygon_pair *pairs, size_t count, float dt,
                                     mink_hit *hits) {
    return records(ctx, MINK_KERNEL_SWEEP_POLYGON, pairs, count, dt, NULL, hits);
}

mink_status mink_batch_sweep_polygon_aabb(mink_context *ctx, const mink_polygon_aabb_pair *pairs, size_t count,
                                          float dt, mink_hit *hits) {
    return records(ctx, MINK_KERNEL_SWEEP_POLYGON_AABB, pairs, count, dt, NULL, hits);
}

mink_status mink_batch_sweep_polygon_circle(mink_context *ctx, const mink_polygon_circle_pair *pairs,
                                            size_t count, float dt, mink_hit *hits) {
    return records(ctx, MINK_KERNEL_SWEEP_POLYGON_CIRCLE, pairs, count, dt, NULL, hits);
}

mink_status mink_batch_sweep_capsule(mink_context *ctx, const mink_capsule_pair *pairs, size_t count, float dt,
                                     mink_hit *hits) {
    return records(ctx, MINK_KERNEL_SWEEP_CAPSULE, pairs, count, dt, NULL, hits);
}

mink_status mink_batch_sweep_capsule_circle(mink_context *ctx, const mink_capsule_circle_pair *pairs,
                                            size_t count, float dt, mink_hit *hits) {
    return records(ctx, MINK_KERNEL_SWEEP_CAPSULE_CIRCLE, pairs, count, dt, NULL, hits);
}

mink_status mink_batch_sweep_rotating(mink_context *ctx, const mink_pair *pairs, size_t count, float dt,
                                      const mink_rotating_desc *desc, mink_hit *hits) {
    return records(ctx, MINK_KERNEL_SWEEP_ROTATING, pairs, count, dt, desc, hits);
}

mink_status mink_batch_cast_ray(mink_context *ctx, const mink_ray_cast *casts, size_t count, mink_hit *hits) {
    return records(ctx, MINK_KERNEL_SWEEP_RAY, casts, count, 1.0f, NULL, hits);
}

/* A batch of columns: the record's floats in order in, mink_hit_soa's fields in order out. */
static mink_status columns(mink_context *ctx, mink_kernel_id kind, const void *pairs, const float *const *in,
                           size_t count, float dt, const mink_hit_soa *hits) {
    mink_batch_job job = {.kind = &mink__batch_kinds[kind], .dt = dt};
    for (size_t k = 0; pairs && k < job.kind->arrays; k++) job.in[k] = in[k];
    if (hits) {
        void *out[MINK_MAX_OUT] = {hits->t,       hits->normal_x, hits->normal_y, hits->depth,
                                   hits->point_x, hits->point_y,  hits->t_exit,   hits->flags};
        for (int k = 0; k < MINK_MAX_OUT; k++) job.out[k] = out[k];
    }
    return mink__batch_run(ctx, &job, pairs, hits, count);
}

mink_status mink_batch_sweep_aabb_soa(mink_context *ctx, const mink_aabb_pair_soa *pairs, size_t count, float dt,
                                      const mink_hit_soa *hits) {
    const mink_aabb_pair_soa p = pairs ? *pairs : (mink_aabb_pair_soa){0};
    const float *in[12] = {p.a_min_x, p.a_min_y, p.a_max_x, p.a_max_y, p.va_x, p.va_y,
                           p.b_min_x, p.b_min_y, p.b_max_x, p.b_max_y, p.vb_x, p.vb_y};
    return columns(ctx, MINK_KERNEL_SWEEP_AABB_SOA, pairs, in, count, dt, hits);
}

mink_status mink_batch_sweep_circle_soa(mink_context *ctx, const mink_circle_pair_soa *pairs, size_t count,
                                        float dt, const mink_hit_soa *hits) {
    const mink_circle_pair_soa p = pairs ? *pairs : (mink_circle_pair_soa){0};
    const float *in[10] = {p.a_x, p.a_y, p.a_radius, p.va_x, p.va_y, p.b_x, p.b_y, p.b_radius, p.vb_x, p.vb_y};
    return columns(ctx, MINK_KERNEL_SWEEP_CIRCLE_SOA, pairs, in, count, dt, hits);
}

mink_status mink_batch_sweep_circle_aabb_soa(mink_context *ctx, const mink_circle_aabb_pair_soa *pairs, size_t count,
                                             float dt, const mink_hit_soa *hits) {
    const mink_circle_aabb_pair_soa p = pairs ? *pairs : (mink_circle_aabb_pair_soa){0};
    const float *in[11] = {p.a_x,     p.a_y,     p.a_radius, p.va_x, p.va_y, p.b_min_x,
                           p.b_min_y, p.b_max_x, p.b_max_y,  p.vb_x, p.vb_y};
    return columns(ctx, MINK_KERNEL_SWEEP_CIRCLE_AABB_SOA, pairs, in, count, dt, hits);
}
