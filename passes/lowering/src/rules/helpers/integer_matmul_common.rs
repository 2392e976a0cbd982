//! The product of a dynamically quantized activation and a quantized weight
//! on the integers (`MatMulInteger`), for the Linears of PT2E's dynamic
//! quantization (`choose_qparams` -> quantize -> dequantize of the input,
//! an int8 weight dequantized per output channel).
//!
//! Why: the QDQ form (`DequantizeLinear` of both, a float `MatMul`) asks the
//! runtime to fuse it, and onnxruntime's QDQ fusions need constant scales:
//! with the scale computed at run time the weight is dequantized at every
//! run and the product is float. Measured (tools/bench/bench_qdq_forms.py, a
//! 4-layer BERT-size encoder, 1x128x768, 1 thread, onnxruntime 1.32): 139 ms
//! as QDQ, 17 ms as `MatMulInteger`, 58 ms for the float model.
//!
//! The values: `DequantizeLinear(q, s, z) @ DequantizeLinear(w, ws, wz)` is
//! `sum_k (q - z)(w - wz) * s * ws` for a per-tensor activation and a weight
//! quantized per tensor or per output column; the integer sum is exact
//! (int32: |q - z| <= 255, |w - wz| <= 255, at most 2^31 / 255^2 = 33025
//! terms, which the rule checks), then one product with `s * ws`. The float
//! product rounds each term and each partial sum instead: the two differ
//! like two accumulation orders of a MatMul (ONNX fixes none), and the
//! quantized values themselves are the ones torch computes. An int8
//! activation is re-quantized to uint8 with the zero point plus 128 (the
//! same integers plus 128): onnxruntime's uint8 x int8 kernel is the fast
//! one (its int8 x int8 product took 259 ms above).

use crate::{builder, ir, Ctx};
use melior::ir::{operation::OperationLike, r#type::IntegerType, Type, Value, ValueLike};

/// Most terms an int32 sum of 8-bit products holds without overflow.
const MAX_TERMS: i64 = (1 << 31) / (255 * 255);

/// 8-bit integer kind of a tensor type: `Some(true)` signed, `Some(false)` unsigned.
fn int8_kind(ty: Type<'_>) -> Option<bool> {
    let int = IntegerType::try_from(builder::element_type(ty)?).ok()?;
    (int.width() == 8).then(|| !int.is_unsigned())
}

fn rank_of(v: Value<'_, '_>) -> Option<usize> {
    builder::rank(v.r#type())
}

/// A constant or a stored tensor (an initializer, or a transform of one),
/// maybe cast or reshaped (the `.tensor` overloads' one-element scales).
fn is_constant(v: Value<'_, '_>) -> bool {
    let mut v = v;
    loop {
        if crate::onnx_ir::is_weight_value(v) {
            return true;
        }
        let Some(d) = ir::defining_op(v) else { return false };
        match ir::op_name(d).as_str() {
            "onnx.Constant" => return true,
            "onnx.Cast" | "onnx.Reshape" | "onnx.Squeeze" | "onnx.Unsqueeze" => match ir::operand_at(d, 0) {
                Some(x) => v = x,
                None => return false,
            },
            _ => return false,
        }
    }
}

/// `(q, scale, zero_point, axis)` of a `DequantizeLinear` producing `v`
/// (no `block_size`).
#[allow(clippy::type_complexity)]
fn dequantized<'c: 'a, 'a>(v: Value<'c, 'a>) -> Option<(Value<'c, 'a>, Value<'c, 'a>, Option<Value<'c, 'a>>, i64)> {
    let d = ir::defining_op(v)?;
    if ir::op_name(d) != "onnx.DequantizeLinear" || ir::int_attribute(d, "block_size").is_some_and(|b| b != 0) {
        return None;
    }
    let zp = ir::operand_at(d, 2).filter(|z| !crate::onnx_ir::is_none_value(*z));
    Some((ir::operand_at(d, 0)?, ir::operand_at(d, 1)?, zp, ir::int_attribute(d, "axis").unwrap_or(1)))
}

/// An int8 value as the uint8 `v + 128` (the same differences between
/// values, so the same integer products once the zero point moves too):
/// onnxruntime's uint8 x int8 kernels are the fast ones.
pub fn int8_as_uint8<'c, 'a>(ctx: &Ctx<'c, 'a>, v: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let i32_type: Type = IntegerType::new(ctx.b.context, 32).into();
    let u8_type: Type = IntegerType::unsigned(ctx.b.context, 8).into();
    let wide = ctx.b.cast(v, i32_type)?;
    let k = ctx.b.const_scalar(i32_type, 128.0)?;
    // A 0-d k broadcasts: the sum has `v`'s shape.
    let moved = ctx.b.onnx().add(wide, k).typed(wide.r#type())?;
    ctx.b.cast(moved, u8_type)
}

/// The activation as uint8 and its zero point: a uint8 one as it is, an
/// int8 one (a `QuantizeLinear` of a float32 input, maybe clipped to a
/// narrower range) quantized again with every zero point and bound plus 128.
fn activation_u8<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    q: Value<'c, 'a>,
    zp: Value<'c, 'a>,
) -> Result<Option<(Value<'c, 'a>, Value<'c, 'a>)>, String> {
    match int8_kind(q.r#type()) {
        Some(false) => return Ok(Some((q, zp))),
        Some(true) => {}
        None => return Ok(None),
    }
    let Some(mut def) = ir::defining_op(q) else { return Ok(None) };
    let mut clip = None;
    if ir::op_name(def) == "onnx.Clip" {
        let (Some(lo), Some(hi)) = (ir::operand_at(def, 1), ir::operand_at(def, 2)) else { return Ok(None) };
        if rank_of(lo) != Some(0) || rank_of(hi) != Some(0) {
            return Ok(None);
        }
        clip = Some((lo, hi));
        let Some(inner) = ir::operand_at(def, 0).and_then(ir::defining_op) else { return Ok(None) };
        def = inner;
    }
    if ir::op_name(def) != "onnx.QuantizeLinear" || ir::int_attribute(def, "block_size").is_some_and(|b| b != 0) {
        return Ok(None);
    }
    let (Some(x), Some(s), Some(z)) = (ir::operand_at(def, 0), ir::operand_at(def, 1), ir::operand_at(def, 2)) else {
        return Ok(None);
    };
    if rank_of(s) != Some(0) || rank_of(z) != Some(0) {
        return Ok(None);
    }
    let u8_type: Type = IntegerType::unsigned(ctx.b.context, 8).into();
    let shift = |v| int8_as_uint8(ctx, v);
    let ty = builder::with_element_type(q.r#type(), u8_type).ok_or("not a tensor")?;
    let mut qu = ctx.b.onnx().quantize_linear(x, s, Some(shift(z)?), None, None, None, None, None).typed(ty)?;
    if let Some((lo, hi)) = clip {
        qu = ctx.b.onnx().clip(qu, Some(shift(lo)?), Some(shift(hi)?)).typed(ty)?;
    }
    Ok(Some((qu, shift(zp)?)))
}

/// `a @ b` (`a` of rank >= 2, `b` a `[K, N]` matrix, float32) on the
/// integers when `a` is dequantized per tensor with a scale computed in the
/// graph and `b` is a dequantized 8-bit weight (per tensor or per column
/// `N`, or the transpose of one dequantized per row); `None` otherwise, and
/// the caller builds the float product.
pub fn dynamic_integer_matmul<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    a: Value<'c, 'a>,
    b: Value<'c, 'a>,
    result: Type<'c>,
) -> Result<Option<Value<'c, 'a>>, String> {
    let f32_type = ctx.b.f32_type();
    // `b`'s type may be unranked (a Transpose the caller built): its
    // operand's decides.
    if builder::element_type(result) != Some(f32_type) || rank_of(a).is_none_or(|r| r < 2) {
        return Ok(None);
    }
    // Reshapes of the dequantized activation (core ATen flattens a Linear's
    // leading dims: `view` then `mm`) move the integers instead.
    let mut reshapes = Vec::new();
    let mut a_source = a;
    while let Some(r) = ir::defining_op(a_source).filter(|d| ir::op_name(*d) == "onnx.Reshape") {
        reshapes.push((ir::operand_at(r, 1).ok_or("Reshape without shape")?, a_source.r#type(), ir::int_attribute(r, "allowzero")));
        a_source = ir::operand_at(r, 0).ok_or("Reshape without input")?;
    }
    let Some((qa, sa, Some(za), _)) = dequantized(a_source) else { return Ok(None) };
    // Static scales stay QDQ: onnxruntime and NPU toolchains fuse those.
    if rank_of(sa) != Some(0) || rank_of(za) != Some(0) || is_constant(sa) {
        return Ok(None);
    }
    // The weight as [K, N] integers, its scales and zero points along N.
    let (wq, ws, wz) = if let Some((w, s, z, axis)) = dequantized(b) {
        let per_column = rank_of(s) == Some(1) && (axis == 1 || axis == -1);
        if !(rank_of(s) == Some(0) || per_column) || rank_of(w) != Some(2) {
            return Ok(None);
        }
        (w, s, z)
    } else {
        let Some(t) = ir::defining_op(b).filter(|t| ir::op_name(*t) == "onnx.Transpose") else { return Ok(None) };
        let perm = t.attribute("perm").ok().and_then(ir::dense_i64_values);
        if perm.is_some_and(|p| p != [1, 0]) {
            return Ok(None);
        }
        let Some((w, s, z, axis)) = ir::operand_at(t, 0).and_then(dequantized) else { return Ok(None) };
        let per_row = rank_of(s) == Some(1) && (axis == 0 || axis == -2);
        if !(rank_of(s) == Some(0) || per_row) || rank_of(w) != Some(2) {
            return Ok(None);
        }
        let dims = crate::shape::shape_of(w.r#type()).ok_or("an unranked weight")?;
        let element = builder::element_type(w.r#type()).ok_or("not a tensor")?;
        let wt_type = crate::shape::tensor_type(ctx.b.context, &[dims[1].clone(), dims[0].clone()], element);
        (ctx.b.onnx().transpose(w, Some(&[1, 0])).typed(wt_type)?, s, z)
    };
    if int8_kind(wq.r#type()).is_none() || builder::element_type(ws.r#type()) != Some(f32_type) {
        return Ok(None);
    }
    let Some(k) = builder::dims(wq.r#type()).and_then(|d| d[0]) else { return Ok(None) };
    if k > MAX_TERMS {
        return Ok(None);
    }
    let Some((mut qa, za)) = activation_u8(ctx, qa, za)? else { return Ok(None) };
    for (shape, ty, allowzero) in reshapes.into_iter().rev() {
        let u8_ty = builder::with_element_type(ty, builder::element_type(qa.r#type()).ok_or("not a tensor")?)
            .ok_or("not a tensor")?;
        qa = ctx.b.onnx().reshape(qa, shape, allowzero).typed(u8_ty)?;
    }
    let i32_type: Type = IntegerType::new(ctx.b.context, 32).into();
    let acc_type = builder::with_element_type(result, i32_type).ok_or("not a tensor")?;
    let acc = ctx.b.onnx().mat_mul_integer(qa, wq, Some(za), wz).typed(acc_type)?;
    let accf = ctx.b.cast(acc, f32_type)?;
    let scale = ctx.b.onnx().mul(sa, ws).like(ws)?;
    Ok(Some(ctx.b.onnx().mul(accf, scale).typed(result)?))
}
