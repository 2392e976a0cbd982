#!/usr/bin/env bash
# Builds the self-contained aten2onnx wheel: the extension module with MLIR
# linked statically (only the func/arith dialects and the generic transforms
# it registers: see src/context.rs), stripped, abi3 (one wheel for every
# CPython >= 3.10), manylinux-tagged by maturin's auditwheel check. It needs
# nothing at run time but libc, libm, libgcc_s and libstdc++, and installs the
# `aten-translate` and `aten-opt` commands (python/aten2onnx/_cli.py).
# Built without the `torch` feature: the wheel works with any torch the user
# has (torch is only used from Python), so `verify=True` / `--verify` are not
# in it (build from source with --features torch for them, docs/python.md).
#
#   bash tools/build-wheel.sh [OUT_DIR]     # default target/wheels
#   bash tools/check-wheel.sh target/wheels/aten2onnx-*.whl
#
# Needs the build machine's Rust and LLVM/MLIR 22 (bash tools/setup.sh);
# about 4 minutes on 2 cores from a warm cache.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$(realpath -m "${1:-$root/target/wheels}")"
# shellcheck source=/dev/null
source "$root/tools/env.sh"
maturin="$root/.venv/bin/maturin"
[ -x "$maturin" ] || maturin=maturin
mkdir -p "$out"
cd "$root/python"
"$maturin" build --release --strip --features abi3 --auditwheel check --out "$out"
ls -l "$out"/aten2onnx-*.whl
