use super::shapes_common::allowzero;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.view.default", reshape)
        .complex(super::complex_common::reshape)
        .complex_samples(&["self: C[2,6]; size: [3,4]", "self: C[2,6]; size: [-1]", "self: C[0,6]; size: [3,0,2]"])
        .samples(&["self: T[2,6]; size: [3,4]", "self: T[2,6]; size: [-1,3]", "self: T[0,3]; size: [3,0]"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten._unsafe_view.default", reshape)
        .complex(super::complex_common::reshape)
        .complex_samples(&["self: C[2,6]; size: [3,4]"])
        .samples(&["self: T[2,6]; size: [3,4]"])
        .dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"]),
];

/// `Reshape(x, size)`; `-1` keeps its ONNX meaning, and a 0 in `size` is a
/// real 0 (an empty tensor; torch never mixes 0 and -1), see `allowzero`.
pub(super) fn reshape<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let size = ctx.args.sym_ints("size")?;
    let shape = ctx.int_list_tensor(&size)?;
    Ok(vec![ctx.b.onnx().reshape(x, shape, allowzero(&size)).typed(ctx.result_type(0)?)?])
}
