use super::fft_common::{rule, Kind};
use crate::Rule;

/// `fft_irfft2` of a real input (torch promotes it to complex inside the op):
/// ONNX DFT, see fft_common.rs.
pub const RULES: &[Rule] = &[Rule::custom("aten.fft_irfft2.default", |c| rule(c, Kind::Irfft, false, Some(&[-2, -1])))
    .complex(|c| super::fft_complex_common::fft(c, super::fft_complex_common::Kind::Irfft, false, Some(&[-2, -1])))
    .complex_samples(&[
        "self: C[3,4,5]",
        "self: C[3,4,5]; s: [6,3]; norm: \"ortho\"",
        "self: C[3,4,5]; dim: [0,-1]; norm: \"forward\"",
    ])
    .opsets(20, 28)
    .samples(&[
        "self: T[5,6,7]; s: [3, 10]; dim: [1, 2]; norm: \"ortho\"",
        "self: T[5,6,7]; norm: \"forward\"",
        "self: T[5,6,7]; s: [6, 8]",
        "self: T[5,6,7]; dim: [0]",
        "self: T[5,6,7]; dim: [0, -1]",
        "self: T[5,6,7]; dim: [-3, -2, -1]",
        "self: T[1,2]",
    ])
    .dtypes(&["f32", "f64", "i64", "bool"])];
