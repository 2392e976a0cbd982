use super::tensor_common::constant;
use crate::{builder, Ctx, Rule};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.linspace.default", |c| {
    if c.args.is_dynamic("start")? || c.args.is_dynamic("end")? {
        return linspace_tensor(c); // a bound from `t.item()`
    }
    let (start, end, steps) = (c.args.number("start")?.as_f64(), c.args.number("end")?.as_f64(), c.args.int("steps")?);
    let values = linspace(c, start, end, steps)?;
    Ok(vec![constant(c, c.result_element(0)?, &[values.len() as u64], &values)?])
})
.samples(&[
    "start: 0; end: 1; steps: 5",
    "start: -2.5; end: 3; steps: 7",
    "start: 3; end: -1; steps: 4",
    "start: 1; end: 2; steps: 1",
    "start: 1; end: 2; steps: 0",
    "start: 0; end: 10; steps: 4; dtype: dtype(i64)",
    "start: -3.5; end: 7.2; steps: 6; dtype: dtype(f64)",
    "start: -3.5; end: 7.2; steps: 6; dtype: dtype(i32)",
]),
    Rule::custom("aten.linspace.Tensor_Tensor", linspace_tensor)
        .samples(LINSPACE_TENSOR_SAMPLES)
        .dtypes(&["f32", "f64", "i64", "i32"]),
    Rule::custom("aten.linspace.Tensor_Scalar", linspace_tensor)
        .samples(&["start: T[]; end: 4.5; steps: 5", "start: T[]; end: -3; steps: 4; dtype: dtype(i64)", "start: T[]; end: 2; steps: 1", "start: T[]; end: 2; steps: 0"])
        .dtypes(&["f32", "f64", "i64"]),
    Rule::custom("aten.linspace.Scalar_Tensor", linspace_tensor)
        .samples(&["start: -2.5; end: T[]; steps: 6", "start: 7; end: T[]; steps: 3; dtype: dtype(f64)", "start: 1.5; end: T[]; steps: 4; dtype: dtype(i32)"])
        .dtypes(&["f32", "f64", "i64"]),
];

const LINSPACE_TENSOR_SAMPLES: &[&str] = &[
    "start: T[]; end: T[]; steps: 5",
    "start: T[]; end: T[]; steps: 7; dtype: dtype(f64)",
    "start: T[]; end: T[]; steps: 6; dtype: dtype(i64)",
    "start: T[]; end: T[]; steps: 4; dtype: dtype(i32)",
    "start: T[]; end: T[]; steps: 1",
    "start: T[]; end: T[]; steps: 0",
    "start: f64[]; end: i64[]; steps: 9",
];

/// linspace with 0-d tensor bounds (or one number), computed in the graph.
fn linspace_tensor<'c, 'a>(c: &crate::Ctx<'c, 'a>) -> Result<Vec<melior::ir::Value<'c, 'a>>, String> {
    let v = super::shapes_common::linspace_graph(c, "start", "end", c.args.int("steps")?, false)?;
    Ok(vec![c.b.cast_like_type(v, c.result_element(0)?)?])
}

/// torch's CPU linspace: `step = (end - start) / (steps - 1)`, the first half
/// `start + step * i`, the second `end - step * (steps - 1 - i)` (exact
/// endpoints); integer results truncate. Computed here in double (float
/// results may differ from torch's float32 arithmetic by rounding only).
pub fn linspace(ctx: &Ctx<'_, '_>, start: f64, end: f64, steps: i64) -> Result<Vec<f64>, String> {
    if steps < 0 {
        return Err(format!("linspace: number of steps must be non-negative, got {steps}"));
    }
    let element = ctx.result_element(0)?;
    let (start, end) = if builder::is_float(element) { (start, end) } else { (start.trunc(), end.trunc()) };
    if steps == 1 {
        return Ok(vec![start]);
    }
    let step = (end - start) / (steps - 1) as f64;
    let half = steps / 2;
    Ok((0..steps)
        .map(|i| if i < half { start + step * i as f64 } else { end - step * (steps - 1 - i) as f64 })
        .collect())
}
