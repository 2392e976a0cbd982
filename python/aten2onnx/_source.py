"""Where a graph node came from, for error messages."""

from __future__ import annotations

import re
from typing import Optional


def user_line(stack_trace: Optional[str]) -> Optional[str]:
    """`file.py:LINE` of the user's frame of a node's stack trace: the
    innermost one outside torch and generated code (as the compiler picks
    it)."""
    frames = re.findall(r'File "([^"]+)", line (\d+)', stack_trace or "")
    for file, line in reversed(frames):
        if not ("/site-packages/" in file or "/dist-packages/" in file or file.startswith(("torch/", "<"))):
            return f"{file}:{line}"
    return f"{frames[0][0]}:{frames[0][1]}" if frames else None
