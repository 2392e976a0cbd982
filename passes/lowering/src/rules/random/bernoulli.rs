use super::random_common::{element_of, uniform_like};
use crate::{Ctx, Rule};
use melior::ir::{r#type::IntegerType, Value};

// Not ONNX `Bernoulli`: onnxruntime has no kernel for it from opset 22, and
// its opset-15 kernel draws 1 with probability 1 - p (seen: p = 0.3 gave a
// mean of 0.70).
pub const RULES: &[Rule] = &[
    // bernoulli(self): 1 with probability self.
    Rule::custom("aten.bernoulli.default", |c| {
        let p = c.args.tensor("self")?;
        bernoulli(c, p)
    })
    .samples(&["self: T[2,3]{pos}"]),
    // bernoulli(self, p): shaped like self, 1 with probability p.
    Rule::custom("aten.bernoulli.p", |c| {
        let x = c.args.tensor("self")?;
        let p = c.args.float("p")?;
        if !(0.0..=1.0).contains(&p) {
            return Err(format!("bernoulli_ expects p to be in [0, 1], but got p={p}"));
        }
        let probs = super::tensor_common::full(c, c.b.shape(x)?, element_of(x)?, p)?;
        bernoulli(c, probs)
    })
    .samples(&["self: T[2,3]; p: 0.3"]),
];

/// `U[0, 1) < p`, in the result's dtype (`U` with the significand width of
/// `p`'s type in random bits, so p = 0 never and p = 1 always draws 1).
/// Probabilities outside [0, 1] are a runtime error in torch; here they give
/// 0 (p < 0) or 1 (p > 1), and NaN gives 0.
fn bernoulli<'c, 'a>(ctx: &Ctx<'c, 'a>, p: Value<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let element = element_of(p)?;
    let u = uniform_like(ctx, p, element)?;
    let hit = b.onnx().less(u, p).typed(b.unranked(IntegerType::new(b.context, 1).into()))?;
    Ok(vec![b.cast(hit, ctx.result_element(0)?)?])
}
