//! `aten.fft_fftshift`: a roll of each listed dim (all when `dim` is None) by `n // 2`, as
//! `Concat(x[n - s:], x[:n - s])`; along a dynamic dim the split point is computed in the graph. 0-d tensors
//! are refused, as by torch's roll.

use super::fftshift_common::shift;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.fft_fftshift.default", |c| shift(c, false))
    .samples(&[
        "self: T[9,10]",
        "self: T[50]; dim: [0]",
        "self: T[5,11]; dim: [1]",
        "self: T[5,6,2]; dim: [0, -1]",
        "self: T[0,3]",
    ])
    .dtypes(&["f32", "i64", "bool"])];
