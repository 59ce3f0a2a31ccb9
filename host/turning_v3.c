/* host/turning_v3.c — host/turning.c built for x86-64-v3 (CMakeLists.txt gives the flag), only
 * where the compiler has it; turning.c calls it on processors that do. */
#define MINK_TURNING_V3_BUILD
#include "turning.c"
