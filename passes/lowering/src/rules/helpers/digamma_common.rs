//! digamma shared by polygamma and the special_ aliases. Not a rule file.

use super::special_common::digamma;
use super::like_common::Like;
use crate::Ctx;
use melior::ir::Value;

/// digamma in float64 (see special_common.rs), cast to the result type.
pub(super) fn digamma_rule<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let (f, x) = Like::float64(c, c.args.tensor("self")?)?;
    let y = digamma(&f, x)?;
    Ok(vec![c.b.cast(y, c.result_element(0)?).and_then(|v| c.b.onnx().identity(v).typed(c.result_type(0)?))?])
}
