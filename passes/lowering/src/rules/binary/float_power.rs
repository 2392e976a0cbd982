use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.float_power.Tensor_Tensor", float_power)
        .samples(&[
            "self: T[2,3]{pos}; exponent: T[2,3]",
            "self: T[2,3]; exponent: i64[3]{0..4}",
            "self: T[]{pos}; exponent: T[2]",
        ])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.float_power.Tensor_Scalar", float_power)
        .samples(&["self: T[2,3]; exponent: 2", "self: T[2,3]{pos}; exponent: 0.5", "self: T[2,3]; exponent: -1"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.float_power.Scalar", float_power)
        .samples(&["self: 2.0; exponent: T[2,3]", "self: 3; exponent: T[]"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"]),
];

/// `Pow` in float64 (torch's float_power always computes and returns
/// double).
fn float_power<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = c.result_element(0)?;
    let base = c.tensor_as("self", element)?;
    let exponent = c.tensor_as("exponent", element)?;
    Ok(vec![c.b.onnx().pow(base, exponent).typed(c.result_type(0)?)?])
}
