use super::matrix_exp_common::matrix_exp;
use crate::Rule;

/// `torch.linalg.matrix_exp` (what `matrix_exp` becomes in the core IR):
/// scaling and squaring in float64, see matrix_exp.rs.
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_matrix_exp.default", matrix_exp)
    .samples(&["self: T[3,3]", "self: T[2,4,4]", "self: T[1,1]", "self: T[0,0]", "self: T[2,0,0]"])
    .refuses(&[("self: f32[3,3]", "float32")])
    .dtypes(&["f64"])];
