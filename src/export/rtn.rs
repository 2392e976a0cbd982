//! Block-wise round-to-nearest (RTN) weight quantization, computed by the
//! writer while it streams a weight (`onnx.weight_transform` kinds
//! `rtn_data`, `rtn_scales`, `rtn_zero_points`; the pass
//! `onnx-quantize-weights` writes them).
//!
//! The numbers are onnxruntime's own quantizer's, bit for bit
//! (`onnxruntime.quantization.matmul_nbits_quantizer.MatMulNBitsQuantizer`,
//! default RTN, which runs MLAS `MlasQuantizeBlockwise`; checked against it
//! by `tests/integration/quantize_weights.rs`). Per output column `n` and
//! block `b` of `block` rows of K, all in float32:
//!
//! ```text
//! mn, mx = min, max of the block (NaN skipped; the first of equal values kept)
//! symmetric:  m = |mx| > |mn| ? mx : mn;  scale = -m / 2^(bits-1);  zp = 2^(bits-1)
//! asymmetric: mn = min(mn, 0); mx = max(mx, 0); scale = (mx - mn) / (2^bits - 1)
//!             zp = clamp(roundf(0 - mn / scale), 0, 2^bits - 1)   (mn when scale is 0)
//! r = scale != 0 ? 1 / scale : 0
//! MatMulNBits form: q = clamp(roundf(v * r + zp), 0, 2^bits - 1)       (unsigned, zp implied when symmetric)
//! QDQ form:         q = clamp(roundf(v * r) + zp', qmin, qmax)         (symmetric: signed, zp' = 0)
//! ```
//!
//! `roundf` rounds half away from zero (C's `roundf`), as MLAS does. The
//! symmetric scale is negative when the block's largest magnitude is
//! positive (the dequantized value `(q - zp) * scale` has the right sign).
//!
//! Layouts (the source `w` is the weight as `[N, K]`, one output column per
//! row, which is how a torch Linear stores it):
//! - MatMulNBits (`com.microsoft`): data uint8 `[N, nb, block * bits / 8]`
//!   (4-bit: element `2j` in the low nibble of byte `j`; bytes of a last
//!   partial block past K are 0), scales float32 `[N, nb]`, zero points
//!   uint8 `[N, ceil(nb * bits / 8)]` (4-bit: block `b` in nibble `b % 2` of
//!   byte `b / 2`, an unused high nibble 8).
//! - QDQ (`DequantizeLinear(data, scales, zero_points) {axis = 0,
//!   block_size}` feeding `MatMul`): data `[K, N]` (int4/int8 symmetric,
//!   uint4/uint8 asymmetric; 4-bit packed two per byte in row-major order,
//!   low nibble first), scales float32 `[nb, N]`, zero points `[nb, N]` of
//!   the data's type (asymmetric only).
//!
//! - Gather (`com.microsoft.GatherBlockQuantized`, or a blocked
//!   `DequantizeLinear {axis = 1}` feeding `Gather`; 4 bits): the source is
//!   the embedding table `[V, H]` itself, blocks along `H`; data int4
//!   (symmetric) / uint4 `[V, H]`, scales float32 `[V, nb]`, zero points
//!   uint4 `[V, nb]`, packed two per byte over the flattened tensor. The
//!   numbers are those of the quantizer's numpy path for Gather
//!   (`quantize_ndarray`), not MLAS's: per block, in float32,
//!   symmetric `m = |mx| > |mn| ? mx : mn; scale = m / -8;
//!   q = clamp(rint(v / scale), -8, 7)` (0 when scale is 0), asymmetric
//!   `mn = min(mn, 0); mx = max(mx, 0); scale = (mx - mn) / 15;
//!   zp = clamp(rint(-mn / scale), 0, 15)` (8 when scale is 0),
//!   `q = clamp(rint(v / scale + zp), 0, 15)`, `rint` rounding half to even.
//!
//! The writer reads one row of `w` (MatMulNBits, Gather) or one block of rows of
//! its transpose (QDQ) at a time: memory is bounded by a block row, never
//! the weight.

use super::stream::Data;
use std::io::{self, Write};

/// What to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    pub bits: u32,
    pub block: usize,
    pub symmetric: bool,
    pub layout: Layout,
    pub part: Part,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `com.microsoft.MatMulNBits`.
    NBits,
    /// Blocked `DequantizeLinear` (opset 21) over `[K, N]`.
    Qdq,
    /// An embedding table `[V, H]` for `GatherBlockQuantized` (or a
    /// blocked `DequantizeLinear` along axis 1), 4 bits.
    Gather,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Data,
    Scales,
    ZeroPoints,
}

impl Spec {
    /// `(layout, part)` of a transform kind and its `layout` attribute.
    pub fn parse(kind: &str, layout: &str, bits: i64, block: i64, symmetric: bool) -> Result<Spec, String> {
        let part = match kind {
            "rtn_data" => Part::Data,
            "rtn_scales" => Part::Scales,
            "rtn_zero_points" => Part::ZeroPoints,
            _ => return Err(format!("not an RTN transform: {kind}")),
        };
        let layout = match layout {
            "matmulnbits" => Layout::NBits,
            "qdq" => Layout::Qdq,
            "gather" => Layout::Gather,
            _ => return Err(format!("RTN layout must be 'matmulnbits', 'qdq' or 'gather', got '{layout}'")),
        };
        if layout == Layout::Gather && bits != 4 {
            return Err(format!("RTN of an embedding table is 4-bit only, got {bits}"));
        }
        if !(bits == 4 || bits == 8) {
            return Err(format!("RTN bits must be 4 or 8, got {bits}"));
        }
        if !aten2onnx_passes::onnx_quantize_weights::valid_block(block) {
            return Err(format!("RTN block size must be a power of two from 16 to 4096, got {block}"));
        }
        if part == Part::ZeroPoints && symmetric {
            return Err("symmetric RTN has no zero points".into());
        }
        Ok(Spec { bits: bits as u32, block: block as usize, symmetric, layout, part })
    }

    fn kmax(&self) -> f32 {
        ((1u32 << self.bits) - 1) as f32
    }

    fn kmid(&self) -> f32 {
        (1u32 << (self.bits - 1)) as f32
    }

    /// ONNX data type and dims of the result for a source `[n, k]`.
    pub fn result(&self, n: i64, k: i64) -> (i32, Vec<i64>) {
        let nb = (k + self.block as i64 - 1) / self.block as i64;
        let signed = self.symmetric;
        let packed_type = match (self.bits, signed) {
            (4, true) => 22,  // INT4
            (4, false) => 21, // UINT4
            (_, true) => 3,   // INT8
            (_, false) => 2,  // UINT8
        };
        match (self.layout, self.part) {
            (Layout::NBits, Part::Data) => (2, vec![n, nb, self.block as i64 * self.bits as i64 / 8]),
            (Layout::NBits, Part::Scales) => (1, vec![n, nb]),
            (Layout::NBits, Part::ZeroPoints) => (2, vec![n, (nb * self.bits as i64 + 7) / 8]),
            (Layout::Qdq, Part::Data) => (packed_type, vec![k, n]),
            (Layout::Qdq, Part::Scales) => (1, vec![nb, n]),
            (Layout::Qdq, Part::ZeroPoints) => (packed_type, vec![nb, n]),
            (Layout::Gather, Part::Data) => (packed_type, vec![n, k]),
            (Layout::Gather, Part::Scales) => (1, vec![n, nb]),
            (Layout::Gather, Part::ZeroPoints) => (packed_type, vec![n, nb]),
        }
    }

    /// Bytes of the result for a source `[n, k]`.
    pub fn byte_len(&self, n: i64, k: i64) -> u64 {
        let (data_type, dims) = self.result(n, k);
        let numel: u64 = dims.iter().map(|&d| d as u64).product();
        match data_type {
            21 | 22 => numel.div_ceil(2),
            1 => numel * 4,
            _ => numel,
        }
    }
}

/// `(scale, zero point)` of one block, MLAS's arithmetic (module doc).
pub fn block_params(v: &[f32], spec: &Spec) -> (f32, u8) {
    let (mut mn, mut mx) = (f32::MAX, -f32::MAX);
    for &x in v {
        if x < mn {
            mn = x;
        }
        if x > mx {
            mx = x;
        }
    }
    if spec.symmetric {
        let m = if mx.abs() > mn.abs() { mx } else { mn };
        (-m / spec.kmid(), spec.kmid() as u8)
    } else {
        let mn = mn.min(0.0);
        let mx = mx.max(0.0);
        let scale = (mx - mn) / spec.kmax();
        let zpf = if scale != 0.0 { 0.0 - mn / scale } else { mn };
        let zp = if zpf < 0.0 {
            0
        } else if zpf > spec.kmax() {
            spec.kmax() as u8
        } else {
            zpf.round() as u8
        };
        (scale, zp)
    }
}

/// `(scale, zero point)` of one block of an embedding table: the
/// quantizer's numpy arithmetic for Gather (module doc; NaN propagates
/// through numpy's min / max).
pub fn gather_params(v: &[f32], symmetric: bool) -> (f32, u8) {
    let nan = v.iter().any(|x| x.is_nan());
    let (mut mn, mut mx) = (f32::INFINITY, f32::NEG_INFINITY);
    for &x in v {
        mn = mn.min(x);
        mx = mx.max(x);
    }
    if nan {
        (mn, mx) = (f32::NAN, f32::NAN);
    }
    if symmetric {
        let m = if mx.abs() > mn.abs() { mx } else { mn };
        (m / -8.0, 0)
    } else {
        let (mn, mx) = (if mn.is_nan() || mn < 0.0 { mn } else { 0.0 }, if mx.is_nan() || mx > 0.0 { mx } else { 0.0 });
        let scale = (mx - mn) / 15.0;
        let zp = if scale == 0.0 { 8.0 } else { (-mn / scale).round_ties_even() };
        (scale, numpy_u8(zp.clamp(0.0, 15.0)))
    }
}

/// A value of an embedding table's block (module doc).
fn gather_value(v: f32, scale: f32, zp: u8, symmetric: bool) -> u8 {
    if symmetric {
        let q = if scale == 0.0 { 0.0 } else { (v / scale).round_ties_even() };
        numpy_u8(q.clamp(-8.0, 7.0)) & 0xF
    } else {
        let q = if scale == 0.0 { 8.0 } else { (v / scale + zp as f32).round_ties_even() };
        numpy_u8(q.clamp(0.0, 15.0))
    }
}

/// `astype(int8 / uint8)` of a clamped value: exact for the small integers
/// it gets; a NaN (a table holding NaN) becomes 0, as it does on x86.
fn numpy_u8(x: f32) -> u8 {
    if x.is_nan() {
        0
    } else {
        (x as i32) as u8
    }
}

fn reciprocal(scale: f32) -> f32 {
    if scale != 0.0 {
        1.0 / scale
    } else {
        0.0
    }
}

/// MatMulNBits' value: `clamp(roundf(v * r + zp), 0, kmax)` (a NaN is 0, as
/// `(uint8)NaN` is on x86).
fn nbits_value(v: f32, r: f32, zp: u8, kmax: f32) -> u8 {
    let x = (v * r + zp as f32).round();
    if x.is_nan() {
        0
    } else {
        x.clamp(0.0, kmax) as u8
    }
}

/// The QDQ value: `clamp((int)roundf(v * r) + zp, lo, hi)` (NaN and
/// infinities as `(int32)` of them, INT_MIN, then clamped).
fn qdq_value(v: f32, r: f32, zp: i32, lo: i32, hi: i32) -> i32 {
    let x = (v * r).round();
    let i = if x.is_finite() && x.abs() < 2147483648.0 { x as i32 } else { i32::MIN };
    i.saturating_add(zp).clamp(lo, hi)
}

/// Decodes `count` source elements (float32, float16 or bfloat16) starting
/// at element `start` of `data`.
fn read_floats(
    data: &Data<'_>,
    data_type: i32,
    start: u64,
    count: u64,
    raw: &mut Vec<u8>,
    out: &mut Vec<f32>,
) -> io::Result<()> {
    let size = super::transform::element_size(data_type).unwrap_or(4);
    raw.clear();
    super::transform::write_elements(data, size, raw, start, count)?;
    out.clear();
    // Exact: float16, bfloat16 and float32 values are float32 values.
    out.extend(raw.chunks_exact(size).map(|b| super::transform::decode(b, data_type) as f32));
    Ok(())
}

/// Values of 4 or 8 bits written in the order pushed: 4-bit ones packed
/// two per byte, low nibble first; through a bounded buffer.
struct Sink<'o> {
    out: &'o mut dyn Write,
    packed: bool,
    buffer: Vec<u8>,
    half: Option<u8>,
}

impl<'o> Sink<'o> {
    fn new(out: &'o mut dyn Write, packed: bool) -> Self {
        Sink { out, packed, buffer: Vec::with_capacity(1 << 16), half: None }
    }

    fn push(&mut self, v: u8) -> io::Result<()> {
        if !self.packed {
            self.buffer.push(v);
        } else {
            match self.half.take() {
                None => self.half = Some(v & 0xF),
                Some(lo) => self.buffer.push(lo | ((v & 0xF) << 4)),
            }
        }
        if self.buffer.len() >= 1 << 16 {
            self.out.write_all(&self.buffer)?;
            self.buffer.clear();
        }
        Ok(())
    }

    fn finish(mut self) -> io::Result<()> {
        if let Some(lo) = self.half.take() {
            self.buffer.push(lo);
        }
        self.out.write_all(&self.buffer)
    }
}

/// Writes the result of `spec` over the source `w` (`[n, k]`, ONNX data
/// type `data_type`), bounded memory (a row, or a block of rows).
pub fn write(spec: &Spec, w: &Data<'_>, data_type: i32, n: i64, k: i64, out: &mut dyn Write) -> io::Result<()> {
    let (n, k) = (n as u64, k as u64);
    let bs = spec.block as u64;
    let nb = k.div_ceil(bs);
    let (mut raw, mut row) = (Vec::new(), Vec::new());
    match spec.layout {
        Layout::NBits => {
            let blob = (bs * spec.bits as u64 / 8) as usize;
            let mut bytes = Vec::with_capacity(nb as usize * blob.max(4));
            for r in 0..n {
                read_floats(w, data_type, r * k, k, &mut raw, &mut row)?;
                bytes.clear();
                let mut zps = Vec::with_capacity(nb as usize);
                for b in 0..nb {
                    let block = &row[(b * bs) as usize..((b + 1) * bs).min(k) as usize];
                    let (scale, zp) = block_params(block, spec);
                    match spec.part {
                        Part::Scales => bytes.extend_from_slice(&scale.to_le_bytes()),
                        Part::ZeroPoints => zps.push(zp),
                        Part::Data => {
                            let r = reciprocal(scale);
                            let start = bytes.len();
                            bytes.resize(start + blob, 0);
                            for (i, &v) in block.iter().enumerate() {
                                let q = nbits_value(v, r, zp, spec.kmax());
                                if spec.bits == 8 {
                                    bytes[start + i] = q;
                                } else {
                                    bytes[start + i / 2] |= q << (4 * (i % 2));
                                }
                            }
                        }
                    }
                }
                if spec.part == Part::ZeroPoints {
                    if spec.bits == 8 {
                        bytes.extend_from_slice(&zps);
                    } else {
                        for pair in zps.chunks(2) {
                            bytes.push(pair[0] | (pair.get(1).copied().unwrap_or(8) << 4));
                        }
                    }
                }
                out.write_all(&bytes)?;
            }
            Ok(())
        }
        Layout::Gather => {
            let mut sink = Sink::new(out, true);
            let mut scales = Vec::with_capacity(nb as usize * 4);
            for r in 0..n {
                read_floats(w, data_type, r * k, k, &mut raw, &mut row)?;
                scales.clear();
                for b in 0..nb {
                    let block = &row[(b * bs) as usize..((b + 1) * bs).min(k) as usize];
                    let (scale, zp) = gather_params(block, spec.symmetric);
                    match spec.part {
                        Part::Scales => scales.extend_from_slice(&scale.to_le_bytes()),
                        Part::ZeroPoints => sink.push(zp)?,
                        Part::Data => {
                            for &v in block {
                                sink.push(gather_value(v, scale, zp, spec.symmetric))?;
                            }
                        }
                    }
                }
                if spec.part == Part::Scales {
                    sink.out.write_all(&scales)?;
                }
            }
            sink.finish()
        }
        Layout::Qdq => {
            // Block b of K for every column: its parameters, then its rows.
            let (lo, hi) =
                if spec.symmetric { (-(spec.kmid() as i32), spec.kmid() as i32 - 1) } else { (0, spec.kmax() as i32) };
            let mut columns: Vec<Vec<f32>> = vec![Vec::new(); n as usize];
            let mut params: Vec<(f32, u8)> = vec![(0.0, 0); n as usize];
            let mut scales = Vec::new();
            let mut sink = Sink::new(out, spec.bits == 4);
            for b in 0..nb {
                let (k0, k1) = (b * bs, ((b + 1) * bs).min(k));
                for r in 0..n {
                    read_floats(w, data_type, r * k + k0, k1 - k0, &mut raw, &mut row)?;
                    params[r as usize] = block_params(&row, spec);
                    if spec.part == Part::Data {
                        columns[r as usize].clear();
                        columns[r as usize].extend_from_slice(&row);
                    }
                }
                match spec.part {
                    Part::Scales => {
                        scales.clear();
                        for &(scale, _) in &params {
                            scales.extend_from_slice(&scale.to_le_bytes());
                        }
                        sink.out.write_all(&scales)?;
                    }
                    Part::ZeroPoints => {
                        for &(_, zp) in &params {
                            sink.push(zp)?;
                        }
                    }
                    Part::Data => {
                        for i in 0..(k1 - k0) as usize {
                            for (c, &(scale, zp)) in columns.iter().zip(&params) {
                                let zp = if spec.symmetric { 0 } else { zp as i32 };
                                sink.push(qdq_value(c[i], reciprocal(scale), zp, lo, hi) as u8)?;
                            }
                        }
                    }
                }
            }
            sink.finish()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ties (`x.5` after scaling) round half to even and the range ends
    /// clamp, as onnxruntime's quantizer for Gather computes them
    /// (`quant_slice_symmetric` / `quant_slice_asymmetric`; the expected
    /// values are theirs for these blocks).
    #[test]
    fn gather_ties_and_range_ends_match_the_quantizer() {
        let sym = [8.0f32, 2.5, 3.5, -8.0, 0.5, -0.5, 1.5, -2.5];
        let (scale, _) = gather_params(&sym, true);
        assert_eq!(scale, 1.0);
        let q: Vec<i8> = sym.iter().map(|&v| ((gather_value(v, scale, 0, true) << 4) as i8) >> 4).collect();
        assert_eq!(q, [7, 2, 4, -8, 0, 0, 2, -2]);
        for (block, want_q, want_zp) in [
            ([0.0f32, 7.5, 15.0, -0.0], [0u8, 8, 15, 0], 0u8),
            ([-1.0, 14.0, 0.0, 0.0], [0, 15, 1, 1], 1),
            ([-0.5, 14.5, 6.5, 0.0], [0, 14, 6, 0], 0),
        ] {
            let (scale, zp) = gather_params(&block, false);
            assert_eq!((scale, zp), (1.0, want_zp), "{block:?}");
            let q: Vec<u8> = block.iter().map(|&v| gather_value(v, scale, zp, false)).collect();
            assert_eq!(q, want_q, "{block:?}");
        }
    }
}
