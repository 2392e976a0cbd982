//! `torch.linalg.eigh` when only the eigenvalues are used (eigenvectors
//! without uses); used eigenvectors are refused: they are not unique (see
//! linalg_jacobi_common.rs).
use super::linalg_jacobi_common::eigh_values_op;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_eigh.default", |c| eigh_values_op(c, "self", true))
    .samples(&["self: T[4,4]; returns: [0]", "self: T[2,3,3]; UPLO: \"U\"; returns: [0]"])
    .dtypes(&["f32", "f64"])
    .refuses(&[("self: T[3,3]", "not unique")])];
