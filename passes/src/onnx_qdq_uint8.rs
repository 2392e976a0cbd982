//! `onnx-qdq-uint8`: the int8 activations of QDQ pairs become uint8,
//! exactly (with `keep-symmetric=1`, the default target's form, a function
//! whose every pair has zero points 0 stays int8: TensorRT-style toolchains
//! take only symmetric int8 activations, and an asymmetric int8 program is
//! no more portable as uint8 than as int8).
//!
//! Why: PT2E's XNNPACK quantizer writes int8 activations and int8 weights.
//! onnxruntime's x86 kernels multiply uint8 activations by int8 weights; its
//! own int8-to-uint8 conversion of QDQ pairs does not apply to a quantized
//! tensor read by several ops (a transformer's normalized input read by the
//! next Linear and by the residual Add), and those products then stay float
//! MatMuls on weights dequantized at every run. Measured with
//! tools/bench/bench_qdq_forms.py (a 4-layer BERT-size encoder, 1 thread,
//! onnxruntime 1.32): 60 ms before, 17 ms after; the float model takes 58.
//!
//! The rewrite: a `QuantizeLinear` to int8 whose zero point is a constant and
//! whose every user is a `DequantizeLinear` of it with a constant int8 zero
//! point becomes a `QuantizeLinear` to uint8 with the zero point plus 128,
//! and each `DequantizeLinear` reads it with its zero point plus 128. Exact:
//! `saturate(round(x / s) + z + 128)` over [0, 255] is the int8 value plus
//! 128, and `(q + 128) - (z' + 128)` is `q - z'`. Weights (int8 constants
//! without a `QuantizeLinear`) stay int8, as the kernels want them; a
//! quantized value read by anything else (a `Clip` of a narrower range, a
//! function result) is left alone. Ops that only move the integers between
//! the pair (Reshape, Flatten, Transpose, ...) carry the uint8 values.

use crate::{
    ir,
    lowering::builder::{self, Builder},
    onnx_ir, Factory, PassId, PassInfo, PassOption, ProjectPass,
};
use melior::ir::{
    attribute::AttributeLike as _, attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType,
    r#type::TypeLike as _, Attribute, OperationRef, Type, Value, ValueLike,
};
use mlir_sys as sys;

static ID: PassId = PassId::new();

pub const INFO: PassInfo = PassInfo {
    name: "onnx-qdq-uint8",
    summary: "Quantize activations to uint8 instead of int8 in QuantizeLinear -> DequantizeLinear pairs (exact; onnxruntime's x86 QDQ kernels)",
    options: &[PassOption {
        name: "keep-symmetric",
        help: "1: leave a function whose every pair has zero points 0 (symmetric int8, which some NPU toolchains require) as it is; default 0",
    }],
    create: |options| {
        let keep_symmetric = match options.get("keep-symmetric").map(String::as_str) {
            None | Some("0") => false,
            Some("1") => true,
            Some(other) => return Err(format!("onnx-qdq-uint8: keep-symmetric must be 0 or 1, got '{other}'")),
        };
        Ok(Box::new(Factory { pass: QdqUint8 { keep_symmetric }, id: &ID, info: &INFO }))
    },
};

#[derive(Clone)]
struct QdqUint8 {
    keep_symmetric: bool,
}

impl ProjectPass for QdqUint8 {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()> {
        if ir::op_name(op) != "func.func" {
            return Ok(());
        }
        let opset = onnx_ir::opset_of(op);
        let mut quantizes = Vec::new();
        ir::walk(op, &mut |o| {
            if ir::op_name(o) == "onnx.QuantizeLinear" {
                quantizes.push(o);
            }
        });
        // keep-symmetric: a program whose every such pair has zero points 0
        // was quantized symmetrically and stays as it is (a zero point of 0
        // in an asymmetric program is a calibration's coincidence).
        if self.keep_symmetric {
            let mut all_symmetric = true;
            for &q in &quantizes {
                match rewrite(q, opset, false) {
                    Ok(Some(symmetric)) => all_symmetric &= symmetric,
                    Ok(None) => {}
                    Err(message) => {
                        crate::diag::op_error(q, &format!("onnx-qdq-uint8: {message}"));
                        return Err(());
                    }
                }
            }
            if all_symmetric {
                return Ok(());
            }
        }
        for q in quantizes {
            if let Err(message) = rewrite(q, opset, true) {
                crate::diag::op_error(q, &format!("onnx-qdq-uint8: {message}"));
                return Err(());
            }
        }
        Ok(())
    }
}

/// Ops whose first operand's values reach their result unchanged (moved,
/// copied or relabelled), whatever the element type.
const DATA_MOVEMENT: &[&str] = &[
    "onnx.Reshape",
    "onnx.Flatten",
    "onnx.Transpose",
    "onnx.Squeeze",
    "onnx.Unsqueeze",
    "onnx.Expand",
    "onnx.Identity",
];

/// True for an 8-bit signed (or signless) integer tensor type.
fn is_int8(ty: Type<'_>) -> bool {
    builder::element_type(ty)
        .and_then(|e| IntegerType::try_from(e).ok())
        .is_some_and(|i| i.width() == 8 && !i.is_unsigned())
}

/// The values of an int8 `onnx.Constant` (any shape) and its type.
fn int8_constant<'c>(v: Value<'c, '_>) -> Option<(Vec<i64>, Type<'c>)> {
    let def = ir::defining_op(v)?;
    if ir::op_name(def) != "onnx.Constant" || !is_int8(v.r#type()) {
        return None;
    }
    let attr = def.attribute("value").ok()?;
    let raw = attr.to_raw();
    unsafe {
        if !sys::mlirAttributeIsADenseElements(raw) {
            return None;
        }
        let n = sys::mlirElementsAttrGetNumElements(raw);
        Some(((0..n).map(|i| sys::mlirDenseElementsAttrGetInt8Value(raw, i as isize) as i64).collect(), v.r#type()))
    }
}

/// A uint8 constant of `values + 128` with the shape of `like`, built before `at`.
fn shifted<'c, 'a>(
    at: OperationRef<'c, 'a>,
    opset: u32,
    values: &[i64],
    like: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let context_ref = at.context(); // alive while `context` is used
    let context = unsafe { context_ref.to_ref() };
    let u8_type: Type = IntegerType::unsigned(context, 8).into();
    let ty = builder::with_element_type(like, u8_type).ok_or("a zero point that is not a tensor")?;
    let elements: Vec<Attribute> = values.iter().map(|v| IntegerAttribute::new(u8_type, v + 128).into()).collect();
    Builder::new(context, at, opset)?.constant(ty, &elements)
}

/// Rewrites the pair of `q` when it qualifies (`apply`), or only says
/// whether it does: `Some(true)` when its zero points are all 0.
fn rewrite(q: OperationRef<'_, '_>, opset: u32, apply: bool) -> Result<Option<bool>, String> {
    let Some(result) = ir::result_at(q, 0) else { return Ok(None) };
    if !is_int8(result.r#type()) {
        return Ok(None);
    }
    // An explicit output type other than int8 (3) is not this case.
    if ir::int_attribute(q, "output_dtype").is_some_and(|t| t != 3 && t != 0) {
        return Ok(None);
    }
    let Some((zero_point, zp_type)) = ir::operand_at(q, 2).and_then(int8_constant) else { return Ok(None) };
    // The users, through ops that only move the integers (the optimizer's
    // `dq-through-data-movement` puts a Reshape or Flatten between the
    // pair): every path must end in a DequantizeLinear.
    let mut dequantizes = Vec::new();
    let mut moved = Vec::new();
    let mut pending = vec![result];
    while let Some(v) = pending.pop() {
        for (user, index) in ir::uses(v) {
            let name = ir::op_name(user);
            if name == "onnx.DequantizeLinear" && index == 0 {
                let Some(zp) = ir::operand_at(user, 2).and_then(int8_constant) else { return Ok(None) };
                dequantizes.push((user, zp));
            } else if matches!(name.as_str(), "onnx.Shape" | "onnx.Size") {
                // Reads the shape only.
            } else if DATA_MOVEMENT.contains(&name.as_str()) && index == 0 {
                let Some(r) = ir::result_at(user, 0) else { return Ok(None) };
                moved.push(r);
                pending.push(r);
            } else {
                return Ok(None);
            }
        }
    }
    if dequantizes.is_empty() {
        return Ok(None);
    }
    let symmetric = zero_point.iter().chain(dequantizes.iter().flat_map(|(_, (v, _))| v)).all(|&z| z == 0);
    if !apply {
        return Ok(Some(symmetric));
    }
    let context_ref = q.context(); // alive while `context` is used
    let context = unsafe { context_ref.to_ref() };
    let u8_type: Type = IntegerType::unsigned(context, 8).into();
    let mut replaced = vec![ir::operand_at(q, 2).ok_or("no zero point")?];
    let new_zp = shifted(q, opset, &zero_point, zp_type)?;
    unsafe { sys::mlirOperationSetOperand(q.to_raw(), 2, new_zp.to_raw()) };
    if ir::int_attribute(q, "output_dtype").is_some_and(|t| t == 3) {
        ir::set_i64_attribute(q, "output_dtype", 2);
    }
    for v in std::iter::once(result).chain(moved) {
        let ty = builder::with_element_type(v.r#type(), u8_type).ok_or("result is not a tensor")?;
        unsafe { sys::mlirValueSetType(v.to_raw(), ty.to_raw()) };
    }
    for (dq, (values, zp_type)) in dequantizes {
        replaced.push(ir::operand_at(dq, 2).ok_or("no zero point")?);
        let zp = shifted(dq, opset, &values, zp_type)?;
        unsafe { sys::mlirOperationSetOperand(dq.to_raw(), 2, zp.to_raw()) };
    }
    // The int8 zero points nothing reads any more.
    let mut erased: Vec<sys::MlirOperation> = Vec::new();
    for old in replaced {
        if let Some(def) = ir::defining_op(old).filter(|_| !ir::has_uses(old)) {
            if !erased.iter().any(|e| e.ptr == def.to_raw().ptr) {
                erased.push(def.to_raw());
                unsafe { sys::mlirOperationDestroy(def.to_raw()) };
            }
        }
    }
    Ok(Some(symmetric))
}
