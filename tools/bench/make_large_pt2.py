#!/usr/bin/env python3
"""Write a .pt2 archive whose weights total about --mb megabytes (default 200).

Used for the reader's peak-RSS benchmark (the output is NOT checked in):

    .venv/bin/python tools/bench/make_large_pt2.py /tmp/large.pt2 --mb 200
    cargo build --release -p aten2onnx-pt2 --example open_archive
    /usr/bin/time -v target/release/examples/open_archive /tmp/large.pt2

The model is a stack of square float32 Linear layers of width --width (default 2048,
i.e. 16 MiB + 8 KiB per layer); the number of layers is chosen to reach the target size.
Weights are filled deterministically without materialising random data twice.
"""

from __future__ import annotations

import argparse
import sys

import torch
import torch.nn as nn


class Stack(nn.Module):
    def __init__(self, layers: int, width: int) -> None:
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(width, width) for _ in range(layers))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = torch.relu(layer(x))
        return x


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", help="output .pt2 path")
    ap.add_argument("--mb", type=float, default=200.0, help="target total weight size in MB (10^6 bytes)")
    ap.add_argument("--width", type=int, default=2048, help="Linear layer width")
    ap.add_argument("--core", action="store_true", help="save the core-ATen (run_decompositions) program")
    args = ap.parse_args()

    per_layer = (args.width * args.width + args.width) * 4
    layers = max(1, round(args.mb * 1e6 / per_layer))
    torch.manual_seed(0)
    with torch.no_grad():
        model = Stack(layers, args.width).eval()
        for i, layer in enumerate(model.layers):
            layer.weight.fill_(1.0 / (i + 1)).mul_(0.01)
            layer.bias.zero_()
    ep = torch.export.export(model, (torch.randn(2, args.width),))
    if args.core:
        ep = ep.run_decompositions()
    torch.export.save(ep, args.out)
    total = layers * per_layer
    print(f"wrote {args.out}: {layers} x Linear({args.width}, {args.width}), "
          f"{total / 1e6:.1f} MB of weights")
    return 0


if __name__ == "__main__":
    sys.exit(main())
