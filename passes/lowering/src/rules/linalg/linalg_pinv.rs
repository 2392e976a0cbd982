//! `torch.linalg.pinv`, every overload, by one-sided Jacobi SVD (see
//! linalg_jacobi_common.rs). Tolerances follow torch's `get_atol_rtol`;
//! the legacy `rcond` overloads are `atol = 0, rtol = rcond`.
use super::linalg_jacobi_common::{pinv_op, tol_arg, Tol};
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.linalg_pinv.atol_rtol_tensor", |c| {
        let h = c.args.bool("hermitian")?;
        pinv_op(c, "self", tol_arg(c, "atol", true)?, tol_arg(c, "rtol", true)?, h)
    })
    .samples(&[
        "self: T[3,4]",
        "self: T[5,3]",
        "self: T[2,4,4]",
        "self: T[2,3,2,5]; rtol: T[]{unit}",
        "self: T[3,3]; atol: f64[]{unit}",
        "self: T[3,3]; atol: T[2]{unit}; rtol: T[2]{unit}",
        "self: T[4,4]; hermitian: true",
        "self: T[4,4]{spd}; hermitian: true",
        "self: T[1,1]",
        "self: T[1,3]",
        "self: T[0,3]",
        "self: T[2,0,0]",
        "self: T[6,7]",
    ])
    .dtypes(&["f32", "f64"]),
    Rule::custom("aten.linalg_pinv.atol_rtol_float", |c| {
        let h = c.args.bool("hermitian")?;
        pinv_op(c, "self", tol_arg(c, "atol", false)?, tol_arg(c, "rtol", false)?, h)
    })
    .samples(&[
        "self: T[3,4]; rtol: 0.5",
        "self: T[4,3]; atol: 0.5",
        "self: T[4,3]; atol: 0.0",
        "self: T[2,3,3]; atol: 0.1; rtol: 0.2; hermitian: true",
        "self: T[3,5]",
    ])
    .dtypes(&["f32", "f64"]),
    Rule::custom("aten.linalg_pinv.default", |c| {
        let h = c.args.bool("hermitian")?;
        pinv_op(c, "self", Tol::Float(0.0), Tol::Float(c.args.float("rcond")?), h)
    })
    .samples(&["self: T[3,4]; rcond: 0.001", "self: T[2,4,4]; rcond: 0.5; hermitian: true"])
    .dtypes(&["f32", "f64"]),
    Rule::custom("aten.linalg_pinv.rcond_tensor", |c| {
        let h = c.args.bool("hermitian")?;
        pinv_op(c, "self", Tol::Float(0.0), Tol::Tensor(c.args.tensor("rcond")?), h)
    })
    .samples(&["self: T[3,4]; rcond: T[]{unit}", "self: T[2,4,4]; rcond: T[2]{unit}; hermitian: true"])
    .dtypes(&["f32", "f64"]),
];
