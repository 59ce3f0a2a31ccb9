file(REMOVE_RECURSE
  "CMakeFiles/test_aabb.dir/test_aabb.c.o"
  "CMakeFiles/test_aabb.dir/test_aabb.c.o.d"
  "test_aabb"
  "test_aabb.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_aabb.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
