use super::act_common::elu;
use crate::lowering::Rule;

/// `elu(x, alpha, scale=1, input_scale=1/alpha)` like torch.
pub const RULES: &[Rule] = &[Rule::custom("aten.celu.default", |c| {
    let x = c.args.tensor("self")?;
    let alpha = c.args.number("alpha")?.as_f64();
    if alpha == 0.0 {
        return Err("celu with alpha=0 divides by zero".into());
    }
    Ok(vec![elu(c, x, alpha, 1.0, 1.0 / alpha)?])
})
.samples(&["self: T[2,5]", "self: T[2,5]; alpha: 0.5", "self: T[3]; alpha: -2.0", "self: T[]; alpha: 3", "self: T[0]"])
.dtypes(&["f32", "f64", "f16", "bf16"])];
