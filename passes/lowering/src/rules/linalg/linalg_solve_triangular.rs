use super::linalg_common::{self as lc, La};
use crate::{builder, Rule};
use melior::ir::ValueLike;

/// `X` with `A X = B` (`left`) or `X A = B` for a triangular `A` (only its
/// `upper` or lower triangle read, its diagonal taken as ones when
/// `unitriangular`), LAPACK `trsm` unrolled over the static n <= 16 (see
/// linalg_common.rs), batch dims broadcast.
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_solve_triangular.default", |c| {
    let a = c.args.tensor("self")?;
    let b = c.args.tensor("B")?;
    let (upper, left, unit) = (c.args.bool("upper")?, c.args.bool("left")?, c.args.bool("unitriangular")?);
    let element = lc::float_element(a, "A")?;
    let (n, batch) = lc::square_dims(a, "A")?;
    lc::matrix_dims(b, "B")?;
    let b_rank = builder::rank(b.r#type()).ok_or("B has an unknown rank")?;
    let la = La::new(c, element);
    let b = c.b.cast_like_type(b, element)?;
    if left {
        let b = la.expand_batch(b, a)?;
        return Ok(vec![lc::triangular_solve(&la, a, b, n, !upper, unit)?]);
    }
    // X A = B  <=>  A^T X^T = B^T (A^T's triangle is the other one).
    let at = la.transpose(a, batch + 2)?;
    let bt = la.transpose(b, b_rank)?;
    let bt = la.expand_batch(bt, a)?;
    let xt = lc::triangular_solve(&la, at, bt, n, upper, unit)?;
    Ok(vec![la.transpose(xt, b_rank.max(batch + 2))?])
})
.samples(&[
    "self: T[3,3]{dd}; B: T[3,2]; upper: true",
    "self: T[3,3]{dd}; B: T[3,2]; upper: false",
    "self: T[2,4,4]{dd}; B: T[2,4,3]; upper: true; unitriangular: true",
    "self: T[3,3]{dd}; B: T[2,3]; upper: true; left: false",
    "self: T[3,3]{dd}; B: T[2,3]; upper: false; left: false; unitriangular: true",
    "self: T[3,3]{dd}; B: T[2,3,1]; upper: false",
    "self: T[0,0]; B: T[0,2]; upper: true",
])
.dtypes(&["f32", "f64"])];
