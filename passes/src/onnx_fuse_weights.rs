//! `onnx-fuse-weights`: MatMuls that share their input and whose weights are
//! initializers become one MatMul on the concatenated weight and a Split
//! (the QKV projections of attention, the gate and up projections of a
//! gated MLP); likewise 2-D Gemms (alpha = beta = 1, transA = 0, the same
//! transB, each with a `[N]` bias weight or none), whose weights concatenate
//! along N (axis 0 when transB) and biases along 0:
//!
//! ```text
//! MatMul(x, Wq), MatMul(x, Wk), MatMul(x, Wv)         (W* : [K, N*] initializers
//!   -> Split(MatMul(x, concat(Wq, Wk, Wv, axis 1)),     or weight transforms)
//!            [Nq, Nk, Nv], axis -1)
//! ```
//!
//! When every MatMul of a group is followed by an `Add` of its own `[N]` bias
//! weight (a Linear with a bias on a 3-D input) and nothing else, the biases
//! concatenate as well: `Split(Add(MatMul(x, concat(W)), concat(b)))` — the
//! same sums element by element, one Add instead of n.
//!
//! The concatenated weight is an `onnx.weight_transform{kind = "concat"}`:
//! the writer streams its parts row by row (src/export/transform.rs), the IR
//! holds no copy, and a part used only there is not written on its own.
//!
//! A rewrite with several results, so a pass of its own (after `onnx-eqsat`,
//! whose rules each replace one value). Groups are found per input value, in
//! block order, in the function body only (weights live in the main graph).
//! Weights of the group must be 2-D with static shapes, the same K and
//! element type, and used by that MatMul only (else they would be written
//! twice); the MatMuls' results ranked. Parts of equal width split
//! with `num_outputs` (opset 18; n MatMuls become 2 nodes); unequal parts
//! (grouped-query attention) need a sizes constant, so they are fused from
//! three MatMuls on (3 nodes for 3), never adding nodes. The weight ops are moved
//! before the first MatMul of the group if they came later (weight ops only
//! read other weight ops). The function gets `onnx.fuse_weights = N` (groups fused).

use crate::{
    ir::{self, op_name},
    onnx_ir,
    onnx_shape_inference::{shape_of, tensor_type, Dim},
    Factory, PassId, PassInfo, ProjectPass,
};
use melior::ir::{
    attribute::{DenseElementsAttribute, FloatAttribute, IntegerAttribute, StringAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::{IntegerType, RankedTensorType},
    Attribute, BlockLike, Identifier, OperationRef, RegionLike, Type, Value, ValueLike,
};
use mlir_sys as sys;
use std::collections::HashMap;

static ID: PassId = PassId::new();

/// The function attribute counting the groups fused.
pub const SUMMARY_ATTR: &str = "onnx.fuse_weights";

pub const INFO: PassInfo = PassInfo {
    name: "onnx-fuse-weights",
    summary: "MatMuls sharing an input with initializer weights -> one MatMul on the concatenated weight (computed by the writer) + Split",
    options: &[],
    create: |_| Ok(Box::new(Factory { pass: FuseWeights, id: &ID, info: &INFO })),
};

#[derive(Clone)]
struct FuseWeights;

impl ProjectPass for FuseWeights {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()> {
        if op_name(op) != "func.func" {
            return Ok(());
        }
        let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else { return Ok(()) };
        let fused = fuse_block(body, onnx_ir::opset_of(op));
        if fused > 0 {
            ir::set_i64_attribute(op, SUMMARY_ATTR, fused as i64);
        }
        Ok(())
    }
}

/// (K, N, element type) of a 2-D static weight defined by a weight op.
fn weight_of(value: Value<'_, '_>) -> Option<(i64, i64, String)> {
    let def = ir::defining_op(value)?;
    if !onnx_ir::is_weight_op(&op_name(def)) {
        return None;
    }
    let ty = value.r#type();
    match shape_of(ty)?[..] {
        [Dim::Static(k), Dim::Static(n)] => {
            let elem = crate::lowering::builder::element_type(ty)?;
            Some((k, n, elem.to_string()))
        }
        _ => None,
    }
}

/// The `Add(y, b)` (either order) that is the only use of `y`, with `b` a
/// `[n]` weight of element type `elem` used only there, and the sum of
/// `y`'s type (the bias broadcasts along the last axis only).
fn bias_add<'c, 'a>(y: Value<'c, 'a>, n: i64, elem: &str) -> Option<(OperationRef<'c, 'a>, Value<'c, 'a>)> {
    if !ir::single_use(y) {
        return None;
    }
    let (user, index) = unsafe {
        let first = sys::mlirValueGetFirstUse(y.to_raw());
        (OperationRef::from_raw(sys::mlirOpOperandGetOwner(first)), sys::mlirOpOperandGetOperandNumber(first) as usize)
    };
    if op_name(user) != "onnx.Add" || user.operand_count() != 2 || user.result_count() != 1 || index > 1 {
        return None;
    }
    if user.attributes().any(|(a, _)| !ir::identifier_text(a).contains('.')) {
        return None;
    }
    let b = ir::operand_at(user, 1 - index)?;
    let sum = ir::result_at(user, 0)?;
    let fits = ir::defining_op(b).is_some_and(|d| onnx_ir::is_weight_op(&op_name(d)))
        && ir::single_use(b)
        && shape_of(b.r#type()).is_some_and(|s| s[..] == [Dim::Static(n)])
        && crate::lowering::builder::element_type(b.r#type()).map(|e| e.to_string()).as_deref() == Some(elem)
        && sum.r#type() == y.r#type();
    fits.then_some((user, b))
}

/// How a member of a group uses its weight.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Form {
    /// `MatMul(x, W[K, N])`.
    MatMul,
    /// `Gemm(x, W, [C])` with alpha = beta = 1, transA = 0: `W` is `[N, K]`
    /// when `trans_b`, else `[K, N]`; `C` (if `bias`) a `[N]` weight.
    Gemm { trans_b: bool, bias: bool },
}

/// What members of one group share: the input, the form, K, the element type.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    input: usize,
    form: Form,
    k: i64,
    elem: String,
}

/// The group key and width N of a MatMul or Gemm that may be fused.
fn member(op: OperationRef<'_, '_>) -> Option<(Key, i64)> {
    let name = op_name(op);
    if op.result_count() != 1 || shape_of(ir::result_at(op, 0)?.r#type()).is_none() {
        return None;
    }
    let x = ir::operand_at(op, 0)?;
    let w = ir::operand_at(op, 1)?;
    // A weight also used elsewhere would be written twice (alone and in the concat).
    let (k, n, elem) = weight_of(w).filter(|_| ir::single_use(w))?;
    let form = match name.as_str() {
        "onnx.MatMul" if op.operand_count() == 2 => Form::MatMul,
        "onnx.Gemm" if (2..=3).contains(&op.operand_count()) => {
            let int =
                |a: &str| op.attribute(a).ok().and_then(|v| IntegerAttribute::try_from(v).ok()).map(|i| i.value());
            let float =
                |a: &str| op.attribute(a).ok().and_then(|v| FloatAttribute::try_from(v).ok()).map(|f| f.value());
            for (attr, _) in op.attributes() {
                let attr = ir::identifier_text(attr);
                if !attr.contains('.') && !matches!(attr.as_str(), "alpha" | "beta" | "transA" | "transB") {
                    return None;
                }
            }
            let trans_b = match int("transB") {
                None | Some(0) => false,
                Some(1) => true,
                _ => return None,
            };
            if int("transA").unwrap_or(0) != 0
                || float("alpha").unwrap_or(1.0) != 1.0
                || float("beta").unwrap_or(1.0) != 1.0
            {
                return None;
            }
            let width = if trans_b { k } else { n };
            let bias = match ir::operand_at(op, 2) {
                Some(c) if ir::defining_op(c).is_some_and(|d| op_name(d) == onnx_ir::NONE_OP) => false,
                Some(c) => {
                    let fits = ir::defining_op(c).is_some_and(|d| onnx_ir::is_weight_op(&op_name(d)))
                        && ir::single_use(c)
                        && shape_of(c.r#type()).is_some_and(|s| s[..] == [Dim::Static(width)])
                        && crate::lowering::builder::element_type(c.r#type()).map(|e| e.to_string())
                            == Some(elem.clone());
                    if !fits {
                        return None;
                    }
                    true
                }
                None => false,
            };
            Form::Gemm { trans_b, bias }
        }
        _ => return None,
    };
    let (k, n) = match form {
        Form::Gemm { trans_b: true, .. } => (n, k),
        _ => (k, n),
    };
    Some((Key { input: x.to_raw().ptr as usize, form, k, elem }, n))
}

/// Fuses the groups of one block; returns how many.
fn fuse_block(block: melior::ir::BlockRef<'_, '_>, opset: u32) -> usize {
    // Candidates grouped by key, groups in order of their first member.
    let mut groups: Vec<(Key, Vec<(OperationRef, i64)>)> = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let Some((key, n)) = member(op) else { continue };
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push((op, n)),
            None => groups.push((key, vec![(op, n)])),
        }
    }
    let mut fused = 0;
    let mut constants = HashMap::new();
    for (key, members) in groups {
        if members.len() >= 2 && fuse_group(block, &key, &members, opset, &mut constants).is_some() {
            fused += 1;
        }
    }
    fused
}

/// Moves the weight op defining `value` (and the weight ops it reads) before
/// `anchor` when it comes after it.
fn hoist_weight(block: melior::ir::BlockRef<'_, '_>, value: Value<'_, '_>, anchor: OperationRef<'_, '_>) {
    let Some(def) = ir::defining_op(value) else { return };
    for operand in def.operands() {
        hoist_weight(block, operand, anchor);
    }
    if unsafe { sys::mlirOperationIsBeforeInBlock(anchor.to_raw(), def.to_raw()) } {
        unsafe { sys::mlirOperationMoveBefore(def.to_raw(), anchor.to_raw()) };
    }
    let _ = block;
}

fn fuse_group<'c, 'a>(
    block: melior::ir::BlockRef<'c, 'a>,
    key: &Key,
    members: &[(OperationRef<'c, 'a>, i64)],
    opset: u32,
    constants: &mut HashMap<Vec<i64>, OperationRef<'c, 'a>>,
) -> Option<()> {
    let group: Vec<OperationRef> = members.iter().map(|(op, _)| *op).collect();
    let sizes: Vec<i64> = members.iter().map(|(_, n)| *n).collect();
    let first = group[0];
    let context = first.context();
    let context = unsafe { context.to_ref() };
    let location = first.location();
    let i64_type: Type = IntegerType::new(context, 64).into();
    let x = ir::operand_at(first, 0)?;
    let weights: Vec<Value> = group.iter().map(|op| ir::operand_at(*op, 1)).collect::<Option<_>>()?;
    let total: i64 = sizes.iter().sum();
    // Equal parts: Split{num_outputs} (opset 18), the group's node count
    // drops from n to 2. Unequal parts need a sizes constant (shared by the
    // groups of the same widths, i.e. by the layers): only worth it from
    // three MatMuls on.
    let equal_split = opset >= 18 && sizes.iter().all(|&n| n == sizes[0]);
    if !equal_split && group.len() < 3 {
        return None;
    }
    let elem = crate::lowering::builder::element_type(weights[0].r#type())?;
    let mut out_shape = shape_of(ir::result_at(first, 0)?.r#type())?;
    *out_shape.last_mut()? = Dim::Static(total);
    let biases: Vec<Value> = match key.form {
        Form::Gemm { bias: true, .. } => group.iter().map(|op| ir::operand_at(*op, 2)).collect::<Option<_>>()?,
        _ => Vec::new(),
    };
    // MatMuls each followed by the Add of a `[N]` bias weight (a Linear with
    // a bias on a 3-D input): the biases concatenate too, and one Add on the
    // fused product comes before the Split (the same sums, element by element).
    let bias_adds: Option<Vec<(OperationRef<'c, 'a>, Value<'c, 'a>)>> = match key.form {
        Form::MatMul => {
            group.iter().zip(&sizes).map(|(op, &n)| bias_add(ir::result_at(*op, 0)?, n, &key.elem)).collect()
        }
        _ => None,
    };
    for w in weights.iter().chain(&biases).chain(bias_adds.iter().flatten().map(|(_, b)| b)) {
        hoist_weight(block, *w, first);
    }
    // W [K, N] parts concatenate along axis 1; a transposed Gemm's [N, K] along 0.
    let (axis, cat_dims) = match key.form {
        Form::Gemm { trans_b: true, .. } => (0, [total, key.k]),
        _ => (1, [key.k, total]),
    };
    let concat_of = |parts: &[Value<'c, 'a>], axis: i64, dims: &[i64]| -> Option<Value<'c, 'a>> {
        let ty: Type = RankedTensorType::new(&dims.iter().map(|&d| d as u64).collect::<Vec<_>>(), elem, None).into();
        let op = OperationBuilder::new(onnx_ir::WEIGHT_TRANSFORM_OP, location)
            .add_operands(parts)
            .add_attributes(&[
                (Identifier::new(context, "kind"), StringAttribute::new(context, "concat").into()),
                (Identifier::new(context, "axis"), IntegerAttribute::new(i64_type, axis).into()),
            ])
            .add_results(&[ty])
            .build()
            .ok()?;
        ir::result_at(block.insert_operation_before(first, op), 0)
    };
    let mut operands = vec![x, concat_of(&weights, axis, &cat_dims)?];
    if !biases.is_empty() {
        operands.push(concat_of(&biases, 0, &[total])?);
    }
    let mut fused = OperationBuilder::new(if key.form == Form::MatMul { "onnx.MatMul" } else { "onnx.Gemm" }, location)
        .add_operands(&operands)
        .add_results(&[tensor_type(context, &out_shape, elem)]);
    if let Form::Gemm { trans_b: true, .. } = key.form {
        fused =
            fused.add_attributes(&[(Identifier::new(context, "transB"), IntegerAttribute::new(i64_type, 1).into())]);
    }
    let matmul = block.insert_operation_before(first, fused.build().ok()?);
    let mut product: Value = ir::result_at(matmul, 0)?;
    if let Some(adds) = &bias_adds {
        let parts: Vec<Value> = adds.iter().map(|(_, b)| *b).collect();
        let bias = concat_of(&parts, 0, &[total])?;
        let add = OperationBuilder::new("onnx.Add", location)
            .add_operands(&[product, bias])
            .add_results(&[tensor_type(context, &out_shape, elem)])
            .build()
            .ok()?;
        product = ir::result_at(block.insert_operation_before(first, add), 0)?;
    }
    let mut operands: Vec<Value> = vec![product];
    let mut attrs = vec![(Identifier::new(context, "axis"), IntegerAttribute::new(i64_type, -1).into())];
    if equal_split {
        attrs.push((
            Identifier::new(context, "num_outputs"),
            IntegerAttribute::new(i64_type, sizes.len() as i64).into(),
        ));
    } else {
        let sizes_type: Type = RankedTensorType::new(&[sizes.len() as u64], i64_type, None).into();
        let elements: Vec<Attribute> = sizes.iter().map(|&n| IntegerAttribute::new(i64_type, n).into()).collect();
        let sizes_attr: Attribute = DenseElementsAttribute::new(sizes_type, &elements).ok()?.into();
        let sizes_op = OperationBuilder::new("onnx.Constant", location)
            .add_attributes(&[(Identifier::new(context, "value"), sizes_attr)])
            .add_results(&[sizes_type])
            .build()
            .ok()?;
        let sizes_op = match constants.get(&sizes) {
            Some(op) => *op,
            None => {
                // At the top of the block, shared by the groups of equal widths (layers).
                let top = block.first_operation()?;
                let op = block.insert_operation_before(top, sizes_op);
                constants.insert(sizes.clone(), op);
                op
            }
        };
        operands.push(ir::result_at(sizes_op, 0)?);
    }
    let result_types: Vec<Type> =
        group.iter().map(|op| ir::result_at(*op, 0).map(|r| r.r#type())).collect::<Option<_>>()?;
    let split = OperationBuilder::new("onnx.Split", location)
        .add_operands(&operands)
        .add_attributes(&attrs)
        .add_results(&result_types)
        .build()
        .ok()?;
    let split = block.insert_operation_before(first, split);
    for (i, op) in group.iter().enumerate() {
        let old: Value = match &bias_adds {
            Some(adds) => ir::result_at(adds[i].0, 0)?,
            None => ir::result_at(*op, 0)?,
        };
        let new: Value = ir::result_at(split, i)?;
        unsafe { sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) };
    }
    for (add, _) in bias_adds.into_iter().flatten() {
        unsafe { ir::erase(add) };
    }
    for op in group {
        unsafe { ir::erase(op) };
    }
    Some(())
}
