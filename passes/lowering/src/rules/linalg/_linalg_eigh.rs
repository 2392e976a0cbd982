//! `aten._linalg_eigh` (what eigvalsh decomposes to in the core IR) when
//! only the eigenvalues are used: `compute_v=False`, or eigenvectors left
//! unused. Used eigenvectors are refused: they are not unique (see
//! linalg_jacobi_common.rs).
use super::linalg_jacobi_common::eigh_values_op;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten._linalg_eigh.default", |c| {
    let v = c.args.bool("compute_v")?;
    eigh_values_op(c, "A", v)
})
.samples(&[
    "A: T[4,4]; compute_v: false",
    "A: T[2,3,3]; UPLO: \"U\"; compute_v: false",
    "A: T[0,0]; compute_v: false",
    "A: T[5,5]; returns: [0]",
])
.dtypes(&["f32", "f64"])
.refuses(&[("A: T[3,3]", "not unique")])];
