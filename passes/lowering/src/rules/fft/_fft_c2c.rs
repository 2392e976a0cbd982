use super::fft_complex_common::c2c_prim;
use crate::Rule;

/// `_fft_c2c(self, dim, normalization, forward)` (core ATen): ONNX DFT, see
/// fft_complex_common.rs.
pub const RULES: &[Rule] =
    &[Rule::custom("aten._fft_c2c.default", c2c_prim).complex(c2c_prim).opsets(20, 28).samples(&[]).complex_samples(
        &[
            "self: C[3,8]; dim: [1]; normalization: 0; forward: true",
            "self: C[3,7]; dim: [1]; normalization: 2; forward: false",
            "self: C[3,5,6]; dim: [0,2]; normalization: 1; forward: true",
            "self: C[4,6]; dim: [0,1]; normalization: 0; forward: false",
            "self: C[2,3]; dim: []; normalization: 0; forward: true",
        ],
    )];
