use super::math_common::along_dim;
use crate::lowering::Rule;

/// `CumSum` in the result dtype (bool / int inputs give int64 like torch);
/// a 0-d input is returned as is.
pub const RULES: &[Rule] = &[Rule::custom("aten.cumsum.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let y = along_dim(c, x, c.args.int("dim")?, |x, axis| {
        let axis = c.b.const_i64_scalar(axis)?;
        c.b.op_like("CumSum", &[x, axis], &[], x)
    })?;
    Ok(vec![y])
})
.samples(&[
    "self: T[3,4]; dim: 1",
    "self: T[3,4]; dim: 0",
    "self: T[3,4]; dim: -1",
    "self: T[]; dim: 0",
    "self: T[]; dim: -1",
    "self: T[0,3]; dim: 0",
    "self: bool[3,4]; dim: 1",
    "self: T[3,4]; dim: 1; dtype: dtype(f32)",
])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
