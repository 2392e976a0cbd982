use super::cholesky_common::solve_with_factor;
use crate::Rule;

/// `X` with `A X = B` for `A = L L^T` (`upper=False`) or `A = U^T U`, from
/// the Cholesky factor `input2` (LAPACK `potrs`): two triangular solves
/// unrolled over the static n <= 16 (see linalg_common.rs), batch dims
/// broadcast. Only the factor's triangle is read.
pub const RULES: &[Rule] = &[Rule::custom("aten.cholesky_solve.default", |c| {
    let b = c.args.tensor("self")?;
    let factor = c.args.tensor("input2")?;
    let upper = c.args.bool("upper")?;
    Ok(vec![solve_with_factor(c, factor, b, upper)?])
})
.samples(&[
    "self: T[3,2]; input2: T[3,3]{dd}",
    "self: T[2,4,1]; input2: T[2,4,4]{dd}",
    "self: T[3,2]; input2: T[3,3]{dd}; upper: true",
    "self: T[2,3,2]; input2: T[3,3]{dd}",
    "self: T[0,2]; input2: T[0,0]",
])
.dtypes(&["f32", "f64"])];
