use super::lu_common::solve_ex;
use crate::Rule;

/// `X` with `A X = B` (`left`) or `X A = B`: see linalg_solve_ex.rs. torch
/// raises on a singular `A`; the ONNX graph gives inf/NaN there.
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_solve.default", |c| {
    let (x, _) = solve_ex(c)?;
    Ok(vec![x])
})
.samples(&[
    "A: T[3,3]{dd}; B: T[3,2]",
    "A: T[3,3]{dd}; B: T[3]",
    "A: T[2,4,4]{dd}; B: T[2,4]",
    "A: T[5,5]{dd}; B: T[2,5,3]",
    "A: T[3,3]{dd}; B: T[2,3]; left: false",
    "A: T[0,0]; B: T[0]",
])
.dtypes(&["f32", "f64"])];
