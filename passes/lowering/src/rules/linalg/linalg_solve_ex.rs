use super::linalg_common::{self as lc, La};
use crate::{Ctx, Rule};
use melior::ir::Value;

/// `(X, info)` with `A X = B` (`left`) or `X A = B`, as torch computes it:
/// LU factorization of `A` with partial pivoting, then the triangular solves
/// (unrolled over the static n <= 16, see linalg_common.rs). `B` is a batch
/// of vectors when `B.ndim == 1` or `B.shape == A.shape[:-1]`. `info` is the
/// first zero pivot (1-based), 0 when `A` is invertible; the solution of a
/// singular system is inf/NaN (torch raises when `check_errors`, see
/// linalg_common.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_solve_ex.default", |c| {
    let (x, info) = solve_ex(c)?;
    Ok(vec![x, info])
})
.samples(&[
    "A: T[3,3]{dd}; B: T[3,2]",
    "A: T[3,3]{dd}; B: T[3]",
    "A: T[2,4,4]{dd}; B: T[2,4]",
    "A: T[2,4,4]{dd}; B: T[4,1]",
    "A: T[3,3]{dd}; B: T[2,3,2]",
    "A: T[3,3]{dd}; B: T[2,3]; left: false",
    "A: T[1,1]{dd}; B: T[1,1]",
    "A: T[0,0]; B: T[0,2]",
    "A: T[4,4]; B: T[4,3]",
])
.dtypes(&["f32", "f64"])
.refuses(&[("A: T[17,17]; B: T[17]", "up to 16x16")])];

/// `(X, info)` of linalg_solve_ex / linalg_solve (arguments `A`, `B`, `left`).
pub fn solve_ex<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let (x, _, _, info) = solve_parts(c)?;
    Ok((x, info))
}

/// `(X, LU, pivots, info)` (aten._linalg_solve_ex).
#[allow(clippy::type_complexity)]
pub fn solve_parts<'c, 'a>(
    c: &Ctx<'c, 'a>,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>), String> {
    // check_errors=True: torch raises where info != 0, which a graph cannot
    // do; where torch returns, the results are the same (see linalg_common.rs).
    let a = c.args.tensor("A")?;
    let b = c.args.tensor("B")?;
    let element = lc::float_element(a, "A")?;
    let left = c.args.bool("left")?;
    let la = La::new(c, element);
    let (x, f, batch) = lc::solve(&la, a, c.b.cast_like_type(b, element)?, left)?;
    let (n, _) = lc::square_dims(a, "A")?;
    let info = lc::lu_info(&la, f.lu, n, n, batch)?;
    let pivots = f.pivots_i32(&la, batch)?;
    Ok((x, f.lu, pivots, info))
}
