file(REMOVE_RECURSE
  "CMakeFiles/mink_cli.dir/cli/main.c.o"
  "CMakeFiles/mink_cli.dir/cli/main.c.o.d"
  "cli/mink"
  "cli/mink.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/mink_cli.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
