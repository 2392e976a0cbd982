use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_vecdot.default", vecdot)
    .samples(&[
        "x: T[3,4]; y: T[3,4]",
        "x: T[2,3,4]; y: T[4]; dim: -1",
        "x: T[2,3,4]; y: T[3,1]; dim: 1",
        "x: T[0]; y: T[0]",
        "x: T[2,3]; y: T[2,3]; dim: 0",
        "x: T[4,5]; y: T[1,5]",
    ])
    .dtypes(&["f32", "f64"])];

/// `sum(x * y, dim)` (real tensors: no conjugate), `dim` counted on the
/// broadcast shape.
fn vecdot<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    let x = c.tensor_as("x", el)?;
    let y = c.tensor_as("y", el)?;
    let r = c.rank(c.args.tensor("x")?)?.max(c.rank(c.args.tensor("y")?)?);
    if r == 0 {
        return Err("linalg.vecdot needs at least 1-d operands".into());
    }
    let axis = c.dim(c.args.int("dim")?, r)? as i64;
    let p = c.b.onnx().mul(x, y).typed(c.b.unranked(el))?;
    Ok(vec![c.reduce(crate::Reduction::Sum, p, Some(&[axis]), false, c.result_type(0)?)?])
}
