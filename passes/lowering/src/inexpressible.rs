//! ATen ops that have no faithful ONNX expression, with the reason for each.
//!
//! `convert-aten-to-onnx` checks every op before it changes anything. An op
//! without a rule whose base name is listed here (all overloads: the table is
//! keyed by the op name, `linalg_lstsq` covers `linalg_lstsq.default`,
//! `linalg_lstsq.out`, ...) is reported under "have no ONNX
//! expression", separately from the ops whose lowering is "not yet
//! implemented", so a user knows which ones no future rule will lower:
//!
//! ```text
//! 2 op(s) of 2 kind(s) have no ONNX expression (refused at every opset):
//!   aten.linalg_eig.default: 1x, e.g. node 'linalg_eig' at model.py:4:0 -- needs an eigendecomposition: ...
//! ```
//!
//! What makes an op inexpressible here: ONNX has no operator for it, and the
//! result is defined by an iterative LAPACK algorithm (general eigen-solvers:
//! the signs/order of eigenvectors are whatever that algorithm produces)
//! or by rank decisions of a LAPACK driver (lstsq). (Complex tensors are
//! lowered as real views with a trailing dim of 2, lowering/complex.rs:
//! complex FFTs have rules.) Ops whose results a static-size graph
//! reproduces (det, inverse, solve, Cholesky, triangular solves, LU with
//! partial pivoting, LDL with Bunch-Kaufman pivoting (sytrf/sytrs,
//! rules/helpers/ldl_common.rs), Householder QR: geqrf/orgqr/ormqr; and the unique
//! results of SVDs and symmetric eigen-solvers — singular values,
//! eigvalsh, pinv, matrix_rank, cond, spectral/nuclear norms — by Jacobi
//! rotations in an ONNX Loop, rules/helpers/linalg_jacobi_common.rs, whose rules
//! refuse used singular/eigen-vectors) have rules instead and must not appear here (a test
//! checks that no op has both).
//!
//! `aten-opt --list-rules` prints this table after the rules (entries with an
//! `"inexpressible"` reason) and `tools/gen/gen_coverage.py` shows it in
//! docs/coverage.md.

/// One op that ONNX cannot express.
#[derive(Clone, Copy, Debug)]
pub struct Inexpressible {
    /// The ATen op name without overload (`linalg_qr`): every overload.
    pub op: &'static str,
    /// Why, in one sentence for the error message.
    pub reason: &'static str,
}

const EIG: &str = "needs an eigendecomposition: ONNX has no eigen-solver and eigenvalues are computed by an iterative \
                   algorithm (data-dependent number of sweeps, LAPACK's sign conventions for eigenvectors)";

/// The table (sorted by op name).
pub const OPS: &[Inexpressible] = &[
    Inexpressible { op: "_linalg_eigvals", reason: EIG },
    Inexpressible { op: "linalg_eig", reason: EIG },
    Inexpressible { op: "linalg_eigvals", reason: EIG },
    Inexpressible {
        op: "linalg_lstsq",
        reason: "least squares through LAPACK gelsy/gelsd/gelss (pivoted QR or SVD with rank decisions): ONNX has no \
                 such operator",
    },
];

/// The reason why the op `aten.<op>.<overload>` has no ONNX expression, if
/// the table lists its op name.
pub fn reason(target: &str) -> Option<&'static str> {
    let (op, _) = crate::aten_ir::split_name(target)?;
    OPS.iter().find(|e| e.op == op).map(|e| e.reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_unique_and_disjoint_from_the_rules() {
        for pair in OPS.windows(2) {
            assert!(pair[0].op < pair[1].op, "not sorted or duplicated: {} / {}", pair[0].op, pair[1].op);
        }
        for rule in crate::all_rules() {
            assert!(reason(rule.target).is_none(), "{} has a rule and is listed as inexpressible", rule.target);
        }
        assert!(reason("aten.linalg_eig.default").is_some());
        assert!(reason("aten.linalg_lstsq.default").is_some());
        assert!(reason("aten.linalg_ldl_factor.default").is_none());
        assert!(reason("aten.add.Tensor").is_none());
        for entry in OPS {
            assert!(!aten2onnx_dialects::aten::overloads(entry.op).is_empty(), "{} is not an ATen op", entry.op);
        }
    }
}
