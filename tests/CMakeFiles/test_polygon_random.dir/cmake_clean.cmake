file(REMOVE_RECURSE
  "CMakeFiles/test_polygon_random.dir/test_polygon_random.c.o"
  "CMakeFiles/test_polygon_random.dir/test_polygon_random.c.o.d"
  "test_polygon_random"
  "test_polygon_random.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_polygon_random.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
