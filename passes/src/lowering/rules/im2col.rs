use super::nn_common::{expand, with_batch};
use crate::lowering::{builder, Attr, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.im2col.default", im2col)
    .samples(&[
        "self: T[1,2,5,6]; kernel_size: [2,3]; dilation: [1,1]; padding: [0,0]; stride: [1,1]",
        "self: T[2,3,6,5]; kernel_size: [3,2]; dilation: [2,1]; padding: [1,2]; stride: [2,1]",
        "self: T[2,4,4]; kernel_size: [2,2]; dilation: [1,1]; padding: [1,1]; stride: [2,2]",
    ])
    .dtypes(&["f32"])];

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
    if [kernel, dilation, stride].iter().any(|v| v.len() != 2 || v.iter().any(|&x| x <= 0)) {
        return Err("im2col/col2im: kernel_size, dilation and stride need two positive values".into());
    }
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

/// `F.unfold`: pad, flatten each plane, Gather the patch indices:
/// `[N, C, H, W] -> [N, C * kh * kw, L]` (exact, NaN-safe).
fn im2col<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let kernel = expand(c.args.ints("kernel_size")?, 2);
    let dilation = expand(c.args.ints("dilation")?, 2);
    let padding = expand(c.args.ints("padding")?, 2);
    let stride = expand(c.args.ints("stride")?, 2);
    with_batch(c, x, 4, |xb| {
        let dims = builder::dims(xb.r#type()).ok_or("unknown rank")?;
        let (ch, h, w) = match (dims[1], dims[2], dims[3]) {
            (Some(ch), Some(h), Some(w)) => (ch, h, w),
            _ => return Err("im2col needs static C, H, W".into()),
        };
        let (hp, wp) = (h + 2 * padding[0], w + 2 * padding[1]);
        let (idx, oh, ow) = patch_indices(hp, wp, &kernel, &dilation, &stride)?;
        let pads = c.b.const_i64s(&[0, 0, padding[0], padding[1], 0, 0, padding[0], padding[1]])?;
        let zero = c.b.const_like(xb, 0.0)?;
        let padded = c.b.op_like("Pad", &[xb, pads, zero], &[], xb)?;
        let flat = c.b.op_like("Reshape", &[padded, c.b.const_i64s(&[0, ch, hp * wp])?], &[], xb)?;
        let g = c.b.op_like("Gather", &[flat, c.b.const_i64s(&idx)?], &[("axis", Attr::Int(2))], xb)?;
        let k = kernel[0] * kernel[1];
        Ok(vec![c.b.op_like("Reshape", &[g, c.b.const_i64s(&[0, ch * k, oh * ow])?], &[], xb)?])
    })
}
