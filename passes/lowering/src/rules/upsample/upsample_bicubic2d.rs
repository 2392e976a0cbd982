//! `aten.upsample_bicubic2d` (`.vec`, `.default`): torch's bicubic interpolation with its float32 coordinates.
//! ONNX `Resize` (cubic) where its mapping gives torch's (integer upsampling, dynamic sizes with no scale), else
//! per axis `Gather`s of constant indices blended with constant weights (four taps clamped to the border).
//! Integer inputs are refused: torch's integer kernels use fixed-point weights.

use super::upsample_common::{upsample, Mode};
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.upsample_bicubic2d.vec", |c| upsample(c, Mode::Cubic, 2))
        .samples(&[
            "input: T[1,2,3,4]; output_size: none; align_corners: false; scale_factors: [2.0,2.0]",
            "input: T[1,2,3,4]; output_size: none; align_corners: true; scale_factors: [2.0,2.0]",
            "input: T[1,2,5,6]; output_size: none; align_corners: false; scale_factors: [1.5,1.7]",
            "input: T[1,2,7,9]; output_size: none; align_corners: false; scale_factors: [0.6,0.35]",
            "input: T[1,2,4,6]; output_size: [4,6]; align_corners: false; scale_factors: none",
            "input: T[1,2,4,6]; output_size: [1,3]; align_corners: false; scale_factors: none",
            "input: T[1,2,4,6]; output_size: [1,3]; align_corners: true; scale_factors: none",
            "input: T[1,2,3,4]; output_size: [5,7]; align_corners: true; scale_factors: none",
            "input: T[1,2,3,4]; output_size: [6,12]; align_corners: false; scale_factors: none",
            "input: T[1,2,3,4]; output_size: none; align_corners: false; scale_factors: [3.0,1.0]",
            "input: T[1,2,3,4]; output_size: none; align_corners: true; scale_factors: [3.0,2.0]",
        ])
        .dtypes(&["f32"]),
    Rule::custom("aten.upsample_bicubic2d.default", |c| upsample(c, Mode::Cubic, 2))
        .samples(&[
            "self: T[1,2,3,4]; output_size: [6,8]; align_corners: false",
            "self: T[1,2,5,6]; output_size: [7,10]; align_corners: false; scales_h: 1.5; scales_w: 1.7",
        ])
        .dtypes(&["f32"]),
];
