# Empty dependencies file for test_context.
# This may be replaced when dependencies are built.
