use super::math_common::bool_type;
use crate::{Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.trace.default", trace)
    .samples(&["self: T[3,3]", "self: T[2,4]", "self: T[4,2]", "self: T[0,3]"])
    .dtypes(&["f32", "f64", "i64", "i32", "f16", "bf16", "i8", "u8"])];

/// The sum of the main diagonal of a matrix: entries off the diagonal are
/// replaced by 0 with `Where` (not multiplied, so inf / NaN off the diagonal
/// do not leak in), then summed in the result type (int64 for integers).
fn trace<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    if c.rank(x)? != 2 {
        return Err("trace expects a matrix".into());
    }
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let b = &c.b;
    // onnxruntime's EyeLike kernels take float, double, int32 and int64
    // inputs: other types give it a float32 copy (only its shape is read).
    let element = crate::builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let kernel_types = [b.f32_type(), melior::ir::Type::float64(b.context), b.i64_type(), melior::ir::r#type::IntegerType::new(b.context, 32).into()];
    let probe = if kernel_types.contains(&element) { x } else { b.cast(x, b.f32_type())? };
    let eye = b.onnx().eye_like(probe, None, None).like(probe)?;
    let diag = b.cast(eye, bool_type(c))?;
    let d = b.onnx().where_(diag, x, b.const_like(x, 0.0)?).like(x)?;
    Ok(vec![c.reduce(crate::Reduction::Sum, d, None, false, c.result_type(0)?)?])
}
