use super::fft_complex_common::{fft, Kind};
use crate::Rule;

/// `fft_fftn` through ONNX DFT, see fft_complex_common.rs.
pub const RULES: &[Rule] = &[Rule::custom("aten.fft_fftn.default", |c| fft(c, Kind::Fft, false, None))
    .complex(|c| fft(c, Kind::Fft, false, None))
    .opsets(20, 28)
    .samples(&[
        "self: T[3,4,5]",
        "self: T[3,4,5]; s: [6,3]; norm: \"ortho\"",
        "self: T[3,4,5]; dim: [0,-1]; norm: \"forward\"",
        "self: T[3,4,5]; s: [2,-1]; dim: [2,0]",
    ])
    .dtypes(&["f32", "f64", "i64", "bool"])
    .complex_samples(&[
        "self: C[3,4,5]",
        "self: C[3,4,5]; s: [6,3]; norm: \"ortho\"",
        "self: C[3,4,5]; dim: [0,-1]; norm: \"forward\"",
    ])];
