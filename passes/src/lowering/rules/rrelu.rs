use super::act_common::leaky;
use crate::lowering::Rule;

/// Eval mode (`training=False`): `leaky_relu` with the mean slope
/// `(lower + upper) / 2` like torch. Training mode draws a random slope per
/// element: refused.
pub const RULES: &[Rule] = &[Rule::custom("aten.rrelu.default", |c| {
    if c.args.bool("training")? {
        return Err("rrelu with training=True draws random slopes; export the model in eval mode".into());
    }
    let x = c.args.tensor("self")?;
    let slope = (c.args.number("lower")?.as_f64() + c.args.number("upper")?.as_f64()) / 2.0;
    Ok(vec![leaky(c, x, c.b.const_like(x, slope)?)?])
})
.samples(&["self: T[3,4]", "self: T[3,4]; lower: 0.1; upper: 0.9", "self: T[]", "self: T[0]"])
.dtypes(&["f32", "f64"])
.refuses(&[("self: T[3,4]; training: true", "training=True")])];
