use super::lu_common::slogdet;
use crate::Rule;

/// `(sign, logabsdet, LU, pivots)`, see linalg_slogdet.rs.
pub const RULES: &[Rule] = &[Rule::custom("aten._linalg_slogdet.default", |c| {
    let (sign, logabsdet, lu, pivots) = slogdet(c, "A")?;
    Ok(vec![sign, logabsdet, lu, pivots])
})
.samples(&["A: T[3,3]", "A: T[2,4,4]", "A: T[0,0]", "A: T[5,5]{dd}"])
.dtypes(&["f32", "f64"])];
