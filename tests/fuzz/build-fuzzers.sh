#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
# Configures and builds the standalone libFuzzer project with clang (CTest: fuzz_build).
#   build-fuzzers.sh PROJECT_DIR BUILD_DIR CLANGXX GENERATOR WERROR
set -euo pipefail
project=$1 build=$2 cxx=$3 generator=$4 werror=$5
cmake -S "$project" -B "$build" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREDRIVE_WERROR="$werror"
cmake --build "$build" --parallel "${REDRIVE_FUZZ_JOBS:-2}"
