file(REMOVE_RECURSE
  "CMakeFiles/test_noplatform.dir/test_noplatform.c.o"
  "CMakeFiles/test_noplatform.dir/test_noplatform.c.o.d"
  "test_noplatform"
  "test_noplatform.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_noplatform.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
