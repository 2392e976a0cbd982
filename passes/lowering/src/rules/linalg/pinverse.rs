//! `torch.pinverse(A, rcond)`: `linalg.pinv(A, atol=0, rtol=rcond)` (see
//! linalg_jacobi_common.rs).
use super::linalg_jacobi_common::{pinv_op, Tol};
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.pinverse.default", |c| {
    pinv_op(c, "self", Tol::Float(0.0), Tol::Float(c.args.float("rcond")?), false)
})
.samples(&["self: T[3,4]", "self: T[2,5,3]; rcond: 0.1", "self: T[0,2]"])
.dtypes(&["f32", "f64"])];
