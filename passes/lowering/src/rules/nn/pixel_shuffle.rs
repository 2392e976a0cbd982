use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.pixel_shuffle.default", pixel_shuffle)
    .samples(&[
        "self: T[1,8,3,3]; upscale_factor: 2",
        "self: T[2,9,2,3]; upscale_factor: 3",
        "self: T[8,3,3]; upscale_factor: 2",
        "self: T[2,1,4,2,2]; upscale_factor: 2",
        "self: T[0,4,2,2]; upscale_factor: 2",
    ])
    .dtypes(&["f32", "f16", "f64", "i64", "i32", "i8", "u8", "bool"])];

/// `(*, C r^2, H, W) -> (*, C, H r, W r)`. A 4-D float tensor: DepthToSpace
/// (torch's channel order is its "CRD" mode). Other ranks and types (no
/// onnxruntime kernel for integer or bool DepthToSpace): the same move
/// spelled out, Reshape to (B, C, r, r, H, W), Transpose (0, 1, 4, 2, 5, 3),
/// Reshape back.
fn pixel_shuffle<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let r = c.args.int("upscale_factor")?;
    if r <= 0 {
        return Err(format!("pixel_shuffle: upscale_factor must be positive, got {r}"));
    }
    let rank = c.rank(x)?;
    if rank < 3 {
        return Err(format!("pixel_shuffle needs at least 3 dims, got {rank}"));
    }
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    if rank == 4 && builder::is_float(element) {
        return Ok(vec![c.b.onnx().depth_to_space(x, r, Some("CRD")).typed(c.result_type(0)?)?]);
    }
    let b = &c.b;
    let i64_t = b.i64_type();
    let shape = b.shape(x)?;
    let part = |from: i64, to: i64| -> Result<Value<'c, 'a>, String> {
        b.onnx().slice(shape, b.const_i64s(&[from])?, b.const_i64s(&[to])?, None, None).typed(b.unranked(i64_t))
    };
    let lead = rank as i64 - 3;
    let batch = part(0, lead)?;
    let (ch, h, w) = (part(lead, lead + 1)?, part(lead + 1, lead + 2)?, part(lead + 2, lead + 3)?);
    let flat = c.reduce(crate::Reduction::Prod, batch, None, true, b.unranked(i64_t))?;
    let out_c = b.onnx().div(ch, b.const_i64s(&[r * r])?).typed(b.unranked(i64_t))?;
    let rr = b.const_i64s(&[r, r])?;
    let six = b.onnx().concat(&[flat, out_c, rr, h, w], 0).typed(b.unranked(i64_t))?;
    let y = b.onnx().reshape(x, six, Some(1)).like(x)?;
    let y = b.onnx().transpose(y, Some(&[0, 1, 4, 2, 5, 3])).like(x)?;
    let rv = b.const_i64s(&[r])?;
    let back = b.onnx().concat(&[batch, out_c, b.onnx().mul(h, rv).typed(b.unranked(i64_t))?, b.onnx().mul(w, rv).typed(b.unranked(i64_t))?], 0).typed(b.unranked(i64_t))?;
    Ok(vec![c.b.onnx().reshape(y, back, Some(1)).typed(c.result_type(0)?)?])
}

