//! Dtype conversion and resizing shared by to / _to_copy and resize / resize_as. Not a rule file.

use crate::{builder, Ctx};
use melior::ir::{Value, ValueLike};

/// A dtype conversion (device, layout and memory format do not exist in
/// ONNX): a Cast to the result's element type, or nothing.
pub(super) fn convert<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let target = ctx.result_element(0)?;
    if builder::element_type(x.r#type()) == Some(target) {
        return Ok(vec![x]);
    }
    Ok(vec![ctx.b.cast(x, target)?])
}

/// `self` resized to the static shape `size` (see the rule above).
pub(super) fn resize_to<'c, 'a>(c: &Ctx<'c, 'a>, size: &[i64]) -> Result<Value<'c, 'a>, String> {
    if !c.args.is_none("memory_format")? && c.args.string("memory_format")? != "contiguous_format" {
        return Err(
            "resize with a memory format lays the storage out differently; only the default is supported".into()
        );
    }
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let m: i64 = size.iter().product();
    let flat = b.onnx().reshape(x, b.const_i64s(&[-1])?, None).like(x)?;
    let numel: Option<i64> = builder::dims(x.r#type()).and_then(|d| d.into_iter().product());
    let kept = match numel {
        Some(n) if m <= n => {
            b.onnx().slice(flat, b.const_i64s(&[0])?, b.const_i64s(&[m])?, Some(b.const_i64s(&[0])?), None).like(x)?
        }
        Some(n) => b.onnx().pad(flat, b.const_i64s(&[0, m - n])?, None, None, None).like(x)?,
        None => {
            // Pad by max(m - n, 0), then keep the first m.
            let n = b.onnx().size(x).typed(b.unranked(b.i64_type()))?;
            let n = c.unsqueeze(n, &[0])?;
            let grow = b.onnx().sub(b.const_i64s(&[m])?, n).like(n)?;
            let grow = b.onnx().max(&[grow, b.const_i64s(&[0])?]).like(n)?;
            let pads = b.onnx().concat(&[b.const_i64s(&[0])?, grow], 0).typed(b.unranked(b.i64_type()))?;
            let padded = b.onnx().pad(flat, pads, None, None, None).like(x)?;
            b.onnx().slice(padded, b.const_i64s(&[0])?, b.const_i64s(&[m])?, Some(b.const_i64s(&[0])?), None).like(x)?
        }
    };
    c.b.onnx().reshape(kept, b.const_i64s(size)?, None).typed(c.result_type(0)?)
}
