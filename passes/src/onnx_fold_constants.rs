//! `onnx-fold-constants`: evaluates shape arithmetic at compile time.
//! `Shape` of a tensor whose (selected) dims are static becomes a constant,
//! and integer ops whose inputs are all small constants (`Gather`, `Slice`,
//! `Concat`, `Unsqueeze`, `Squeeze`, `Cast`, `Add`, `Sub`, `Mul`, `Div`,
//! `Equal`, `Identity`, `Range`) are replaced by their value. Dynamic shapes
//! stay computed; float math and weights are left to the optimizer.

use crate::{
    ir::{self, nested_ops},
    lowering::builder::{dims, element_type},
    onnx_ir, Factory, PassId, PassInfo, ProjectPass,
};
use melior::ir::{
    attribute::{AttributeLike, DenseElementsAttribute, IntegerAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::{IntegerType, RankedTensorType, TypeLike},
    Attribute, BlockLike, Identifier, OperationRef, Type, Value, ValueLike,
};
use mlir_sys as sys;

static ID: PassId = PassId::new();

pub const INFO: PassInfo = PassInfo {
    name: "onnx-fold-constants",
    summary: "Fold shape arithmetic on constants (Shape of static dims, int64 Gather/Slice/Concat/...)",
    options: &[],
    create: |_| Ok(Box::new(Factory { pass: FoldConstants, id: &ID, info: &INFO })),
};

#[derive(Clone)]
struct FoldConstants;

impl ProjectPass for FoldConstants {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()> {
        fold(op);
        Ok(())
    }
}

/// Largest constant this pass creates (elements): shape values are tiny.
const MAX_ELEMENTS: usize = 64;

/// An integer tensor known at compile time.
#[derive(Clone, Debug, PartialEq)]
struct IntTensor {
    shape: Vec<i64>,
    values: Vec<i64>,
}

impl IntTensor {
    fn scalar_or_vector(&self) -> bool {
        self.shape.len() <= 1
    }
}

/// Folds everything under `root`; returns how many ops were replaced.
pub fn fold(root: OperationRef<'_, '_>) -> usize {
    let mut folded = 0;
    for op in nested_ops(root) {
        folded += fold(op);
        if !ir::op_name(op).starts_with(onnx_ir::DIALECT_PREFIX) || op.result_count() != 1 {
            continue;
        }
        let Some(value) = evaluate(op) else {
            folded += merge_constant_runs(op) as usize;
            continue;
        };
        if value.values.len() > MAX_ELEMENTS {
            continue;
        }
        if replace_with_constant(op, &value).is_some() {
            folded += 1;
        }
    }
    folded
}

/// The value of a constant operand (int64 / int32 / bool dense elements).
fn constant_of(value: Value<'_, '_>) -> Option<IntTensor> {
    unsafe {
        if !sys::mlirValueIsAOpResult(value.to_raw()) {
            return None;
        }
        let owner = OperationRef::from_raw(sys::mlirOpResultGetOwner(value.to_raw()));
        if ir::op_name(owner) != "onnx.Constant" {
            return None;
        }
        let attr = owner.attribute("value").ok()?;
        let raw = attr.to_raw();
        if !sys::mlirAttributeIsADenseIntElements(raw) {
            return None;
        }
        let ty = Type::from_raw(sys::mlirAttributeGetType(raw));
        let shape: Vec<i64> = dims(ty)?.into_iter().collect::<Option<_>>()?;
        let n = sys::mlirElementsAttrGetNumElements(raw) as usize;
        if n > MAX_ELEMENTS {
            return None;
        }
        let elem = element_type(ty)?;
        let width = sys::mlirIntegerTypeGetWidth(elem.to_raw());
        // Only the widths read below (imported ONNX models also hold i8,
        // i16 and unsigned constants, which other accessors must read).
        if !matches!(width, 1 | 32 | 64) || (width != 1 && sys::mlirIntegerTypeIsUnsigned(elem.to_raw())) {
            return None;
        }
        let values = (0..n as isize)
            .map(|i| match width {
                1 => sys::mlirDenseElementsAttrGetBoolValue(raw, i) as i64,
                32 => sys::mlirDenseElementsAttrGetInt32Value(raw, i) as i64,
                _ => sys::mlirDenseElementsAttrGetInt64Value(raw, i),
            })
            .collect();
        Some(IntTensor { shape, values })
    }
}

fn norm(i: i64, n: usize) -> i64 {
    if i < 0 {
        i + n as i64
    } else {
        i
    }
}

/// Broadcasts two scalars/vectors elementwise.
fn elementwise(a: &IntTensor, b: &IntTensor, f: impl Fn(i64, i64) -> Option<i64>) -> Option<IntTensor> {
    if !a.scalar_or_vector() || !b.scalar_or_vector() {
        return None;
    }
    let (n, shape) = match (a.values.len(), b.values.len()) {
        (x, y) if x == y => (x, if a.shape.len() >= b.shape.len() { a.shape.clone() } else { b.shape.clone() }),
        (1, y) => (y, b.shape.clone()),
        (x, 1) => (x, a.shape.clone()),
        _ => return None,
    };
    let get = |t: &IntTensor, i: usize| t.values[if t.values.len() == 1 { 0 } else { i }];
    let values = (0..n).map(|i| f(get(a, i), get(b, i))).collect::<Option<Vec<_>>>()?;
    Some(IntTensor { shape, values })
}

/// The dims a `Shape` op selects from its input's type (between `start`
/// and `end`), each `None` when not static.
fn shape_dims(shape_op: OperationRef<'_, '_>) -> Option<Vec<Option<i64>>> {
    let d = dims(crate::ir::operand_at(shape_op, 0)?.r#type())?;
    let rank = d.len();
    let start = norm(crate::ir::int_attribute(shape_op, "start").unwrap_or(0), rank).clamp(0, rank as i64) as usize;
    let end =
        norm(crate::ir::int_attribute(shape_op, "end").unwrap_or(rank as i64), rank).clamp(0, rank as i64) as usize;
    Some(d.get(start..end.max(start))?.to_vec())
}

/// `Gather(Shape(x), indices)` picking only static dims of `x` (a head size
/// next to a symbolic batch, as the TorchScript exporter reads sizes): the
/// dims, although `Shape(x)` as a whole is not constant.
fn gather_of_static_dims(op: OperationRef<'_, '_>) -> Option<IntTensor> {
    if crate::ir::int_attribute(op, "axis").unwrap_or(0) != 0 || op.operand_count() != 2 {
        return None;
    }
    let shape_op = crate::ir::defining_op(crate::ir::operand_at(op, 0)?)?;
    if ir::op_name(shape_op) != "onnx.Shape" {
        return None;
    }
    let selected = shape_dims(shape_op)?;
    let indices = constant_of(crate::ir::operand_at(op, 1)?)?;
    let n = selected.len() as i64;
    let values = indices
        .values
        .iter()
        .map(|&i| if (-n..n).contains(&i) { selected[norm(i, selected.len()) as usize] } else { None })
        .collect::<Option<Vec<i64>>>()?;
    Some(IntTensor { shape: indices.shape, values })
}

/// Evaluates `op` if its value is known.
fn evaluate(op: OperationRef<'_, '_>) -> Option<IntTensor> {
    let name = ir::op_name(op);
    let result_type = crate::ir::result_at(op, 0)?.r#type();
    let result_elem = element_type(result_type)?;
    let is_int_result = unsafe { sys::mlirTypeIsAInteger(result_elem.to_raw()) };
    if !is_int_result {
        return None;
    }
    let op_type = name.strip_prefix(onnx_ir::DIALECT_PREFIX)?;
    if op_type == "Shape" {
        let values: Vec<i64> = shape_dims(op)?.into_iter().collect::<Option<_>>()?;
        return Some(IntTensor { shape: vec![values.len() as i64], values });
    }
    if op_type == "Gather" {
        if let Some(value) = gather_of_static_dims(op) {
            return Some(value);
        }
    }
    let inputs: Vec<IntTensor> = op.operands().map(constant_of).collect::<Option<_>>()?;
    let value = match (op_type, inputs.as_slice()) {
        ("Identity", [x]) => x.clone(),
        // Cast to bool is `x != 0`; to other integer types the value is
        // truncated to the width, as the constant's element type does.
        ("Cast", [x]) => {
            if unsafe { sys::mlirIntegerTypeGetWidth(result_elem.to_raw()) } == 1 {
                IntTensor { shape: x.shape.clone(), values: x.values.iter().map(|&v| (v != 0) as i64).collect() }
            } else {
                x.clone()
            }
        }
        ("Add", [a, b]) => elementwise(a, b, |x, y| x.checked_add(y))?,
        ("Sub", [a, b]) => elementwise(a, b, |x, y| x.checked_sub(y))?,
        ("Mul", [a, b]) => elementwise(a, b, |x, y| x.checked_mul(y))?,
        ("Div", [a, b]) => elementwise(a, b, |x, y| x.checked_div(y))?,
        ("Equal", [a, b]) => elementwise(a, b, |x, y| Some((x == y) as i64))?,
        ("Concat", parts) => {
            if parts.iter().any(|p| p.shape.len() != 1) {
                return None;
            }
            let values: Vec<i64> = parts.iter().flat_map(|p| p.values.clone()).collect();
            IntTensor { shape: vec![values.len() as i64], values }
        }
        ("Unsqueeze", [x, axes]) if x.shape.is_empty() && axes.values == [0] => {
            IntTensor { shape: vec![1], values: x.values.clone() }
        }
        ("Squeeze", [x, axes]) if x.shape == [1] && (axes.values == [0] || axes.values == [-1]) => {
            IntTensor { shape: vec![], values: x.values.clone() }
        }
        ("Gather", [data, indices])
            if data.shape.len() == 1 && crate::ir::int_attribute(op, "axis").unwrap_or(0) == 0 =>
        {
            let n = data.values.len();
            let values = indices
                .values
                .iter()
                .map(|&i| data.values.get(norm(i, n) as usize).copied())
                .collect::<Option<Vec<_>>>()?;
            IntTensor { shape: indices.shape.clone(), values }
        }
        ("Slice", [data, starts, ends, rest @ ..]) if data.shape.len() == 1 => {
            let axes_ok = rest.first().is_none_or(|a| a.values == [0] || a.values == [-1]);
            let step = rest.get(1).map_or(Some(1), |s| s.values.first().copied())?;
            if !axes_ok || step != 1 || starts.values.len() != 1 || ends.values.len() != 1 {
                return None;
            }
            let n = data.values.len() as i64;
            let s = norm(starts.values[0], n as usize).clamp(0, n);
            let e = if ends.values[0] >= n { n } else { norm(ends.values[0], n as usize).clamp(0, n) };
            let values = data.values[s as usize..e.max(s) as usize].to_vec();
            IntTensor { shape: vec![values.len() as i64], values }
        }
        ("Range", [start, limit, delta])
            if start.shape.is_empty() && limit.shape.is_empty() && delta.shape.is_empty() =>
        {
            let (s, l, d) = (start.values[0], limit.values[0], delta.values[0]);
            if d == 0 {
                return None;
            }
            // In i128: `limit - start` may not fit in i64.
            let n = ((i128::from(l) - i128::from(s)) as f64 / d as f64).ceil().max(0.0) as usize;
            if n > MAX_ELEMENTS {
                return None;
            }
            let values: Vec<i64> =
                (0..n as i64).map(|i| i.checked_mul(d).and_then(|x| x.checked_add(s))).collect::<Option<_>>()?;
            IntTensor { shape: vec![values.len() as i64], values }
        }
        _ => return None,
    };
    Some(value)
}

/// Inserts `onnx.Constant` holding `value` with element type `elem` before `at`.
fn insert_constant<'c, 'a>(at: OperationRef<'c, 'a>, value: &IntTensor, elem: Type<'c>) -> Option<Value<'c, 'a>> {
    // `to_ref` borrows the ContextRef: keep it alive as long as the context is used.
    let context_ref = at.context();
    let context = unsafe { context_ref.to_ref() };
    let shape: Vec<u64> = value.shape.iter().map(|&d| d as u64).collect();
    let ty: Type = RankedTensorType::new(&shape, elem, None).into();
    let width = unsafe { sys::mlirIntegerTypeGetWidth(elem.to_raw()) };
    let attr_elem: Type = IntegerType::new(context, width).into();
    let elements: Vec<Attribute> = value.values.iter().map(|&v| IntegerAttribute::new(attr_elem, v).into()).collect();
    let dense = DenseElementsAttribute::new(ty, &elements).ok()?;
    let constant = OperationBuilder::new("onnx.Constant", at.location())
        .add_attributes(&[(Identifier::new(context, "value"), dense.into())])
        .add_results(&[ty])
        .build()
        .ok()?;
    ir::result_at(at.block()?.insert_operation_before(at, constant), 0)
}

/// Replaces `op` by `onnx.Constant` holding `value` (its result's element type).
fn replace_with_constant(op: OperationRef<'_, '_>, value: &IntTensor) -> Option<()> {
    let old: Value = crate::ir::result_at(op, 0)?;
    let elem = element_type(old.r#type())?;
    // A result whose declared type is less precise than the constant's
    // (`tensor<*xi64>` of an imported model's output without a shape) stays
    // when a `func.return` or `onnx.yield` uses it: their types must match
    // the function's (the parent op's) result types.
    let shape: Vec<u64> = value.shape.iter().map(|&d| d as u64).collect();
    let folded_type: Type = RankedTensorType::new(&shape, elem, None).into();
    if old.r#type() != folded_type && used_by_terminator(old) {
        return None;
    }
    let new = insert_constant(op, value, elem)?;
    unsafe {
        sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw());
        ir::erase(op);
    }
    Some(())
}

/// True when a `func.return` or `onnx.yield` uses `value`.
fn used_by_terminator(value: Value<'_, '_>) -> bool {
    ir::uses(value).iter().any(|(owner, _)| matches!(ir::op_name(*owner).as_str(), "func.return" | "onnx.yield"))
}

/// `Concat(a, c1, c2, b)` of 1-D int tensors with adjacent constants becomes
/// `Concat(a, c12, b)`: shape vectors keep one constant run between the
/// dynamic dims.
fn merge_constant_runs<'c, 'a>(op: OperationRef<'c, 'a>) -> bool {
    if ir::op_name(op) != "onnx.Concat" || op.operand_count() < 2 {
        return false;
    }
    let operands: Vec<Value> = op.operands().collect();
    let constants: Vec<Option<IntTensor>> =
        operands.iter().map(|v| constant_of(*v).filter(|t| t.shape.len() == 1)).collect();
    let has_run = constants.windows(2).any(|w| w[0].is_some() && w[1].is_some());
    if !has_run {
        return false;
    }
    // `to_ref` borrows the ContextRef: keep it alive as long as the context is used.
    let context_ref = op.context();
    let i64_type: Type = IntegerType::new(unsafe { context_ref.to_ref() }, 64).into();
    let mut merged: Vec<Value<'c, 'a>> = Vec::new();
    let mut run: Vec<i64> = Vec::new();
    let flush = |run: &mut Vec<i64>, merged: &mut Vec<Value<'c, 'a>>| -> Option<()> {
        if !run.is_empty() {
            merged.push(insert_constant(
                op,
                &IntTensor { shape: vec![run.len() as i64], values: run.clone() },
                i64_type,
            )?);
            run.clear();
        }
        Some(())
    };
    for (value, constant) in operands.iter().zip(&constants) {
        match constant {
            Some(t)
                if element_type(value.r#type())
                    .is_some_and(|e| unsafe { sys::mlirIntegerTypeGetWidth(e.to_raw()) } == 64) =>
            {
                run.extend(&t.values)
            }
            _ => {
                if flush(&mut run, &mut merged).is_none() {
                    return false;
                }
                merged.push(*value);
            }
        }
    }
    if flush(&mut run, &mut merged).is_none() {
        return false;
    }
    unsafe {
        let raw: Vec<sys::MlirValue> = merged.iter().map(|v| v.to_raw()).collect();
        sys::mlirOperationSetOperands(op.to_raw(), raw.len() as isize, raw.as_ptr());
    }
    true
}
