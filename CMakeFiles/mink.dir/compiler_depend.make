# Empty compiler generated dependencies file for mink.
# This may be replaced when dependencies are built.
