#!/bin/sh
# Installs mink into a scratch prefix and builds a program outside the tree against it, once with
# find_package(mink) and once with pkg-config. Usage: install_test.sh BUILD_DIR SOURCE_DIR SCRATCH
set -eu
build=$1 src=$2 scratch=$3
rm -rf "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
test -x "$scratch/prefix/bin/mink"
"$scratch/prefix/bin/mink" --version

cmake -S "$src/tests/consumer" -B "$scratch/cmake-build" -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/cmake-build" >/dev/null
"$scratch/cmake-build/consumer"

pcdir=$(dirname "$(find "$scratch/prefix" -name mink.pc | head -n 1)")
# shellcheck disable=SC2046
cc -std=c11 -O3 -march=native -ffp-contract=fast -o "$scratch/consumer-pc" "$src/tests/consumer/consumer.c" \
   $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs mink)
"$scratch/consumer-pc"
echo "install test: both builds ran"
