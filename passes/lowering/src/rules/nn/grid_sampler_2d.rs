//! `aten.grid_sampler_2d`: ONNX `GridSample` (opset 16): interpolation 0 / 1 / 2 = bilinear / nearest / bicubic
//! (named `linear` / `cubic` from opset 20), padding 0 / 1 / 2 = zeros / border / reflection, `align_corners`.

use super::grid_sample_common::grid_sampler_2d;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.grid_sampler_2d.default", grid_sampler_2d).samples(&[
    "input: T[1,2,4,5]; grid: T[1,3,4,2]; interpolation_mode: 0; padding_mode: 0; align_corners: false",
    "input: T[2,2,4,5]; grid: T[2,3,4,2]; interpolation_mode: 0; padding_mode: 1; align_corners: true",
    "input: T[1,3,5,4]; grid: T[1,6,2,2]; interpolation_mode: 0; padding_mode: 2; align_corners: false",
    "input: T[1,3,5,4]; grid: T[1,6,2,2]; interpolation_mode: 0; padding_mode: 2; align_corners: true",
    "input: T[1,2,4,5]; grid: T[1,3,4,2]; interpolation_mode: 1; padding_mode: 0; align_corners: false",
    "input: T[1,2,4,5]; grid: T[1,3,4,2]; interpolation_mode: 1; padding_mode: 1; align_corners: true",
    "input: T[1,2,4,5]; grid: T[1,3,4,2]; interpolation_mode: 2; padding_mode: 0; align_corners: false",
    "input: T[1,2,4,5]; grid: T[1,3,4,2]; interpolation_mode: 2; padding_mode: 1; align_corners: true",
])];
