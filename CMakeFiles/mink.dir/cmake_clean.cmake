file(REMOVE_RECURSE
  "CMakeFiles/mink.dir/host/batch.c.o"
  "CMakeFiles/mink.dir/host/batch.c.o.d"
  "CMakeFiles/mink.dir/host/context.c.o"
  "CMakeFiles/mink.dir/host/context.c.o.d"
  "CMakeFiles/mink.dir/host/device.c.o"
  "CMakeFiles/mink.dir/host/device.c.o.d"
  "CMakeFiles/mink.dir/host/program.c.o"
  "CMakeFiles/mink.dir/host/program.c.o.d"
  "CMakeFiles/mink.dir/host/sample.c.o"
  "CMakeFiles/mink.dir/host/sample.c.o.d"
  "CMakeFiles/mink.dir/host/scalar.c.o"
  "CMakeFiles/mink.dir/host/scalar.c.o.d"
  "CMakeFiles/mink.dir/host/status.c.o"
  "CMakeFiles/mink.dir/host/status.c.o.d"
  "CMakeFiles/mink.dir/host/world.c.o"
  "CMakeFiles/mink.dir/host/world.c.o.d"
  "CMakeFiles/mink.dir/host/world_opencl.c.o"
  "CMakeFiles/mink.dir/host/world_opencl.c.o.d"
  "CMakeFiles/mink.dir/host/world_scalar.c.o"
  "CMakeFiles/mink.dir/host/world_scalar.c.o.d"
  "CMakeFiles/mink.dir/kernels_embedded.c.o"
  "CMakeFiles/mink.dir/kernels_embedded.c.o.d"
  "kernels_embedded.c"
  "libmink.a"
  "libmink.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/mink.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
