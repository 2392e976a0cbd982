//! Between MLIR and the e-graph: one block of onnx ops (a function body)
//! becomes an e-graph whose roots are the terminator's operands, and the
//! extracted terms become onnx ops again, inserted before the terminator,
//! after which the original ops (all dead then) are erased.
//!
//! Every value keeps its MLIR type (the e-class's data holds it); values a
//! rule created get a type built from the element type and dims the rule
//! gave (symbolic dims in the tensor encoding, like the importer's). Ops
//! keep their location; ops a rule created take the location of the first
//! original op of their e-class (the op they replace).
//!
//! Ops with regions (`onnx.If`, `onnx.Loop`, ...) and random ops are opaque
//! nodes, one per op: their operands are children, and so are the values of
//! the block their regions capture (use without passing them), so those are
//! rebuilt before the op, which is cloned and its captures redirected. Their
//! regions are optimized on their own first (`onnx_eqsat.rs`). Blocks
//! holding ops of other dialects are left alone: the caller records why.

use super::{
    analysis::{add_type, set_results, Dim, OnnxAnalysis, OnnxEGraph, TyInfo, MAX_CONST_ELEMENTS},
    lang::{dtype, AttrValue, Head, ONode, Tensor, Values},
};
use crate::{
    ir::{self, has_uses},
    onnx_ir,
    shape::{self as onnx_shape, shape_of},
};
use egg::{Id, Language, Symbol};
use melior::ir::{
    attribute::{
        AttributeLike, DenseElementsAttribute, DenseI64ArrayAttribute, FloatAttribute, IntegerAttribute,
        StringAttribute,
    },
    operation::{OperationBuilder, OperationLike},
    r#type::{IntegerType, RankedTensorType, TypeLike},
    Attribute, BlockLike, BlockRef, Identifier, Location, OperationRef, Type, Value, ValueLike,
};
use mlir_sys as sys;
use std::{collections::HashMap, sync::Arc};

/// A block as an e-graph, with what is needed to write it back.
pub struct BlockGraph<'c, 'a> {
    pub egraph: OnnxEGraph,
    /// The e-classes the terminator returns, in order.
    pub roots: Vec<Id>,
    /// `Leaf(i)`: values defined outside the block's ops (block arguments).
    leaves: Vec<Value<'c, 'a>>,
    /// `Opaque(i)`: the op, how many of the node's children are its
    /// operands, and the captured values the other children stand for.
    opaque: Vec<(OperationRef<'c, 'a>, usize, Vec<Value<'c, 'a>>)>,
    terminator: OperationRef<'c, 'a>,
    /// The ops converted, in block order.
    originals: Vec<OperationRef<'c, 'a>>,
    /// Location of the first original op of each class (by the id it had).
    class_locations: Vec<(Id, Location<'c>)>,
    /// Location of each original e-node.
    node_locations: Vec<(ONode, Location<'c>)>,
}

/// True for ops whose two copies must stay two ops (random draws).
fn is_random(op_type: &str) -> bool {
    op_type.starts_with("Random") || matches!(op_type, "Multinomial" | "Bernoulli" | "Dropout")
}

/// Why a block cannot be converted, if it cannot (ops of other dialects,
/// which may have effects the e-graph cannot see).
pub fn unsupported(block: BlockRef<'_, '_>) -> Option<String> {
    let terminator = last_op(block)?;
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op == terminator {
            break;
        }
        let name = ir::op_name(op);
        if !name.starts_with(onnx_ir::DIALECT_PREFIX) {
            return Some(format!("holds '{name}', not an onnx op"));
        }
    }
    None
}

/// The node of `value` when an `onnx.Constant` of at most
/// [`MAX_CONST_ELEMENTS`] elements defines it.
fn small_constant(value: Value<'_, '_>) -> Option<ONode> {
    let def = unsafe {
        if !sys::mlirValueIsAOpResult(value.to_raw()) {
            return None;
        }
        OperationRef::from_raw(sys::mlirOpResultGetOwner(value.to_raw()))
    };
    if ir::op_name(def) != "onnx.Constant" || def.operand_count() != 0 {
        return None;
    }
    let head = head_of(def)?;
    match head.attr("value") {
        Some(AttrValue::Tensor(t)) if t.values.is_some() && head.attrs.len() == 1 => Some(ONode::op(head, vec![])),
        _ => None,
    }
}

/// The block's terminator: the last op (MLIR cannot tell that an
/// unregistered op such as `onnx.yield` is one).
fn last_op<'c, 'a>(block: BlockRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    if let Some(t) = block.terminator() {
        return Some(t);
    }
    let mut last = None;
    let mut next = block.first_operation();
    while let Some(op) = next {
        last = Some(op);
        next = op.next_in_block();
    }
    last
}

/// True for ops kept whole as opaque nodes.
fn is_opaque(op: OperationRef<'_, '_>) -> bool {
    op.region_count() > 0 || onnx_ir::split_name(&ir::op_name(op)).is_some_and(|(_, t)| is_random(t))
}

/// The values of `classes` (defined in the block being converted) that ops
/// nested in `op`'s regions use, in order of first use.
fn captures<'c, 'a>(op: OperationRef<'c, 'a>, classes: &HashMap<usize, Id>) -> Vec<Value<'c, 'a>> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for inner in ir::nested_ops(op) {
        ir::walk(inner, &mut |o| {
            for v in o.operands() {
                let key = v.to_raw().ptr as usize;
                if classes.contains_key(&key) && seen.insert(key) {
                    out.push(v);
                }
            }
        });
    }
    out
}

/// The type of a value as the analysis sees it.
pub fn ty_info(ty: Type<'_>) -> TyInfo {
    let raw = Some(ty.to_raw().ptr as u64);
    let is_tensor = unsafe { sys::mlirTypeIsATensor(ty.to_raw()) };
    if !is_tensor {
        return TyInfo { elem: None, dims: None, raw };
    }
    let elem = crate::types::element_type(ty).and_then(onnx_ir::data_type_code).map(|c| c as i32);
    let dims = shape_of(ty).map(|shape| {
        shape
            .into_iter()
            .map(|d| match d {
                onnx_shape::Dim::Static(n) => Dim::Static(n),
                // Proven equal to another symbol by the program: one name
                // for the class (optimizer::dim_facts).
                onnx_shape::Dim::Sym(s) => match super::dim_facts::representative(&s) {
                    Some(r) => Dim::Sym(Symbol::from(r.as_str())),
                    None => Dim::Sym(Symbol::from(s.as_str())),
                },
                onnx_shape::Dim::Unknown => Dim::Unknown,
            })
            .collect()
    });
    TyInfo { elem, dims, raw }
}

fn raw_of(attr: Attribute<'_>) -> u64 {
    attr.to_raw().ptr as u64
}

/// The contents of a dense elements attribute of at most [`MAX_CONST_ELEMENTS`].
fn dense_values(attr: Attribute<'_>, elem: i32, n: usize, limit: usize) -> Option<Values> {
    if n > limit {
        return None;
    }
    let raw = attr.to_raw();
    unsafe {
        if !sys::mlirAttributeIsADenseElements(raw) {
            return None;
        }
        let get = |i: usize| i as isize;
        Some(match elem {
            dtype::FLOAT => Values::from_f64s(
                &(0..n).map(|i| sys::mlirDenseElementsAttrGetFloatValue(raw, get(i)) as f64).collect::<Vec<_>>(),
            ),
            dtype::DOUBLE => Values::from_f64s(
                &(0..n).map(|i| sys::mlirDenseElementsAttrGetDoubleValue(raw, get(i))).collect::<Vec<_>>(),
            ),
            dtype::INT64 => {
                Values::Ints((0..n).map(|i| sys::mlirDenseElementsAttrGetInt64Value(raw, get(i))).collect())
            }
            dtype::INT32 => {
                Values::Ints((0..n).map(|i| sys::mlirDenseElementsAttrGetInt32Value(raw, get(i)) as i64).collect())
            }
            dtype::BOOL => {
                Values::Ints((0..n).map(|i| sys::mlirDenseElementsAttrGetBoolValue(raw, get(i)) as i64).collect())
            }
            _ => return None,
        })
    }
}

/// An attribute in canonical form (the values of dense elements of at most
/// `limit` elements).
fn attr_value_with(attr: Attribute<'_>, limit: usize) -> AttrValue {
    let raw = attr.to_raw();
    unsafe {
        if sys::mlirAttributeIsAInteger(raw) && !sys::mlirAttributeIsABool(raw) {
            let ty = sys::mlirAttributeGetType(raw);
            if sys::mlirTypeIsAInteger(ty)
                && sys::mlirIntegerTypeGetWidth(ty) == 64
                && sys::mlirIntegerTypeIsSignless(ty)
            {
                return AttrValue::Int(sys::mlirIntegerAttrGetValueInt(raw));
            }
        } else if sys::mlirAttributeIsAFloat(raw) {
            if sys::mlirTypeIsAF32(sys::mlirAttributeGetType(raw)) {
                return AttrValue::float(sys::mlirFloatAttrGetValueDouble(raw) as f32);
            }
        } else if sys::mlirAttributeIsADenseI64Array(raw) {
            if let Some(v) = ir::dense_i64_values(attr) {
                return AttrValue::Ints(v);
            }
        } else if sys::mlirAttributeIsAString(raw) {
            if let Some(s) = ir::string_value(attr) {
                return AttrValue::Str(s);
            }
        } else if sys::mlirAttributeIsADenseElements(raw) {
            let ty = Type::from_raw(sys::mlirAttributeGetType(raw));
            let info = ty_info(ty);
            if let (Some(elem), Some(shape)) = (info.elem, info.static_shape()) {
                let n = sys::mlirElementsAttrGetNumElements(raw) as usize;
                return AttrValue::Tensor(Arc::new(Tensor {
                    raw: Some(raw_of(attr)),
                    elem,
                    shape,
                    values: dense_values(attr, elem, n, limit),
                }));
            }
        }
    }
    AttrValue::Raw(raw_of(attr))
}

/// The head of an onnx op.
fn head_of(op: OperationRef<'_, '_>) -> Option<Head> {
    let name = ir::op_name(op);
    let (domain, op_type) = onnx_ir::split_name(&name)?;
    // An initializer's `value` (a known constant buffer, aten_ir::WEIGHT_VALUE_ATTR)
    // is read whole: the analysis gives rules its values.
    let limit = match op_type == "initializer" {
        true => crate::aten_ir::MAX_WEIGHT_VALUE_ELEMENTS,
        false => MAX_CONST_ELEMENTS,
    };
    let mut attrs: Vec<(Symbol, AttrValue)> = op
        .attributes()
        .map(|(k, v)| (Symbol::from(ir::identifier_text(k).as_str()), attr_value_with(v, limit)))
        .collect();
    attrs.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
    Some(Head { domain: Symbol::from(domain), op: Symbol::from(op_type), results: op.result_count() as u32, attrs })
}

impl<'c, 'a> BlockGraph<'c, 'a> {
    /// Converts `block` (checked with [`unsupported`] first).
    pub fn from_block(block: BlockRef<'c, 'a>, opset: u32) -> Option<BlockGraph<'c, 'a>> {
        let terminator = last_op(block)?;
        let mut egraph = OnnxEGraph::new(OnnxAnalysis::new(opset));
        let mut classes: HashMap<usize, Id> = HashMap::new();
        let mut leaves = Vec::new();
        let mut leaf_of = |value: Value<'c, 'a>, egraph: &mut OnnxEGraph, classes: &mut HashMap<usize, Id>| -> Id {
            let key = value.to_raw().ptr as usize;
            if let Some(&id) = classes.get(&key) {
                return id;
            }
            // A small constant defined outside (captured by a region) is
            // the constant itself, so rules see its value; it is rebuilt
            // inside the block if used there.
            if let Some(node) = small_constant(value) {
                let id = egraph.add(node);
                add_type(egraph, id, ty_info(value.r#type()));
                classes.insert(key, id);
                return id;
            }
            let id = egraph.add(ONode::Leaf(leaves.len() as u32));
            leaves.push(value);
            add_type(egraph, id, ty_info(value.r#type()));
            classes.insert(key, id);
            id
        };
        for i in 0..block.argument_count() {
            let arg: Value = block.argument(i).ok()?.into();
            leaf_of(arg, &mut egraph, &mut classes);
        }
        let mut originals = Vec::new();
        let mut opaque = Vec::new();
        let mut class_locations = Vec::new();
        let mut node_locations = Vec::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            if op == terminator {
                break;
            }
            let mut children: Vec<Id> = op.operands().map(|v| leaf_of(v, &mut egraph, &mut classes)).collect();
            let node = if is_opaque(op) {
                let captured = captures(op, &classes);
                children.extend(captured.iter().map(|v| classes[&(v.to_raw().ptr as usize)]));
                opaque.push((op, op.operand_count(), captured));
                ONode::Opaque(opaque.len() as u32 - 1, children)
            } else {
                ONode::op(head_of(op)?, children)
            };
            let id = egraph.add(node.clone());
            node_locations.push((node, op.location()));
            class_locations.push((id, op.location()));
            if op.result_count() == 1 {
                let result: Value = ir::result_at(op, 0)?;
                add_type(&mut egraph, id, ty_info(result.r#type()));
                classes.insert(result.to_raw().ptr as usize, id);
            } else {
                let types: Vec<TyInfo> = op.results().map(|r| ty_info(r.r#type())).collect();
                set_results(&mut egraph, id, types.clone());
                for (i, (result, ty)) in op.results().zip(types).enumerate() {
                    let proj = egraph.add(ONode::Proj(i as u32, [id]));
                    add_type(&mut egraph, proj, ty);
                    classes.insert(result.to_raw().ptr as usize, proj);
                }
            }
            originals.push(op);
        }
        let roots = terminator.operands().map(|v| leaf_of(v, &mut egraph, &mut classes)).collect();
        egraph.rebuild();
        Some(BlockGraph { egraph, roots, leaves, opaque, terminator, originals, class_locations, node_locations })
    }

    /// How many ops the block had.
    pub fn op_count(&self) -> usize {
        self.originals.len()
    }

    /// Replaces the block's ops by the chosen e-node of each e-class
    /// reachable from the roots; returns how many ops it built.
    pub fn write_back(&self, egraph: &OnnxEGraph, chosen: &HashMap<Id, ONode>) -> Result<usize, String> {
        let context_ref = self.terminator.context();
        let context = unsafe { context_ref.to_ref() };
        let block = self.terminator.block().ok_or("terminator without block")?;
        let class_location: HashMap<Id, Location> = {
            let mut m = HashMap::new();
            for (id, loc) in &self.class_locations {
                m.entry(egraph.find(*id)).or_insert(*loc);
            }
            m
        };
        let node_location: HashMap<ONode, Location> =
            self.node_locations.iter().map(|(n, loc)| (n.clone().map_children(|c| egraph.find(c)), *loc)).collect();
        let fallback = self.terminator.location();
        let mut values: HashMap<Id, Vec<Value<'c, 'a>>> = HashMap::new();
        // Captured values to redirect inside cloned ops: (old, new, clone).
        let mut redirect: Vec<(Value<'c, 'a>, Value<'c, 'a>, OperationRef<'c, 'a>)> = Vec::new();
        let mut built = 0usize;
        // Post-order over the chosen terms, iteratively (graphs are deep).
        for &root in &self.roots {
            let mut stack = vec![(egraph.find(root), false)];
            while let Some((class, expanded)) = stack.pop() {
                if values.contains_key(&class) {
                    continue;
                }
                let node = chosen.get(&class).ok_or_else(|| format!("no term chosen for e-class {class}"))?;
                if !expanded {
                    stack.push((class, true));
                    for &c in node.children() {
                        let c = egraph.find(c);
                        if !values.contains_key(&c) {
                            stack.push((c, false));
                        }
                    }
                    continue;
                }
                let operands: Vec<Value> = node
                    .children()
                    .iter()
                    .map(|c| values.get(&egraph.find(*c)).and_then(|v| v.first().copied()))
                    .collect::<Option<_>>()
                    .ok_or("an operand was not built (a cycle in the chosen terms)")?;
                let results: Vec<Value<'c, 'a>> = match node {
                    ONode::Leaf(i) => vec![self.leaves[*i as usize]],
                    ONode::Proj(i, [t]) => {
                        let tuple = values.get(&egraph.find(*t)).ok_or("projection of an unbuilt op")?;
                        vec![*tuple.get(*i as usize).ok_or("projection out of range")?]
                    }
                    ONode::Opaque(i, _) => {
                        let (original, explicit, captured) = &self.opaque[*i as usize];
                        let clone =
                            unsafe { melior::ir::Operation::from_raw(sys::mlirOperationClone(original.to_raw())) };
                        let op = block.insert_operation_before(self.terminator, clone);
                        let raw: Vec<sys::MlirValue> = operands[..*explicit].iter().map(|v| v.to_raw()).collect();
                        unsafe { sys::mlirOperationSetOperands(op.to_raw(), raw.len() as isize, raw.as_ptr()) };
                        for (old, new) in captured.iter().zip(&operands[*explicit..]) {
                            redirect.push((*old, *new, op));
                        }
                        built += 1;
                        op.results().map(Into::into).collect()
                    }
                    ONode::Op(head, _) => {
                        let types: Vec<Type> = if head.results == 1 {
                            vec![self.mlir_type(context, egraph[class].data.ty.as_ref())?]
                        } else {
                            let tys = egraph[class].data.results.as_ref().ok_or("a multi-result op without types")?;
                            tys.iter().map(|t| self.mlir_type(context, Some(t))).collect::<Result<_, _>>()?
                        };
                        let location =
                            node_location.get(node).or_else(|| class_location.get(&class)).copied().unwrap_or(fallback);
                        let op = build_op(context, head, &operands, &types, location)?;
                        let op = block.insert_operation_before(self.terminator, op);
                        built += 1;
                        op.results().map(Into::into).collect()
                    }
                };
                values.insert(class, results);
            }
        }
        // The terminator takes the new values; a value whose type differs
        // from what the terminator returned goes through an Identity of
        // that type (the function's signature stays as it was).
        let mut new_operands = Vec::new();
        for (old, root) in self.terminator.operands().zip(&self.roots) {
            let mut value = values[&egraph.find(*root)][0];
            if value.r#type() != old.r#type() {
                let head = Head::new("Identity", vec![]);
                let op = build_op(context, &head, &[value], &[old.r#type()], fallback)?;
                let op = block.insert_operation_before(self.terminator, op);
                built += 1;
                value = ir::result_at(op, 0).ok_or("an Identity without a result")?;
            }
            new_operands.push(value.to_raw());
        }
        unsafe {
            sys::mlirOperationSetOperands(self.terminator.to_raw(), new_operands.len() as isize, new_operands.as_ptr())
        };
        // Inside the clones, captured values become the rebuilt ones.
        for (old, new, clone) in redirect {
            if old != new {
                ir::walk(clone, &mut |o| {
                    for i in 0..o.operand_count() {
                        if ir::operand_at(o, i).is_some_and(|v| v == old) {
                            unsafe { sys::mlirOperationSetOperand(o.to_raw(), i as isize, new.to_raw()) };
                        }
                    }
                });
            }
        }
        for op in self.originals.iter().rev() {
            if !op.results().any(|r| has_uses(r.into())) {
                unsafe { ir::erase(*op) };
            }
        }
        Ok(built)
    }

    /// The MLIR type of a value: the one read, or one built from its dims.
    fn mlir_type(&self, context: &'c melior::Context, ty: Option<&TyInfo>) -> Result<Type<'c>, String> {
        let ty = ty.ok_or("a value without a type")?;
        if let Some(raw) = ty.raw {
            return Ok(unsafe { Type::from_raw(sys::MlirType { ptr: raw as *const _ }) });
        }
        // A rule's `onnx.none` (a missing optional input).
        if ty.elem.is_none() && ty.dims.is_none() {
            return Ok(Type::none(context));
        }
        let elem = element_type(context, ty.elem.ok_or("a value without an element type")?)?;
        let dims = ty.dims.as_ref().ok_or("a value without a rank")?;
        let shape: Vec<onnx_shape::Dim> = dims
            .iter()
            .map(|d| match d {
                Dim::Static(n) => onnx_shape::Dim::Static(*n),
                Dim::Sym(s) => onnx_shape::Dim::Sym(s.as_str().to_string()),
                Dim::Unknown => onnx_shape::Dim::Unknown,
            })
            .collect();
        Ok(onnx_shape::tensor_type(context, &shape, elem))
    }
}

/// The MLIR element type of an ONNX data type code.
fn element_type(context: &melior::Context, code: i32) -> Result<Type<'_>, String> {
    Ok(match code {
        dtype::FLOAT => Type::float32(context),
        dtype::DOUBLE => Type::float64(context),
        dtype::FLOAT16 => Type::float16(context),
        dtype::BFLOAT16 => Type::bfloat16(context),
        dtype::BOOL => IntegerType::new(context, 1).into(),
        dtype::INT8 => IntegerType::new(context, 8).into(),
        dtype::INT16 => IntegerType::new(context, 16).into(),
        dtype::INT32 => IntegerType::new(context, 32).into(),
        dtype::INT64 => IntegerType::new(context, 64).into(),
        dtype::UINT8 => IntegerType::unsigned(context, 8).into(),
        dtype::UINT16 => IntegerType::unsigned(context, 16).into(),
        dtype::UINT32 => IntegerType::unsigned(context, 32).into(),
        dtype::UINT64 => IntegerType::unsigned(context, 64).into(),
        // Types the rules never build but a block being rebuilt may hold
        // (imported ONNX models: strings, complex, float8, 4-bit ints).
        other => {
            let text = match other {
                8 => onnx_ir::STRING_TYPE,
                14 => "complex<f32>",
                15 => "complex<f64>",
                17 => "f8E4M3FN",
                19 => "f8E5M2",
                21 => "ui4",
                22 => "i4",
                _ => return Err(format!("no MLIR type for ONNX data type {other}")),
            };
            Type::parse(context, text).ok_or_else(|| format!("no MLIR type for ONNX data type {other}"))?
        }
    })
}

/// The MLIR attribute of a canonical attribute value.
fn attribute<'c>(context: &'c melior::Context, value: &AttrValue) -> Result<Attribute<'c>, String> {
    let from_raw = |raw: u64| unsafe { Attribute::from_raw(sys::MlirAttribute { ptr: raw as *const _ }) };
    Ok(match value {
        AttrValue::Int(v) => IntegerAttribute::new(IntegerType::new(context, 64).into(), *v).into(),
        AttrValue::Float(bits) => {
            FloatAttribute::new(context, Type::float32(context), f32::from_bits(*bits) as f64).into()
        }
        AttrValue::Ints(v) => DenseI64ArrayAttribute::new(context, v).into(),
        AttrValue::Str(s) => StringAttribute::new(context, s).into(),
        AttrValue::Raw(raw) => from_raw(*raw),
        AttrValue::Tensor(t) => match (t.raw, &t.values) {
            (Some(raw), _) => from_raw(raw),
            (None, Some(values)) => {
                let elem = element_type(context, t.elem)?;
                let shape: Vec<u64> = t.shape.iter().map(|&d| d as u64).collect();
                let ty: Type = RankedTensorType::new(&shape, elem, None).into();
                let elements: Vec<Attribute> = (0..values.len())
                    .map(|i| match values {
                        Values::Ints(v) => IntegerAttribute::new(elem, v[i]).into(),
                        Values::Floats(_) => FloatAttribute::new(context, elem, values.f64_at(i)).into(),
                    })
                    .collect();
                DenseElementsAttribute::new(ty, &elements).map_err(|e| e.to_string())?.into()
            }
            (None, None) => return Err("a tensor attribute without values".into()),
        },
    })
}

fn build_op<'c>(
    context: &'c melior::Context,
    head: &Head,
    operands: &[Value<'c, '_>],
    types: &[Type<'c>],
    location: Location<'c>,
) -> Result<melior::ir::Operation<'c>, String> {
    let name = onnx_ir::op_name(head.domain.as_str(), head.op.as_str());
    let attrs: Vec<(Identifier, Attribute)> = head
        .attrs
        .iter()
        .map(|(k, v)| Ok((Identifier::new(context, k.as_str()), attribute(context, v)?)))
        .collect::<Result<_, String>>()?;
    OperationBuilder::new(&name, location)
        .add_operands(operands)
        .add_attributes(&attrs)
        .add_results(types)
        .build()
        .map_err(|e| format!("building {name}: {e}"))
}
