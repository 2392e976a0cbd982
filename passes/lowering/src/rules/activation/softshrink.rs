use melior::ir::ValueLike;
use super::math_common::unranked_bool;
use crate::{builder::element_type, Rule};

/// torch: `x > l ? x - l : (x < -l ? x + l : x * 0)` (NaN stays NaN).
pub const RULES: &[Rule] = &[Rule::custom("aten.softshrink.default", |c| {
    let x = c.args.tensor("self")?;
    let b = &c.b;
    if !c.args.is_dynamic("lambd")? {
        let l = c.args.number("lambd")?.as_f64();
        if l < 0.0 {
            return Err(format!("softshrink: lambda must be non-negative, got {l}"));
        }
    }
    // A number or a value computed in the graph (`t.item()`).
    let lp = c.tensor_as("lambd", element_type(x.r#type()).ok_or("self is not a tensor")?)?;
    let (ln, zero) = (b.onnx().neg(lp).like(lp)?, b.const_like(x, 0.0)?);
    let gt = c.b.onnx().greater(x, lp).typed(unranked_bool(c))?;
    let lt = c.b.onnx().less(x, ln).typed(unranked_bool(c))?;
    let mid = b.onnx().mul(x, zero).like(x)?;
    let low = b.onnx().where_(lt, b.onnx().add(x, lp).like(x)?, mid).like(x)?;
    Ok(vec![c.b.onnx().where_(gt, b.onnx().sub(x, lp).like(x)?, low).typed(c.result_type(0)?)?])
})
.samples(&["self: T[3,4]", "self: T[3,4]; lambd: 1.5", "self: T[3,4]; lambd: 0", "self: T[]", "self: T[0,2]"])
.dtypes(&["f32", "f64", "f16", "bf16"])];
