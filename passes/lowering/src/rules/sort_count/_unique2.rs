use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten._unique2.default", unique2)
    .samples(&[
        "self: i64[10]{0..4}",
        "self: i64[3,4]{-2..3}; return_inverse: true; return_counts: true",
        "self: i64[3,4]{0..5}; sorted: false; return_counts: true",
        "self: T[6]; return_inverse: true",
        "self: T[]; return_inverse: true; return_counts: true",
        "self: T[0]; return_inverse: true; return_counts: true",
    ])
    .dtypes(&["f32", "i64", "f64"])];

/// ONNX `Unique` (sorted) of the flattened input: the sorted distinct
/// values, the inverse indices reshaped like `self`, the counts. torch on
/// CPU sorts even with `sorted=False`; outputs not asked for are empty
/// int64 tensors, like torch's.
fn unique2<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let flat = b.onnx().reshape(x, b.const_i64s(&[-1])?, None).like(x)?;
    let i64s = b.unranked(b.i64_type());
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let outs = b.onnx().unique(flat, None, Some(1)).results(&[b.unranked(element), i64s, i64s, i64s])?;
    let empty = || super::tensor_common::const_index(ctx, &[0], &[]);
    let inverse = if ctx.args.bool("return_inverse")? {
        let shape = b.shape(x)?;
        b.onnx().reshape(outs[2], shape, None).typed(ctx.result_type(1)?)?
    } else {
        empty()?
    };
    let counts = if ctx.args.bool("return_counts")? { outs[3] } else { empty()? };
    Ok(vec![outs[0], inverse, counts])
}
