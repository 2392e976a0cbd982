use super::tensor_common::select;
use crate::{builder, Ctx, Rule};
use melior::ir::{r#type::IntegerType, Type, Value};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.pow.Tensor_Scalar", pow).samples(&[
        "self: T[2,3]{pos}; exponent: 2",
        "self: T[2,3]{pos}; exponent: 0.5",
        "self: T[2,3]; exponent: 3",
    ]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "bool"]),
    Rule::custom("aten.pow.Tensor_Tensor", pow).samples(&[
        "self: T[2,3]{pos}; exponent: T[3]",
        "self: T[2,4]; exponent: T[4]",
        "self: i64[2,5]{-2..3}; exponent: i64[5]{-3..3}",
    ]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32"]),
    Rule::custom("aten.pow.Scalar", pow).samples(&["self: 2.0; exponent: T[2,3]"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"]),
];

fn pow<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    if !builder::is_float(element) && !builder::is_bool(element) {
        return integer_pow(ctx, element);
    }
    let base = ctx.tensor_as("self", element)?;
    let exponent = ctx.tensor_as("exponent", element)?;
    Ok(vec![ctx.b.onnx().pow(base, exponent).typed(ctx.result_type(0)?)?])
}

/// Integer powers as torch computes them: a negative exponent gives 1 for
/// a base of 1, +-1 for -1 (by the exponent's parity) and 0 otherwise (0
/// included); ONNX `Pow` leaves negative integer exponents unspecified
/// (onnxruntime returns INT64_MIN). Computed in int64, then cast back.
fn integer_pow<'c, 'a>(ctx: &Ctx<'c, 'a>, element: Type<'c>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let i64_type = b.i64_type();
    let base = ctx.tensor_as("self", i64_type)?;
    let exponent = ctx.tensor_as("exponent", i64_type)?;
    let int = |v: f64| b.const_scalar(i64_type, v);
    let bool_type: Type = IntegerType::new(b.context, 1).into();
    let (zero, one, minus_one, two) = (int(0.0)?, int(1.0)?, int(-1.0)?, int(2.0)?);
    let negative = b.onnx().less(exponent, zero).typed(b.unranked(bool_type))?;
    let safe_exponent = select(ctx, negative, zero, exponent)?;
    let power = b.onnx().pow(base, safe_exponent).like(base)?;
    let is_one = b.onnx().equal(base, one).typed(b.unranked(bool_type))?;
    let is_minus_one = b.onnx().equal(base, minus_one).typed(b.unranked(bool_type))?;
    let parity = b.onnx().mod_(exponent, two, None).like(exponent)?;
    let odd = b.onnx().equal(parity, one).typed(b.unranked(bool_type))?;
    let sign = select(ctx, odd, minus_one, one)?;
    let small = select(ctx, is_minus_one, sign, zero)?;
    let small = select(ctx, is_one, one, small)?;
    let result = select(ctx, negative, small, power)?;
    Ok(vec![ctx.b.onnx().cast(result, None, None, data_type(element)?).typed(ctx.result_type(0)?)?])
}

fn data_type(element: Type<'_>) -> Result<i64, String> {
    crate::onnx_ir::data_type_code(element).ok_or_else(|| format!("no ONNX data type for {element}"))
}
