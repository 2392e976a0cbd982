use melior::ir::ValueLike;
use super::math_common::unranked_bool;
use crate::{builder::element_type, Rule};

/// torch: `-lambd <= x <= lambd ? 0 : x` (NaN kept: it fails both tests).
pub const RULES: &[Rule] = &[Rule::custom("aten.hardshrink.default", |c| {
    let x = c.args.tensor("self")?;
    let b = &c.b;
    // A number or a value computed in the graph (`t.item()`).
    let l = c.tensor_as("lambd", element_type(x.r#type()).ok_or("self is not a tensor")?)?;
    let ge = c.b.onnx().greater_or_equal(x, b.onnx().neg(l).like(l)?).typed(unranked_bool(c))?;
    let le = c.b.onnx().less_or_equal(x, l).typed(unranked_bool(c))?;
    let inside = c.b.onnx().and(ge, le).typed(unranked_bool(c))?;
    Ok(vec![c.b.onnx().where_(inside, b.const_like(x, 0.0)?, x).typed(c.result_type(0)?)?])
})
.samples(&["self: T[3,4]", "self: T[3,4]; lambd: 1.5", "self: T[3,4]; lambd: -0.5", "self: T[]", "self: T[0,2]"])
.dtypes(&["f32", "f64", "f16", "bf16"])];
