//! `aten.fill` (`.Scalar`, `.Tensor`): the value cast to the result type and `Expand`ed to the shape of
//! `self`.

use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.fill.Scalar", |c| {
        let x = c.args.tensor("self")?;
        let v = c.tensor_as("value", c.result_element(0)?)?;
        let shape = c.b.shape(x)?;
        Ok(vec![c.b.onnx().expand(v, shape).typed(c.result_type(0)?)?])
    })
    .samples(&["self: T[2,3]; value: 1.5", "self: T[0]; value: 1"])
    .dtypes(&["f32", "i64"]),
    Rule::custom("aten.fill.Tensor", |c| {
        let x = c.args.tensor("self")?;
        let v = c.tensor_as("value", c.result_element(0)?)?;
        let shape = c.b.shape(x)?;
        Ok(vec![c.b.onnx().expand(v, shape).typed(c.result_type(0)?)?])
    })
    .samples(&["self: T[2,3]; value: T[]"])
    .dtypes(&["f32", "i64"]),
];
