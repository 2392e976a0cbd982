use super::tensor_common::constant;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.logspace.default", |c| {
    let (start, end, steps) = (c.args.number("start")?.as_f64(), c.args.number("end")?.as_f64(), c.args.int("steps")?);
    let base = c.args.float("base")?;
    // Exponents with torch's linspace formula, in double.
    if steps < 0 {
        return Err(format!("logspace: number of steps must be non-negative, got {steps}"));
    }
    let exps: Vec<f64> = if steps == 1 {
        vec![start]
    } else {
        let step = (end - start) / (steps - 1) as f64;
        let half = steps / 2;
        (0..steps).map(|i| if i < half { start + step * i as f64 } else { end - step * (steps - 1 - i) as f64 }).collect()
    };
    let values: Vec<f64> = exps.iter().map(|e| base.powf(*e)).collect();
    Ok(vec![constant(c, c.result_element(0)?, &[values.len() as u64], &values)?])
})
.samples(&[
    "start: 0; end: 2; steps: 5",
    "start: -1; end: 1; steps: 4; base: 2.0",
    "start: 1; end: 2; steps: 1",
    "start: 0; end: 3; steps: 0",
    "start: 0; end: 3; steps: 4; dtype: dtype(i64)",
    "start: -1; end: 1.5; steps: 6; dtype: dtype(f64)",
]),
    Rule::custom("aten.logspace.Tensor_Tensor", logspace_tensor)
        .samples(&[
            "start: T[]; end: T[]; steps: 5",
            "start: T[]; end: T[]; steps: 4; base: 2.0; dtype: dtype(f64)",
            "start: T[]; end: T[]; steps: 1",
            "start: T[]; end: T[]; steps: 0",
            "start: i64[]{0..3}; end: i64[]{2..5}; steps: 4; dtype: dtype(i64)",
        ])
        .dtypes(&["f32", "f64"]),
    Rule::custom("aten.logspace.Tensor_Scalar", logspace_tensor)
        .samples(&["start: T[]; end: 2; steps: 5", "start: T[]; end: 1.5; steps: 3; base: 3.0"])
        .dtypes(&["f32", "f64"]),
    Rule::custom("aten.logspace.Scalar_Tensor", logspace_tensor)
        .samples(&["start: -1; end: T[]; steps: 6", "start: 0.5; end: T[]; steps: 3; base: 2.0; dtype: dtype(f64)"])
        .dtypes(&["f32", "f64"]),
];

/// logspace with 0-d tensor bounds (or one number): `base ** linspace`,
/// exponents and powers in double, like torch.
fn logspace_tensor<'c, 'a>(c: &crate::Ctx<'c, 'a>) -> Result<Vec<melior::ir::Value<'c, 'a>>, String> {
    let exps = super::shapes_common::linspace_graph(c, "start", "end", c.args.int("steps")?, true)?;
    let base = c.b.const_like(exps, c.args.float("base")?)?;
    let v = c.b.onnx().pow(base, exps).like(exps)?;
    Ok(vec![c.b.cast_like_type(v, c.result_element(0)?)?])
}
