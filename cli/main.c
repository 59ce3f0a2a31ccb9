/* cli/main.c — the `mink` command: devices and the demo. The library never prints; this does.
 *
 * Exit codes: 0 success, 1 a runtime failure (no device, a mismatch between paths),
 *             2 a usage error (unknown command or option, missing or bad value). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mink/mink.h"
#include "mink/sample.h"

enum { EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: mink COMMAND [OPTIONS]\n"
    "\n"
    "Batched continuous collision queries on OpenCL devices, with a bit-identical scalar path.\n"
    "\n"
    "commands:\n"
    "  devices   list the OpenCL devices and mark the one --backend auto picks\n"
    "  demo      sweep a built-in batch of box pairs on a device and on the scalar path,\n"
    "            check that they agree bit for bit, and print pairs per second for both\n"
    "  help      show this text, or `mink help COMMAND`\n"
    "\n"
    "options:\n"
    "  -h, --help     show help (also `mink COMMAND --help`)\n"
    "  --version      print the version\n"
    "\n"
    "exit codes: 0 success, 1 runtime failure, 2 usage error\n";

static const char demo_usage[] =
    "usage: mink demo [--backend auto|scalar|opencl] [--device NAME] [--count N] [--seed S]\n"
    "\n"
    "Sweeps N box pairs (default 1000000; about a third hit, some would tunnel) over one step\n"
    "on the chosen backend, sweeps them again on the scalar path, compares the results bit for\n"
    "bit, and prints pairs per second for both. Exits 1 if the results differ.\n"
    "\n"
    "  --backend B    auto (default: best OpenCL device, else scalar), scalar or opencl\n"
    "  --device NAME  an OpenCL device whose \"name (platform)\" contains NAME\n"
    "  --count N      pairs in the batch (default 1000000)\n"
    "  --seed S       seed of the batch (default 1)\n";

static const char devices_usage[] =
    "usage: mink devices\n"
    "\n"
    "Lists every OpenCL device with its limits; '*' marks the one --backend auto picks.\n";

static int usage_error(const char *fmt, const char *arg, const char *command) {
    fprintf(stderr, "mink: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'mink %s--help'.\n", command ? command : "");
    return EXIT_USAGE;
}

static int is_help(const char *arg) { return !strcmp(arg, "-h") || !strcmp(arg, "--help"); }

static int cmd_devices(int argc, char **argv) {
    for (int i = 0; i < argc; i++) {
        if (is_help(argv[i])) return fputs(devices_usage, stdout), 0;
        return usage_error("devices: unknown option '%s'", argv[i], "devices ");
    }
    size_t count = 0;
    if (mink_device_list(NULL, 0, &count) != MINK_OK) {
        fprintf(stderr, "mink: %s\n", mink_last_error());
        return 1;
    }
    if (count == 0) {
        printf("no OpenCL platform or device found: --backend auto uses the scalar path\n");
        return 0;
    }
    mink_device_info *infos = calloc(count, sizeof *infos);
    if (infos == NULL || mink_device_list(infos, count, &count) != MINK_OK) {
        fprintf(stderr, "mink: %s\n", infos ? mink_last_error() : "out of memory");
        free(infos);
        return 1;
    }
    int any_default = 0;
    for (size_t i = 0; i < count; i++) {
        const mink_device_info *d = &infos[i];
        any_default |= d->is_default;
        printf("%c %zu: %s (%s)\n", d->is_default ? '*' : ' ', i, d->name, d->platform);
        printf("      %s, %s, %u compute units, %.1f GiB memory, %.1f GiB largest allocation\n",
               d->is_gpu ? "GPU" : "not a GPU", d->version, d->compute_units,
               (double)d->global_mem / (1u << 30), (double)d->max_alloc / (1u << 30));
        if (!d->usable) printf("      not usable: %s\n", d->reason);
    }
    printf(any_default ? "* = what --backend auto picks\n"
                       : "no usable device: --backend auto uses the scalar path\n");
    free(infos);
    return 0;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Parses a positive count such as 1000000 or 1e6. */
static int parse_count(const char *s, size_t *out) {
    char *end = NULL;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !(v >= 1.0) || v > 1e10 || v != (double)(size_t)v) return 0;
    *out = (size_t)v;
    return 1;
}

static int cmd_demo(int argc, char **argv) {
    mink_context_desc desc = {0};
    size_t count = 1000000;
    unsigned long long seed = 1;
    for (int i = 0; i < argc; i++) {
        const char *opt = argv[i];
        if (is_help(opt)) return fputs(demo_usage, stdout), 0;
        int takes_value = !strcmp(opt, "--backend") || !strcmp(opt, "--device") ||
                          !strcmp(opt, "--count") || !strcmp(opt, "--seed");
        if (!takes_value) return usage_error("demo: unknown option '%s'", opt, "demo ");
        if (i + 1 >= argc) return usage_error("demo: option '%s' needs a value", opt, "demo ");
        const char *val = argv[++i];
        if (!strcmp(opt, "--backend")) {
            if (!strcmp(val, "auto")) desc.backend = MINK_BACKEND_AUTO;
            else if (!strcmp(val, "scalar")) desc.backend = MINK_BACKEND_SCALAR;
            else if (!strcmp(val, "opencl")) desc.backend = MINK_BACKEND_OPENCL;
            else return usage_error("demo: --backend is auto, scalar or opencl, not '%s'", val, "demo ");
        } else if (!strcmp(opt, "--device")) {
            desc.device = val;
        } else if (!strcmp(opt, "--count")) {
            if (!parse_count(val, &count))
                return usage_error("demo: --count needs a whole number from 1 to 1e10, not '%s'", val, "demo ");
        } else {
            char *end = NULL;
            seed = strtoull(val, &end, 0);
            if (end == val || *end != '\0') return usage_error("demo: --seed needs a number, not '%s'", val, "demo ");
        }
    }

    int rc = 1;
    mink_context *ctx = NULL, *scalar = NULL;
    mink_aabb_pair *pairs = malloc(count * sizeof *pairs);
    mink_hit *hits = malloc(count * sizeof *hits), *ref = malloc(count * sizeof *ref);
    if (!pairs || !hits || !ref) {
        fprintf(stderr, "mink: out of memory for %zu pairs\n", count);
        goto done;
    }
    if (mink_context_create(&desc, &ctx) != MINK_OK ||
        mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &scalar) != MINK_OK) {
        fprintf(stderr, "mink: %s\n", mink_last_error());
        goto done;
    }
    if (mink_context_error(ctx)[0]) fprintf(stderr, "mink: note: %s\n", mink_context_error(ctx));
    printf("device: %s\n", mink_context_device(ctx));
    mink_sample_aabb_pairs(seed, count, pairs);

    /* Once to warm up (first-touch of the output pages, the device's first launch), once timed. */
    if (mink_batch_sweep_aabb(ctx, pairs, count, 1.0f, hits) != MINK_OK) goto failed;
    double t0 = now_s();
    if (mink_batch_sweep_aabb(ctx, pairs, count, 1.0f, hits) != MINK_OK) goto failed;
    double t_dev = now_s() - t0;
    if (mink_batch_sweep_aabb(scalar, pairs, count, 1.0f, ref) != MINK_OK) goto failed;
    t0 = now_s();
    if (mink_batch_sweep_aabb(scalar, pairs, count, 1.0f, ref) != MINK_OK) goto failed;
    double t_scalar = now_s() - t0;

    size_t contacts = 0, overlaps = 0, invalid = 0;
    for (size_t i = 0; i < count; i++) {
        contacts += (hits[i].flags & MINK_HIT_CONTACT) != 0;
        overlaps += (hits[i].flags & MINK_HIT_OVERLAP) != 0;
        invalid += (hits[i].flags & MINK_HIT_INVALID) != 0;
    }
    printf("pairs: %zu  contacts: %zu (%zu already overlapping)  invalid: %zu\n", count, contacts,
           overlaps, invalid);
    printf("%-8s %12.0f pairs/s  (%.2f ms)\n", mink_context_backend(ctx) == MINK_BACKEND_OPENCL ? "opencl" : "scalar",
           (double)count / t_dev, t_dev * 1e3);
    printf("%-8s %12.0f pairs/s  (%.2f ms)\n", "scalar", (double)count / t_scalar, t_scalar * 1e3);

    for (size_t i = 0; i < count; i++) {
        if (memcmp(&hits[i], &ref[i], sizeof ref[i]) != 0) {
            printf("MISMATCH at pair %zu: t %a vs %a, flags %u vs %u\n", i, (double)hits[i].t,
                   (double)ref[i].t, (unsigned)hits[i].flags, (unsigned)ref[i].flags);
            goto done;
        }
    }
    printf("bit-identical to the scalar path: yes\n");
    rc = 0;
    goto done;
failed:
    fprintf(stderr, "mink: %s\n", mink_last_error());
done:
    mink_context_destroy(ctx);
    mink_context_destroy(scalar);
    free(pairs);
    free(hits);
    free(ref);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs(usage_text, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (is_help(cmd)) return fputs(usage_text, stdout), 0;
    if (!strcmp(cmd, "--version")) return printf("mink %d.%d.%d\n", MINK_VERSION_MAJOR, MINK_VERSION_MINOR, MINK_VERSION_PATCH), 0;
    if (!strcmp(cmd, "help")) {
        if (argc < 3) return fputs(usage_text, stdout), 0;
        if (!strcmp(argv[2], "demo")) return fputs(demo_usage, stdout), 0;
        if (!strcmp(argv[2], "devices")) return fputs(devices_usage, stdout), 0;
        return usage_error("help: unknown command '%s'", argv[2], NULL);
    }
    if (!strcmp(cmd, "devices")) return cmd_devices(argc - 2, argv + 2);
    if (!strcmp(cmd, "demo")) return cmd_demo(argc - 2, argv + 2);
    return usage_error("unknown command '%s'", cmd, NULL);
}
