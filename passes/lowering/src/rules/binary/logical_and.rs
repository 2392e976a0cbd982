//! `aten.logical_and`: ONNX `And` of both operands cast to bool (nonzero is true).

use crate::{builder, Rule};

pub const RULES: &[Rule] = &[Rule::custom("aten.logical_and.default", |c| {
    let bool_type = builder::element_type(c.result_type(0)?).ok_or("result is not a tensor")?;
    let (a, b) = (c.tensor_as("self", bool_type)?, c.tensor_as("other", bool_type)?);
    Ok(vec![c.b.onnx().and(a, b).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]; other: T[2,3]", "self: T[2,3]; other: T[3]"])
.dtypes(&["bool", "f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8"])];
