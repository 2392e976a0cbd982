use super::math_common::{unranked_bool, isnan};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.xlogy.Tensor", xlogy)
        .samples(&[
            "self: T[2,3]; other: T[2,3]{pos}",
            "self: T[2,3]{0..2}; other: T[3]",
            "self: T[]; other: T[2]{pos}",
            "self: T[0,3]; other: T[3]",
        ])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.xlogy.Scalar_Self", xlogy).samples(&["self: 2.0; other: T[2,3]{pos}", "self: 0; other: T[2,3]"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.xlogy.Scalar_Other", xlogy).samples(&["self: T[2,3]; other: 2.5", "self: T[2,3]; other: 0"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"]),
];

/// `x * log(y)`, 0 where `x == 0` (even for `y == 0` or inf), NaN where `y`
/// is NaN (torch). Integer operands are promoted to the float result.
pub(super) fn xlogy<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = c.result_element(0)?;
    let x = c.tensor_as("self", element)?;
    let y = c.tensor_as("other", element)?;
    let b = &c.b;
    let l = b.onnx().log(y).like(y)?;
    let p = b.onnx().mul(x, l).like(y)?;
    let zero = b.const_scalar(element, 0.0)?;
    let x_zero = c.b.onnx().equal(x, zero).typed(unranked_bool(c))?;
    let p = b.onnx().where_(x_zero, zero, p).like(y)?;
    let y_nan = isnan(c, y)?;
    let nan = b.const_scalar(element, f64::NAN)?;
    Ok(vec![c.b.onnx().where_(y_nan, nan, p).typed(c.result_type(0)?)?])
}
