# Empty dependencies file for mink_cli.
# This may be replaced when dependencies are built.
