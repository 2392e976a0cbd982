use crate::{Ctx, Rule};
use melior::ir::Value;

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

/// F.grid_sample on a 5-D input: ONNX GridSample, which takes N-D inputs from
/// opset 20 (trilinear = `linear`). Modes 0 / 1 = bilinear (trilinear) /
/// nearest; torch has no bicubic 3-D sampling. Padding 0/1/2 = zeros /
/// border / reflection.
pub(super) fn grid_sampler_3d<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("input")?;
    let grid = c.args.tensor("grid")?;
    if crate::builder::rank(c.result_type(0)?) != Some(5) {
        return Err("grid_sampler_3d expects a 5-D input".into());
    }
    if c.b.opset < 20 {
        return Err("5-D GridSample needs opset 20 or later".into());
    }
    let mode = match c.args.int("interpolation_mode")? {
        0 => "linear",
        1 => "nearest",
        m => {
            return Err(format!("grid_sampler_3d interpolation mode {m} (torch has only bilinear and nearest in 3-D)"))
        }
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
