# Empty compiler generated dependencies file for test_threads.
# This may be replaced when dependencies are built.
