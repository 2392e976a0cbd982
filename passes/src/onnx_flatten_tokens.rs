//! `onnx-flatten-tokens`: runs the token-wise part of a transformer on a
//! 2-D `[tokens, features]` view, so that each Linear layer with a bias is
//! one `Gemm` instead of `MatMul + Add`.
//!
//! A Linear on a `[batch, seq, K]` activation lowers to `MatMul` (3-D by
//! 2-D) and a bias `Add`: two kernels, the product written and read again.
//! ONNX's `Gemm` adds the bias itself but takes 2-D operands only. Between
//! the attention ops, a transformer layer is token-wise: every op treats
//! each `[..., features]` row on its own (the Linears, their bias Adds, the
//! residual Adds, LayerNormalization over the last axis, the activations),
//! so the same ops on the rows flattened to `[batch*seq, features]` compute
//! the same numbers. This pass finds the connected groups ("regions") of
//! such ops in a function body, rewrites each region on the 2-D view, and
//! turns its `MatMul + bias Add` pairs into `Gemm`s:
//!
//! ```text
//! x:[B,S,K] -> MatMul(W) -> Add(b) -> Add(x') -> LayerNorm -> Attention ...
//!   becomes
//! Reshape(x, [-1,K]) -> Gemm(W, b) -> Add -> LayerNorm -> Reshape(shape3) -> Attention ...
//! ```
//!
//! Values enter a region through `Reshape(v, [-1, K])` (a constant shape)
//! and leave it through `Reshape(v, [L..., N])`, where `L` (the leading,
//! token dims) is a constant when static, else read at run time once per
//! region (`Shape(e, end = rank-1)` of a value entering it, `Concat` with
//! `[N]`; `allowzero` so that an empty batch stays empty). onnxruntime's
//! Reshape does not copy; the Gemm saves a kernel and a pass over memory,
//! and onnxruntime's own fusions of the 3-D form (SkipLayerNormalization,
//! a scalar loop on CPU) no longer apply.
//!
//! A region is rewritten only when that pays, by the optimizer's cost model
//! (passes/optimizer/src/cost.rs): the Adds that disappear (a node's
//! overhead plus the bytes they move) must outweigh the Reshape and shape
//! nodes added (a node's overhead each; Reshape moves nothing). A model
//! without biases (Llama's Linears) is left as it is.
//!
//! Token-wise ops (default domain; the result `[L..., N]` of rank >= 3, `N`
//! static and positive, every dim of `L` static or a symbol):
//! - `MatMul(a, w)` with `a: [L..., K]` and `w` 2-D `[K, N]`;
//! - unary elementwise ops (activations, `Cast`, ...) of a `[L..., N]` operand;
//! - binary elementwise ops whose operands are each `[L..., N]` ("full")
//!   or broadcast the same way on the rows (rank <= 2, every dim but the
//!   last 1: `[N]`, `[1, N]`, a scalar), at least one full;
//! - `LayerNormalization` / `RMSNormalization` / `Softmax` / `LogSoftmax`
//!   over the last axis (scale and bias 1-D, the statistics outputs unused).
//!
//! Runs after `onnx-eqsat` and `onnx-fuse-weights` (whose fusions see the
//! 3-D graph) and before the widening passes, in the function body only. The function gets
//! `onnx.flatten_tokens = N` (Gemms formed).

use crate::{
    ir::{self, op_name},
    onnx_ir,
    onnx_shape_inference::{shape_of, size_of, tensor_type, Dim},
    optimizer::cost::{NODE_OVERHEAD, SYMBOLIC_DIM},
    Factory, PassId, PassInfo, ProjectPass,
};
use melior::ir::{
    attribute::{AttributeLike, DenseElementsAttribute, IntegerAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::{IntegerType, RankedTensorType},
    Attribute, BlockLike, BlockRef, Identifier, Location, OperationRef, RegionLike, Type, TypeLike, Value, ValueLike,
};
use mlir_sys as sys;
use std::collections::{BTreeMap, HashMap, HashSet};

static ID: PassId = PassId::new();

/// The function attribute counting the Gemms formed.
pub const SUMMARY_ATTR: &str = "onnx.flatten_tokens";

pub const INFO: PassInfo = PassInfo {
    name: "onnx-flatten-tokens",
    summary: "Run token-wise ops (Linears, bias and residual Adds, LayerNorm, activations) on [tokens, features]: MatMul + bias Add -> Gemm",
    options: &[],
    create: |_| Ok(Box::new(Factory { pass: FlattenTokens, id: &ID, info: &INFO })),
};

#[derive(Clone)]
struct FlattenTokens;

impl ProjectPass for FlattenTokens {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()> {
        if op_name(op) != "func.func" {
            return Ok(());
        }
        let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else { return Ok(()) };
        let gemms = flatten_block(body, onnx_ir::opset_of(op));
        if gemms > 0 {
            ir::set_i64_attribute(op, SUMMARY_ATTR, gemms as i64);
        }
        Ok(())
    }
}

/// Unary elementwise ops: one operand, the result of its shape.
const UNARY: &[&str] = &[
    "Abs",
    "Acos",
    "Acosh",
    "Asin",
    "Asinh",
    "Atan",
    "Atanh",
    "Cast",
    "Ceil",
    "Celu",
    "Cos",
    "Cosh",
    "Elu",
    "Erf",
    "Exp",
    "Floor",
    "Gelu",
    "HardSigmoid",
    "HardSwish",
    "Identity",
    "LeakyRelu",
    "Log",
    "Mish",
    "Neg",
    "Reciprocal",
    "Relu",
    "Round",
    "Selu",
    "Sigmoid",
    "Sign",
    "Sin",
    "Sinh",
    "Softplus",
    "Softsign",
    "Sqrt",
    "Tan",
    "Tanh",
    "ThresholdedRelu",
];

/// Binary elementwise ops (multidirectional broadcasting, or PRelu's
/// unidirectional one, which the row-broadcast operands satisfy).
const BINARY: &[&str] = &["Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "PRelu"];

/// Ops normalizing over one axis, which must be the last.
const LAST_AXIS: &[&str] = &["LayerNormalization", "RMSNormalization", "Softmax", "LogSoftmax"];

type Key = usize;

fn key(v: Value<'_, '_>) -> Key {
    v.to_raw().ptr as usize
}

fn op_key(op: OperationRef<'_, '_>) -> Key {
    op.to_raw().ptr as usize
}

/// The dims of a value's ranked type.
fn dims(v: Value<'_, '_>) -> Option<Vec<Dim>> {
    shape_of(v.r#type())
}

/// `[L..., N]` with rank >= 3, `N` static and positive, `L` known (static
/// or symbols): the shape of a value a region can hold.
fn token_shape(d: &[Dim]) -> bool {
    d.len() >= 3
        && matches!(d.last(), Some(Dim::Static(n)) if *n > 0)
        && d.iter().all(|x| matches!(x, Dim::Static(n) if *n >= 0) || matches!(x, Dim::Sym(_)))
}

/// An operand that broadcasts on the rows of a `[L..., N]` result the same
/// way in 3-D and in 2-D: rank <= 2, every dim but the last 1.
fn row_broadcast(d: &[Dim]) -> bool {
    d.len() <= 2 && d.iter().rev().skip(1).all(|x| *x == Dim::Static(1))
}

/// Only discardable (dotted) attributes and those in `allowed`.
fn attributes_within(op: OperationRef<'_, '_>, allowed: &[&str]) -> bool {
    op.attributes().all(|(name, _)| {
        let name = ir::identifier_text(name);
        name.contains('.') || allowed.contains(&name.as_str())
    })
}

/// A token-wise op: the operand indices that carry rows (`[L..., *]`
/// values, which join the op's region or enter it through a Reshape).
fn token_operands(op: OperationRef<'_, '_>) -> Option<Vec<usize>> {
    let name = op_name(op);
    let kind = name.strip_prefix(onnx_ir::DIALECT_PREFIX)?;
    if kind.contains('.') || op.result_count() == 0 || op.region_count() > 0 {
        return None;
    }
    let out = dims(ir::result_at(op, 0)?)?;
    if !token_shape(&out) {
        return None;
    }
    let lead = &out[..out.len() - 1];
    let full = |i: usize| ir::operand_at(op, i).and_then(dims).is_some_and(|d| d == out);
    match kind {
        "MatMul" if op.operand_count() == 2 && op.result_count() == 1 => {
            // A quantized Linear (an operand straight from DequantizeLinear)
            // stays as written: runtimes fuse DQ -> MatMul -> Q into integer
            // kernels only without a Reshape in between, and onnxruntime 1.32
            // fails to load a DQ -> Reshape -> Gemm of int8 activations (its
            // QDQ propagation makes a Q of mismatched zero-point type).
            let dequantized = (0..2).any(|i| {
                ir::operand_at(op, i)
                    .and_then(ir::defining_op)
                    .is_some_and(|d| op_name(d) == format!("{}DequantizeLinear", onnx_ir::DIALECT_PREFIX))
            });
            if dequantized {
                return None;
            }
            let a = dims(ir::operand_at(op, 0)?)?;
            let w = dims(ir::operand_at(op, 1)?)?;
            let fits = a.len() == out.len()
                && a[..a.len() - 1] == *lead
                && matches!(a.last(), Some(Dim::Static(k)) if *k > 0)
                && w.len() == 2
                && w[0] == *a.last()?
                && w[1] == *out.last()?;
            fits.then(|| vec![0])
        }
        _ if UNARY.contains(&kind) => (op.operand_count() == 1 && op.result_count() == 1 && full(0)).then(|| vec![0]),
        _ if BINARY.contains(&kind) => {
            // No attributes: opset 6's `broadcast`/`axis` broadcast another way.
            if op.operand_count() != 2 || op.result_count() != 1 || !attributes_within(op, &[]) {
                return None;
            }
            let n = out.last()?.clone();
            let mut rows = Vec::new();
            for i in 0..2 {
                if full(i) {
                    rows.push(i);
                } else if !dims(ir::operand_at(op, i)?)
                    .is_some_and(|d| row_broadcast(&d) && d.last().is_none_or(|x| *x == n || *x == Dim::Static(1)))
                {
                    return None;
                }
            }
            // PRelu's slope broadcasts one way only: the rows must be X.
            let prelu_ok = kind != "PRelu" || rows.first() == Some(&0);
            (!rows.is_empty() && prelu_ok).then_some(rows)
        }
        _ if LAST_AXIS.contains(&kind) => {
            let rank = out.len() as i64;
            let axis = ir::int_attribute(op, "axis").unwrap_or(-1);
            if !(axis == -1 || axis == rank - 1) || !full(0) {
                return None;
            }
            if !attributes_within(op, &["axis", "epsilon", "stash_type"]) {
                return None;
            }
            // Scale and bias: 1-D (or absent); the statistics outputs unused.
            for i in 1..op.operand_count() {
                let v = ir::operand_at(op, i)?;
                if !onnx_ir::is_none_value(v) && dims(v).map(|d| d.len()) != Some(1) {
                    return None;
                }
            }
            if (1..op.result_count()).any(|i| ir::result_at(op, i).is_some_and(ir::has_uses)) {
                return None;
            }
            Some(vec![0])
        }
        _ => None,
    }
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// One connected group of token-wise ops, in block order.
struct Region<'c, 'a> {
    ops: Vec<OperationRef<'c, 'a>>,
}

/// Bytes of a value for the cost model (a symbol counts as [`SYMBOLIC_DIM`]).
fn bytes(v: Value<'_, '_>) -> f64 {
    let elements: f64 = dims(v).map_or(SYMBOLIC_DIM * SYMBOLIC_DIM, |d| {
        d.iter().map(|x| if let Dim::Static(n) = x { *n as f64 } else { SYMBOLIC_DIM }).product()
    });
    let width = crate::lowering::builder::element_type(v.r#type()).map_or(4.0, |e| unsafe {
        let raw = e.to_raw();
        if sys::mlirTypeIsAF64(raw) {
            8.0
        } else if sys::mlirTypeIsAF16(raw) || sys::mlirTypeIsABF16(raw) {
            2.0
        } else if sys::mlirTypeIsAInteger(raw) {
            (sys::mlirIntegerTypeGetWidth(raw) as f64 / 8.0).max(1.0)
        } else {
            4.0
        }
    });
    elements * width
}

/// A `MatMul` of the region whose only use is an `Add` of the region with a
/// bias that Gemm can take as C (row-broadcast), both floats: the pair
/// becomes `Gemm(a, w, bias)`. Returns (matmul, add, bias).
fn gemm_pair<'c, 'a>(
    matmul: OperationRef<'c, 'a>,
    members: &HashSet<Key>,
) -> Option<(OperationRef<'c, 'a>, OperationRef<'c, 'a>, Value<'c, 'a>)> {
    if op_name(matmul) != "onnx.MatMul" || !attributes_within(matmul, &[]) {
        return None;
    }
    let product = ir::result_at(matmul, 0)?;
    let [(add, index)] = ir::uses(product)[..] else { return None };
    if op_name(add) != "onnx.Add" || !members.contains(&op_key(add)) || !attributes_within(add, &[]) {
        return None;
    }
    let bias = ir::operand_at(add, 1 - index)?;
    let elem = crate::lowering::builder::element_type(product.r#type())?;
    // float32/float64 only: a float16 Linear (computed in float32 by
    // `onnx-widen-half`, which runs after this pass) keeps MatMul + Add, the
    // order eager adds its bias in; a Gemm's last bits differ and flip
    // float16 roundings.
    let float = unsafe { sys::mlirTypeIsAF32(elem.to_raw()) || sys::mlirTypeIsAF64(elem.to_raw()) };
    let bias_dims = dims(bias)?;
    let n = dims(product)?.last()?.clone();
    let fits = float
        && crate::lowering::builder::element_type(bias.r#type()) == Some(elem)
        && row_broadcast(&bias_dims)
        && bias_dims.last().is_none_or(|d| *d == n || *d == Dim::Static(1))
        && ir::result_at(add, 0)?.r#type() == product.r#type();
    fits.then_some((matmul, add, bias))
}

/// Finds the regions of `block`, rewrites those that pay; returns the
/// number of Gemms formed.
fn flatten_block(block: BlockRef<'_, '_>, opset: u32) -> usize {
    // Opset 13's broadcasting and Softmax semantics (older Gemm, Add and
    // PRelu broadcast by attributes; older Softmax flattens at its axis).
    if opset < 13 {
        return 0;
    }
    let mut ops = Vec::new();
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut index_of: HashMap<Key, usize> = HashMap::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if let Some(r) = token_operands(op) {
            index_of.insert(op_key(op), ops.len());
            ops.push(op);
            rows.push(r);
        }
    }
    if ops.is_empty() {
        return 0;
    }
    // Union the ops joined by a row operand.
    let mut parent: Vec<usize> = (0..ops.len()).collect();
    for (i, op) in ops.iter().enumerate() {
        for &r in &rows[i] {
            let Some(def) = ir::operand_at(*op, r).and_then(ir::defining_op) else { continue };
            if let Some(&j) = index_of.get(&op_key(def)) {
                let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                parent[a] = b;
            }
        }
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..ops.len() {
        let root = find(&mut parent, i);
        groups.entry(root).or_default().push(i);
    }
    let mut regions: Vec<(Region, Vec<Vec<usize>>)> = groups
        .into_values()
        .map(|members| {
            let region_ops = members.iter().map(|&i| ops[i]).collect();
            let region_rows = members.iter().map(|&i| rows[i].clone()).collect();
            (Region { ops: region_ops }, region_rows)
        })
        .collect();
    let mut gemms = 0;
    let mut constants = Constants::default();
    for (region, region_rows) in regions.iter_mut() {
        gemms += rewrite_region(block, region, region_rows, opset, &mut constants).unwrap_or(0);
    }
    gemms
}

/// `onnx.Constant` 1-D int64 tensors at the top of the block, one per value.
#[derive(Default)]
struct Constants {
    made: HashMap<Vec<i64>, Key>,
}

impl Constants {
    fn get<'c, 'a>(
        &mut self,
        block: BlockRef<'c, 'a>,
        values: &[i64],
        location: Location<'c>,
    ) -> Option<Value<'c, 'a>> {
        if let Some(&raw) = self.made.get(values) {
            let op = unsafe { OperationRef::from_raw(sys::MlirOperation { ptr: raw as *mut _ }) };
            return ir::result_at(op, 0);
        }
        let context = location.context();
        let context = unsafe { context.to_ref() };
        let i64_type: Type = IntegerType::new(context, 64).into();
        let ty: Type = RankedTensorType::new(&[values.len() as u64], i64_type, None).into();
        let elements: Vec<Attribute> = values.iter().map(|&n| IntegerAttribute::new(i64_type, n).into()).collect();
        let attr: Attribute = DenseElementsAttribute::new(ty, &elements).ok()?.into();
        let op = OperationBuilder::new("onnx.Constant", location)
            .add_attributes(&[(Identifier::new(context, "value"), attr)])
            .add_results(&[ty])
            .build()
            .ok()?;
        let op = block.insert_operation_before(block.first_operation()?, op);
        self.made.insert(values.to_vec(), op_key(op));
        ir::result_at(op, 0)
    }
}

/// Inserts `op` right after `after` (a value's definition; `None`: a block
/// argument, at the top of the block after the constants).
fn insert_after<'c, 'a>(
    block: BlockRef<'c, 'a>,
    after: Option<OperationRef<'c, 'a>>,
    op: melior::ir::Operation<'c>,
) -> OperationRef<'c, 'a> {
    match after {
        Some(def) => block.insert_operation_after(def, op),
        None => {
            // After the leading constants, which the pass puts at the top.
            let mut at = block.first_operation();
            while let Some(o) = at.filter(|o| op_name(*o) == "onnx.Constant") {
                at = o.next_in_block();
            }
            match at {
                Some(o) => block.insert_operation_before(o, op),
                None => block.append_operation(op),
            }
        }
    }
}

fn reshape<'c, 'a>(
    location: Location<'c>,
    data: Value<'c, 'a>,
    shape: Value<'c, 'a>,
    result: Type<'c>,
    allowzero: bool,
) -> Option<melior::ir::Operation<'c>> {
    let context = location.context();
    let context = unsafe { context.to_ref() };
    let mut builder =
        OperationBuilder::new("onnx.Reshape", location).add_operands(&[data, shape]).add_results(&[result]);
    if allowzero {
        let i64_type: Type = IntegerType::new(context, 64).into();
        builder = builder
            .add_attributes(&[(Identifier::new(context, "allowzero"), IntegerAttribute::new(i64_type, 1).into())]);
    }
    builder.build().ok()
}

fn rewrite_region<'c, 'a>(
    block: BlockRef<'c, 'a>,
    region: &Region<'c, 'a>,
    rows: &[Vec<usize>],
    opset: u32,
    constants: &mut Constants,
) -> Option<usize> {
    let members: HashSet<Key> = region.ops.iter().map(|o| op_key(*o)).collect();
    let pairs: Vec<_> = region.ops.iter().filter_map(|op| gemm_pair(*op, &members)).collect();
    if pairs.is_empty() {
        return Some(0);
    }
    let first = region.ops[0];
    let out0 = dims(ir::result_at(first, 0)?)?;
    let rank = out0.len();
    let lead: Vec<Dim> = out0[..rank - 1].to_vec();
    let dynamic = lead.iter().any(|d| !matches!(d, Dim::Static(_)));
    if dynamic && opset < 15 {
        return Some(0); // Shape{start, end} (15) and Reshape{allowzero} (14)
    }
    // Entries: row operands defined outside the region, in first-use order.
    let mut entries: Vec<Value> = Vec::new();
    for (op, r) in region.ops.iter().zip(rows) {
        for &i in r {
            let v = ir::operand_at(*op, i)?;
            let inside = ir::defining_op(v).is_some_and(|d| members.contains(&op_key(d)));
            if !inside && !entries.iter().any(|e| key(*e) == key(v)) {
                entries.push(v);
            }
        }
    }
    // Exits: region results used outside it (or returned).
    let mut exits: Vec<(Value, Vec<(OperationRef, usize)>)> = Vec::new();
    for op in &region.ops {
        let v = ir::result_at(*op, 0)?;
        let outside: Vec<_> = ir::uses(v).into_iter().filter(|(user, _)| !members.contains(&op_key(*user))).collect();
        if !outside.is_empty() {
            exits.push((v, outside));
        }
    }
    // Does it pay? The Adds fused away against the Reshapes and shape nodes added.
    let widths: HashSet<i64> = exits
        .iter()
        .filter_map(|(v, _)| match dims(*v)?.last()? {
            Dim::Static(n) => Some(*n),
            _ => None,
        })
        .collect();
    let shape_nodes = if dynamic { 1 + widths.len() } else { 0 };
    let added = (entries.len() + exits.len() + shape_nodes) as f64 * NODE_OVERHEAD;
    let saved: f64 = pairs
        .iter()
        .map(|(m, add, bias)| {
            let product = ir::result_at(*m, 0).map_or(0.0, bytes);
            let sum = ir::result_at(*add, 0).map_or(0.0, bytes);
            NODE_OVERHEAD + product + sum + bytes(*bias)
        })
        .sum();
    if saved <= added {
        return Some(0);
    }
    let location = first.location();
    let context = location.context();
    let context = unsafe { context.to_ref() };
    let tokens = size_of(&lead);
    // The entry defined first: its leading dims name L at run time for the
    // exits (every region value depends on an entry, so this one is defined
    // before any region op).
    let position = |v: Value<'c, 'a>| -> Option<OperationRef<'c, 'a>> { ir::defining_op(v) };
    let source = *entries.iter().min_by(|a, b| match (position(**a), position(**b)) {
        (None, None) => std::cmp::Ordering::Equal,
        (None, Some(_)) => std::cmp::Ordering::Less,
        (Some(_), None) => std::cmp::Ordering::Greater,
        (Some(x), Some(y)) => {
            if x.to_raw().ptr == y.to_raw().ptr {
                std::cmp::Ordering::Equal
            } else if unsafe { sys::mlirOperationIsBeforeInBlock(x.to_raw(), y.to_raw()) } {
                std::cmp::Ordering::Less
            } else {
                std::cmp::Ordering::Greater
            }
        }
    })?;
    let i64_type: Type = IntegerType::new(context, 64).into();
    // The run-time `[L...]`, made after the source's definition when first needed.
    let mut lead_value: Option<Value> = None;
    let mut exit_shapes: HashMap<i64, Value> = HashMap::new();
    let mut exit_shape = |n: i64, block: BlockRef<'c, 'a>, constants: &mut Constants| -> Option<Value<'c, 'a>> {
        if !dynamic {
            let mut s: Vec<i64> = lead.iter().map(|d| if let Dim::Static(x) = d { *x } else { -1 }).collect();
            s.push(n);
            return constants.get(block, &s, location);
        }
        if let Some(v) = exit_shapes.get(&n) {
            return Some(*v);
        }
        let l = match lead_value {
            Some(l) => l,
            None => {
                let lead_type: Type = RankedTensorType::new(&[lead.len() as u64], i64_type, None).into();
                let shape = OperationBuilder::new("onnx.Shape", location)
                    .add_operands(&[source])
                    .add_attributes(&[(
                        Identifier::new(context, "end"),
                        IntegerAttribute::new(i64_type, lead.len() as i64).into(),
                    )])
                    .add_results(&[lead_type])
                    .build()
                    .ok()?;
                let shape = insert_after(block, ir::defining_op(source), shape);
                let l = ir::result_at(shape, 0)?;
                lead_value = Some(l);
                l
            }
        };
        let tail = constants.get(block, &[n], location)?;
        let full_type: Type = RankedTensorType::new(&[lead.len() as u64 + 1], i64_type, None).into();
        let concat = OperationBuilder::new("onnx.Concat", location)
            .add_operands(&[l, tail])
            .add_attributes(&[(Identifier::new(context, "axis"), IntegerAttribute::new(i64_type, 0).into())])
            .add_results(&[full_type])
            .build()
            .ok()?;
        let concat = block.insert_operation_after(ir::defining_op(l)?, concat);
        let v = ir::result_at(concat, 0)?;
        exit_shapes.insert(n, v);
        Some(v)
    };
    // Exits first (their Reshapes read the region's values, retyped below).
    for (v, outside) in &exits {
        let Dim::Static(n) = dims(*v)?.last()?.clone() else { return None };
        let shape = exit_shape(n, block, constants)?;
        let def = ir::defining_op(*v)?;
        let op = reshape(def.location(), *v, shape, v.r#type(), dynamic)?;
        let back = ir::result_at(block.insert_operation_after(def, op), 0)?;
        for (user, index) in outside {
            unsafe { sys::mlirOperationSetOperand(user.to_raw(), *index as isize, back.to_raw()) };
        }
    }
    // Entries: `Reshape(e, [-1, K])` after the definition of `e`.
    let mut flat: HashMap<Key, Value> = HashMap::new();
    for e in &entries {
        let d = dims(*e)?;
        let Dim::Static(k) = d.last()?.clone() else { return None };
        let shape = constants.get(block, &[-1, k], location)?;
        let elem = crate::lowering::builder::element_type(e.r#type())?;
        let ty = tensor_type(context, &[tokens.clone(), Dim::Static(k)], elem);
        let def = ir::defining_op(*e);
        let loc = def.map_or(location, |d| d.location());
        let op = reshape(loc, *e, shape, ty, false)?;
        // After the shape constant, which sits at the top of the block.
        let op = insert_after(block, def, op);
        flat.insert(key(*e), ir::result_at(op, 0)?);
    }
    // The region's ops on the 2-D view.
    for (op, r) in region.ops.iter().zip(rows) {
        for &i in r {
            let v = ir::operand_at(*op, i)?;
            if let Some(f) = flat.get(&key(v)) {
                unsafe { sys::mlirOperationSetOperand(op.to_raw(), i as isize, f.to_raw()) };
            }
        }
        for i in 0..op.result_count() {
            let result = ir::result_at(*op, i)?;
            let d = dims(result)?;
            let elem = crate::lowering::builder::element_type(result.r#type())?;
            let two_d = if i == 0 {
                vec![tokens.clone(), d.last()?.clone()]
            } else {
                // Statistics outputs (unused): [L..., 1] -> [tokens, 1].
                vec![tokens.clone(), Dim::Static(1)]
            };
            unsafe { sys::mlirValueSetType(result.to_raw(), tensor_type(context, &two_d, elem).to_raw()) };
        }
        if LAST_AXIS.iter().any(|k| op_name(*op) == format!("onnx.{k}")) && op.attribute("axis").is_ok() {
            let attr: Attribute = IntegerAttribute::new(i64_type, -1).into();
            unsafe {
                sys::mlirOperationSetAttributeByName(
                    op.to_raw(),
                    sys::MlirStringRef { data: "axis".as_ptr() as *const _, length: 4 },
                    attr.to_raw(),
                )
            };
        }
    }
    // MatMul + bias Add -> Gemm.
    for (matmul, add, bias) in &pairs {
        let a = ir::operand_at(*matmul, 0)?;
        let w = ir::operand_at(*matmul, 1)?;
        let sum = ir::result_at(*add, 0)?;
        let gemm = OperationBuilder::new("onnx.Gemm", add.location())
            .add_operands(&[a, w, *bias])
            .add_results(&[sum.r#type()])
            .build()
            .ok()?;
        let gemm = block.insert_operation_before(*add, gemm);
        let new = ir::result_at(gemm, 0)?;
        unsafe { sys::mlirValueReplaceAllUsesOfWith(sum.to_raw(), new.to_raw()) };
        unsafe {
            ir::erase(*add);
            ir::erase(*matmul);
        }
    }
    Some(pairs.len())
}
