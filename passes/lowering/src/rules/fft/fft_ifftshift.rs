use super::fftshift_common::shift;
use crate::Rule;

/// `ifftshift`: the inverse roll of `fftshift` (see fft_fftshift.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten.fft_ifftshift.default", |c| shift(c, true))
    .samples(&[
        "self: T[9,10]",
        "self: T[50]; dim: [0]",
        "self: T[5,11]; dim: [1]",
        "self: T[5,6,2]; dim: [0, -1]",
        "self: T[0,3]",
    ])
    .dtypes(&["f32", "i64", "bool"])];
