use crate::Rule;

/// `X` with `A X = B`, `A` given by `linalg.ldl_factor`'s `(LD, pivots)`:
/// LAPACK `sytrs` (`uplo = 'L'`) unrolled over the static n <= 16, the 1x1 /
/// 2x2 block structure read from the signs of the pivots at run time (see
/// ldl_common.rs). B's batch broadcasts against LD's; LD's batch dims must be
/// none or the result's (torch's CPU kernel does not broadcast LD: other
/// batches are refused; not a differential sample, since libtorch itself
/// reads past LD there).
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_ldl_solve.default", |c| Ok(vec![super::ldl_common::solve(c)?]))
    .samples(&[
        // 1x1 blocks, each exchanging its row with the last.
        "LD: T[4,4]{dd}; pivots: i32[4]{4..5}; B: T[4,2]",
        // 2x2 blocks on (1, 2) and (3, 4), exchanging row 2 with row 4.
        "LD: T[4,4]{dd}; pivots: i32[4]{-4..-3}; B: T[4,3]",
        "LD: T[2,6,6]{dd}; pivots: i32[2,6]{-6..-5}; B: T[2,6,1]",
        "LD: T[3,3]{dd}; pivots: i32[3]{3..4}; B: T[2,3,2]; hermitian: true",
        "LD: T[2,5,5]{dd}; pivots: i64[2,5]{5..6}; B: T[5,2]",
        "LD: T[3,3]{dd}; pivots: i32[3]{3..4}; B: T[3,0]",
        "LD: T[0,0]; pivots: i32[0]; B: T[0,2]",
    ])
    .dtypes(&["f32", "f64"])
    .refuses(&[("LD: T[17,17]; pivots: i32[17]{17..18}; B: T[17,1]", "supports matrices up to 16x16")])];
