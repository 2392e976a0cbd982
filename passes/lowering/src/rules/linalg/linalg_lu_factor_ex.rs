use super::lu_common::lu_factor;
use crate::Rule;

/// `(LU, pivots, info)`: LU factorization with partial pivoting of
/// `[*, m, n]` (static m, n <= 16), LAPACK `getf2` unrolled (see
/// linalg_common.rs): packed LU, 1-based int32 pivots, `info` = first zero
/// on U's diagonal (1-based) or 0. Pivot choices are LAPACK's (first row of
/// largest |value|); on exactly tied candidates that rounding makes differ,
/// LAPACK's blocked code could choose another row.
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_lu_factor_ex.default", |c| {
    // check_errors=True: torch raises where info != 0, which a graph cannot
    // do; where torch returns, the results are the same (see linalg_common.rs).
    let (lu, pivots, info) = lu_factor(c, "A")?;
    Ok(vec![lu, pivots, info])
})
.samples(&["A: T[3,3]", "A: T[2,4,4]", "A: T[3,5]", "A: T[5,3]", "A: T[1,1]", "A: T[0,0]", "A: T[2,0,3]"])
.dtypes(&["f32", "f64"])];
