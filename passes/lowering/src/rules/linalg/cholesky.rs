use super::cholesky_common::cholesky;
use crate::Rule;

/// `torch.cholesky(A, upper)` (deprecated alias), see linalg_cholesky_ex.rs.
pub const RULES: &[Rule] = &[Rule::custom("aten.cholesky.default", |c| {
    let upper = c.args.bool("upper")?;
    Ok(vec![cholesky(c, "self", upper)?.0])
})
.samples(&["self: T[3,3]{spd}", "self: T[2,4,4]{spd}; upper: true", "self: T[0,0]"])
.dtypes(&["f32", "f64"])];
