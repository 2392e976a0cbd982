//! gcd of int64 tensors shared by gcd and lcm. Not a rule file.

use super::polynomial_common::build_loop_while;
use crate::{builder, Ctx};
use melior::ir::{r#type::IntegerType, Type, Value};

/// The two operands, broadcast by the ops that read them, in int64, and the
/// result's element type. torch computes gcd/lcm of integers only.
pub(super) fn operands<'c, 'a>(c: &Ctx<'c, 'a>, op: &str) -> Result<(Value<'c, 'a>, Value<'c, 'a>, Type<'c>), String> {
    let element = c.result_element(0)?;
    if builder::is_float(element) || builder::is_bool(element) {
        return Err(format!("{op} of {element}: torch computes it for integer tensors only"));
    }
    let i64_type: Type = IntegerType::new(c.b.context, 64).into();
    let a = c.b.cast(c.args.tensor("self")?, i64_type)?;
    let b = c.b.cast(c.args.tensor("other")?, i64_type)?;
    Ok((a, b, element))
}

/// torch's `calc_gcd` on int64 values: `a, b = |a|, |b|; while a != 0:
/// a, b = b % a, a; return b` (gcd(0, 0) = 0), elementwise with broadcasting.
/// An ONNX Loop runs it until every `a` is 0; Euclid needs at most 92 steps
/// for 64-bit values (Fibonacci numbers), the trip limit is 100. The
/// results are exact: every step is integer arithmetic.
pub(super) fn gcd_i64<'c, 'a>(c: &Ctx<'c, 'a>, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let i64_type = c.b.i64_type();
    let bool_type: Type = IntegerType::new(c.b.context, 1).into();
    // Broadcast both to the common shape first (a + 0*b, b + 0*a).
    let zero = c.b.const_i64_scalar(0)?;
    let za = c.b.onnx().mul(a, zero).like(a)?;
    let zb = c.b.onnx().mul(b, zero).like(b)?;
    let a = c.b.onnx().abs(c.b.onnx().add(a, zb).like(a)?).like(a)?;
    let b = c.b.onnx().abs(c.b.onnx().add(b, za).like(b)?).like(b)?;
    let trips = c.b.const_i64_scalar(100)?;
    let out = build_loop_while(c, &[i64_type, i64_type], trips, &[a, b], |lb, _iter, _cond, carried| {
        let (a, b) = (carried[0], carried[1]);
        let zero = lb.const_i64_scalar(0)?;
        let one = lb.const_i64_scalar(1)?;
        let live =
            lb.onnx().not(lb.onnx().equal(a, zero).typed(lb.unranked(bool_type))?).typed(lb.unranked(bool_type))?;
        let safe = lb.onnx().where_(live, a, one).like(a)?;
        let rem = lb.onnx().mod_(b, safe, None).like(a)?;
        let next_a = lb.onnx().where_(live, rem, zero).like(a)?;
        let next_b = lb.onnx().where_(live, a, b).like(a)?;
        // Go on while some a is non-zero (an empty tensor stops at once).
        let nonzero = lb
            .onnx()
            .not(lb.onnx().equal(next_a, zero).typed(lb.unranked(bool_type))?)
            .typed(lb.unranked(bool_type))?;
        let as_int = lb.cast(nonzero, i64_type)?;
        let flat = lb.onnx().reshape(as_int, lb.const_i64s(&[-1])?, None).like(as_int)?;
        let padded = lb.onnx().concat(&[flat, lb.const_i64s(&[0])?], 0).like(flat)?;
        let any = lb.onnx().reduce_max(padded, None, None, Some(0), None).like(flat)?;
        let go = lb.onnx().greater(any, zero).typed(lb.unranked(bool_type))?;
        Ok((go, vec![next_a, next_b]))
    })?;
    Ok(out[1])
}
