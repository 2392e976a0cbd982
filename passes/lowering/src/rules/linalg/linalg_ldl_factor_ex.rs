use crate::Rule;

/// `(LD, pivots, info)`: LDL^T factorization of a symmetric `[*, n, n]`
/// (static n <= 16, lower triangle read) with LAPACK `sytrf`'s Bunch-Kaufman
/// pivots, unrolled (see ldl_common.rs): `LD` holds L below the diagonal and
/// the 1x1 / 2x2 blocks of D on the diagonal and subdiagonal (0 above),
/// `pivots` are LAPACK's 1-based int32 pivots (negative on both rows of a
/// 2x2 block), `info` the first zero column (1-based) or 0.
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_ldl_factor_ex.default", |c| {
    // check_errors=True: torch raises where info != 0, which a graph cannot
    // do; where torch returns, the results are the same.
    c.args.bool("check_errors")?;
    let (ld, pivots, info) = super::ldl_common::factor(c, "self")?;
    Ok(vec![ld, pivots, info])
})
.samples(&[
    "self: T[4,4]",
    "self: T[2,5,5]",
    "self: T[3,3]; hermitian: true",
    "self: T[6,6]{dd}",
    "self: T[1,1]",
    "self: T[0,0]",
    "self: T[2,0,0]",
    "self: T[0,3,3]",
])
.dtypes(&["f32", "f64"])
.refuses(&[("self: T[17,17]", "supports matrices up to 16x16")])];
