use super::fft_complex_common::{fft, Kind};
use crate::Rule;

/// `fft_ihfft2` through ONNX DFT, see fft_complex_common.rs.
pub const RULES: &[Rule] = &[Rule::custom("aten.fft_ihfft2.default", |c| fft(c, Kind::Ihfft, false, Some(&[-2, -1])))
    .complex(|c| fft(c, Kind::Ihfft, false, Some(&[-2, -1])))
    .opsets(20, 28)
    .samples(&[
        "self: T[3,4,5]",
        "self: T[3,4,5]; s: [6,3]; norm: \"ortho\"",
        "self: T[3,4,5]; dim: [0,-1]; norm: \"forward\"",
    ])
    .dtypes(&["f32", "f64", "i64", "bool"])
    .complex_samples(&[])];
