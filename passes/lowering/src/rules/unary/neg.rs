use crate::{builder, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.neg.default", neg)
    .samples(&["self: T[2,3]", "self: T[1,4]", "self: T[0,3]", "self: T[]"])
    .complex(super::complex_common::neg)
    .complex_samples(&["self: C[2,3]", "self: C[]", "self: C[0,2]"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"])];

/// `Neg`; unsigned integers (no ONNX Neg) as `0 - x`, which wraps around
/// like torch's uint8 negation.
fn neg<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let element = c.result_element(0)?;
    let unsigned = melior::ir::r#type::IntegerType::try_from(element).is_ok_and(|t| t.is_unsigned());
    if unsigned && !builder::is_bool(element) {
        let zero = c.b.const_scalar(element, 0.0)?;
        return Ok(vec![c.b.onnx().sub(zero, x).typed(c.result_type(0)?)?]);
    }
    Ok(vec![c.b.onnx().neg(x).typed(c.result_type(0)?)?])
}
