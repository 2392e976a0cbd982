use super::linalg_common::{self as lc, La};
use crate::Rule;

/// `(X, A)` with `A X = B` (`A^T X = B` when `transpose`) for a triangular
/// `A` (only its `upper` or lower triangle read, unit diagonal when
/// `unitriangular`); the second result is `A` broadcast to the batch.
/// LAPACK `trtrs`, unrolled over the static n <= 16 (see linalg_common.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten.triangular_solve.default", |c| {
    let b = c.args.tensor("self")?;
    let a = c.args.tensor("A")?;
    let (upper, transpose, unit) = (c.args.bool("upper")?, c.args.bool("transpose")?, c.args.bool("unitriangular")?);
    let element = lc::float_element(a, "A")?;
    let (n, batch) = lc::square_dims(a, "A")?;
    lc::matrix_dims(b, "self")?;
    let la = La::new(c, element);
    let b = c.b.cast_like_type(b, element)?;
    let b = la.expand_batch(b, a)?;
    let a_full = la.expand_batch(a, b)?;
    let (t, lower) = if transpose { (la.transpose(a, batch + 2)?, upper) } else { (a, !upper) };
    let x = lc::triangular_solve(&la, t, b, n, lower, unit)?;
    Ok(vec![x, a_full])
})
.samples(&[
    "self: T[3,2]; A: T[3,3]{dd}",
    "self: T[3,2]; A: T[3,3]{dd}; upper: false",
    "self: T[2,4,1]; A: T[2,4,4]{dd}; transpose: true",
    "self: T[3,2]; A: T[3,3]{dd}; upper: false; transpose: true; unitriangular: true",
    "self: T[2,3,2]; A: T[3,3]{dd}",
    "self: T[0,2]; A: T[0,0]",
])
.dtypes(&["f32", "f64"])];
