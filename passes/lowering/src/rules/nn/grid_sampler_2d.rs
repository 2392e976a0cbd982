use crate::{Ctx, Rule};
use melior::ir::Value;

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

/// ONNX GridSample (opset 16): interpolation 0/1/2 = bilinear / nearest /
/// bicubic (named linear / nearest / cubic from opset 20), padding 0/1/2 =
/// zeros / border / reflection.
pub(super) fn grid_sampler_2d<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("input")?;
    let grid = c.args.tensor("grid")?;
    if c.rank(x)? != 4 {
        return Err("grid_sampler_2d expects a 4-D input".into());
    }
    let new_names = c.b.opset >= 20;
    let mode = match c.args.int("interpolation_mode")? {
        0 => if new_names { "linear" } else { "bilinear" },
        1 => "nearest",
        2 => if new_names { "cubic" } else { "bicubic" },
        m => return Err(format!("grid_sampler interpolation mode {m}")),
    };
    let padding = match c.args.int("padding_mode")? {
        0 => "zeros",
        1 => "border",
        2 => "reflection",
        m => return Err(format!("grid_sampler padding mode {m}")),
    };
    let align_corners = c.args.bool("align_corners")? as i64;
    let node = c.b.onnx().grid_sample(x, grid, Some(align_corners), Some(mode), Some(padding));
    Ok(vec![node.typed(c.result_type(0)?)?])
}
