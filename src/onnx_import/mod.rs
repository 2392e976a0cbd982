//! `--from-onnx`: an existing ONNX model -> a module in the onnx dialect.
//!
//! The `.onnx` file is memory-mapped and its ModelProto decoded without its
//! large weights ([`wire`]): an initializer (or a large `Constant`) whose
//! bytes lie in the file becomes
//! `"onnx.initializer"() {name, location = "<absolute path>", offset, length}`,
//! and the writer streams those bytes from the file (never a copy of the
//! whole). External data (`data_location = EXTERNAL`) is followed: the
//! `location` (relative to the model's directory), `offset` and `length`
//! are checked against the data file and recorded the same way. Tensors of
//! at most [`wire::INLINE_LIMIT`] bytes (and typed `float_data`, ... fields)
//! become `onnx.Constant` ops, so the optimizer sees their values.
//!
//! The graph becomes `func.func @forward`: its inputs and outputs keep their
//! names (`aten.name`) and order, `dim_param` names become the symbolic dims
//! of the types (`tensor<?x3xf32, ["N"]>`), `value_info` (and output) types
//! are used, and results without one get their element type from the op's
//! schema (type constraints, `to`/`dtype` attributes) and an unranked shape
//! that `onnx-shape-inference` fills in. Nodes keep their names (as
//! locations), attributes of all kinds, and subgraphs: `If`, `Loop` and
//! `Scan` bodies become regions ending in `onnx.yield`. The opset is the
//! module attribute `onnx.opset`; other domains' versions are kept in
//! `onnx.opset_import`. `com.microsoft` ops are kept generic
//! (`onnx.ms.<Op>`). Calls of model-local functions are inlined.
//!
//! Every error names the file, and the node or tensor.

pub mod upgrade;
pub mod wire;

use crate::{module, Error};
use aten2onnx_dialects::onnx as registry;
use melior::{ir::Module, Context};
use memmap2::Mmap;
use onnx_protobuf::{
    attribute_proto::AttributeType, tensor_shape_proto::dimension, type_proto, AttributeProto, FunctionProto,
    GraphProto, Message, ModelProto, NodeProto, TensorProto, TypeProto,
};
use std::{
    collections::{BTreeMap, HashMap},
    fmt::Write as _,
    path::{Path, PathBuf},
};

/// How deep function calls may nest when inlined.
const MAX_INLINE_DEPTH: usize = 64;
/// How many nodes inlining may produce in all.
const MAX_INLINED_NODES: usize = 1_000_000;

/// The module attribute with the versions of non-default domains.
pub const OPSET_IMPORT_ATTR: &str = "onnx.opset_import";
/// The module attribute with the imported model's IR version.
pub const IR_VERSION_ATTR: &str = "onnx.ir_version";
/// The module attribute mapping the opaque symbols made for input
/// `dim_param` names that are not identifiers to their spelling in the model.
pub const DIM_PARAM_SPELLING_ATTR: &str = "onnx.dim_param_spelling";
/// The static dims a node's results are declared with (`value_info`, graph
/// outputs), one `2x?x4` string per result: claims that shape inference
/// checks against what the op computes, never takes as facts.
pub use aten2onnx_passes::onnx_shape_inference::DECLARED_DIMS_ATTR;

/// What the importer takes from the model's `dim_param` names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DimParams {
    /// Names are claims, not proofs (the default): a name repeated among
    /// the graph inputs becomes a symbol of its own at each repetition, and
    /// value_info / output names are dropped for shape inference to derive.
    #[default]
    Claims,
    /// `--trust-dim-params`: equal names are equal sizes, value_info and
    /// output names included, as the exporter says. A model whose names lie
    /// (onnxruntime runs it: it does not check them) then converts into a
    /// model that computes something else.
    Trusted,
}

/// Imports `path` (an ONNX model) into `context`.
pub fn import<'c>(context: &'c Context, path: &str, dim_params: DimParams) -> Result<Module<'c>, Error> {
    import_at_opset(context, path, None, dim_params)
}

/// [`import`], first upgrading the model to opset `to` of the default
/// domain when given ([`upgrade`]).
pub fn import_at_opset<'c>(
    context: &'c Context,
    path: &str,
    to: Option<u32>,
    dim_params: DimParams,
) -> Result<Module<'c>, Error> {
    let text = to_mlir_text(path, to, dim_params)?;
    module::parse(context, &text, path)
}

/// The onnx-dialect module of `path` as MLIR text, upgraded to opset `to`
/// when given.
pub fn to_mlir_text(path: &str, to: Option<u32>, dim_params: DimParams) -> Result<String, Error> {
    let fail = |message: String| Error::Import { path: path.to_string(), message };
    let file = std::fs::File::open(path).map_err(|source| Error::Io { path: path.into(), source })?;
    let len = file.metadata().map_err(|source| Error::Io { path: path.into(), source })?.len();
    if len == 0 {
        return Err(fail("the file is empty; it is not an ONNX model".into()));
    }
    // SAFETY: a read-only map; the file must not change while it is open.
    let map = unsafe { Mmap::map(&file) }.map_err(|source| Error::Io { path: path.into(), source })?;
    let stripped = wire::strip(&map).map_err(|e| fail(format!("not an ONNX model (protobuf): {e}")))?;
    let mut model =
        ModelProto::parse_from_bytes(&stripped).map_err(|e| fail(format!("not an ONNX model (protobuf): {e}")))?;
    if model.ir_version <= 0 || model.graph.is_none() {
        return Err(fail(format!(
            "not an ONNX model: {}",
            if model.ir_version <= 0 { "no ir_version" } else { "no graph" }
        )));
    }
    // A newer IR version may mean what this reader does not know; the
    // written model keeps the imported version, which onnx would refuse.
    let newest = crate::export::ir_version_for_opset(u32::MAX);
    if model.ir_version > newest {
        return Err(fail(format!(
            "its IR version {} is newer than the newest this converter knows ({newest})",
            model.ir_version
        )));
    }
    if let Some(to) = to {
        upgrade::upgrade(&mut model, to).map_err(fail)?;
    }
    let absolute = std::fs::canonicalize(path).map_err(|source| Error::Io { path: path.into(), source })?;
    let mut importer = Importer::new(&model, absolute, len).map_err(fail)?;
    importer.dim_params = dim_params;
    importer.model(&model).map_err(fail)
}

/// The onnx-dialect module text of an in-memory model (a custom op's
/// translation applied to one call, see `custom_ops`); `label` names it in
/// messages. Its tensors must be in the model (no external data).
pub fn function_call_text(model: &ModelProto, label: &str) -> Result<String, String> {
    let mut importer = Importer::new(model, PathBuf::from(label), 0)?;
    importer.model(model)
}

/// The `dim_param` names the module's function arguments use, each mapped
/// to its spelling in the model (itself, or what the importer made an
/// opaque symbol of: `DIM_PARAM_SPELLING_ATTR`), which the writer keeps.
pub fn dim_params(module: &Module) -> BTreeMap<String, String> {
    use melior::ir::{operation::OperationLike, BlockLike, RegionLike};
    let mut spelling = BTreeMap::new();
    if let Ok(attr) = module.as_operation().attribute(DIM_PARAM_SPELLING_ATTR) {
        if let Ok(dict) = melior::ir::attribute::DictionaryAttribute::try_from(attr) {
            for i in 0..dict.len() {
                if let Ok((name, value)) = dict.element(i) {
                    if let Some(text) = aten2onnx_passes::ir::string_value(value) {
                        spelling.insert(name.as_string_ref().as_str().unwrap_or_default().to_string(), text);
                    }
                }
            }
        }
    }
    let mut out = BTreeMap::new();
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let Ok(region) = op.region(0) else { continue };
        let Some(block) = region.first_block() else { continue };
        for i in 0..block.argument_count() {
            let Ok(arg) = block.argument(i) else { continue };
            use melior::ir::ValueLike;
            if let Some(shape) = aten2onnx_passes::onnx_shape_inference::shape_of(arg.r#type()) {
                for dim in shape {
                    if let aten2onnx_passes::onnx_shape_inference::Dim::Sym(s) = dim {
                        let name = spelling.get(&s).cloned().unwrap_or_else(|| s.clone());
                        out.insert(s, name);
                    }
                }
            }
        }
    }
    out
}

/// The files the module's `onnx.initializer`s read (the model itself and
/// its external data files).
pub fn referenced_files(module: &Module) -> Vec<PathBuf> {
    use melior::ir::operation::OperationLike;
    let mut files = Vec::new();
    aten2onnx_passes::ir::walk(module.as_operation(), &mut |op| {
        if aten2onnx_passes::ir::op_name(op) == aten2onnx_passes::onnx_ir::INITIALIZER_OP {
            if let Some(location) = op.attribute("location").ok().and_then(aten2onnx_passes::ir::string_value) {
                let path = PathBuf::from(location);
                if !files.contains(&path) {
                    files.push(path);
                }
            }
        }
    });
    files
}

// --------------------------------------------------------------------------
// Types
// --------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
enum Dim {
    Static(i64),
    Param(String),
    Unknown,
}

/// A tensor type: ONNX element type and, when known, the dims.
#[derive(Clone, Debug, PartialEq)]
struct VType {
    elem: i32,
    shape: Option<Vec<Dim>>,
}

/// MLIR element type of an ONNX data type.
fn elem_name(code: i32) -> Option<&'static str> {
    Some(match code {
        1 => "f32",
        8 => "!onnx.string",
        2 => "ui8",
        3 => "i8",
        4 => "ui16",
        5 => "i16",
        6 => "i32",
        7 => "i64",
        9 => "i1",
        10 => "f16",
        11 => "f64",
        12 => "ui32",
        13 => "ui64",
        14 => "complex<f32>",
        15 => "complex<f64>",
        16 => "bf16",
        17 => "f8E4M3FN",
        19 => "f8E5M2",
        _ => return None,
    })
}

/// Bytes per element of the data types [`elem_name`] knows.
fn elem_size(code: i32) -> usize {
    match code {
        2 | 3 | 9 | 17 | 19 => 1,
        4 | 5 | 10 | 16 => 2,
        1 | 6 | 12 => 4,
        7 | 11 | 13 | 14 => 8,
        15 => 16,
        _ => 0,
    }
}

fn data_type_text(code: i32) -> String {
    let name = match code {
        1 => "float",
        2 => "uint8",
        3 => "int8",
        4 => "uint16",
        5 => "int16",
        6 => "int32",
        7 => "int64",
        8 => "string",
        9 => "bool",
        10 => "float16",
        11 => "double",
        12 => "uint32",
        13 => "uint64",
        14 => "complex64",
        15 => "complex128",
        16 => "bfloat16",
        17 => "float8e4m3fn",
        18 => "float8e4m3fnuz",
        19 => "float8e5m2",
        20 => "float8e5m2fnuz",
        21 => "uint4",
        22 => "int4",
        23 => "float4e2m1",
        24 => "float8e8m0",
        25 => "uint2",
        26 => "int2",
        0 => "undefined",
        _ => return format!("data type {code}"),
    };
    name.to_string()
}

/// ONNX data type of a `tensor(float)` type string.
fn type_string_code(s: &str) -> Option<i32> {
    let inner = s.strip_prefix("tensor(")?.strip_suffix(')')?;
    Some(match inner {
        "float" => 1,
        "uint8" => 2,
        "int8" => 3,
        "uint16" => 4,
        "int16" => 5,
        "int32" => 6,
        "int64" => 7,
        "string" => 8,
        "bool" => 9,
        "float16" => 10,
        "double" => 11,
        "uint32" => 12,
        "uint64" => 13,
        "complex64" => 14,
        "complex128" => 15,
        "bfloat16" => 16,
        "float8e4m3fn" => 17,
        "float8e5m2" => 19,
        _ => return None,
    })
}

fn mlir_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for b in s.bytes() {
        match b {
            b'"' | b'\\' => {
                out.push('\\');
                out.push(b as char);
            }
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:02X}");
            }
        }
    }
    out.push('"');
    out
}

fn mlir_bytes(s: &[u8]) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for &b in s {
        match b {
            b'"' | b'\\' => {
                out.push('\\');
                out.push(b as char);
            }
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:02X}");
            }
        }
    }
    out.push('"');
    out
}

impl VType {
    fn mlir(&self) -> String {
        let elem = elem_name(self.elem).unwrap_or("f32");
        match &self.shape {
            None => format!("tensor<*x{elem}>"),
            Some(dims) => {
                let mut text = String::from("tensor<");
                for d in dims {
                    match d {
                        Dim::Static(n) => {
                            let _ = write!(text, "{n}x");
                        }
                        _ => text.push_str("?x"),
                    }
                }
                text.push_str(elem);
                if dims.iter().any(|d| matches!(d, Dim::Param(_))) {
                    let symbols: Vec<String> = dims
                        .iter()
                        .filter_map(|d| match d {
                            Dim::Static(_) => None,
                            Dim::Param(p) => Some(mlir_string(p)),
                            Dim::Unknown => Some("\"\"".to_string()),
                        })
                        .collect();
                    let _ = write!(text, ", [{}]", symbols.join(", "));
                }
                text.push('>');
                text
            }
        }
    }
}

/// The tensor type of a TypeProto; `what` names the value for messages.
fn vtype_of(ty: &TypeProto, what: &str) -> Result<VType, String> {
    let tensor = match &ty.value {
        Some(type_proto::Value::TensorType(t)) => t,
        Some(type_proto::Value::SequenceType(_)) => {
            return Err(format!("{what} is a sequence; only tensors are supported (sequence types are not imported)"))
        }
        Some(type_proto::Value::OptionalType(_)) => {
            return Err(format!("{what} is an optional; only tensors are supported (optional types are not imported)"))
        }
        Some(type_proto::Value::MapType(_)) => return Err(format!("{what} is a map; only tensors are supported")),
        Some(type_proto::Value::SparseTensorType(_)) => {
            return Err(format!("{what} is a sparse tensor; only dense tensors are supported"))
        }
        None => return Err(format!("{what} has no type")),
        Some(_) => return Err(format!("{what} has a type kind that is not supported")),
    };
    if elem_name(tensor.elem_type).is_none() {
        return Err(format!("{what} has element type {}, which is not supported", data_type_text(tensor.elem_type)));
    }
    let shape = tensor.shape.as_ref().map(|s| {
        s.dim
            .iter()
            .map(|d| match &d.value {
                Some(dimension::Value::DimValue(n)) if *n >= 0 => Dim::Static(*n),
                Some(dimension::Value::DimParam(p)) if !p.is_empty() => Dim::Param(p.clone()),
                _ => Dim::Unknown,
            })
            .collect()
    });
    Ok(VType { elem: tensor.elem_type, shape })
}

/// `Some(type)` if `ty` is present and tells an element type.
fn declared(ty: Option<&TypeProto>, what: &str) -> Result<Option<VType>, String> {
    match ty {
        None => Ok(None),
        Some(t) if t.value.is_none() => Ok(None),
        Some(t) => {
            if let Some(type_proto::Value::TensorType(tensor)) = &t.value {
                if tensor.elem_type == 0 {
                    return Ok(None);
                }
            }
            vtype_of(t, what).map(Some)
        }
    }
}

// --------------------------------------------------------------------------
// Tensors
// --------------------------------------------------------------------------

/// Where a tensor's bytes are.
enum Payload {
    /// A byte range of a file (the model or an external data file).
    File { path: PathBuf, offset: u64, length: u64 },
    /// Row-major little-endian bytes (small, or converted from typed fields).
    Bytes(Vec<u8>),
    /// The elements of a string tensor.
    Strings(Vec<Vec<u8>>),
}

fn varint_field(t: &TensorProto, field: u32) -> Option<u64> {
    match t.special_fields.unknown_fields().get(field) {
        Some(protobuf::UnknownValueRef::Varint(v)) => Some(v),
        _ => None,
    }
}

// --------------------------------------------------------------------------
// The importer
// --------------------------------------------------------------------------

/// One value in scope: its SSA name and type.
#[derive(Clone)]
struct Value {
    ssa: String,
    ty: VType,
}

/// An SSA-name scope: a graph sees the values of its enclosing graphs.
type Scope = HashMap<String, Value>;

struct Importer<'m> {
    /// The model file (absolute).
    path: PathBuf,
    len: u64,
    dir: PathBuf,
    opset: u32,
    domains: BTreeMap<String, i64>,
    functions: HashMap<(String, String), &'m FunctionProto>,
    /// Data files already opened (for small external tensors).
    maps: HashMap<PathBuf, Mmap>,
    next_ssa: usize,
    /// Initializer ops (hoisted to the top of @forward).
    initializers: String,
    initializer_names: HashMap<String, usize>,
    /// Stack of functions being inlined (for recursion checks).
    inlining: Vec<String>,
    /// Nodes inlined from functions so far (bounded: functions calling
    /// each other twice nest exponentially).
    inlined_nodes: usize,
    dim_params: DimParams,
}

/// One block being emitted: its text and per-block `onnx.none`.
struct Block {
    text: String,
    none: Option<String>,
    indent: usize,
}

impl<'m> Importer<'m> {
    fn new(model: &'m ModelProto, path: PathBuf, len: u64) -> Result<Importer<'m>, String> {
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut opset = None;
        let mut domains = BTreeMap::new();
        for import in &model.opset_import {
            match import.domain.as_str() {
                "" | "ai.onnx" => opset = Some(import.version),
                other => {
                    domains.insert(other.to_string(), import.version);
                }
            }
        }
        let max = registry::max_opset("").unwrap_or(28);
        let opset = match opset {
            Some(v) if v >= 1 && v <= i64::from(max) => v as u32,
            Some(v) => {
                return Err(format!(
                    "the model imports opset {v} of the default domain; onnx {} knows opsets 1..{max}",
                    registry::ONNX_VERSION
                ))
            }
            None => max,
        };
        let functions = model.functions.iter().map(|f| ((f.domain.clone(), f.name.clone()), f)).collect();
        Ok(Importer {
            path,
            len,
            dir,
            opset,
            domains,
            functions,
            maps: HashMap::new(),
            next_ssa: 0,
            initializers: String::new(),
            initializer_names: HashMap::new(),
            inlining: Vec::new(),
            inlined_nodes: 0,
            dim_params: DimParams::Claims,
        })
    }

    fn fresh(&mut self) -> String {
        self.next_ssa += 1;
        format!("%v{}", self.next_ssa)
    }

    fn model(&mut self, model: &ModelProto) -> Result<String, String> {
        let graph = model.graph.as_ref().expect("checked by the caller");
        let mut scope = Scope::new();
        let types = value_types(graph)?;

        // Initializers (also those listed among the inputs, as IR < 4 requires).
        let mut initialized = std::collections::HashSet::new();
        let mut body = Block { text: String::new(), none: None, indent: 2 };
        for t in &graph.initializer {
            if t.name.is_empty() {
                return Err("an initializer has no name".into());
            }
            let value = self.tensor_value(t, &t.name, &mut body, &format!("initializer `{}`", t.name))?;
            initialized.insert(t.name.clone());
            scope.insert(t.name.clone(), value);
        }
        if !graph.sparse_initializer.is_empty() {
            return Err("the graph has sparse initializers, which are not supported".into());
        }

        let mut args = Vec::new();
        let mut arg_index = 0;
        let mut inputs = Vec::new();
        for input in &graph.input {
            if initialized.contains(&input.name) {
                continue; // an initializer listed as an input: a weight
            }
            let what = format!("graph input `{}`", input.name);
            let ty = declared(input.type_.as_ref(), &what)?.ok_or_else(|| format!("{what} has no tensor type"))?;
            inputs.push((input, what, ty));
        }
        let mut input_types: Vec<VType> = inputs.iter().map(|(_, _, ty)| ty.clone()).collect();
        let spelling =
            if self.dim_params == DimParams::Claims { distinct_input_dims(&mut input_types) } else { BTreeMap::new() };
        for ((input, what, _), ty) in inputs.into_iter().zip(input_types) {
            if scope.contains_key(&input.name) {
                return Err(format!("{what} is declared twice"));
            }
            let ssa = format!("%arg{arg_index}");
            arg_index += 1;
            args.push(format!(
                "{ssa}: {} {{aten.name = {}}} loc({})",
                ty.mlir(),
                mlir_string(&input.name),
                mlir_string(&input.name)
            ));
            scope.insert(input.name.clone(), Value { ssa, ty });
        }

        self.nodes(&graph.node, &mut scope, &types, &mut body)?;

        let mut results = Vec::new();
        let mut returned = Vec::new();
        for output in &graph.output {
            let value = scope.get(&output.name).ok_or_else(|| {
                format!("graph output `{}` is not computed by any node, input or initializer", output.name)
            })?;
            results.push(format!("{} {{aten.name = {}}}", value.ty.mlir(), mlir_string(&output.name)));
            returned.push(value.clone());
        }
        if graph.output.is_empty() {
            return Err("the graph has no outputs".into());
        }

        let mut text = String::new();
        let mut attrs = vec![
            format!("onnx.opset = {} : i64", self.opset),
            format!("{IR_VERSION_ATTR} = {} : i64", model.ir_version),
        ];
        if !self.domains.is_empty() {
            let entries: Vec<String> =
                self.domains.iter().map(|(d, v)| format!("{} = {v} : i64", mlir_string(d))).collect();
            attrs.push(format!("{OPSET_IMPORT_ATTR} = {{{}}}", entries.join(", ")));
        }
        if !spelling.is_empty() {
            let entries: Vec<String> =
                spelling.iter().map(|(s, p)| format!("{} = {}", mlir_string(s), mlir_string(p))).collect();
            attrs.push(format!("{DIM_PARAM_SPELLING_ATTR} = {{{}}}", entries.join(", ")));
        }
        let _ = writeln!(text, "module attributes {{{}}} {{", attrs.join(", "));
        let _ = writeln!(text, "func.func @forward({}) -> ({}) {{", args.join(", "), results.join(", "));
        text.push_str(&self.initializers);
        text.push_str(&body.text);
        let _ = writeln!(
            text,
            "  return {} : {} loc(\"return\")",
            returned.iter().map(|v| v.ssa.clone()).collect::<Vec<_>>().join(", "),
            returned.iter().map(|v| v.ty.mlir()).collect::<Vec<_>>().join(", ")
        );
        let _ = writeln!(text, "}} loc({})", mlir_string(if graph.name.is_empty() { "forward" } else { &graph.name }));
        let _ = writeln!(text, "}} loc({}:0:0)", mlir_string(&self.path.to_string_lossy()));
        Ok(text)
    }

    fn nodes(
        &mut self,
        nodes: &[NodeProto],
        scope: &mut Scope,
        types: &HashMap<String, TypeProto>,
        block: &mut Block,
    ) -> Result<(), String> {
        for node in nodes {
            self.node(node, scope, types, block).map_err(|e| {
                if e.starts_with("node ") {
                    e
                } else {
                    format!("{}: {e}", describe_node(node))
                }
            })?;
        }
        Ok(())
    }

    fn none(&mut self, block: &mut Block) -> String {
        if let Some(n) = &block.none {
            return n.clone();
        }
        let ssa = self.fresh();
        // Placed at the start of the block so every later op can use it.
        let line = format!("{}{ssa} = \"onnx.none\"() : () -> none\n", " ".repeat(block.indent));
        block.text.insert_str(0, &line);
        block.none = Some(ssa.clone());
        ssa
    }

    fn node(
        &mut self,
        node: &NodeProto,
        scope: &mut Scope,
        types: &HashMap<String, TypeProto>,
        block: &mut Block,
    ) -> Result<(), String> {
        let domain = match node.domain.as_str() {
            "ai.onnx" => "",
            d => d,
        };
        if domain.is_empty() {
            if let Some(tensor_form) = constant_as_tensor(node) {
                return self.node(&tensor_form, scope, types, block);
            }
        }
        // A function named like a standard op of its domain does not
        // replace the op (onnxruntime and onnx's reference evaluator run the
        // op).
        let standard = matches!(domain, "" | "ai.onnx.ml" | "ai.onnx.preview" | "ai.onnx.preview.training")
            && !registry::versions(domain, &node.op_type).is_empty();
        if let Some(function) =
            self.functions.get(&(node.domain.clone(), node.op_type.clone())).copied().filter(|_| !standard)
        {
            return self.inline(node, function, scope, types, block);
        }
        if !matches!(domain, "" | "ai.onnx.ml" | "ai.onnx.preview" | "ai.onnx.preview.training" | "com.microsoft") {
            return Err(format!(
                "domain `{domain}` is not supported (ai.onnx, ai.onnx.ml, ai.onnx.preview, ai.onnx.preview.training and com.microsoft are)"
            ));
        }
        let schema = if domain == "com.microsoft" {
            None
        } else {
            let version = if domain.is_empty() {
                self.opset
            } else {
                self.domains.get(domain).copied().unwrap_or(1).clamp(1, i64::from(u32::MAX)) as u32
            };
            Some(registry::lookup(domain, &node.op_type, version).ok_or_else(|| {
                let versions: Vec<String> =
                    registry::versions(domain, &node.op_type).iter().map(|s| s.since_version.to_string()).collect();
                if versions.is_empty() {
                    format!("`{}` is not an ONNX op (onnx {})", node.op_type, registry::ONNX_VERSION)
                } else {
                    format!(
                        "`{}` does not exist at opset {version} of its domain (defined since opset {})",
                        node.op_type,
                        versions.join(", ")
                    )
                }
            })?)
        };

        // A large Constant: an initializer named after its output.
        if domain.is_empty() && node.op_type == "Constant" && node.output.len() == 1 {
            if let Some(attr) = node.attribute.iter().find(|a| a.name == "value" && a.t.is_some()) {
                let t = attr.t.as_ref().unwrap();
                if varint_field(t, wire::OFFSET_FIELD).is_some() || is_external(t) {
                    if scope.contains_key(&node.output[0]) {
                        return Err(format!(
                            "output `{}` is already defined (ONNX values are assigned once)",
                            node.output[0]
                        ));
                    }
                    let value = self.tensor_value(t, &node.output[0], block, &describe_node(node))?;
                    scope.insert(node.output[0].clone(), value);
                    return Ok(());
                }
            }
        }

        // Operands (trailing missing optional inputs dropped).
        let used = node.input.iter().rposition(|i| !i.is_empty()).map_or(0, |p| p + 1);
        let mut operands = Vec::new();
        let mut operand_types = Vec::new();
        let mut input_elems = Vec::new();
        for name in &node.input[..used] {
            if name.is_empty() {
                let n = self.none(block);
                operands.push(n);
                operand_types.push("none".to_string());
                input_elems.push(None);
            } else {
                let value = scope.get(name).ok_or_else(|| {
                    format!("input `{name}` is not defined before this node (nodes must be in topological order)")
                })?;
                operands.push(value.ssa.clone());
                operand_types.push(value.ty.mlir());
                input_elems.push(Some(value.ty.elem));
            }
        }

        // Attributes and regions.
        let mut attrs = Vec::new();
        let mut graphs: Vec<(&str, &GraphProto)> = Vec::new();
        for attr in &node.attribute {
            if !attr.ref_attr_name.is_empty() {
                return Err(format!("attribute `{}` refers to a function attribute outside a function", attr.name));
            }
            match attr_kind(attr) {
                Some(AttributeType::GRAPH) => {
                    graphs.push((attr.name.as_str(), attr.g.as_ref().ok_or("a GRAPH attribute without a graph")?))
                }
                _ => attrs.push(format!("{} = {}", mlir_string(&attr.name), self.attribute(attr)?)),
            }
        }
        let region_names = aten2onnx_passes::onnx_ir::region_attributes(&node.op_type).filter(|_| domain.is_empty());
        let mut regions = Vec::new();
        let mut region_outputs: Vec<Vec<VType>> = Vec::new();
        if domain.is_empty() && node.op_type == "Scan" && self.opset < 9 {
            return Err("Scan before opset 9 (with a batch axis and sequence_lens) is not supported".into());
        }
        if !graphs.is_empty() || region_names.is_some() {
            let names = region_names.ok_or_else(|| {
                format!("`{}` has graph attributes, which are only supported on If, Loop and Scan", node.op_type)
            })?;
            for name in names {
                let graph = graphs
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, g)| *g)
                    .ok_or_else(|| format!("misses the graph attribute `{name}`"))?;
                let arg_types = self.region_arguments(node, graph, scope)?;
                let (text, outs) = self
                    .region(graph, &arg_types, scope, block.indent + 2)
                    .map_err(|e| format!("{} in its `{name}` graph: {e}", describe_node(node)))?;
                regions.push(text);
                region_outputs.push(outs);
            }
        }

        // Results.
        if let Some(dup) = node.output.iter().find(|o| !o.is_empty() && scope.contains_key(*o)) {
            return Err(format!("output `{dup}` is already defined (ONNX values are assigned once)"));
        }
        let count = node.output.iter().rposition(|o| !o.is_empty()).map_or(0, |p| p + 1);
        let mut result_types = Vec::new();
        let mut declared_dims = Vec::new();
        for (i, name) in node.output[..count].iter().enumerate() {
            let claimed = if self.dim_params == DimParams::Trusted {
                types.get(name).cloned()
            } else {
                types.get(name).map(without_dim_params)
            };
            let known = if name.is_empty() { None } else { declared(claimed.as_ref(), &format!("value `{name}`"))? };
            if self.dim_params == DimParams::Claims {
                let full = if name.is_empty() { None } else { declared(types.get(name), &format!("value `{name}`"))? };
                declared_dims.push(full.as_ref().map(declared_dims_text).unwrap_or_default());
            }
            let ty = match known {
                Some(t) => t,
                None => {
                    let elem = match node.op_type.as_str() {
                        "If" | "Loop" | "Scan" if domain.is_empty() => {
                            region_result_elem(&node.op_type, i, &region_outputs, operands.len())
                        }
                        _ => infer_elem(schema, node, i, &input_elems),
                    };
                    let elem = elem.ok_or_else(|| {
                        format!(
                            "cannot tell the element type of output #{i} `{name}`; the model has no value_info for it"
                        )
                    })?;
                    if elem_name(elem).is_none() {
                        return Err(format!(
                            "output #{i} `{name}` has element type {}, which is not supported",
                            data_type_text(elem)
                        ));
                    }
                    VType { elem, shape: None }
                }
            };
            result_types.push(ty);
        }

        let op_name = aten2onnx_passes::onnx_ir::op_name(domain, &node.op_type);
        let pad = " ".repeat(block.indent);
        let ssa = self.fresh();
        let mut line = pad.clone();
        match result_types.len() {
            0 => {}
            1 => {
                let _ = write!(line, "{ssa} = ");
            }
            n => {
                let _ = write!(line, "{ssa}:{n} = ");
            }
        }
        let _ = write!(line, "{}({})", mlir_string(&op_name), operands.join(", "));
        if !regions.is_empty() {
            let _ = write!(line, " ({})", regions.join(", "));
        }
        if declared_dims.iter().any(|d| d.chars().any(|c| c.is_ascii_digit())) {
            let texts: Vec<String> = declared_dims.iter().map(|d| mlir_string(d)).collect();
            attrs.push(format!("{DECLARED_DIMS_ATTR} = [{}]", texts.join(", ")));
        }
        if !attrs.is_empty() {
            let _ = write!(line, " {{{}}}", attrs.join(", "));
        }
        let results_text: Vec<String> = result_types.iter().map(VType::mlir).collect();
        let _ = writeln!(
            line,
            " : ({}) -> ({}) loc({})",
            operand_types.join(", "),
            results_text.join(", "),
            mlir_string(&node_label(node))
        );
        block.text.push_str(&line);
        for (i, (name, ty)) in node.output.iter().zip(result_types).enumerate() {
            if name.is_empty() {
                continue;
            }
            let value_ssa = if count == 1 { ssa.clone() } else { format!("{ssa}#{i}") };
            scope.insert(name.clone(), Value { ssa: value_ssa, ty });
        }
        Ok(())
    }

    /// Block argument types of the body of `node` (If: none; Loop:
    /// iteration_num, cond, carried...; Scan: state..., scan slices...).
    fn region_arguments(&self, node: &NodeProto, graph: &GraphProto, scope: &Scope) -> Result<Vec<VType>, String> {
        let operand_type = |i: usize| -> Option<VType> {
            node.input.get(i).filter(|n| !n.is_empty()).and_then(|n| scope.get(n)).map(|v| v.ty.clone())
        };
        let mut out = Vec::new();
        for (i, input) in graph.input.iter().enumerate() {
            let what = format!("subgraph input `{}`", input.name);
            let claims =
                |t: &TypeProto| if self.dim_params == DimParams::Trusted { t.clone() } else { without_dim_params(t) };
            let declared_type = declared(input.type_.as_ref().map(claims).as_ref(), &what)?;
            let fallback = match node.op_type.as_str() {
                "Loop" => match i {
                    0 => Some(VType { elem: 7, shape: Some(vec![]) }),
                    1 => Some(VType { elem: 9, shape: Some(vec![]) }),
                    // A carried value may change shape from one iteration
                    // to the next: its initial value's shape is no proof.
                    _ => operand_type(i).map(|t| VType { elem: t.elem, shape: None }),
                },
                // A scan slice is its input without the scanned axis (a
                // fact of the input's shape; a state keeps its initial
                // shape, which onnx-shape-inference gives it once the
                // operands' shapes are inferred).
                "Scan" => {
                    let states = node.input.len().saturating_sub(
                        node.attribute.iter().find(|a| a.name == "num_scan_inputs").map_or(0, |a| a.i.max(0) as usize),
                    );
                    operand_type(i).map(|t| {
                        let axes = node.attribute.iter().find(|a| a.name == "scan_input_axes").map(|a| a.ints.clone());
                        let shape = if i < states {
                            None
                        } else {
                            let axis = axes.as_ref().and_then(|a| a.get(i - states).copied()).unwrap_or(0);
                            t.shape.as_ref().and_then(|dims| {
                                let rank = dims.len() as i64;
                                let axis = if axis < 0 { axis + rank } else { axis };
                                (0..rank).contains(&axis).then(|| {
                                    let mut d = dims.clone();
                                    d.remove(axis as usize);
                                    d
                                })
                            })
                        };
                        VType { elem: t.elem, shape }
                    })
                }
                _ => None,
            };
            // Loop and Scan check that each body argument has the element
            // type of the value it receives.
            // A shape the operand proves (a scan slice's) wins over the
            // body's declaration, a claim.
            let ty = match (declared_type, fallback) {
                (Some(d), Some(f)) if d.elem != f.elem || f.shape.is_some() => f,
                (Some(d), _) => d,
                (None, Some(f)) => f,
                (None, None) => return Err(format!("{what} has no type")),
            };
            out.push(ty);
        }
        Ok(out)
    }

    /// A subgraph as a region: `({ ^bb0(args): ops; onnx.yield })`.
    fn region(
        &mut self,
        graph: &GraphProto,
        arg_types: &[VType],
        outer: &Scope,
        indent: usize,
    ) -> Result<(String, Vec<VType>), String> {
        let mut scope = outer.clone();
        let types = value_types(graph)?;
        let mut block = Block { text: String::new(), none: None, indent: indent + 2 };
        let mut args = Vec::new();
        for (input, ty) in graph.input.iter().zip(arg_types) {
            let ssa = self.fresh();
            args.push(format!("{ssa}: {} loc({})", ty.mlir(), mlir_string(&input.name)));
            scope.insert(input.name.clone(), Value { ssa, ty: ty.clone() });
        }
        for t in &graph.initializer {
            let value = self.tensor_value(t, &t.name, &mut block, &format!("initializer `{}`", t.name))?;
            scope.insert(t.name.clone(), value);
        }
        if !graph.sparse_initializer.is_empty() {
            return Err("sparse initializers are not supported".into());
        }
        self.nodes(&graph.node, &mut scope, &types, &mut block)?;
        let mut outs = Vec::new();
        let mut values = Vec::new();
        for output in &graph.output {
            let value = scope.get(&output.name).ok_or_else(|| {
                format!("output `{}` is not computed in the subgraph or its enclosing graphs", output.name)
            })?;
            values.push(value.clone());
            outs.push(value.ty.clone());
        }
        let pad = " ".repeat(indent);
        let mut text = String::from("{\n");
        if !args.is_empty() {
            let _ = writeln!(text, "{pad}^bb0({}):", args.join(", "));
        }
        text.push_str(&block.text);
        let _ = writeln!(
            text,
            "{pad}  \"onnx.yield\"({}) : ({}) -> () loc(\"yield\")",
            values.iter().map(|v| v.ssa.clone()).collect::<Vec<_>>().join(", "),
            values.iter().map(|v| v.ty.mlir()).collect::<Vec<_>>().join(", ")
        );
        let _ = write!(text, "{pad}}}");
        Ok((text, outs))
    }

    /// Inlines a call of a model-local function.
    fn inline(
        &mut self,
        node: &NodeProto,
        function: &FunctionProto,
        scope: &mut Scope,
        types: &HashMap<String, TypeProto>,
        block: &mut Block,
    ) -> Result<(), String> {
        let key = format!("{}::{}", function.domain, function.name);
        if self.inlining.contains(&key) {
            return Err(format!("function `{key}` calls itself"));
        }
        if self.inlining.len() >= MAX_INLINE_DEPTH {
            return Err(format!("function calls nest deeper than {MAX_INLINE_DEPTH} (at `{key}`)"));
        }
        self.inlined_nodes += function.node.len();
        if self.inlined_nodes > MAX_INLINED_NODES {
            return Err(format!(
                "inlining the model-local functions makes more than {MAX_INLINED_NODES} nodes (at `{key}`): \
                 functions that call each other more than once nest exponentially"
            ));
        }
        for import in &function.opset_import {
            let domain = if import.domain == "ai.onnx" { "" } else { import.domain.as_str() };
            let model_version =
                if domain.is_empty() { Some(i64::from(self.opset)) } else { self.domains.get(domain).copied() };
            if let Some(v) = model_version {
                if v != import.version {
                    return Err(format!(
                        "function `{key}` imports opset {} of domain `{}`, the model {v}; inlining it would change its ops' versions",
                        import.version,
                        if domain.is_empty() { "ai.onnx" } else { domain }
                    ));
                }
            }
        }
        // Attribute values: the call's, else the function's defaults.
        let mut attr_values: HashMap<String, AttributeProto> = HashMap::new();
        for a in &function.attribute_proto {
            attr_values.insert(a.name.clone(), a.clone());
        }
        for a in &node.attribute {
            if !function.attribute.contains(&a.name) && !function.attribute_proto.iter().any(|p| p.name == a.name) {
                return Err(format!("passes attribute `{}`, which function `{key}` does not declare", a.name));
            }
            attr_values.insert(a.name.clone(), a.clone());
        }
        // Names inside the body are made unique per call.
        self.next_ssa += 1;
        let prefix = format!("{}__{}_{}", node_label(node), function.name, self.next_ssa);
        let rename = |name: &str| -> String {
            if name.is_empty() {
                String::new()
            } else {
                format!("{prefix}/{name}")
            }
        };
        let mut inner = scope.clone();
        for (i, formal) in function.input.iter().enumerate() {
            if let Some(actual) = node.input.get(i).filter(|n| !n.is_empty()) {
                let value =
                    scope.get(actual).ok_or_else(|| format!("input `{actual}` is not defined before this node"))?;
                inner.insert(rename(formal), value.clone());
            }
        }
        let mut body = Vec::new();
        for n in &function.node {
            let mut n = n.clone();
            instantiate_node(&mut n, &rename, &attr_values);
            n.name = format!("{prefix}/{}", n.name);
            body.push(n);
        }
        let mut inner_types = types.clone();
        for vi in &function.value_info {
            if let Some(t) = vi.type_.as_ref() {
                inner_types.insert(rename(&vi.name), t.clone());
            }
        }
        self.inlining.push(key.clone());
        let result = self.nodes(&body, &mut inner, &inner_types, block);
        self.inlining.pop();
        result.map_err(|e| format!("in function `{key}`: {e}"))?;
        for (i, formal) in function.output.iter().enumerate() {
            let Some(actual) = node.output.get(i).filter(|n| !n.is_empty()) else { continue };
            let value = inner
                .get(&rename(formal))
                .ok_or_else(|| format!("function `{key}` does not compute its output `{formal}`"))?
                .clone();
            scope.insert(actual.clone(), value);
        }
        Ok(())
    }

    /// An MLIR attribute for an ONNX attribute (not GRAPH).
    fn attribute(&mut self, attr: &AttributeProto) -> Result<String, String> {
        let kind = attr_kind(attr).ok_or_else(|| format!("attribute `{}` has no value", attr.name))?;
        Ok(match kind {
            AttributeType::INT => format!("{} : i64", attr.i),
            AttributeType::FLOAT => format!("0x{:08X} : f32", attr.f.to_bits()),
            AttributeType::STRING => mlir_bytes(&attr.s),
            AttributeType::INTS => {
                if attr.ints.is_empty() {
                    "array<i64>".into()
                } else {
                    format!("array<i64: {}>", attr.ints.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", "))
                }
            }
            AttributeType::FLOATS => {
                if attr.floats.is_empty() {
                    "array<f32>".into()
                } else {
                    format!(
                        "array<f32: {}>",
                        attr.floats.iter().map(|f| format!("0x{:08X}", f.to_bits())).collect::<Vec<_>>().join(", ")
                    )
                }
            }
            AttributeType::STRINGS => {
                format!("[{}]", attr.strings.iter().map(|s| mlir_bytes(s)).collect::<Vec<_>>().join(", "))
            }
            AttributeType::TENSOR => {
                let t = attr.t.as_ref().ok_or("a TENSOR attribute without a tensor")?;
                self.dense(t, &format!("attribute `{}`", attr.name))?
            }
            AttributeType::TENSORS => {
                let mut items = Vec::new();
                for t in &attr.tensors {
                    items.push(self.dense(t, &format!("attribute `{}`", attr.name))?);
                }
                format!("[{}]", items.join(", "))
            }
            other => return Err(format!("attribute `{}` of kind {other:?} is not supported", attr.name)),
        })
    }

    /// The dense elements attribute of a tensor (its bytes read if they are
    /// in a file: tensor attributes of ops other than Constant).
    fn dense(&mut self, t: &TensorProto, what: &str) -> Result<String, String> {
        let ty = tensor_type(t, what)?;
        let bytes = match self.payload(t, what)? {
            Payload::Bytes(b) => b,
            Payload::Strings(items) => return Ok(dense_strings(&items, &ty)),
            Payload::File { path, offset, length } => self.read(&path, offset, length)?.to_vec(),
        };
        Ok(dense_text(&bytes, &ty))
    }

    fn read(&mut self, path: &Path, offset: u64, length: u64) -> Result<&[u8], String> {
        if !self.maps.contains_key(path) {
            let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
            // SAFETY: read-only map; the file must not change while it is open.
            let map = unsafe { Mmap::map(&file) }.map_err(|e| format!("{}: {e}", path.display()))?;
            self.maps.insert(path.to_path_buf(), map);
        }
        let map = &self.maps[path];
        let end = offset.saturating_add(length);
        map.get(offset as usize..end as usize)
            .ok_or_else(|| format!("{}: bytes {offset}..{end} lie past its end", path.display()))
    }

    /// The tensor `t` as a value: an `onnx.initializer` reading its bytes
    /// from a file, or an `onnx.Constant`.
    fn tensor_value(&mut self, t: &TensorProto, name: &str, block: &mut Block, what: &str) -> Result<Value, String> {
        let ty = tensor_type(t, what)?;
        let payload = self.payload(t, what)?;
        let ssa = self.fresh();
        match payload {
            Payload::File { path, offset, length } if length as usize > wire::INLINE_LIMIT => {
                let unique = {
                    let count = self.initializer_names.entry(name.to_string()).or_insert(0);
                    *count += 1;
                    if *count == 1 {
                        name.to_string()
                    } else {
                        format!("{name}_{}", *count - 1)
                    }
                };
                let _ = writeln!(
                    self.initializers,
                    "  {ssa} = \"onnx.initializer\"() {{name = {}, location = {}, offset = {offset} : i64, length = {length} : i64}} : () -> {} loc({})",
                    mlir_string(&unique),
                    mlir_string(&path.to_string_lossy()),
                    ty.mlir(),
                    mlir_string(name)
                );
            }
            payload => {
                let value = match payload {
                    Payload::Bytes(b) => dense_text(&b, &ty),
                    Payload::Strings(items) => dense_strings(&items, &ty),
                    Payload::File { path, offset, length } => {
                        dense_text(&self.read(&path, offset, length)?.to_vec(), &ty)
                    }
                };
                let _ = writeln!(
                    block.text,
                    "{}{ssa} = \"onnx.Constant\"() {{value = {}}} : () -> {} loc({})",
                    " ".repeat(block.indent),
                    value,
                    ty.mlir(),
                    mlir_string(name)
                );
            }
        }
        Ok(Value { ssa, ty })
    }

    /// Where the bytes of `t` are, checked against its type.
    fn payload(&mut self, t: &TensorProto, what: &str) -> Result<Payload, String> {
        let ty = tensor_type(t, what)?;
        let count = element_count(t, what)?;
        if ty.elem == 8 {
            if is_external(t) || varint_field(t, wire::OFFSET_FIELD).is_some() || !t.raw_data.is_empty() {
                return Err(format!(
                    "{what} is a string tensor stored as raw or external data, which is not supported"
                ));
            }
            if t.string_data.len() as u64 != count {
                return Err(format!("{what} has {} strings for {count} elements", t.string_data.len()));
            }
            return Ok(Payload::Strings(t.string_data.clone()));
        }
        let size = count.checked_mul(elem_size(ty.elem) as u64).ok_or_else(|| format!("{what} is too large"))?;
        let check_len = |length: u64| -> Result<(), String> {
            if length != size {
                return Err(format!(
                    "{what} holds {length} bytes, but {count} elements of {} need {size}",
                    data_type_text(ty.elem)
                ));
            }
            Ok(())
        };
        if is_external(t) {
            let entry = |key: &str| t.external_data.iter().find(|e| e.key == key).map(|e| e.value.clone());
            let location = entry("location").ok_or_else(|| format!("{what} is external but has no `location`"))?;
            let relative = Path::new(&location);
            if relative.is_absolute() || relative.components().any(|c| matches!(c, std::path::Component::ParentDir)) {
                return Err(format!(
                    "{what}: external data location `{location}` must be a path inside the model's directory"
                ));
            }
            let path = self.dir.join(relative);
            let file_len = std::fs::metadata(&path)
                .map_err(|e| format!("{what}: external data file {} cannot be read: {e}", path.display()))?
                .len();
            let number = |key: &str| -> Result<Option<u64>, String> {
                entry(key)
                    .map(|v| {
                        v.trim()
                            .parse::<u64>()
                            .map_err(|_| format!("{what}: external data `{key}` = `{v}` is not a number"))
                    })
                    .transpose()
            };
            let offset = number("offset")?.unwrap_or(0);
            let length = match number("length")? {
                Some(l) => l,
                None => file_len.checked_sub(offset).unwrap_or(0).min(size),
            };
            if offset.checked_add(length).is_none_or(|end| end > file_len) {
                return Err(format!(
                    "{what}: external data bytes {offset}..{} lie past the end of {} ({file_len} bytes)",
                    offset.saturating_add(length),
                    path.display()
                ));
            }
            check_len(length)?;
            let path = std::fs::canonicalize(&path).unwrap_or(path);
            return Ok(Payload::File { path, offset, length });
        }
        if let (Some(offset), Some(length)) = (varint_field(t, wire::OFFSET_FIELD), varint_field(t, wire::LENGTH_FIELD))
        {
            if offset.checked_add(length).is_none_or(|end| end > self.len) {
                return Err(format!(
                    "{what}: bytes {offset}..{} lie past the end of the model file",
                    offset.saturating_add(length)
                ));
            }
            check_len(length)?;
            return Ok(Payload::File { path: self.path.clone(), offset, length });
        }
        if !t.raw_data.is_empty() {
            check_len(t.raw_data.len() as u64)?;
            return Ok(Payload::Bytes(t.raw_data.clone()));
        }
        // Typed fields.
        let n = count as usize;
        let mismatch = |have: usize| format!("{what} has {have} values for {count} elements");
        // Each arm checks the field's length before writing: the declared
        // size alone (dims with no data) must not decide an allocation.
        let mut out = Vec::with_capacity((size as usize).min(1 << 20));
        match ty.elem {
            1 => {
                if t.float_data.len() != n {
                    return Err(mismatch(t.float_data.len()));
                }
                t.float_data.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
            }
            14 => {
                if t.float_data.len() != 2 * n {
                    return Err(mismatch(t.float_data.len() / 2));
                }
                t.float_data.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
            }
            11 | 15 => {
                let want = if ty.elem == 15 { 2 * n } else { n };
                if t.double_data.len() != want {
                    return Err(mismatch(t.double_data.len()));
                }
                t.double_data.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
            }
            7 => {
                if t.int64_data.len() != n {
                    return Err(mismatch(t.int64_data.len()));
                }
                t.int64_data.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
            }
            12 | 13 => {
                if t.uint64_data.len() != n {
                    return Err(mismatch(t.uint64_data.len()));
                }
                for v in &t.uint64_data {
                    if ty.elem == 12 {
                        out.extend_from_slice(&(*v as u32).to_le_bytes());
                    } else {
                        out.extend_from_slice(&v.to_le_bytes());
                    }
                }
            }
            _ => {
                if t.int32_data.len() != n {
                    return Err(mismatch(t.int32_data.len()));
                }
                let width = elem_size(ty.elem);
                for v in &t.int32_data {
                    out.extend_from_slice(&v.to_le_bytes()[..width]);
                }
            }
        }
        Ok(Payload::Bytes(out))
    }
}

fn is_external(t: &TensorProto) -> bool {
    t.data_location.value() == 1
}

fn element_count(t: &TensorProto, what: &str) -> Result<u64, String> {
    let mut count: u64 = 1;
    for &d in &t.dims {
        if d < 0 {
            return Err(format!("{what} has a negative dim ({d})"));
        }
        count = count.checked_mul(d as u64).ok_or_else(|| format!("{what} has too many elements"))?;
    }
    Ok(count)
}

fn tensor_type(t: &TensorProto, what: &str) -> Result<VType, String> {
    if elem_name(t.data_type).is_none() {
        return Err(format!("{what} has element type {}, which is not supported", data_type_text(t.data_type)));
    }
    if t.segment.is_some() {
        return Err(format!("{what} is a segment of a tensor, which is not supported"));
    }
    element_count(t, what)?;
    Ok(VType { elem: t.data_type, shape: Some(t.dims.iter().map(|&d| Dim::Static(d)).collect()) })
}

/// `dense<["a", "b"]> : tensor<2x!onnx.string>` (nested by the shape).
fn dense_strings(items: &[Vec<u8>], ty: &VType) -> String {
    let dims: Vec<i64> =
        ty.shape.as_ref().map_or(vec![], |s| s.iter().map(|d| if let Dim::Static(n) = d { *n } else { 0 }).collect());
    let texts: Vec<String> = items.iter().map(|b| mlir_bytes(b)).collect();
    format!("dense<{}> : {}", nested(&texts, &dims), ty.mlir())
}

/// Row-major `items` as nested lists of the shape `dims`; `dense<>` holds no
/// elements (dims with a 0, however large the others: never walked).
fn nested(items: &[String], dims: &[i64]) -> String {
    if items.is_empty() {
        return String::new();
    }
    fn nest(items: &[String], dims: &[i64], out: &mut String) {
        match dims.split_first() {
            None => out.push_str(items.first().map_or("", String::as_str)),
            Some((&n, rest)) => {
                let inner: usize = rest.iter().product::<i64>().max(0) as usize;
                out.push('[');
                for i in 0..n.max(0) as usize {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    nest(&items[(i * inner).min(items.len())..], rest, out);
                }
                out.push(']');
            }
        }
    }
    let mut text = String::new();
    nest(items, dims, &mut text);
    text
}

/// `dense<...> : tensor<...>` of row-major little-endian bytes.
fn dense_text(bytes: &[u8], ty: &VType) -> String {
    let ty_text = ty.mlir();
    if ty.elem == 9 {
        // i1 has no byte-per-element hex form: a nested list.
        let dims: Vec<i64> = ty
            .shape
            .as_ref()
            .map_or(vec![], |s| s.iter().map(|d| if let Dim::Static(n) = d { *n } else { 0 }).collect());
        let items: Vec<String> = bytes.iter().map(|&b| if b != 0 { "true" } else { "false" }.to_string()).collect();
        return format!("dense<{}> : {ty_text}", nested(&items, &dims));
    }
    let mut hex = String::with_capacity(bytes.len() * 2 + 2);
    hex.push_str("0x");
    for b in bytes {
        let _ = write!(hex, "{b:02X}");
    }
    format!("dense<\"{hex}\"> : {ty_text}")
}

fn attr_kind(attr: &AttributeProto) -> Option<AttributeType> {
    match attr.type_.enum_value() {
        Ok(AttributeType::UNDEFINED) | Err(_) => {
            // Old models leave `type` out: the field that is set tells.
            Some(if attr.g.is_some() {
                AttributeType::GRAPH
            } else if attr.t.is_some() {
                AttributeType::TENSOR
            } else if !attr.floats.is_empty() {
                AttributeType::FLOATS
            } else if !attr.ints.is_empty() {
                AttributeType::INTS
            } else if !attr.strings.is_empty() {
                AttributeType::STRINGS
            } else if !attr.tensors.is_empty() {
                AttributeType::TENSORS
            } else if !attr.s.is_empty() {
                AttributeType::STRING
            } else if attr.f != 0.0 {
                AttributeType::FLOAT
            } else {
                AttributeType::INT
            })
        }
        Ok(kind) => Some(kind),
    }
}

/// Declared types of the graph's values: value_info, then outputs (which win).
///
/// As declared; unless the names are trusted, a node's result takes only the
/// element type and rank (see `without_dim_params`), its declared static
/// dims going to `DECLARED_DIMS_ATTR` for shape inference to check.
fn value_types(graph: &GraphProto) -> Result<HashMap<String, TypeProto>, String> {
    let mut out = HashMap::new();
    for vi in graph.value_info.iter().chain(&graph.output) {
        if let Some(t) = vi.type_.as_ref() {
            out.insert(vi.name.clone(), t.clone());
        }
    }
    Ok(out)
}

/// The static dims a declared type claims, as `onnx-shape-inference` reads
/// them from `DECLARED_DIMS_ATTR` (`2x?x4`; empty without a shape).
fn declared_dims_text(t: &VType) -> String {
    match &t.shape {
        None => String::new(),
        Some(dims) => dims
            .iter()
            .map(|d| if let Dim::Static(n) = d { n.to_string() } else { "?".to_string() })
            .collect::<Vec<_>>()
            .join("x"),
    }
}

/// `t` with its dims unknown: the dims (static ones and `dim_param` names
/// alike) a `value_info`, an output or a subgraph input declares are the
/// exporter's claims, which onnxruntime does not check at run time (it
/// warns that an output's declared `[1, 4]` is `[3, 4]` and returns it);
/// `onnx-shape-inference` derives them from the ops. Element types and
/// ranks stay (ONNX needs a rank on graph outputs; shape inference refuses
/// a rank the op contradicts).
fn without_dim_params(t: &TypeProto) -> TypeProto {
    let mut t = t.clone();
    if let Some(type_proto::Value::TensorType(tensor)) = t.value.as_mut() {
        for d in tensor.shape.as_mut().into_iter().flat_map(|s| s.dim.iter_mut()) {
            d.value = None;
        }
    }
    t
}

/// The graph inputs' dims with every repeated `dim_param` name made a
/// symbol of its own (`N`, then `N__2`, ...): equal names are a claim of
/// equal sizes that onnxruntime does not check (it runs `x: [N]`, `y: [N]`
/// with sizes 3 and 1), so they must not prove anything to the optimizer;
/// the sizes the program forces equal are proven by the ops themselves
/// (MatMul contractions, shape inference). The first use keeps its name.
///
/// A name that is not an identifier (`N + 1`, `max(M, N)`, `2`, `s0*s1`)
/// would be read as an expression by the shape reasoning (relating it to
/// `N`, or making it the number 2); it becomes an opaque identifier of its
/// own at every use (`N_1`, ...). The returned map gives each such symbol
/// its original spelling, which the written model keeps.
fn distinct_input_dims(types: &mut [VType]) -> BTreeMap<String, String> {
    let mut taken: std::collections::HashSet<String> = types
        .iter()
        .flat_map(|t| t.shape.iter().flatten())
        .filter_map(|d| if let Dim::Param(p) = d { Some(p.clone()) } else { None })
        .collect();
    let fresh_name = |base: &str, taken: &mut std::collections::HashSet<String>| {
        let fresh = (2..).map(|k| format!("{base}__{k}")).find(|n| !taken.contains(n)).expect("an unused name");
        taken.insert(fresh.clone());
        fresh
    };
    let mut spelling = BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    for d in types.iter_mut().flat_map(|t| t.shape.iter_mut().flatten()) {
        let Dim::Param(p) = d else { continue };
        if !is_identifier(p) {
            let base = identifier_like(p);
            let fresh = if taken.insert(base.clone()) { base } else { fresh_name(&base, &mut taken) };
            spelling.insert(fresh.clone(), p.clone());
            *p = fresh;
            continue;
        }
        if seen.insert(p.clone()) {
            continue;
        }
        *p = fresh_name(p, &mut taken);
    }
    spelling
}

/// `[A-Za-z_][A-Za-z0-9_]*`: a name the shape reasoning reads as one symbol.
fn is_identifier(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// An identifier made from `name` (`N + 1` -> `N_1`, `2` -> `d_2`).
fn identifier_like(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let out = out.trim_matches('_');
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        format!("d_{out}").trim_end_matches('_').to_string()
    } else {
        out.to_string()
    }
}

fn node_label(node: &NodeProto) -> String {
    if !node.name.is_empty() {
        node.name.clone()
    } else {
        node.output.iter().find(|o| !o.is_empty()).cloned().unwrap_or_else(|| node.op_type.clone())
    }
}

/// A `Constant` given as `value_int(s)` / `value_float(s)` rewritten with
/// the equivalent `value` tensor (0-d for one number, 1-D for a list), so
/// that every constant reaches the dialect in one form the passes read
/// (upgraded `axes` inputs and TorchScript exports use the list forms).
fn constant_as_tensor(node: &NodeProto) -> Option<NodeProto> {
    if node.op_type != "Constant" || node.attribute.len() != 1 {
        return None;
    }
    let a = &node.attribute[0];
    let (data_type, dims, int64_data, float_data) = match (a.name.as_str(), attr_kind(a)?) {
        ("value_int", AttributeType::INT) => (7, vec![], vec![a.i], vec![]),
        ("value_ints", AttributeType::INTS) => (7, vec![a.ints.len() as i64], a.ints.clone(), vec![]),
        ("value_float", AttributeType::FLOAT) => (1, vec![], vec![], vec![a.f]),
        ("value_floats", AttributeType::FLOATS) => (1, vec![a.floats.len() as i64], vec![], a.floats.clone()),
        _ => return None,
    };
    let tensor = TensorProto { data_type, dims, int64_data, float_data, ..Default::default() };
    let attribute = AttributeProto {
        name: "value".into(),
        type_: AttributeType::TENSOR.into(),
        t: Some(tensor).into(),
        ..Default::default()
    };
    Some(NodeProto { attribute: vec![attribute], ..node.clone() })
}

fn describe_node(node: &NodeProto) -> String {
    format!("node `{}` ({})", node_label(node), node.op_type)
}

/// The element type of result `i` of an If/Loop/Scan from its bodies'
/// outputs (Loop's body yields cond first).
fn region_result_elem(op_type: &str, i: usize, bodies: &[Vec<VType>], _operands: usize) -> Option<i32> {
    let body = bodies.first()?;
    let index = if op_type == "Loop" { i + 1 } else { i };
    body.get(index).map(|t| t.elem)
}

/// The element type of output `i` of `node` from its schema: a concrete
/// type, the type bound to its type parameter by an input, an attribute
/// naming the type, or the only allowed type.
fn infer_elem(schema: Option<&registry::OpSchema>, node: &NodeProto, i: usize, inputs: &[Option<i32>]) -> Option<i32> {
    let attr = |name: &str| node.attribute.iter().find(|a| a.name == name);
    let attr_int = |name: &str| attr(name).map(|a| a.i as i32).filter(|&v| v != 0);
    let input = |j: usize| inputs.get(j).copied().flatten();
    match node.op_type.as_str() {
        "Cast" => return attr_int("to"),
        "CastLike" => return input(1),
        "Constant" => {
            let a = node.attribute.first()?;
            return match a.name.as_str() {
                "value" => a.t.as_ref().map(|t| t.data_type),
                "value_float" | "value_floats" => Some(1),
                "value_int" | "value_ints" => Some(7),
                "value_string" | "value_strings" => Some(8),
                _ => None,
            };
        }
        "ConstantOfShape" => return Some(attr("value").and_then(|a| a.t.as_ref()).map_or(1, |t| t.data_type)),
        "EyeLike" | "RandomNormalLike" | "RandomUniformLike" | "Bernoulli" => return attr_int("dtype").or(input(0)),
        "RandomNormal" | "RandomUniform" => return Some(attr_int("dtype").unwrap_or(1)),
        "Multinomial" => return Some(attr_int("dtype").unwrap_or(6)),
        "QuantizeLinear" if i == 0 => return attr_int("output_dtype").or(input(2)).or(Some(2)),
        _ => {}
    }
    let schema = schema?;
    let formal = schema
        .outputs
        .get(i)
        .or_else(|| schema.outputs.last().filter(|f| f.option == registry::ParamOption::Variadic))?;
    if let Some(code) = type_string_code(formal.type_str) {
        return Some(code);
    }
    let param = formal.type_str;
    for (j, elem) in inputs.iter().enumerate() {
        let Some(elem) = elem else { continue };
        let f = schema
            .inputs
            .get(j)
            .or_else(|| schema.inputs.last().filter(|f| f.option == registry::ParamOption::Variadic));
        if f.is_some_and(|f| f.type_str == param) {
            return Some(*elem);
        }
    }
    match schema.allowed_types(param) {
        Some([only]) => type_string_code(only),
        _ => None,
    }
}

/// A node of a function body for one call: every value name renamed (in
/// its subgraphs too, which may read the function's values: an `If` branch
/// adding two inputs), and attributes that refer to the function's
/// (`ref_attr_name`) given the call's value (left out when the call and
/// the function's defaults have none, as ONNX says).
fn instantiate_node(n: &mut NodeProto, rename: &dyn Fn(&str) -> String, attr_values: &HashMap<String, AttributeProto>) {
    n.input = n.input.iter().map(|i| rename(i)).collect();
    n.output = n.output.iter().map(|o| rename(o)).collect();
    let mut attrs = Vec::new();
    for a in &n.attribute {
        let mut a = if a.ref_attr_name.is_empty() {
            a.clone()
        } else if let Some(v) = attr_values.get(&a.ref_attr_name) {
            let mut v = v.clone();
            v.name = a.name.clone();
            v
        } else {
            continue;
        };
        if let Some(g) = a.g.as_mut() {
            instantiate_graph(g, rename, attr_values);
        }
        for g in &mut a.graphs {
            instantiate_graph(g, rename, attr_values);
        }
        attrs.push(a);
    }
    n.attribute = attrs;
}

/// [`instantiate_node`] over a subgraph: its inputs, outputs, value infos,
/// initializers and nodes renamed alike (subgraph inputs and outputs are
/// positional, so a consistent renaming keeps the meaning).
fn instantiate_graph(
    g: &mut GraphProto,
    rename: &dyn Fn(&str) -> String,
    attr_values: &HashMap<String, AttributeProto>,
) {
    for v in g.input.iter_mut().chain(g.output.iter_mut()).chain(g.value_info.iter_mut()) {
        v.name = rename(&v.name);
    }
    for t in &mut g.initializer {
        t.name = rename(&t.name);
    }
    for n in &mut g.node {
        instantiate_node(n, rename, attr_values);
    }
}

#[cfg(test)]
mod dim_claim_tests {
    use super::*;

    fn names(t: &VType) -> Vec<String> {
        t.shape
            .iter()
            .flatten()
            .map(|d| match d {
                Dim::Param(p) => p.clone(),
                Dim::Static(n) => n.to_string(),
                Dim::Unknown => "?".into(),
            })
            .collect()
    }

    #[test]
    fn repeated_dim_params_become_distinct_symbols() {
        let ty = |dims: &[&str]| VType {
            elem: 1,
            shape: Some(
                dims.iter().map(|d| d.parse().map(Dim::Static).unwrap_or_else(|_| Dim::Param(d.to_string()))).collect(),
            ),
        };
        // N twice in x ([N, N] of any 2-D tensor), in y, and a model that
        // already uses the name the first rename would take.
        let mut types = vec![ty(&["N", "N", "4"]), ty(&["N", "S"]), ty(&["N__2", "S"])];
        distinct_input_dims(&mut types);
        assert_eq!(names(&types[0]), ["N", "N__3", "4"]);
        assert_eq!(names(&types[1]), ["N__4", "S"]);
        assert_eq!(names(&types[2]), ["N__2", "S__2"]);
    }

    #[test]
    fn expression_dim_params_become_opaque_symbols() {
        let ty =
            |dims: &[&str]| VType { elem: 1, shape: Some(dims.iter().map(|d| Dim::Param(d.to_string())).collect()) };
        let mut types = vec![ty(&["N", "N + 1"]), ty(&["N + 1", "max(M, N)", "2", "s0*s1", "N +"])];
        let spelling = distinct_input_dims(&mut types);
        assert_eq!(names(&types[0]), ["N", "N_1"]);
        // Every use of an expression is a size of its own.
        assert_eq!(names(&types[1]), ["N_1__2", "max_M_N", "d_2", "s0_s1", "N__2"]);
        assert_eq!(spelling.get("N_1").map(String::as_str), Some("N + 1"));
        assert_eq!(spelling.get("N_1__2").map(String::as_str), Some("N + 1"));
        assert_eq!(spelling.get("N__2").map(String::as_str), Some("N +"));
        assert_eq!(spelling.get("d_2").map(String::as_str), Some("2"));
        assert!(!spelling.contains_key("N"));
    }
}
