use super::nn_common::{check_window, expand, patch_indices, with_batch};
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.im2col.default", im2col)
    .samples(&[
        "self: T[1,2,5,6]; kernel_size: [2,3]; dilation: [1,1]; padding: [0,0]; stride: [1,1]",
        "self: T[2,3,6,5]; kernel_size: [3,2]; dilation: [2,1]; padding: [1,2]; stride: [2,1]",
        "self: T[2,4,4]; kernel_size: [2,2]; dilation: [1,1]; padding: [1,1]; stride: [2,2]",
    ])
    .dtypes(&["f32"])];

/// `F.unfold`: pad, flatten each plane, Gather the patch indices:
/// `[N, C, H, W] -> [N, C * kh * kw, L]` (exact, NaN-safe).
fn im2col<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let kernel = expand(c.args.ints("kernel_size")?, 2);
    let dilation = expand(c.args.ints("dilation")?, 2);
    let padding = expand(c.args.ints("padding")?, 2);
    let stride = expand(c.args.ints("stride")?, 2);
    if padding.len() != 2 {
        return Err("im2col: padding needs two values".into());
    }
    with_batch(c, x, 4, |xb| {
        let dims = builder::dims(xb.r#type()).ok_or("unknown rank")?;
        let (ch, h, w) = match (dims[1], dims[2], dims[3]) {
            (Some(ch), Some(h), Some(w)) => (ch, h, w),
            _ => return Ok(vec![im2col_dynamic(c, xb, dims[1], &kernel, &dilation, &padding, &stride)?]),
        };
        let (hp, wp) = (h + 2 * padding[0], w + 2 * padding[1]);
        let (idx, oh, ow) = patch_indices(hp, wp, &kernel, &dilation, &stride)?;
        let pads = c.b.const_i64s(&[0, 0, padding[0], padding[1], 0, 0, padding[0], padding[1]])?;
        let zero = c.b.const_like(xb, 0.0)?;
        let padded = c.b.onnx().pad(xb, pads, Some(zero), None, None).like(xb)?;
        let flat = c.b.onnx().reshape(padded, c.b.const_i64s(&[0, ch, hp * wp])?, None).like(xb)?;
        let g = c.b.onnx().gather(flat, c.b.const_i64s(&idx)?, Some(2)).like(xb)?;
        let k = kernel[0] * kernel[1];
        Ok(vec![c.b.onnx().reshape(g, c.b.const_i64s(&[0, ch * k, oh * ow])?, None).like(xb)?])
    })
}

/// `F.unfold` where H or W is dynamic (ConvBERT unfolds [B, C, S, 1] over a
/// dynamic sequence): one strided Slice of the padded input per kernel
/// offset, stacked on a new axis. Offset (ki, kj) starts at (ki*d0, kj*d1)
/// and ends `d*(k-1-ki)` before the end, which leaves exactly
/// `oh = (Hp - d0*(k0-1) - 1) / s0 + 1` rows for any Hp (the same for W):
/// the bounds are constants even though the sizes are not.
fn im2col_dynamic<'c, 'a>(
    c: &Ctx<'c, 'a>,
    xb: Value<'c, 'a>,
    ch: Option<i64>,
    kernel: &[i64],
    dilation: &[i64],
    padding: &[i64],
    stride: &[i64],
) -> Result<Value<'c, 'a>, String> {
    check_window(kernel, dilation, stride)?;
    let k = kernel[0] * kernel[1];
    let ch = ch.ok_or("im2col with dynamic H or W needs a static channel count")?;
    let pads = c.b.const_i64s(&[0, 0, padding[0], padding[1], 0, 0, padding[0], padding[1]])?;
    let zero = c.b.const_like(xb, 0.0)?;
    let padded = c.b.onnx().pad(xb, pads, Some(zero), None, None).like(xb)?;
    // The end of offset i along an axis: `-(d*(k-1-i))`, or "to the end".
    let end = |i: i64, axis: usize| match dilation[axis] * (kernel[axis] - 1 - i) {
        0 => i64::MAX,
        back => -back,
    };
    let axis2 = c.b.const_i64s(&[2])?;
    let axes = c.b.const_i64s(&[2, 3])?;
    let steps = c.b.const_i64s(&[stride[0], stride[1]])?;
    let mut patches = Vec::with_capacity(k as usize);
    for ki in 0..kernel[0] {
        for kj in 0..kernel[1] {
            let s = c.b.const_i64s(&[ki * dilation[0], kj * dilation[1]])?;
            let e = c.b.const_i64s(&[end(ki, 0), end(kj, 1)])?;
            let p = c.b.onnx().slice(padded, s, e, Some(axes), Some(steps)).like(xb)?;
            patches.push(c.b.onnx().unsqueeze(p, axis2).like(xb)?);
        }
    }
    // [N, C, k, oh, ow] -> [N, C*k, oh*ow]: torch orders channels major,
    // then kernel offsets row-major, as the Concat does.
    let stacked = if patches.len() == 1 { patches[0] } else { c.b.onnx().concat(&patches, 2).like(xb)? };
    // The sizes are spelled out (allowzero): `[0, C*k, -1]` is ambiguous,
    // and refused, when the batch or the output area is 0.
    let b = &c.b;
    let i64_n = |n: u64| melior::ir::r#type::RankedTensorType::new(&[n], b.i64_type(), None).into();
    let batch = super::common::dim_size(c, stacked, 0)?;
    let spatial = b.onnx().shape(stacked, Some(5), Some(3)).typed(i64_n(2))?;
    let area = b.onnx().reduce_prod(spatial, None, None, Some(1), None).typed(i64_n(1))?;
    let shape = b.onnx().concat(&[batch, b.const_i64s(&[ch * k])?, area], 0).typed(i64_n(3))?;
    b.onnx().reshape(stacked, shape, Some(1)).like(xb)
}
