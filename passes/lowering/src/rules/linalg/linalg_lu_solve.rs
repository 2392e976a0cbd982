use super::linalg_common::{self as lc, La};
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

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

/// The solve from the named arguments.
pub fn lu_solve<'c, 'a>(
    c: &Ctx<'c, 'a>,
    lu: &str,
    pivots: &str,
    b: &str,
    left: bool,
    adjoint: bool,
) -> Result<Value<'c, 'a>, String> {
    let lu = c.args.tensor(lu)?;
    let pivots = c.args.tensor(pivots)?;
    let b = c.args.tensor(b)?;
    let element = lc::float_element(lu, "LU")?;
    let (n, batch) = lc::square_dims(lu, "LU")?;
    lc::matrix_dims(b, "B")?;
    let b_rank = builder::rank(b.r#type()).ok_or("B has an unknown rank")?;
    let la = La::new(c, element);
    let b = c.b.cast_like_type(b, element)?;
    let f = lc::lu_from_parts(&la, lu, pivots, n)?;
    lc::lu_solve_sided(&la, &f, b, n, batch + 2, b_rank, left, adjoint)
}
