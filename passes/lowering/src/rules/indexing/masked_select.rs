//! `aten.masked_select`: ONNX `Compress` of the flattened `self` by the flattened mask, both first expanded to
//! their broadcast shape. bfloat16 goes through float32 and back (`Compress` has no bfloat16 type).

use super::tensor_common::broadcast_shape;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.masked_select.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let mask = c.args.tensor("mask")?;
    let shape = broadcast_shape(c, &[x, mask])?;
    let x = b.onnx().expand(x, shape).like(x)?;
    let mask = b.onnx().expand(mask, shape).like(mask)?;
    let minus_one = b.const_i64s(&[-1])?;
    let flat = b.onnx().reshape(mask, minus_one, None).like(mask)?;
    let flat_x = b.onnx().reshape(x, minus_one, None).like(x)?;
    Ok(vec![super::common::compress(c, flat_x, flat, 0, c.result_type(0)?)?])
})
.samples(&[
    "self: T[3,4]; mask: bool[3,4]",
    "self: T[3,4]; mask: bool[4]",
    "self: T[4]; mask: bool[3,4]",
    "self: T[]; mask: bool[]",
    "self: T[0,2]; mask: bool[2]",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16", "bf16"])];
