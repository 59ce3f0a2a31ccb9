
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/host/batch.c" "CMakeFiles/mink.dir/host/batch.c.o" "gcc" "CMakeFiles/mink.dir/host/batch.c.o.d"
  "/work/main/host/context.c" "CMakeFiles/mink.dir/host/context.c.o" "gcc" "CMakeFiles/mink.dir/host/context.c.o.d"
  "/work/main/host/device.c" "CMakeFiles/mink.dir/host/device.c.o" "gcc" "CMakeFiles/mink.dir/host/device.c.o.d"
  "/work/main/host/program.c" "CMakeFiles/mink.dir/host/program.c.o" "gcc" "CMakeFiles/mink.dir/host/program.c.o.d"
  "/work/main/host/sample.c" "CMakeFiles/mink.dir/host/sample.c.o" "gcc" "CMakeFiles/mink.dir/host/sample.c.o.d"
  "/work/main/host/scalar.c" "CMakeFiles/mink.dir/host/scalar.c.o" "gcc" "CMakeFiles/mink.dir/host/scalar.c.o.d"
  "/work/main/host/status.c" "CMakeFiles/mink.dir/host/status.c.o" "gcc" "CMakeFiles/mink.dir/host/status.c.o.d"
  "/work/main/host/world.c" "CMakeFiles/mink.dir/host/world.c.o" "gcc" "CMakeFiles/mink.dir/host/world.c.o.d"
  "/work/main/host/world_opencl.c" "CMakeFiles/mink.dir/host/world_opencl.c.o" "gcc" "CMakeFiles/mink.dir/host/world_opencl.c.o.d"
  "/work/main/host/world_scalar.c" "CMakeFiles/mink.dir/host/world_scalar.c.o" "gcc" "CMakeFiles/mink.dir/host/world_scalar.c.o.d"
  "/work/main/kernels_embedded.c" "CMakeFiles/mink.dir/kernels_embedded.c.o" "gcc" "CMakeFiles/mink.dir/kernels_embedded.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
