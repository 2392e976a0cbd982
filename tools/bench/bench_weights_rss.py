#!/usr/bin/env python3
"""Peak RSS of `aten-translate --to-onnx` on a model whose every weight goes
through a weight transform done by the writer (issue 8, item 2).

The generated model (not checked in) is a stack of bias-free Linear layers
applied to a 3-D input (each weight becomes a transposed initializer,
`onnx.weight_transform{transpose}`), followed by Conv2d + BatchNorm2d blocks
(each folded into the Conv's weight and bias, `conv_bn_weight` /
`conv_bn_bias`). The script prints the total weight bytes, the ONNX
initializer bytes written, the transform kinds found in the optimized IR, and
the converter's peak RSS (/usr/bin/time's maximum resident set size), next to the bound
"weights + 100 MB" (the weights' pages are file-backed and released once
written, so the expectation is far below it).

    .venv/bin/python tools/bench/bench_weights_rss.py                 # ~1.1 GB of weights
    .venv/bin/python tools/bench/bench_weights_rss.py --mb 40 --check # small, and compare with eager in onnxruntime

Uses target/debug/aten-translate unless --bin is given.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch
import torch.nn as nn

REPO = Path(__file__).resolve().parents[2]


class Model(nn.Module):
    def __init__(self, layers: int, width: int, convs: int, channels: int) -> None:
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(width, width, bias=False) for _ in range(layers))
        self.convs = nn.ModuleList(nn.Conv2d(channels, channels, 3, padding=1) for _ in range(convs))
        self.bns = nn.ModuleList(nn.BatchNorm2d(channels) for _ in range(convs))

    def forward(self, x: torch.Tensor, img: torch.Tensor):
        for layer in self.layers:
            x = torch.relu(layer(x))
        for conv, bn in zip(self.convs, self.bns):
            img = torch.relu(bn(conv(img)))
        return x, img


def peak_rss(cmd: list[str]) -> tuple[int, int, str]:
    """(peak RSS in bytes of the command, exit code, stderr), measured by
    /usr/bin/time: a child forked from this (torch-sized) process would
    inherit its high-water mark (Linux keeps the larger of the two across
    exec), so getrusage here would report this script's RSS."""
    with tempfile.NamedTemporaryFile(mode="r") as out:
        run = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name, *cmd],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        kb = int(out.read().strip().splitlines()[-1])
        return kb * 1024, run.returncode, run.stderr


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=float, default=1100.0, help="total weight size in MB (10^6 bytes)")
    ap.add_argument("--width", type=int, default=4096, help="Linear width (default 4096: 67 MB per layer)")
    ap.add_argument("--convs", type=int, default=2, help="Conv2d+BatchNorm2d blocks")
    ap.add_argument("--channels", type=int, default=1024, help="Conv2d channels (default 1024: 37.7 MB per conv)")
    ap.add_argument("--bin", default=str(REPO / "target" / "debug" / "aten-translate"))
    ap.add_argument("--keep", help="directory for the .pt2 and .onnx (default: a temporary one)")
    ap.add_argument("--check", action="store_true", help="run the ONNX model in onnxruntime and compare with eager")
    args = ap.parse_args()

    conv_bytes = args.convs * (args.channels * args.channels * 9 + 5 * args.channels) * 4
    per_layer = args.width * args.width * 4
    layers = max(1, round((args.mb * 1e6 - conv_bytes) / per_layer))
    torch.manual_seed(0)
    with torch.no_grad():
        model = Model(layers, args.width, args.convs, args.channels).eval()
        for i, layer in enumerate(model.layers):
            # deterministic and cheap to fill: an asymmetric pattern (a transpose shows)
            n = args.width
            layer.weight.copy_((torch.arange(n * n, dtype=torch.float32).reshape(n, n) % 97 - 48) / (48 * n) + i * 1e-4)
        for bn in model.bns:
            bn.weight.uniform_(0.5, 2.0)
            bn.bias.uniform_(-1, 1)
            bn.running_mean.uniform_(-0.5, 0.5)
            bn.running_var.uniform_(0.2, 3.0)
    weight_bytes = sum(p.numel() * p.element_size() for p in model.state_dict().values())
    x = torch.randn(1, 2, args.width)
    img = torch.randn(1, args.channels, 4, 4)

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.keep or tmp)
        work.mkdir(parents=True, exist_ok=True)
        pt2, onnx_path = work / "weights_rss.pt2", work / "weights_rss.onnx"
        ep = torch.export.export(model, (x, img))
        torch.export.save(ep, str(pt2))
        expected = model(x, img) if args.check else None
        del ep, model
        print(f"model: {layers} x Linear({args.width}, {args.width}) on a 3-D input, "
              f"{args.convs} x Conv2d({args.channels}, {args.channels}, 3) + BatchNorm2d")
        print(f"weights: {weight_bytes / 1e6:.1f} MB ({weight_bytes} bytes), archive {pt2.stat().st_size / 1e6:.1f} MB")

        mlir = work / "weights_rss.onnx.mlir"
        # The converter on a tiny model: the fixed part (binary, libraries).
        tiny = peak_rss([args.bin, "--to-onnx", str(REPO / "tests" / "corpus" / "mlp" / "model.pt2"),
                         "-o", str(work / "tiny.onnx"), "-q"])[0]
        start = time.time()
        peak, code, stderr = peak_rss([args.bin, "--to-onnx", str(pt2), "-o", str(onnx_path), "-q"])
        elapsed = time.time() - start
        if code != 0:
            print(stderr, file=sys.stderr)
            return 1
        out_bytes = onnx_path.stat().st_size + sum(p.stat().st_size for p in work.glob("weights_rss.onnx.data"))
        print(f"aten-translate --to-onnx: {elapsed:.1f} s, output {out_bytes / 1e6:.1f} MB")
        print(f"peak RSS: {peak / 1e6:.1f} MB = weights x {peak / weight_bytes:.3f} "
              f"(the same binary on a tiny model: {tiny / 1e6:.1f} MB; growth with the model: "
              f"{(peak - tiny) / 1e6:.1f} MB); bound weights + 100 MB = {(weight_bytes + 100e6) / 1e6:.1f} MB: "
              f"{'OK' if peak <= weight_bytes + 100e6 else 'OVER'}")

        # Which transforms the optimizer made (the optimized IR, without data).
        aten_opt = Path(args.bin).with_name("aten-opt")
        if aten_opt.exists():
            imported = subprocess.run([args.bin, "--from-pt2", str(pt2)], capture_output=True, text=True, check=True).stdout
            src = work / "weights_rss.mlir"
            src.write_text(imported)
            pipeline = ("builtin.module(aten-remove-inplace, convert-aten-to-onnx{opset=23}, func.func(onnx-fold-constants, "
                        "onnx-cse, onnx-fold-constants, dce, onnx-shape-inference, onnx-eqsat))")
            opt = subprocess.run([str(aten_opt), str(src), f"--pass-pipeline={pipeline}"], capture_output=True, text=True)
            text = opt.stdout
            kinds = {}
            for line in text.splitlines():
                if '"onnx.weight_transform"' in line and 'kind = "' in line:
                    kind = line.split('kind = "')[1].split('"')[0]
                    kinds[kind] = kinds.get(kind, 0) + 1
            transposes = text.count('"onnx.Transpose"')
            batch_norms = text.count('"onnx.BatchNormalization"')
            print(f"weight transforms: {kinds}; Transpose nodes: {transposes}, BatchNormalization nodes: {batch_norms}")
            mlir.unlink(missing_ok=True)

        if args.check:
            import numpy as np
            import onnxruntime as ort

            session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
            names = [i.name for i in session.get_inputs()]
            got = session.run(None, dict(zip(names, [x.numpy(), img.numpy()])))
            for g, e in zip(got, expected):
                e = e.detach().numpy()
                err = np.abs(g - e).max()
                ok = np.allclose(g, e, rtol=1e-4, atol=1e-4)
                print(f"onnxruntime vs eager: shape {g.shape}, max abs error {err:.3g}: {'ok' if ok else 'MISMATCH'}")
                if not ok:
                    return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
