use super::special_common::lgamma;
use super::like_common::Like;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.lgamma.default", lgamma_rule)
    .samples(&["self: T[2,3]", "self: T[3,4]{pos}", "self: i64[2,5]{-3..40}", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64"])];

/// log|Gamma(x)| in float64 (Lanczos; see special_common.rs), cast to the
/// result type.
pub(super) fn lgamma_rule<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let (f, x) = Like::float64(c, c.args.tensor("self")?)?;
    let y = lgamma(&f, x)?;
    Ok(vec![c.b.cast(y, c.result_element(0)?).and_then(|v| c.b.onnx().identity(v).typed(c.result_type(0)?))?])
}
