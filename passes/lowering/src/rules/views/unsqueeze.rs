//! `aten.unsqueeze`: ONNX `Unsqueeze` at `dim`.

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.unsqueeze.default", |c| {
    let x = c.args.tensor("self")?;
    let axes = c.b.const_i64s(&[c.args.int("dim")?])?;
    Ok(vec![c.b.onnx().unsqueeze(x, axes).typed(c.result_type(0)?)?])
})
.complex(super::complex_common::reshape)
.complex_samples(&["self: C[2,3]; dim: -1", "self: C[2,3]; dim: 0"])
.samples(&["self: T[2,3]; dim: 0", "self: T[2,3]; dim: -1", "self: T[]; dim: 0"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
