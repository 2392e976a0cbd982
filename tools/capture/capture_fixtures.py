#!/usr/bin/env python3
"""Capture the .pt2 test fixtures used by the `aten2onnx-pt2` crate (and others).

Run from the repository root:

    .venv/bin/python tools/capture/capture_fixtures.py [--out tests/fixtures]

Everything is deterministic (fixed seeds, tiny shapes); every archive is a few
tens of KB.  Besides the valid fixtures it writes a few deliberately broken
archives used by the reader's error tests.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import struct
import sys
import warnings
import zipfile
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

REPO = Path(__file__).resolve().parents[2]

# Benign noise from torch 2.13's exporter/packager.
warnings.filterwarnings("ignore", message=".*LeafSpec.*", category=FutureWarning)
warnings.filterwarnings("ignore", message="No complete tensor found", category=UserWarning)


# --------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------


class MLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.fc1(x))
        # A view with the dynamic batch dim, so the graph has a symbolic size argument.
        h = h.view(x.shape[0], -1)
        return self.fc2(h)


class ConvBlock(nn.Module):
    """Conv2d + BatchNorm2d (train mode: running stats are buffer mutations) + ReLU + MaxPool."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, kernel_size=3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.pool = nn.MaxPool2d(2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(torch.relu(self.bn(self.conv(x))))


class Attention(nn.Module):
    """Tiny pre-norm self-attention block with inplace ops and a buffer mutation."""

    def __init__(self, dim: int = 16, heads: int = 2) -> None:
        super().__init__()
        self.heads = heads
        self.norm = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        # A non-contiguous parameter (transposed view of its storage).
        self.proj.weight = nn.Parameter(torch.randn(dim, dim).t() * 0.1)
        self.register_buffer("steps", torch.zeros((), dtype=torch.int64))
        # Non-persistent buffer -> lands in data/constants/ (not in the state dict).
        self.register_buffer("head_gain", torch.full((dim,), 0.9), persistent=False)
        # Plain tensor attributes -> lifted tensor constants; `pos_row` is a view of
        # `pos_table` (shared storage, storage_offset != 0).
        self.pos_table = torch.arange(3 * dim, dtype=torch.float32).reshape(3, dim) / 100.0
        self.pos_row = self.pos_table[1]

    def forward(self, x: torch.Tensor, pad_mask: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        h = self.norm(x + self.pos_row)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        q = q.reshape(b, t, self.heads, d // self.heads).transpose(1, 2)
        k = k.reshape(b, t, self.heads, d // self.heads).transpose(1, 2)
        v = v.reshape(b, t, self.heads, d // self.heads).transpose(1, 2)
        # pad_mask: [b, t] bool, True = padding; attend only to non-padding keys.
        bias = torch.zeros(b, 1, 1, t, dtype=x.dtype)
        bias.masked_fill_(pad_mask[:, None, None, :], float("-inf"))
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        o = o.transpose(1, 2).reshape(b, t, d)
        out = self.proj(o) * self.head_gain
        out.add_(x)  # inplace residual
        self.steps.add_(1)  # buffer mutation
        return out


class CondModel(nn.Module):
    """torch.cond with two branch functions (closing over a Linear), dynamic batch."""

    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        def true_fn(x: torch.Tensor) -> torch.Tensor:
            return self.lin(x).sin()

        def false_fn(x: torch.Tensor) -> torch.Tensor:
            return x.cos() * 2.0

        return torch.cond(x.sum() > 0, true_fn, false_fn, (x,))


class WhileLoopModel(nn.Module):
    def forward(self, it: torch.Tensor, x: torch.Tensor):
        from torch._higher_order_ops.while_loop import while_loop

        def cond_fn(it, x):
            return it < 5

        def body_fn(it, x):
            return it + 1, x * 0.5 + 1.0

        return while_loop(cond_fn, body_fn, (it, x))


@torch.library.custom_op("aten2onnx_test::scale", mutates_args=())
def scale(x: torch.Tensor, factor: float) -> torch.Tensor:
    """A custom op: not in the aten registry, so import must refuse it."""
    return x * factor


@scale.register_fake
def _(x: torch.Tensor, factor: float) -> torch.Tensor:
    return torch.empty_like(x)


class CustomOpModel(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return scale(torch.relu(x), 2.0) + scale(x, 3.0)


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def strip_nondeterministic_meta(ep: torch.export.ExportedProgram) -> None:
    """Drop node.meta["from_node"]: it records id()s of Python graph objects
    (`graph_id`), which change from run to run (seen after run_decompositions).
    Stack traces name this script relative to the repository, so the fixtures
    do not depend on where the checkout lives."""
    prefix = str(REPO) + os.sep
    for mod in ep.graph_module.modules():
        graph = getattr(mod, "graph", None)
        if isinstance(graph, torch.fx.Graph):
            for node in graph.nodes:
                node.meta.pop("from_node", None)
                trace = node.meta.get("stack_trace")
                if trace:
                    node.meta["stack_trace"] = trace.replace(prefix, "")


def save(ep: torch.export.ExportedProgram, path: Path) -> None:
    strip_nondeterministic_meta(ep)
    torch.export.save(ep, str(path))
    print(f"wrote {path.relative_to(REPO) if path.is_relative_to(REPO) else path} "
          f"({path.stat().st_size} bytes)")


def repack(src: Path, dst: Path, edit) -> None:
    """Rewrite a .pt2 archive, passing every (name, bytes) through `edit`.

    Entries are written STORED (uncompressed) with the data 64-byte aligned,
    as torch's own writer does (padding goes into an 'FB' extra field).
    """
    with zipfile.ZipFile(src) as zin:
        items = [(i.filename, zin.read(i.filename)) for i in zin.infolist()]
    with open(dst, "wb") as f, zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as zout:
        for name, data in items:
            data = edit(name, data)
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            header_offset = f.tell()
            fixed = 30 + len(name.encode())
            pad = (-(header_offset + fixed + 4)) % 64
            info.extra = struct.pack("<HH", 0x4246, pad) + b"Z" * pad
            zout.writestr(info, data)
    print(f"wrote {dst.relative_to(REPO) if dst.is_relative_to(REPO) else dst} "
          f"({dst.stat().st_size} bytes)")


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=REPO / "tests" / "fixtures")
    args = ap.parse_args()
    if not torch.__version__.startswith("2.13"):
        print(f"warning: fixtures were made with torch 2.13, this is {torch.__version__}",
              file=sys.stderr)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)

    # mlp / mlp_core ---------------------------------------------------------
    torch.manual_seed(0)
    mlp = MLP().eval()
    ep = torch.export.export(
        mlp, (torch.randn(3, 8),), dynamic_shapes=({0: Dim("batch")},)
    )
    save(ep, out / "mlp.pt2")
    save(ep.run_decompositions(), out / "mlp_core.pt2")

    # conv_block -------------------------------------------------------------
    torch.manual_seed(1)
    conv = ConvBlock().train()
    ep = torch.export.export(conv, (torch.randn(2, 3, 8, 8),))
    save(ep, out / "conv_block.pt2")
    save(ep.run_decompositions(), out / "conv_block_core.pt2")

    # attention / attention_core --------------------------------------------
    torch.manual_seed(2)
    attn = Attention().eval()
    x = torch.randn(2, 5, 16)
    pad = torch.zeros(2, 5, dtype=torch.bool)
    pad[1, 3:] = True
    ep = torch.export.export(attn, (x, pad))
    save(ep, out / "attention.pt2")
    save(ep.run_decompositions(), out / "attention_core.pt2")

    # cond ------------------------------------------------------------------
    torch.manual_seed(3)
    ep = torch.export.export(
        CondModel().eval(), (torch.randn(3, 4),), dynamic_shapes=({0: Dim("batch")},)
    )
    save(ep, out / "cond.pt2")

    # while_loop ------------------------------------------------------------
    torch.manual_seed(4)
    ep = torch.export.export(
        WhileLoopModel(), (torch.tensor(0, dtype=torch.int64), torch.randn(3))
    )
    save(ep, out / "while_loop.pt2")

    # custom_op: two nodes of an op the aten registry does not have ---------
    ep = torch.export.export(CustomOpModel(), (torch.randn(2, 3),))
    save(ep, out / "custom_op.pt2")

    # bad inputs -------------------------------------------------------------
    mlp_bytes = (out / "mlp.pt2").read_bytes()
    (out / "truncated.pt2").write_bytes(mlp_bytes[: len(mlp_bytes) // 2])
    print("wrote truncated.pt2")
    (out / "not_a_zip.pt2").write_text("this is not a zip archive, just some text\n")
    print("wrote not_a_zip.pt2")

    def bump_major(name: str, data: bytes) -> bytes:
        if name.endswith("/models/model.json"):
            doc = json.loads(data)
            doc["schema_version"]["major"] = 99
            return json.dumps(doc).encode()
        return data

    repack(out / "mlp.pt2", out / "bad_schema.pt2", bump_major)

    def corrupt(name: str, data: bytes) -> bytes:
        if name.endswith("/models/model.json"):
            # Keep it a single line; break the JSON a bit after the start.
            return data[:40] + b"}}}, oops" + data[40:]
        return data

    repack(out / "mlp.pt2", out / "corrupt_json.pt2", corrupt)
    return 0


if __name__ == "__main__":
    sys.exit(main())
