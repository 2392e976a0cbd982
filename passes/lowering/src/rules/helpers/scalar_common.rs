//! The value of a one-element tensor (`.item()`) shared by _local_scalar_dense and item. Not a rule file.

use crate::{builder, Ctx};
use melior::ir::{Value, ValueLike};

/// `.item()`: a symbolic scalar is a one-element tensor (the convention of
/// `sym_size`); its element type is the result's (int64 for SymInt, f64
/// for SymFloat, i1 for SymBool).
pub fn scalar_value<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let n: Option<i64> = builder::dims(x.r#type()).and_then(|d| d.into_iter().product());
    if n.is_some_and(|n| n != 1) {
        return Err("item() of a tensor with more than one element".into());
    }
    let one = b.const_i64s(&[1])?;
    let flat = b.onnx().reshape(x, one, None).like(x)?;
    let result = ctx.result_type(0)?;
    let element = builder::element_type(result).unwrap_or(result);
    let ty = melior::ir::r#type::RankedTensorType::new(&[1], element, None).into();
    if builder::element_type(flat.r#type()) == Some(element) {
        return Ok(vec![b.onnx().identity(flat).typed(ty)?]);
    }
    let to = crate::onnx_ir::data_type_code(element).ok_or("no ONNX type for the scalar")?;
    Ok(vec![b.onnx().cast(flat, None, None, to).typed(ty)?])
}
