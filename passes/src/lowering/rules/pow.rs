use crate::lowering::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.pow.Tensor_Scalar", pow),
    Rule::custom("aten.pow.Tensor_Tensor", pow),
    Rule::custom("aten.pow.Scalar", pow),
];

fn pow<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let base = ctx.tensor_as("self", element)?;
    let exponent = ctx.tensor_as("exponent", element)?;
    Ok(vec![ctx.op("Pow", &[base, exponent], &[])?])
}
