#!/usr/bin/env bash
# Build and run the seed C++ reference benchmarks (search and MLP).
# Usage:
#   benches/seed_cpp/run.sh [repetitions]   both: search with R reps (default 200),
#                                           then the MLP with its defaults
#   benches/seed_cpp/run.sh search [repetitions]
#   benches/seed_cpp/run.sh mlp [epochs] [seed] [reps] [nseeds]
#                                           (defaults 4000 1 5 10)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$here/build"

build_search() {
  g++ -O2 -std=c++17 -Wall -Wextra -o "$here/build/seed_search" "$here/seed_search.cpp"
}
build_mlp() {
  g++ -O2 -std=c++17 -Wall -Wextra -o "$here/build/seed_mlp" "$here/seed_mlp.cpp"
}

case "${1:-}" in
  search)
    shift
    build_search
    exec "$here/build/seed_search" "$@"
    ;;
  mlp)
    shift
    build_mlp
    exec "$here/build/seed_mlp" "$@"
    ;;
  *)
    build_search
    build_mlp
    echo "### seed_search ###"
    "$here/build/seed_search" "$@"
    echo
    echo "### seed_mlp ###"
    exec "$here/build/seed_mlp"
    ;;
esac
