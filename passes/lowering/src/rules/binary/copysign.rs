use super::signbit_common::signbit;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.copysign.Tensor", copysign)
        .samples(&["self: T[2,3]; other: T[2,3]", "self: T[2,3]; other: T[3]", "self: T[]; other: T[2]"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.copysign.Scalar", copysign)
        .samples(&["self: T[2,3]; other: -1.0", "self: T[2,3]; other: 2", "self: T[]; other: -0.0"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];

/// `|x|` with the sign of `other` (float result; -0.0 counts as negative; a
/// NaN `other` counts as positive, see signbit).
fn copysign<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = c.result_element(0)?;
    let x = c.tensor_as("self", element)?;
    let y = c.tensor_as("other", element)?;
    let b = &c.b;
    let a = b.onnx().abs(x).like(x)?;
    let na = b.onnx().neg(a).like(x)?;
    let neg = signbit(c, y)?;
    Ok(vec![c.b.onnx().where_(neg, na, a).typed(c.result_type(0)?)?])
}
