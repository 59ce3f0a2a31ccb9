file(REMOVE_RECURSE
  "CMakeFiles/bench_batch.dir/bench_batch.c.o"
  "CMakeFiles/bench_batch.dir/bench_batch.c.o.d"
  "bench_batch"
  "bench_batch.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench_batch.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
