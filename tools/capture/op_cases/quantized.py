# Quantization ops of PT2E-quantized programs (torchao.quantization.pt2e prepare_pt2e /
# convert_pt2e) and torchao's affine quantization primitives. Imported by
# tools/capture/capture_op_tests.py; `case`, `rn`, `ur` come from op_case_lib.
#
# The ops live outside `aten`: `quantized_decomposed::*` (defined by torch's
# torch.ao.quantization.fx._decomposed, imported below) and `torchao::*` (defined by
# torchao.quantization.quant_primitives; those cases are skipped without torchao, which
# is needed at capture time only). A case claims `quantized_decomposed::quantize_per_tensor.default`,
# i.e. the compiler target `aten.quantized_decomposed::quantize_per_tensor.default`.
# Until their lowering rules exist: `--allow-missing-rules`.
#
# What the inputs exercise (torch's arithmetic; the lowering must reproduce it exactly):
# * quantize_per_tensor/_per_channel/fake_quant compute round(x * (1/scale)) with the reciprocal
#   rounded to the compute dtype (f32(1.0 / scale), the scale a double in the graph), NOT
#   round(x / scale) as ONNX QuantizeLinear does: `_mul_div_split` picks float32 inputs on which
#   the two differ; round half to even (`_ties`: (k + 0.5) * 2^-n exactly), then + zero_point,
#   clamp to [quant_min, quant_max] (narrower than the dtype too), cast;
# * quantize_per_token / quantize_per_channel_group add the zero point BEFORE rounding
#   (round(x * (1/s) + zp)): ties with odd zero points tell the two orders apart;
# * float64 scales (choose_qparams*, or given) promote the computation to float64;
# * dequantize computes (float(q) - zp) * scale in the output dtype (float32 unless out_dtype).

from __future__ import annotations

import importlib.util

import numpy as np
import torch
import torch.ao.quantization.fx._decomposed  # noqa: F401  (registers torch.ops.quantized_decomposed)
import torch.nn.functional as F

from op_case_lib import case, rn, ur

# torchao is imported by the torchao cases only, when they are built (`_torchao_ops`); without it they are
# not registered (their captures are kept).
_HAVE_TORCHAO = importlib.util.find_spec("torchao") is not None


def _torchao_ops():
    import torchao.quantization.quant_primitives  # noqa: F401  (registers torch.ops.torchao.*)

    return torch.ops.torchao

QD = torch.ops.quantized_decomposed
I8 = (-128, 127, torch.int8)
U8 = (0, 255, torch.uint8)


def _f32(v: float) -> float:
    """A Python float (double) that is exactly a float32, as PT2E graphs hold scales."""
    return float(np.float32(v))


def _mul_div_split(scale: float, n: int, lo: int = -100, hi: int = 100, f64: bool = False) -> torch.Tensor:
    """`n` float32 values x (near (k + 0.5) * scale, k in [lo, hi)) on which torch's
    round(x * f32(1 / scale)) differs from round(x / f32(scale)) (ONNX QuantizeLinear); with `f64`
    (a float64 scale, torch computes in float64), on which round(x * (1 / scale)) in float64 differs
    from the float32 round(x * f32(1 / scale))."""
    s32 = np.float32(scale)
    r = np.float32(1.0 / scale)
    base = ((np.arange(lo, hi, dtype=np.float64) + 0.5) * scale).astype(np.float32)
    cands = [base]
    for d in (-np.inf, np.inf):
        step = base
        for _ in range(3):
            step = np.nextafter(step, np.float32(d))
            cands.append(step)
    c = np.unique(np.concatenate(cands))
    other = np.rint(c.astype(np.float64) * (1.0 / scale)) if f64 else np.rint(c / s32)
    hit = c[np.rint(c * r) != other]
    assert len(hit) >= n, (scale, len(hit))
    pick = hit[np.linspace(0, len(hit) - 1, n).round().astype(int)]
    return torch.from_numpy(pick.copy())


def _ties(step: float, lo: int, hi: int) -> torch.Tensor:
    """(k + 0.5) * step for k in [lo, hi): exact float32 rounding ties for scale `step` (a power of 2)."""
    return (torch.arange(lo, hi, dtype=torch.float64) + 0.5).mul(step).to(torch.float32)


S_A = _f32(0.0123)  # f32-exact, as PT2E scales are
S_B = 0.1  # not f32-exact: f32(1 / 0.1) = 10 exactly, 1 / f32(0.1) is not


def _x_per_tensor(g, rows=6):
    """48 float32 values: ties for scale 0.5, values splitting mul/div for S_A and for 0.1,
    far out of range, signed zeros, random."""
    parts = [_ties(0.5, -4, 4), _mul_div_split(S_A, 8), _mul_div_split(S_B, 8, -60, 60),
             torch.tensor([1000.0, -1000.0, 2.0, -2.0, 0.0, -0.0, 1e-30, -1e-30]),
             ur(g, -1.5, 1.5, 16)]
    x = torch.cat(parts)
    return x[torch.randperm(x.numel(), generator=g)].reshape(rows, -1)


# ==========================================================================
# quantized_decomposed: per-tensor
# ==========================================================================



# Why quantize cases carry an int_tolerance (see docs/quantization.md).
_QDQ_DIVIDES = ("QuantizeLinear computes round(x / scale) where torch computes round(x * float32(1 / scale)): two roundings of one quotient, which land on opposite sides of a half-integer for about 1 input in a million; this case's inputs are built on those ties")

@case("qd_quantize_per_tensor", ["quantized_decomposed::quantize_per_tensor.default"],
      lambda g, d: (_x_per_tensor(g), torch.zeros(0, 3)), int_tolerance={"steps": 1, "max_elements": 8, "why": _QDQ_DIVIDES})
def _(self, x, e):
    """quantize_per_tensor (scale a Python float): round(x * f32(1/scale)) half to even + zp, clamp, cast.
    int8 with scale 0.5 (exact ties), 0.0123 (f32-exact) with zp 3 and 0.1 (not f32-exact) with zp -5
    (inputs where round(x/s) differs); uint8 zp 128; int8 [-127, 127]; uint8 [0, 15] (4-bit); int16;
    int32; bfloat16 and float16 inputs (upcast to float32); an empty tensor."""
    q = QD.quantize_per_tensor
    return (q(x, 0.5, 0, *I8), q(x, S_A, 3, *I8), q(x, S_B, -5, *I8), q(x, S_A, 128, *U8),
            q(x, S_A, 0, -127, 127, torch.int8), q(x, 0.5, 8, 0, 15, torch.uint8),
            q(x, 0.001, 7, -32768, 32767, torch.int16), q(x, S_A, -3, -2**31, 2**31 - 1, torch.int32),
            q(x.to(torch.bfloat16), S_A, 0, *I8), q(x.to(torch.float16), 0.5, 1, *I8),
            q(e, 0.5, 0, *I8))


def _q_all_int8(g):
    return torch.arange(-128, 128, dtype=torch.int8)[torch.randperm(256, generator=g)].reshape(16, 16)


def _dq_inputs(g, d):
    q8 = _q_all_int8(g)
    qu8 = torch.arange(0, 256, dtype=torch.int32)[torch.randperm(256, generator=g)].to(torch.uint8).reshape(16, 16)
    q16 = torch.cat([torch.tensor([-32768, 32767, 0, 1, -1]), torch.randint(-32768, 32768, (11,), generator=g)])
    q32 = torch.tensor([-2**31, 2**31 - 1, 16777217, -16777217, 16777216, 0, 1, 123456789], dtype=torch.int32)
    return q8, qu8, q16.to(torch.int16), q32, torch.zeros(0, dtype=torch.int8)


@case("qd_dequantize_per_tensor", ["quantized_decomposed::dequantize_per_tensor.default"], _dq_inputs)
def _(self, q8, qu8, q16, q32, e):
    """dequantize_per_tensor: (q.to(out_dtype) - zp) * scale (float32: f32(scale)); every int8 and uint8
    value; scale 0.5, 0.0123 (f32-exact), 0.1 (not); out_dtype float32 explicit, bfloat16 and float16
    (cast back to float32 here), float64 (scale 0.1 used as a double; cast back); int16; int32 (q
    converted to float32 before subtracting zp: 16777217 - 1 gives 16777215); an empty tensor."""
    dq = QD.dequantize_per_tensor
    f = torch.float32
    return (dq(q8, 0.5, 0, *I8), dq(q8, S_A, 3, *I8), dq(q8, S_B, -5, *I8), dq(qu8, S_A, 128, *U8),
            dq(qu8, 0.25, 8, 0, 15, torch.uint8), dq(q8, S_A, 3, *I8, out_dtype=f),
            dq(q8, S_B, 3, *I8, out_dtype=torch.bfloat16).float(),
            dq(q8, S_B, -7, *I8, out_dtype=torch.float16).float(),
            dq(q8, S_B, 3, *I8, out_dtype=torch.float64).float(),
            dq(q16, 0.001, 7, -32768, 32767, torch.int16), dq(q32, S_A, 1, -2**31, 2**31 - 1, torch.int32),
            dq(e, 0.5, 0, *I8))


def _qpt_tensor_inputs(g, d):
    x = torch.stack([_x_per_tensor(g).reshape(-1) for _ in range(d["batch"])])  # [batch, 48]
    return x, torch.tensor([S_A]), torch.tensor([3]), torch.tensor(0.5), torch.tensor(-1)


@case("qd_quantize_per_tensor_tensor",
      ["quantized_decomposed::quantize_per_tensor.tensor", "quantized_decomposed::dequantize_per_tensor.tensor"],
      _qpt_tensor_inputs, dynamic={"x": {0: ("batch", 3, 5)}},
      int_tolerance={"steps": 1, "max_elements": 40, "float_atol": 0.1000001, "why": _QDQ_DIVIDES + "; the "
                     "dequantized outputs move by one step of their scale (0.0123 or 0.1)"})
def _(self, x, s, zp, s0, zp0):
    """quantize/dequantize_per_tensor.tensor (scale and zero point one-element tensors, read with
    .item(): scale a double, reciprocal rounded to float32): scale [1] f32 input with zp [1] int64;
    0-d scale and zp; uint8; a float64 scale constant 0.1 (not f32-exact) and s.double(); an int32 zp;
    out_dtype bfloat16 (cast back); dynamic batch."""
    q = QD.quantize_per_tensor.tensor
    dq = QD.dequantize_per_tensor.tensor
    s64 = torch.tensor([0.1], dtype=torch.float64)
    a = q(x, s, zp, *I8)
    b = q(x, s0, zp0, *I8)
    c = q(x, s, zp + 125, *U8)
    e = q(x, s64, zp, *I8)
    f = q(x, s.double(), zp.to(torch.int32), -127, 127, torch.int8)
    return (a, dq(a, s, zp, *I8), b, dq(b, s0, zp0, *I8), c, dq(c, s, zp + 125, *U8), e, dq(e, s64, zp, *I8),
            f, dq(f, s.double(), zp.to(torch.int32), -127, 127, torch.int8),
            dq(a, s, zp, *I8, out_dtype=torch.bfloat16).float())


@case("qd_quantize_per_tensor_tensor2",
      ["quantized_decomposed::quantize_per_tensor.tensor2", "quantized_decomposed::dequantize_per_tensor.tensor2"],
      lambda g, d: (_x_per_tensor(g), torch.tensor([S_A]), torch.tensor([3]), torch.tensor(-127),
                    torch.tensor(127), torch.tensor(15)))
def _(self, x, s, zp, qmin, qmax, q4max):
    """quantize/dequantize_per_tensor.tensor2: quant_min / quant_max are tensors too (int64, read
    with .item()): [-127, 127] int8, [0, 15] uint8 with zp 8; out_dtype float16 (cast back)."""
    q = QD.quantize_per_tensor.tensor2
    dq = QD.dequantize_per_tensor.tensor2
    a = q(x, s, zp, qmin, qmax, torch.int8)
    zero = qmin * 0
    b = q(x, s * 40, zp + 5, zero, q4max, torch.uint8)
    return (a, dq(a, s, zp, qmin, qmax, torch.int8), b, dq(b, s * 40, zp + 5, zero, q4max, torch.uint8),
            dq(a, s, zp, qmin, qmax, torch.int8, out_dtype=torch.float16).float())


# ==========================================================================
# quantized_decomposed: per-channel
# ==========================================================================

_PC_SCALES = {0: [0.5, 0.0625], 1: [0.25, 0.125, 0.0625], 2: [0.0625, 0.5, 0.25, 0.125],
              3: [0.125, 0.0625, 0.5, 0.25, 0.0625]}
_PC_ZPS = {0: [0, 3], 1: [-1, 0, 2], 2: [5, -4, 0, 1], 3: [0, 1, -1, 2, -2]}


def _init_per_channel(self):
    for ax, v in _PC_SCALES.items():
        self.register_buffer(f"s{ax}", torch.tensor(v))
        self.register_buffer(f"z{ax}", torch.tensor(_PC_ZPS[ax]))
    self.register_buffer("s_split", torch.tensor([S_A, _f32(0.3), _f32(0.007), _f32(0.02)]))
    self.register_buffer("s64", torch.tensor([0.1, 0.3, 0.7], dtype=torch.float64))


def _per_channel_inputs(g, d):
    # Multiples of 1/32 (ties for the scales 0.0625), beyond [-128, 127] for a few.
    x = (torch.randint(-80, 80, (2, 3, 4, 5), generator=g) + 0.5) * 0.03125
    x.view(-1)[:4] = torch.tensor([40.0, -40.0, 1000.0, -1000.0])
    split = torch.stack([_mul_div_split(s, 8) for s in (S_A, 0.3, 0.007, 0.02)], 1)
    split64 = torch.stack([_mul_div_split(s, 6, f64=True) for s in (0.1, 0.3, 0.7)], 1)
    return x, split, split64


@case("qd_quantize_per_channel", ["quantized_decomposed::quantize_per_channel.default"], _per_channel_inputs,
      init=_init_per_channel, int_tolerance={"steps": 1, "max_elements": 24, "why": _QDQ_DIVIDES})
def _(self, x, split, split64):
    """quantize_per_channel: round(x * (1/scales)) + zero_points (scales f32 buffers: reciprocal in
    float32) on every axis of a 4-D tensor and on axes -1 and -3; power-of-2 scales (ties) with
    non-zero zero points; uint8 [0, 15]; int8 [-127, 127]; int32 zero points; int16; float64 scales
    (not f32-exact: the whole computation is float64); per-column values splitting round(x*(1/s)) and
    round(x/s) ([8, 4] on axis 1); per-column values on which the float64 computation differs from a
    float32 one ([6, 3], float64 scales 0.1, 0.3, 0.7)."""
    q = QD.quantize_per_channel
    out = [q(x, getattr(self, f"s{ax}"), getattr(self, f"z{ax}"), ax, *I8) for ax in range(4)]
    out += [q(x, self.s3, self.z3, -1, *I8), q(x, self.s1, self.z1, -3, *I8),
            q(x, self.s2, self.z2 + 4, 2, 0, 15, torch.uint8), q(x, self.s1, self.z1, 1, -127, 127, torch.int8),
            q(x, self.s2, self.z2.to(torch.int32), 2, *I8), q(x, self.s0, self.z0, 0, -32768, 32767, torch.int16),
            q(x, self.s64, self.z1, 1, *I8), q(split, self.s_split, torch.zeros(4, dtype=torch.int64), 1, *I8),
            q(split64, self.s64, torch.zeros(3, dtype=torch.int64), 1, *I8)]
    return tuple(out)


def _dq_per_channel_inputs(g, d):
    q = torch.randint(-128, 128, (2, 3, 4, 5), generator=g, dtype=torch.int8)
    qu = torch.randint(0, 256, (3, 4), generator=g).to(torch.uint8)
    return q, qu


def _init_dq_per_channel(self):
    _init_per_channel(self)
    # A PT2E-style weight: int8 constant in [-127, 127], per-output-channel f32 scales, int64 zero points.
    self.register_buffer("w", torch.randint(-127, 128, (8, 3, 3, 3), dtype=torch.int8))
    self.register_buffer("ws", torch.rand(8) * 0.01 + 0.001)
    self.register_buffer("wz", torch.zeros(8, dtype=torch.int64))


@case("qd_dequantize_per_channel", ["quantized_decomposed::dequantize_per_channel.default"],
      _dq_per_channel_inputs, init=_init_dq_per_channel)
def _(self, q, qu):
    """dequantize_per_channel: (q - zero_points) * scales (int8 - int64 in int64, times f32 scales),
    on every axis of a 4-D tensor and on -1 and -2; zero_points None; int32 zero points; out_dtype
    bfloat16 (cast back); float64 scales (not f32-exact: computed in float64, then float32); uint8;
    an int8 [-127, 127] weight buffer as PT2E stores it."""
    dq = QD.dequantize_per_channel
    out = [dq(q, getattr(self, f"s{ax}"), getattr(self, f"z{ax}"), ax, *I8) for ax in range(4)]
    out += [dq(q, self.s3, self.z3, -1, *I8), dq(q, self.s2, self.z2, -2, *I8), dq(q, self.s1, None, 1, *I8),
            dq(q, self.s2, self.z2.to(torch.int32), 2, *I8),
            dq(q, self.s1, self.z1, 1, *I8, out_dtype=torch.bfloat16).float(),
            dq(q, self.s64, self.z1, 1, *I8), dq(qu, self.s1 * 0.1, self.z1 + 128, 0, *U8),
            dq(self.w, self.ws, self.wz, 0, -127, 127, torch.int8)]
    return tuple(out)


def _init_float_qparams(self):
    # EmbeddingQuantizer's per_channel_affine_float_qparams: float32 scales
    # and zero points with fractions (135.92), one per row of a uint8 table.
    self.register_buffer("table", torch.randint(0, 256, (6, 8), dtype=torch.uint8))
    self.register_buffer("ts", torch.rand(6) * 0.02 + 0.001)
    self.register_buffer("tz", torch.tensor([135.92, 0.25, 127.5, 3.75, 250.125, 0.0]))
    self.register_buffer("z64", torch.tensor([1.5, -2.25, 0.5], dtype=torch.float64))


def _float_qparams_inputs(g, d):
    x = (torch.randint(-80, 80, (3, 4), generator=g) + 0.5) * 0.03125
    return x, torch.randint(0, 6, (2, 5), generator=g)


@case("qd_float_zero_points",
      ["quantized_decomposed::dequantize_per_channel.default", "quantized_decomposed::quantize_per_channel.default",
       "quantized_decomposed::quantize_per_tensor.tensor", "quantized_decomposed::dequantize_per_tensor.tensor"],
      _float_qparams_inputs, init=_init_float_qparams,
      int_tolerance={"steps": 1, "max_elements": 6, "why": _QDQ_DIVIDES})
def _(self, x, ids):
    """Float zero points (EmbeddingQuantizer's per_channel_affine_float_qparams): dequantize_per_channel
    of a uint8 table with float32 zero points with fractions, gathered by ids as an embedding does
    ((q - 135.92) * s, not (q - 135) * s); float64 zero points (the arithmetic in float64);
    quantize_per_channel with fractional zero points (added after rounding, then clamp, then truncation
    toward zero: -2.25 + -3 gives -5, not -5.25 -> -5 by chance only); the per_tensor .tensor overloads
    with a float zero point."""
    dq = QD.dequantize_per_channel
    q = QD.quantize_per_channel
    table = dq(self.table, self.ts, self.tz, 0, 0, 255, torch.uint8)
    emb = torch.nn.functional.embedding(ids, table)
    s3 = torch.tensor([0.0625, 0.125, 0.25], dtype=torch.float64)
    a = q(x[:, :3].t().contiguous(), s3.float(), self.z64.float(), 0, *I8)
    b = dq(a, s3, self.z64, 0, *I8)
    zt = torch.tensor(2.75)
    c = QD.quantize_per_tensor.tensor(x, torch.tensor(0.0625), zt, *I8)
    e = QD.dequantize_per_tensor.tensor(c, torch.tensor(0.0625), zt, *I8)
    return emb, table, a, b, c, e


def _init_group(self):
    self.register_buffer("s4", torch.tensor([[0.5, 0.25], [0.125, 0.5], [0.25, 0.0625], [0.5, 0.5]]))
    self.register_buffer("z4", torch.tensor([[1, 0], [-1, 3], [2, -3], [0, 5]]))
    self.register_buffer("s2", torch.rand(16) * 0.2 + 0.05)
    self.register_buffer("z2", torch.randint(0, 16, (16,)))
    self.register_buffer("srow", torch.tensor([[0.25], [0.5], [0.125], [0.0625]]))


def _group_inputs(g, d):
    x = (torch.randint(-40, 40, (4, 8), generator=g) + 0.5) * 0.0625  # ties for 0.0625 and 0.125
    x[0, :4] = torch.tensor([0.25, 0.75, -0.25, 1.25])  # ties at .5 for 0.5 (zp 1: add before round)
    x[3, 4:] = torch.tensor([10.0, -10.0, 0.0, 3.25])
    return x, torch.randint(-8, 8, (4, 8), generator=g, dtype=torch.int8)


@case("qd_per_channel_group",
      ["quantized_decomposed::quantize_per_channel_group.default",
       "quantized_decomposed::dequantize_per_channel_group.default"],
      _group_inputs, init=_init_group)
def _(self, x, w):
    """quantize_per_channel_group: x.reshape(-1, group) * (1/scales) + zero_points, THEN round, clamp,
    cast (2-D; scales / zero points one per row-group, row-major): group 4 with int4 range [-8, 7] in
    int8 and odd zero points on ties (rounding after the zp add); group 2 uint8 [0, 15]; group 16 > 8
    with one scale per row (torch uses the row length). dequantize_per_channel_group: (q - zp) * scale;
    zero_points None; output_dtype bfloat16 (cast back)."""
    qg = QD.quantize_per_channel_group
    dqg = QD.dequantize_per_channel_group
    f = torch.float32
    a = qg(x, self.s4, self.z4, -8, 7, torch.int8, 4)
    b = qg(x, self.s2, self.z2, 0, 15, torch.uint8, 2)
    c = qg(x, self.srow, torch.zeros(4, 1, dtype=torch.int64), -128, 127, torch.int8, 16)
    return (a, dqg(a, self.s4, self.z4, -8, 7, torch.int8, 4, f), b, dqg(b, self.s2, self.z2, 0, 15, torch.uint8, 2, f),
            c, dqg(w, self.s4, None, -8, 7, torch.int8, 4, f),
            dqg(w, self.s4, self.z4, -8, 7, torch.int8, 4, torch.bfloat16).float())


# ==========================================================================
# quantized_decomposed: per-token
# ==========================================================================


def _token_inputs(g, d):
    x = (torch.randint(-60, 60, (2, 3, 8), generator=g) + 0.5) * 0.125
    x[0, 0, :3] = torch.tensor([0.25, 0.75, -0.25])
    x[1, 2, :2] = torch.tensor([100.0, -100.0])
    s = torch.tensor([0.5, 0.25, 0.125, 0.25, 0.5, 0.0625]).reshape(2, 3, 1)
    zp = torch.tensor([1, -1, 3, 0, 5, -3]).reshape(2, 3, 1)
    # Rows splitting float64 from float32 arithmetic for the float64 scales s * 0.3 (and zp 0).
    y = torch.stack([_mul_div_split(v * 0.3, 8, -60, 60, f64=True) for v in s.flatten().tolist()]).reshape(2, 3, 8)
    return x, s, zp, y


@case("qd_per_token",
      ["quantized_decomposed::quantize_per_token.default", "quantized_decomposed::dequantize_per_token.default"],
      _token_inputs)
def _(self, x, s, zp, y):
    """quantize_per_token: round(x * (1/scales) + zero_points) (zp added before rounding: ties with
    odd zero points), clamp, cast; scales / zero points [2, 3, 1] for x [2, 3, 8]; uint8; float64
    scales (computation in float64; `y` holds values where float32 arithmetic would round differently).
    dequantize_per_token: (q - zp) * scales, then output_dtype
    (float32, bfloat16 cast back)."""
    qt = QD.quantize_per_token
    dqt = QD.dequantize_per_token
    f = torch.float32
    a = qt(x, s, zp, *I8)
    b = qt(x, s, zp + 128, *U8)
    c = qt(x, s.double() * 0.3, zp, *I8)
    s64 = s.double() * 0.3
    e = qt(y, s64, zp * 0, *I8)
    return (a, dqt(a, s, zp, *I8, f), b, dqt(b, s, zp + 128, *U8, f), c, dqt(c, s64, zp, *I8, f),
            dqt(a, s, zp, *I8, torch.bfloat16).float(), e, dqt(e, s64, zp * 0, *I8, f))


# ==========================================================================
# quantized_decomposed: dynamic quantization (choose_qparams*)
# ==========================================================================


def _cq_inputs(g, d):
    b = d["batch"]
    x = rn(g, b, 16) * 2
    return x, x.abs() + 0.25, torch.zeros(b, 4)


@case("qd_choose_qparams",
      ["quantized_decomposed::choose_qparams.tensor", "quantized_decomposed::quantize_per_tensor.tensor",
       "quantized_decomposed::dequantize_per_tensor.tensor"],
      _cq_inputs, dynamic={"x": {0: ("batch", 2, 3)}, "p": {0: ("batch", 2, 3)}, "z": {0: ("batch", 2, 3)}})
def _(self, x, p, z):
    """The XNNPACK dynamic-quantization flow: choose_qparams.tensor (eps 2^-12 as PT2E writes it) then
    quantize/dequantize_per_tensor.tensor. scale = max((max(x,0) - min(x,0)) / (qmax - qmin), eps)
    (float32, returned float64 [1]; cast to float32 here), zp = clamp(qmin - round(min(x,0) / scale))
    (int64 [1]); int8 [-128, 127], uint8 [0, 255]; all-positive input (zp = qmin); all-zero input
    (scale = eps); dynamic batch."""
    cq = QD.choose_qparams.tensor
    q = QD.quantize_per_tensor.tensor
    dq = QD.dequantize_per_tensor.tensor
    out = []
    for t, (lo, hi, dt) in ((x, I8), (x, U8), (p, I8), (z, I8)):
        s, zp = cq(t, lo, hi, 0.000244140625, dt)
        qt = q(t, s, zp, lo, hi, dt)
        out += [s.float(), zp, qt, dq(qt, s, zp, lo, hi, dt)]
    return tuple(out)


@case("qd_choose_qparams_symmetric", ["quantized_decomposed::choose_qparams_symmetric.tensor"],
      lambda g, d: (rn(g, 3, 16) * 2, torch.zeros(2, 4)),
      int_tolerance={"steps": 1, "max_elements": 1, "float_atol": 0.0424, "why": _QDQ_DIVIDES + "; the "
                     "dequantized output moves by one step of the chosen scale (0.04232 on this data)"})
def _(self, x, z):
    """choose_qparams_symmetric.tensor: scale = max(max(-min(x,0), max(x,0)) / ((qmax - qmin) / 2), eps)
    (float64 [1], cast to float32 here); zp 0, or 128 for uint8 whatever the range; int8 [-128, 127],
    [-127, 127], uint8 [0, 255]; all-zero input; quantize/dequantize_per_tensor.tensor with them."""
    cq = QD.choose_qparams_symmetric.tensor
    q = QD.quantize_per_tensor.tensor
    dq = QD.dequantize_per_tensor.tensor
    out = []
    for t, (lo, hi, dt) in ((x, I8), (x, (-127, 127, torch.int8)), (x, U8), (z, I8)):
        s, zp = cq(t, lo, hi, 1e-5, dt)
        qt = q(t, s, zp, lo, hi, dt)
        out += [s.float(), zp, qt, dq(qt, s, zp, lo, hi, dt)]
    return tuple(out)


def _init_dynamic_linear(self):
    self.register_buffer("w", torch.randint(-127, 128, (12, 16), dtype=torch.int8))
    self.register_buffer("ws", torch.rand(12) * 0.02 + 0.005)
    self.register_buffer("wz", torch.zeros(12, dtype=torch.int64))
    self.register_buffer("b", torch.randn(12) * 0.1)
    self.register_buffer("w2", torch.randint(-128, 128, (7, 12), dtype=torch.int8))


def _dynamic_linear_inputs(g, d):
    b = d["batch"]
    return rn(g, b, 5, 16) * 2, ur(g, 0.5, 3.0, b, 5, 16)


def _dynamic_linear(self, x, p):
    """PT2E dynamic quantization of Linears (XNNPACK is_dynamic): each input quantized with the qparams
    choose_qparams.tensor computes for it, the weight int8 dequantized per output channel (and per tensor
    with a zero point), then linear. Written as MatMulInteger on uint8 activations (the int8 ones
    re-quantized with the zero point + 128) and int8 weights, times the two scales. Cases: int8 [-128, 127]
    with a bias and a 3-D input; uint8 [0, 255]; int8 narrowed to [-127, 127] (the clipped form); an
    all-positive input (zero point at quant_min); a per-tensor weight with zero point 3."""
    cq = QD.choose_qparams.tensor
    q = QD.quantize_per_tensor.tensor
    dq = QD.dequantize_per_tensor.tensor
    w = QD.dequantize_per_channel(self.w, self.ws, self.wz, 0, -127, 127, torch.int8)
    w2 = QD.dequantize_per_tensor(self.w2, _f32(0.0117), 3, -128, 127, torch.int8)

    def dyn(t, lo, hi, dt):
        sc, zp = cq(t, lo, hi, 0.000244140625, dt)
        return dq(q(t, sc, zp, lo, hi, dt), sc, zp, lo, hi, dt)

    y1 = F.linear(dyn(x, *I8), w, self.b)
    y2 = F.linear(dyn(x, *U8), w)
    y3 = F.linear(dyn(x, -127, 127, torch.int8), w, self.b)
    y4 = F.linear(dyn(p, *I8), w)
    y5 = F.linear(dyn(torch.relu(y1), *I8), w2)
    return y1, y2, y3, y4, y5


case("qd_dynamic_linear",
     ["quantized_decomposed::choose_qparams.tensor", "linear.default"],
     _dynamic_linear_inputs, init=_init_dynamic_linear,
     dynamic={"x": {0: ("batch", 2, 3)}, "p": {0: ("batch", 2, 3)}})(_dynamic_linear)
case("qd_dynamic_linear_core",
     ["quantized_decomposed::choose_qparams.tensor", "addmm.default", "mm.default"],
     _dynamic_linear_inputs, init=_init_dynamic_linear, ir="ATEN",
     dynamic={"x": {0: ("batch", 2, 3)}, "p": {0: ("batch", 2, 3)}})(_dynamic_linear)


def _tok_rows(g, d):
    x = rn(g, 2, 4, 8) * 2
    x[0, 1] = x[0, 1].abs() + 0.5  # all positive
    x[0, 2] = -x[0, 2].abs() - 0.5  # all negative
    x[1, 0] = 0.0  # all zero
    x[1, 1] = 0.75  # constant
    return (x,)


@case("qd_choose_qparams_per_token",
      ["quantized_decomposed::choose_qparams_per_token.default", "quantized_decomposed::quantize_per_token.default",
       "quantized_decomposed::dequantize_per_token.default"], _tok_rows)
def _(self, x):
    """choose_qparams_per_token (int8 only): scales = amax(|x|, -1, keepdim).clamp(min=1e-5) / 127 (input
    dtype), zero points zeros_like(scales). NOTE eager returns float32 / float32 but its meta (the
    graph) says float64 / int64; a .to() on them exports an _assert_tensor_metadata that fails at run
    time, so the case only feeds them to quantize/dequantize_per_token (values checked equal under
    both readings) and reads the scales back as dequantize_per_token(ones, s, zp) = s."""
    s, zp = QD.choose_qparams_per_token(x, torch.int8)
    q = QD.quantize_per_token(x, s, zp, *I8)
    ones = torch.ones(x.shape, dtype=torch.int8)[..., :1]
    return (QD.dequantize_per_token(ones, s, zp, *I8, torch.float32), q,
            QD.dequantize_per_token(q, s, zp, *I8, torch.float32))


@case("qd_choose_qparams_per_token_asymmetric",
      ["quantized_decomposed::choose_qparams_per_token_asymmetric.default",
       "quantized_decomposed::_choose_qparams_per_token_asymmetric_impl.default",
       "quantized_decomposed::quantize_per_token.default", "quantized_decomposed::dequantize_per_token.default"],
      _tok_rows)
def _(self, x):
    """choose_qparams_per_token_asymmetric and its _impl (called directly, torch.export keeps it)
    (XNNPACK's; always [-128, 127], dtype ignored): per row
    min_neg = min(amin, 0), max_pos = max(amax, 0), scale = max((max_pos - min_neg) / 255, f32 eps),
    zp from the smaller error side, clamp, round; returned float64 / int64 (cast to float32 here).
    quantize_per_token with the float64 scales computes in float64; dequantize_per_token."""
    s, zp = QD.choose_qparams_per_token_asymmetric(x, torch.int8)
    q = QD.quantize_per_token(x, s, zp, *I8)
    si, zpi = QD._choose_qparams_per_token_asymmetric_impl(x * 2, torch.int8)
    return s.float(), zp, q, QD.dequantize_per_token(q, s, zp, *I8, torch.float32), si.float(), zpi


# ==========================================================================
# quantized_decomposed: fake quantization, element type conversion
# ==========================================================================


def _init_fake(self):
    self.register_buffer("s1", torch.tensor([0.5, 0.0625, 0.25]))
    self.register_buffer("z1", torch.tensor([1, -2, 0], dtype=torch.int32))
    self.register_buffer("s2", torch.tensor([0.125, 0.25, 0.5, 0.0625]))
    self.register_buffer("s64", torch.tensor([0.1, 0.3], dtype=torch.float64))


@case("qd_fake_quant_per_channel", ["quantized_decomposed::fake_quant_per_channel.default"],
      lambda g, d: ((torch.randint(-100, 100, (2, 3, 4), generator=g) + 0.5) * 0.03125,), init=_init_fake)
def _(self, x):
    """fake_quant_per_channel: scales cast to float32 and zero points to int32 first, then
    (clamp(round(x * (1/s)) + zp, qmin, qmax) - zp) * s (float32), on axes 1, 2 and 0 (torch gets
    negative axes wrong, none here); int64 zero points; float64 scales 0.1 / 0.3 (rounded to float32
    BEFORE the reciprocal); a narrow range [-8, 7]."""
    fq = QD.fake_quant_per_channel
    return (fq(x, self.s1, self.z1, 1, -128, 127), fq(x, self.s2, torch.zeros(4, dtype=torch.int64), 2, -8, 7),
            fq(x, self.s64, torch.tensor([0, 3]), 0, -128, 127))


@case("qd_convert_element_type", ["quantized_decomposed::convert_element_type.no_fuse"],
      lambda g, d: (torch.tensor([[-1.7, -0.5, 0.0, 0.5, 1.5, 2.7, 100.9, -127.9]]), _q_all_int8(g)[:2]))
def _(self, x, q):
    """convert_element_type.no_fuse (prims.convert_element_type, kept from fusion): float32 -> int8 and
    int32 (truncation toward zero, values in range), |x| -> uint8, -> bfloat16 / float16 (cast back);
    int8 -> float32, int8 -> int32."""
    ce = QD.convert_element_type.no_fuse
    return (ce(x, torch.int8), ce(x, torch.int32), ce(x.abs(), torch.uint8), ce(x, torch.bfloat16).float(),
            ce(x, torch.float16).float(), ce(q, torch.float32), ce(q, torch.int32))


# ==========================================================================
# quantized_decomposed in core ATen (PT2E q/dq around a convolution and a linear)
# ==========================================================================


def _init_core(self):
    self.register_buffer("w", torch.randint(-127, 128, (4, 3, 3, 3), dtype=torch.int8))
    self.register_buffer("ws", torch.rand(4) * 0.02 + 0.005)
    self.register_buffer("wz", torch.zeros(4, dtype=torch.int64))
    self.register_buffer("b", torch.randn(4) * 0.1)
    self.register_buffer("fw", torch.randint(-127, 128, (5, 4), dtype=torch.int8))
    self.register_buffer("fs", torch.rand(5) * 0.02 + 0.005)
    self.register_buffer("fz", torch.zeros(5, dtype=torch.int64))


@case("qd_core_ir",
      ["quantized_decomposed::quantize_per_tensor.default", "quantized_decomposed::dequantize_per_tensor.default",
       "quantized_decomposed::dequantize_per_channel.default"],
      lambda g, d: (rn(g, 2, 3, 6, 6),), init=_init_core, ir="ATEN")
def _(self, x):
    """A PT2E-converted conv -> relu -> mean -> linear in core ATen (run_decompositions keeps the
    quantized_decomposed ops): int8 weights dequantized per channel, activations quantized and
    dequantized per tensor (int8, XNNPACK-style zero points)."""
    q, dq = QD.quantize_per_tensor, QD.dequantize_per_tensor
    h = dq(q(x, 0.03125, 3, *I8), 0.03125, 3, *I8)
    w = QD.dequantize_per_channel(self.w, self.ws, self.wz, 0, -127, 127, torch.int8)
    h = torch.relu(F.conv2d(h, w, self.b))
    h = dq(q(h, _f32(0.0078), -128, *I8), _f32(0.0078), -128, *I8).mean((2, 3))
    fw = QD.dequantize_per_channel(self.fw, self.fs, self.fz, 0, -127, 127, torch.int8)
    y = F.linear(h, fw)
    return dq(q(y, _f32(0.0031), -22, *I8), _f32(0.0031), -22, *I8)


# ==========================================================================
# torchao affine quantization primitives
# ==========================================================================

if _HAVE_TORCHAO:
    def _x_affine(g, d):
        x = (torch.randint(-70, 70, (4, 8), generator=g) + 0.5) * 0.0625
        x[0, :4] = torch.tensor([0.25, 0.75, -0.25, 100.0])
        x[3, 4:] = torch.tensor([-100.0, 0.0, 1.25, -1.75])
        split = torch.stack([_mul_div_split(v, 8) for v in (S_A, 0.3, 0.007, 0.02)])  # row r: scale r
        return x, (torch.randint(-30, 30, (2, 4, 6), generator=g) + 0.5) * 0.125, split

    def _init_affine(self):
        self.register_buffer("s_t", torch.tensor([0.0625]))
        self.register_buffer("z_t", torch.tensor([3], dtype=torch.int32))
        self.register_buffer("s_r", torch.tensor([0.25, 0.0625, 0.125, 0.5]))
        self.register_buffer("z_r", torch.tensor([128, 120, 131, 127], dtype=torch.int32))
        self.register_buffer("s_g", torch.tensor([[0.5, 0.25], [0.125, 0.5], [0.25, 1.0], [2.0, 0.0625]]))
        self.register_buffer("z_g", torch.tensor([[1, 0], [-1, 3], [2, -3], [0, 5]], dtype=torch.int32))
        self.register_buffer("s_c", torch.tensor([0.125, 0.25]))  # block (2, 8): one per row pair
        self.register_buffer("z_c", torch.tensor([0, -2], dtype=torch.int32))
        self.register_buffer("s_b", torch.tensor([[0.25, 0.125], [0.0625, 0.5]]))  # block (2, 4)
        self.register_buffer("z_b", torch.tensor([[1, 2], [-3, 0]], dtype=torch.int32))
        self.register_buffer("s_3", torch.rand(2, 4, 2) * 0.3 + 0.05)  # block (1, 1, 3) of [2, 4, 6]
        self.register_buffer("z_3", torch.randint(0, 16, (2, 4, 2), dtype=torch.int32))
        self.register_buffer("s_split", torch.tensor([S_A, _f32(0.3), _f32(0.007), _f32(0.02)]))

    @case("tao_quantize_affine", ["torchao::quantize_affine.default"], _x_affine, init=_init_affine)
    def _(self, x, y, split):
        """torchao quantize_affine: x viewed per block_size, clamp(round(x * (1/scale)) + zero_point,
        qmin, qmax), cast (computed in promote(input, scale) dtype): per tensor (block = shape) int8 with
        zp 3; per row (1, 8) uint8 (default range); per group (1, 4) int8 [-8, 7]; block (2, 8) over
        rows; block (2, 4); [2, 4, 6] with block (1, 1, 3) to uint8 [0, 15] (torch.uint4 as the output
        dtype is not serializable by torch.export 2.13); int16;
        a bfloat16 input with float32 scales; bfloat16 input and scales (bfloat16 arithmetic); per-row
        values on which round(x * (1/s)) and round(x / s) differ."""
        TA = _torchao_ops()
        qa = TA.quantize_affine
        return (qa(x, [4, 8], self.s_t, self.z_t, torch.int8), qa(x, [1, 8], self.s_r, self.z_r, torch.uint8),
                qa(x, [1, 4], self.s_g, self.z_g, torch.int8, -8, 7), qa(x, [2, 8], self.s_c, self.z_c, torch.int8),
                qa(x, [2, 4], self.s_b, self.z_b, torch.int8), qa(y, [1, 1, 3], self.s_3, self.z_3, torch.uint8, 0, 15),
                qa(x, [1, 4], self.s_g * 0.01, self.z_g, torch.int16),
                qa(x.to(torch.bfloat16), [1, 4], self.s_g, self.z_g, torch.int8),
                qa(x.to(torch.bfloat16), [1, 8], self.s_r.to(torch.bfloat16), self.z_r, torch.uint8),
                qa(split, [1, 8], self.s_split, torch.zeros(4, dtype=torch.int32), torch.int8))

    def _q_affine_inputs(g, d):
        return (torch.randint(-128, 128, (4, 8), generator=g, dtype=torch.int8),
                torch.randint(0, 256, (4, 8), generator=g).to(torch.uint8))

    @case("tao_dequantize_affine", ["torchao::dequantize_affine.default"], _q_affine_inputs, init=_init_affine)
    def _(self, q, qu):
        """torchao dequantize_affine: (q.to(out) - zero_point.to(out)) * scale, per block, then out dtype
        (float32 default): per tensor, per row (uint8), per group (1, 4), block (2, 8), block (2, 4);
        zero_point None; output bfloat16 / float16 (cast back); float64 scales (float64 product, then
        float32); uint8 with range [0, 15] (4-bit values)."""
        TA = _torchao_ops()
        da = TA.dequantize_affine
        s64 = self.s_g.double() * 0.1
        return (da(q, [4, 8], self.s_t, self.z_t, torch.int8), da(qu, [1, 8], self.s_r, self.z_r, torch.uint8),
                da(q, [1, 4], self.s_g, self.z_g, torch.int8), da(q, [2, 8], self.s_c, self.z_c, torch.int8),
                da(q, [2, 4], self.s_b, self.z_b, torch.int8), da(q, [1, 4], self.s_g, None, torch.int8),
                da(q, [1, 4], self.s_g, self.z_g, torch.int8, output_dtype=torch.bfloat16).float(),
                da(q, [1, 8], self.s_r, None, torch.int8, output_dtype=torch.float16).float(),
                da(q, [1, 4], s64, self.z_g, torch.int8),
                da(qu % 16, [1, 8], self.s_r, self.z_r - 120, torch.uint8, 0, 15))

    def _cqa_inputs(g, d):
        x = rn(g, 4, 8) * 2
        x[1] = x[1].abs() + 0.25
        x[2, 4:] = 0.0
        return (x,)

    @case("tao_choose_qparams_affine",
          ["torchao::choose_qparams_affine.default", "torchao::quantize_affine.default",
           "torchao::dequantize_affine.default"], _cqa_inputs)
    def _(self, x):
        """torchao choose_qparams_affine: min/max per block (amin/amax over the block dims), then SYMMETRIC:
        scale = max(-min_neg, max_pos) / ((qmax - qmin) / 2), zp = int((qmax + qmin + 1) / 2) (truncated; in
        the scale's float dtype when zero_point_dtype is None); SYMMETRIC_NO_CLIPPING_ERR: scale =
        where(smin > smax, smin, smax), smin = min_neg / qmin, smax = max_pos / qmax; ASYMMETRIC: scale =
        (max_pos - min_neg) / (qmax - qmin), zp = clamp(qmin - round(min_neg / scale)) (int32 unless given);
        scale clamped to eps (default float32 smallest normal). Per row int8 / uint8, per group (1, 4), per
        tensor with eps and int64 zp, [-8, 7], keepdim=True, scale_dtype bfloat16 (cast back), a group of
        zeros; then quantize_affine / dequantize_affine with them."""
        TA = _torchao_ops()
        cqa, qa, da = TA.choose_qparams_affine, TA.quantize_affine, TA.dequantize_affine
        out = []
        s, z = cqa(x, "SYMMETRIC", [1, 8], torch.int8)
        out += [s, z]
        s, z = cqa(x, "SYMMETRIC", [1, 4], torch.uint8)
        out += [s, z]
        s, z = cqa(x, "SYMMETRIC_NO_CLIPPING_ERR", [1, 8], torch.int8, -8, 7)
        out += [s, z]
        s, z = cqa(x, "ASYMMETRIC", [1, 4], torch.uint8)
        q = qa(x, [1, 4], s, z, torch.uint8)
        out += [s, z, q, da(q, [1, 4], s, z, torch.uint8)]
        s, z = cqa(x, "ASYMMETRIC", [4, 8], torch.int8, None, None, 1e-5, torch.float32, torch.int64)
        q = qa(x, [4, 8], s, z, torch.int8)
        out += [s, z, q, da(q, [4, 8], s, z, torch.int8)]
        s, z = cqa(x, "ASYMMETRIC", [1, 4], torch.int8, -8, 7, None, None, torch.int32, True)
        q = qa(x, [1, 4], s, z, torch.int8, -8, 7)
        out += [s, z, q, da(q, [1, 4], s, z, torch.int8, -8, 7)]
        s, z = cqa(x, "SYMMETRIC", [1, 8], torch.int8, None, None, None, torch.bfloat16, torch.int32)
        out += [s.float(), z]
        return tuple(out)

    def _f8_inputs(g, d):
        x = rn(g, 4, 8) * 3
        # Exact float8_e4m3fn ties (scale 1): 17 (16 | 18), 19 (18 | 20), 0.5625 * 2^-6 (subnormal), 460
        # (> 448: clamped), both signs.
        special = torch.tensor([17.0, 19.0, -17.0, -19.0, 2.0**-9 * 1.5, 2.0**-9 * 2.5, 460.0, -1000.0])
        return x, special

    @case("tao_float8",
          ["torchao::choose_scale_float8.default", "torchao::quantize_affine_float8_non_decomposed.default",
           "torchao::dequantize_affine_float8_non_decomposed.default"], _f8_inputs)
    def _(self, x, sp):
        """float8: choose_scale_float8 = amax(|x|) per block / finfo(f8).max (float32; with scale_dtype
        float8_e8m0fnu rounded to a power of 2: exp2(round(log2))); quantize_affine_float8 = cast(clamp(
        x.float() / scale (broadcast; block scales repeated), -max, max)) round to nearest even;
        dequantize = f8.float() * scale, then output dtype. Per tensor e4m3fn, per row e5m2, block (2, 4),
        hp_value_lb/ub, e8m0 scales, exact ties / subnormals / saturation with scale 1, bfloat16 input
        and output (cast back); float8 values read back by dequantizing with scale 1."""
        TA = _torchao_ops()
        cs = TA.choose_scale_float8
        qf = TA.quantize_affine_float8_non_decomposed
        df = TA.dequantize_affine_float8_non_decomposed
        one = torch.ones(1)
        out = []
        for block, dt, kw in (([4, 8], torch.float8_e4m3fn, {}), ([1, 8], torch.float8_e5m2, {}),
                              ([2, 4], torch.float8_e4m3fn, {}),
                              ([1, 8], torch.float8_e4m3fn, {"hp_value_lb": 1.0, "hp_value_ub": 4.0}),
                              ([1, 4], torch.float8_e4m3fn, {"scale_dtype": torch.float8_e8m0fnu})):
            s = cs(x, block, dt, **kw)
            q = qf(x, s, dt)
            out += [s, df(q, one), df(q, s)]
        out += [df(qf(sp, one), one), df(qf(sp, one, torch.float8_e5m2), one),
                df(qf(x.to(torch.bfloat16), torch.tensor([0.125])), torch.tensor([0.125]), torch.bfloat16).float()]
        return tuple(out)


def _int_mm_inputs(g, d):
    a = torch.randint(-128, 128, (17, 32), generator=g, dtype=torch.int8)
    a[0, :4] = torch.tensor([-128, -128, 127, 127], dtype=torch.int8)
    return a, torch.randint(-128, 128, (32, 9), generator=g, dtype=torch.int8)


@case("tao_int_mm", ["_int_mm.default"], _int_mm_inputs)
def _(self, a, b):
    """_int_mm: int8 x int8 -> int32 (torchao's Int8DynamicActivationInt8WeightConfig after
    unwrap_tensor_subclass), extreme values (-128 * -128 sums); as the dequantized product
    torchao forms: int32 times per-row and per-column float scales."""
    y = torch._int_mm(a, b)
    scale_a = torch.linspace(0.01, 0.02, 17).unsqueeze(1)
    return y, y.to(torch.float32) * scale_a * torch.full((1, 9), 0.003)


def _init_float8_weight(self):
    w = torch.randn(6, 8, generator=torch.Generator().manual_seed(7))
    self.register_buffer("w8", w.to(torch.float8_e4m3fn))
    self.register_buffer("w5", w.to(torch.float8_e5m2))
    self.register_buffer("ws", torch.rand(6, generator=torch.Generator().manual_seed(8)) + 0.5)


@case("tao_float8_weight_transpose", ["t.default", "to.dtype"],
      lambda g, d: (torch.randn(3, 8, generator=g),), init=_init_float8_weight, opset=23)
def _(self, x):
    """A float8 weight (torchao's Float8WeightOnlyConfig after unwrap_tensor_subclass keeps
    float8_e4m3fn weights with float32 scales) transposed before its dequantization: the writer
    transposes the float8 bytes (e4m3fn and e5m2) while it streams them."""
    w = self.w8.t().to(torch.float32) * self.ws
    v = self.w5.t().to(torch.float32)
    return x @ w, x @ v
