# Empty dependencies file for test_aabb.
# This may be replaced when dependencies are built.
