#!/usr/bin/env bash
# One-time (idempotent) machine set-up for aten2onnx:
#   - Debian LLVM/MLIR 22 packages that melior 0.27 links against, plus lit/FileCheck;
#   - a Python venv (.venv) with torch 2.13 / onnx / onnxruntime for the registry
#     generators, fixture capture and reference checks, plus torchvision and
#     transformers for the model corpus (tools/capture/capture_corpus.py), maturin and
#     pytest for the Python entry point (python/).
# Fast when everything is already in place: each step checks before it installs.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LLVM_PREFIX=/usr/lib/llvm-22

APT_PACKAGES=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libpolly-22-dev
              libzstd-dev libz3-dev libxml2-dev zlib1g-dev clang-22 libclang-22-dev)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Python side. Pinned: the registries are generated from exactly these versions.
VENV="$ROOT/.venv"
PY_PINS=(torch==2.13.0 onnx==1.23.2 onnxruntime==1.32.0 numpy
         torchvision==0.28.0 transformers==5.24.0 onnxscript==0.7.2
         maturin==1.16.0 pytest==9.2.0)
if [ ! -x "$VENV/bin/python" ]; then
  echo "setup: creating $VENV" >&2
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" - <<'PY' 2>/dev/null
import importlib.metadata as m, sys
want = {"torch": "2.13.0", "onnx": "1.23.2", "onnxruntime": "1.32.0",
        "torchvision": "0.28.0", "transformers": "5.24.0", "onnxscript": "0.7.2",
        "maturin": "1.16.0", "pytest": "9.2.0"}
sys.exit(0 if all(m.version(k) == v for k, v in want.items()) else 1)
PY
then
  echo "setup: installing ${PY_PINS[*]} into $VENV (torch is large: several minutes)" >&2
  "$VENV/bin/pip" install -q --disable-pip-version-check "${PY_PINS[@]}"
fi
echo "setup: ok" >&2
