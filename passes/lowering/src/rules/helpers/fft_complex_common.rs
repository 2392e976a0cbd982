//! FFTs with complex inputs or outputs (`_fft_r2c`, `_fft_c2c`, `_fft_c2r`
//! and the `fft_*` ops of the default IR), on complex values in the real
//! view (`lowering/complex.rs`), lowered to ONNX `DFT` (opset 20) in float64
//! like fft_common.rs (ONNX runtimes' DFTs of lengths that are not powers of
//! two sum terms directly, whose float32 rounding exceeds the tolerance).
//!
//! ONNX's inverse DFT divides by the length; the lowering multiplies it back
//! so that every transform here is unnormalized and the op's normalization
//! is applied once at the end. Complex-to-real transforms do not rely on a
//! one-sided inverse DFT: the Hermitian spectrum is completed
//! (`X[n-k] = conj(X[k])`) and the real part of the full inverse taken,
//! which ignores the imaginary parts of the 0th and Nyquist bins as
//! pocketfft does.

use super::common::{dim_size, element_count_f64};
use super::complex_common::{const_floats, finish};
use super::fft_common::{c2r_shape_and_dims, norm, static_int};
use crate::{builder, Ctx};
use melior::ir::{r#type::RankedTensorType, Type, Value};

type Out<'c, 'a> = Result<Vec<Value<'c, 'a>>, String>;

/// A signal length that is the input's own size along a dynamic dim (no
/// `s`, or `-1` in it): the DFT reads it at run time, and so do the
/// normalization and the one-sided trim (FNet's `fftn` over its sequence).
/// Trimming or padding to a length, and the complex-to-real transforms
/// (whose output length shapes a Hermitian completion), stay static.
pub const DYNAMIC: i64 = i64::MIN;

/// The transformed dims (non-negative) and signal lengths of a forward
/// transform, torch's `_canonicalize_fft_shape_and_dim_args`.
pub fn shape_and_dims(
    sizes: &[Option<i64>],
    s: Option<Vec<i64>>,
    dim: Option<Vec<i64>>,
) -> Result<(Vec<usize>, Vec<i64>), String> {
    let rank = sizes.len();
    let mut dims = Vec::new();
    if let Some(dim) = &dim {
        for &d in dim {
            let r = rank as i64;
            if d < -r || d >= r {
                return Err(format!("dimension {d} out of range for a tensor of rank {rank}"));
            }
            dims.push(if d < 0 { d + r } else { d } as usize);
        }
        let mut sorted = dims.clone();
        sorted.sort();
        sorted.dedup();
        if sorted.len() != dims.len() {
            return Err("FFT dims must be unique".into());
        }
    }
    let size = |d: usize| sizes[d].unwrap_or(DYNAMIC);
    let mut lengths = Vec::new();
    match &s {
        Some(s) => {
            if dim.as_ref().is_some_and(|d| d.len() != s.len()) {
                return Err("when given, dim and shape arguments must have the same length".into());
            }
            if s.len() > rank {
                return Err(format!("got shape with {} values but input tensor only has {rank} dimensions", s.len()));
            }
            if dim.is_none() {
                dims = (rank - s.len()..rank).collect();
            }
            for (&n, &d) in s.iter().zip(&dims) {
                lengths.push(if n == -1 { size(d) } else { n });
            }
        }
        None => {
            if dim.is_none() {
                dims = (0..rank).collect();
            }
            for &d in &dims {
                lengths.push(size(d));
            }
        }
    }
    if dims.is_empty() {
        return Err("the FFT needs at least one dim to transform".into());
    }
    for &n in &lengths {
        if n <= 0 && n != DYNAMIC {
            return Err(format!("Invalid number of data points ({n}) specified"));
        }
    }
    Ok((dims, lengths))
}

/// Trims or zero-pads dim `d` of `z` (real view of a complex tensor of rank
/// `rank`) from `from` to `to`.
fn resize<'c, 'a>(
    c: &Ctx<'c, 'a>,
    z: Value<'c, 'a>,
    rank: usize,
    d: usize,
    from: Option<i64>,
    to: i64,
) -> Result<Value<'c, 'a>, String> {
    let b = &c.b;
    if to == DYNAMIC {
        // The input's own size: nothing to trim or pad.
        return Ok(z);
    }
    let from = from.ok_or_else(|| format!("the FFT needs a static size along dim {d}"))?;
    if to < from {
        let (start, end, axis) = (b.const_i64s(&[0])?, b.const_i64s(&[to])?, b.const_i64s(&[d as i64])?);
        b.onnx().slice(z, start, end, Some(axis), None).like(z)
    } else if to > from {
        let mut pads = vec![0i64; 2 * (rank + 1)];
        pads[rank + 1 + d] = to - from;
        b.onnx().pad(z, b.const_i64s(&pads)?, None, None, None).like(z)
    } else {
        Ok(z)
    }
}

/// Unnormalized complex DFTs of `z` along `dims` (current sizes `lengths`).
fn c2c<'c, 'a>(
    c: &Ctx<'c, 'a>,
    mut z: Value<'c, 'a>,
    dims: &[usize],
    lengths: &[i64],
    forward: bool,
) -> Result<Value<'c, 'a>, String> {
    let b = &c.b;
    for (&d, &n) in dims.iter().zip(lengths) {
        let len = if n == DYNAMIC { c.squeeze(dim_size(c, z, d as i64)?, &[0])? } else { b.const_i64_scalar(n)? };
        let axis = b.const_i64_scalar(d as i64)?;
        z = b.onnx().dft(z, Some(len), Some(axis), None, Some(!forward as i64), None).like(z)?;
    }
    if !forward {
        let total = total_of(c, z, dims, lengths)?;
        z = scale_pow(c, z, &total, 1.0)?;
    }
    Ok(z)
}

/// The number of points of a transform: static, or (some length
/// [`DYNAMIC`]) a float64 scalar computed from `z`'s sizes along `dims`.
enum Total<'c, 'a> {
    Static(f64),
    Dynamic(Value<'c, 'a>),
}

fn total_of<'c, 'a>(c: &Ctx<'c, 'a>, z: Value<'c, 'a>, dims: &[usize], lengths: &[i64]) -> Result<Total<'c, 'a>, String> {
    let known: f64 = lengths.iter().filter(|&&n| n != DYNAMIC).map(|&n| n as f64).product();
    let dynamic: Vec<i64> = dims.iter().zip(lengths).filter(|(_, &n)| n == DYNAMIC).map(|(&d, _)| d as i64).collect();
    if dynamic.is_empty() {
        return Ok(Total::Static(known));
    }
    let b = &c.b;
    let f64_type = Type::float64(b.context);
    let mut total = element_count_f64(c, z, &dynamic)?;
    if known != 1.0 {
        let scalar = RankedTensorType::new(&[], f64_type, None).into();
        total = b.onnx().mul(total, b.const_scalar(f64_type, known)?).typed(scalar)?;
    }
    Ok(Total::Dynamic(total))
}

/// `z * total^power` (z in float64).
fn scale_pow<'c, 'a>(c: &Ctx<'c, 'a>, z: Value<'c, 'a>, total: &Total<'c, 'a>, power: f64) -> Result<Value<'c, 'a>, String> {
    match total {
        _ if power == 0.0 => Ok(z),
        Total::Static(t) => scale(c, z, t.powf(power)),
        Total::Dynamic(t) => {
            let factor = c.b.onnx().pow(*t, c.b.const_scalar(Type::float64(c.b.context), power)?).like(*t)?;
            c.b.onnx().mul(z, factor).like(z)
        }
    }
}

/// Keeps the first `n / 2 + 1` bins of `z` along `d` (one-sided output of
/// `n` points; `n` may be [`DYNAMIC`]).
fn one_sided<'c, 'a>(c: &Ctx<'c, 'a>, z: Value<'c, 'a>, rank: usize, d: usize, n: i64) -> Result<Value<'c, 'a>, String> {
    if n != DYNAMIC {
        return resize(c, z, rank, d, Some(n), n / 2 + 1);
    }
    let b = &c.b;
    let i64_1 = RankedTensorType::new(&[1], b.i64_type(), None).into();
    let half = b.onnx().div(dim_size(c, z, d as i64)?, b.const_i64s(&[2])?).typed(i64_1)?;
    let end = b.onnx().add(half, b.const_i64s(&[1])?).typed(i64_1)?;
    let (start, axis) = (b.const_i64s(&[0])?, b.const_i64s(&[d as i64])?);
    b.onnx().slice(z, start, end, Some(axis), None).like(z)
}

/// Complex-to-real transforms need static lengths (see [`DYNAMIC`]).
fn static_lengths(dims: &[usize], lengths: &[i64]) -> Result<(), String> {
    match dims.iter().zip(lengths).find(|(_, &n)| n == DYNAMIC) {
        Some((d, _)) => Err(format!("this FFT needs a static size along dim {d}")),
        None => Ok(()),
    }
}

/// Unnormalized complex-to-real inverse DFT along `d` with `n` outputs:
/// the input is trimmed or zero-padded to `n / 2 + 1` bins, the Hermitian
/// spectrum completed, the full inverse taken and its real part kept.
fn c2r<'c, 'a>(
    c: &Ctx<'c, 'a>,
    z: Value<'c, 'a>,
    rank: usize,
    d: usize,
    from: Option<i64>,
    n: i64,
) -> Result<Value<'c, 'a>, String> {
    let b = &c.b;
    let m = n / 2 + 1;
    let mut z = resize(c, z, rank, d, from, m)?;
    if n > m {
        let indices: Vec<i64> = (m..n).map(|k| n - k).collect();
        let mirror = b.onnx().gather(z, b.const_i64s(&indices)?, Some(d as i64)).like(z)?;
        let signs = const_floats(
            c,
            builder::element_type(melior::ir::ValueLike::r#type(&z)).ok_or("not a tensor")?,
            &[1.0, -1.0],
        )?;
        let mirror = b.onnx().mul(mirror, signs).like(z)?;
        z = b.onnx().concat(&[z, mirror], d as i64).like(z)?;
    }
    let z = c2c(c, z, &[d], &[n], false)?;
    c.complex_part(z, 0)
}

/// `conj` of a real view.
fn conj<'c, 'a>(c: &Ctx<'c, 'a>, z: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let signs = const_floats(c, Type::float64(c.b.context), &[1.0, -1.0])?;
    c.b.onnx().mul(z, signs).like(z)
}

/// Multiplies by `factor` unless it is 1.
fn scale<'c, 'a>(c: &Ctx<'c, 'a>, z: Value<'c, 'a>, factor: f64) -> Result<Value<'c, 'a>, String> {
    if factor == 1.0 {
        Ok(z)
    } else {
        c.b.onnx().mul(z, c.b.const_like(z, factor)?).like(z)
    }
}

/// The factor of a `norm` string, as a power of the number of points,
/// forward (`fft`, `rfft`, `hfft`) or inverse (`ifft`, `irfft`, `ihfft`).
fn norm_power(norm: &str, forward: bool) -> f64 {
    match (norm, forward) {
        ("ortho", _) => -0.5,
        ("backward", true) | ("forward", false) => 0.0,
        _ => -1.0,
    }
}

/// The factor of a prim's `normalization` (0 none, 1 1/sqrt(n), 2 1/n), as
/// a power of the number of points.
fn prim_power(normalization: i64) -> Result<f64, String> {
    match normalization {
        0 => Ok(0.0),
        1 => Ok(-0.5),
        2 => Ok(-1.0),
        other => Err(format!("invalid FFT normalization {other}")),
    }
}

/// The input `self` as a float64 real view, its aten dims, and its rank.
fn input<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<(Value<'c, 'a>, Vec<Option<i64>>), String> {
    if c.b.opset < 20 {
        return Err("the FFT needs ONNX opset 20 or later (DFT with axis and length inputs)".into());
    }
    let ty = c.aten_type("self")?;
    // Integer and bool inputs: torch promotes them to the default float
    // type (the capture's result type); the DFT runs in float64 either way.
    let sizes = builder::dims(ty).ok_or("the FFT needs an input of known rank")?;
    if sizes.is_empty() {
        return Err("the FFT of a 0-d tensor is not defined (torch refuses it too)".into());
    }
    let z = c.complex_operand("self", Type::float64(c.b.context))?;
    Ok((z, sizes))
}

/// `_fft_r2c(self, dim, normalization, onesided)`.
pub fn r2c<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    if c.is_complex("self") {
        return Err("_fft_r2c needs a real input".into());
    }
    let (z, sizes) = input(c)?;
    let dim: Vec<i64> = c.args.ints("dim")?;
    let (dims, lengths) = shape_and_dims(&sizes, None, Some(dim))?;
    let mut z = c2c(c, z, &dims, &lengths, true)?;
    let total = total_of(c, z, &dims, &lengths)?;
    if c.args.bool("onesided")? {
        let (Some(&d), Some(&n)) = (dims.last(), lengths.last()) else {
            return Err("_fft_r2c with onesided=True needs at least one dim".into());
        };
        z = one_sided(c, z, sizes.len(), d, n)?;
    }
    let z = scale_pow(c, z, &total, prim_power(c.args.int("normalization")?)?)?;
    Ok(vec![finish(c, z)?])
}

/// `_fft_c2c(self, dim, normalization, forward)`.
pub fn c2c_prim<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let (z, sizes) = input(c)?;
    let dim: Vec<i64> = c.args.sym_ints("dim")?.into_iter().map(static_int).collect::<Result<_, _>>()?;
    if dim.is_empty() {
        return identity_scaled(c, z);
    }
    let (dims, lengths) = shape_and_dims(&sizes, None, Some(dim))?;
    let z = c2c(c, z, &dims, &lengths, c.args.bool("forward")?)?;
    let total = total_of(c, z, &dims, &lengths)?;
    let z = scale_pow(c, z, &total, prim_power(c.args.int("normalization")?)?)?;
    Ok(vec![finish(c, z)?])
}

fn identity_scaled<'c, 'a>(c: &Ctx<'c, 'a>, z: Value<'c, 'a>) -> Out<'c, 'a> {
    Ok(vec![finish(c, z)?])
}

/// `_fft_c2r(self, dim, normalization, last_dim_size)`.
pub fn c2r_prim<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let (z, sizes) = input(c)?;
    let dim: Vec<i64> = c.args.ints("dim")?;
    let (dims, lengths) = shape_and_dims(&sizes, None, Some(dim))?;
    static_lengths(&dims, &lengths)?;
    let n = static_int(c.args.sym_int("last_dim_size")?)?;
    if n < 1 {
        return Err(format!("Invalid number of data points ({n}) specified"));
    }
    let last = dims.len() - 1;
    if sizes[dims[last]] != Some(n / 2 + 1) {
        return Err(format!(
            "_fft_c2r with last_dim_size {n} needs {} bins along dim {} (torch asserts the same)",
            n / 2 + 1,
            dims[last]
        ));
    }
    let z = c2c(c, z, &dims[..last], &lengths[..last], false)?;
    let y = c2r(c, z, sizes.len(), dims[last], sizes[dims[last]], n)?;
    let total: f64 = lengths[..last].iter().map(|&n| n as f64).product::<f64>() * n as f64;
    let y = scale_pow(c, y, &Total::Static(total), prim_power(c.args.int("normalization")?)?)?;
    Ok(vec![finish(c, y)?])
}

/// Which `fft_*` op.
#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    Fft,
    Ifft,
    Rfft,
    Ihfft,
    Irfft,
    Hfft,
}

/// `fft_<kind>` (`one`: the 1-D form with `n` and `dim: int`; else `s` and
/// `dim` lists, `default_dim` for the 2-D forms).
pub fn fft<'c, 'a>(c: &Ctx<'c, 'a>, kind: Kind, one: bool, default_dim: Option<&[i64]>) -> Out<'c, 'a> {
    if matches!(kind, Kind::Rfft | Kind::Ihfft) && c.is_complex("self") {
        return Err("this FFT expects a real input tensor (torch refuses a complex one)".into());
    }
    let (mut z, sizes) = input(c)?;
    let rank = sizes.len();
    let (s, dim) = if one {
        let n = c.args.opt_sym_int("n")?.map(static_int).transpose()?;
        (n.map(|n| vec![n]), Some(vec![c.args.int("dim")?]))
    } else {
        let s = if c.args.is_none("s")? {
            None
        } else {
            Some(c.args.sym_ints("s")?.into_iter().map(static_int).collect::<Result<Vec<_>, _>>()?)
        };
        let dim = if c.args.is_none("dim")? { default_dim.map(|d| d.to_vec()) } else { Some(c.args.ints("dim")?) };
        (s, dim)
    };
    let norm = norm(c)?;
    let c2r_kind = matches!(kind, Kind::Irfft | Kind::Hfft);
    let (dims, lengths) = if c2r_kind { c2r_shape_and_dims(&sizes, s, dim)? } else { shape_and_dims(&sizes, s, dim)? };
    let last = dims.len() - 1;
    if c2r_kind {
        static_lengths(&dims, &lengths)?;
    }
    let transformed = if c2r_kind { &dims[..last] } else { &dims[..] };
    for (&d, &n) in transformed.iter().zip(&lengths) {
        z = resize(c, z, rank, d, sizes[d], n)?;
    }
    // After the resize, z's size along each transformed dim is its length.
    let total = if c2r_kind {
        Total::Static(lengths.iter().map(|&n| n as f64).product())
    } else {
        total_of(c, z, &dims, &lengths)?
    };
    let tl = &lengths[..transformed.len()];
    let out = match kind {
        Kind::Fft | Kind::Ifft => {
            let forward = kind == Kind::Fft;
            let z = c2c(c, z, &dims, &lengths, forward)?;
            scale_pow(c, z, &total, norm_power(&norm, forward))?
        }
        Kind::Rfft | Kind::Ihfft => {
            let mut z = c2c(c, z, &dims, &lengths, true)?;
            if kind == Kind::Ihfft {
                z = conj(c, z)?;
            }
            let (d, n) = (dims[last], lengths[last]);
            z = one_sided(c, z, rank, d, n)?;
            scale_pow(c, z, &total, norm_power(&norm, kind == Kind::Rfft))?
        }
        Kind::Irfft | Kind::Hfft => {
            let forward = kind == Kind::Hfft;
            let mut z = c2c(c, z, &dims[..last], tl, forward)?;
            if forward {
                z = conj(c, z)?;
            }
            let d = dims[last];
            let y = c2r(c, z, rank, d, sizes[d], lengths[last])?;
            scale_pow(c, y, &total, norm_power(&norm, forward))?
        }
    };
    Ok(vec![finish(c, out)?])
}

/// `stft(self, n_fft, hop_length, win_length, window, normalized, onesided,
/// return_complex, align_to_window)` of an already padded input `[L]` or
/// `[B, L]`: frames `x[t * hop + k]` gathered by a constant index matrix,
/// multiplied by the window (zero-padded to `n_fft` around its center, ones
/// when absent), DFT along the frame, `[..., freq, n_frames]`; `normalized`
/// scales by `1/sqrt(n_fft)`. `return_complex=False` gives the real view.
pub fn stft<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    if c.b.opset < 20 {
        return Err("stft needs ONNX opset 20 or later (DFT with axis and length inputs)".into());
    }
    let ty = c.aten_type("self")?;
    let sizes = builder::dims(ty).ok_or("stft needs an input of known rank")?;
    let rank = sizes.len();
    if !(1..=2).contains(&rank) {
        return Err(format!("stft expects a 1-D or 2-D input, got rank {rank}"));
    }
    let len = sizes[rank - 1].ok_or("stft needs a static signal length")?;
    let complex_in = c.is_complex("self");
    let n_fft = c.args.int("n_fft")?;
    let hop = c.args.opt_int("hop_length")?.unwrap_or(n_fft / 4);
    let win_length = c.args.opt_int("win_length")?.unwrap_or(n_fft);
    if c.args.schema.arguments.iter().any(|a| a.name == "align_to_window")
        && !c.args.is_none("align_to_window")?
        && c.args.bool("align_to_window")?
    {
        return Err("stft with align_to_window=True is not supported".into());
    }
    if n_fft <= 0 || n_fft > len {
        return Err(format!("stft: expected 0 < n_fft <= {len}, but got n_fft={n_fft}"));
    }
    if hop <= 0 {
        return Err(format!("stft: expected hop_length > 0, but got hop_length={hop}"));
    }
    if win_length <= 0 || win_length > n_fft {
        return Err(format!("stft: expected 0 < win_length <= n_fft, but got win_length={win_length}"));
    }
    let has_window = !c.args.is_none("window")?;
    if has_window {
        if c.is_complex("window") {
            return Err("stft with a complex window is not supported".into());
        }
        let wdims = builder::dims(c.aten_type("window")?).ok_or("window of unknown rank")?;
        if wdims != [Some(win_length)] {
            return Err(format!("stft: expected a 1-D window of size {win_length}"));
        }
    }
    let onesided = if c.args.is_none("onesided")? { !complex_in } else { c.args.bool("onesided")? };
    if onesided && complex_in {
        return Err("stft: onesided output is not possible for a complex input".into());
    }
    let f64_type = Type::float64(c.b.context);
    let b = &c.b;
    let n_frames = 1 + (len - n_fft) / hop;
    let mut index = Vec::with_capacity((n_frames * n_fft) as usize);
    for t in 0..n_frames {
        for k in 0..n_fft {
            index.push(t * hop + k);
        }
    }
    let index = b.const_i64s(&index)?;
    let index = b.onnx().reshape(index, b.const_i64s(&[n_frames, n_fft])?, None).like(index)?;
    let z = c.complex_operand("self", f64_type)?;
    let mut frames = b.onnx().gather(z, index, Some(rank as i64 - 1)).like(z)?;
    let left = (n_fft - win_length) / 2;
    let window = if has_window {
        let w = c.tensor_as("window", f64_type)?;
        if win_length < n_fft {
            let pads = b.const_i64s(&[left, n_fft - win_length - left])?;
            Some(b.onnx().pad(w, pads, None, None, None).like(w)?)
        } else {
            Some(w)
        }
    } else if win_length < n_fft {
        let values: Vec<f64> = (0..n_fft).map(|k| if k >= left && k < left + win_length { 1.0 } else { 0.0 }).collect();
        Some(const_floats(c, f64_type, &values)?)
    } else {
        None
    };
    if let Some(w) = window {
        let w = c.unsqueeze(w, &[-1])?;
        frames = b.onnx().mul(frames, w).like(frames)?;
    }
    let mut z = c2c(c, frames, &[rank], &[n_fft], true)?;
    if onesided {
        z = resize(c, z, rank + 1, rank, Some(n_fft), n_fft / 2 + 1)?;
    }
    if c.args.bool("normalized")? {
        z = scale(c, z, 1.0 / (n_fft as f64).sqrt())?;
    }
    let perm: Vec<i64> = if rank == 1 { vec![1, 0, 2] } else { vec![0, 2, 1, 3] };
    let z = b.onnx().transpose(z, Some(&perm)).like(z)?;
    Ok(vec![finish(c, z)?])
}
