//! `aten.mm`: ONNX `MatMul`. A PT2E dynamically quantized product (activation quantized with a scale computed in
//! the graph, 8-bit weight) is computed on the integers instead: `MatMulInteger`, then one float32 scaling
//! (integer_matmul_common.rs).

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.mm.default", |c| {
    let (a, b) = (c.args.tensor("self")?, c.args.tensor("mat2")?);
    // Dynamically quantized (PT2E): the product on the integers.
    if let Some(y) = super::integer_matmul_common::dynamic_integer_matmul(c, a, b, c.result_type(0)?)? {
        return Ok(vec![y]);
    }
    Ok(vec![c.b.onnx().mat_mul(a, b).typed(c.result_type(0)?)?])
})
.samples(&["self: T[3,4]; mat2: T[4,5]"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i16", "i8", "u8"])];
