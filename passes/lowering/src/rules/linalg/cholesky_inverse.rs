use super::cholesky_common::solve_with_factor;
use super::linalg_common::{self as lc, La};
use crate::Rule;

/// `(L L^T)^-1` (`upper=False`) or `(U^T U)^-1` from a Cholesky factor
/// (LAPACK `potri`): `cholesky_solve(I, factor)`, see cholesky_solve.rs.
pub const RULES: &[Rule] = &[Rule::custom("aten.cholesky_inverse.default", |c| {
    let factor = c.args.tensor("self")?;
    let upper = c.args.bool("upper")?;
    let element = lc::float_element(factor, "self")?;
    let (n, _) = lc::square_dims(factor, "self")?;
    let la = La::new(c, element);
    let eye = lc::identity(&la, n)?;
    Ok(vec![solve_with_factor(c, factor, eye, upper)?])
})
.samples(&["self: T[3,3]{dd}", "self: T[2,4,4]{dd}", "self: T[3,3]{dd}; upper: true", "self: T[0,0]"])
.dtypes(&["f32", "f64"])];
