use super::prod_common::vector_norm;
use crate::{builder, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.dist.default", dist)
    .samples(&[
        "self: T[3,4]; other: T[3,4]",
        "self: T[3,4]; other: T[4]; p: 1",
        "self: T[2,3]; other: T[2,3]; p: 3.5",
        "self: T[2,3]; other: T[2,3]; p: 0",
        "self: T[2,3]; other: T[2,3]; p: inf",
        "self: T[2,3]; other: T[2,3]; p: -inf",
        "self: T[]; other: T[3]; p: 0.5",
        "self: T[0,3]; other: T[3]",
    ])
    .dtypes(&["f32", "f64"])];

/// The `p`-norm of `self - other` (broadcast) over all elements.
fn dist<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    if !builder::is_float(el) {
        return Err("dist of non-float tensors".into());
    }
    let d = c.b.onnx().sub(c.tensor_as("self", el)?, c.tensor_as("other", el)?).typed(c.b.unranked(el))?;
    let flat = c.b.onnx().reshape(d, c.b.const_i64s(&[-1])?, None).like(d)?;
    let n = vector_norm(c, flat, Some(&[0]), false, c.args.number("p")?.as_f64())?;
    Ok(vec![c.b.onnx().identity(n).typed(c.result_type(0)?)?])
}
