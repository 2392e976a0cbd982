use super::common::shape_slice;
use super::tensor_common::concat;
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.channel_shuffle.default", channel_shuffle)
    .samples(&["self: T[2,6,3,3]; groups: 3", "self: T[1,4,5]; groups: 2"])
    .dtypes(&["f32", "i64"])];

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
