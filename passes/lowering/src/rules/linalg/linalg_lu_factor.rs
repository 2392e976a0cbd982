use super::lu_common::lu_factor;
use crate::Rule;

/// `(LU, pivots)`, see linalg_lu_factor_ex.rs (torch raises on a singular
/// matrix here; the ONNX graph returns the factorization, as `_ex` does).
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_lu_factor.default", |c| {
    let (lu, pivots, _) = lu_factor(c, "A")?;
    Ok(vec![lu, pivots])
})
.samples(&["A: T[4,4]", "A: T[2,3,3]", "A: T[3,5]", "A: T[5,2]", "A: T[0,0]"])
.dtypes(&["f32", "f64"])];
