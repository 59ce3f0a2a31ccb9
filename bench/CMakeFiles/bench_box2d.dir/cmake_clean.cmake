file(REMOVE_RECURSE
  "CMakeFiles/bench_box2d.dir/bench_box2d.c.o"
  "CMakeFiles/bench_box2d.dir/bench_box2d.c.o.d"
  "CMakeFiles/bench_box2d.dir/peer_box2d.cpp.o"
  "CMakeFiles/bench_box2d.dir/peer_box2d.cpp.o.d"
  "bench_box2d"
  "bench_box2d.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C CXX)
  include(CMakeFiles/bench_box2d.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
