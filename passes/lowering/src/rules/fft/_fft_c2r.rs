use super::fft_complex_common::c2r_prim;
use crate::Rule;

/// `_fft_c2r(self, dim, normalization, last_dim_size)` (core ATen): the
/// Hermitian spectrum completed, a complex inverse DFT, the real part; see
/// fft_complex_common.rs.
pub const RULES: &[Rule] =
    &[Rule::custom("aten._fft_c2r.default", c2r_prim).complex(c2r_prim).opsets(20, 28).samples(&[]).complex_samples(
        &[
            "self: C[3,5]; dim: [1]; normalization: 0; last_dim_size: 8",
            "self: C[3,5]; dim: [1]; normalization: 2; last_dim_size: 9",
            "self: C[4,3,4]; dim: [0,2]; normalization: 1; last_dim_size: 6",
            "self: C[3,3]; dim: [1]; normalization: 0; last_dim_size: 4",
            "self: C[3,1]; dim: [1]; normalization: 0; last_dim_size: 1",
        ],
    )];
