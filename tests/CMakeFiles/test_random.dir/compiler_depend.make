# Empty compiler generated dependencies file for test_random.
# This may be replaced when dependencies are built.
