//! `aten.bmm`: ONNX `MatMul` of the `[B, n, m]` and `[B, m, p]` batches.

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.bmm.default", |c| {
    Ok(vec![c.b.onnx().mat_mul(c.args.tensor("self")?, c.args.tensor("mat2")?).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3,4]; mat2: T[2,4,5]"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i16", "i8", "u8"])];
