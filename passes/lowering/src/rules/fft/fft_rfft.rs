use super::fft_complex_common::{fft, Kind};
use crate::Rule;

/// `fft_rfft` through ONNX DFT, see fft_complex_common.rs.
pub const RULES: &[Rule] = &[Rule::custom("aten.fft_rfft.default", |c| fft(c, Kind::Rfft, true, None))
    .complex(|c| fft(c, Kind::Rfft, true, None))
    .opsets(20, 28)
    .samples(&[
        "self: T[3,8]",
        "self: T[3,7]; n: 10; dim: 0; norm: \"ortho\"",
        "self: T[5,6]; n: 4; norm: \"forward\"",
        "self: T[9]; dim: -1; norm: \"backward\"",
    ])
    .dtypes(&["f32", "f64", "i64", "bool"])
    .complex_samples(&[])];
