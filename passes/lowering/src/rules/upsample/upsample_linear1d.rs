//! `aten.upsample_linear1d` (`.vec`, `.default`): torch's linear interpolation with its float32 coordinates.
//! ONNX `Resize` (linear) where its mapping gives torch's (`align_corners`, no scale, `out == in`, or
//! `out == in * scale` exactly), else `Gather`s of constant indices blended with constant weights.

use super::upsample_common::{upsample, Mode};
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.upsample_linear1d.vec", |c| upsample(c, Mode::Linear, 1))
        .samples(&[
            "input: T[1,2,5]; output_size: none; align_corners: false; scale_factors: [2.0]",
            "input: T[1,2,5]; output_size: none; align_corners: true; scale_factors: [2.0]",
            "input: T[1,2,5]; output_size: none; align_corners: false; scale_factors: [1.7]",
            "input: T[1,2,7]; output_size: none; align_corners: false; scale_factors: [0.6]",
            "input: T[1,2,5]; output_size: none; align_corners: false; scale_factors: [1.1]",
            "input: T[1,2,5]; output_size: [8]; align_corners: false; scale_factors: none",
            "input: T[1,2,5]; output_size: [1]; align_corners: false; scale_factors: none",
            "input: T[1,2,5]; output_size: [1]; align_corners: true; scale_factors: none",
        ])
        .dtypes(&["f32"]),
    Rule::custom("aten.upsample_linear1d.default", |c| upsample(c, Mode::Linear, 1))
        .samples(&[
            "self: T[1,2,5]; output_size: [7]; align_corners: false",
            "self: T[1,2,5]; output_size: [7]; align_corners: false; scales: 1.5",
            "self: T[1,2,5]; output_size: [7]; align_corners: true; scales: 1.5",
        ])
        .dtypes(&["f32"]),
];
