use super::special_common::i0;
use super::like_common::Like;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.i0.default", i0_rule)
    .samples(&["self: T[2,3]", "self: i64[2,5]{-20..20}", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64"])];

/// I0 in float64 (see special_common.rs), cast to the result type.
pub(super) fn i0_rule<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let (f, x) = Like::float64(c, c.args.tensor("self")?)?;
    let y = i0(&f, x)?;
    Ok(vec![c.b.cast(y, c.result_element(0)?).and_then(|v| c.b.onnx().identity(v).typed(c.result_type(0)?))?])
}
