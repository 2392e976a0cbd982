use crate::Rule;

/// `Elu`; torch's `scale` and `input_scale` (which only scales the
/// exponent of the negative branch) written out when not 1.
pub const RULES: &[Rule] = &[Rule::custom("aten.elu.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    if c.args.is_dynamic("alpha")? || c.args.is_dynamic("scale")? || c.args.is_dynamic("input_scale")? {
        // Values computed in the graph (`t.item()`).
        let e = c.opmath_element()?;
        let (alpha, scale) = (c.tensor_as("alpha", e)?, c.tensor_as("scale", e)?);
        return Ok(vec![super::act_common::elu_args(c, x, alpha, scale, c.tensor_as("input_scale", e)?)?]);
    }
    let alpha = c.args.number("alpha")?.as_f64();
    let scale = c.args.number("scale")?.as_f64();
    let input_scale = c.args.number("input_scale")?.as_f64();
    if scale == 1.0 && input_scale == 1.0 {
        return Ok(vec![c.b.onnx().elu(x, Some(alpha as f32)).typed(c.result_type(0)?)?]);
    }
    // scale * (x if x > 0 else alpha * (exp(x * input_scale) - 1))
    let e = b.onnx().exp(b.onnx().mul(x, b.const_like(x, input_scale)?).like(x)?).like(x)?;
    let neg =
        b.onnx().mul(b.onnx().sub(e, b.const_like(x, 1.0)?).like(x)?, b.const_like(x, alpha)?).like(x)?;
    let bool_type: melior::ir::Type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
    let positive = b.onnx().greater(x, b.const_like(x, 0.0)?).typed(b.unranked(bool_type))?;
    let y = b.onnx().where_(positive, x, neg).like(x)?;
    Ok(vec![c.b.onnx().mul(y, b.const_like(x, scale)?).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,5]", "self: T[2,5]; alpha: 0.5", "self: T[3]; alpha: 1.5; scale: 2.0; input_scale: 0.5"]).dtypes(&["f32", "f16", "bf16", "f64"])];
