use super::nn_common::{reduce_loss, Ew};
use crate::lowering::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.margin_ranking_loss.default", loss).samples(&[
    "input1: T[5]; input2: T[5]; target: T[5]",
    "input1: T[5]; input2: T[5]; target: T[5]; margin: 0.5; reduction: 0",
    "input1: T[3,4]; input2: T[3,4]; target: T[3,4]; margin: -0.3; reduction: 2",
])];

/// `max(0, -target * (input1 - input2) + margin)`.
fn loss<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    let x1 = c.tensor_as("input1", el)?;
    let e = Ew { ctx: c, like: x1 };
    let d = e.op("Sub", &[x1, c.tensor_as("input2", el)?])?;
    let v = e.op("Add", &[e.op("Neg", &[e.op("Mul", &[c.tensor_as("target", el)?, d])?])?, e.k(c.args.float("margin")?)?])?;
    Ok(vec![reduce_loss(c, e.op("Max", &[v, e.k(0.0)?])?)?])
}
