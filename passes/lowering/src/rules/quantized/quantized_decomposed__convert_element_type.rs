//! `quantized_decomposed::convert_element_type.no_fuse`: torch's
//! `prims.convert_element_type(input, dtype)` under a name fusion passes
//! leave alone (PT2E writes it between a dequantize and a float op of
//! another dtype). A `Cast` to the result type: float to integer truncates
//! toward zero, float to float16 / bfloat16 rounds to nearest even, as
//! torch's conversion does.

use super::quant_common::Lowered;
use crate::{Ctx, Rule};

pub const RULES: &[Rule] =
    &[Rule::custom("aten.quantized_decomposed::convert_element_type.no_fuse", convert_element_type)];

fn convert_element_type<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let x = ctx.args.tensor("input")?;
    Ok(vec![ctx.b.cast_like_type(x, ctx.result_element(0)?)?])
}
