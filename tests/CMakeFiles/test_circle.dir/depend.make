# Empty dependencies file for test_circle.
# This may be replaced when dependencies are built.
