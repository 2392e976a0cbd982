//! Orthogonal polynomials of torch.special with a tensor degree `n`
//! (chebyshev_polynomial_t/u/v/w, their shifted forms, hermite_polynomial_h/
//! he, laguerre_polynomial_l, legendre_polynomial_p). Not a rule file.
//!
//! torch (ATen/native/Math.h) evaluates them by their three-term
//! recurrence up to `n = (int64) n`, in the result's precision. Since `n`
//! is a tensor, the lowering runs an ONNX `Loop` of `max(n) - 1`
//! iterations carrying `(P_{k-1}, P_k)` over the whole broadcast tensor and
//! keeps, per element, the value at `k == n`: the same operations in the
//! same precision as torch, so overflow to inf and NaN match too. torch's
//! special cases: `n < 0` (and NaN / inf `n`, which its int64 conversion
//! makes negative) gives 0; Hermite degrees above 128 (float32) / 512
//! (float64) give NaN. The values torch special-cases at |x| == 1 (or
//! x == 0, 1 for the shifted forms; x == 0 for Laguerre) are the ones the
//! recurrence gives exactly there. For |x| < 1 and large n the Chebyshev
//! forms use torch's trigonometric identities in torch; the recurrence
//! agrees with them to rounding.

use super::math_common::unranked_bool;
use crate::{builder::Builder, Ctx};
use crate::onnx_ir;
use melior::ir::{
    block::BlockLike,
    operation::{OperationBuilder, OperationLike},
    r#type::RankedTensorType,
    Block, Region, RegionLike, Type, Value,
};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    ChebyshevT,
    ChebyshevU,
    ChebyshevV,
    ChebyshevW,
    HermiteH,
    HermiteHe,
    Laguerre,
    Legendre,
}

/// Lowers `aten.<op>(x, n)` (either may be a Python number; `shifted`
/// evaluates at `x + x - 1`, rounded like torch).
pub fn polynomial<'c, 'a>(c: &Ctx<'c, 'a>, kind: Kind, shifted: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let t = c.result_element(0)?;
    let f32 = t == Type::float32(c.b.context);
    if !f32 && t != Type::float64(c.b.context) {
        return Err(format!("result type {t}: only float32 and float64 are lowered"));
    }
    let x = c.tensor_as("x", t)?;
    let n = c.tensor_as("n", t)?;
    let k = |v: f64| c.b.const_scalar(t, v);
    let ty = c.b.unranked(t);
    let x = if shifted {
        let two_x = c.b.onnx().add(x, x).typed(ty)?;
        c.b.onnx().sub(two_x, k(1.0)?).typed(ty)?
    } else {
        x
    };
    // Broadcast both to the result shape.
    let shape = c.b.shape(c.b.onnx().add(x, n).typed(ty)?)?;
    let x = c.b.onnx().expand(x, shape).typed(ty)?;
    let n = c.b.onnx().expand(n, shape).typed(ty)?;
    // torch's degree: int64(n); NaN, inf and negative give 0 below.
    let nn = c.b.onnx().floor(c.b.onnx().abs(n).typed(ty)?).typed(ty)?;
    let neg = c.b.onnx().less(n, k(0.0)?).typed(unranked_bool(c))?;
    let nn = c.b.onnx().where_(neg, c.b.onnx().neg(nn).typed(ty)?, nn).typed(ty)?;
    let bad = c.b.onnx().or(c.b.onnx().is_na_n(n).typed(unranked_bool(c))?, c.b.onnx().is_inf(n, None, None).typed(unranked_bool(c))?).typed(unranked_bool(c))?;
    let bad = c.b.onnx().or(bad, c.b.onnx().less(nn, k(0.0)?).typed(unranked_bool(c))?).typed(unranked_bool(c))?;
    let limit = match kind {
        Kind::HermiteH | Kind::HermiteHe => Some(if f32 { 128.0 } else { 512.0 }),
        _ => None,
    };
    // The degree the loop must reach: max over valid elements (0 if none),
    // Hermite degrees past torch's limit are NaN and need no iterations.
    let mut reach = c.b.onnx().where_(bad, k(0.0)?, nn).typed(ty)?;
    if let Some(limit) = limit {
        reach = c.b.onnx().min(&[reach, k(limit)?]).typed(ty)?;
    }
    let flat = c.b.onnx().reshape(reach, c.b.const_i64s(&[-1])?, None).like(x)?;
    let flat = c.b.onnx().concat(&[flat, c.b.const_i64s(&[0]).and_then(|z| c.b.cast(z, t))?], 0).like(x)?;
    let top = c.reduce(crate::Reduction::Max, flat, None, false, c.b.unranked(t))?;
    let top = c.b.cast(top, c.b.i64_type())?;
    // Iterations: degrees 2..=top.
    let one_i = c.b.const_i64_scalar(1)?;
    let trips = c.b.onnx().sub(top, one_i).like(one_i)?;
    let trips = c.b.onnx().max(&[trips, c.b.const_i64_scalar(0)?]).like(one_i)?;
    // P_0 and P_1 as torch writes them.
    let two_x = c.b.onnx().add(x, x).typed(ty)?;
    let ones = c.b.onnx().expand(k(1.0)?, shape).typed(ty)?;
    let p1 = match kind {
        Kind::ChebyshevT | Kind::Legendre | Kind::HermiteHe => x,
        Kind::ChebyshevU | Kind::HermiteH => two_x,
        Kind::ChebyshevV => c.b.onnx().sub(two_x, k(1.0)?).typed(ty)?,
        Kind::ChebyshevW => c.b.onnx().add(two_x, k(1.0)?).typed(ty)?,
        Kind::Laguerre => c.b.onnx().sub(k(1.0)?, x).typed(ty)?,
    };
    let zero = c.b.onnx().expand(k(0.0)?, shape).typed(ty)?;
    let is0 = c.b.onnx().equal(nn, k(0.0)?).typed(unranked_bool(c))?;
    let is1 = c.b.onnx().equal(nn, k(1.0)?).typed(unranked_bool(c))?;
    let start = c.b.onnx().where_(is1, p1, zero).typed(ty)?;
    let start = c.b.onnx().where_(is0, ones, start).typed(ty)?;
    let [_, _, result] = recurrence_loop(c, kind, t, x, nn, trips, [ones, p1, start])?;
    let mut y = c.b.onnx().where_(bad, k(0.0)?, result).typed(ty)?;
    if let Some(limit) = limit {
        let over = c.b.onnx().greater(nn, k(limit)?).typed(unranked_bool(c))?;
        let over = c.b.onnx().and(over, c.b.onnx().not(bad).typed(unranked_bool(c))?).typed(unranked_bool(c))?;
        y = c.b.onnx().where_(over, k(f64::NAN)?, y).typed(ty)?;
    }
    Ok(vec![c.b.onnx().identity(y).typed(c.result_type(0)?)?])
}

/// `Loop(trips)` carrying `(P_{m-2}, P_{m-1}, result)` for m = 2, 3, ...:
/// `result` takes `P_m` where `nn == m`.
fn recurrence_loop<'c, 'a>(
    c: &Ctx<'c, 'a>,
    kind: Kind,
    t: Type<'c>,
    x: Value<'c, 'a>,
    nn: Value<'c, 'a>,
    trips: Value<'c, 'a>,
    init: [Value<'c, 'a>; 3],
) -> Result<[Value<'c, 'a>; 3], String> {
    let out = build_loop(c, t, trips, &init, |b, iter, carried| {
        let (p, q, res) = (carried[0], carried[1], carried[2]);
        let ty = b.unranked(t);
        let k = |v: f64| b.const_scalar(t, v);
        // m = iteration + 2, the degree computed in this iteration.
        let m = b.onnx().add(b.cast(iter, t)?, k(2.0)?).typed(ty)?;
        let m1 = b.onnx().sub(m, k(1.0)?).typed(ty)?;
        let r = match kind {
            Kind::ChebyshevT | Kind::ChebyshevU | Kind::ChebyshevV | Kind::ChebyshevW => {
                // (x + x) q - p
                b.onnx().sub(b.onnx().mul(b.onnx().add(x, x).typed(ty)?, q).typed(ty)?, p).typed(ty)?
            }
            Kind::HermiteH => {
                // (x + x) q - 2(m - 1) p
                let km = b.onnx().add(m1, m1).typed(ty)?;
                b.onnx().sub(b.onnx().mul(b.onnx().add(x, x).typed(ty)?, q).typed(ty)?, b.onnx().mul(km, p).typed(ty)?).typed(ty)?
            }
            Kind::HermiteHe => b.onnx().sub(b.onnx().mul(x, q).typed(ty)?, b.onnx().mul(m1, p).typed(ty)?).typed(ty)?,
            Kind::Laguerre => {
                // ((2k + (1 - x)) q - k p) / (k + 1), k = m - 1
                let a = b.onnx().add(b.onnx().add(m1, m1).typed(ty)?, b.onnx().sub(k(1.0)?, x).typed(ty)?).typed(ty)?;
                let num = b.onnx().sub(b.onnx().mul(a, q).typed(ty)?, b.onnx().mul(m1, p).typed(ty)?).typed(ty)?;
                b.onnx().div(num, m).typed(ty)?
            }
            Kind::Legendre => {
                // ((k + k + 1) x q - k p) / (k + 1), k = m - 1
                let a = b.onnx().add(b.onnx().add(m1, m1).typed(ty)?, k(1.0)?).typed(ty)?;
                let num = b.onnx().sub(b.onnx().mul(b.onnx().mul(a, x).typed(ty)?, q).typed(ty)?, b.onnx().mul(m1, p).typed(ty)?).typed(ty)?;
                b.onnx().div(num, m).typed(ty)?
            }
        };
        let bool_type: Type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
        let here = b.onnx().equal(nn, m).typed(b.unranked(bool_type))?;
        let res = b.onnx().where_(here, r, res).typed(ty)?;
        Ok(vec![q, r, res])
    })?;
    Ok([out[0], out[1], out[2]])
}

/// An ONNX `Loop` of `trips` (0-d int64) iterations, inserted before the
/// aten op, carrying `init` (tensors of element type `t`, any shape):
/// `body(builder, iteration, carried)` builds one iteration inside the loop
/// body (outer values may be used directly) and returns the new carried
/// values. Returns the final carried values.
pub fn build_loop<'c, 'a>(
    c: &Ctx<'c, 'a>,
    t: Type<'c>,
    trips: Value<'c, 'a>,
    init: &[Value<'c, 'a>],
    body: impl FnOnce(&Builder<'c, 'a>, Value<'c, 'a>, &[Value<'c, 'a>]) -> Result<Vec<Value<'c, 'a>>, String>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let types = vec![t; init.len()];
    build_loop_while(c, &types, trips, init, |b, iter, cond, carried| Ok((cond, body(b, iter, carried)?)))
}

/// Like [`build_loop`], with one element type per carried value (`types`,
/// the carried values are unranked tensors of these element types) and a
/// data-dependent stop: `body(builder, iteration, cond_in, carried)`
/// returns `(cond, next carried)`, the loop stops after an iteration whose
/// `cond` (0-d bool) is false, or after `trips` iterations.
pub fn build_loop_while<'c, 'a>(
    c: &Ctx<'c, 'a>,
    types: &[Type<'c>],
    trips: Value<'c, 'a>,
    init: &[Value<'c, 'a>],
    body: impl FnOnce(
        &Builder<'c, 'a>,
        Value<'c, 'a>,
        Value<'c, 'a>,
        &[Value<'c, 'a>],
    ) -> Result<(Value<'c, 'a>, Vec<Value<'c, 'a>>), String>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    if types.len() != init.len() {
        return Err(format!("loop with {} carried values and {} types", init.len(), types.len()));
    }
    let context = c.b.context;
    let location = c.b.location;
    let carried: Vec<Type<'c>> = types.iter().map(|t| c.b.unranked(*t)).collect();
    let i64_scalar: Type = RankedTensorType::new(&[], c.b.i64_type(), None).into();
    let bool_type: Type = melior::ir::r#type::IntegerType::new(context, 1).into();
    let bool_scalar: Type = RankedTensorType::new(&[], bool_type, None).into();
    let cond = c.b.const_scalar(bool_type, 1.0)?;
    let mut operands = vec![trips, cond];
    operands.extend_from_slice(init);
    let built = OperationBuilder::new(&format!("{}Loop", onnx_ir::DIALECT_PREFIX), location)
        .add_operands(&operands)
        .add_results(&carried)
        .add_regions_vec(vec![Region::new()])
        .build()
        .map_err(|e| format!("cannot build onnx.Loop: {e}"))?;
    let aten = c.args.op;
    let outer = aten.block().ok_or("op is not in a block")?;
    let looped = outer.insert_operation_before(aten, built);
    let region = looped.region(0).map_err(|e| e.to_string())?;
    let mut arguments = vec![(i64_scalar, location), (bool_scalar, location)];
    arguments.extend(carried.iter().map(|t| (*t, location)));
    let block = region.append_block(Block::new(&arguments));
    let placeholder = block.append_operation(
        OperationBuilder::new(onnx_ir::YIELD_OP, location)
            .build()
            .map_err(|e| format!("cannot build onnx.yield: {e}"))?,
    );
    let b = Builder::new(context, placeholder, c.b.opset)?;
    let arg =
        |i: usize| -> Result<Value<'c, 'a>, String> { block.argument(i).map(Into::into).map_err(|e| e.to_string()) };
    let iter = arg(0)?;
    let cond_in = arg(1)?;
    let state: Vec<Value<'c, 'a>> = (0..init.len()).map(|i| arg(i + 2)).collect::<Result<_, _>>()?;
    let (cond_out, next) = body(&b, iter, cond_in, &state)?;
    if next.len() != init.len() {
        return Err(format!("loop body returns {} values for {} carried", next.len(), init.len()));
    }
    let mut yielded = vec![cond_out];
    yielded.extend(next);
    let done = OperationBuilder::new(onnx_ir::YIELD_OP, location)
        .add_operands(&yielded)
        .build()
        .map_err(|e| format!("cannot build onnx.yield: {e}"))?;
    block.insert_operation_before(placeholder, done);
    unsafe { crate::ir::erase(placeholder) };
    Ok(looped.results().map(Into::into).collect())
}
