//! Max pooling shared by the 1-d, 2-d and 3-d rules: adaptive, fractional and unpooling. Not a rule file.

use super::nn_common::{nan_max_pool, static_ints, unranked_like, with_batch, PoolAttrs};
use crate::{builder, Ctx};
use melior::ir::{r#type::IntegerType, Type, Value, ValueLike};

/// Values and torch's per-plane indices. Output sizes dividing the static
/// input: MaxPool (its indices modulo the plane size); otherwise one
/// ReduceMax / ArgMax per output cell over torch's bins (the first maximum
/// in row-major order, like torch), its window index mapped to the plane;
/// bins of a dynamic spatial size are computed from its run-time size.
pub(super) fn adaptive_max_pool<'c, 'a>(c: &Ctx<'c, 'a>, spatial: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let out = c.args.ints("output_size")?;
    if out.len() != spatial || out.iter().any(|&o| o <= 0) {
        return Err(format!("output_size {out:?} for {spatial} spatial dims"));
    }
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    if !builder::is_float(element) {
        return Err("adaptive max pooling of a non-float tensor".into());
    }
    let i64_type = c.b.i64_type();
    with_batch(c, x, spatial + 2, |xb| {
        let dims = builder::dims(xb.r#type()).ok_or("unknown rank")?;
        let inputs: Vec<Option<i64>> = dims[2..].to_vec();
        if inputs.iter().zip(&out).all(|(i, o)| i.is_some_and(|i| i % o == 0)) {
            let kernel: Vec<i64> = inputs.iter().zip(&out).map(|(i, o)| i.unwrap_or(0) / o).collect();
            return nan_max_pool(c, xb, spatial, &PoolAttrs::tiling(kernel), true);
        }
        // A spatial size known only at run time (an image size exported as
        // dynamic) gets its bins, window sizes and plane strides computed in
        // the graph from Shape; static ones stay constants.
        let b = &c.b;
        let shape = if inputs.iter().any(Option::is_none) { Some(b.shape(xb)?) } else { None };
        let sizes: Vec<I> = inputs
            .iter()
            .enumerate()
            .map(|(a, d)| match d {
                Some(d) => Ok(I::S(*d)),
                None => {
                    let axis = 2 + a as i64;
                    let (from, to) = (b.const_i64s(&[axis])?, b.const_i64s(&[axis + 1])?);
                    Ok(I::D(b.onnx().slice(shape.unwrap(), from, to, None, None).typed(b.unranked(i64_type))?))
                }
            })
            .collect::<Result<_, String>>()?;
        let cells: i64 = out.iter().product();
        let flat_shape = c.b.const_i64s(&[0, 0, -1])?;
        let axes: Vec<i64> = (2..2 + spatial as i64).collect();
        let (mut values, mut indices) = (Vec::new(), Vec::new());
        for cell in 0..cells {
            // Row-major cell coordinates.
            let mut rest = cell;
            let mut coord = vec![0i64; spatial];
            for a in (0..spatial).rev() {
                coord[a] = rest % out[a];
                rest /= out[a];
            }
            // torch's bin of cell j on an axis of size n: [floor(j n / o), ceil((j + 1) n / o)).
            let windows: Vec<(I, I)> = (0..spatial)
                .map(|a| {
                    let (j, o, n) = (coord[a], out[a], &sizes[a]);
                    let start = n.mul(c, j)?.div(c, o)?;
                    let end = n.mul(c, j + 1)?.add(c, o - 1)?.div(c, o)?;
                    Ok((start, end))
                })
                .collect::<Result<_, String>>()?;
            let starts = I::concat(c, &windows.iter().map(|w| w.0.clone()).collect::<Vec<_>>())?;
            let ends = I::concat(c, &windows.iter().map(|w| w.1.clone()).collect::<Vec<_>>())?;
            let ax = c.b.const_i64s(&axes)?;
            let win = c.b.onnx().slice(xb, starts, ends, Some(ax), None).like(xb)?;
            let flat = c.b.onnx().reshape(win, flat_shape, None).like(xb)?;
            // torch: a NaN wins (the window's last NaN); ReduceMax / ArgMax skip NaN.
            let bool_t = c.b.unranked(melior::ir::r#type::IntegerType::new(c.b.context, 1).into());
            let nan_f = c.b.cast_like(c.b.onnx().is_na_n(flat).typed(bool_t)?, xb)?;
            let nan_count = c.reduce(crate::Reduction::Max, nan_f, Some(&[-1]), true, unranked_like(c, xb)?)?;
            let has_nan = c.b.onnx().greater(nan_count, c.b.const_like(xb, 0.0)?).typed(bool_t)?;
            let max = c.reduce(crate::Reduction::Max, flat, Some(&[-1]), true, unranked_like(c, xb)?)?;
            values.push(c.b.onnx().where_(has_nan, c.b.const_like(xb, f64::NAN)?, max).like(xb)?);
            let arg = c.b.onnx().arg_max(flat, Some(-1), Some(1), None).typed(c.b.unranked(i64_type))?;
            let last_nan = c.b.onnx().arg_max(nan_f, Some(-1), Some(1), Some(1)).typed(c.b.unranked(i64_type))?;
            let local = c.b.onnx().where_(has_nan, last_nan, arg).typed(c.b.unranked(i64_type))?;
            // Window-local flat index -> plane index.
            let mut global: Option<Value> = None;
            let mut divisor = I::S(1);
            let mut stride = I::S(1);
            for a in (0..spatial).rev() {
                let size = windows[a].1.sub(c, &windows[a].0)?;
                let mut part = local;
                if !matches!(divisor, I::S(1)) {
                    part = c.b.onnx().div(part, divisor.value(c)?).typed(c.b.unranked(i64_type))?;
                }
                if a > 0 {
                    part = c.b.onnx().mod_(part, size.value(c)?, None).typed(c.b.unranked(i64_type))?;
                }
                if !matches!(windows[a].0, I::S(0)) {
                    part = c.b.onnx().add(part, windows[a].0.value(c)?).typed(c.b.unranked(i64_type))?;
                }
                if !matches!(stride, I::S(1)) {
                    part = c.b.onnx().mul(part, stride.value(c)?).typed(c.b.unranked(i64_type))?;
                }
                global = Some(match global {
                    None => part,
                    Some(g) => c.b.onnx().add(g, part).typed(c.b.unranked(i64_type))?,
                });
                divisor = divisor.mul_i(c, &size)?;
                stride = stride.mul_i(c, &sizes[a])?;
            }
            indices.push(global.unwrap());
        }
        let mut shape = vec![0i64, 0];
        shape.extend(&out);
        let shape = c.b.const_i64s(&shape)?;
        let v = c.b.onnx().concat(&values, -1).like(xb)?;
        let v = c.b.onnx().reshape(v, shape, None).like(xb)?;
        let i = c.b.onnx().concat(&indices, -1).typed(c.b.unranked(i64_type))?;
        let i = c.b.onnx().reshape(i, shape, None).typed(c.b.unranked(i64_type))?;
        Ok(vec![v, i])
    })
}

/// Shared by fractional_max_pool2d / 3d (`d` spatial dims).
pub fn fractional_max_pool<'c, 'a>(ctx: &Ctx<'c, 'a>, d: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let name = format!("fractional_max_pool{d}d");
    let x = ctx.args.tensor("self")?;
    let samples = ctx.args.tensor("random_samples")?;
    let kernel = ctx.args.ints("kernel_size")?;
    let out = ctx.args.ints("output_size")?;
    let dims = builder::dims(x.r#type()).ok_or_else(|| format!("{name}: input of unknown rank"))?;
    let rank = dims.len();
    if rank != d + 1 && rank != d + 2 {
        return Err(format!("{name}: expected a {}-D or {}-D input, got rank {rank}", d + 1, d + 2));
    }
    if kernel.len() != d || out.len() != d {
        return Err(format!("{name}: kernel_size and output_size need {d} values"));
    }
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    if !builder::is_float(element) {
        return Err(format!("{name}: floating inputs only (got {element})"));
    }
    if builder::element_type(samples.r#type()) != Some(element) {
        return Err(format!("{name}: Expect _random_samples to have the same dtype as input"));
    }
    let spatial: Vec<i64> = dims[rank - d..]
        .iter()
        .map(|s| s.ok_or_else(|| format!("{name}: the spatial dims must be static")))
        .collect::<Result<_, _>>()?;
    for i in 0..d {
        let (input, pool, output) = (spatial[i], kernel[i], out[i]);
        if pool < 1 || output < 1 {
            return Err(format!("{name}: kernel_size and output_size must be positive (got {kernel:?}, {out:?})"));
        }
        let fits = if d == 2 { output + pool - 1 <= input } else { output + pool - 1 < input };
        if !fits {
            return Err(format!(
                "{name}: pool size {pool} too large relative to input size {input} for output size {output}"
            ));
        }
    }
    let i64s = b.unranked(b.i64_type());
    let batched = rank == d + 2;
    let x4 = if batched { x } else { ctx.unsqueeze(x, &[0])? };
    // Samples of the batch: random_samples[:N] (torch allows more rows).
    let batch = super::tensor_common::shape_part(ctx, x4, 0, Some(1))?;
    let zero = b.const_i64s(&[0])?;
    let samples = b.onnx().slice(samples, zero, batch, Some(zero), None).typed(b.unranked(element))?;
    let nc = super::tensor_common::shape_part(ctx, x4, 0, Some(2))?;
    // Window positions per spatial dim: [N, C, out, pool] int64.
    let mut positions = Vec::new();
    for i in 0..d {
        let (input, pool, output) = (spatial[i], kernel[i], out[i]);
        // 2d: W uses sample 0, H sample 1; 3d: T, H, W use 0, 1, 2.
        let sample_index = if d == 2 { 1 - i } else { i };
        let idx = b.const_i64_scalar(sample_index as i64)?;
        let u = b.onnx().gather(samples, idx, Some(2)).typed(b.unranked(element))?;
        let u = ctx.unsqueeze(u, &[2])?; // [N, C, 1]
        let last = b.const_i64s(&[input - pool])?;
        let starts = if output > 1 {
            // In the input's dtype, like torch (scalar_t arithmetic).
            let alpha = if crate::onnx_ir::data_type_code(element) == Some(11) {
                (input - pool) as f64 / (output - 1) as f64
            } else {
                ((input - pool) as f32 / (output - 1) as f32) as f64
            };
            let alpha = b.const_scalar(element, alpha)?;
            let steps = float_range(ctx, element, output - 1)?;
            let shifted = b.onnx().add(steps, u).typed(b.unranked(element))?;
            let scaled = b.onnx().mul(shifted, alpha).typed(b.unranked(element))?;
            let first = b.onnx().cast(scaled, None, None, 7).typed(i64s)?;
            let base = b.onnx().mul(u, alpha).typed(b.unranked(element))?;
            let base = b.onnx().cast(base, None, None, 7).typed(i64s)?;
            let rel = b.onnx().sub(first, base).typed(i64s)?;
            let shape = b.onnx().concat(&[nc, b.const_i64s(&[1])?], 0).typed(i64s)?;
            let last = b.onnx().expand(last, shape).typed(i64s)?;
            b.onnx().concat(&[rel, last], -1).typed(i64s)?
        } else {
            let shape = b.onnx().concat(&[nc, b.const_i64s(&[1])?], 0).typed(i64s)?;
            b.onnx().expand(last, shape).typed(i64s)?
        };
        let offsets = b.const_i64s(&(0..pool).collect::<Vec<_>>())?;
        let starts = ctx.unsqueeze(starts, &[3])?; // [N, C, out, 1]
        positions.push(b.onnx().add(starts, offsets).typed(i64s)?); // [N, C, out, pool]
    }
    // Gather the windows dim by dim: after dim i, that dim holds out_i * pool_i entries.
    let mut windows = x4;
    for i in 0..d {
        let axis = 2 + i;
        let flat = b.onnx().reshape(positions[i], b.const_i64s(&[0, 0, out[i] * kernel[i]])?, None).typed(i64s)?; // [N, C, out*pool]
                                                                                                                  // [N, C, L] with size-1 dims for the other spatial axes (L on `axis`),
                                                                                                                  // expanded to the windows' shape with L on `axis`.
        let mut index = flat;
        for j in (0..d).filter(|&j| j != i) {
            index = ctx.unsqueeze(index, &[2 + j as i64])?;
        }
        let wshape = b.shape(windows)?;
        let ishape = b.shape(index)?;
        // target shape: windows' shape with dim `axis` = L.
        let l = b
            .onnx()
            .slice(ishape, b.const_i64s(&[axis as i64])?, b.const_i64s(&[axis as i64 + 1])?, None, None)
            .typed(i64s)?;
        let head =
            b.onnx().slice(wshape, b.const_i64s(&[0])?, b.const_i64s(&[axis as i64])?, None, None).typed(i64s)?;
        let tail = b
            .onnx()
            .slice(wshape, b.const_i64s(&[axis as i64 + 1])?, b.const_i64s(&[i64::MAX])?, None, None)
            .typed(i64s)?;
        let target = b.onnx().concat(&[head, l, tail], 0).typed(i64s)?;
        let index = b.onnx().expand(index, target).typed(i64s)?;
        windows = b.onnx().gather_elements(windows, index, Some(axis as i64)).typed(b.unranked(element))?;
    }
    // [N, C, o1*k1, ..., od*kd] -> [N, C, o1, k1, ..., od, kd] -> [N, C, o1..od, k1..kd] -> [N, C, o1..od, K]
    let mut split = vec![0, 0];
    for i in 0..d {
        split.push(out[i]);
        split.push(kernel[i]);
    }
    let mut perm: Vec<i64> = vec![0, 1];
    perm.extend((0..d).map(|i| 2 + 2 * i as i64));
    perm.extend((0..d).map(|i| 3 + 2 * i as i64));
    let window_size: i64 = kernel.iter().product();
    let mut grouped_shape = vec![0, 0];
    grouped_shape.extend(out.iter().copied());
    grouped_shape.push(window_size);
    let group = |v: Value<'c, 'a>, ty: Type<'c>| -> Result<Value<'c, 'a>, String> {
        let v = b.onnx().reshape(v, b.const_i64s(&split)?, None).typed(b.unranked(ty))?;
        let v = b.onnx().transpose(v, Some(&perm.clone())).typed(b.unranked(ty))?;
        b.onnx().reshape(v, b.const_i64s(&grouped_shape)?, None).typed(b.unranked(ty))
    };
    let windows = group(windows, element)?;
    // Flat input index of every window element: sum_i pos_i * stride_i.
    let mut flat_index: Option<Value> = None;
    for i in 0..d {
        let stride: i64 = spatial[i + 1..].iter().product();
        let mut p = b.onnx().mul(positions[i], b.const_i64_scalar(stride)?).typed(i64s)?; // [N, C, o_i, k_i]
                                                                                          // Place (o_i, k_i) at dims (2 + 2i, 3 + 2i) of [N, C, o1, k1, ..., od, kd].
        for j in 0..d {
            if j != i {
                let at = 2 + 2 * j as i64;
                p = ctx.unsqueeze(p, &[at, at + 1])?;
            }
        }
        flat_index = Some(match flat_index {
            None => p,
            Some(acc) => b.onnx().add(acc, p).typed(i64s)?,
        });
    }
    let flat_index = flat_index.ok_or("no spatial dims")?;
    // Expand to the full [N, C, o1, k1, ...] shape before grouping.
    let nc_split = b.onnx().concat(&[nc, b.const_i64s(&split[2..])?], 0).typed(i64s)?;
    let flat_index = b.onnx().expand(flat_index, nc_split).typed(i64s)?;
    let flat_index = group(flat_index, b.i64_type())?;
    // The pick: the last NaN if any, else the first maximum.
    let bool_type: Type = IntegerType::new(b.context, 1).into();
    let nan = b.onnx().is_na_n(windows).typed(b.unranked(bool_type))?;
    let nan_f = b.cast(nan, element)?;
    let any_nan = ctx.reduce(crate::Reduction::Max, nan_f, Some(&[-1]), true, b.unranked(element))?;
    let any_nan = b.cast(any_nan, bool_type)?;
    let last_nan = b.onnx().arg_max(nan_f, Some(-1), Some(1), Some(1)).typed(i64s)?;
    let first_max = b.onnx().arg_max(windows, Some(-1), Some(1), Some(0)).typed(i64s)?;
    let pick = b.onnx().where_(any_nan, last_nan, first_max).typed(i64s)?;
    let value = b.onnx().gather_elements(windows, pick, Some(-1)).typed(b.unranked(element))?;
    let index = b.onnx().gather_elements(flat_index, pick, Some(-1)).typed(i64s)?;
    let mut value = ctx.squeeze(value, &[-1])?;
    let mut index = ctx.squeeze(index, &[-1])?;
    if !batched {
        value = ctx.squeeze(value, &[0])?;
        index = ctx.squeeze(index, &[0])?;
    }
    Ok(vec![b.onnx().identity(value).typed(ctx.result_type(0)?)?, b.onnx().identity(index).typed(ctx.result_type(1)?)?])
}

/// `[0, 1, ..., n - 1]` as a 1-D constant of float type `element`.
fn float_range<'c, 'a>(ctx: &Ctx<'c, 'a>, element: Type<'c>, n: i64) -> Result<Value<'c, 'a>, String> {
    let ty = melior::ir::r#type::RankedTensorType::new(&[n as u64], element, None).into();
    let values: Vec<melior::ir::Attribute> =
        (0..n).map(|i| crate::builder::float_attr(ctx.b.context, element, i as f64).into()).collect();
    ctx.b.constant(ty, &values)
}

/// Values written at their per-plane flat indices into zero planes of the
/// output size (ScatterElements along the flattened plane).
pub(super) fn max_unpool<'c, 'a>(c: &Ctx<'c, 'a>, spatial: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let indices = c.args.tensor("indices")?;
    let out = static_ints(c, "output_size")?;
    if out.len() != spatial {
        return Err(format!("output_size has {} entries, expected {spatial}", out.len()));
    }
    let plane: i64 = out.iter().product();
    let i64t = c.b.unranked(c.b.i64_type());
    let batched = c.rank(x)? == spatial + 2;
    let idx = if batched { indices } else { c.unsqueeze(indices, &[0])? };
    with_batch(c, x, spatial + 2, |xb| {
        let flat_shape = c.b.const_i64s(&[0, 0, -1])?;
        let v = c.b.onnx().reshape(xb, flat_shape, None).like(xb)?;
        let i = c.b.onnx().reshape(idx, flat_shape, None).typed(i64t)?;
        let zshape =
            c.b.onnx()
                .concat(&[c.b.onnx().shape(xb, Some(2), None).typed(i64t)?, c.b.const_i64s(&[plane])?], 0)
                .typed(i64t)?;
        let zeros = c.b.onnx().expand(c.b.const_like(xb, 0.0)?, zshape).like(xb)?;
        let y = c.b.onnx().scatter_elements(zeros, i, v, Some(2), None).like(xb)?;
        let mut shape = vec![0, 0];
        shape.extend(&out);
        Ok(vec![c.b.onnx().reshape(y, c.b.const_i64s(&shape)?, None).like(xb)?])
    })
}

/// A non-negative index quantity: a constant, or a 1-element int64 tensor
/// computed at run time. Arithmetic folds constants.
#[derive(Clone)]
enum I<'c, 'a> {
    S(i64),
    D(Value<'c, 'a>),
}

impl<'c, 'a> I<'c, 'a> {
    fn value(&self, c: &Ctx<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        match self {
            I::S(v) => c.b.const_i64s(&[*v]),
            I::D(v) => Ok(*v),
        }
    }

    /// `self <op> other`: `fold` of the two when both are known, else
    /// `build` of their values (int64).
    fn binary(
        &self,
        c: &Ctx<'c, 'a>,
        other: &I<'c, 'a>,
        fold: fn(i64, i64) -> i64,
        build: impl FnOnce(Value<'c, 'a>, Value<'c, 'a>) -> Result<Value<'c, 'a>, String>,
    ) -> Result<Self, String> {
        if let (I::S(l), I::S(r)) = (self, other) {
            return Ok(I::S(fold(*l, *r)));
        }
        Ok(I::D(build(self.value(c)?, other.value(c)?)?))
    }

    fn mul(&self, c: &Ctx<'c, 'a>, k: i64) -> Result<Self, String> {
        match k {
            1 => Ok(self.clone()),
            0 => Ok(I::S(0)),
            _ => {
                self.binary(c, &I::S(k), |l, r| l * r, |l, r| c.b.onnx().mul(l, r).typed(c.b.unranked(c.b.i64_type())))
            }
        }
    }

    fn mul_i(&self, c: &Ctx<'c, 'a>, other: &I<'c, 'a>) -> Result<Self, String> {
        match (self, other) {
            (I::S(1), _) => Ok(other.clone()),
            (_, I::S(1)) => Ok(self.clone()),
            _ => self.binary(c, other, |l, r| l * r, |l, r| c.b.onnx().mul(l, r).typed(c.b.unranked(c.b.i64_type()))),
        }
    }

    fn add(&self, c: &Ctx<'c, 'a>, k: i64) -> Result<Self, String> {
        if k == 0 {
            return Ok(self.clone());
        }
        self.binary(c, &I::S(k), |l, r| l + r, |l, r| c.b.onnx().add(l, r).typed(c.b.unranked(c.b.i64_type())))
    }

    fn sub(&self, c: &Ctx<'c, 'a>, other: &I<'c, 'a>) -> Result<Self, String> {
        self.binary(c, other, |l, r| l - r, |l, r| c.b.onnx().sub(l, r).typed(c.b.unranked(c.b.i64_type())))
    }

    /// Integer division of a non-negative value.
    fn div(&self, c: &Ctx<'c, 'a>, k: i64) -> Result<Self, String> {
        if k == 1 {
            return Ok(self.clone());
        }
        self.binary(c, &I::S(k), |l, r| l / r, |l, r| c.b.onnx().div(l, r).typed(c.b.unranked(c.b.i64_type())))
    }

    /// The 1-D int64 tensor of `items`.
    fn concat(c: &Ctx<'c, 'a>, items: &[I<'c, 'a>]) -> Result<Value<'c, 'a>, String> {
        if let Some(statics) =
            items.iter().map(|i| if let I::S(v) = i { Some(*v) } else { None }).collect::<Option<Vec<_>>>()
        {
            return c.b.const_i64s(&statics);
        }
        let parts: Vec<Value> = items.iter().map(|i| i.value(c)).collect::<Result<_, _>>()?;
        c.b.onnx().concat(&parts, 0).typed(c.b.unranked(c.b.i64_type()))
    }
}
