//! The `forward` function of an onnx-dialect module -> a GraphProto
//! (without initializer data), plus the list of initializers to stream.

use super::{
    attrs,
    dims::{Dim, DimNames, InputDims},
};
use aten2onnx_dialects::onnx as registry;
use aten2onnx_passes::{
    convert_aten_to_onnx::COMPLEX_VIEW_ATTR,
    ir::{op_name, string_value, SourcePosition},
    lowering::builder::{dims as type_dims, element_type},
    onnx_ir,
};
use melior::ir::{
    attribute::AttributeLike, operation::OperationLike, r#type::TypeLike, Attribute, BlockLike, Module, OperationRef,
    RegionLike, Type, Value, ValueLike,
};
use mlir_sys as sys;
use onnx_protobuf::{
    tensor_shape_proto::{dimension, Dimension},
    type_proto, GraphProto, NodeProto, TensorShapeProto, TypeProto, ValueInfoProto,
};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The graph and what the writer needs besides it.
pub struct Graph {
    /// Nodes, name, inputs, outputs, value_info; no initializers.
    pub proto: GraphProto,
    pub initializers: Vec<Initializer>,
    /// The default domain's opset.
    pub opset: u32,
    /// Other domains used by nodes.
    pub domains: Vec<String>,
    /// The module's `aten.archive`.
    pub archive: Option<String>,
    /// Graph inputs and outputs holding a complex tensor as its real view:
    /// (ONNX name, torch dtype), in graph order.
    pub complex_views: Vec<(String, String)>,
}

/// An `onnx.initializer`: the weight `fqn` of the archive, written as the
/// graph initializer `name` (the FQN unless it collides with a graph input
/// or output name) with the op's result type.
#[derive(Clone, Debug)]
pub struct Initializer {
    pub name: String,
    pub fqn: String,
    pub data_type: i32,
    pub dims: Vec<i64>,
    /// Where the op is, for messages.
    pub position: String,
    /// (file, byte offset, length) of the bytes when the op names them
    /// (`location`, `offset`, `length`: an initializer of an imported ONNX
    /// model) instead of a weight of the `aten.archive`.
    pub source: Option<(String, u64, u64)>,
    /// Set for an `onnx.weight_transform`: its data is computed from its
    /// operands while it is written (`fqn` then describes it, e.g.
    /// `transpose(fc.weight)`; see `transform.rs`).
    pub transform: Option<Box<Transform>>,
}

/// What an `onnx.weight_transform` does (see `transform.rs`).
#[derive(Clone, Debug)]
pub struct Transform {
    pub kind: String,
    pub perm: Option<Vec<i64>>,
    pub axis: Option<i64>,
    /// `slice`: the first element taken along `axis`.
    pub start: Option<i64>,
    pub epsilon: Option<f32>,
    /// `rtn_*` kinds: `layout`, `bits`, `block_size`, `symmetric`.
    pub rtn: Option<(String, i64, i64, bool)>,
    pub inputs: Vec<Initializer>,
}

impl Initializer {
    /// The stored tensors it reads (itself when it is not a transform).
    pub fn leaves(&self) -> Vec<&Initializer> {
        match &self.transform {
            None => vec![self],
            Some(t) => t.inputs.iter().flat_map(Initializer::leaves).collect(),
        }
    }
}

/// True when every use of `value` is an operand of an `onnx.weight_transform`
/// (and there is at least one): such a weight is not written itself.
fn only_transforms_use(value: Value<'_, '_>) -> bool {
    unsafe {
        let mut operand = sys::mlirValueGetFirstUse(value.to_raw());
        if sys::mlirOpOperandIsNull(operand) {
            return false;
        }
        while !sys::mlirOpOperandIsNull(operand) {
            let owner = OperationRef::from_raw(sys::mlirOpOperandGetOwner(operand));
            if op_name(owner) != onnx_ir::WEIGHT_TRANSFORM_OP {
                return false;
            }
            operand = sys::mlirOpOperandGetNextUse(operand);
        }
        true
    }
}

/// The most nodes (transforms and stored tensors) in the tree of one
/// weight transform.
const MAX_TRANSFORM_NODES: usize = 256;

/// The nodes in the tree of `init` (1 for a stored tensor).
fn transform_nodes(init: &Initializer) -> usize {
    match &init.transform {
        None => 1,
        Some(t) => t.inputs.iter().fold(1usize, |n, i| n.saturating_add(transform_nodes(i))),
    }
}

/// The description of an `onnx.weight_transform` op over `weights` (the
/// initializers and transforms seen so far, by value).
fn transform_of(op: OperationRef<'_, '_>, weights: &HashMap<Key, Initializer>) -> Result<Initializer, String> {
    let kind = op
        .attribute("kind")
        .ok()
        .and_then(string_value)
        .ok_or_else(|| format!("{} has no string `kind`", describe(op)))?;
    if op.result_count() != 1 || op.operand_count() == 0 {
        return Err(format!("{} must have operands and one result", describe(op)));
    }
    let inputs: Vec<Initializer> = op
        .operands()
        .enumerate()
        .map(|(i, v)| {
            weights.get(&key(v)).cloned().ok_or_else(|| {
                format!("{}: operand {i} is not an onnx.initializer or an earlier onnx.weight_transform", describe(op))
            })
        })
        .collect::<Result<_, _>>()?;
    // Each transform holds its operands' trees by value (and its `fqn`
    // spells them out): a hostile chain or DAG of transforms would grow
    // without bound (cubic in a chain's length, exponential in a DAG of
    // concats) and recurse as deep when resolved. Real ones have a few nodes.
    let nodes = inputs.iter().fold(1usize, |n, i| n.saturating_add(transform_nodes(i)));
    if nodes > MAX_TRANSFORM_NODES {
        return Err(format!(
            "{} computes its weight through a tree of {nodes} weight transforms and stored tensors (at most {MAX_TRANSFORM_NODES})",
            describe(op)
        ));
    }
    let ty = aten2onnx_passes::ir::result_at(op, 0).ok_or("a weight transform without a result")?.r#type();
    let (data_type, dims) = static_tensor(ty).ok_or_else(|| {
        format!("{} has type {ty}; weight transforms need a static tensor type with an ONNX element type", describe(op))
    })?;
    let int = |name: &str| -> Option<i64> {
        let attr = op.attribute(name).ok()?;
        unsafe { sys::mlirAttributeIsAInteger(attr.to_raw()).then(|| sys::mlirIntegerAttrGetValueInt(attr.to_raw())) }
    };
    let float = |name: &str| -> Option<f32> {
        let attr = op.attribute(name).ok()?;
        unsafe {
            sys::mlirAttributeIsAFloat(attr.to_raw()).then(|| sys::mlirFloatAttrGetValueDouble(attr.to_raw()) as f32)
        }
    };
    let perm = op.attribute("perm").ok().and_then(aten2onnx_passes::ir::dense_i64_values);
    let fqn = format!("{kind}({})", inputs.iter().map(|i| i.fqn.as_str()).collect::<Vec<_>>().join(", "));
    Ok(Initializer {
        name: String::new(),
        fqn,
        data_type,
        dims,
        position: describe(op),
        source: None,
        transform: Some(Box::new(Transform {
            kind: kind.clone(),
            perm,
            axis: int("axis"),
            start: int("start"),
            epsilon: float("epsilon"),
            rtn: kind.starts_with("rtn_").then(|| {
                let layout = op.attribute("layout").ok().and_then(string_value).unwrap_or_default();
                (layout, int("bits").unwrap_or(0), int("block_size").unwrap_or(0), int("symmetric").unwrap_or(0) != 0)
            }),
            inputs,
        })),
    })
}

/// The initializer name of a weight transform: its first stored source and
/// its kinds (`fc.weight.transpose`).
fn transform_name(init: &Initializer) -> String {
    let mut first = init;
    let mut kinds = Vec::new();
    while let Some(t) = &first.transform {
        kinds.push(t.kind.as_str());
        match t.inputs.first() {
            Some(i) => first = i,
            None => break,
        }
    }
    kinds.reverse();
    format!("{}.{}", first.fqn, kinds.join("."))
}

/// Unique names in one namespace: `base`, then `base_1`, `base_2`, ...
/// Linear overall: each base remembers the next suffix to try.
#[derive(Default)]
struct Names {
    used: HashSet<String>,
    next_suffix: HashMap<String, u64>,
}

impl Names {
    fn claim(&mut self, base: &str) -> String {
        let base = if base.is_empty() { "v" } else { base };
        if self.used.insert(base.to_string()) {
            return base.to_string();
        }
        let next = self.next_suffix.entry(base.to_string()).or_insert(1);
        loop {
            let name = format!("{base}_{next}");
            *next += 1;
            if self.used.insert(name.clone()) {
                return name;
            }
        }
    }
}

type Key = *const std::ffi::c_void;

fn key(value: Value<'_, '_>) -> Key {
    value.to_raw().ptr
}

/// Keys of the `NodeProto.metadata_props` saying where a node came from.
pub const META_NODE: &str = "aten2onnx.node";
pub const META_ATEN_OP: &str = "aten2onnx.aten_op";
pub const META_SOURCE: &str = "aten2onnx.source";

/// Records where an ONNX node came from (the aten node, its op and the
/// Python line) in `metadata_props` and a readable `doc_string`, so that a
/// viewer like Netron shows it. `--strip-debug-info` removes both.
fn trace_node(node: &mut NodeProto, position: &SourcePosition) {
    let entry = |key: &str, value: String| onnx_protobuf::StringStringEntryProto {
        key: key.to_string(),
        value,
        ..Default::default()
    };
    let mut doc = Vec::new();
    if let Some(name) = position.node.as_ref().filter(|n| !n.is_empty()) {
        node.metadata_props.push(entry(META_NODE, name.clone()));
        doc.push(format!("node {name}"));
    }
    if let Some(op) = &position.aten_op {
        node.metadata_props.push(entry(META_ATEN_OP, op.clone()));
        doc.push(format!("({op})"));
    }
    if let Some(file) = &position.file {
        let source = format!("{file}:{}", position.line);
        doc.push(format!("at {source}"));
        node.metadata_props.push(entry(META_SOURCE, source));
    }
    node.doc_string = doc.join(" ");
}

/// `[node name] file:line:col` for messages.
fn describe(op: OperationRef<'_, '_>) -> String {
    let pos = SourcePosition::of(op.location());
    let mut text = format!("`{}`", op_name(op));
    if let Some(node) = pos.node.as_ref().filter(|n| !n.is_empty()) {
        text.push_str(&format!(" [node {node}]"));
    }
    if pos.file.is_some() {
        text.push_str(&format!(" at {}", pos.file_line()));
    }
    text
}

/// The ONNX graph of `module`, naming the symbols in `dim_names` (symbol ->
/// `dim_param` name, empty for the derived names) as given; see
/// [`DimNames::from_inputs_with`].
pub fn build(module: &Module<'_>, dim_names: &BTreeMap<String, String>) -> Result<Graph, String> {
    let module_op = module.as_operation();
    let archive = module_op.attribute(aten2onnx_passes::aten_ir::ARCHIVE_ATTR).ok().and_then(string_value);
    let func = find_forward(module)?;
    let opset = onnx_ir::opset_of(func);
    let region = func.region(0).map_err(|e| e.to_string())?;
    let block = region.first_block().ok_or("@forward has no body")?;
    if block.next_in_region().is_some() {
        return Err("@forward has more than one block; ONNX graphs have no control flow between blocks".into());
    }

    // Graph input and output names.
    let arg_attrs = array_elements(func.attribute("arg_attrs").ok());
    let res_attrs = array_elements(func.attribute("res_attrs").ok());
    let mut names = Names::default();
    let mut value_names: HashMap<Key, String> = HashMap::new();
    let mut inputs = Vec::new();
    // Complex inputs and outputs are written as their real views
    // (convert_aten_to_onnx::COMPLEX_VIEW_ATTR): the value's doc_string says so.
    let mut complex_views: HashMap<String, String> = HashMap::new();
    for i in 0..block.argument_count() {
        let arg: Value = block.argument(i).map_err(|e| e.to_string())?.into();
        let wanted = dict_string(arg_attrs.get(i).copied(), "aten.name").unwrap_or_else(|| format!("input_{i}"));
        let complex = dict_string(arg_attrs.get(i).copied(), COMPLEX_VIEW_ATTR);
        let name = names.claim(&wanted);
        value_names.insert(key(arg), name.clone());
        if let Some(dtype) = complex {
            complex_views.insert(name.clone(), dtype);
        }
        inputs.push((name, arg));
    }
    let terminator = block.terminator().ok_or("@forward has no terminator")?;
    if op_name(terminator) != "func.return" {
        return Err(format!("@forward ends with {} instead of func.return", describe(terminator)));
    }
    let mut outputs = Vec::new();
    for (i, value) in terminator.operands().enumerate() {
        let attrs = res_attrs.get(i).copied();
        let kind = dict_string(attrs, "aten.kind");
        let mutation =
            matches!(kind.as_deref(), Some("buffer_mutation" | "user_input_mutation" | "parameter_mutation"));
        let wanted = if mutation { dict_string(attrs, "aten.target") } else { None }
            .or_else(|| dict_string(attrs, "aten.name"))
            .unwrap_or_else(|| format!("output_{i}"));
        let name = names.claim(&wanted);
        if let Some(dtype) = dict_string(attrs, COMPLEX_VIEW_ATTR) {
            complex_views.insert(name.clone(), dtype);
        }
        outputs.push((name, value));
    }

    let ops: Vec<OperationRef> = {
        let mut ops = Vec::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            if op != terminator {
                ops.push(op);
            }
            next = op.next_in_block();
        }
        ops
    };

    // Initializers claim their FQN before intermediates claim names.
    let mut initializers: Vec<Initializer> = Vec::new();
    let mut by_fqn: HashMap<String, usize> = HashMap::new();
    // Every weight value (also those only transforms use, which are not written).
    let mut weights: HashMap<Key, Initializer> = HashMap::new();
    for &op in &ops {
        if op_name(op) == onnx_ir::WEIGHT_TRANSFORM_OP {
            let mut init = transform_of(op, &weights)?;
            let value: Value = aten2onnx_passes::ir::result_at(op, 0).ok_or("a weight transform without a result")?;
            if !only_transforms_use(value) {
                init.name = names.claim(&transform_name(&init));
                value_names.insert(key(value), init.name.clone());
                initializers.push(init.clone());
            }
            weights.insert(key(value), init);
            continue;
        }
        if op_name(op) != onnx_ir::INITIALIZER_OP {
            continue;
        }
        let fqn = op
            .attribute("name")
            .ok()
            .and_then(string_value)
            .ok_or_else(|| format!("{} has no string `name`", describe(op)))?;
        if op.result_count() != 1 || op.operand_count() != 0 {
            return Err(format!("{} must have no operands and one result", describe(op)));
        }
        let ty =
            aten2onnx_passes::ir::result_at(op, 0).ok_or_else(|| format!("{} has no result", describe(op)))?.r#type();
        let (data_type, dims) = static_tensor(ty).ok_or_else(|| {
            format!(
                "{} (`{fqn}`) has type {ty}; initializers need a static tensor type with an ONNX element type",
                describe(op)
            )
        })?;
        let value: Value =
            aten2onnx_passes::ir::result_at(op, 0).ok_or_else(|| format!("{} has no result", describe(op)))?;
        let plain = Initializer {
            name: String::new(),
            fqn: fqn.clone(),
            data_type,
            dims: dims.clone(),
            position: describe(op),
            source: file_source(op),
            transform: None,
        };
        weights.insert(key(value), plain);
        if only_transforms_use(value) && !by_fqn.contains_key(&fqn) {
            continue;
        }
        let index = match by_fqn.get(&fqn) {
            Some(&index) => {
                let first = &initializers[index];
                if (first.data_type, &first.dims) != (data_type, &dims) {
                    return Err(format!(
                        "{} (`{fqn}`) has type {ty}, unlike its first use at {}",
                        describe(op),
                        first.position
                    ));
                }
                index
            }
            None => {
                initializers.push(Initializer {
                    name: names.claim(&fqn),
                    fqn: fqn.clone(),
                    data_type,
                    dims,
                    position: describe(op),
                    source: file_source(op),
                    transform: None,
                });
                by_fqn.insert(fqn, initializers.len() - 1);
                initializers.len() - 1
            }
        };
        let value = aten2onnx_passes::ir::result_at(op, 0).ok_or_else(|| format!("{} has no result", describe(op)))?;
        value_names.insert(key(value), initializers[index].name.clone());
    }

    // Each output produced by a node names that node's result, unless the
    // value is a graph input, an initializer or already an output: those
    // get an Identity.
    let mut direct: HashMap<Key, String> = HashMap::new();
    let mut identities: Vec<(Value, String)> = Vec::new();
    for (name, value) in &outputs {
        let from_node = unsafe { sys::mlirValueIsAOpResult(value.to_raw()) } && {
            let owner = unsafe { OperationRef::from_raw(sys::mlirOpResultGetOwner(value.to_raw())) };
            let owner_name = op_name(owner);
            !onnx_ir::is_weight_op(&owner_name) && owner_name != onnx_ir::NONE_OP
        };
        if from_node && !direct.contains_key(&key(*value)) {
            direct.insert(key(*value), name.clone());
        } else {
            identities.push((*value, name.clone()));
        }
    }

    // Symbol names come from the graph inputs.
    let input_dims: Vec<InputDims> = inputs
        .iter()
        .map(|(name, value)| InputDims {
            name: name.clone(),
            integer: element_type(value.r#type()).is_some_and(|e| unsafe { sys::mlirTypeIsAInteger(e.to_raw()) }),
            dims: dims_with_symbols(value.r#type()).unwrap_or_default(),
        })
        .collect();
    let mut dim_names = DimNames::from_inputs_with(&input_dims, dim_names);

    // Nodes.
    let mut graph = GraphProto { name: "forward".into(), ..Default::default() };
    let mut node_names = Names::default();
    let mut domains: BTreeMap<String, ()> = BTreeMap::new();
    let mut intermediates: Vec<(String, Type)> = Vec::new();
    for &op in &ops {
        let name = op_name(op);
        if onnx_ir::is_weight_op(&name) {
            continue;
        }
        if name == onnx_ir::NONE_OP {
            for result in op.results() {
                value_names.insert(key(result.into()), String::new());
            }
            continue;
        }
        let Some((domain, op_type)) = onnx_ir::split_name(&name) else {
            return Err(format!(
                "{} is not an onnx-dialect op; lower the module to the onnx dialect first",
                describe(op)
            ));
        };
        if !domain.is_empty() {
            domains.insert(domain.to_string(), ());
        }
        let position = SourcePosition::of(op.location());
        let base = position.node.clone().filter(|n| !n.is_empty()).unwrap_or_else(|| op_type.to_string());
        let mut node = NodeProto {
            op_type: op_type.to_string(),
            domain: domain.to_string(),
            name: node_names.claim(&base),
            ..Default::default()
        };
        trace_node(&mut node, &position);
        for (i, operand) in op.operands().enumerate() {
            let input = value_names.get(&key(operand)).ok_or_else(|| {
                format!("{}: operand {i} is not defined by a graph input or an earlier onnx op", describe(op))
            })?;
            node.input.push(input.clone());
        }
        let count = op.result_count();
        for (i, result) in op.results().enumerate() {
            let value: Value = result.into();
            let output = match direct.get(&key(value)) {
                Some(name) => name.clone(),
                None => {
                    let name = names.claim(&if count == 1 { base.clone() } else { format!("{base}_{i}") });
                    intermediates.push((name.clone(), value.r#type()));
                    name
                }
            };
            value_names.insert(key(value), output.clone());
            node.output.push(output);
        }
        let schema = registry::lookup(domain, op_type, opset);
        for (attr_name, attr) in op.attributes() {
            let attr_name = aten2onnx_passes::ir::identifier_text(attr_name);
            if attr_name.contains('.') {
                continue; // discardable attributes of other layers
            }
            let expected = schema.and_then(|s| s.attributes.iter().find(|a| a.name == attr_name)).map(|a| a.ty);
            if let Some(proto) =
                attrs::attribute(&attr_name, attr, expected).map_err(|e| format!("{}: {e}", describe(op)))?
            {
                node.attribute.push(proto);
            }
        }
        if op.region_count() > 0 {
            let mut scope = Scope {
                names: &mut names,
                node_names: &mut node_names,
                value_names: &mut value_names,
                dim_names: &mut dim_names,
                domains: &mut domains,
                opset,
            };
            let graphs = region_graphs(op, op_type, &node.name, &mut scope)?;
            node.attribute.extend(graphs);
        }
        graph.node.push(node);
    }
    for (value, output) in &identities {
        let input = value_names.get(&key(*value)).cloned().unwrap_or_default();
        if input.is_empty() {
            return Err(format!("output `{output}` is not a value the graph computes"));
        }
        graph.node.push(NodeProto {
            op_type: "Identity".into(),
            name: node_names.claim(&format!("{output}_identity")),
            input: vec![input],
            output: vec![output.clone()],
            ..Default::default()
        });
    }

    // Types: inputs and outputs in full, ranked intermediates as value_info.
    for (name, value) in &inputs {
        let ty = value.r#type();
        let proto = type_proto(ty, &mut dim_names).ok_or_else(|| {
            format!("graph input `{name}` has type {ty}; ONNX inputs must be tensors with an ONNX element type")
        })?;
        // onnx.checker requires a shape (at least the rank) on the main
        // graph's inputs and outputs.
        if !is_ranked(ty) {
            return Err(format!("graph input `{name}` has no shape (unknown rank); ONNX requires one on graph inputs"));
        }
        graph.input.push(complex_view_doc(value_info(name, proto), &complex_views));
    }
    for (name, value) in &outputs {
        let ty = value.r#type();
        let proto = type_proto(ty, &mut dim_names).ok_or_else(|| {
            format!("graph output `{name}` has type {ty}; ONNX outputs must be tensors with an ONNX element type")
        })?;
        if !is_ranked(ty) {
            return Err(format!(
                "graph output `{name}` has no shape and its rank could not be inferred; ONNX requires one on graph outputs"
            ));
        }
        graph.output.push(complex_view_doc(value_info(name, proto), &complex_views));
    }
    for (name, ty) in intermediates {
        if is_ranked(ty) {
            if let Some(proto) = type_proto(ty, &mut dim_names) {
                graph.value_info.push(value_info(&name, proto));
            }
        }
    }

    let complex_views = graph
        .input
        .iter()
        .chain(&graph.output)
        .filter_map(|v| complex_views.get(&v.name).map(|dtype| (v.name.clone(), dtype.clone())))
        .collect();
    Ok(Graph { proto: graph, initializers, opset, domains: domains.into_keys().collect(), archive, complex_views })
}

/// The (`location`, `offset`, `length`) attributes of an initializer op.
fn file_source(op: OperationRef<'_, '_>) -> Option<(String, u64, u64)> {
    let location = op.attribute("location").ok().and_then(string_value)?;
    let int = |name: &str| {
        op.attribute(name)
            .ok()
            .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
            .map(|i| i.value())
    };
    Some((location, u64::try_from(int("offset")?).ok()?, u64::try_from(int("length")?).ok()?))
}

fn find_forward<'c, 'a>(module: &'a Module<'c>) -> Result<OperationRef<'c, 'a>, String> {
    let mut funcs = Vec::new();
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        if op_name(op) == "func.func" {
            funcs.push(op);
        }
        next = op.next_in_block();
    }
    let sym = |op: OperationRef| op.attribute("sym_name").ok().and_then(string_value).unwrap_or_default();
    match funcs.iter().find(|f| sym(**f) == "forward") {
        Some(f) => Ok(*f),
        None if funcs.len() == 1 => Ok(funcs[0]),
        None if funcs.is_empty() => Err("the module has no func.func".into()),
        None => Err(format!(
            "the module has {} functions and none is @forward: {}",
            funcs.len(),
            funcs.iter().map(|f| format!("@{}", sym(*f))).collect::<Vec<_>>().join(", ")
        )),
    }
}

fn array_elements<'c>(attr: Option<Attribute<'c>>) -> Vec<Attribute<'c>> {
    let Some(attr) = attr else { return Vec::new() };
    unsafe {
        if !sys::mlirAttributeIsAArray(attr.to_raw()) {
            return Vec::new();
        }
        (0..sys::mlirArrayAttrGetNumElements(attr.to_raw()))
            .map(|i| Attribute::from_raw(sys::mlirArrayAttrGetElement(attr.to_raw(), i)))
            .collect()
    }
}

/// A string entry of a dictionary attribute.
fn dict_string(dict: Option<Attribute<'_>>, name: &str) -> Option<String> {
    let dict = dict?;
    unsafe {
        if !sys::mlirAttributeIsADictionary(dict.to_raw()) {
            return None;
        }
        let value = sys::mlirDictionaryAttrGetElementByName(
            dict.to_raw(),
            sys::MlirStringRef { data: name.as_ptr() as *const _, length: name.len() },
        );
        if value.ptr.is_null() {
            return None;
        }
        string_value(Attribute::from_raw(value))
    }
}

pub(crate) fn is_ranked(ty: Type<'_>) -> bool {
    unsafe { sys::mlirTypeIsARankedTensor(ty.to_raw()) }
}

/// (ONNX data type, dims) of a static tensor type.
fn static_tensor(ty: Type<'_>) -> Option<(i32, Vec<i64>)> {
    let elem = element_type(ty)?;
    let code = onnx_ir::data_type_code(elem)? as i32;
    let dims = type_dims(ty)?.into_iter().collect::<Option<Vec<i64>>>()?;
    Some((code, dims))
}

/// Dims of a ranked tensor type with the symbolic size of each dynamic dim
/// from the encoding (`tensor<?x8xf32, ["s77"]>`).
fn dims_with_symbols(ty: Type<'_>) -> Option<Vec<Dim>> {
    let dims = type_dims(ty)?;
    let symbols: Vec<Option<String>> = unsafe {
        let encoding = sys::mlirRankedTensorTypeGetEncoding(ty.to_raw());
        if encoding.ptr.is_null() {
            Vec::new()
        } else {
            array_elements(Some(Attribute::from_raw(encoding))).into_iter().map(string_value).collect()
        }
    };
    let mut next_symbol = symbols.into_iter();
    Some(
        dims.into_iter()
            .map(|d| match d {
                Some(n) => Dim::Static(n),
                None => Dim::Dynamic(next_symbol.next().flatten()),
            })
            .collect(),
    )
}

/// The ONNX type of a tensor type (shape only when ranked); `None` for
/// non-tensors and element types ONNX lacks.
fn type_proto(ty: Type<'_>, dim_names: &mut DimNames) -> Option<TypeProto> {
    let elem = element_type(ty)?;
    let elem_type = onnx_ir::data_type_code(elem)? as i32;
    let shape = dims_with_symbols(ty).map(|dims| TensorShapeProto {
        dim: dims
            .into_iter()
            .map(|d| Dimension {
                value: match d {
                    Dim::Static(n) => Some(dimension::Value::DimValue(n)),
                    Dim::Dynamic(Some(expr)) => Some(dimension::Value::DimParam(dim_names.rewrite(&expr))),
                    Dim::Dynamic(None) => None,
                },
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    });
    Some(TypeProto {
        value: Some(type_proto::Value::TensorType(type_proto::Tensor {
            elem_type,
            shape: shape.into(),
            ..Default::default()
        })),
        ..Default::default()
    })
}

/// The doc_string of a graph input or output that holds a complex tensor as
/// its real view.
fn complex_view_doc(mut info: ValueInfoProto, complex_views: &HashMap<String, String>) -> ValueInfoProto {
    if let Some(dtype) = complex_views.get(&info.name) {
        info.doc_string = complex_view_note(dtype);
    }
    info
}

/// How a complex graph input or output of dtype `dtype` (`complex64`, ...) is
/// written: shared by the value's doc_string and aten-translate's note.
pub fn complex_view_note(dtype: &str) -> String {
    let component = match dtype {
        "complex128" => "float64",
        "complex32" => "float16",
        _ => "float32",
    };
    format!(
        "{dtype} tensor written as its real view (torch.view_as_real): {component} with one more trailing dim of 2 \
         holding (real, imaginary)"
    )
}

fn value_info(name: &str, ty: TypeProto) -> ValueInfoProto {
    ValueInfoProto { name: name.to_string(), type_: Some(ty).into(), ..Default::default() }
}

// --------------------------------------------------------------------------
// Subgraphs: ops with regions (If, Loop, Scan; docs/dialects.md)
// --------------------------------------------------------------------------

/// The naming state shared by the main graph and its subgraphs: ONNX
/// subgraphs see every name of the enclosing graphs, so names are unique
/// across the whole model and outer values are referenced by their names.
struct Scope<'s> {
    names: &'s mut Names,
    node_names: &'s mut Names,
    value_names: &'s mut HashMap<Key, String>,
    dim_names: &'s mut DimNames,
    domains: &'s mut BTreeMap<String, ()>,
    opset: u32,
}

/// One GraphProto attribute per region of `op`, named by the region order
/// convention of [`onnx_ir::region_attributes`].
fn region_graphs(
    op: OperationRef<'_, '_>,
    op_type: &str,
    node_name: &str,
    scope: &mut Scope<'_>,
) -> Result<Vec<onnx_protobuf::AttributeProto>, String> {
    let attr_names = onnx_ir::region_attributes(op_type).ok_or_else(|| {
        format!("{} has regions, but ONNX {op_type} has no graph attributes the writer knows", describe(op))
    })?;
    if op.region_count() != attr_names.len() {
        return Err(format!(
            "{} has {} regions; {op_type} needs {} ({})",
            describe(op),
            op.region_count(),
            attr_names.len(),
            attr_names.join(", ")
        ));
    }
    let mut out = Vec::new();
    for (i, attr_name) in attr_names.iter().enumerate() {
        let region = op.region(i).map_err(|e| e.to_string())?;
        let block = region.first_block().ok_or_else(|| format!("{}: region '{attr_name}' is empty", describe(op)))?;
        if block.next_in_region().is_some() {
            return Err(format!("{}: region '{attr_name}' has more than one block", describe(op)));
        }
        let graph = subgraph(block, &format!("{node_name}_{attr_name}"), scope)?;
        out.push(onnx_protobuf::AttributeProto {
            name: attr_name.to_string(),
            type_: onnx_protobuf::attribute_proto::AttributeType::GRAPH.into(),
            g: Some(graph).into(),
            ..Default::default()
        });
    }
    Ok(out)
}

/// A block ending in `onnx.yield` as a GraphProto: block arguments are the
/// graph's inputs, the yield's operands its outputs.
fn subgraph(block: melior::ir::BlockRef<'_, '_>, name: &str, scope: &mut Scope<'_>) -> Result<GraphProto, String> {
    let mut graph = GraphProto { name: name.to_string(), ..Default::default() };
    let terminator =
        aten2onnx_passes::control_flow::last_op(block).ok_or_else(|| format!("subgraph {name} has no terminator"))?;
    if op_name(terminator) != onnx_ir::YIELD_OP {
        return Err(format!("subgraph {name} ends with {} instead of {}", describe(terminator), onnx_ir::YIELD_OP));
    }
    for i in 0..block.argument_count() {
        let arg: Value = block.argument(i).map_err(|e| e.to_string())?.into();
        let input = scope.names.claim(&format!("{name}_in{i}"));
        scope.value_names.insert(key(arg), input.clone());
        let ty = arg.r#type();
        let proto = type_proto(ty, scope.dim_names)
            .ok_or_else(|| format!("subgraph {name}: input #{i} has type {ty}, not an ONNX tensor type"))?;
        graph.input.push(value_info(&input, proto));
    }
    // An output produced by a node of this subgraph names that node's
    // result; anything else (an input, an outer value, a repeat) gets an
    // Identity, so every output is computed inside the subgraph.
    let mut direct: HashMap<Key, String> = HashMap::new();
    let mut outputs: Vec<(String, Value)> = Vec::new();
    let mut identities: Vec<(Value, String)> = Vec::new();
    for (i, value) in terminator.operands().enumerate() {
        let output = scope.names.claim(&format!("{name}_out{i}"));
        let local = unsafe { sys::mlirValueIsAOpResult(value.to_raw()) } && {
            let owner = unsafe { OperationRef::from_raw(sys::mlirOpResultGetOwner(value.to_raw())) };
            owner.block().is_some_and(|b| b == block) && {
                let owner_name = op_name(owner);
                !onnx_ir::is_weight_op(&owner_name) && owner_name != onnx_ir::NONE_OP
            }
        };
        if local && !direct.contains_key(&key(value)) {
            direct.insert(key(value), output.clone());
        } else {
            identities.push((value, output.clone()));
        }
        outputs.push((output, value));
    }
    let mut intermediates: Vec<(String, Type)> = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op == terminator {
            break;
        }
        let op_full = op_name(op);
        if onnx_ir::is_weight_op(&op_full) {
            return Err(format!(
                "{} is inside a subgraph; initializers must be in the function's body (the main graph)",
                describe(op)
            ));
        }
        if op_full == onnx_ir::NONE_OP {
            for result in op.results() {
                scope.value_names.insert(key(result.into()), String::new());
            }
            continue;
        }
        let Some((domain, op_type)) = onnx_ir::split_name(&op_full) else {
            return Err(format!(
                "{} is not an onnx-dialect op; lower the module to the onnx dialect first",
                describe(op)
            ));
        };
        if !domain.is_empty() {
            scope.domains.insert(domain.to_string(), ());
        }
        let position = SourcePosition::of(op.location());
        let base = position.node.clone().filter(|n| !n.is_empty()).unwrap_or_else(|| op_type.to_string());
        let mut node = NodeProto {
            op_type: op_type.to_string(),
            domain: domain.to_string(),
            name: scope.node_names.claim(&base),
            ..Default::default()
        };
        trace_node(&mut node, &position);
        for (i, operand) in op.operands().enumerate() {
            let input = scope.value_names.get(&key(operand)).ok_or_else(|| {
                format!("{}: operand {i} is not defined by a graph input or an earlier onnx op", describe(op))
            })?;
            node.input.push(input.clone());
        }
        let count = op.result_count();
        for (i, result) in op.results().enumerate() {
            let value: Value = result.into();
            let output = match direct.get(&key(value)) {
                Some(name) => name.clone(),
                None => {
                    let name = scope.names.claim(&if count == 1 { base.clone() } else { format!("{base}_{i}") });
                    intermediates.push((name.clone(), value.r#type()));
                    name
                }
            };
            scope.value_names.insert(key(value), output.clone());
            node.output.push(output);
        }
        let schema = registry::lookup(domain, op_type, scope.opset);
        for (attr_name, attr) in op.attributes() {
            let attr_name = aten2onnx_passes::ir::identifier_text(attr_name);
            if attr_name.contains('.') {
                continue; // discardable attributes of other layers
            }
            let expected = schema.and_then(|s| s.attributes.iter().find(|a| a.name == attr_name)).map(|a| a.ty);
            if let Some(proto) =
                attrs::attribute(&attr_name, attr, expected).map_err(|e| format!("{}: {e}", describe(op)))?
            {
                node.attribute.push(proto);
            }
        }
        if op.region_count() > 0 {
            let node_name = node.name.clone();
            node.attribute.extend(region_graphs(op, op_type, &node_name, scope)?);
        }
        graph.node.push(node);
    }
    for (value, output) in &identities {
        let input = scope.value_names.get(&key(*value)).cloned().unwrap_or_default();
        if input.is_empty() {
            return Err(format!("subgraph {name}: output `{output}` is not a value the graph computes"));
        }
        graph.node.push(NodeProto {
            op_type: "Identity".into(),
            name: scope.node_names.claim(&format!("{output}_identity")),
            input: vec![input],
            output: vec![output.clone()],
            ..Default::default()
        });
    }
    for (output, value) in &outputs {
        let ty = value.r#type();
        let proto = type_proto(ty, scope.dim_names)
            .ok_or_else(|| format!("subgraph {name}: output `{output}` has type {ty}, not an ONNX tensor type"))?;
        graph.output.push(value_info(output, proto));
    }
    for (value_name, ty) in intermediates {
        if is_ranked(ty) {
            if let Some(proto) = type_proto(ty, scope.dim_names) {
                graph.value_info.push(value_info(&value_name, proto));
            }
        }
    }
    Ok(graph)
}
