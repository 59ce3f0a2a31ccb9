# Empty dependencies file for test_noplatform.
# This may be replaced when dependencies are built.
