# Empty dependencies file for test_polygon.
# This may be replaced when dependencies are built.
