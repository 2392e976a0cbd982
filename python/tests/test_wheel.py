"""The built wheel (tools/build-wheel.sh) in a clean venv: tools/check-wheel.sh
installs it there and exports three models (checked against eager in
onnxruntime) and runs the installed `aten-translate`. Skipped when no wheel
has been built (target/wheels/)."""

import glob
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _newest_wheel():
    wheels = glob.glob(os.path.join(ROOT, "target", "wheels", "aten2onnx-*.whl"))
    return max(wheels, key=os.path.getmtime) if wheels else None


def test_wheel_installs_and_exports_in_a_clean_venv():
    wheel = _newest_wheel()
    if wheel is None:
        pytest.skip("no wheel built: bash tools/build-wheel.sh")
    result = subprocess.run(
        ["bash", os.path.join(ROOT, "tools", "check-wheel.sh"), wheel], capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr}"
    assert result.stdout.count("\nok  ") + result.stdout.startswith("ok  ") >= 4, result.stdout
