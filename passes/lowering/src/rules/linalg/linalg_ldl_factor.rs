use crate::Rule;

/// `(LD, pivots)`, see linalg_ldl_factor_ex.rs (torch raises where `info`
/// would be nonzero; the ONNX graph returns the factorization, as `_ex`
/// does).
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_ldl_factor.default", |c| {
    let (ld, pivots, _) = super::ldl_common::factor(c, "self")?;
    Ok(vec![ld, pivots])
})
.samples(&["self: T[4,4]", "self: T[3,6,6]", "self: T[2,2]; hermitian: true", "self: T[16,16]", "self: T[0,0]"])
.dtypes(&["f32", "f64"])];
