use super::special_common::erfinv;
use super::like_common::Like;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.erfinv.default", erfinv_rule)
    .samples(&["self: T[2,3]", "self: T[0]", "self: T[]", "self: i64[2,3]{-2..3}"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];

/// erfinv in float64 (see special_common.rs), cast to the result type.
pub(super) fn erfinv_rule<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let (f, x) = Like::float64(c, c.args.tensor("self")?)?;
    let y = erfinv(&f, x)?;
    Ok(vec![c.b.cast(y, c.result_element(0)?).and_then(|v| c.b.onnx().identity(v).typed(c.result_type(0)?))?])
}
