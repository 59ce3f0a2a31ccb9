# Empty compiler generated dependencies file for bench_box2d.
# This may be replaced when dependencies are built.
