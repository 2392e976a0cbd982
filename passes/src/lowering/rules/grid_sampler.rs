use super::grid_sampler_2d::grid_sampler_2d;
use crate::lowering::Rule;

/// F.grid_sample in TRAINING IR (4-D inputs: grid_sampler_2d's rule).
pub const RULES: &[Rule] = &[Rule::custom("aten.grid_sampler.default", grid_sampler_2d).samples(&[
    "input: T[1,2,4,5]; grid: T[1,3,4,2]; interpolation_mode: 0; padding_mode: 0; align_corners: false",
    "input: T[2,2,4,5]; grid: T[2,3,4,2]; interpolation_mode: 2; padding_mode: 2; align_corners: true",
])];
