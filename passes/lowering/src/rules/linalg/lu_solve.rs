use super::lu_common::lu_solve;
use crate::Rule;

/// `torch.lu_solve(B, LU, pivots)`: `linalg.lu_solve(LU, pivots, B)`, see
/// linalg_lu_solve.rs.
pub const RULES: &[Rule] =
    &[Rule::custom("aten.lu_solve.default", |c| Ok(vec![lu_solve(c, "LU_data", "LU_pivots", "self", true, false)?]))
        .samples(&[
            "self: T[3,2]; LU_data: T[3,3]{dd}; LU_pivots: i32[3]{3..4}",
            "self: T[2,4,1]; LU_data: T[2,4,4]{dd}; LU_pivots: i32[2,4]{4..5}",
        ])
        .dtypes(&["f32", "f64"])];
