use super::tensor_common::constant;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.logspace.default", |c| {
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
])];
