use super::special_common::lgamma;
use super::like_common::Like;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] =
    &[Rule::custom("aten.mvlgamma.default", mvlgamma).samples(&["self: T[2,3]{pos}; p: 1", "self: T[]{pos}; p: 1"])];

/// The multivariate log-gamma: `p (p - 1) / 4 log(pi) + sum_j lgamma(x - j / 2)`,
/// j < p, in float64. (torch raises when some x <= (p - 1) / 2; the ONNX
/// model cannot raise and gives the formula's value there.)
pub(super) fn mvlgamma<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let p = c.args.int("p")?;
    if p < 1 {
        return Err(format!("mvlgamma with p = {p} (torch requires p >= 1)"));
    }
    let (f, x) = Like::float64(c, c.args.tensor("self")?)?;
    let mut sum = f.k((p * (p - 1)) as f64 / 4.0 * std::f64::consts::PI.ln())?;
    for j in 0..p {
        let xj = f.addk(x, -(j as f64) / 2.0)?;
        sum = f.add(sum, lgamma(&f, xj)?)?;
    }
    Ok(vec![c.b.cast(sum, c.result_element(0)?).and_then(|v| c.b.onnx().identity(v).typed(c.result_type(0)?))?])
}
