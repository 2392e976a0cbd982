use super::nn_common::{static_ints, with_batch};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.max_unpool2d.default", |c| max_unpool(c, 2)).samples(&[
    // One value per plane: random indices cannot collide (duplicates are
    // unordered in ONNX); tests/ops/unpool covers real max_pool indices.
    "self: T[2,3,1,1]; indices: i64[2,3,1,1]{0..20}; output_size: [4,5]",
    "self: T[2,1,1]; indices: i64[2,1,1]{0..12}; output_size: [3,4]",
])];

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
        let zshape = c.b.onnx().concat(&[c.b.onnx().shape(xb, Some(2), None).typed(i64t)?, c.b.const_i64s(&[plane])?], 0).typed(i64t)?;
        let zeros = c.b.onnx().expand(c.b.const_like(xb, 0.0)?, zshape).like(xb)?;
        let y = c.b.onnx().scatter_elements(zeros, i, v, Some(2), None).like(xb)?;
        let mut shape = vec![0, 0];
        shape.extend(&out);
        Ok(vec![c.b.onnx().reshape(y, c.b.const_i64s(&shape)?, None).like(xb)?])
    })
}
