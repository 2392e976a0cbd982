//! The cross product shared by cross and linalg_cross. Not a rule file.

use crate::Ctx;
use melior::ir::Value;

/// `a x b` along `dim` (size 3), both broadcast: with `r1`/`r2` the
/// components rotated by one and two, `r1(a) r2(b) - r2(a) r1(b)`.
/// `dim = None` (cross.default): the first dim of size 3.
pub fn cross<'c, 'a>(ctx: &Ctx<'c, 'a>, dim: Option<i64>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let element = ctx.result_element(0)?;
    let (x, y) = (ctx.tensor_as("self", element)?, ctx.tensor_as("other", element)?);
    let out = crate::builder::dims(ctx.result_type(0)?).ok_or("unknown result rank")?;
    let rank = out.len();
    let dim = match dim {
        Some(d) => ctx.dim(d, rank)?,
        None => out.iter().position(|d| *d == Some(3)).ok_or("cross: no dimension of size 3")?,
    };
    if out[dim].is_some_and(|n| n != 3) {
        return Err(format!("cross: dimension {dim} does not have size 3"));
    }
    let shape = super::tensor_common::broadcast_shape(ctx, &[x, y])?;
    let x = b.onnx().expand(x, shape).like(x)?;
    let y = b.onnx().expand(y, shape).like(y)?;
    let rot = |v: Value<'c, 'a>, by: &[i64]| -> Result<Value<'c, 'a>, String> {
        let idx = b.const_i64s(by)?;
        b.onnx().gather(v, idx, Some(dim as i64)).like(v)
    };
    let (x1, x2, y1, y2) = (rot(x, &[1, 2, 0])?, rot(x, &[2, 0, 1])?, rot(y, &[1, 2, 0])?, rot(y, &[2, 0, 1])?);
    let p = b.onnx().mul(x1, y2).like(x)?;
    let q = b.onnx().mul(x2, y1).like(x)?;
    Ok(vec![ctx.b.onnx().sub(p, q).typed(ctx.result_type(0)?)?])
}
