#!/usr/bin/env bash
# Build and run the seed C++ search reference benchmark.
# Usage: benches/seed_cpp/run.sh [repetitions]   (default 200)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$here/build"
g++ -O2 -std=c++17 -Wall -Wextra -o "$here/build/seed_search" "$here/seed_search.cpp"
exec "$here/build/seed_search" "$@"
