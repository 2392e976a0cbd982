use super::nn_common::reduce_loss;
use super::like_common::Like;
use crate::{Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.margin_ranking_loss.default", loss).samples(&[
    "input1: T[5]; input2: T[5]; target: T[5]",
    "input1: T[5]; input2: T[5]; target: T[5]; margin: 0.5; reduction: 0",
    "input1: T[3,4]; input2: T[3,4]; target: T[3,4]; margin: -0.3; reduction: 2",
])
.refuses(&[("input1: u8[]; input2: u8[]; target: u8[]; margin: 0.0; reduction: 1", "wraparound")])];

/// `max(0, -target * (input1 - input2) + margin)`.
fn loss<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    // torch computes an integer loss in the inputs' type, wrapping around
    // (uint8: -6 * (5 - 1) is 232); computed in floats it would be 0.
    for name in ["input1", "input2", "target"] {
        let t = c.args.tensor(name)?;
        let element = crate::builder::element_type(t.r#type()).ok_or("not a tensor")?;
        if !crate::builder::is_float(element) {
            return Err(format!(
                "margin_ranking_loss of a {element} `{name}`: torch computes it in the integer type with \
                 wraparound; convert the inputs to a floating-point type"
            ));
        }
    }
    let el = c.result_element(0)?;
    let x1 = c.tensor_as("input1", el)?;
    let e = Like::new(c, x1);
    let d = e.sub(x1, c.tensor_as("input2", el)?)?;
    let v = e.add(e.neg(e.mul(c.tensor_as("target", el)?, d)?)?, e.k(c.args.float("margin")?)?)?;
    Ok(vec![reduce_loss(c, e.max(v, e.k(0.0)?)?)?])
}
