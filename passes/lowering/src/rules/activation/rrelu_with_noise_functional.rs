use super::act_common::leaky;
use super::random_common::uniform_like;
use crate::Rule;

/// `rrelu_with_noise_functional(self, noise, lower, upper, training)` ->
/// `(out, noise_out)`, what core ATen makes of `rrelu` (torch's
/// `rrelu_with_noise` on a copy of `noise`). Eval mode: `out` is
/// `leaky_relu` with the mean slope `(lower + upper) / 2` and `noise_out` is
/// `noise` unchanged. Training mode: each element `x <= 0` gets its own slope
/// `r` drawn from `U[lower, upper)` (`out = x * r`, `noise_out = r`), the
/// others pass with a noise of 1 (NaN passes too). Random values come from
/// `random_common` (tested on range and moments, not differentially; the
/// samples with `lower == upper` are deterministic).
pub const RULES: &[Rule] = &[Rule::custom("aten.rrelu_with_noise_functional.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let noise = c.args.tensor("noise")?;
    let (lower, upper) = (c.args.number("lower")?.as_f64(), c.args.number("upper")?.as_f64());
    if !c.args.bool("training")? {
        let slope = (lower + upper) / 2.0;
        let out = leaky(c, x, b.const_like(x, slope)?)?;
        return Ok(vec![out, b.onnx().identity(noise).typed(c.result_type(1)?)?]);
    }
    if lower > upper {
        // torch's message comes from the uniform draw.
        return Err(format!("Expected from <= to to be true, but got lower={lower} > upper={upper}"));
    }
    let element = c.result_element(0)?;
    let u = uniform_like(c, x, element)?;
    let span = b.const_scalar(element, upper - lower)?;
    let lo = b.const_scalar(element, lower)?;
    let slope = b.onnx().add(b.onnx().mul(u, span).like(x)?, lo).like(x)?;
    let zero = b.const_like(x, 0.0)?;
    let bool_type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
    let negative = b.onnx().less_or_equal(x, zero).typed(b.unranked(bool_type))?;
    let sloped = b.onnx().mul(x, slope).like(x)?;
    let out = c.b.onnx().where_(negative, sloped, x).typed(c.result_type(0)?)?;
    let noise_out = b.onnx().where_(negative, slope, b.const_like(x, 1.0)?).typed(c.result_type(1)?)?;
    Ok(vec![out, noise_out])
})
.samples(&[
    "self: T[3,4]; noise: T[3,4]",
    "self: T[3,4]; noise: T[3,4]; lower: 0.1; upper: 0.9",
    "self: T[]; noise: T[]",
    "self: T[0]; noise: T[0]",
    "self: T[3,4]; noise: T[3,4]; lower: 0.2; upper: 0.2; training: true",
    "self: T[5]; noise: T[5]; lower: 0.0; upper: 0.0; training: true",
])
.dtypes(&["f32", "f64"])
.refuses(&[("self: T[3,4]; noise: T[3,4]; lower: 0.5; upper: 0.1; training: true", "from <= to")])];
