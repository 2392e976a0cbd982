use super::grid_sample_common::{grid_sampler_2d, grid_sampler_3d};
use crate::{Ctx, Rule};
use melior::ir::Value;

/// F.grid_sample in TRAINING IR: one op for 4-D and 5-D inputs, lowered by
/// grid_sampler_2d's or grid_sampler_3d's rule after the input's rank.
pub const RULES: &[Rule] = &[Rule::custom("aten.grid_sampler.default", grid_sampler).samples(&[
    "input: T[1,2,4,5]; grid: T[1,3,4,2]; interpolation_mode: 0; padding_mode: 0; align_corners: false",
    "input: T[2,2,4,5]; grid: T[2,3,4,2]; interpolation_mode: 2; padding_mode: 2; align_corners: true",
    "input: T[1,2,3,4,5]; grid: T[1,2,3,4,3]; interpolation_mode: 0; padding_mode: 0; align_corners: false",
    "input: T[2,2,3,4,5]; grid: T[2,3,2,2,3]; interpolation_mode: 1; padding_mode: 2; align_corners: true",
])];

fn grid_sampler<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    match c.rank(c.args.tensor("input")?)? {
        5 => grid_sampler_3d(c),
        _ => grid_sampler_2d(c),
    }
}
