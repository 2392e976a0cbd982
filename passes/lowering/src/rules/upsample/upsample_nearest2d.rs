//! `aten.upsample_nearest2d` (`.vec`, `.default`): torch's source index `min(floor(d * scale), in - 1)` per axis.
//! With the 2-D kernel's `out == in` and `out == 2 * in` shortcuts; ONNX `Resize` (nearest, asymmetric, floor)
//! for integer upsampling, else `Gather`s of the indices computed with torch's float32 formulas.

use super::upsample_common::{upsample, Mode};
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.upsample_nearest2d.vec", |c| upsample(c, Mode::Nearest, 2))
        .samples(&[
            "input: T[1,2,3,4]; output_size: none; scale_factors: [2.0,2.0]",
            "input: T[1,2,3,4]; output_size: [5,7]; scale_factors: none",
            "input: T[1,2,5,6]; output_size: none; scale_factors: [1.5,1.7]",
            "input: T[1,2,7,9]; output_size: none; scale_factors: [0.6,0.35]",
            "input: T[2,1,5,5]; output_size: none; scale_factors: [2.1,1.1]",
            "input: T[1,2,3,5]; output_size: none; scale_factors: [3.0,1.0]",
            "input: T[1,2,4,6]; output_size: [1,2]; scale_factors: none",
            "input: T[0,2,3,4]; output_size: none; scale_factors: [1.5,2.0]",
        ])
        .dtypes(&["f32"]),
    Rule::custom("aten.upsample_nearest2d.default", |c| upsample(c, Mode::Nearest, 2))
        .samples(&[
            "self: T[1,2,3,4]; output_size: [6,8]",
            "self: T[1,2,5,6]; output_size: [7,10]; scales_h: 1.5; scales_w: 1.7",
            "self: T[1,2,5,6]; output_size: [7,10]; scales_h: 1.5",
            // The 2-D kernel copies when out == in and shifts when out == 2 in, whatever the scale.
            "self: T[1,2,3,4]; output_size: [3,8]; scales_h: 1.3; scales_w: 3.0",
        ])
        .dtypes(&["f32"]),
];
