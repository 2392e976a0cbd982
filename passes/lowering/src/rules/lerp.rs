use super::math_common::bool_op;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.lerp.Scalar", lerp).samples(&[
        "self: T[2,3]; end: T[2,3]; weight: 0.3",
        "self: T[2,3]; end: T[3]; weight: 0.75",
        "self: T[]; end: T[2]; weight: -1.5",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.lerp.Tensor", lerp).samples(&[
        "self: T[2,3]; end: T[2,3]; weight: T[2,3]",
        "self: T[2,3]; end: T[3]; weight: T[]",
        "self: T[0,3]; end: T[3]; weight: T[3]",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
];

/// torch's formula: `self + w * (end - self)` where |w| < 0.5, else
/// `end - (end - self) * (1 - w)` (exact at w = 0 and w = 1).
fn lerp<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    // Half inputs: computed in float32 with a float32 weight, as torch does.
    let element = c.opmath_element()?;
    let s = c.tensor_as("self", element)?;
    let e = c.tensor_as("end", element)?;
    let w = c.tensor_as("weight", element)?;
    let b = &c.b;
    let d = b.op_like("Sub", &[e, s], &[], s)?;
    let wd = b.op_like("Mul", &[w, d], &[], s)?;
    let low = b.op_like("Add", &[s, wd], &[], s)?;
    let one = b.const_scalar(element, 1.0)?;
    let half = b.const_scalar(element, 0.5)?;
    let omw = b.op_like("Sub", &[one, w], &[], s)?;
    let t = b.op_like("Mul", &[d, omw], &[], s)?;
    let high = b.op_like("Sub", &[e, t], &[], s)?;
    let aw = b.op_like("Abs", &[w], &[], w)?;
    let small = bool_op(c, "Less", &[aw, half])?;
    Ok(vec![c.opmath_result(b.op_like("Where", &[small, low, high], &[], s)?)?])
}
