//! `torch.linalg.matrix_rank`, every overload, by one-sided Jacobi singular
//! values (see linalg_jacobi_common.rs). Tolerances follow torch's
//! `get_atol_rtol`; the legacy `tol` overloads are `atol = tol, rtol = 0`.
use super::linalg_jacobi_common::{matrix_rank_op, tol_arg, Tol};
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.linalg_matrix_rank.atol_rtol_tensor", |c| {
        let h = c.args.bool("hermitian")?;
        matrix_rank_op(c, "input", tol_arg(c, "atol", true)?, tol_arg(c, "rtol", true)?, h)
    })
    .samples(&[
        "input: T[3,4]",
        "input: T[5,3]",
        "input: T[2,3,4,4]",
        "input: T[3,3]; atol: T[]{unit}",
        "input: T[2,3,3]; atol: T[2]{unit}; rtol: T[2]{unit}",
        "input: T[4,4]; hermitian: true",
        "input: T[1,1]",
        "input: T[0,3]",
        "input: T[2,0,0]",
        "input: T[1,6]",
    ])
    .dtypes(&["f32", "f64"]),
    Rule::custom("aten.linalg_matrix_rank.atol_rtol_float", |c| {
        let h = c.args.bool("hermitian")?;
        matrix_rank_op(c, "self", tol_arg(c, "atol", false)?, tol_arg(c, "rtol", false)?, h)
    })
    .samples(&[
        "self: T[3,4]; rtol: 0.5",
        "self: T[4,3]; atol: 0.5",
        "self: T[2,3,3]; atol: 0.0; hermitian: true",
        "self: T[3,5]",
    ])
    .dtypes(&["f32", "f64"]),
    Rule::custom("aten.linalg_matrix_rank.default", |c| {
        let h = c.args.bool("hermitian")?;
        matrix_rank_op(c, "self", Tol::Float(c.args.float("tol")?), Tol::Float(0.0), h)
    })
    .samples(&["self: T[3,4]; tol: 0.5", "self: T[2,4,4]; tol: 1.0; hermitian: true"])
    .dtypes(&["f32", "f64"]),
    Rule::custom("aten.linalg_matrix_rank.tol_tensor", |c| {
        let h = c.args.bool("hermitian")?;
        matrix_rank_op(c, "input", Tol::Tensor(c.args.tensor("tol")?), Tol::Float(0.0), h)
    })
    .samples(&["input: T[3,4]; tol: T[]{unit}", "input: T[2,4,4]; tol: T[2]{unit}; hermitian: true"])
    .dtypes(&["f32", "f64"]),
];
