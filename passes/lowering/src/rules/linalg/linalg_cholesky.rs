use super::cholesky_common::cholesky;
use crate::Rule;

/// The Cholesky factor, see linalg_cholesky_ex.rs (torch raises when the
/// matrix is not positive-definite; the ONNX graph gives NaN there).
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_cholesky.default", |c| {
    let upper = c.args.bool("upper")?;
    Ok(vec![cholesky(c, "self", upper)?.0])
})
.samples(&["self: T[3,3]{spd}", "self: T[2,5,5]{spd}", "self: T[4,4]{spd}; upper: true", "self: T[0,0]"])
.dtypes(&["f32", "f64"])];
