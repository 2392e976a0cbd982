use super::common::dim_size;
use super::tensor_common::concat;
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.pixel_unshuffle.default", pixel_unshuffle)
    .samples(&["self: T[1,2,4,6]; downscale_factor: 2", "self: T[3,6,3]; downscale_factor: 3", "self: T[2,1,2,4,4]; downscale_factor: 2", "self: T[1,1,0,1]; downscale_factor: 1", "self: T[2,0,4,2]; downscale_factor: 2"])
    .dtypes(&["f32", "i64"])];

/// `[*, C, H*r, W*r] -> [*, C*r*r, H, W]`: channel `c*r*r + i*r + j` takes
/// pixel (i, j) of each r x r block (not SpaceToDepth's order).
fn pixel_unshuffle<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let r = c.args.int("downscale_factor")?;
    let dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
    let rank = dims.len();
    if rank < 3 {
        return Err("pixel_unshuffle needs at least 3 dims".into());
    }
    if r <= 0 {
        return Err(format!("pixel_unshuffle: downscale_factor must be positive, got {r}"));
    }
    let chw: Option<Vec<i64>> = dims[rank - 3..].iter().copied().collect();
    let Some(chw) = chw else {
        return dynamic_unshuffle(c, x, r, rank);
    };
    let (ch, h, w) = (chw[0], chw[1], chw[2]);
    if h % r != 0 || w % r != 0 {
        return Err(format!("pixel_unshuffle of {h}x{w} by {r}"));
    }
    // An empty input: torch returns it as it is (its shape, not the
    // unshuffled one); the result type says which.
    if dims.contains(&Some(0)) {
        let out = builder::dims(c.result_type(0)?).ok_or("unknown result rank")?;
        if let Some(shape) = out.iter().copied().collect::<Option<Vec<i64>>>() {
            let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
            let zero = c.b.const_scalar(element, 0.0)?;
            return Ok(vec![c.b.onnx().expand(zero, c.b.const_i64s(&shape)?).typed(c.result_type(0)?)?]);
        }
    }
    let i64t = c.b.unranked(c.b.i64_type());
    let lead = c.b.onnx().shape(x, Some(rank as i64 - 3), None).typed(i64t)?;
    let lead_n = c.reduce(crate::Reduction::Prod, lead, None, true, i64t)?;
    let lead_n = c.b.onnx().reshape(lead_n, c.b.const_i64s(&[1])?, None).typed(i64t)?;
    let s6 = c.b.onnx().concat(&[lead_n, c.b.const_i64s(&[ch, h / r, r, w / r, r])?], 0).typed(i64t)?;
    // allowzero: a 0 in these shapes is a real size 0 (an empty H or W), not
    // "copy the input dim".
    let y = c.b.onnx().reshape(x, s6, Some(1)).like(x)?;
    let y = c.b.onnx().transpose(y, Some(&[0, 1, 3, 5, 2, 4])).like(x)?;
    let out = c.b.onnx().concat(&[lead, c.b.const_i64s(&[ch * r * r, h / r, w / r])?], 0).typed(i64t)?;
    Ok(vec![c.b.onnx().reshape(y, out, Some(1)).typed(c.result_type(0)?)?])
}

/// The same move with C, H or W dynamic: the sizes read from the shape (an
/// H or W that r does not divide fails in the Reshape, as torch refuses it).
fn dynamic_unshuffle<'c, 'a>(c: &Ctx<'c, 'a>, x: Value<'c, 'a>, r: i64, rank: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &c.b;
    let i64t = b.unranked(b.i64_type());
    let lead_end = rank as i64 - 3;
    let dim = |d: i64| dim_size(c, x, d);
    let lead = b.onnx().shape(x, Some(lead_end), None).typed(i64t)?;
    let lead_n = c.reduce(crate::Reduction::Prod, lead, None, true, i64t)?;
    let lead_n = b.onnx().reshape(lead_n, b.const_i64s(&[1])?, None).typed(i64t)?;
    let rv = b.const_i64s(&[r])?;
    let (ch, h, w) = (dim(lead_end)?, b.onnx().div(dim(lead_end + 1)?, rv).typed(i64t)?, b.onnx().div(dim(lead_end + 2)?, rv).typed(i64t)?);
    let s6 = concat(c, &[lead_n, ch, h, rv, w, rv])?;
    let y = b.onnx().reshape(x, s6, Some(1)).like(x)?;
    let y = b.onnx().transpose(y, Some(&[0, 1, 3, 5, 2, 4])).like(x)?;
    let out_c = b.onnx().mul(ch, b.const_i64s(&[r * r])?).typed(i64t)?;
    let out = concat(c, &[lead, out_c, h, w])?;
    // An empty input keeps its own shape (torch's quirk, see above).
    let shape = b.shape(x)?;
    let count = c.reduce(crate::Reduction::Prod, shape, None, false, i64t)?;
    let bool_t = b.unranked(melior::ir::r#type::IntegerType::new(b.context, 1).into());
    let empty = b.onnx().equal(count, b.const_i64_scalar(0)?).typed(bool_t)?;
    let out = b.onnx().where_(empty, shape, out).typed(i64t)?;
    Ok(vec![c.b.onnx().reshape(y, out, Some(1)).typed(c.result_type(0)?)?])
}
