file(REMOVE_RECURSE
  "CMakeFiles/test_circle_random.dir/test_circle_random.c.o"
  "CMakeFiles/test_circle_random.dir/test_circle_random.c.o.d"
  "test_circle_random"
  "test_circle_random.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_circle_random.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
