use super::act_common::leaky;
use super::random_common::uniform_like;
use crate::Rule;

/// Eval mode (`training=False`): `leaky_relu` with the mean slope
/// `(lower + upper) / 2` like torch. Training mode (torch's
/// `rrelu_with_noise`): each element `x <= 0` gets its own slope drawn from
/// `U[lower, upper)`, others pass (NaN stays NaN).
pub const RULES: &[Rule] = &[Rule::custom("aten.rrelu.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let (lower, upper) = (c.args.number("lower")?.as_f64(), c.args.number("upper")?.as_f64());
    if !c.args.bool("training")? {
        let slope = (lower + upper) / 2.0;
        return Ok(vec![leaky(c, x, c.b.const_like(x, slope)?)?]);
    }
    if lower > upper {
        return Err(format!(
            "Lower bound should be less than or equal to the upper bound (lower={lower}, upper={upper})"
        ));
    }
    let element = c.result_element(0)?;
    let u = uniform_like(c, x, element)?;
    let span = b.const_scalar(element, upper - lower)?;
    let lo = b.const_scalar(element, lower)?;
    let scaled = b.onnx().mul(u, span).like(x)?;
    let slope = b.onnx().add(scaled, lo).like(x)?;
    let zero = b.const_like(x, 0.0)?;
    let bool_type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
    let negative = b.onnx().less_or_equal(x, zero).typed(b.unranked(bool_type))?;
    let sloped = b.onnx().mul(x, slope).like(x)?;
    Ok(vec![c.b.onnx().where_(negative, sloped, x).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[3,4]",
    "self: T[3,4]; lower: 0.1; upper: 0.9",
    "self: T[]",
    "self: T[0]",
    "self: T[3,4]; lower: 0.2; upper: 0.2; training: true",
])
.dtypes(&["f32", "f64"])
.refuses(&[("self: T[3,4]; lower: 0.5; upper: 0.1; training: true", "Lower bound")])];
