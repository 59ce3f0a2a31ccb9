# Empty dependencies file for test_polygon_random.
# This may be replaced when dependencies are built.
