//! `aten.upsample_nearest1d` (`.vec`, `.default`): torch's source index `min(floor(d * scale), in - 1)`. `scale`
//! is `1 / scale_factor` when given, else `in / out`; ONNX `Resize` (nearest, asymmetric, floor) for integer
//! upsampling, else a `Gather` of the indices computed with torch's float32 formulas.

use super::upsample_common::{upsample, Mode};
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.upsample_nearest1d.vec", |c| upsample(c, Mode::Nearest, 1))
        .samples(&[
            "input: T[1,2,5]; output_size: none; scale_factors: [2.0]",
            "input: T[1,2,5]; output_size: none; scale_factors: [1.5]",
            "input: T[2,3,7]; output_size: none; scale_factors: [0.45]",
            "input: T[1,2,5]; output_size: [8]; scale_factors: none",
            // out == in with a scale != 1: the 1-D kernel maps with the scale.
            "input: T[1,2,3]; output_size: none; scale_factors: [1.3]",
        ])
        .dtypes(&["f32"]),
    Rule::custom("aten.upsample_nearest1d.default", |c| upsample(c, Mode::Nearest, 1))
        .samples(&[
            "self: T[1,2,5]; output_size: [7]",
            "self: T[1,2,5]; output_size: [7]; scales: 1.5",
            "self: T[1,2,3]; output_size: [3]; scales: 1.3",
            "self: T[1,2,3]; output_size: [6]; scales: 3.0",
            "self: T[1,2,3]; output_size: [3]; scales: inf",
        ])
        .dtypes(&["f32"]),
];
