//! `onnx-widen-ints`: runs the few integer (and bool) ops that
//! onnxruntime's CPU provider has no kernel for in a wider type, exactly.
//!
//! Why: ONNX defines `Where`, `Max`, `Pad`, ... for every integer type, but
//! onnxruntime 1.32 refuses to load a model with, say, an int16 `Max` or a
//! bool `Where` ("Could not find an implementation"), and torch programs on
//! int16/uint16/bool tensors produce them (clamp, cartesian_prod, shifts).
//! Casting the operands to the next type with a kernel and the result back
//! gives the same values (selection, comparison and sums modulo 2^n do not
//! depend on the width; int8 Trilu/Einsum, int32 Unique and bool
//! ScatterElements max/min are in the table too), so the model loads everywhere at the cost of a few
//! Casts. The table below is what onnxruntime 1.32 lacks (checked by loading
//! one-op models for each type); the rest of the graph is untouched.

use crate::{
    ir,
    lowering::builder::{self, Builder},
    onnx_ir, Factory, PassId, PassInfo, ProjectPass,
};
use melior::ir::{operation::OperationLike, r#type::IntegerType, OperationRef, Type, TypeLike as _, ValueLike};
use mlir_sys as sys;

static ID: PassId = PassId::new();

pub const INFO: PassInfo = PassInfo {
    name: "onnx-widen-ints",
    summary: "Compute integer/bool ops onnxruntime has no kernel for (int16 Max, bool Where, ...) in a wider type",
    options: &[],
    create: |_| Ok(Box::new(Factory { pass: WidenInts, id: &ID, info: &INFO })),
};

#[derive(Clone)]
struct WidenInts;

impl ProjectPass for WidenInts {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()> {
        if ir::op_name(op) != "func.func" {
            return Ok(());
        }
        let opset = onnx_ir::opset_of(op);
        let mut ops = Vec::new();
        ir::walk(op, &mut |o| ops.push(o));
        for o in ops {
            if let Err(message) = widen(o, opset) {
                crate::diag::op_error(o, &format!("onnx-widen-ints: {message}"));
                return Err(());
            }
        }
        Ok(())
    }
}

/// An element type as (signed, bits); bool is (false, 1).
fn int_kind(ty: Type<'_>) -> Option<(bool, u32)> {
    let element = builder::element_type(ty)?;
    let int = IntegerType::try_from(element).ok()?;
    Some((int.is_signed() || int.is_signless() && int.width() != 1, int.width()))
}

/// For an op and the kind of its data operand: the wider type to compute in
/// (signless for signed ints, as the ONNX dialect types them), the data
/// operands and the results that carry the data type.
fn plan(op_type: &str, kind: (bool, u32)) -> Option<((bool, u32), &'static [usize], &'static [usize])> {
    const WIDER: fn((bool, u32)) -> Option<(bool, u32)> = |k| match k {
        (false, 1) => Some((false, 8)),  // bool -> uint8
        (_, 8) => Some((true, 32)),      // int8 / uint8 -> int32
        (_, 16) => Some((true, 32)),     // int16 / uint16 -> int32
        (false, 32) => Some((true, 64)), // uint32 -> int64
        _ => None,
    };
    let missing = |kinds: &[(bool, u32)]| kinds.contains(&kind);
    const NARROW: &[(bool, u32)] = &[(true, 8), (false, 8), (true, 16), (false, 16)];
    // Unique's kernels: int8, int64 (and floats): the rest in int64, whose
    // order is the same for these non-negative or sign-extended values.
    if op_type == "Unique" && missing(&[(false, 1), (false, 8), (true, 16), (false, 16), (true, 32), (false, 32)]) {
        return Some(((true, 64), &[0], &[0]));
    }
    let (data, results): (&'static [usize], &'static [usize]) = match op_type {
        "Trilu" if missing(NARROW) => (&[0], &[0]),
        // Sums of products modulo 2^n: the same in a wider type.
        "Einsum" if missing(NARROW) => (&[0, 1, 2, 3, 4, 5, 6, 7], &[0]),
        // Runs for bool only without a max/min reduction (`ScatterElements:max`).
        "ScatterElements:max" | "ScatterElements:min" if missing(&[(false, 1)]) => (&[0, 2], &[0]),
        "Where" if missing(&[(false, 1), (true, 16), (false, 16)]) => (&[1, 2], &[0]),
        "Max" | "Min" if missing(&[(true, 16), (false, 16)]) => (&[0, 1], &[0]),
        "Pad" if missing(&[(true, 16), (false, 16)]) => (&[0, 2], &[0]),
        // No int16 kernel: onnxruntime expands its function body, whose Where fails.
        "Clip" if missing(&[(true, 16), (false, 16)]) => (&[0, 1, 2], &[0]),
        "ArgMax" | "ArgMin" if missing(&[(true, 16), (false, 16), (false, 32)]) => (&[0], &[]),
        "ReduceMax" | "ReduceMin" | "ReduceSum" | "CumSum" if missing(&[(false, 32)]) => (&[0], &[0]),
        "TopK" if missing(&[(false, 16), (false, 32)]) => (&[0], &[0]),
        _ => return None,
    };
    Some((WIDER(kind)?, data, results))
}

fn widen(op: OperationRef<'_, '_>, opset: u32) -> Result<(), String> {
    let name = ir::op_name(op);
    let Some(("", op_type)) = onnx_ir::split_name(&name) else { return Ok(()) };
    // The data operand that decides the type (Where's is its second).
    let first_data = if op_type == "Where" { 1 } else { 0 };
    let Some(data) = ir::operand_at(op, first_data) else { return Ok(()) };
    let Some(kind) = int_kind(data.r#type()) else { return Ok(()) };
    let reduction = op.attribute("reduction").ok().and_then(ir::string_value).unwrap_or_default();
    let keyed = if op_type == "ScatterElements" { format!("ScatterElements:{reduction}") } else { op_type.to_string() };
    let Some(((signed, bits), operands, results)) = plan(&keyed, kind) else { return Ok(()) };
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    let wide: Type =
        if signed { IntegerType::new(context, bits).into() } else { IntegerType::unsigned(context, bits).into() };
    let before = Builder::new(context, op, opset)?;
    let mut casts: Vec<(sys::MlirValue, sys::MlirValue)> = Vec::new(); // one Cast per operand value
    for &i in operands {
        let Some(v) = ir::operand_at(op, i) else { continue }; // optional operand absent
        if int_kind(v.r#type()) != Some(kind) {
            continue;
        }
        let cast = match casts.iter().find(|(from, _)| from.ptr == v.to_raw().ptr) {
            Some(&(_, cast)) => cast,
            None => {
                let cast = before.cast(v, wide)?.to_raw();
                casts.push((v.to_raw(), cast));
                cast
            }
        };
        unsafe { sys::mlirOperationSetOperand(op.to_raw(), i as isize, cast) };
    }
    let after = op.next_in_block().ok_or("an op without a successor in its block")?;
    let mut back = Builder::new(context, after, opset)?;
    back.location = op.location();
    for &r in results {
        let result = ir::result_at(op, r).ok_or("result out of range")?;
        let ty = result.r#type();
        let original = builder::element_type(ty).ok_or("result is not a tensor")?;
        let widened = builder::with_element_type(ty, wide).ok_or("result is not a tensor")?;
        unsafe { sys::mlirValueSetType(result.to_raw(), widened.to_raw()) };
        let cast = back.cast(result, original)?;
        let cast_op = ir::defining_op(cast).ok_or("a cast without its op")?;
        let mut except = [cast_op.to_raw()];
        unsafe { sys::mlirValueReplaceAllUsesExcept(result.to_raw(), cast.to_raw(), 1, except.as_mut_ptr()) };
    }
    Ok(())
}
