//! `aten.grid_sampler_3d`: ONNX `GridSample` on a 5-D input, which needs opset 20: interpolation 0 / 1 =
//! trilinear (`linear`) / nearest (torch has no bicubic 3-D sampling), padding 0 / 1 / 2 = zeros / border /
//! reflection, `align_corners`.

use super::grid_sample_common::grid_sampler_3d;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.grid_sampler_3d.default", grid_sampler_3d)
    .opsets(20, 28)
    .samples(&[
        "input: T[1,2,3,4,5]; grid: T[1,2,3,4,3]; interpolation_mode: 0; padding_mode: 0; align_corners: false",
        "input: T[2,2,3,4,5]; grid: T[2,3,2,2,3]; interpolation_mode: 0; padding_mode: 1; align_corners: true",
        "input: T[1,3,4,3,2]; grid: T[1,2,2,5,3]; interpolation_mode: 0; padding_mode: 2; align_corners: false",
        "input: T[1,3,4,3,2]; grid: T[1,2,2,5,3]; interpolation_mode: 0; padding_mode: 2; align_corners: true",
        "input: T[1,2,3,4,5]; grid: T[1,2,3,4,3]; interpolation_mode: 1; padding_mode: 0; align_corners: false",
        "input: T[1,2,3,4,5]; grid: T[1,2,3,4,3]; interpolation_mode: 1; padding_mode: 1; align_corners: true",
        "input: T[1,2,3,4,5]; grid: T[1,2,3,4,3]; interpolation_mode: 1; padding_mode: 2; align_corners: false",
    ])
    .dtypes(&["f32"])];
