use crate::{builder, Ctx, IntArg, Rule};
use melior::ir::{Value, ValueLike};

/// `resize` (what aten-remove-inplace makes of `resize_`): the tensor's
/// elements in (contiguous) storage order, kept up to the new number of
/// elements and laid out in the new shape. Torch leaves the elements past
/// the old number uninitialized when the tensor grows; the lowering gives
/// zeros there. Only the default (contiguous) memory format: another one
/// lays the storage out differently.
pub const RULES: &[Rule] = &[Rule::custom("aten.resize.default", |c| {
    let size: Vec<i64> = c
        .args
        .sym_ints("size")?
        .into_iter()
        .map(|s| match s {
            IntArg::Static(v) if v >= 0 => Ok(v),
            IntArg::Static(v) => Err(format!("Trying to create tensor with negative dimension {v}")),
            IntArg::Dynamic(_) => Err("resize to a dynamic size is not supported".to_string()),
        })
        .collect::<Result<_, _>>()?;
    Ok(vec![resize_to(c, &size)?])
})
.samples(&[
    "self: T[5,5,5]; size: [25, 5]",
    "self: T[]; size: [1, 1, 1]",
    "self: T[2,6]; size: [5]",
    "self: T[3,4]; size: [0]",
    "self: T[1]; size: []",
])
.dtypes(&["f32", "i64", "bool"])];

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
