use super::nn_common::{expand, patch_indices, slice, with_batch};
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.col2im.default", col2im).samples(&[
    "self: T[1,12,16]; output_size: [5,6]; kernel_size: [2,3]; dilation: [1,1]; padding: [0,0]; stride: [1,1]",
    "self: T[2,18,16]; output_size: [6,5]; kernel_size: [3,2]; dilation: [2,1]; padding: [1,2]; stride: [2,1]",
    "self: T[8,9]; output_size: [4,4]; kernel_size: [2,2]; dilation: [1,1]; padding: [1,1]; stride: [2,2]",
])];

/// `F.fold`: the sum of overlapping patches. ScatterElements(add) of every
/// column entry into its place in the zero padded plane, then the padding
/// is cut.
fn col2im<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let out: Vec<i64> = super::nn_common::static_ints(c, "output_size")?;
    let kernel = expand(c.args.ints("kernel_size")?, 2);
    let dilation = expand(c.args.ints("dilation")?, 2);
    let padding = expand(c.args.ints("padding")?, 2);
    let stride = expand(c.args.ints("stride")?, 2);
    with_batch(c, x, 3, |xb| {
        let dims = builder::dims(xb.r#type()).ok_or("unknown rank")?;
        let ck = dims[1].ok_or("col2im needs a static channel dim")?;
        let k = kernel[0] * kernel[1];
        if ck % k != 0 {
            return Err(format!("col2im: {ck} rows are not a multiple of the kernel size {k}"));
        }
        let ch = ck / k;
        let (hp, wp) = (out[0] + 2 * padding[0], out[1] + 2 * padding[1]);
        let (idx, oh, ow) = patch_indices(hp, wp, &kernel, &dilation, &stride)?;
        if dims[2].is_some_and(|l| l != oh * ow) {
            return Err(format!("col2im: {:?} blocks, expected {}", dims[2], oh * ow));
        }
        let i64t = c.b.unranked(c.b.i64_type());
        let cols = c.b.onnx().reshape(xb, c.b.const_i64s(&[0, ch, k * oh * ow])?, None).like(xb)?;
        let shape = c.b.shape(cols)?;
        let indices = c.b.onnx().expand(c.b.const_i64s(&idx)?, shape).typed(i64t)?;
        let zshape =
            c.b.onnx()
                .concat(&[c.b.onnx().shape(xb, Some(1), None).typed(i64t)?, c.b.const_i64s(&[ch, hp * wp])?], 0)
                .typed(i64t)?;
        let zeros = c.b.onnx().expand(c.b.const_like(xb, 0.0)?, zshape).like(xb)?;
        let summed = c.b.onnx().scatter_elements(zeros, indices, cols, Some(2), Some("add")).like(xb)?;
        let plane = c.b.onnx().reshape(summed, c.b.const_i64s(&[0, ch, hp, wp])?, None).like(xb)?;
        let y = if padding.iter().any(|&p| p > 0) {
            slice(c, plane, &[2, 3], &[padding[0], padding[1]], &[padding[0] + out[0], padding[1] + out[1]])?
        } else {
            plane
        };
        Ok(vec![y])
    })
}
