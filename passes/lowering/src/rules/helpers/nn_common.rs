//! Pieces shared by the neural-network rules (padding, pooling,
//! convolution, losses).

use super::common::shape_slice;
use super::tensor_common::concat;
use crate::onnx_ops::Node;
use crate::{builder, Builder, Ctx, IntArg};
use melior::ir::{Value, ValueLike};

/// `v` repeated to `n` entries when torch gave one value for every spatial dim.
pub fn expand(v: Vec<i64>, n: usize) -> Vec<i64> {
    if v.len() == 1 && n > 1 {
        vec![v[0]; n]
    } else {
        v
    }
}

/// `Slice(x, starts, ends, axes)` with constant bounds.
pub fn slice<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    axes: &[i64],
    starts: &[i64],
    ends: &[i64],
) -> Result<Value<'c, 'a>, String> {
    let s = ctx.b.const_i64s(starts)?;
    let e = ctx.b.const_i64s(ends)?;
    let a = ctx.b.const_i64s(axes)?;
    ctx.b.onnx().slice(x, s, e, Some(a), None).like(x)
}

/// Pads `x` by torch's pad list (`(begin, end)` pairs from the last dim
/// backwards) in `mode` ("constant", "reflect", "replicate", "circular").
/// Negative pads crop first (torch crops, then pads what is left); circular
/// padding is a concat of slices (ONNX Pad "wrap" needs opset 19 and refuses
/// some shapes).
pub fn pad_torch<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    pairs: &[i64],
    mode: &str,
    value: f64,
) -> Result<Value<'c, 'a>, String> {
    let rank = ctx.rank(x)?;
    if pairs.len() % 2 != 0 || pairs.len() / 2 > rank {
        return Err(format!("pad has {} values for a rank-{rank} tensor", pairs.len()));
    }
    let mut begins = vec![0i64; rank];
    let mut ends = vec![0i64; rank];
    for (i, pair) in pairs.chunks(2).enumerate() {
        begins[rank - 1 - i] = pair[0];
        ends[rank - 1 - i] = pair[1];
    }
    if begins.iter().chain(&ends).all(|&p| p == 0) {
        return Ok(x);
    }
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    if mode == "constant" {
        // ONNX Pad crops with negative pads in constant mode.
        let pads = ctx.b.const_i64s(&[begins, ends].concat())?;
        let v = ctx.b.const_scalar(element, value)?;
        return ctx.b.onnx().pad(x, pads, Some(v), None, Some("constant")).like(x);
    }
    // Negative pads crop: circular crops first and wraps what is left;
    // reflect and replicate pad the whole input, then crop (torch's kernels
    // index the original input).
    let crop: Vec<usize> = (0..rank).filter(|&d| begins[d] < 0 || ends[d] < 0).collect();
    let cropped = |y: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        if crop.is_empty() {
            return Ok(y);
        }
        let axes: Vec<i64> = crop.iter().map(|&d| d as i64).collect();
        let starts: Vec<i64> = crop.iter().map(|&d| (-begins[d]).max(0)).collect();
        let stops: Vec<i64> = crop.iter().map(|&d| if ends[d] < 0 { ends[d] } else { i64::MAX }).collect();
        slice(ctx, y, &axes, &starts, &stops)
    };
    let pos_begins: Vec<i64> = begins.iter().map(|&p| p.max(0)).collect();
    let pos_ends: Vec<i64> = ends.iter().map(|&p| p.max(0)).collect();
    let any_pad = pos_begins.iter().chain(&pos_ends).any(|&p| p > 0);
    match mode {
        "reflect" | "replicate" => {
            let mut y = x;
            if any_pad {
                let pads = ctx.b.const_i64s(&[pos_begins, pos_ends].concat())?;
                let onnx = if mode == "reflect" { "reflect" } else { "edge" };
                y = ctx.b.onnx().pad(y, pads, None, None, Some(onnx)).like(x)?;
            }
            cropped(y)
        }
        "circular" => {
            let mut y = cropped(x)?;
            for d in 0..rank {
                let (b, e) = (pos_begins[d], pos_ends[d]);
                if b == 0 && e == 0 {
                    continue;
                }
                let mut parts = Vec::new();
                if b > 0 {
                    parts.push(slice(ctx, y, &[d as i64], &[-b], &[i64::MAX])?);
                }
                parts.push(y);
                if e > 0 {
                    parts.push(slice(ctx, y, &[d as i64], &[0], &[e])?);
                }
                y = ctx.b.onnx().concat(&parts, d as i64).like(x)?;
            }
            Ok(y)
        }
        other => Err(format!("pad mode '{other}' is not supported")),
    }
}

/// Runs `f` on `x` with a batch dim of 1 added when `x` is unbatched (rank
/// `batched_rank - 1`), and removes it from the results (ONNX Conv / Pool
/// need the batch dim).
pub fn with_batch<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    batched_rank: usize,
    f: impl FnOnce(Value<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let rank = ctx.rank(x)?;
    if rank == batched_rank {
        return f(x);
    }
    if rank + 1 != batched_rank {
        return Err(format!(
            "expected a rank-{batched_rank} (or unbatched rank-{}) input, got rank {rank}",
            batched_rank - 1
        ));
    }
    // Keep the static shape: rules read the batched input's dims.
    let ty = x.r#type();
    let batched_type = match builder::dims(ty) {
        Some(d) => {
            let mut shape: Vec<u64> = vec![1];
            shape.extend(d.iter().map(|d| d.map(|v| v as u64).unwrap_or(i64::MIN as u64)));
            let element = builder::element_type(ty).ok_or("not a tensor")?;
            melior::ir::r#type::RankedTensorType::new(&shape, element, None).into()
        }
        None => unranked_like(ctx, x)?,
    };
    let axes = ctx.b.const_i64s(&[0])?;
    let xb = ctx.b.onnx().unsqueeze(x, axes).typed(batched_type)?;
    let results = f(xb)?;
    results.into_iter().map(|r| ctx.squeeze(r, &[0])).collect()
}

/// `reflection_padNd` / `replication_padNd` (`self`, `padding`): torch's pad
/// list in `mode`, on batched or unbatched input.
pub fn pad_rule<'c, 'a>(ctx: &Ctx<'c, 'a>, mode: &str, spatial: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let pairs = static_ints(ctx, "padding")?;
    if pairs.len() != 2 * spatial {
        return Err(format!("padding has {} values, expected {}", pairs.len(), 2 * spatial));
    }
    let y = pad_torch(ctx, x, &pairs, mode, 0.0)?;
    Ok(vec![ctx.b.onnx().identity(y).typed(ctx.result_type(0)?)?])
}

/// A `SymInt[]` argument that must be static.
pub fn static_ints(ctx: &Ctx<'_, '_>, name: &str) -> Result<Vec<i64>, String> {
    ctx.args
        .sym_ints(name)?
        .into_iter()
        .map(|p| match p {
            crate::IntArg::Static(v) => Ok(v),
            crate::IntArg::Dynamic(_) => Err(format!("a dynamic '{name}' is not supported")),
        })
        .collect()
}

/// Pooling windows: kernel, stride (default: the kernel), padding,
/// dilation, one entry per spatial dim.
pub struct Window {
    pub kernel: Vec<i64>,
    pub stride: Vec<i64>,
    pub padding: Vec<i64>,
    pub dilation: Vec<i64>,
    pub ceil_mode: bool,
}

impl Window {
    /// Reads `kernel_size`, `stride`, `padding`, `dilation` (if the op has
    /// it) and `ceil_mode`.
    pub fn read(ctx: &Ctx<'_, '_>, spatial: usize) -> Result<Window, String> {
        let kernel = expand(ctx.args.ints("kernel_size")?, spatial);
        let stride = expand(ctx.args.ints("stride")?, spatial);
        let stride = if stride.is_empty() { kernel.clone() } else { stride };
        let padding = expand(ctx.args.ints("padding")?, spatial);
        let dilation = if ctx.args.schema.arg("dilation").is_some() {
            expand(ctx.args.ints("dilation")?, spatial)
        } else {
            vec![1; spatial]
        };
        let ceil_mode = ctx.args.bool("ceil_mode")?;
        for v in [&kernel, &stride, &padding, &dilation] {
            if v.len() != spatial {
                return Err(format!("pooling parameters for {} dims, expected {spatial}", v.len()));
            }
        }
        if kernel.iter().chain(&stride).chain(&dilation).any(|&v| v <= 0) {
            return Err("pooling kernel, stride and dilation must be positive".into());
        }
        Ok(Window { kernel, stride, padding, dilation, ceil_mode })
    }

    /// The ONNX attributes (symmetric pads).
    pub fn attrs(&self, with_dilation: bool) -> PoolAttrs {
        PoolAttrs {
            kernel_shape: self.kernel.clone(),
            strides: Some(self.stride.clone()),
            pads: Some(self.padding.iter().chain(self.padding.iter()).copied().collect()),
            ceil_mode: Some(self.ceil_mode as i64),
            dilations: with_dilation.then(|| self.dilation.clone()),
        }
    }

    /// torch's output size of spatial dim `i` for input size `input`.
    pub fn output_size(&self, i: usize, input: i64) -> i64 {
        let (k, s, p, d) = (self.kernel[i], self.stride[i], self.padding[i], self.dilation[i]);
        let num = input + 2 * p - d * (k - 1) - 1 + if self.ceil_mode { s - 1 } else { 0 };
        let mut out = num.div_euclid(s) + 1;
        if self.ceil_mode && (out - 1) * s >= input + p {
            out -= 1;
        }
        out
    }
}

/// The attributes of an ONNX MaxPool / AveragePool (`None`: left out).
pub struct PoolAttrs {
    pub kernel_shape: Vec<i64>,
    pub strides: Option<Vec<i64>>,
    pub pads: Option<Vec<i64>>,
    pub ceil_mode: Option<i64>,
    pub dilations: Option<Vec<i64>>,
}

impl PoolAttrs {
    /// A kernel with strides of its own size, no other attribute.
    pub fn tiling(kernel: Vec<i64>) -> Self {
        PoolAttrs { strides: Some(kernel.clone()), kernel_shape: kernel, pads: None, ceil_mode: None, dilations: None }
    }

    /// `MaxPool(x)`.
    pub fn max_pool<'b, 'c, 'a, 'v>(&self, b: &'b Builder<'c, 'a>, x: Value<'c, 'v>) -> Node<'b, 'c, 'a, 'v> {
        let (dilations, pads, strides) = (self.dilations.as_deref(), self.pads.as_deref(), self.strides.as_deref());
        b.onnx().max_pool(x, None, self.ceil_mode, dilations, &self.kernel_shape, pads, None, strides)
    }

    /// `AveragePool(x)`.
    pub fn average_pool<'b, 'c, 'a, 'v>(
        &self,
        b: &'b Builder<'c, 'a>,
        x: Value<'c, 'v>,
        count_include_pad: Option<i64>,
    ) -> Node<'b, 'c, 'a, 'v> {
        let (dilations, pads, strides) = (self.dilations.as_deref(), self.pads.as_deref(), self.strides.as_deref());
        b.onnx().average_pool(x, None, self.ceil_mode, count_include_pad, dilations, &self.kernel_shape, pads, strides)
    }
}

/// The unranked type of `x`'s element type.
pub fn unranked_like<'c>(ctx: &Ctx<'c, '_>, x: Value<'c, '_>) -> Result<melior::ir::Type<'c>, String> {
    Ok(ctx.b.unranked(builder::element_type(x.r#type()).ok_or("not a tensor")?))
}

/// `avg_poolNd`: ONNX AveragePool (same output sizes and divisors as torch,
/// ceil_mode included); `divisor_override` rescales a count_include_pad
/// average (a window sum over k elements, zeros for padding). When a
/// ceil_mode window overhangs the padded input, the input is zero-padded
/// explicitly so that the last window ends exactly at the padded end (a
/// negative pad crops what no window reads) and pooled without pads.
pub fn avg_pool<'c, 'a>(ctx: &Ctx<'c, 'a>, spatial: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    // ONNX AveragePool is floating-point only, and torch's integer average
    // (a sum in the integer type, then a truncating division) has no
    // float expression that stays exact for 64-bit sums.
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    if !builder::is_float(element) {
        return Err(format!(
            "average pooling of a {element} tensor: torch sums and divides in the integer type; \
             convert the input to a floating-point type"
        ));
    }
    let w = Window::read(ctx, spatial)?;
    let mut count_include_pad = ctx.args.bool("count_include_pad")?;
    let divisor =
        if ctx.args.schema.arg("divisor_override").is_some() { ctx.args.opt_int("divisor_override")? } else { None };
    // (left, right) zero pads of each spatial dim, for an overhanging window.
    let mut explicit_pads: Option<Vec<(i64, PadEnd)>> = None;
    if let Some(div) = divisor {
        if div == 0 {
            return Err("divisor_override of 0".into());
        }
        if w.ceil_mode {
            let dims = builder::dims(ctx.result_type(0)?).ok_or("unknown rank")?;
            let in_dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
            let rank = dims.len();
            if in_dims.len() != rank {
                return Err("avg_pool: the input and result ranks differ".into());
            }
            let mut pads = Vec::new();
            let mut overhang = false;
            for i in 0..spatial {
                let Some(input) = in_dims[rank - spatial + i] else {
                    // A dynamic size: the right pad computed in the graph
                    // (padding explicitly is exact whether or not the last
                    // window overhangs).
                    let axis = (rank - spatial + i) as i64;
                    pads.push((w.padding[i], PadEnd::Dynamic(ceil_mode_right_pad(ctx, x, axis, &w, i)?)));
                    overhang = true;
                    continue;
                };
                let out = w.output_size(i, input);
                if dims[rank - spatial + i].is_some_and(|d| d != out) {
                    return Err("avg_pool: the output size differs from torch's".into());
                }
                let end = (out - 1) * w.stride[i] + w.kernel[i];
                if end > input + 2 * w.padding[i] {
                    overhang = true;
                }
                pads.push((w.padding[i], PadEnd::Static(end - input - w.padding[i])));
            }
            if overhang {
                explicit_pads = Some(pads);
            }
        }
        count_include_pad = true;
    }
    with_batch(ctx, x, spatial + 2, |xb| {
        let mut y = match &explicit_pads {
            None => w.attrs(false).average_pool(&ctx.b, xb, Some(count_include_pad as i64)).like(xb)?,
            Some(pads) => {
                let b = &ctx.b;
                let mut left = vec![0, 0];
                left.extend(pads.iter().map(|p| p.0));
                left.extend([0, 0]);
                let mut parts = vec![b.const_i64s(&left)?];
                for (_, right) in pads {
                    parts.push(match right {
                        PadEnd::Static(v) => b.const_i64s(&[*v])?,
                        PadEnd::Dynamic(v) => *v,
                    });
                }
                let pads = super::tensor_common::concat(ctx, &parts)?;
                let zero = ctx.b.const_like(xb, 0.0)?;
                let padded = ctx.b.onnx().pad(xb, pads, Some(zero), None, Some("constant")).like(xb)?;
                let (kernel, strides) = (&w.kernel, Some(&w.stride[..]));
                ctx.b.onnx().average_pool(padded, None, None, Some(1), None, kernel, None, strides).like(xb)?
            }
        };
        if let Some(div) = divisor {
            let k: i64 = w.kernel.iter().product();
            let f = ctx.b.const_like(xb, k as f64 / div as f64)?;
            y = ctx.b.onnx().mul(y, f).like(xb)?;
        }
        Ok(vec![y])
    })
}

/// The right pad of an explicitly padded ceil_mode window (avg_pool).
enum PadEnd<'c, 'a> {
    Static(i64),
    /// A 1-D, one-element int64 computed from a dynamic size.
    Dynamic(Value<'c, 'a>),
}

/// torch's ceil_mode output size of spatial dim `i` (`Window::output_size`)
/// for the run-time size of `x`'s `axis`, and the right pad that makes the
/// last window end at `(out - 1) * stride + kernel` (negative: a crop).
fn ceil_mode_right_pad<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    axis: i64,
    w: &Window,
    i: usize,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let ints = b.unranked(b.i64_type());
    let (k, s, p, d) = (w.kernel[i], w.stride[i], w.padding[i], w.dilation[i]);
    let k_of = |v: i64| b.const_i64s(&[v]);
    let input = super::common::dim_size(ctx, x, axis)?;
    // num = input + 2p - d(k - 1) - 1 + (s - 1) >= 0 for any valid input,
    // where Div's truncation is the floor.
    let num = b.onnx().add(input, k_of(2 * p - d * (k - 1) - 1 + s - 1)?).typed(ints)?;
    let out = b.onnx().add(b.onnx().div(num, k_of(s)?).typed(ints)?, k_of(1)?).typed(ints)?;
    // The last window must start inside the input or the left padding.
    let last_start = b.onnx().mul(b.onnx().sub(out, k_of(1)?).typed(ints)?, k_of(s)?).typed(ints)?;
    let bool_t = b.unranked(melior::ir::r#type::IntegerType::new(b.context, 1).into());
    let past = b.onnx().greater_or_equal(last_start, b.onnx().add(input, k_of(p)?).typed(ints)?).typed(bool_t)?;
    let out = b.onnx().where_(past, b.onnx().sub(out, k_of(1)?).typed(ints)?, out).typed(ints)?;
    let end = b
        .onnx()
        .add(b.onnx().mul(b.onnx().sub(out, k_of(1)?).typed(ints)?, k_of(s)?).typed(ints)?, k_of(k)?)
        .typed(ints)?;
    b.onnx().sub(end, b.onnx().add(input, k_of(p)?).typed(ints)?).typed(ints)
}

/// `max_poolNd` / `max_poolNd_with_indices`: ONNX MaxPool. Its indices count
/// over the whole N*C*spatial tensor; torch's within each (n, c) plane, so
/// they are taken modulo the plane size.
pub fn max_pool<'c, 'a>(ctx: &Ctx<'c, 'a>, spatial: usize, with_indices: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let w = Window::read(ctx, spatial)?;
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    if !builder::is_float(element) {
        // Integers up to 32 bits: max-pooled in float64, which holds them
        // exactly (onnxruntime's MaxPool has no 16/32-bit integer kernels);
        // 64-bit values past 2^53 would round.
        if !matches!(crate::onnx_ir::data_type_code(element), Some(2 | 3 | 4 | 5 | 6 | 12)) {
            return Err(format!(
                "max pooling of a {element} tensor (integers up to 32 bits are pooled exactly in float64; \
                 64-bit integers and bool are not supported)"
            ));
        }
        let b = &ctx.b;
        let f64_type = melior::ir::Type::float64(b.context);
        return with_batch(ctx, x, spatial + 2, |xb| {
            let xf = b.cast(xb, f64_type)?;
            let attrs = w.attrs(true);
            let mut out = if with_indices {
                let r = attrs.max_pool(b, xf).results(&[b.unranked(f64_type), b.unranked(b.i64_type())])?;
                let plane = plane_size(ctx, xf, spatial)?;
                vec![r[0], b.onnx().mod_(r[1], plane, None).typed(b.unranked(b.i64_type()))?]
            } else {
                vec![attrs.max_pool(b, xf).typed(b.unranked(f64_type))?]
            };
            out[0] = b.cast(out[0], element)?;
            Ok(out)
        });
    }
    with_batch(ctx, x, spatial + 2, |xb| nan_max_pool(ctx, xb, spatial, &w.attrs(true), with_indices))
}

/// ONNX MaxPool with torch's NaN semantics: a window holding a NaN gives
/// NaN (MaxPool skips it), and its index is the window's last NaN in scan
/// order (torch's `val > max || isnan(val)` keeps replacing). Indices, when
/// asked for, are per (n, c) plane like torch's.
pub fn nan_max_pool<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    xb: Value<'c, 'a>,
    spatial: usize,
    attrs: &PoolAttrs,
    with_indices: bool,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let i64_type = b.i64_type();
    let bool_t = b.unranked(melior::ir::r#type::IntegerType::new(b.context, 1).into());
    let (values, indices) = if with_indices {
        let r = attrs.max_pool(b, xb).results(&[unranked_like(ctx, xb)?, b.unranked(i64_type)])?;
        let plane = plane_size(ctx, xb, spatial)?;
        (r[0], Some(b.onnx().mod_(r[1], plane, None).typed(b.unranked(i64_type))?))
    } else {
        (attrs.max_pool(b, xb).like(xb)?, None)
    };
    if super::quant_common::provably_nan_free(xb) {
        return Ok(vec![values].into_iter().chain(indices).collect());
    }
    let nan = b.onnx().is_na_n(xb).typed(bool_t)?;
    let nan_f = b.cast_like(nan, xb)?;
    let has_nan = attrs.max_pool(b, nan_f).like(xb)?;
    let has_nan = b.onnx().greater(has_nan, b.const_like(xb, 0.0)?).typed(bool_t)?;
    let values = b.onnx().where_(has_nan, b.const_like(xb, f64::NAN)?, values).like(xb)?;
    let Some(indices) = indices else {
        return Ok(vec![values]);
    };
    // Position + 1 of each NaN in its plane (0 elsewhere): the window max is the last NaN.
    let plane = plane_size(ctx, xb, spatial)?;
    let one = b.const_i64_scalar(1)?;
    let pos = b
        .onnx()
        .range(one, b.onnx().add(plane, one).typed(b.unranked(i64_type))?, one, None)
        .typed(b.unranked(i64_type))?;
    let plane_shape = b.onnx().shape(xb, None, Some(2)).typed(b.unranked(i64_type))?;
    let pos = b.onnx().reshape(pos, plane_shape, None).typed(b.unranked(i64_type))?;
    let pos_f = b.cast_like(pos, xb)?;
    let nan_pos = b.onnx().where_(nan, pos_f, b.const_like(xb, 0.0)?).like(xb)?;
    let last = attrs.max_pool(b, nan_pos).like(xb)?;
    let last = b.onnx().sub(b.cast(last, i64_type)?, one).typed(b.unranked(i64_type))?;
    let indices = b.onnx().where_(has_nan, last, indices).typed(b.unranked(i64_type))?;
    Ok(vec![values, indices])
}

/// The number of elements of the last `spatial` dims of `x`, as a 0-d int64.
pub fn plane_size<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>, spatial: usize) -> Result<Value<'c, 'a>, String> {
    let dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
    let rank = dims.len();
    let tail: Option<Vec<i64>> = dims[rank - spatial..].iter().copied().collect();
    if let Some(tail) = tail {
        return ctx.b.const_i64_scalar(tail.iter().product());
    }
    let shape = ctx.b.onnx().shape(x, None, Some((rank - spatial) as i64)).typed(ctx.b.unranked(ctx.b.i64_type()))?;
    ctx.reduce(crate::Reduction::Prod, shape, None, false, ctx.b.unranked(ctx.b.i64_type()))
}

/// The `p`-norm of `d` over `axis` (torch's vector norm: p = 0 counts
/// non-zeros, p = inf is the max |d|, p = -inf the min |d|).
pub fn p_norm<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    d: Value<'c, 'a>,
    axis: i64,
    keepdim: bool,
    p: f64,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let ty = unranked_like(ctx, d)?;
    let abs = b.onnx().abs(d).like(d)?;
    if p == f64::INFINITY {
        return ctx.reduce(crate::Reduction::Max, abs, Some(&[axis]), keepdim, ty);
    }
    if p == f64::NEG_INFINITY {
        return ctx.reduce(crate::Reduction::Min, abs, Some(&[axis]), keepdim, ty);
    }
    if p == 0.0 {
        let nz = b
            .onnx()
            .not(
                b.onnx()
                    .equal(d, b.const_like(d, 0.0)?)
                    .typed(ctx.b.unranked(melior::ir::r#type::IntegerType::new(b.context, 1).into()))?,
            )
            .typed(ctx.b.unranked(melior::ir::r#type::IntegerType::new(b.context, 1).into()))?;
        let nz = b.cast_like(nz, d)?;
        return ctx.reduce(crate::Reduction::Sum, nz, Some(&[axis]), keepdim, ty);
    }
    if p == 1.0 {
        return ctx.reduce(crate::Reduction::Sum, abs, Some(&[axis]), keepdim, ty);
    }
    if p == 2.0 {
        let sq = b.onnx().mul(d, d).like(d)?;
        let s = ctx.reduce(crate::Reduction::Sum, sq, Some(&[axis]), keepdim, ty)?;
        return b.onnx().sqrt(s).like(d);
    }
    let pw = b.onnx().pow(abs, b.const_like(d, p)?).like(d)?;
    let s = ctx.reduce(crate::Reduction::Sum, pw, Some(&[axis]), keepdim, ty)?;
    b.onnx().pow(s, b.const_like(d, 1.0 / p)?).like(d)
}

/// torch's loss `reduction` (0 none, 1 mean, 2 sum) of the elementwise loss `l`.
pub fn reduce_loss<'c, 'a>(ctx: &Ctx<'c, 'a>, l: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let reduction = ctx.args.int("reduction")?;
    match reduction {
        0 => ctx.b.onnx().identity(l).typed(ctx.result_type(0)?),
        1 => ctx.reduce(crate::Reduction::Mean, l, None, false, ctx.result_type(0)?),
        2 => ctx.reduce(crate::Reduction::Sum, l, None, false, ctx.result_type(0)?),
        r => Err(format!("loss reduction {r}")),
    }
}

/// `[N, C, *] -> [N, g, C/g, *] -> swap -> [N, C, *]` (C static or read
/// from the shape).
pub(super) fn channel_shuffle<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let g = c.args.int("groups")?;
    let dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
    if dims.len() < 3 {
        return Err("channel_shuffle needs more than 2 dims, like torch".into());
    }
    if g <= 0 {
        return Err(format!("channel_shuffle into {g} groups"));
    }
    let b = &c.b;
    let s = match dims[1] {
        Some(ch) if ch % g != 0 => return Err(format!("channel_shuffle of {ch} channels into {g} groups")),
        Some(ch) => b.const_i64s(&[0, g, ch / g, -1])?,
        // A dynamic channel count: [N, g, C / g, H*W*...] spelled out from
        // the shape (allowzero: any of them may be 0; a C that g does not
        // divide fails in the Reshape, as torch refuses it).
        None => {
            let ints = b.unranked(b.i64_type());
            let n = shape_slice(c, x, 0, Some(1))?;
            let per_group = b.onnx().div(shape_slice(c, x, 1, Some(2))?, b.const_i64s(&[g])?).typed(ints)?;
            let rest = b.onnx().reduce_prod(shape_slice(c, x, 2, None)?, None, None, Some(1), None).typed(ints)?;
            concat(c, &[n, b.const_i64s(&[g])?, per_group, rest])?
        }
    };
    let allowzero = Some(i64::from(dims[1].is_none()));
    let y = c.b.onnx().reshape(x, s, allowzero).like(x)?;
    let y = c.b.onnx().transpose(y, Some(&[0, 2, 1, 3])).like(x)?;
    Ok(vec![c.b.onnx().reshape(y, c.b.shape(x)?, Some(1)).typed(c.result_type(0)?)?])
}

/// `[N, G, C/G * spatial]` for `x` `[N, C, *spatial]`: N from `n` (else
/// copied, Reshape's 0) and the group size spelled out, never -1 (with N = 0,
/// `-1` has no value and onnx.checker rejects the model).
pub fn grouped_shape<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    n: Option<Value<'c, 'a>>,
    groups: i64,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let i64t = b.unranked(b.i64_type());
    let n = match n {
        Some(n) => n,
        None => b.const_i64s(&[0])?,
    };
    let dims = builder::dims(x.r#type()).ok_or("group norm of a tensor of unknown rank")?;
    let inner = match dims[1..].iter().copied().collect::<Option<Vec<i64>>>() {
        Some(rest) if groups > 0 => b.const_i64s(&[rest.iter().product::<i64>() / groups])?,
        _ => {
            let rest = b.onnx().shape(x, None, Some(1)).typed(i64t)?;
            let prod = b.onnx().reduce_prod(rest, None, None, Some(1), None).typed(i64t)?;
            b.onnx().div(prod, b.const_i64s(&[groups.max(1)])?).typed(i64t)?
        }
    };
    b.onnx().concat(&[n, b.const_i64s(&[groups])?, inner], 0).typed(i64t)
}

/// torch lists (begin, end) pairs from the last dim backwards; ONNX `Pad`
/// wants all begins then all ends, first dim first. Negative pads crop.
pub(super) fn pad<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let sym = ctx.args.sym_ints("pad")?;
    if sym.len() % 2 != 0 || sym.len() / 2 > rank {
        return Err(format!("pad has {} values for a rank-{rank} tensor", sym.len()));
    }
    // `pad.default` names the mode and may leave the value out (0).
    let mode = if ctx.args.schema.arg("mode").is_some() { ctx.args.string("mode")? } else { "constant".to_string() };
    let value = if ctx.args.is_none("value")? { 0.0 } else { ctx.args.number("value")?.as_f64() };
    let statics: Option<Vec<i64>> =
        sym.iter().map(|p| if let IntArg::Static(v) = p { Some(*v) } else { None }).collect();
    let y = match statics {
        Some(pairs) => pad_torch(ctx, x, &pairs, &mode, value)?,
        None => dynamic_constant_pad(ctx, x, &sym, &mode, value)?,
    };
    Ok(vec![ctx.b.onnx().identity(y).typed(ctx.result_type(0)?)?])
}

/// Pad amounts computed in the graph (e.g. `(window - W % window) % window`
/// with a dynamic W): constant mode only, where ONNX `Pad` crops with
/// negative amounts exactly as torch does, so the signs need not be known.
/// The other modes crop and pad in separate steps chosen by sign: refused.
fn dynamic_constant_pad<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    sym: &[IntArg<'c, 'a>],
    mode: &str,
    value: f64,
) -> Result<Value<'c, 'a>, String> {
    if mode != "constant" {
        return Err(format!("a dynamic pad amount is not supported in mode '{mode}' (only 'constant')"));
    }
    let rank = ctx.rank(x)?;
    let mut begins = vec![IntArg::Static(0); rank];
    let mut ends = vec![IntArg::Static(0); rank];
    for (i, pair) in sym.chunks(2).enumerate() {
        begins[rank - 1 - i] = pair[0];
        ends[rank - 1 - i] = pair[1];
    }
    let pads = ctx.int_list_tensor(&[begins, ends].concat())?;
    let element = crate::builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let v = ctx.b.const_scalar(element, value)?;
    ctx.b.onnx().pad(x, pads, Some(v), None, Some("constant")).like(x)
}

/// kernel_size, dilation and stride: two positive values each.
pub(super) fn check_window(kernel: &[i64], dilation: &[i64], stride: &[i64]) -> Result<(), String> {
    if [kernel, dilation, stride].iter().any(|v| v.len() != 2 || v.iter().any(|&x| x <= 0)) {
        return Err("im2col/col2im: kernel_size, dilation and stride need two positive values".into());
    }
    Ok(())
}

/// For each kernel offset (ki, kj) and output position (oi, oj): the flat
/// index `(oi*s + ki*d) * Wp + oj*s + kj*d` into the zero-padded [Hp, Wp]
/// plane, row-major over (offset, position).
pub(super) fn patch_indices(
    hp: i64,
    wp: i64,
    kernel: &[i64],
    dilation: &[i64],
    stride: &[i64],
) -> Result<(Vec<i64>, i64, i64), String> {
    check_window(kernel, dilation, stride)?;
    let oh = (hp - dilation[0] * (kernel[0] - 1) - 1) / stride[0] + 1;
    let ow = (wp - dilation[1] * (kernel[1] - 1) - 1) / stride[1] + 1;
    if oh <= 0 || ow <= 0 {
        return Err("im2col/col2im with a kernel larger than the padded input".into());
    }
    let mut idx = Vec::new();
    for ki in 0..kernel[0] {
        for kj in 0..kernel[1] {
            for oi in 0..oh {
                for oj in 0..ow {
                    idx.push((oi * stride[0] + ki * dilation[0]) * wp + oj * stride[1] + kj * dilation[1]);
                }
            }
        }
    }
    Ok((idx, oh, ow))
}

/// `x` as `[rows, C]` rows of class scores (a 0-d or 1-d input is one row),
/// with the class count C as a 0-d int64 and in `x`'s type: constants when
/// C is static, read from the shape otherwise.
pub(super) fn class_rows<'c, 'a>(
    c: &Ctx<'c, 'a>,
    x0: Value<'c, 'a>,
    rank: usize,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>), String> {
    let b = &c.b;
    let dims = builder::dims(x0.r#type()).ok_or("unknown rank")?;
    let classes = if rank == 0 { Some(1) } else { dims[rank - 1] };
    if let Some(classes) = classes {
        let x = b.onnx().reshape(x0, b.const_i64s(&[-1, classes])?, None).like(x0)?;
        return Ok((x, b.const_i64_scalar(classes)?, b.const_like(x0, classes as f64)?));
    }
    // A dynamic C (rank 1 or 2): one row of a 1-d input.
    let x = if rank == 2 { x0 } else { c.unsqueeze(x0, &[0])? };
    let n = c.squeeze(super::common::dim_size(c, x0, rank as i64 - 1)?, &[0])?;
    let element = builder::element_type(x0.r#type()).ok_or("not a tensor")?;
    Ok((x, n, b.cast(n, element)?))
}
