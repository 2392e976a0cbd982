use super::prod_common::reshape;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.kron.default", kron)
    .samples(&[
        "self: T[2,3]; other: T[4,5]",
        "self: T[3]; other: T[2,2]",
        "self: T[2,1,3]; other: T[2]",
        "self: T[]; other: T[3]",
        "self: T[]; other: T[]",
        "self: T[0,2]; other: T[3,1]",
        "self: T[]; other: T[0]",
        "self: T[2,3]; other: T[0]",
        "self: T[3,1]; other: T[2,0]",
    ])
    .dtypes(&["f32", "f64", "i64", "bool"])];

/// Both operands padded to the same rank `r` with leading 1s, `self` viewed
/// as `[a0,1,a1,1,...]` and `other` as `[1,b0,1,b1,...]`, multiplied (and
/// for bools) and reshaped to `[a0*b0, a1*b1, ...]`.
fn kron<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    let a = c.tensor_as("self", el)?;
    let o = c.tensor_as("other", el)?;
    let (ra, ro) = (c.rank(c.args.tensor("self")?)?, c.rank(c.args.tensor("other")?)?);
    // The product; `and` for bools.
    let is_bool = crate::builder::is_bool(el);
    let times = |x: Value<'c, 'a>, y: Value<'c, 'a>| if is_bool { c.b.onnx().and(x, y) } else { c.b.onnx().mul(x, y) };
    let r = ra.max(ro);
    if r == 0 {
        return Ok(vec![times(a, o).typed(c.result_type(0)?)?]);
    }
    let pad = |x: Value<'c, 'a>, rx: usize| -> Result<Value<'c, 'a>, String> {
        if rx == r {
            return Ok(x);
        }
        let axes: Vec<i64> = (0..(r - rx) as i64).collect();
        c.unsqueeze(x, &axes)
    };
    let a = pad(a, ra)?;
    let o = pad(o, ro)?;
    let odd: Vec<i64> = (0..r as i64).map(|i| 2 * i + 1).collect();
    let even: Vec<i64> = (0..r as i64).map(|i| 2 * i).collect();
    let a2 = c.unsqueeze(a, &odd)?;
    let o2 = c.unsqueeze(o, &even)?;
    let p = times(a2, o2).like(a)?;
    let i64_t = c.b.unranked(c.b.i64_type());
    let shape = c.b.onnx().mul(c.b.onnx().shape(a, None, None).typed(i64_t)?, c.b.onnx().shape(o, None, None).typed(i64_t)?).typed(i64_t)?;
    let y = reshape(c, p, shape)?;
    Ok(vec![c.b.onnx().identity(y).typed(c.result_type(0)?)?])
}
