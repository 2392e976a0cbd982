//! Upsampling (`upsample_*`, `_upsample_nearest_exact*`) with torch's exact
//! coordinate arithmetic (ATen/native/UpSample.h).
//!
//! torch maps an output index `d` of an axis to input coordinates with a
//! float32 `scale`: `1 / scale_factor` when the op carries a scale (F.interpolate
//! with `scale_factor=`), else `in / out`; `align_corners` uses
//! `(in - 1) / (out - 1)`. ONNX `Resize` derives its scale from the output size
//! (or takes the scales, but then computes the output size in float32), so it
//! is only used where both conventions give the same source indices:
//!
//! - cubic: integer upsampling (`out = s * in`), and dynamic sizes with no
//!   scale given (torch's `in / out` is Resize's half_pixel mapping of the
//!   output size; cubic interpolation is continuous, so float rounding of the
//!   coordinate does not change the result beyond rounding; DINOv2 resizes
//!   its position embeddings to the image's patch grid this way);
//! - nearest / nearest-exact: integer upsampling (`out = s * in`), where the
//!   index maps are provably equal;
//! - linear: `align_corners`, no scale given, `out == in`, or
//!   `out == in * scale_factor` exactly (linear interpolation is continuous,
//!   so float rounding of the coordinate does not change the result beyond
//!   rounding).
//!
//! Otherwise each axis becomes `Gather`s of constant
//! indices computed here with torch's float32 formulas (bit-for-bit the same
//! index maps and weights), blended with constant weights (bicubic: the four
//! taps clamped to the border, like torch); nearest modes on dynamic sizes
//! compute the same index maps in the graph (`dynamic_nearest`).

use super::common::shape_slice;
use crate::{builder, Ctx, IntArg};
use melior::ir::{r#type::RankedTensorType, Attribute, Type, Value, ValueLike};

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Mode {
    /// `nearest`: `min(floor(d * scale), in - 1)`, with torch's `out == in`
    /// and `out == 2 * in` shortcuts.
    Nearest,
    /// `nearest-exact`: `min(floor((d + 0.5) * scale), in - 1)`.
    NearestExact,
    Linear,
    Cubic,
}

/// Per-axis facts: static input/output sizes when known, and the scale
/// factor torch was given for the axis (if any, and > 0).
struct Axis {
    input: Option<i64>,
    output: Option<i64>,
    factor: Option<f64>,
    /// The op's number of spatial dims (torch's kernels differ, see `index_map`).
    spatial: usize,
}

/// The lowering of every upsample overload. `spatial`: 1, 2 or 3.
pub fn upsample<'c, 'a>(ctx: &Ctx<'c, 'a>, mode: Mode, spatial: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let is_vec = ctx.args.schema.arg("scale_factors").is_some();
    let x = ctx.args.tensor(if is_vec { "input" } else { "self" })?;
    let align = if ctx.args.schema.arg("align_corners").is_some() { ctx.args.bool("align_corners")? } else { false };
    if align && matches!(mode, Mode::Nearest | Mode::NearestExact) {
        return Err("align_corners with a nearest mode".into());
    }
    let element = builder::element_type(x.r#type()).ok_or("upsample of a non-tensor")?;
    if matches!(mode, Mode::Linear | Mode::Cubic) && !builder::is_float(element) {
        // torch's uint8 kernels interpolate with 16-bit fixed-point weights in
        // two separable passes (rounding to uint8 in between), chosen by the
        // channel count and CPU features: a float Resize differs by 1 in
        // places, so it is refused rather than silently different.
        return Err(format!(
            "linear/cubic upsampling of a {element} tensor: torch's integer kernels use fixed-point weights and \
             round between passes, which ONNX Resize does not reproduce; interpolate a float copy \
             (x.float()) and convert the result back"
        ));
    }
    let in_dims = builder::dims(x.r#type()).ok_or("upsample of an input of unknown rank")?;
    let out_dims = builder::dims(ctx.result_type(0)?).ok_or("upsample with a result of unknown rank")?;
    let rank = in_dims.len();
    if rank != spatial + 2 || out_dims.len() != rank {
        return Err(format!(
            "upsample over {spatial} spatial dims needs a rank-{} input, got rank {rank}",
            spatial + 2
        ));
    }
    let factors: Vec<Option<f64>> = if is_vec {
        if ctx.args.is_none("scale_factors")? {
            vec![None; spatial]
        } else {
            let f = ctx.args.floats("scale_factors")?;
            if f.len() != spatial {
                return Err(format!("{} scale factors for {spatial} spatial dims", f.len()));
            }
            f.into_iter().map(Some).collect()
        }
    } else {
        let names: &[&str] = match spatial {
            1 => &["scales"],
            2 => &["scales_h", "scales_w"],
            _ => &["scales_d", "scales_h", "scales_w"],
        };
        names.iter().map(|n| ctx.args.opt_float(n)).collect::<Result<_, _>>()?
    };
    let axes: Vec<Axis> = (0..spatial)
        .map(|i| Axis {
            input: in_dims[2 + i],
            output: out_dims[2 + i],
            factor: factors[i].filter(|&f| f > 0.0),
            spatial,
        })
        .collect();
    // Integer upsampling factor of an axis, when out = s * in.
    let integer_factor = |a: &Axis| -> Option<i64> {
        match (a.input, a.output, a.factor) {
            (Some(i), Some(o), _) if i > 0 && o % i == 0 => Some(o / i),
            (_, _, Some(f)) if f >= 1.0 && f.fract() == 0.0 && f <= 1024.0 => Some(f as i64),
            _ => None,
        }
    };
    let statics = axes.iter().all(|a| a.input.is_some() && a.output.is_some());
    let resize_ok = match mode {
        Mode::Nearest | Mode::NearestExact => axes.iter().all(|a| match integer_factor(a) {
            Some(s) => match (a.input, a.output) {
                // Static: compare the index maps themselves.
                (Some(i), Some(o)) => {
                    index_map(mode, a, i, o) == (0..o).map(|d| resize_index(mode, d, s)).collect::<Vec<_>>()
                }
                // Dynamic: torch's float32 `floor(d * (1/s))` equals `floor(d / s)`
                // when 1/s does not round down; nearest-exact never sits on a tie.
                _ => mode == Mode::NearestExact || s == 1 || s == 2 || (1.0f32 / s as f32) as f64 >= 1.0 / s as f64,
            },
            None => false,
        }),
        Mode::Linear => axes.iter().all(|a| {
            align
                || a.factor.is_none()
                || (a.input.is_some() && a.input == a.output)
                || matches!((a.input, a.output, a.factor), (Some(i), Some(o), Some(f)) if i as f64 * f == o as f64)
                || (!statics && integer_factor(a).is_some())
        }),
        // Integer upsampling: Resize's cubic (A = -0.75, border taps clamped)
        // is torch's, checked by the differential samples.
        Mode::Cubic => {
            axes.iter().all(|a| integer_factor(a).is_some()) || (!statics && axes.iter().all(|a| a.factor.is_none()))
        }
    };
    if resize_ok {
        return resize(ctx, x, mode, align, &axes, is_vec);
    }
    if !statics {
        if matches!(mode, Mode::Nearest | Mode::NearestExact) {
            return dynamic_nearest(ctx, x, mode, &axes, is_vec);
        }
        return Err(format!(
            "upsample ({mode:?}) with dynamic spatial sizes needs integer scale factors (torch's coordinate \
             mapping with a non-integer scale cannot be expressed with Resize)"
        ));
    }
    gather_path(ctx, x, mode, align, &axes)
}

/// ONNX Resize's source index for integer upsampling by `s`:
/// asymmetric + floor (`d / s`) for nearest, half_pixel + round_prefer_ceil
/// (`floor((2d + 1) / 2s)`) for nearest-exact.
fn resize_index(mode: Mode, d: i64, s: i64) -> i64 {
    match mode {
        Mode::Nearest => d / s,
        _ => (2 * d + 1) / (2 * s),
    }
}

/// torch's float32 scale of an axis (`compute_scales_value`).
fn torch_scale(a: &Axis, input: i64, output: i64) -> f32 {
    match a.factor {
        Some(f) => (1.0 / f) as f32,
        None => input as f32 / output as f32,
    }
}

/// torch's nearest / nearest-exact source indices of an axis.
///
/// torch 2.13's CPU kernels differ by rank: the 2-D nearest kernel goes
/// through `nearest_idx`, which copies when `out == in` and shifts when
/// `out == 2 * in` whatever the scale; the 1-D and 3-D kernels always map
/// with the scale (so `scale_factor=1.3` on a size-3 axis, out 3, gives
/// 0, 0, 1, not the identity). Checked by the samples of the 1d/3d rules.
fn index_map(mode: Mode, a: &Axis, input: i64, output: i64) -> Vec<i64> {
    let scale = torch_scale(a, input, output);
    let shortcut = a.spatial == 2 || a.factor.is_none();
    (0..output)
        .map(|d| match mode {
            Mode::Nearest if shortcut && output == input => d,
            Mode::Nearest if shortcut && output == 2 * input => d >> 1,
            Mode::Nearest => ((d as f32 * scale).floor() as i64).min(input - 1),
            _ => ((((d as f64 + 0.5) * scale as f64) as f32).floor() as i64).min(input - 1),
        })
        .collect()
}

/// `Resize` to the output size (or by integer scales when sizes are dynamic).
fn resize<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    mode: Mode,
    align: bool,
    axes: &[Axis],
    is_vec: bool,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let (onnx_mode, transform, nearest_mode) = match mode {
        Mode::Nearest => ("nearest", "asymmetric", Some("floor")),
        Mode::NearestExact => ("nearest", "half_pixel", Some("round_prefer_ceil")),
        Mode::Linear => ("linear", if align { "align_corners" } else { "half_pixel" }, None),
        Mode::Cubic => ("cubic", if align { "align_corners" } else { "half_pixel" }, None),
    };
    // Resize(x, roi, scales, sizes), roi left out.
    let resize_op = |scales: Option<Value<'c, 'a>>, sizes: Option<Value<'c, 'a>>| {
        let (transform, mode) = (Some(transform), Some(onnx_mode));
        let node = ctx.b.onnx().resize(
            x,
            None,
            scales,
            sizes,
            None,
            None,
            transform,
            None,
            None,
            None,
            None,
            mode,
            nearest_mode,
        );
        node.typed(ctx.result_type(0)?)
    };
    let i64_type = ctx.b.i64_type();
    if axes.iter().all(|a| a.output.is_some()) {
        let sizes: Vec<i64> = axes.iter().map(|a| a.output.unwrap()).collect();
        let batch_channels = shape_slice(ctx, x, 0, Some(2))?;
        let sizes = ctx.b.const_i64s(&sizes)?;
        let sizes = ctx.b.onnx().concat(&[batch_channels, sizes], 0).typed(ctx.b.unranked(i64_type))?;
        return Ok(vec![resize_op(None, Some(sizes))?]);
    }
    // Dynamic output sizes: the given output_size, or integer scales.
    let given_sizes = if is_vec { !ctx.args.is_none("output_size")? } else { true };
    let use_scales = axes.iter().all(|a| a.factor.is_some_and(|f| f.fract() == 0.0 && f >= 1.0));
    if use_scales {
        let mut scales = vec![1.0f32, 1.0];
        scales.extend(axes.iter().map(|a| a.factor.unwrap() as f32));
        let scales = const_floats(
            ctx,
            ctx.b.f32_type(),
            &[scales.len() as i64],
            &scales.iter().map(|&s| s as f64).collect::<Vec<_>>(),
        )?;
        // `sizes` stays an explicit empty input (the typed builder drops
        // trailing `None`s): the written node keeps its four inputs.
        let no_sizes = ctx.none()?;
        return Ok(vec![resize_op(Some(scales), Some(no_sizes))?]);
    }
    if given_sizes && axes.iter().all(|a| a.factor.is_none()) && matches!(mode, Mode::Linear | Mode::Cubic) {
        let size: Vec<IntArg> = ctx.args.sym_ints("output_size")?;
        let size = ctx.int_list_tensor(&size)?;
        let batch_channels = shape_slice(ctx, x, 0, Some(2))?;
        let sizes = ctx.b.onnx().concat(&[batch_channels, size], 0).typed(ctx.b.unranked(i64_type))?;
        return Ok(vec![resize_op(None, Some(sizes))?]);
    }
    Err(format!("upsample ({mode:?}) with a dynamic output size: only integer scale factors are supported"))
}

/// Nearest / nearest-exact with a dynamic input or output size and a scale
/// Resize cannot reproduce: each axis is a `Gather` of source indices
/// computed in the graph with torch's float32 formulas (`index_map`):
/// `min(floor(d * scale), in - 1)`, `scale` = `1 / scale_factor` (a float32
/// constant) or `in / out` in float32; nearest-exact maps `d + 0.5` in
/// float64 and rounds to float32 before the floor. The 2-D kernel's
/// shortcuts (`out == in`: copy, `out == 2 * in`: `d / 2`) are taken at run
/// time. The output size is the given `output_size`, else torch's
/// `floor(in * scale_factor)` in float64.
fn dynamic_nearest<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    mode: Mode,
    axes: &[Axis],
    is_vec: bool,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let i64_t = b.i64_type();
    let f32_t = b.f32_type();
    let f64_t = Type::float64(b.context);
    let ints = b.unranked(i64_t);
    let given: Option<Vec<IntArg>> = if !is_vec || !ctx.args.is_none("output_size")? {
        let sizes = ctx.args.sym_ints("output_size")?;
        if sizes.len() != axes.len() {
            return Err(format!("{} output sizes for {} spatial dims", sizes.len(), axes.len()));
        }
        Some(sizes)
    } else {
        None
    };
    let mut cur = x;
    for (i, a) in axes.iter().enumerate() {
        let axis = 2 + i as i64;
        if let (Some(input), Some(output)) = (a.input, a.output) {
            // A static axis of a dynamic op: constant indices.
            if input <= 0 || output <= 0 {
                return Err("upsample with an empty spatial size".into());
            }
            let map = index_map(mode, a, input, output);
            if input != output || map.iter().enumerate().any(|(d, &s)| d as i64 != s) {
                cur = b.onnx().gather(cur, b.const_i64s(&map)?, Some(axis)).like(x)?;
            }
            continue;
        }
        let input = match a.input {
            Some(n) => b.const_i64s(&[n])?,
            None => shape_slice(ctx, x, axis, Some(axis + 1))?,
        };
        let output = match (a.output, &given, a.factor) {
            (Some(n), _, _) => b.const_i64s(&[n])?,
            (None, Some(sizes), _) => ctx.int_tensor(sizes[i])?,
            (None, None, Some(f)) => {
                let scaled = b
                    .onnx()
                    .mul(b.cast(input, f64_t)?, const_floats(ctx, f64_t, &[1], &[f])?)
                    .typed(b.unranked(f64_t))?;
                b.cast(b.onnx().floor(scaled).like(scaled)?, i64_t)?
            }
            (None, None, None) => return Err("upsample with neither an output size nor a scale factor".into()),
        };
        let scale = match a.factor {
            Some(f) => const_floats(ctx, f32_t, &[1], &[(1.0 / f) as f32 as f64])?,
            None => b.onnx().div(b.cast(input, f32_t)?, b.cast(output, f32_t)?).typed(b.unranked(f32_t))?,
        };
        let out_scalar = b.onnx().squeeze(output, Some(b.const_i64s(&[0])?)).typed(ints)?;
        let d = b.onnx().range(b.const_i64_scalar(0)?, out_scalar, b.const_i64_scalar(1)?, None).typed(ints)?;
        let source = match mode {
            Mode::Nearest => {
                let df = b.cast(d, f32_t)?;
                b.onnx().mul(df, scale).typed(b.unranked(f32_t))?
            }
            _ => {
                let dd = b
                    .onnx()
                    .add(b.cast(d, f64_t)?, const_floats(ctx, f64_t, &[1], &[0.5])?)
                    .typed(b.unranked(f64_t))?;
                let prod = b.onnx().mul(dd, b.cast(scale, f64_t)?).typed(b.unranked(f64_t))?;
                b.cast(prod, f32_t)?
            }
        };
        let floor = b.onnx().floor(source).typed(b.unranked(f32_t))?;
        let last = b.onnx().sub(input, b.const_i64s(&[1])?).typed(ints)?;
        let mut idx = b.onnx().min(&[b.cast(floor, i64_t)?, last]).typed(ints)?;
        if mode == Mode::Nearest && (a.spatial == 2 || a.factor.is_none()) {
            let bool_t = b.unranked(melior::ir::r#type::IntegerType::new(b.context, 1).into());
            let twice = b.onnx().add(input, input).typed(ints)?;
            let doubled = b.onnx().equal(output, twice).typed(bool_t)?;
            let half = b.onnx().div(d, b.const_i64s(&[2])?).typed(ints)?;
            idx = b.onnx().where_(doubled, half, idx).typed(ints)?;
            let same = b.onnx().equal(output, input).typed(bool_t)?;
            idx = b.onnx().where_(same, d, idx).typed(ints)?;
        }
        cur = b.onnx().gather(cur, idx, Some(axis)).like(x)?;
    }
    if cur == x {
        return Ok(vec![x]);
    }
    Ok(vec![ctx.b.onnx().identity(cur).typed(ctx.result_type(0)?)?])
}

/// A float constant of element type `element` and shape `shape`.
fn const_floats<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    element: Type<'c>,
    shape: &[i64],
    values: &[f64],
) -> Result<Value<'c, 'a>, String> {
    let dims: Vec<u64> = shape.iter().map(|&d| d as u64).collect();
    let ty = RankedTensorType::new(&dims, element, None).into();
    let elements: Vec<Attribute> =
        values.iter().map(|&v| crate::builder::float_attr(ctx.b.context, element, v).into()).collect();
    ctx.b.constant(ty, &elements)
}

/// Axis by axis: `Gather` of constant source indices, blended with constant
/// weights for linear and cubic.
fn gather_path<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    mode: Mode,
    align: bool,
    axes: &[Axis],
) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let double = element == Type::float64(ctx.b.context);
    if matches!(mode, Mode::Linear | Mode::Cubic) && !builder::is_float(element) {
        return Err("linear / cubic upsampling of a non-float tensor".into());
    }
    let rank = axes.len() + 2;
    let mut cur = x;
    for (i, a) in axes.iter().enumerate() {
        let axis = 2 + i as i64;
        let (input, output) = (a.input.unwrap(), a.output.unwrap());
        if input <= 0 || output <= 0 {
            return Err("upsample with an empty spatial size".into());
        }
        // Weights broadcast as [out, 1, ...] against the trailing axes.
        let mut wshape = vec![output];
        wshape.extend(std::iter::repeat(1).take(rank - 1 - axis as usize));
        let taps: Vec<(Vec<i64>, Option<Vec<f64>>)> = match mode {
            Mode::Nearest | Mode::NearestExact => {
                let map = index_map(mode, a, input, output);
                if map.iter().enumerate().all(|(d, &s)| d as i64 == s) && input == output {
                    continue;
                }
                vec![(map, None)]
            }
            Mode::Linear => {
                if input == output {
                    continue;
                }
                let (i0, i1, l0, l1) = if double {
                    linear_taps::<f64>(a, align, input, output)
                } else {
                    linear_taps::<f32>(a, align, input, output)
                };
                vec![(i0, Some(l0)), (i1, Some(l1))]
            }
            Mode::Cubic => {
                if double {
                    cubic_taps::<f64>(a, align, input, output)
                } else {
                    cubic_taps::<f32>(a, align, input, output)
                }
            }
        };
        let mut sum: Option<Value> = None;
        for (indices, weights) in taps {
            let idx = ctx.b.const_i64s(&indices)?;
            let g = ctx.b.onnx().gather(cur, idx, Some(axis)).like(x)?;
            let term = match weights {
                None => g,
                Some(w) => {
                    let w = const_floats(ctx, element, &wshape, &w)?;
                    ctx.b.onnx().mul(g, w).like(x)?
                }
            };
            sum = Some(match sum {
                None => term,
                Some(s) => ctx.b.onnx().add(s, term).like(x)?,
            });
        }
        cur = sum.ok_or("no taps")?;
    }
    if cur == x {
        return Ok(vec![x]);
    }
    Ok(vec![ctx.b.onnx().identity(cur).typed(ctx.result_type(0)?)?])
}

/// The float arithmetic torch does in the kernel's `opmath_t` (float for
/// float32, double for float64).
trait OpMath:
    Copy + PartialOrd + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self> + std::ops::Mul<Output = Self>
{
    fn from_f64(v: f64) -> Self;
    fn from_i64(v: i64) -> Self;
    fn to_f64(self) -> f64;
    fn floor(self) -> Self;
    fn div(self, o: Self) -> Self;
}

impl OpMath for f32 {
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    fn from_i64(v: i64) -> Self {
        v as f32
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn floor(self) -> Self {
        f32::floor(self)
    }
    fn div(self, o: Self) -> Self {
        self / o
    }
}

impl OpMath for f64 {
    fn from_f64(v: f64) -> Self {
        v
    }
    fn from_i64(v: i64) -> Self {
        v as f64
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn floor(self) -> Self {
        f64::floor(self)
    }
    fn div(self, o: Self) -> Self {
        self / o
    }
}

/// `area_pixel_compute_scale`.
fn area_scale<T: OpMath>(a: &Axis, align: bool, input: i64, output: i64) -> T {
    if align {
        if output > 1 {
            T::from_i64(input - 1).div(T::from_i64(output - 1))
        } else {
            T::from_f64(0.0)
        }
    } else {
        match a.factor {
            Some(f) => T::from_f64(1.0 / f),
            None => T::from_i64(input).div(T::from_i64(output)),
        }
    }
}

/// `area_pixel_compute_source_index`.
fn source_index<T: OpMath>(scale: T, d: i64, align: bool, cubic: bool) -> T {
    if align {
        scale * T::from_i64(d)
    } else {
        let half = T::from_f64(0.5);
        let s = scale * (T::from_i64(d) + half) - half;
        if !cubic && s < T::from_f64(0.0) {
            T::from_f64(0.0)
        } else {
            s
        }
    }
}

/// `guard_index_and_lambda`: floor index (at most in - 1) and the fraction in [0, 1].
fn guard<T: OpMath>(real: T, input: i64) -> (i64, T) {
    let index = (real.floor().to_f64() as i64).min(input - 1);
    let mut lambda = real - T::from_i64(index);
    if lambda < T::from_f64(0.0) {
        lambda = T::from_f64(0.0);
    }
    if lambda > T::from_f64(1.0) {
        lambda = T::from_f64(1.0);
    }
    (index, lambda)
}

/// `compute_source_index_and_lambda` for every output index.
fn linear_taps<T: OpMath>(a: &Axis, align: bool, input: i64, output: i64) -> (Vec<i64>, Vec<i64>, Vec<f64>, Vec<f64>) {
    let scale: T = area_scale(a, align, input, output);
    let (mut i0, mut i1, mut l0, mut l1) = (vec![], vec![], vec![], vec![]);
    for d in 0..output {
        let (index, lambda1) = guard(source_index(scale, d, align, false), input);
        i0.push(index);
        i1.push(index + if index < input - 1 { 1 } else { 0 });
        l0.push((T::from_f64(1.0) - lambda1).to_f64());
        l1.push(lambda1.to_f64());
    }
    (i0, i1, l0, l1)
}

/// Bicubic taps: indices `index - 1 .. index + 2` clamped to the border and
/// the cubic convolution weights (A = -0.75) of the fraction.
fn cubic_taps<T: OpMath>(a: &Axis, align: bool, input: i64, output: i64) -> Vec<(Vec<i64>, Option<Vec<f64>>)> {
    let scale: T = area_scale(a, align, input, output);
    let mut taps: Vec<(Vec<i64>, Option<Vec<f64>>)> = (0..4).map(|_| (vec![], Some(vec![]))).collect();
    let c = |v: f64| T::from_f64(v);
    let conv1 = |x: T| ((c(-0.75) + c(2.0)) * x - (c(-0.75) + c(3.0))) * x * x + c(1.0);
    let conv2 = |x: T| ((c(-0.75) * x - c(5.0) * c(-0.75)) * x + c(8.0) * c(-0.75)) * x - c(4.0) * c(-0.75);
    for d in 0..output {
        let (index, t) = guard(source_index(scale, d, align, true), input);
        let coeffs = [conv2(t + c(1.0)), conv1(t), conv1(c(1.0) - t), conv2(c(1.0) - t + c(1.0))];
        for (j, tap) in taps.iter_mut().enumerate() {
            tap.0.push((index - 1 + j as i64).clamp(0, input - 1));
            tap.1.as_mut().unwrap().push(coeffs[j].to_f64());
        }
    }
    taps
}

/// Antialiased resampling (torchvision-style `antialias=True`): separable,
/// so each spatial axis is a MatMul with torch's [in, out] weight matrix
/// (triangle filter for bilinear, a = -0.5 cubic for bicubic, stretched by
/// the scale when downsampling, normalized per output).
pub(super) fn upsample_aa<'c, 'a>(c: &Ctx<'c, 'a>, cubic: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let is_vec = c.args.schema.arg("scale_factors").is_some();
    let x = c.args.tensor(if is_vec { "input" } else { "self" })?;
    let align = c.args.bool("align_corners")?;
    let in_dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
    let out_dims = builder::dims(c.result_type(0)?).ok_or("unknown rank")?;
    if in_dims.len() != 4 {
        return Err("antialiased upsampling needs a 4-D input".into());
    }
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    if !builder::is_float(element) {
        // (A float attribute of an integer type is not a valid MLIR attribute.)
        return Err(format!(
            "antialiased upsampling of a {element} tensor: torch's integer kernels use fixed-point weights and \
             round between passes, which a float MatMul does not reproduce; interpolate a float copy (x.float())"
        ));
    }
    let factors: Vec<Option<f64>> = if is_vec {
        if c.args.is_none("scale_factors")? {
            vec![None, None]
        } else {
            c.args.floats("scale_factors")?.into_iter().map(Some).collect()
        }
    } else {
        vec![c.args.opt_float("scales_h")?, c.args.opt_float("scales_w")?]
    };
    let mut y = x;
    for axis in [2usize, 3] {
        let input = in_dims[axis].ok_or("antialiased upsampling needs static sizes")?;
        let output = out_dims[axis].ok_or("antialiased upsampling needs static sizes")?;
        let m = weights(input, output, align, factors[axis - 2].filter(|&f| f > 0.0), cubic);
        let ty: Type = RankedTensorType::new(&[input as u64, output as u64], element, None).into();
        let attrs: Vec<Attribute> =
            m.iter().map(|&v| crate::builder::float_attr(c.b.context, element, v).into()).collect();
        let matrix = c.b.constant(ty, &attrs)?;
        y = if axis == 3 {
            c.b.onnx().mat_mul(y, matrix).like(x)?
        } else {
            let perm = Some(&[0, 1, 3, 2][..]);
            let t = c.b.onnx().transpose(y, perm).like(x)?;
            let t = c.b.onnx().mat_mul(t, matrix).like(x)?;
            c.b.onnx().transpose(t, perm).like(x)?
        };
    }
    Ok(vec![c.b.onnx().identity(y).typed(c.result_type(0)?)?])
}

/// torch's antialias weights as an [in, out] matrix (row-major).
fn weights(input: i64, output: i64, align: bool, factor: Option<f64>, cubic: bool) -> Vec<f64> {
    // area_pixel_compute_scale in float.
    let scale: f32 = if align {
        if output > 1 {
            (input - 1) as f32 / (output - 1) as f32
        } else {
            0.0
        }
    } else {
        match factor {
            Some(f) => (1.0 / f) as f32,
            None => input as f32 / output as f32,
        }
    };
    let scale = scale as f64;
    let interp_size = if cubic { 4.0 } else { 2.0 };
    let support = if scale >= 1.0 { interp_size * 0.5 * scale } else { interp_size * 0.5 };
    let invscale = if scale >= 1.0 { 1.0 / scale } else { 1.0 };
    let filter = |x: f64| -> f64 {
        let x = x.abs();
        if cubic {
            let a = -0.5;
            if x < 1.0 {
                ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
            } else if x < 2.0 {
                (((x - 5.0) * x + 8.0) * x - 4.0) * a
            } else {
                0.0
            }
        } else if x < 1.0 {
            1.0 - x
        } else {
            0.0
        }
    };
    let mut m = vec![0.0; (input * output) as usize];
    for i in 0..output {
        let center = scale * (i as f64 + 0.5);
        let xmin = ((center - support + 0.5) as i64).max(0);
        let xmax = ((center + support + 0.5) as i64).min(input);
        let ws: Vec<f64> = (xmin..xmax).map(|j| filter((j as f64 - center + 0.5) * invscale)).collect();
        let total: f64 = ws.iter().sum();
        for (k, j) in (xmin..xmax).enumerate() {
            m[(j * output + i) as usize] = if total != 0.0 { ws[k] / total } else { 0.0 };
        }
    }
    m
}
