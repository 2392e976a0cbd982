#!/usr/bin/env python3
"""Writes tests/fixtures/optimizer/weights.pt2: named weights the weight-transform
rules' examples read (passes/optimizer/src/rules/weights.rs, conv.rs and the
onnx-fuse-weights pass), through `aten.archive`.

Parameters: fc.weight [5,4]; conv.weight [4,3,3,3], conv.bias [4];
bn.weight, bn.bias [4] and buffers bn.running_mean, bn.running_var [4];
q.weight [4,4], k.weight [2,4], v.weight [2,4], g.weight, u.weight [4,4]; h16.weight [3,4] (float16);
gqa_wq [32,64], gqa_wk, gqa_wv [32,32] ([K, N] projections of 4 query / 2 kv heads of 16:
the GroupQueryAttention example of passes/optimizer/src/rules/ort_attention.rs);
convt.weight [3,4,2,2] (ConvTranspose2d(3, 4, 2): C_out 4 on axis 1, conv.rs's BatchNormalization fold).
Deterministic (fixed seed); torch 2.13.
"""
import sys
from pathlib import Path

import torch
from torch import nn

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools" / "capture"))
from capture_fixtures import save  # noqa: E402


class Weights(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 5, bias=False)
        self.conv = nn.Conv2d(3, 4, kernel_size=3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.q = nn.Linear(4, 4, bias=False)
        self.k = nn.Linear(4, 2, bias=False)
        self.v = nn.Linear(4, 2, bias=False)
        self.g = nn.Linear(4, 4, bias=False)
        self.u = nn.Linear(4, 4, bias=False)
        self.h16 = nn.Linear(4, 3, bias=False).half()
        with torch.no_grad():
            self.bn.weight.uniform_(0.5, 2.0)
            self.bn.bias.uniform_(-1.0, 1.0)
            self.bn.running_mean.uniform_(-0.5, 0.5)
            self.bn.running_var.uniform_(0.2, 3.0)
        # Created last: the weights above keep their values.
        self.gqa_wq = nn.Parameter(torch.randn(32, 64) * 0.2)
        self.gqa_wk = nn.Parameter(torch.randn(32, 32) * 0.2)
        self.gqa_wv = nn.Parameter(torch.randn(32, 32) * 0.2)
        self.convt = nn.ConvTranspose2d(3, 4, kernel_size=2, bias=False)

    def forward(self, x: torch.Tensor, img: torch.Tensor, x32: torch.Tensor) -> torch.Tensor:
        y = (x32 @ self.gqa_wq).sum() + (x32 @ self.gqa_wk).sum() + (x32 @ self.gqa_wv).sum() + self.fc(x) + self.h16(x.half()).float().sum() + self.q(x).sum() + self.k(x).sum() + self.v(x).sum() + self.g(x).sum() + self.u(x).sum()
        return y + self.bn(self.conv(img)).sum() + self.convt(img).sum()


def main() -> int:
    torch.manual_seed(8)
    model = Weights().eval()
    ep = torch.export.export(model, (torch.randn(2, 4), torch.randn(1, 3, 5, 5), torch.randn(2, 32)))
    save(ep, REPO / "tests" / "fixtures" / "optimizer" / "weights.pt2")
    return 0


if __name__ == "__main__":
    sys.exit(main())
