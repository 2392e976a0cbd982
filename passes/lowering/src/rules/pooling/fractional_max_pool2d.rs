use crate::{builder, Ctx, Rule};
use melior::ir::{r#type::IntegerType, Type, Value, ValueLike};

/// `fractional_max_pool2d(self, kernel_size, output_size, random_samples)`:
/// deterministic given `random_samples` (`[N, C, 2]`, drawn by
/// `F.fractional_max_pool2d` with `torch.rand` before the op, so the
/// randomness is in the graph as `rand`). Window starts follow torch's
/// `generate_intervals` in the input's dtype: `alpha = (in - pool) / (out - 1)`,
/// `start[i] = int((i + u) * alpha) - int(u * alpha)`, the last start `in - pool`;
/// the sample of W is `u[..., 0]`, of H `u[..., 1]`. Each window's value and
/// flat `h * W + w` index are torch's: the first maximum in row-major window
/// order, or the last NaN when the window has one.
pub const RULES: &[Rule] = &[Rule::custom("aten.fractional_max_pool2d.default", |c| fractional_max_pool(c, 2))
    .samples(&[
        "self: T[1,2,7,7]; kernel_size: [2,2]; output_size: [3,3]; random_samples: T[1,2,2]{unit}",
        "self: T[2,3,9,8]; kernel_size: [3,2]; output_size: [4,5]; random_samples: T[3,3,2]{unit}",
        "self: T[3,6,5]; kernel_size: [2,3]; output_size: [1,3]; random_samples: T[1,3,2]{unit}",
        "self: T[1,1,5,5]; kernel_size: [1,1]; output_size: [5,5]; random_samples: T[1,1,2]{unit}",
        "self: T[0,2,6,6]; kernel_size: [2,2]; output_size: [3,3]; random_samples: T[0,2,2]{unit}",
    ])
    .dtypes(&["f32", "f64"])
    .refuses(&[(
        "self: T[1,2,5,5]; kernel_size: [2,2]; output_size: [5,5]; random_samples: T[1,2,2]{unit}",
        "too large",
    )])];

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
        let l =
            b.onnx().slice(ishape, b.const_i64s(&[axis as i64])?, b.const_i64s(&[axis as i64 + 1])?, None, None).typed(i64s)?;
        let head = b.onnx().slice(wshape, b.const_i64s(&[0])?, b.const_i64s(&[axis as i64])?, None, None).typed(i64s)?;
        let tail =
            b.onnx().slice(wshape, b.const_i64s(&[axis as i64 + 1])?, b.const_i64s(&[i64::MAX])?, None, None).typed(i64s)?;
        let target = b.onnx().concat(&[head, l, tail], 0).typed(i64s)?;
        let index = b.onnx().expand(index, target).typed(i64s)?;
        windows =
            b.onnx().gather_elements(windows, index, Some(axis as i64)).typed(b.unranked(element))?;
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
    Ok(vec![
        b.onnx().identity(value).typed(ctx.result_type(0)?)?,
        b.onnx().identity(index).typed(ctx.result_type(1)?)?,
    ])
}

/// `[0, 1, ..., n - 1]` as a 1-D constant of float type `element`.
fn float_range<'c, 'a>(ctx: &Ctx<'c, 'a>, element: Type<'c>, n: i64) -> Result<Value<'c, 'a>, String> {
    let ty = melior::ir::r#type::RankedTensorType::new(&[n as u64], element, None).into();
    let values: Vec<melior::ir::Attribute> =
        (0..n).map(|i| crate::builder::float_attr(ctx.b.context, element, i as f64).into()).collect();
    ctx.b.constant(ty, &values)
}
