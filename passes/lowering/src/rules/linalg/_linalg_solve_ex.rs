use super::lu_common::solve_parts;
use crate::Rule;

/// `(X, LU, pivots, info)`: the factorization of `A` torch returns with the
/// solution (see linalg_solve_ex.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten._linalg_solve_ex.default", |c| {
    let (x, lu, pivots, info) = solve_parts(c)?;
    Ok(vec![x, lu, pivots, info])
})
.samples(&["A: T[3,3]{dd}; B: T[3,2]", "A: T[2,4,4]{dd}; B: T[2,4]", "A: T[3,3]{dd}; B: T[2,3]; left: false"])
.dtypes(&["f32", "f64"])];
