use super::math_common::along_dim;
use crate::Rule;

/// `CumSum` in the result dtype (bool / int inputs give int64 like torch);
/// a 0-d input is returned as is.
/// An 8- or 16-bit integer result (an explicit `dtype`, as torch.masked's
/// cumsum passes) is summed in int32, which ONNX CumSum has, and cast back:
/// sums modulo 2^n, the wraparound torch's kernel has too.
pub const RULES: &[Rule] = &[Rule::custom("aten.cumsum.default", |c| {
    let result = c.result_element(0)?;
    let narrow = melior::ir::r#type::IntegerType::try_from(result).is_ok_and(|t| t.width() == 8 || t.width() == 16);
    let compute = if narrow { melior::ir::r#type::IntegerType::new(c.b.context, 32).into() } else { result };
    let x = c.tensor_as("self", compute)?;
    let y = along_dim(c, x, c.args.int("dim")?, |x, axis| {
        let axis = c.b.const_i64_scalar(axis)?;
        c.b.onnx().cum_sum(x, axis, None, None).like(x)
    })?;
    Ok(vec![c.b.cast_like_type(y, result)?])
})
.samples(&[
    "self: T[3,4]; dim: 1",
    "self: T[3,4]; dim: 0",
    "self: T[3,4]; dim: -1",
    "self: T[]; dim: 0",
    "self: T[]; dim: -1",
    "self: T[0,3]; dim: 0",
    "self: bool[3,4]; dim: 1",
    "self: T[3,4]; dim: 1; dtype: dtype(f32)",
    "self: T[3,40]{-100..100}; dim: 1; dtype: dtype(i8)",
    "self: T[3,40]{0..200}; dim: 1; dtype: dtype(u8)",
])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
