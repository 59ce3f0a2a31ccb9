# Empty compiler generated dependencies file for test_circle_random.
# This may be replaced when dependencies are built.
