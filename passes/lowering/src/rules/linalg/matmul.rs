//! `aten.matmul`: ONNX `MatMul`, which broadcasts batch dims and promotes 1-D operands like numpy's `matmul`,
//! as torch's does.

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.matmul.default", |c| {
    Ok(vec![c.b.onnx().mat_mul(c.args.tensor("self")?, c.args.tensor("other")?).typed(c.result_type(0)?)?])
})
.samples(&["self: T[3,4]; other: T[4,5]", "self: T[2,3,4]; other: T[4,5]", "self: T[2,1,3,4]; other: T[5,4,2]"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i16", "i8", "u8"])];
