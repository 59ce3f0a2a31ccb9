/* core/kinds.h — the batch kinds, listed once.
 *
 * Valid C99 and OpenCL C. Everything that differs between batch kinds follows from this table:
 * the kernel ids and names (host/internal.h, host/program.c), the kernels and the layout check
 * (kernels/sweep.cl), the scalar loops (host/scalar.c) and the kinds the pipeline runs
 * (host/kinds.c). A new kind is a row here, its query in core/, and its public function.
 *
 * X(KIND, kind, function, record, arrays, query, kernel, scalar, sample, sample_pairs)
 *   KIND, kind    the kind's name: MINK_KERNEL_SWEEP_<KIND>, mink_sweep_<kind>_kernel,
 *                 mink__scalar_<kind>
 *   function      the public function, named in messages
 *   record        the record a pair is (columns: the record whose floats they are, in order)
 *   arrays        1: an array of records in, of mink_hit out; n: n float columns in (the
 *                 record's floats), mink_hit_soa's 8 out
 *   query         the shared query for one record (unused by OWN kernels and scalar loops)
 *   kernel        ONE: one pair per work-item, generated; TURNING: the same with the turning
 *                 query's parameters; RUN: a run of pairs per work-item on a CPU device,
 *                 written in kernels/sweep.cl
 *   scalar        LOOP: the query in a loop, generated; COLUMNS: records a block at a time
 *                 through the loop of kind <kind>_soa; OWN: written in host/scalar.c (turning
 *                 pairs': host/turning.c)
 *   sample        the mink/sample.h function AUTO measures with: (seed, count, records)
 *   sample_pairs  how many: about a millisecond of scalar work (docs/benchmarks.md, AUTO)
 */
#ifndef MINK_CORE_KINDS_H
#define MINK_CORE_KINDS_H

#define MINK_BATCH_KINDS(X)                                                                                    \
    X(AABB, aabb, mink_batch_sweep_aabb, mink_aabb_pair, 1, mink_sweep_aabb_record, RUN, COLUMNS,             \
      mink_sample_aabb_pairs, 32768)                                                                           \
    X(CIRCLE, circle, mink_batch_sweep_circle, mink_circle_pair, 1, mink_sweep_circle_record, RUN, COLUMNS,    \
      mink_sample_circle_pairs, 16384)                                                                         \
    X(CIRCLE_AABB, circle_aabb, mink_batch_sweep_circle_aabb, mink_circle_aabb_pair, 1,                        \
      mink_sweep_circle_aabb_record, RUN, COLUMNS, mink_sample_circle_aabb_pairs, 16384)                          \
    X(POLYGON, polygon, mink_batch_sweep_polygon, mink_polygon_pair, 1, mink_sweep_polygon_record, ONE, OWN,   \
      mink__sample_polygon_pairs, 4096)                                                                        \
    X(POLYGON_AABB, polygon_aabb, mink_batch_sweep_polygon_aabb, mink_polygon_aabb_pair, 1,                    \
      mink_sweep_polygon_aabb_record, ONE, OWN, mink_sample_polygon_aabb_pairs, 4096)                          \
    X(POLYGON_CIRCLE, polygon_circle, mink_batch_sweep_polygon_circle, mink_polygon_circle_pair, 1,            \
      mink_sweep_polygon_circle_record, ONE, OWN, mink_sample_polygon_circle_pairs, 4096)                      \
    X(CAPSULE, capsule, mink_batch_sweep_capsule, mink_capsule_pair, 1, mink_sweep_capsule_record, ONE, LOOP,  \
      mink_sample_capsule_pairs, 4096)                                                                         \
    X(CAPSULE_CIRCLE, capsule_circle, mink_batch_sweep_capsule_circle, mink_capsule_circle_pair, 1,            \
      mink_sweep_capsule_circle_record, ONE, LOOP, mink_sample_capsule_circle_pairs, 4096)                     \
    X(PAIR, pair, mink_batch_sweep, mink_pair, 1, mink_sweep_pair_record, ONE, OWN, mink_sample_pairs, 16384)   \
    X(ROTATING, rotating, mink_batch_sweep_rotating, mink_pair, 1, mink_sweep_rotating_record, TURNING, OWN,   \
      mink_sample_rotating_pairs, 512)                                                                \
    X(RAY, ray, mink_batch_cast_ray, mink_ray_cast, 1, mink_cast_ray_record, ONE, LOOP, mink_sample_ray_casts,  \
      16384)                                                                                                   \
    X(AABB_SOA, aabb_soa, mink_batch_sweep_aabb_soa, mink_aabb_pair, 12, -, RUN, OWN, mink_sample_aabb_pairs,  \
      32768)                                                                                                   \
    X(CIRCLE_SOA, circle_soa, mink_batch_sweep_circle_soa, mink_circle_pair, 10, -, RUN, OWN,                  \
      mink_sample_circle_pairs, 32768)                                                                         \
    X(CIRCLE_AABB_SOA, circle_aabb_soa, mink_batch_sweep_circle_aabb_soa, mink_circle_aabb_pair, 11, -, RUN,    \
      OWN, mink_sample_circle_aabb_pairs, 32768)

#endif /* MINK_CORE_KINDS_H */
