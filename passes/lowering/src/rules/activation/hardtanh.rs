//! `aten.hardtanh`: `Clip(x, min_val, max_val)`; the bounds may be numbers or values computed in the graph
//! (`t.item()`), cast to the type of `self`.

use melior::ir::ValueLike;
use crate::{builder::element_type, Rule};

pub const RULES: &[Rule] = &[Rule::custom("aten.hardtanh.default", |c| {
    let x = c.args.tensor("self")?;
    // Numbers or values computed in the graph (`t.item()`).
    let element = element_type(x.r#type()).ok_or("self is not a tensor")?;
    let (lo, hi) = (c.tensor_as("min_val", element)?, c.tensor_as("max_val", element)?);
    Ok(vec![c.b.onnx().clip(x, Some(lo), Some(hi)).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]", "self: T[2,3]; min_val: -0.5; max_val: 0.5"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8"])];
