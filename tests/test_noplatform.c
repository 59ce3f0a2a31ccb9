/* tests/test_noplatform.c — run with no OpenCL platform visible (ctest points the ICD loader at an
 * empty vendor folder): AUTO falls back to the scalar path and says so; OPENCL is an error. */
#include "test_util.h"

static void auto_falls_back_to_scalar(void **state) {
    (void)state;
    mink_context *ctx;
    assert_int_equal(mink_context_create(NULL, &ctx), MINK_OK);
    assert_int_equal(mink_context_backend(ctx), MINK_BACKEND_SCALAR);
    assert_string_equal(mink_context_device(ctx), "scalar");
    assert_non_null(strstr(mink_context_error(ctx), "using the scalar path"));
    mink_aabb_pair pairs[100];
    mink_hit hits[100];
    mink_sample_aabb_pairs(3, 100, pairs);
    assert_int_equal(mink_batch_sweep_aabb(ctx, pairs, 100, 1, hits), MINK_OK);
    for (int i = 0; i < 100; i++) {
        mink_hit h = mink_sweep_aabb(pairs[i].a, pairs[i].va, pairs[i].b, pairs[i].vb, 1);
        assert_memory_equal(&h, &hits[i], sizeof h);
    }
    mink_context_destroy(ctx);
}

static void opencl_is_an_error(void **state) {
    (void)state;
    mink_context *ctx = (mink_context *)&ctx;
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_OPENCL}, &ctx),
                     MINK_ERR_NO_DEVICE);
    assert_null(ctx);
    assert_non_null(strstr(mink_last_error(), "no OpenCL platform"));
    assert_int_equal(mink_context_create(&(mink_context_desc){.device = "pthread"}, &ctx), MINK_ERR_NO_DEVICE);
}

static void no_devices_listed(void **state) {
    (void)state;
    size_t count = 99;
    assert_int_equal(mink_device_list(NULL, 0, &count), MINK_OK);
    assert_int_equal(count, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(auto_falls_back_to_scalar),
        cmocka_unit_test(opencl_is_an_error),
        cmocka_unit_test(no_devices_listed),
    };
    return cmocka_run_group_tests_name("noplatform", tests, NULL, NULL);
}
