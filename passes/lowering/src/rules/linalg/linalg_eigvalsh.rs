//! `torch.linalg.eigvalsh` by cyclic Jacobi on the symmetric matrix read
//! from the `UPLO` triangle (see linalg_jacobi_common.rs); ascending.
use super::linalg_jacobi_common::eigh_values_op;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_eigvalsh.default", |c| eigh_values_op(c, "self", false))
    .samples(&[
        "self: T[4,4]",
        "self: T[4,4]; UPLO: \"U\"",
        "self: T[2,3,5,5]",
        "self: T[3,3]{spd}",
        "self: T[1,1]",
        "self: T[0,0]",
        "self: T[2,0,0]",
        "self: T[7,7]; UPLO: \"U\"",
    ])
    .dtypes(&["f32", "f64"])];
