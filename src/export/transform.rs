//! Weight transforms applied while the writer streams an initializer out
//! (`onnx.weight_transform`, see `aten2onnx_passes::onnx_ir::WEIGHT_TRANSFORM_OP`).
//!
//! A transformed weight is never materialized: it is [`Data`] over the
//! memory-mapped sources, written a bounded chunk at a time.
//!
//! - `transpose` of a stored tensor is a strided view with permuted sizes
//!   and strides ([`Data::Strided`], no copy); a transpose of a cast is the
//!   cast of the transpose; of anything else, an element-by-element gather
//!   ([`Op::Permute`], slow but bounded).
//! - `reshape` keeps the row-major order: the same bytes.
//! - `concat` writes each outer row of each part in turn.
//! - `slice` of a stored tensor (or of a view of one) is a strided view with
//!   an offset; of a cast, the cast of the slice.
//! - `cast`, `conv_bn_weight` convert or scale element-wise in chunks of
//!   [`CHUNK`] elements; `conv_bn_bias` (one value per output channel) is
//!   computed up front.
//!
//! Extra memory while writing: a chunk buffer per transform level, plus the
//! per-channel factors of a BatchNormalization fold.

use super::stream::Data;
use half::{bf16, f16};
use std::io::{self, Write};

/// Elements converted per chunk.
const CHUNK: u64 = 1 << 16;

/// A computed tensor (`Data::Lazy`).
#[derive(Clone, Debug)]
pub struct Lazy<'a> {
    pub op: Op,
    /// ONNX data type and dims of the result.
    pub data_type: i32,
    pub dims: Vec<i64>,
    /// Operands: data, ONNX data type, dims.
    pub inputs: Vec<Input<'a>>,
}

#[derive(Clone, Debug)]
pub struct Input<'a> {
    pub data: Data<'a>,
    pub data_type: i32,
    pub dims: Vec<i64>,
}

#[derive(Clone, Debug)]
pub enum Op {
    /// The input's elements in the same order (a reshape of a strided view).
    Same,
    /// Element-wise conversion to `data_type`.
    Cast,
    /// Integer to narrower integer, every value checked to fit (a
    /// quantization zero point stored int64 by torch, int8 for ONNX).
    Narrow,
    /// The inputs concatenated along `axis`.
    Concat(usize),
    /// `W[..., m, ...] * factor[m]`, `m` the index along an axis whose
    /// inner size (the product of the dims after it) is the second field.
    ScaleAxis(Vec<f64>, u64),
    /// These values (no inputs).
    Values(Vec<f64>),
    /// Transpose of a computed input by `perm`, element by element.
    Permute(Vec<usize>),
    /// Block-wise RTN quantization of the `[N, K]` input (`rtn.rs`):
    /// written whole, never read as an input of another transform.
    Rtn(super::rtn::Spec),
}

pub fn element_size(data_type: i32) -> Option<usize> {
    Some(match data_type {
        1 | 6 | 12 => 4,
        // uint8, int8, bool, and the float8 types (E4M3FN, E4M3FNUZ, E5M2,
        // E5M2FNUZ, E8M0): byte-moving transforms (transpose, slice, concat)
        // carry them; casts from them are not offered (`cast_supported`).
        2 | 3 | 9 | 17 | 18 | 19 | 20 | 24 => 1,
        4 | 5 | 10 | 16 => 2,
        7 | 11 | 13 => 8,
        _ => return None,
    })
}

/// True when the integer `v` is a value of the integer ONNX data type.
fn fits(v: f64, data_type: i32) -> bool {
    let (lo, hi) = match data_type {
        2 => (0.0, 255.0),
        3 => (-128.0, 127.0),
        4 => (0.0, 65535.0),
        5 => (-32768.0, 32767.0),
        6 => (-2147483648.0, 2147483647.0),
        12 => (0.0, 4294967295.0),
        _ => return true,
    };
    v.fract() == 0.0 && (lo..=hi).contains(&v)
}

fn is_float(data_type: i32) -> bool {
    matches!(data_type, 1 | 10 | 11 | 16)
}

/// True for the casts a weight transform does: floats to floats (rounded to
/// nearest even, as onnxruntime's Cast does) and conversions that keep every
/// value (the optimizer's `embeds`).
pub fn cast_supported(from: i32, to: i32) -> bool {
    aten2onnx_passes::optimizer::rules::weights::cast_supported(from, to)
}

fn numel(dims: &[i64]) -> u64 {
    dims.iter().map(|&d| d.max(0) as u64).product()
}

/// Row-major strides (in elements) of `dims`.
fn row_major(dims: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * dims[i + 1].max(1);
    }
    strides
}

pub(super) fn decode(bytes: &[u8], data_type: i32) -> f64 {
    match data_type {
        1 => f32::from_le_bytes(bytes.try_into().unwrap()) as f64,
        11 => f64::from_le_bytes(bytes.try_into().unwrap()),
        10 => f16::from_le_bytes(bytes.try_into().unwrap()).to_f64(),
        16 => bf16::from_le_bytes(bytes.try_into().unwrap()).to_f64(),
        2 => bytes[0] as f64,
        3 => bytes[0] as i8 as f64,
        9 => (bytes[0] != 0) as u8 as f64,
        4 => u16::from_le_bytes(bytes.try_into().unwrap()) as f64,
        5 => i16::from_le_bytes(bytes.try_into().unwrap()) as f64,
        6 => i32::from_le_bytes(bytes.try_into().unwrap()) as f64,
        12 => u32::from_le_bytes(bytes.try_into().unwrap()) as f64,
        // 64-bit integers are only decoded for casts to themselves (exact
        // below 2^53; `cast_supported` allows no other).
        7 => i64::from_le_bytes(bytes.try_into().unwrap()) as f64,
        13 => u64::from_le_bytes(bytes.try_into().unwrap()) as f64,
        _ => f64::NAN,
    }
}

fn encode(value: f64, data_type: i32, out: &mut Vec<u8>) {
    match data_type {
        1 => out.extend_from_slice(&(value as f32).to_le_bytes()),
        11 => out.extend_from_slice(&value.to_le_bytes()),
        10 => out.extend_from_slice(&f16::from_f64(value).to_le_bytes()),
        16 => out.extend_from_slice(&bf16::from_f64(value).to_le_bytes()),
        2 => out.push(value as u8),
        3 => out.push(value as i8 as u8),
        9 => out.push((value != 0.0) as u8),
        4 => out.extend_from_slice(&(value as u16).to_le_bytes()),
        5 => out.extend_from_slice(&(value as i16).to_le_bytes()),
        6 => out.extend_from_slice(&(value as i32).to_le_bytes()),
        12 => out.extend_from_slice(&(value as u32).to_le_bytes()),
        7 => out.extend_from_slice(&(value as i64).to_le_bytes()),
        13 => out.extend_from_slice(&(value as u64).to_le_bytes()),
        _ => {}
    }
}

/// Writes elements `start .. start + count` (row-major) of `data`, whose
/// elements are `element_size` bytes.
pub fn write_elements(
    data: &Data<'_>,
    element_size: usize,
    out: &mut dyn Write,
    start: u64,
    count: u64,
) -> io::Result<()> {
    if count == 0 {
        return Ok(());
    }
    match data {
        Data::Contiguous(bytes) => {
            let (a, b) = ((start as usize) * element_size, ((start + count) as usize) * element_size);
            out.write_all(&bytes[a..b])
        }
        Data::Strided { storage, element_size, sizes, strides, offset } => {
            write_strided_range(out, storage, *element_size, sizes, strides, *offset, start, count)
        }
        Data::Lazy(lazy) => lazy.write_range(out, start, count),
    }
}

/// Elements `start .. start + count` of a strided view, in row-major order.
#[allow(clippy::too_many_arguments)]
fn write_strided_range(
    out: &mut dyn Write,
    storage: &[u8],
    element_size: usize,
    sizes: &[i64],
    strides: &[i64],
    offset: i64,
    start: u64,
    count: u64,
) -> io::Result<()> {
    let rank = sizes.len();
    let mut index = vec![0i64; rank];
    let mut rest = start;
    for d in (0..rank).rev() {
        let n = sizes[d].max(1) as u64;
        index[d] = (rest % n) as i64;
        rest /= n;
    }
    let mut buffer = Vec::with_capacity((CHUNK.min(count) as usize) * element_size);
    // The element's offset is kept up to date as the index steps (one add
    // per step, not a dot product per element: transposed weights were 5%
    // of a conversion); 4-byte elements get a fixed-size copy.
    let mut element: i64 = offset + index.iter().zip(strides).map(|(i, s)| i * s).sum::<i64>();
    for _ in 0..count {
        let at = element as usize * element_size;
        if element_size == 4 {
            buffer.extend_from_slice(&storage[at..at + 4]);
        } else {
            buffer.extend_from_slice(&storage[at..at + element_size]);
        }
        if buffer.len() as u64 >= CHUNK * element_size as u64 {
            out.write_all(&buffer)?;
            buffer.clear();
        }
        for d in (0..rank).rev() {
            index[d] += 1;
            element += strides[d];
            if index[d] < sizes[d] {
                break;
            }
            element -= sizes[d] * strides[d];
            index[d] = 0;
        }
    }
    out.write_all(&buffer)
}

/// Every element of a (small) tensor as f64.
fn read_all(input: &Input<'_>) -> Result<Vec<f64>, String> {
    let size = element_size(input.data_type).ok_or("an element type weight transforms do not read")?;
    let mut bytes = Vec::new();
    write_elements(&input.data, size, &mut bytes, 0, numel(&input.dims)).map_err(|e| e.to_string())?;
    Ok(bytes.chunks_exact(size).map(|b| decode(b, input.data_type)).collect())
}

impl Lazy<'_> {
    pub fn len(&self) -> u64 {
        if let Op::Rtn(spec) = &self.op {
            let d = &self.inputs[0].dims;
            return spec.byte_len(d[0], d[1]);
        }
        numel(&self.dims) * element_size(self.data_type).unwrap_or(0) as u64
    }

    /// Writes the whole tensor.
    pub fn write_all(&self, out: &mut dyn Write) -> io::Result<()> {
        if let Op::Rtn(spec) = &self.op {
            let input = &self.inputs[0];
            return super::rtn::write(spec, &input.data, input.data_type, input.dims[0], input.dims[1], out);
        }
        let size = element_size(self.data_type).unwrap_or(1) as u64;
        self.write_range(out, 0, self.len() / size)
    }

    /// Writes elements `start .. start + count` in row-major order.
    pub fn write_range(&self, out: &mut dyn Write, start: u64, count: u64) -> io::Result<()> {
        let size = element_size(self.data_type).unwrap_or(1);
        match &self.op {
            Op::Rtn(_) => Err(io::Error::other("a quantized weight is not the operand of another weight transform")),
            Op::Same => {
                let input = &self.inputs[0];
                write_elements(&input.data, element_size(input.data_type).unwrap_or(1), out, start, count)
            }
            Op::Values(values) => {
                let mut buffer = Vec::with_capacity(count as usize * size);
                for &v in &values[start as usize..(start + count) as usize] {
                    encode(v, self.data_type, &mut buffer);
                }
                out.write_all(&buffer)
            }
            Op::Cast | Op::ScaleAxis(..) | Op::Narrow => {
                let input = &self.inputs[0];
                let in_size = element_size(input.data_type).unwrap_or(1);
                let mut raw = Vec::new();
                let mut buffer = Vec::new();
                let mut at = start;
                while at < start + count {
                    let n = CHUNK.min(start + count - at);
                    raw.clear();
                    buffer.clear();
                    write_elements(&input.data, in_size, &mut raw, at, n)?;
                    for (i, bytes) in raw.chunks_exact(in_size).enumerate() {
                        let mut v = decode(bytes, input.data_type);
                        if let Op::ScaleAxis(factor, inner) = &self.op {
                            v *= factor[((at + i as u64) / inner) as usize % factor.len()];
                        }
                        if matches!(self.op, Op::Narrow) && !fits(v, self.data_type) {
                            return Err(io::Error::other(format!(
                                "value {v} of a narrowed weight does not fit ONNX data type {}",
                                self.data_type
                            )));
                        }
                        encode(v, self.data_type, &mut buffer);
                    }
                    out.write_all(&buffer)?;
                    at += n;
                }
                Ok(())
            }
            Op::Concat(axis) => {
                let outer_inner: Vec<u64> = self.inputs.iter().map(|p| numel(&p.dims[*axis..])).collect();
                let row: u64 = outer_inner.iter().sum();
                let mut at = start;
                while at < start + count {
                    let (outer, mut r) = (at / row, at % row);
                    let mut part = 0;
                    while r >= outer_inner[part] {
                        r -= outer_inner[part];
                        part += 1;
                    }
                    let n = (outer_inner[part] - r).min(start + count - at);
                    let input = &self.inputs[part];
                    write_elements(&input.data, size, out, outer * outer_inner[part] + r, n)?;
                    at += n;
                }
                Ok(())
            }
            Op::Permute(perm) => {
                let input = &self.inputs[0];
                let in_strides = row_major(&input.dims);
                let strides: Vec<i64> = perm.iter().map(|&p| in_strides[p]).collect();
                let mut index = vec![0i64; self.dims.len()];
                let mut rest = start;
                for d in (0..self.dims.len()).rev() {
                    let n = self.dims[d].max(1) as u64;
                    index[d] = (rest % n) as i64;
                    rest /= n;
                }
                let mut buffer = Vec::with_capacity((CHUNK.min(count) as usize) * size);
                for _ in 0..count {
                    let source: i64 = index.iter().zip(&strides).map(|(i, s)| i * s).sum();
                    write_elements(&input.data, size, &mut buffer, source as u64, 1)?;
                    if buffer.len() as u64 >= CHUNK * size as u64 {
                        out.write_all(&buffer)?;
                        buffer.clear();
                    }
                    for d in (0..self.dims.len()).rev() {
                        index[d] += 1;
                        if index[d] < self.dims[d] {
                            break;
                        }
                        index[d] = 0;
                    }
                }
                out.write_all(&buffer)
            }
        }
    }
}

/// The data of `kind` applied to `inputs`, with result type
/// (`data_type`, `dims`); `perm`, `axis` and `epsilon` as the op has them.
pub fn apply<'a>(
    kind: &str,
    perm: Option<&[i64]>,
    axis: Option<i64>,
    epsilon: Option<f32>,
    mut inputs: Vec<Input<'a>>,
    data_type: i32,
    dims: &[i64],
) -> Result<Data<'a>, String> {
    let size = element_size(data_type).ok_or_else(|| format!("a {kind} to ONNX data type {data_type}"))?;
    let lazy =
        |op: Op, inputs: Vec<Input<'a>>| Data::Lazy(Box::new(Lazy { op, data_type, dims: dims.to_vec(), inputs }));
    let same_elements = |inputs: &[Input<'_>]| inputs.iter().all(|i| i.data_type == data_type);
    match kind {
        "transpose" => {
            let [input] = &inputs[..] else { return Err("transpose takes one operand".into()) };
            let rank = input.dims.len();
            let perm: Vec<usize> = match perm {
                Some(p) => p.iter().map(|&x| x as usize).collect(),
                None => (0..rank).rev().collect(),
            };
            let mut sorted = perm.clone();
            sorted.sort();
            if sorted != (0..rank).collect::<Vec<_>>()
                || !same_elements(&inputs)
                || perm.iter().map(|&p| input.dims[p]).collect::<Vec<_>>() != dims
            {
                return Err(format!("transpose by {perm:?} of {:?} does not give {dims:?}", input.dims));
            }
            let input = inputs.pop().unwrap();
            match input.data {
                Data::Contiguous(bytes) => {
                    let strides = row_major(&input.dims);
                    Ok(Data::Strided {
                        storage: bytes,
                        element_size: size,
                        sizes: dims.to_vec(),
                        strides: perm.iter().map(|&p| strides[p]).collect(),
                        offset: 0,
                    })
                }
                Data::Strided { storage, element_size, sizes, strides, offset } => Ok(Data::Strided {
                    storage,
                    element_size,
                    sizes: perm.iter().map(|&p| sizes[p]).collect(),
                    strides: perm.iter().map(|&p| strides[p]).collect(),
                    offset,
                }),
                Data::Lazy(inner) if matches!(inner.op, Op::Cast) => {
                    // transpose(cast(x)) = cast(transpose(x))
                    let Lazy { inputs: mut cast_inputs, .. } = *inner;
                    let source = cast_inputs.pop().ok_or("a cast without operand")?;
                    let source_type = source.data_type;
                    let p: Vec<i64> = perm.iter().map(|&x| x as i64).collect();
                    let moved = apply("transpose", Some(&p), None, None, vec![source], source_type, dims)?;
                    Ok(lazy(Op::Cast, vec![Input { data: moved, data_type: source_type, dims: dims.to_vec() }]))
                }
                other => Ok(lazy(Op::Permute(perm), vec![Input { data: other, ..input }])),
            }
        }
        "reshape" => {
            let [input] = &inputs[..] else { return Err("reshape takes one operand".into()) };
            if numel(&input.dims) != numel(dims) || !same_elements(&inputs) {
                return Err(format!("reshape of {:?} to {dims:?}", input.dims));
            }
            let input = inputs.pop().unwrap();
            Ok(match input.data {
                Data::Contiguous(bytes) => Data::Contiguous(bytes),
                _ => lazy(Op::Same, vec![input]),
            })
        }
        "cast" => {
            let [input] = &inputs[..] else { return Err("cast takes one operand".into()) };
            if input.dims != dims || !cast_supported(input.data_type, data_type) {
                return Err(format!(
                    "cast of ONNX data type {} {:?} to {data_type} {dims:?} (only float-to-float and exact casts)",
                    input.data_type, input.dims
                ));
            }
            if input.data_type == data_type {
                return Ok(inputs.pop().unwrap().data);
            }
            Ok(lazy(Op::Cast, inputs))
        }
        "narrow" => {
            let [input] = &inputs[..] else { return Err("narrow takes one operand".into()) };
            let int = |t: i32| matches!(t, 2 | 3 | 4 | 5 | 6 | 7 | 12 | 13);
            if input.dims != dims || !int(input.data_type) || !int(data_type) {
                return Err(format!(
                    "narrow of ONNX data type {} {:?} to {data_type} {dims:?} (integers to integers)",
                    input.data_type, input.dims
                ));
            }
            if input.data_type == data_type {
                return Ok(inputs.pop().unwrap().data);
            }
            Ok(lazy(Op::Narrow, inputs))
        }
        "concat" => {
            let rank = dims.len() as i64;
            let axis = axis.ok_or("concat needs an axis")?;
            let a = if axis < 0 { axis + rank } else { axis };
            if !(0..rank).contains(&a) || inputs.is_empty() || !same_elements(&inputs) {
                return Err(format!("concat along axis {axis} of rank {rank}"));
            }
            let a = a as usize;
            let mut total = 0;
            for input in &inputs {
                let fits = input.dims.len() == dims.len()
                    && input.dims.iter().zip(dims).enumerate().all(|(d, (x, y))| d == a || x == y);
                if !fits {
                    return Err(format!("concat of {:?} into {dims:?} along axis {a}", input.dims));
                }
                total += input.dims[a];
            }
            if total != dims[a] {
                return Err(format!("concat along axis {a} gives {total}, the result type says {}", dims[a]));
            }
            Ok(lazy(Op::Concat(a), inputs))
        }
        "conv_bn_weight" | "conv_bn_bias" => {
            let epsilon = epsilon.ok_or("a BatchNormalization fold needs an epsilon")? as f64;
            if !is_float(data_type) || !same_elements(&inputs) {
                return Err(format!("{kind} of ONNX data type {data_type}"));
            }
            // The output channels: axis 0 of a Conv or Gemm (transB) weight
            // and of the bias, axis 1 of a ConvTranspose weight (group 1).
            let channel_axis = if kind == "conv_bn_weight" { axis.unwrap_or(0) } else { 0 };
            let channel_axis = usize::try_from(channel_axis).map_err(|_| "a negative BatchNormalization fold axis")?;
            let m = *dims.get(channel_axis).ok_or("a BatchNormalization fold axis past the weight's rank")?;
            let vector = |i: &Input<'_>| i.dims.len() == 1 && i.dims[0] == m;
            if kind == "conv_bn_weight" {
                let [w, scale, var] = &inputs[..] else { return Err("conv_bn_weight takes (W, scale, var)".into()) };
                if w.dims != dims || !vector(scale) || !vector(var) {
                    return Err(format!("conv_bn_weight of {:?}, {:?}, {:?}", w.dims, scale.dims, var.dims));
                }
                let (scale, var) = (read_all(scale)?, read_all(var)?);
                let factor = scale.iter().zip(&var).map(|(s, v)| s / (v + epsilon).sqrt()).collect();
                inputs.truncate(1);
                Ok(lazy(Op::ScaleAxis(factor, numel(&dims[channel_axis + 1..]).max(1)), inputs))
            } else {
                if !(4..=5).contains(&inputs.len()) || !inputs.iter().all(vector) || dims.len() != 1 {
                    return Err("conv_bn_bias takes (scale, B, mean, var[, b]), vectors of the result's size".into());
                }
                let read: Vec<Vec<f64>> = inputs.iter().map(read_all).collect::<Result<_, _>>()?;
                let values = (0..m as usize)
                    .map(|i| {
                        let b = read.get(4).map_or(0.0, |b| b[i]);
                        (b - read[2][i]) * (read[0][i] / (read[3][i] + epsilon).sqrt()) + read[1][i]
                    })
                    .collect();
                Ok(lazy(Op::Values(values), Vec::new()))
            }
        }
        other => Err(format!("unknown weight transform '{other}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    fn written(data: &Data<'_>) -> Vec<u8> {
        let mut out = Vec::new();
        data.write_to(&mut out).unwrap();
        assert_eq!(out.len() as u64, data.len());
        out
    }

    fn input<'a>(bytes: &'a [u8], dims: &[i64]) -> Input<'a> {
        Input { data: Data::Contiguous(bytes), data_type: 1, dims: dims.to_vec() }
    }

    /// `narrow` writes int64 zero points as int8 when every value fits, and
    /// fails the write on one that does not (never a silent wrap).
    #[test]
    fn narrow_checks_every_value() {
        let fits: Vec<u8> = [-128i64, 0, 127].iter().flat_map(|v| v.to_le_bytes()).collect();
        let input = Input { data: Data::Contiguous(&fits), data_type: 7, dims: vec![3] };
        let data = apply("narrow", None, None, None, vec![input], 3, &[3]).unwrap();
        let mut out = Vec::new();
        data.write_to(&mut out).unwrap();
        assert_eq!(out, vec![0x80, 0, 0x7f]);
        let over: Vec<u8> = [1i64, 300].iter().flat_map(|v| v.to_le_bytes()).collect();
        let input = Input { data: Data::Contiguous(&over), data_type: 7, dims: vec![2] };
        let data = apply("narrow", None, None, None, vec![input], 3, &[2]).unwrap();
        let e = data.write_to(&mut Vec::new()).unwrap_err().to_string();
        assert!(e.contains("value 300 of a narrowed weight does not fit"), "{e}");
        let float = Input { data: Data::Contiguous(&fits), data_type: 11, dims: vec![3] };
        assert!(apply("narrow", None, None, None, vec![float], 3, &[3]).is_err());
    }

    #[test]
    fn slice_is_a_strided_view() {
        let a = f32s(&[0., 1., 2., 3., 4., 5., 6., 7., 8., 9., 10., 11.]); // 4x3
                                                                           // rows 1..3
        let rows = slice(input(&a, &[4, 3]), 0, 1, 1, &[2, 3]).unwrap();
        assert!(matches!(rows, Data::Strided { .. }));
        assert_eq!(written(&rows), f32s(&[3., 4., 5., 6., 7., 8.]));
        // column 2 of those rows: a slice of a slice
        let t = Input { data: rows, data_type: 1, dims: vec![2, 3] };
        assert_eq!(written(&slice(t, -1, 2, 1, &[2, 1]).unwrap()), f32s(&[5., 8.]));
        // of a transpose (a strided view)
        let tr = apply("transpose", Some(&[1, 0]), None, None, vec![input(&a, &[4, 3])], 1, &[3, 4]).unwrap();
        let t = Input { data: tr, data_type: 1, dims: vec![3, 4] };
        assert_eq!(written(&slice(t, 1, 3, 1, &[3, 1]).unwrap()), f32s(&[9., 10., 11.]));
        // out of range, wrong other dims, negative start
        assert!(slice(input(&a, &[4, 3]), 0, 3, 1, &[2, 3]).is_err());
        assert!(slice(input(&a, &[4, 3]), 0, 0, 1, &[2, 2]).is_err());
        assert!(slice(input(&a, &[4, 3]), 0, -1, 1, &[2, 3]).is_err());
        assert!(slice(input(&a, &[4, 3]), 2, 0, 1, &[4, 3]).is_err());
    }

    #[test]
    fn transpose_concat_cast() {
        let a = f32s(&[0., 1., 2., 3., 4., 5.]); // 2x3
        let b = f32s(&[6., 7., 8., 9.]); // 2x2
        let t = apply("transpose", Some(&[1, 0]), None, None, vec![input(&a, &[2, 3])], 1, &[3, 2]).unwrap();
        assert!(matches!(t, Data::Strided { .. }));
        assert_eq!(written(&t), f32s(&[0., 3., 1., 4., 2., 5.]));
        // concat along the last axis: rows of each part in turn
        let c =
            apply("concat", None, Some(-1), None, vec![input(&a, &[2, 3]), input(&b, &[2, 2])], 1, &[2, 5]).unwrap();
        assert_eq!(written(&c), f32s(&[0., 1., 2., 6., 7., 3., 4., 5., 8., 9.]));
        // a range in the middle of the concat
        let mut out = Vec::new();
        write_elements(&c, 4, &mut out, 2, 5).unwrap();
        assert_eq!(out, f32s(&[2., 6., 7., 3., 4.]));
        // transpose of a concat: element by element
        let tc = apply(
            "transpose",
            Some(&[1, 0]),
            None,
            None,
            vec![Input { data: c, data_type: 1, dims: vec![2, 5] }],
            1,
            &[5, 2],
        )
        .unwrap();
        assert_eq!(written(&tc), f32s(&[0., 3., 1., 4., 2., 5., 6., 8., 7., 9.]));
        // cast to f16 and back, and a transpose of a cast
        let h = apply("cast", None, None, None, vec![input(&a, &[2, 3])], 10, &[2, 3]).unwrap();
        let hb = written(&h);
        assert_eq!(hb.len(), 12);
        assert_eq!(f16::from_le_bytes([hb[2], hb[3]]).to_f32(), 1.0);
        let th = apply(
            "transpose",
            Some(&[1, 0]),
            None,
            None,
            vec![Input { data: h, data_type: 10, dims: vec![2, 3] }],
            10,
            &[3, 2],
        )
        .unwrap();
        let back =
            apply("cast", None, None, None, vec![Input { data: th, data_type: 10, dims: vec![3, 2] }], 1, &[3, 2])
                .unwrap();
        assert_eq!(written(&back), f32s(&[0., 3., 1., 4., 2., 5.]));
        // f32 -> f16 rounds to nearest even; NaN stays NaN
        let odd = f32s(&[1.0 + 1.0 / 2048.0, f32::NAN, 65520.0]);
        let h = apply("cast", None, None, None, vec![input(&odd, &[3])], 10, &[3]).unwrap();
        let hb = written(&h);
        assert_eq!(f16::from_le_bytes([hb[0], hb[1]]).to_f32(), 1.0);
        assert!(f16::from_le_bytes([hb[2], hb[3]]).is_nan());
        assert!(f16::from_le_bytes([hb[4], hb[5]]).is_infinite());
        // casts that lose values are refused
        assert!(apply("cast", None, None, None, vec![input(&a, &[2, 3])], 6, &[2, 3]).is_err());
    }

    #[test]
    fn batch_norm_fold() {
        let w = f32s(&[1., 2., 3., 4.]); // [2, 2, 1, 1]
        let scale = f32s(&[2., 0.5]);
        let shift = f32s(&[1., -1.]);
        let mean = f32s(&[0.5, 1.]);
        let var = f32s(&[3., 0.]);
        let eps = 1.0f32;
        let folded = apply(
            "conv_bn_weight",
            None,
            None,
            Some(eps),
            vec![input(&w, &[2, 2, 1, 1]), input(&scale, &[2]), input(&var, &[2])],
            1,
            &[2, 2, 1, 1],
        )
        .unwrap();
        // f = [2 / sqrt(3 + 1), 0.5 / sqrt(0 + 1)] = [1, 0.5]
        assert_eq!(written(&folded), f32s(&[1., 2., 1.5, 2.]));
        let bias = f32s(&[0.5, 3.]);
        let b = apply(
            "conv_bn_bias",
            None,
            None,
            Some(eps),
            vec![input(&scale, &[2]), input(&shift, &[2]), input(&mean, &[2]), input(&var, &[2]), input(&bias, &[2])],
            1,
            &[2],
        )
        .unwrap();
        // (0.5 - 0.5) * 1 + 1 = 1; (3 - 1) * 0.5 - 1 = 0
        assert_eq!(written(&b), f32s(&[1., 0.]));
    }
}

/// `slice`: elements `start .. start + dims[axis]` of `axis` of `input`, the
/// other dims kept: a strided view of a stored tensor (no copy); a slice of
/// a cast is the cast of the slice.
pub fn slice<'a>(input: Input<'a>, axis: i64, start: i64, data_type: i32, dims: &[i64]) -> Result<Data<'a>, String> {
    let rank = input.dims.len() as i64;
    let a = if axis < 0 { axis + rank } else { axis };
    let fits = (0..rank).contains(&a)
        && dims.len() == input.dims.len()
        && input.dims.iter().zip(dims).enumerate().all(|(d, (x, y))| d as i64 == a || x == y)
        && start >= 0
        && start.checked_add(dims[a as usize]).is_some_and(|end| end <= input.dims[a as usize]);
    if !fits {
        return Err(format!("slice of {:?} from {start} along axis {axis} into {dims:?}", input.dims));
    }
    let a = a as usize;
    let size = element_size(data_type).ok_or_else(|| format!("a slice of ONNX data type {data_type}"))?;
    if input.data_type != data_type {
        return Err(format!("a slice of ONNX data type {} to {data_type}", input.data_type));
    }
    match input.data {
        Data::Contiguous(bytes) => {
            let strides = row_major(&input.dims);
            let offset = start * strides[a];
            Ok(Data::Strided { storage: bytes, element_size: size, sizes: dims.to_vec(), strides, offset })
        }
        Data::Strided { storage, element_size, strides, offset, .. } => {
            let offset = offset + start * strides[a];
            Ok(Data::Strided { storage, element_size, sizes: dims.to_vec(), strides, offset })
        }
        Data::Lazy(inner) if matches!(inner.op, Op::Cast) => {
            let Lazy { inputs: mut cast_inputs, .. } = *inner;
            let source = cast_inputs.pop().ok_or("a cast without operand")?;
            let source_type = source.data_type;
            let sliced = slice(source, axis, start, source_type, dims)?;
            Ok(Data::Lazy(Box::new(Lazy {
                op: Op::Cast,
                data_type,
                dims: dims.to_vec(),
                inputs: vec![Input { data: sliced, data_type: source_type, dims: dims.to_vec() }],
            })))
        }
        _ => Err("a slice of a computed weight (only stored tensors, their views and casts)".into()),
    }
}

/// The data of a weight transform `init` (`init.transform` set), its stored
/// sources read through `leaf`.
pub fn resolve<'a>(
    init: &super::graph::Initializer,
    leaf: &dyn Fn(&super::graph::Initializer) -> Result<Data<'a>, String>,
) -> Result<Data<'a>, String> {
    let Some(t) = &init.transform else { return leaf(init) };
    let inputs = t
        .inputs
        .iter()
        .map(|i| Ok(Input { data: resolve(i, leaf)?, data_type: i.data_type, dims: i.dims.clone() }))
        .collect::<Result<Vec<_>, String>>()?;
    if let Some((layout, bits, block, symmetric)) = &t.rtn {
        let spec = super::rtn::Spec::parse(&t.kind, layout, *bits, *block, *symmetric)
            .map_err(|e| format!("{}: {e}", init.position))?;
        let [input] = <[Input; 1]>::try_from(inputs)
            .map_err(|_| format!("{}: an RTN transform takes one operand", init.position))?;
        return rtn(spec, input, init.data_type, &init.dims).map_err(|e| format!("{}: {e}", init.position));
    }
    if t.kind == "slice" {
        let [input] =
            <[Input; 1]>::try_from(inputs).map_err(|_| format!("{}: a slice takes one operand", init.position))?;
        let (axis, start) =
            t.axis.zip(t.start).ok_or_else(|| format!("{}: a slice needs `axis` and `start`", init.position))?;
        return slice(input, axis, start, init.data_type, &init.dims).map_err(|e| format!("{}: {e}", init.position));
    }
    apply(&t.kind, t.perm.as_deref(), t.axis, t.epsilon, inputs, init.data_type, &init.dims)
        .map_err(|e| format!("{}: {e}", init.position))
}

/// The RTN quantization of `input` (`[N, K]`, float32/float16/bfloat16)
/// with result type (`data_type`, `dims`), checked against `spec`.
fn rtn<'a>(spec: super::rtn::Spec, input: Input<'a>, data_type: i32, dims: &[i64]) -> Result<Data<'a>, String> {
    let [n, k] = input.dims[..] else {
        return Err(format!("RTN quantizes a 2-D [N, K] weight, got {:?}", input.dims));
    };
    if !matches!(input.data_type, 1 | 10 | 16) {
        return Err(format!(
            "RTN quantizes float32, float16 or bfloat16 weights, got ONNX data type {}",
            input.data_type
        ));
    }
    let (want_type, want_dims) = spec.result(n, k);
    if want_type != data_type || want_dims != dims {
        return Err(format!(
            "RTN {:?} {:?} of [{n}, {k}] is ONNX data type {want_type} {want_dims:?}, the op says {data_type} {dims:?}",
            spec.layout, spec.part
        ));
    }
    Ok(Data::Lazy(Box::new(Lazy { op: Op::Rtn(spec), data_type, dims: dims.to_vec(), inputs: vec![input] })))
}
