use super::matrix_exp_common::matrix_exp;
use crate::Rule;

/// `exp(A)` of square matrices `[*, n, n]` (static n) by scaling and
/// squaring, computed in float64: `s = max(0, ceil(log2(||A||_1)))` per
/// matrix, the degree-18 Taylor polynomial of `A / 2^s` (norm <= 1: the
/// truncation error is below 1/19! ~ 8e-18, float64 rounding), then `s`
/// squarings in an ONNX Loop of `max(s)` iterations (each matrix squares
/// while the iteration is below its own `s`). torch (ATen's `mexp`, an
/// optimized Taylor of degree 1..18 with its own scaling) computes the same
/// exponential to rounding; a matrix with a NaN or infinite entry gives NaN
/// everywhere, as torch does.
///
/// Float32 is refused: torch computes it in float32, whose rounding the
/// squarings amplify far beyond the 1e-4 relative tolerance on matrices of
/// moderate norm (an OpInfo sample, ||A||_1 = 27: torch's float32 result is
/// off by 3.5e-4 on an entry of 0.149, while this float64 graph matches
/// torch's float64 to 3e-9). A graph cannot reproduce torch's float32
/// rounding, so it would give silently different numbers; set
/// `LOWER_FLOAT32` (matrix_exp_common.rs) to lower float32 too (cast to float64 and back).
pub const RULES: &[Rule] = &[Rule::custom("aten.matrix_exp.default", matrix_exp)
    .samples(&[
        "self: T[3,3]",
        "self: T[2,4,4]",
        "self: T[1,1]",
        "self: T[0,0]",
        "self: T[0,3,3]",
        "self: T[2,0,0]",
        "self: T[2,3,3]{unit}",
    ])
    .refuses(&[("self: f32[3,3]", "float32")])
    .dtypes(&["f64"])];
