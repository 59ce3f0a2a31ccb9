# Empty dependencies file for bench_batch.
# This may be replaced when dependencies are built.
