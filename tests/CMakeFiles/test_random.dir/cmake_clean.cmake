file(REMOVE_RECURSE
  "CMakeFiles/test_random.dir/test_random.c.o"
  "CMakeFiles/test_random.dir/test_random.c.o.d"
  "test_random"
  "test_random.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_random.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
