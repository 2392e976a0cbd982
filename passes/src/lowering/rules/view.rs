use crate::lowering::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.view.default", reshape)
        .samples(&["self: T[2,6]; size: [3,4]", "self: T[2,6]; size: [-1,3]"])
        .dtypes(&["f32", "i64"]),
    Rule::custom("aten._unsafe_view.default", reshape).samples(&["self: T[2,6]; size: [3,4]"]),
];

/// `Reshape(x, size)`; `-1` keeps its ONNX meaning, and torch never passes 0.
pub(super) fn reshape<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let size = ctx.args.sym_ints("size")?;
    let shape = ctx.int_list_tensor(&size)?;
    Ok(vec![ctx.op("Reshape", &[x, shape], &[])?])
}
