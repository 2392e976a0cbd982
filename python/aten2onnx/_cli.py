"""The `aten-translate` and `aten-opt` commands of the Python package.

Both run the compiler in the extension module (`_native.cli_main`), the same
code as the Rust binaries of a source checkout (src/cli/), so a wheel carries
one copy of it. `aten-translate --help` lists the options.
"""

import sys


def _run(tool: str) -> None:
    from . import _native

    sys.exit(_native.cli_main(tool, sys.argv[1:]))


def translate() -> None:
    """`aten-translate`: .pt2 / .mlir / .onnx -> ONNX (and the dialect printers)."""
    _run("aten-translate")


def opt() -> None:
    """`aten-opt`: runs pass pipelines over aten / onnx dialect modules."""
    _run("aten-opt")
