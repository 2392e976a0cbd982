use crate::lowering::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.pow.Tensor_Scalar", pow).samples(&[
        "self: T[2,3]{pos}; exponent: 2",
        "self: T[2,3]{pos}; exponent: 0.5",
        "self: T[2,3]; exponent: 3",
    ]),
    Rule::custom("aten.pow.Tensor_Tensor", pow).samples(&["self: T[2,3]{pos}; exponent: T[3]"]),
    Rule::custom("aten.pow.Scalar", pow).samples(&["self: 2.0; exponent: T[2,3]"]),
];

fn pow<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let base = ctx.tensor_as("self", element)?;
    let exponent = ctx.tensor_as("exponent", element)?;
    Ok(vec![ctx.op("Pow", &[base, exponent], &[])?])
}
