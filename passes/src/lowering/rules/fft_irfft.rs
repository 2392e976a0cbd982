use super::fft_common::{rule, Kind};
use crate::lowering::Rule;

/// `fft_irfft` of a real input (torch promotes it to complex inside the op):
/// ONNX DFT, see fft_common.rs.
pub const RULES: &[Rule] = &[Rule::custom("aten.fft_irfft.default", |c| rule(c, Kind::Irfft, true, None))
    .opsets(20, 28)
    .samples(&[
        "self: T[5,6,7]; n: 10; dim: 1; norm: \"ortho\"",
        "self: T[5,6,7]; norm: \"forward\"",
        "self: T[5,6,7]; n: 7",
        "self: T[31]",
        "self: T[5,6,7]; dim: -3",
        "self: T[1,2]",
        "self: T[4,3]; n: 1",
    ])
    .dtypes(&["f32", "f64"])];
