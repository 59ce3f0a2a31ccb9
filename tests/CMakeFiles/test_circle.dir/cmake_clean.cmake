file(REMOVE_RECURSE
  "CMakeFiles/test_circle.dir/test_circle.c.o"
  "CMakeFiles/test_circle.dir/test_circle.c.o.d"
  "test_circle"
  "test_circle.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_circle.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
