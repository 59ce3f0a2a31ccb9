# mink — the two commands a new machine needs: `make demo` and `make test`.
# Each one installs what is missing (Debian packages), configures, builds and runs.
# Everything else is plain CMake under build/ (and build-sanitize/, the sanitizer run of `make test`).

BUILD     ?= build
CONFIG    ?= Release
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)

# Debian 12 packages the build, the OpenCL runtime (PoCL on the CPU) and the tests need, the
# peers the benchmarks compare against (Box2D 2.4, C++: g++; Chipmunk2D 7) and the fuzzers'
# compiler (clang with libFuzzer). The library itself needs none of the last three.
PACKAGES  := cmake make gcc pkg-config \
             opencl-headers ocl-icd-opencl-dev pocl-opencl-icd \
             libcmocka-dev valgrind \
             libpng-dev gnuplot-nox \
             g++ libbox2d-dev libchipmunk-dev \
             clang-14 libclang-rt-14-dev

.PHONY: all deps configure build demo test install clean

all: build

# Installs only what is missing. As root it runs apt-get; otherwise it prints the exact command.
deps:
	@missing=""; \
	for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
	  echo "mink: installing$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else \
	  echo "mink: missing packages:$$missing"; \
	  echo "mink: run this, then make again:"; \
	  echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends$$missing"; \
	  exit 1; \
	fi

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(CONFIG)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# Only what the demo needs (the library and the command), not every benchmark and peer first.
demo: configure
	cmake --build $(BUILD) -j $(JOBS) --target mink_cli
	$(BUILD)/cli/mink demo --out $(BUILD)/mink-demo.png

# The whole suite; the whole suite again built with AddressSanitizer and UBSan; then each fuzz
# target (tests/fuzz) for FUZZ_SECONDS from the committed corpus, built with clang and libFuzzer,
# and the determinism suite in that build (the committed hashes from a second compiler).
# use_sigaltstack=0: PoCL's worker threads and ASan's per-thread signal stack trip over each other
# at thread exit (an ASan CHECK, not a report about mink); ASan still catches what it catches.
# leak_check_at_exit=0 for the fuzzers: libFuzzer checks every input for leaks itself, and the
# final check would judge PoCL's own teardown.
SANITIZE_ENV := ASAN_OPTIONS=use_sigaltstack=0:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
FUZZ_ENV     := ASAN_OPTIONS=use_sigaltstack=0:detect_leaks=1:leak_check_at_exit=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
FUZZ_SECONDS ?= 40

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	cmake -S . -B $(BUILD)-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMINK_SANITIZE=ON
	cmake --build $(BUILD)-sanitize -j $(JOBS)
	$(SANITIZE_ENV) ctest --test-dir $(BUILD)-sanitize --output-on-failure -j $(JOBS)
	CC=clang-14 cmake -S . -B $(BUILD)-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMINK_FUZZ=ON \
	  -DMINK_BUILD_BENCH=OFF -DMINK_FUZZ_SECONDS=$(FUZZ_SECONDS)
	cmake --build $(BUILD)-fuzz -j $(JOBS)
	$(FUZZ_ENV) ctest --test-dir $(BUILD)-fuzz --output-on-failure -j $(JOBS) -L 'fuzz|compilers'

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD)-sanitize $(BUILD)-fuzz
