use super::fft_complex_common::r2c;
use crate::Rule;

/// `_fft_r2c(self, dim, normalization, onesided)` (core ATen): ONNX DFT
/// on the promoted input, see fft_complex_common.rs.
pub const RULES: &[Rule] = &[Rule::custom("aten._fft_r2c.default", r2c)
    .complex(r2c)
    .opsets(20, 28)
    .samples(&[
        "self: T[3,8]; dim: [1]; normalization: 0; onesided: false",
        "self: T[3,7]; dim: [1]; normalization: 2; onesided: true",
        "self: T[3,5,6]; dim: [0,2]; normalization: 1; onesided: true",
        "self: T[4,6]; dim: [0,1]; normalization: 0; onesided: false",
        "self: T[1]; dim: [0]; normalization: 0; onesided: true",
    ])
    .dtypes(&["f32", "f64"])];
