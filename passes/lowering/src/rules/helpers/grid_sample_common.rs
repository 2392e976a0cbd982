//! ONNX GridSample shared by grid_sampler_2d, grid_sampler_3d and grid_sampler. Not a rule file.

use crate::Ctx;
use melior::ir::Value;

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
        0 => {
            if new_names {
                "linear"
            } else {
                "bilinear"
            }
        }
        1 => "nearest",
        2 => {
            if new_names {
                "cubic"
            } else {
                "bicubic"
            }
        }
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
