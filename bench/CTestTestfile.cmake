# CMake generated Testfile for 
# Source directory: /work/main/bench
# Build directory: /work/main/bench
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[bench_batch_smoke]=] "/work/main/bench/bench_batch" "10000" "1")
set_tests_properties([=[bench_batch_smoke]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/bench/CMakeLists.txt;8;add_test;/work/main/bench/CMakeLists.txt;0;")
add_test([=[bench_box2d_smoke]=] "/work/main/bench/bench_box2d" "2000" "1")
set_tests_properties([=[bench_box2d_smoke]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/bench/CMakeLists.txt;25;add_test;/work/main/bench/CMakeLists.txt;0;")
