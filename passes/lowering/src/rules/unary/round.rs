//! `aten.round` (`.default`, `.decimals`): ONNX `Round` (half to even, as torch) on floats, integers returned
//! unchanged; `.decimals` is torch's `round(x * 10^d) / 10^d` (`round(x / 10^-d) * 10^-d` for d < 0).

use super::common::rounding;
use super::elementwise_common::round_decimals;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.round.default", |c| rounding(c, "Round"))
        .samples(&["self: T[2,3]", "self: T[0]", "self: T[]"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.round.decimals", round_decimals)
        .samples(&[
            "self: T[2,3]; decimals: 2",
            "self: T[2,3]; decimals: 0",
            "self: T[2,3]; decimals: -1",
            "self: T[]; decimals: 3",
            "self: T[0]; decimals: 1",
        ])
        // Not f16/bf16: torch rounds x * 10^d to the half type before rounding to an
        // integer; computed in float32 (onnx-widen-half) the scaling does not round.
        .dtypes(&["f32", "f64"]),
];
