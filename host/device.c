/* host/device.c — finding OpenCL devices, ranking them, and choosing one for a context. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MINK_CL_PLATFORM_NOT_FOUND_KHR (-1001)

typedef struct found_device {
    cl_device_id id;
    cl_device_type type;
    int usable;
    char reason[128];
    char label[300];
} found_device;

void mink__device_label(cl_device_id device, char *out, size_t size) {
    char name[128] = "?", platform_name[128] = "?";
    cl_platform_id platform = NULL;
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
    if (clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) == CL_SUCCESS)
        clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof platform_name, platform_name, NULL);
    name[sizeof name - 1] = platform_name[sizeof platform_name - 1] = '\0';
    snprintf(out, size, "%s (%s)", name, platform_name);
}

/* GPUs first, then accelerators, then CPUs: the order AUTO prefers. */
static int device_rank(cl_device_type type) {
    if (type & CL_DEVICE_TYPE_GPU) return 3;
    if (type & CL_DEVICE_TYPE_ACCELERATOR) return 2;
    if (type & CL_DEVICE_TYPE_CPU) return 1;
    return 0;
}

/* mink needs the device to round division and square root correctly, or its results would differ
 * from the scalar path; a device that cannot is listed but never chosen. */
static void check_usable(found_device *d) {
    cl_device_fp_config fp = 0;
    cl_bool available = CL_FALSE, compiler = CL_FALSE;
    clGetDeviceInfo(d->id, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, NULL);
    clGetDeviceInfo(d->id, CL_DEVICE_AVAILABLE, sizeof available, &available, NULL);
    clGetDeviceInfo(d->id, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, NULL);
    d->usable = 0;
    if (!available)
        snprintf(d->reason, sizeof d->reason, "not available");
    else if (!compiler)
        snprintf(d->reason, sizeof d->reason, "no OpenCL C compiler");
    else if (!(fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT))
        snprintf(d->reason, sizeof d->reason, "no correctly rounded float divide and sqrt");
    else
        d->usable = 1, d->reason[0] = '\0';
}

/* Device discovery runs one thread at a time. OpenCL calls these functions thread-safe, but ICD
 * loaders and drivers initialize lazily on the first call, and concurrent first calls race: with
 * ocl-icd and PoCL one of several threads creating contexts at once was told there was no
 * platform at all (tests/test_threads.c; the same symptom is reported against other bindings). */
static pthread_mutex_t discovery_lock = PTHREAD_MUTEX_INITIALIZER;

static mink_status enumerate_locked(found_device **out, size_t *count);

/* All devices of all platforms, in platform order. *count == 0 with MINK_OK when there is no
 * platform; the caller frees *out. */
static mink_status enumerate(found_device **out, size_t *count) {
    pthread_mutex_lock(&discovery_lock);
    mink_status status = enumerate_locked(out, count);
    pthread_mutex_unlock(&discovery_lock);
    return status;
}

static mink_status enumerate_locked(found_device **out, size_t *count) {
    *out = NULL;
    *count = 0;
    cl_uint nplatforms = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &nplatforms);
    if (err == MINK_CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && nplatforms == 0))
        return MINK_OK;
    if (err != CL_SUCCESS) return mink__fail_cl(NULL, "clGetPlatformIDs", err);

    cl_platform_id *platforms = calloc(nplatforms, sizeof *platforms);
    if (platforms == NULL) return mink__fail(NULL, MINK_ERR_OUT_OF_MEMORY, "out of memory");
    mink_status status = MINK_OK;
    found_device *devices = NULL;
    size_t n = 0;
    err = clGetPlatformIDs(nplatforms, platforms, NULL);
    if (err != CL_SUCCESS) {
        status = mink__fail_cl(NULL, "clGetPlatformIDs", err);
        goto done;
    }
    for (cl_uint p = 0; p < nplatforms; p++) {
        cl_uint ndev = 0;
        err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &ndev);
        if (err == CL_DEVICE_NOT_FOUND || (err == CL_SUCCESS && ndev == 0)) continue;
        if (err != CL_SUCCESS) {
            status = mink__fail_cl(NULL, "clGetDeviceIDs", err);
            goto done;
        }
        found_device *grown = realloc(devices, (n + ndev) * sizeof *devices);
        cl_device_id *ids = calloc(ndev, sizeof *ids);
        if (grown != NULL) devices = grown;
        if (grown == NULL || ids == NULL) {
            free(ids);
            status = mink__fail(NULL, MINK_ERR_OUT_OF_MEMORY, "out of memory");
            goto done;
        }
        err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, ndev, ids, NULL);
        if (err != CL_SUCCESS) {
            free(ids);
            status = mink__fail_cl(NULL, "clGetDeviceIDs", err);
            goto done;
        }
        for (cl_uint i = 0; i < ndev; i++) {
            found_device *d = &devices[n++];
            memset(d, 0, sizeof *d);
            d->id = ids[i];
            clGetDeviceInfo(d->id, CL_DEVICE_TYPE, sizeof d->type, &d->type, NULL);
            mink__device_label(d->id, d->label, sizeof d->label);
            check_usable(d);
        }
        free(ids);
    }
done:
    free(platforms);
    if (status != MINK_OK) {
        free(devices);
        return status;
    }
    *out = devices;
    *count = n;
    return MINK_OK;
}

static int contains_nocase(const char *haystack, const char *needle) {
    size_t hn = strlen(haystack), nn = strlen(needle);
    for (size_t i = 0; i + nn <= hn; i++) {
        size_t j = 0;
        while (j < nn && tolower((unsigned char)haystack[i + j]) == tolower((unsigned char)needle[j]))
            j++;
        if (j == nn) return 1;
    }
    return 0;
}

/* Index of the device AUTO (or a name filter) picks among usable ones; -1 if none. */
static long pick(const found_device *devices, size_t n, const char *filter) {
    long best = -1;
    for (size_t i = 0; i < n; i++) {
        if (!devices[i].usable) continue;
        if (filter != NULL && !contains_nocase(devices[i].label, filter)) continue;
        if (best < 0 || device_rank(devices[i].type) > device_rank(devices[best].type)) best = (long)i;
    }
    return best;
}

mink_status mink_device_list(mink_device_info *out, size_t capacity, size_t *count) {
    if (count == NULL || (out == NULL && capacity > 0))
        return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT,
                          "mink_device_list: count is NULL, or out is NULL with capacity > 0");
    found_device *devices;
    size_t n;
    mink_status status = enumerate(&devices, &n);
    if (status != MINK_OK) return status;
    long chosen = pick(devices, n, NULL);
    for (size_t i = 0; i < n && i < capacity; i++) {
        mink_device_info *info = &out[i];
        memset(info, 0, sizeof *info);
        cl_device_id id = devices[i].id;
        cl_platform_id platform = NULL;
        cl_uint units = 0;
        cl_ulong mem = 0, alloc = 0;
        clGetDeviceInfo(id, CL_DEVICE_NAME, sizeof info->name - 1, info->name, NULL);
        clGetDeviceInfo(id, CL_DEVICE_VERSION, sizeof info->version - 1, info->version, NULL);
        if (clGetDeviceInfo(id, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) == CL_SUCCESS)
            clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof info->platform - 1, info->platform,
                              NULL);
        clGetDeviceInfo(id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
        clGetDeviceInfo(id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
        clGetDeviceInfo(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc, NULL);
        info->is_gpu = (devices[i].type & CL_DEVICE_TYPE_GPU) != 0;
        info->usable = devices[i].usable;
        info->is_default = (long)i == chosen;
        info->compute_units = units;
        info->global_mem = mem;
        info->max_alloc = alloc;
        snprintf(info->reason, sizeof info->reason, "%s", devices[i].reason);
    }
    *count = n;
    free(devices);
    return MINK_OK;
}

mink_status mink__select_device(const mink_context_desc *desc, cl_device_id *device, char *note,
                                size_t note_size) {
    *device = NULL;
    note[0] = '\0';
    found_device *devices;
    size_t n;
    mink_status status = enumerate(&devices, &n);
    if (status != MINK_OK) return status;

    if (n == 0) {
        free(devices);
        if (desc->backend == MINK_BACKEND_OPENCL || desc->device != NULL)
            return mink__fail(NULL, MINK_ERR_NO_DEVICE,
                              "no OpenCL platform or device found (is an ICD such as "
                              "pocl-opencl-icd installed?)");
        snprintf(note, note_size, "no OpenCL platform or device found: using the scalar path");
        return MINK_OK;
    }
    long chosen = pick(devices, n, desc->device);
    if (chosen < 0) {
        /* Say what there is, so the caller can fix the name. */
        char seen[1024] = "";
        size_t used = 0;
        for (size_t i = 0; i < n && used < sizeof seen; i++) {
            int w = snprintf(seen + used, sizeof seen - used, "%s%s%s%s%s", i ? "; " : "",
                             devices[i].label, devices[i].usable ? "" : " [unusable: ",
                             devices[i].reason, devices[i].usable ? "" : "]");
            if (w < 0) break;
            used += (size_t)w;
        }
        free(devices);
        if (desc->device != NULL)
            return mink__fail(NULL, MINK_ERR_NO_DEVICE,
                              "no usable OpenCL device matches \"%s\"; found: %s", desc->device, seen);
        if (desc->backend == MINK_BACKEND_OPENCL)
            return mink__fail(NULL, MINK_ERR_NO_DEVICE, "no usable OpenCL device; found: %s", seen);
        snprintf(note, note_size, "no usable OpenCL device (found: %s): using the scalar path", seen);
        return MINK_OK;
    }
    *device = devices[chosen].id;
    free(devices);
    return MINK_OK;
}
