file(REMOVE_RECURSE
  "CMakeFiles/test_polygon.dir/test_polygon.c.o"
  "CMakeFiles/test_polygon.dir/test_polygon.c.o.d"
  "test_polygon"
  "test_polygon.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_polygon.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
