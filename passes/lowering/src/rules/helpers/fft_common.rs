//! Real-output FFTs of real inputs (`fft_irfft*`, `fft_hfft*`), lowered to
//! ONNX `DFT` (opset 20: `axis` and `dft_length` are inputs). Complex values
//! exist only inside the lowering, as ONNX DFT stores them: a trailing
//! dimension of 2 (real, imaginary). The aten graph never holds a complex
//! tensor here: torch promotes the real input of `irfft`/`hfft` to complex
//! inside the op.
//!
//! For a real `x`, `irfftn(x, s, dim, norm)` is the inverse complex DFT over
//! every transformed dim but the last (input trimmed or zero-padded to `s`),
//! then the complex-to-real inverse over the last one (input trimmed or padded
//! to `s[-1] // 2 + 1`, imaginary parts of the 0th and Nyquist bins ignored,
//! as pocketfft does); ONNX's inverse DFT divides by each length, which is
//! torch's default "backward" normalization. `hfftn(x)` of a real `x` is
//! `c2r(conj(fft(x)))` = the same unnormalized inverse transform (the
//! conjugate of a forward DFT of real data is its unnormalized inverse), with
//! hfft's normalization (forward: "backward" = none).
//!
//! NaN / inf inputs: every output a non-finite input contributes to through
//! the DFT sum is NaN / inf. torch's FFT libraries (MKL, pocketfft) skip
//! twiddle factors that are exactly 0 in some butterflies, so they can leave
//! an output finite that the DFT's definition (NaN * 0 = NaN) makes NaN; the
//! positions of NaN outputs may then differ from torch's.

use crate::{builder, Ctx, IntArg};
use melior::ir::{Value, ValueLike};

/// Which transform: decides the default normalization.
#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    /// `irfft*`: "backward" scales by 1/N.
    Irfft,
    /// `hfft*`: "backward" does not scale.
    Hfft,
}

/// The transformed dims (non-negative) and output lengths, torch's
/// `_canonicalize_fft_c2r_shape_and_dim_args`: `s` and `dim` optional,
/// `dim` defaulting to the last `len(s)` dims (all dims without `s`), a `-1`
/// in `s` meaning the input's size, the last length defaulting to
/// `2 * (size - 1)`.
pub fn c2r_shape_and_dims(
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
    let size = |d: usize| sizes[d].ok_or_else(|| format!("the FFT needs a static size along dim {d}"));
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
                lengths.push(if n == -1 { size(d)? } else { n });
            }
        }
        None => {
            if dim.is_none() {
                dims = (0..rank).collect();
            }
            for &d in &dims {
                lengths.push(size(d)?);
            }
        }
    }
    if dims.is_empty() {
        return Err("the FFT needs at least one dim to transform".into());
    }
    for &n in &lengths {
        if n <= 0 {
            return Err(format!("Invalid number of data points ({n}) specified"));
        }
    }
    let last = lengths.len() - 1;
    if !s.as_ref().is_some_and(|s| s[last] != -1) {
        lengths[last] = 2 * (size(dims[last])? - 1);
    }
    if lengths[last] < 1 {
        return Err(format!("Invalid number of data points ({}) specified", lengths[last]));
    }
    Ok((dims, lengths))
}

/// The `norm` argument: None is "backward".
pub fn norm(ctx: &Ctx<'_, '_>) -> Result<String, String> {
    if ctx.args.is_none("norm")? {
        return Ok("backward".into());
    }
    let n = ctx.args.string("norm")?;
    match n.as_str() {
        "backward" | "forward" | "ortho" => Ok(n),
        other => Err(format!("Invalid normalization mode: \"{other}\"")),
    }
}

/// A static `SymInt` (FFT lengths shape the output).
pub fn static_int(v: IntArg<'_, '_>) -> Result<i64, String> {
    match v {
        IntArg::Static(n) => Ok(n),
        IntArg::Dynamic(_) => Err("a dynamic FFT length is not supported (the output shape depends on it)".into()),
    }
}

/// `irfftn` / `hfftn` of the real input `self` over `dims` with output
/// lengths `lengths` (from [`c2r_shape_and_dims`]), normalized by `norm`.
pub fn real_c2r<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    kind: Kind,
    dims: &[usize],
    lengths: &[i64],
    norm: &str,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    // Integer and bool inputs: torch promotes them to the default float
    // type (the capture's result type); the DFT below runs in float64.
    let sizes = builder::dims(x.r#type()).ok_or("the FFT needs an input of known rank")?;
    let rank = sizes.len();
    if ctx.b.opset < 20 {
        return Err("the FFT needs ONNX opset 20 or later (DFT with axis and length inputs)".into());
    }
    // In double precision: ONNX runtimes' DFTs of lengths that are not powers
    // of two sum terms directly, whose float32 rounding (|terms| * N * eps)
    // exceeds the tolerance for outputs much smaller than the terms.
    let f64_type = melior::ir::Type::float64(b.context);
    let x = if element == f64_type { x } else { b.cast(x, f64_type)? };
    // [..., 1] -> [..., 2]: zero imaginary parts.
    let mut z = ctx.unsqueeze(x, &[rank as i64])?;
    let mut pads = vec![0i64; 2 * (rank + 1)];
    pads[2 * (rank + 1) - 1] = 1;
    z = b.onnx().pad(z, b.const_i64s(&pads)?, None, None, None).like(x)?;
    let mut cur: Vec<Option<i64>> = sizes.clone();
    // Trims or zero-pads axis `d` of `z` from `cur[d]` to `to`.
    let resize = |z: Value<'c, 'a>, d: usize, from: Option<i64>, to: i64| -> Result<Value<'c, 'a>, String> {
        let from = from.ok_or_else(|| format!("the FFT needs a static size along dim {d}"))?;
        if to < from {
            let (start, end, axis) = (b.const_i64s(&[0])?, b.const_i64s(&[to])?, b.const_i64s(&[d as i64])?);
            b.onnx().slice(z, start, end, Some(axis), None).like(x)
        } else if to > from {
            let mut pads = vec![0i64; 2 * (rank + 1)];
            pads[rank + 1 + d] = to - from;
            b.onnx().pad(z, b.const_i64s(&pads)?, None, None, None).like(x)
        } else {
            Ok(z)
        }
    };
    let last = dims.len() - 1;
    for (&d, &n) in dims[..last].iter().zip(lengths) {
        z = resize(z, d, cur[d], n)?;
        cur[d] = Some(n);
        let len = b.const_i64_scalar(n)?;
        let axis = b.const_i64_scalar(d as i64)?;
        z = b.onnx().dft(z, Some(len), Some(axis), None, Some(1), None).like(x)?;
    }
    let (d, n) = (dims[last], lengths[last]);
    z = resize(z, d, cur[d], n / 2 + 1)?;
    let len = b.const_i64_scalar(n)?;
    let axis = b.const_i64_scalar(d as i64)?;
    z = b.onnx().dft(z, Some(len), Some(axis), None, Some(1), Some(1)).like(x)?;
    let y = ctx.squeeze(z, &[rank as i64])?;
    // ONNX divided by N = prod(lengths) ("backward" for irfft).
    let total: f64 = lengths.iter().map(|&n| n as f64).product();
    let factor = match (kind, norm) {
        (Kind::Irfft, "backward") | (Kind::Hfft, "forward") => 1.0,
        (Kind::Irfft, "forward") | (Kind::Hfft, "backward") => total,
        _ => total.sqrt(),
    };
    let y = if factor == 1.0 { y } else { b.onnx().mul(y, b.const_like(x, factor)?).like(x)? };
    // The result's type: the input's float type, or torch's default float
    // type for integer and bool inputs.
    let out = ctx.result_element(0)?;
    let y = if out == f64_type { y } else { b.cast(y, out)? };
    ctx.b.onnx().identity(y).typed(ctx.result_type(0)?)
}

/// The whole rule for `fft_irfft*` / `fft_hfft*`: `one` for the 1-D forms
/// (`n`, `dim: int`), else `s` / `dim` lists (`default_dim` for the 2-D forms).
pub fn rule<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    kind: Kind,
    one: bool,
    default_dim: Option<&[i64]>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let sizes = builder::dims(x.r#type()).ok_or("the FFT needs an input of known rank")?;
    if sizes.is_empty() {
        return Err("the FFT of a 0-d tensor is not defined (torch refuses it too)".into());
    }
    let (s, dim) = if one {
        let n = ctx.args.opt_sym_int("n")?.map(static_int).transpose()?;
        (n.map(|n| vec![n]), Some(vec![ctx.args.int("dim")?]))
    } else {
        let s = if ctx.args.is_none("s")? {
            None
        } else {
            Some(ctx.args.sym_ints("s")?.into_iter().map(static_int).collect::<Result<Vec<_>, _>>()?)
        };
        let dim = if ctx.args.is_none("dim")? { default_dim.map(|d| d.to_vec()) } else { Some(ctx.args.ints("dim")?) };
        (s, dim)
    };
    let (dims, lengths) = c2r_shape_and_dims(&sizes, s, dim)?;
    let norm = norm(ctx)?;
    Ok(vec![real_c2r(ctx, kind, &dims, &lengths, &norm)?])
}
