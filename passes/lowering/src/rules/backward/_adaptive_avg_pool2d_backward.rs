use super::adaptive_pool_common::bins;
use super::avg_pool2d_backward::{box_taps, positions, sizes, window_backward, Win};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten._adaptive_avg_pool2d_backward.default", |c| adaptive_backward(c, 2)).samples(&[
    "grad_output: T[2,3,2,2]; self: T[2,3,4,4]",
    "grad_output: T[1,2,3,4]; self: T[1,2,7,5]",
    "grad_output: T[2,1,1]; self: T[2,5,3]",
])];

/// The adaptive bins are the windows; each divides by its size.
pub(super) fn adaptive_backward<'c, 'a>(c: &Ctx<'c, 'a>, spatial: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let (input, out) = sizes(c, spatial)?;
    let per_axis: Vec<Vec<(i64, i64)>> = (0..spatial).map(|a| bins(input[a], out[a])).collect();
    let windows: Vec<Win> = positions(&out)
        .into_iter()
        .map(|pos| {
            let starts: Vec<i64> = (0..spatial).map(|a| per_axis[a][pos[a] as usize].0).collect();
            let ends: Vec<i64> = (0..spatial).map(|a| per_axis[a][pos[a] as usize].1).collect();
            let taps = box_taps(&input, &starts, &ends);
            Win { divisor: taps.len().max(1) as f64, taps }
        })
        .collect();
    window_backward(c, spatial, &windows)
}
