//! `aten.take`: ONNX `Gather` on the flattened `self`; `Gather` counts negative indices from the end, as
//! `torch.take` does.

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.take.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let flat = b.onnx().reshape(x, b.const_i64s(&[-1])?, None).like(x)?;
    let index = c.args.tensor("index")?;
    // Gather takes negative indices from the end, like torch.take.
    Ok(vec![c.b.onnx().gather(flat, index, Some(0)).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[3,4]; index: i64[5]{0..12}",
    "self: T[3,4]; index: i64[2,2]{-12..12}",
    "self: T[]; index: i64[3]{0..1}",
    "self: T[3,4]; index: i64[]{0..12}",
    "self: T[3,4]; index: i64[0]",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16", "bf16", "i8", "u8"])];
