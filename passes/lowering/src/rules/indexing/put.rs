use crate::{builder, Rule};
use melior::ir::ValueLike;

/// `torch.put(x, index, source, accumulate)`: `x` flattened, the elements
/// at `index` (flat, negative from the end) set to (or, accumulating,
/// increased by) `source`, reshaped back: `ScatterElements` on axis 0. Bool
/// accumulation is a logical or (added as int32, then != 0).
pub const RULES: &[Rule] = &[Rule::custom("aten.put.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let element = c.result_element(0)?;
    let minus_one = b.const_i64s(&[-1])?;
    let flat = b.onnx().reshape(x, minus_one, None).like(x)?;
    let index = b.cast_like_type(c.args.tensor("index")?, b.i64_type())?;
    let index = b.onnx().reshape(index, minus_one, None).like(index)?;
    let source = c.tensor_as("source", element)?;
    let source = b.onnx().reshape(source, minus_one, None).like(x)?;
    let accumulate = c.args.bool("accumulate")?;
    let out = if !accumulate {
        b.onnx().scatter_elements(flat, index, source, Some(0), None).like(x)?
    } else {
        if builder::is_bool(element) {
            let i32_type = melior::ir::r#type::IntegerType::new(b.context, 32).into();
            let (f, s) = (b.cast(flat, i32_type)?, b.cast(source, i32_type)?);
            let sum = b.onnx().scatter_elements(f, index, s, Some(0), Some("add")).like(f)?;
            b.cast(sum, element)?
        } else {
            b.onnx().scatter_elements(flat, index, source, Some(0), Some("add")).like(x)?
        }
    };
    let _ = out.r#type();
    Ok(vec![c.b.onnx().reshape(out, b.shape(x)?, None).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[3,4]; index: i64[3]{0..12}; source: T[3]",
    "self: T[3,4]; index: i64[2,2]{-12..12}; source: T[4]; accumulate: true",
    "self: T[3,4]; index: i64[5]{0..4}; source: T[5]; accumulate: true",
    "self: T[]; index: i64[1]{0..1}; source: T[1]",
    "self: T[3]; index: i64[0]; source: T[0]",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64"])];
