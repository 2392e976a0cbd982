//! `aten.full`: `Expand` of the fill value to `size`: a constant for a recorded number, else the graph value
//! (`torch.full(size, t.item())`) reshaped to 0-d and cast to the result type.

use super::common::filled;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.full.default", |c| {
    let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
    match c.args.tensor_or_number("fill_value")? {
        Err(number) => filled(c, shape, number.as_f64()),
        // A symbolic fill value (`torch.full(size, t.item())`): a one-element
        // tensor, cast to the result type and expanded.
        Ok(value) => {
            let element = c.result_element(0)?;
            let scalar = c.b.onnx().reshape(value, c.b.const_i64s(&[])?, None).like(value)?;
            let scalar = c.b.cast_like_type(scalar, element)?;
            Ok(vec![c.b.onnx().expand(scalar, shape).typed(c.result_type(0)?)?])
        }
    }
})
.samples(&["size: [2,3]; fill_value: 1.5", "size: [2]; fill_value: 3; dtype: dtype(i64)", "size: [0,2]; fill_value: 1"])];
