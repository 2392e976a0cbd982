//! `aten.upsample_nearest3d` (`.vec`, `.default`): torch's source index `min(floor(d * scale), in - 1)` per axis.
//! `scale` is `1 / scale_factor` when given, else `in / out`; ONNX `Resize` (nearest, asymmetric, floor) for
//! integer upsampling, else `Gather`s of the indices computed with torch's float32 formulas.

use super::upsample_common::{upsample, Mode};
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.upsample_nearest3d.vec", |c| upsample(c, Mode::Nearest, 3))
        .samples(&[
            "input: T[1,2,2,3,4]; output_size: none; scale_factors: [2.0,2.0,2.0]",
            "input: T[1,2,3,4,5]; output_size: none; scale_factors: [1.5,0.8,2.5]",
            "input: T[1,1,3,4,5]; output_size: [4,5,3]; scale_factors: none",
        ])
        .dtypes(&["f32"]),
    Rule::custom("aten.upsample_nearest3d.default", |c| upsample(c, Mode::Nearest, 3))
        .samples(&[
            "self: T[1,2,2,3,4]; output_size: [4,6,8]",
            "self: T[1,2,2,3,4]; output_size: [3,4,6]; scales_d: 1.5; scales_h: 1.5; scales_w: 1.6",
            // out == in and out == 2 in with other scales: the 3-D kernel maps with the scale (found by the sample fuzzer).
            "self: T[1,2,2,3,4]; output_size: [3,3,6]; scales_d: 1.5; scales_h: inf; scales_w: 1.6",
            "self: T[1,2,2,3,4]; output_size: [4,3,8]; scales_d: 3.0; scales_h: 1.3; scales_w: 2.0",
        ])
        .dtypes(&["f32"]),
];
