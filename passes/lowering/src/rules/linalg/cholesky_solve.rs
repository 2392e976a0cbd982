use super::linalg_common::{self as lc, La};
use crate::{Ctx, Rule};
use melior::ir::Value;

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

/// `(F F^T)^-1 B` (lower `F`) or `(F^T F)^-1 B` (upper `F`).
pub fn solve_with_factor<'c, 'a>(
    c: &Ctx<'c, 'a>,
    factor: Value<'c, 'a>,
    b: Value<'c, 'a>,
    upper: bool,
) -> Result<Value<'c, 'a>, String> {
    let element = lc::float_element(factor, "the Cholesky factor")?;
    let (n, batch) = lc::square_dims(factor, "the Cholesky factor")?;
    lc::matrix_dims(b, "B")?;
    let la = La::new(c, element);
    let b = c.b.cast_like_type(b, element)?;
    let b = la.expand_batch(b, factor)?;
    let t = la.transpose(factor, batch + 2)?;
    // lower: L y = B, L^T x = y; upper: U^T y = B, U x = y.
    let (first, second) = if upper { (t, factor) } else { (factor, t) };
    let y = lc::triangular_solve(&la, first, b, n, true, false)?;
    lc::triangular_solve(&la, second, y, n, false, false)
}
