use crate::Rule;

/// `Gather(x, index, axis=dim)` with a 0-d index removes the dim.
pub const RULES: &[Rule] = &[Rule::custom("aten.select.int", |c| {
    let x = c.args.tensor("self")?;
    let index = c.int_scalar(c.args.sym_int("index")?, c.b.i64_type())?;
    Ok(vec![c.b.onnx().gather(x, index, Some(c.args.int("dim")?)).typed(c.result_type(0)?)?])
})
.complex(super::complex_common::select)
.complex_samples(&["self: C[3,4]; dim: -1; index: -1", "self: C[3,4]; dim: 0; index: 1"])
.samples(&["self: T[3,4]; dim: 0; index: 1", "self: T[3,4]; dim: 1; index: -1"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
