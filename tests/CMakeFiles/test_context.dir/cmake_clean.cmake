file(REMOVE_RECURSE
  "CMakeFiles/test_context.dir/test_context.c.o"
  "CMakeFiles/test_context.dir/test_context.c.o.d"
  "test_context"
  "test_context.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_context.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
