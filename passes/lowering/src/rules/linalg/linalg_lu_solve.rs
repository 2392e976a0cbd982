use super::lu_common::lu_solve;
use crate::Rule;

/// `X` with `A X = B` (`left`; `A^T X = B` when `adjoint`) or `X A = B`
/// (`X A^T = B`), `A = P L U` given by `linalg.lu_factor`'s `(LU, pivots)`
/// (LAPACK `getrs`, unrolled over the static n <= 16, see linalg_common.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_lu_solve.default", |c| {
    let (left, adjoint) = (c.args.bool("left")?, c.args.bool("adjoint")?);
    Ok(vec![lu_solve(c, "LU", "pivots", "B", left, adjoint)?])
})
.samples(&[
    "LU: T[3,3]{dd}; pivots: i32[3]{3..4}; B: T[3,2]",
    "LU: T[3,3]{dd}; pivots: i32[3]{3..4}; B: T[3,2]; adjoint: true",
    "LU: T[3,3]{dd}; pivots: i32[3]{3..4}; B: T[2,3]; left: false",
    "LU: T[3,3]{dd}; pivots: i32[3]{3..4}; B: T[2,3]; left: false; adjoint: true",
    "LU: T[2,4,4]{dd}; pivots: i32[2,4]{4..5}; B: T[2,4,1]",
])
.dtypes(&["f32", "f64"])];
