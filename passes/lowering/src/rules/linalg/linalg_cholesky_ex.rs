use super::cholesky_common::cholesky;
use crate::Rule;

/// `(L, info)`: Cholesky factor of a symmetric positive-definite `[*, n, n]`
/// (static n <= 16), unrolled LAPACK `potf2` (see linalg_common.rs). Reads
/// the lower triangle (`upper=False`, `L L^T = A`) or the upper one
/// (`upper=True`, `U^T U = A`) like LAPACK; the other triangle of the result
/// is 0. `info` is the order of the first leading minor that is not
/// positive-definite (0 when `A` is); `L` is then NaN from that column on
/// (torch leaves LAPACK's partial work there, which the docs do not specify).
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_cholesky_ex.default", |c| {
    // check_errors=True: torch raises where info != 0, which a graph cannot
    // do; where torch returns, the results are the same (see linalg_common.rs).
    let upper = c.args.bool("upper")?;
    let (l, info) = cholesky(c, "self", upper)?;
    Ok(vec![l, info])
})
.samples(&[
    "self: T[3,3]{spd}",
    "self: T[2,4,4]{spd}",
    "self: T[3,3]{spd}; upper: true",
    "self: T[1,1]{spd}",
    "self: T[0,0]",
    "self: T[2,0,0]",
])
.dtypes(&["f32", "f64"])];
