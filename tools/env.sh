# Sourced by the project scripts: environment for building and testing.
# (cargo also reads the MLIR prefixes from .cargo/config.toml.)
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export MLIR_SYS_220_PREFIX=/usr/lib/llvm-22
export TABLEGEN_220_PREFIX=/usr/lib/llvm-22
export LIBCLANG_PATH=/usr/lib/llvm-22/lib
export ATEN2ONNX_PYTHON="$ROOT/.venv/bin/python"
export PATH="/usr/lib/llvm-22/bin:$PATH"
# onnxruntime for the Rust parity tests: the Python wheel's shared library.
ORT_LIB="$(ls "$ROOT"/.venv/lib/python3*/site-packages/onnxruntime/capi/libonnxruntime.so.* 2>/dev/null | head -1)"
[ -n "$ORT_LIB" ] && export ORT_DYLIB_PATH="$ORT_LIB"
# libtorch for the `torch` feature (tch 0.26 pairs with torch 2.13): torch-sys
# finds it through the venv's python; the tools need its libraries at run time.
export LIBTORCH_USE_PYTORCH=1
export PATH="$ROOT/.venv/bin:$PATH"
TORCH_LIB="$(ls -d "$ROOT"/.venv/lib/python3*/site-packages/torch/lib 2>/dev/null | head -1)"
[ -n "$TORCH_LIB" ] && export LD_LIBRARY_PATH="$TORCH_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
