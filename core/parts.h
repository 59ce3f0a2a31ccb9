/* core/parts.h — the parts the device program is built in, each on its first use.
 *
 * Valid C99 and OpenCL C. A context builds the embedded source once for each part it needs
 * (host/program.c), with -DMINK_PART=<part>: one part per batch kind, in core/kinds.h's order (a
 * kind's kernel id is its part), then a world step's passes for boxes and circles with the
 * world's helpers, its passes that sweep built with polygons, and with polygons and capsules, and
 * the queries to a world likewise three times (kernels/world.cl). Every build declares every
 * kernel and compiles only its own part's (and the few loops that check the layout and copy
 * bodies in and out, in every build): the whole program took minutes to build on a GPU's
 * compiler (docs/gpu.md), and a first box batch needs only the box kernel.
 */
#ifndef MINK_CORE_PARTS_H
#define MINK_CORE_PARTS_H

#include "core/kinds.h"

#define MINK_KIND_PART(KIND, kind, function, record, arrays, query, kernel, scalar, sample, sample_pairs) \
    MINK_PART_##KIND,
typedef enum mink_part {
    MINK_BATCH_KINDS(MINK_KIND_PART)
    MINK_PART_WORLD,          /* a world step's passes for boxes and circles, and its helpers */
    MINK_PART_WORLD_POLYGONS, /* the step's passes that sweep, built with polygons */
    MINK_PART_WORLD_HULLS,    /* the step's passes that sweep, built with polygons and capsules */
    MINK_PART_QUERY,          /* the queries to a world, for boxes and circles */
    MINK_PART_QUERY_POLYGONS, /* the queries, built with polygons */
    MINK_PART_QUERY_HULLS,    /* the queries, built with polygons and capsules */
    MINK_PART_COUNT
} mink_part;
#undef MINK_KIND_PART

#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
/* Whether this build compiles part p's kernels: a constant, so a kernel of another part keeps
 * only its declaration. Unset (a check of the whole source): every part. */
#ifndef MINK_PART
#define MINK_PART (-1)
#endif
#define MINK_IN_PART(p) (MINK_PART < 0 || MINK_PART == (p))
#endif

#endif /* MINK_CORE_PARTS_H */
