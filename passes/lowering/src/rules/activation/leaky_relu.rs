//! `aten.leaky_relu`: ONNX `LeakyRelu(x, alpha=negative_slope)`. A slope computed in the graph (`t.item()`)
//! cannot be an attribute: it is written out as `Where(x > 0, x, x * slope)`.

use melior::ir::ValueLike;
use super::act_common::leaky;
use crate::{builder::element_type, Rule};

pub const RULES: &[Rule] = &[Rule::custom("aten.leaky_relu.default", |c| {
    let x = c.args.tensor("self")?;
    if c.args.is_dynamic("negative_slope")? {
        // A slope computed in the graph (`t.item()`): written out.
        let slope = c.tensor_as("negative_slope", element_type(x.r#type()).ok_or("self is not a tensor")?)?;
        return Ok(vec![leaky(c, x, slope)?]);
    }
    let alpha = c.args.number("negative_slope")?.as_f64() as f32;
    Ok(vec![c.b.onnx().leaky_relu(x, Some(alpha)).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]", "self: T[2,3]; negative_slope: 0.2"]).dtypes(&["f32", "f16", "bf16", "f64"])];
