#!/usr/bin/env bash
# Installs a built wheel (tools/build-wheel.sh) into a clean venv and runs
# tools/wheel_smoke.py there: three models exported and compared with eager
# in onnxruntime, and the installed `aten-translate` command.
#
#   bash tools/check-wheel.sh target/wheels/aten2onnx-*.whl [--fresh-torch]
#
# The venv has no Rust, no LLVM and nothing of this checkout. Its torch,
# onnxruntime, onnx and numpy come from this checkout's .venv through a .pth
# file (placed after the venv's own site-packages, and .pth files there are
# not read, so the checkout's editable aten2onnx stays invisible), unless
# --fresh-torch, which pip-installs the CPU torch wheel and the rest into the
# venv (minutes of download). Prints the install time of the wheel.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
wheel="$(realpath "${1:?usage: check-wheel.sh WHEEL [--fresh-torch]}")"
fresh="${2:-}"
venv="$(mktemp -d /tmp/aten2onnx-wheel-venv.XXXXXX)"
trap 'rm -rf "$venv"' EXIT
python="${PYTHON:-python3}"
"$python" -m venv "$venv"
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
if [ "$fresh" = "--fresh-torch" ]; then
  "$venv/bin/pip" install -q torch --index-url https://download.pytorch.org/whl/cpu
  "$venv/bin/pip" install -q onnxruntime onnx numpy
else
  main_site="$("$root/.venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  echo "$main_site" > "$site/zz_checkout_torch.pth"
fi
# No build tools, no checkout on the way: the wheel alone.
start=$(date +%s%N)
env -u LD_LIBRARY_PATH -u MLIR_SYS_220_PREFIX -u TABLEGEN_220_PREFIX \
  "$venv/bin/pip" install -q --no-deps --no-index "$wheel"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
printf 'installed %s (%s bytes) in %d.%03d s\n' "$(basename "$wheel")" "$(stat -c %s "$wheel")" $((ms / 1000)) $((ms % 1000))
cd "$venv"
env -u LD_LIBRARY_PATH -u MLIR_SYS_220_PREFIX -u TABLEGEN_220_PREFIX PATH="$venv/bin:/usr/bin:/bin" \
  "$venv/bin/python" "$root/tools/wheel_smoke.py"
