use super::fp_common::{f64_type, frexp_f64, zero_or_special};
use super::math_common::bool_type;
use crate::{Attr, Ctx, Rule};
use melior::ir::{Type, Value};

pub const RULES: &[Rule] = &[Rule::custom("aten.nextafter.default", nextafter)
    .samples(&[
        "self: T[3,4]; other: T[3,4]",
        "self: T[3,4]; other: T[4]",
        "self: T[]; other: T[]",
        "self: T[0,2]; other: T[2]",
    ])
    .dtypes(&["f32", "f64"])
    .refuses(&[("self: f16[3]; other: f16[3]", "float32 and float64")])];

/// `std::nextafter` bit-exactly, without bit casts: in double, `x` moves by
/// its ulp `2^(e - p)` (`x = m * 2^e`, `p` = 24 / 53 mantissa bits; half
/// that towards zero from a power of two; never below the smallest
/// subnormal). `x +- ulp` is representable, so the double sum is exact and
/// the cast back is too (`FLT_MAX` up gives 2^128, which rounds to inf like
/// nextafterf). 0 steps to the smallest subnormal, +-inf to +-max, equal
/// operands give `other`, NaN gives NaN.
fn nextafter<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    let (bits, min_exp, max) = if el == c.b.f32_type() {
        (24.0, -149.0, f32::MAX as f64)
    } else if el == Type::float64(c.b.context) {
        (53.0, -1074.0, f64::MAX)
    } else {
        return Err("nextafter is only lowered for float32 and float64 (bit-exact)".into());
    };
    let b = &c.b;
    let bool_t = b.unranked(bool_type(c));
    let f64_t = f64_type(c);
    let x = b.cast_like_type(c.tensor_as("self", el)?, f64_t)?;
    let y = b.cast_like_type(c.tensor_as("other", el)?, f64_t)?;
    let k = |v: f64| b.const_like(x, v);
    let special = zero_or_special(c, x)?;
    let safe = b.op_like("Where", &[special, k(1.0)?, x], &[], x)?;
    let (m, e) = frexp_f64(c, safe)?;
    let pow2 = b.op("Equal", &[b.op_like("Abs", &[m], &[], x)?, k(0.5)?], &[], bool_t)?;
    let up = b.op("Greater", &[y, x], &[], bool_t)?;
    let positive = b.op("Greater", &[x, k(0.0)?], &[], bool_t)?;
    let away = b.op("Equal", &[up, positive], &[], bool_t)?;
    let towards_pow2 = b.op("And", &[b.op("Not", &[away], &[], bool_t)?, pow2], &[], bool_t)?;
    let step_exp = b.op_like("Sub", &[e, k(bits)?], &[], x)?;
    let step_exp = b.op_like("Where", &[towards_pow2, b.op_like("Sub", &[step_exp, k(1.0)?], &[], x)?, step_exp], &[], x)?;
    let step_exp = b.op_like("Max", &[step_exp, k(min_exp)?], &[], x)?;
    let step = b.op_like("Pow", &[k(2.0)?, step_exp], &[], x)?;
    let r = b.op_like("Where", &[up, b.op_like("Add", &[x, step], &[], x)?, b.op_like("Sub", &[x, step], &[], x)?], &[], x)?;
    // Stepping to zero keeps x's sign (nextafter(-tiny, 0) is -0.0); signed
    // zeros go through Where's false branch, which onnxruntime keeps (its
    // true branch turns -0.0 into 0.0).
    // (Conditions are built without Not: onnxruntime's NotWhereFusion would
    // swap the branches back.)
    let r_nonzero = b.op("Greater", &[b.op_like("Abs", &[r], &[], x)?, k(0.0)?], &[], bool_t)?;
    let r = b.op_like("Where", &[r_nonzero, r, b.op_like("Mul", &[x, k(0.0)?], &[], x)?], &[], x)?;
    // Smallest subnormal from zero: 2^min_exp in two exact steps.
    let tiny = b.op_like("Mul", &[k(2f64.powi(-700))?, k(2f64.powi(min_exp as i32 + 700))?], &[], x)?;
    let y_pos = b.op("Greater", &[y, k(0.0)?], &[], bool_t)?;
    let from_zero = b.op_like("Where", &[y_pos, tiny, b.op_like("Neg", &[tiny], &[], x)?], &[], x)?;
    let zero = b.op("Equal", &[x, k(0.0)?], &[], bool_t)?;
    let r = b.op_like("Where", &[zero, from_zero, r], &[], x)?;
    let inf = b.op("IsInf", &[x], &[("detect_positive", Attr::Int(1)), ("detect_negative", Attr::Int(1))], bool_t)?;
    let r = b.op_like("Where", &[inf, b.op_like("Where", &[positive, k(max)?, k(-max)?], &[], x)?, r], &[], x)?;
    let differ = b.op("Or", &[b.op("Less", &[x, y], &[], bool_t)?, b.op("Greater", &[x, y], &[], bool_t)?], &[], bool_t)?;
    let r = b.op_like("Where", &[differ, r, y], &[], x)?;
    let nan = b.op("Or", &[b.op("IsNaN", &[x], &[], bool_t)?, b.op("IsNaN", &[y], &[], bool_t)?], &[], bool_t)?;
    let r = b.op_like("Where", &[nan, k(f64::NAN)?, r], &[], x)?;
    let code = crate::onnx_ir::data_type_code(el).ok_or("dtype")?;
    Ok(vec![c.op("Cast", &[r], &[("to", Attr::Int(code))])?])
}
