//! Cholesky factorization and solve of tensor arguments, shared by cholesky, linalg_cholesky(_ex), cholesky_solve and cholesky_inverse. Not a rule file.

use super::linalg_common::{self as lc, La};
use crate::Ctx;
use melior::ir::Value;

/// `(factor, info)` of the tensor argument `name`.
pub fn cholesky<'c, 'a>(c: &Ctx<'c, 'a>, name: &str, upper: bool) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let a = c.args.tensor(name)?;
    let element = lc::float_element(a, name)?;
    let (n, batch) = lc::square_dims(a, name)?;
    let la = La::new(c, element);
    // The upper triangle of A is the lower one of A^T; U = L^T.
    let input = if upper { la.transpose(a, batch + 2)? } else { a };
    let (l, flags) = lc::cholesky(&la, input, n, batch)?;
    let factor = if upper { la.transpose(l, batch + 2)? } else { l };
    let info = lc::info_from_flags(&la, flags, a)?;
    Ok((factor, info))
}

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
