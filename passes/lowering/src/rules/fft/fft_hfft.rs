use super::fft_common::{rule, Kind};
use crate::Rule;

/// `fft_hfft` of a real input (torch promotes it to complex inside the op):
/// ONNX DFT, see fft_common.rs.
pub const RULES: &[Rule] = &[Rule::custom("aten.fft_hfft.default", |c| rule(c, Kind::Hfft, true, None))
    .complex(|c| super::fft_complex_common::fft(c, super::fft_complex_common::Kind::Hfft, true, None))
    .complex_samples(&[
        "self: C[3,5]",
        "self: C[3,5]; n: 7; dim: 0; norm: \"ortho\"",
        "self: C[4,6]; n: 4; norm: \"forward\"",
    ])
    .opsets(20, 28)
    .samples(&[
        "self: T[5,6,7]; n: 10; dim: 1; norm: \"ortho\"",
        "self: T[5,6,7]; norm: \"forward\"",
        "self: T[5,6,7]; n: 7",
        "self: T[31]",
        "self: T[5,6,7]; dim: -2",
        "self: T[2]",
    ])
    .dtypes(&["f32", "f64", "i64", "bool"])];
