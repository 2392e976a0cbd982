use super::lu_common::solve_ex;
use crate::Rule;

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
