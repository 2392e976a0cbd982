use super::lu_common::slogdet;
use crate::Rule;

/// `(sign, log|det|)` as torch computes them from the LU factorization of
/// `A^T`: `sign = sign(P) prod(sgn(diag U))` (0 for a singular matrix),
/// `logabsdet = sum(log|diag U|)` (-inf for a singular one); 0x0 gives
/// (1, 0).
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_slogdet.default", |c| {
    let (sign, logabsdet, _, _) = slogdet(c, "A")?;
    Ok(vec![sign, logabsdet])
})
.samples(&["A: T[3,3]", "A: T[2,4,4]", "A: T[1,1]", "A: T[0,0]", "A: T[6,6]{dd}", "A: T[3,2,2]"])
.dtypes(&["f32", "f64"])];
