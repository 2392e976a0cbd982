//! ATen ops that have no faithful ONNX expression, with the reason for each.
//!
//! `convert-aten-to-onnx` checks every op before it changes anything. An op
//! without a rule whose base name is listed here (all overloads: the table is
//! keyed by the op name, `linalg_pinv` covers `linalg_pinv.atol_rtol_tensor`,
//! `linalg_pinv.atol_rtol_float`, ...) is reported under "have no ONNX
//! expression", separately from the ops whose lowering is "not yet
//! implemented", so a user knows which ones no future rule will lower:
//!
//! ```text
//! 2 op(s) of 2 kind(s) have no ONNX expression (refused at every opset):
//!   aten.linalg_qr.default: 1x, e.g. node 'linalg_qr' at model.py:4:0 -- QR decomposition: ...
//! ```
//!
//! What makes an op inexpressible here: ONNX has no operator for it, and the
//! result is defined by an iterative LAPACK algorithm (SVD, eigen-solvers:
//! the number of sweeps depends on the data, the signs/order of singular and
//! eigen-vectors are whatever that algorithm produces), or by a LAPACK
//! routine's exact output format (Householder reflectors of `geqrf`,
//! Bunch-Kaufman pivots of `sytrf`) that an unrolled graph could only imitate
//! approximately; or the op's values are complex, which ONNX's operators
//! (Add, MatMul, ...) do not accept. Ops whose results a static-size graph
//! reproduces (det, inverse, solve, Cholesky, triangular solves, LU with
//! partial pivoting) have rules instead and must not appear here (a test
//! checks that no op has both).
//!
//! `aten-opt --list-rules` prints this table after the rules (entries with an
//! `"inexpressible"` reason) and `tools/gen_coverage.py` shows it in
//! docs/coverage.md.

/// One op that ONNX cannot express.
#[derive(Clone, Copy, Debug)]
pub struct Inexpressible {
    /// The ATen op name without overload (`linalg_qr`): every overload.
    pub op: &'static str,
    /// Why, in one sentence for the error message.
    pub reason: &'static str,
}

const QR: &str = "QR decomposition: ONNX has no QR operator, and an unrolled Householder QR would not reproduce \
                  LAPACK geqrf's reflectors and signs exactly";
const SVD: &str = "needs a singular value decomposition: ONNX has no SVD operator and SVD is an iterative algorithm \
                   (data-dependent number of sweeps, LAPACK's sign and order conventions)";
const EIG: &str = "needs an eigendecomposition: ONNX has no eigen-solver and eigenvalues are computed by an iterative \
                   algorithm (data-dependent number of sweeps, LAPACK's sign conventions for eigenvectors)";
const LDL: &str = "LDL factorization with LAPACK sytrf's Bunch-Kaufman pivoting (1x1/2x2 blocks, LAPACK's pivot \
                   encoding): ONNX has no such operator and an unrolled graph would not reproduce its pivot choices";
const COMPLEX_FFT: &str = "FFT with complex input or output: ONNX operators have no complex element type (ONNX DFT \
                           stores complex numbers as a trailing dimension of 2), so complex tensors have no ONNX value";

/// The table (sorted by op name).
pub const OPS: &[Inexpressible] = &[
    Inexpressible { op: "_fft_c2c", reason: COMPLEX_FFT },
    Inexpressible { op: "_fft_c2r", reason: COMPLEX_FFT },
    Inexpressible { op: "_fft_r2c", reason: COMPLEX_FFT },
    Inexpressible { op: "_linalg_eigh", reason: EIG },
    Inexpressible { op: "_linalg_eigvals", reason: EIG },
    Inexpressible { op: "_linalg_svd", reason: SVD },
    Inexpressible { op: "fft_fft", reason: COMPLEX_FFT },
    Inexpressible { op: "fft_fft2", reason: COMPLEX_FFT },
    Inexpressible { op: "fft_fftn", reason: COMPLEX_FFT },
    Inexpressible { op: "fft_ifft", reason: COMPLEX_FFT },
    Inexpressible { op: "fft_ifft2", reason: COMPLEX_FFT },
    Inexpressible { op: "fft_ifftn", reason: COMPLEX_FFT },
    Inexpressible { op: "fft_ihfft", reason: COMPLEX_FFT },
    Inexpressible { op: "fft_ihfft2", reason: COMPLEX_FFT },
    Inexpressible { op: "fft_ihfftn", reason: COMPLEX_FFT },
    Inexpressible { op: "fft_rfft", reason: COMPLEX_FFT },
    Inexpressible { op: "fft_rfft2", reason: COMPLEX_FFT },
    Inexpressible { op: "fft_rfftn", reason: COMPLEX_FFT },
    Inexpressible { op: "geqrf", reason: QR },
    Inexpressible {
        op: "linalg_cond",
        reason: "the default p=None (and p=2, -2, 'nuc') needs singular values (SVD), which ONNX cannot compute; \
                 p=1, -1, inf, -inf, 'fro' (norm(A) * norm(inv(A))) would be expressible but have no rule yet",
    },
    Inexpressible { op: "linalg_eig", reason: EIG },
    Inexpressible { op: "linalg_eigh", reason: EIG },
    Inexpressible { op: "linalg_eigvals", reason: EIG },
    Inexpressible { op: "linalg_eigvalsh", reason: EIG },
    Inexpressible {
        op: "linalg_householder_product",
        reason: "applies geqrf-style Householder reflectors (part of LAPACK's QR family, orgqr); only meaningful with \
                 geqrf's output, which ONNX cannot compute",
    },
    Inexpressible { op: "linalg_ldl_factor", reason: LDL },
    Inexpressible { op: "linalg_ldl_factor_ex", reason: LDL },
    Inexpressible { op: "linalg_ldl_solve", reason: LDL },
    Inexpressible {
        op: "linalg_lstsq",
        reason: "least squares through LAPACK gelsy/gelsd/gelss (pivoted QR or SVD with rank decisions): ONNX has no \
                 such operator",
    },
    Inexpressible { op: "linalg_matrix_rank", reason: SVD },
    Inexpressible { op: "linalg_pinv", reason: SVD },
    Inexpressible { op: "linalg_qr", reason: QR },
    Inexpressible { op: "linalg_svd", reason: SVD },
    Inexpressible { op: "linalg_svdvals", reason: SVD },
    Inexpressible {
        op: "matrix_exp",
        reason: "matrix exponential by scaling and squaring with a norm-dependent Pade/Taylor degree and number of \
                 squarings: not implemented as an ONNX graph (a fixed expansion would be wrong for large norms)",
    },
    Inexpressible {
        op: "ormqr",
        reason:
            "multiplies by geqrf's Householder reflectors (LAPACK's QR family): only meaningful with geqrf's output, \
                 which ONNX cannot compute",
    },
    Inexpressible { op: "pinverse", reason: SVD },
    Inexpressible { op: "qr", reason: QR },
    Inexpressible { op: "svd", reason: SVD },
];

/// The reason why the op `aten.<op>.<overload>` has no ONNX expression, if
/// the table lists its op name.
pub fn reason(target: &str) -> Option<&'static str> {
    let (op, _) = crate::aten_ir::split_name(target)?;
    OPS.iter().find(|e| e.op == op).map(|e| e.reason)
}

/// The reason given for an op without a rule whose operands or results are
/// complex tensors.
pub const COMPLEX_REASON: &str =
    "its tensors are complex: ONNX operators have no complex element type, so complex values have no ONNX expression";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_unique_and_disjoint_from_the_rules() {
        for pair in OPS.windows(2) {
            assert!(pair[0].op < pair[1].op, "not sorted or duplicated: {} / {}", pair[0].op, pair[1].op);
        }
        for rule in crate::lowering::all_rules() {
            assert!(reason(rule.target).is_none(), "{} has a rule and is listed as inexpressible", rule.target);
        }
        assert!(reason("aten.linalg_pinv.atol_rtol_tensor").is_some());
        assert!(reason("aten.linalg_qr.default").is_some());
        assert!(reason("aten.add.Tensor").is_none());
        for entry in OPS {
            assert!(!aten2onnx_dialects::aten::overloads(entry.op).is_empty(), "{} is not an ATen op", entry.op);
        }
    }
}
