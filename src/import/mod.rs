//! Import of a `torch.export` program (`.pt2`) into the `aten` dialect.
//!
//! One `func.func @forward` per program. Its arguments are the user inputs in
//! signature order (`aten.name` holds the Python name); parameters, buffers
//! and lifted constants become `aten.weight` ops that name their entry in the
//! archive (the bytes stay in the mmapped file). Every node becomes one op
//! (see `aten2onnx_passes::aten_ir` for how arguments are carried), located at
//! `loc("<node>"("<user file>":<line>:0))`. Results are the user outputs in
//! order, then mutated buffers and inputs (`aten.kind`, `aten.target`).
//! Higher-order ops (cond, while_loop) carry their subgraphs as regions.

pub mod args;
pub mod composite;
mod custom;
pub mod location;
pub mod types;

use crate::{custom_ops::CustomOps, Error};
use aten2onnx_passes::aten_ir;
use aten2onnx_pt2::{
    schema::{
        Argument, ArgumentKind, ExportedProgram, Graph, InputSpec, NamedArgument, Node, OutputSpec, SymBoolArgument,
        SymFloatArgument, SymIntArgument,
    },
    Archive,
};
use melior::{
    ir::{
        attribute::{ArrayAttribute, DenseI64ArrayAttribute, DictionaryAttribute, StringAttribute, TypeAttribute},
        operation::{OperationBuilder, OperationMutLike},
        r#type::FunctionType,
        Attribute, Block, BlockLike, Identifier, Location, Module, Operation, OperationRef, Region, RegionLike, Type,
        Value,
    },
    Context,
};
use std::collections::{BTreeMap, HashMap};

/// The function every program is imported into.
pub const ENTRY_FUNCTION: &str = "forward";

/// Imports `archive`'s program. `path` is recorded as the module's
/// `aten.archive` (weights are read from it later) and used in errors.
pub fn import_program<'c>(context: &'c Context, archive: &Archive, path: &str) -> Result<Module<'c>, Error> {
    import_program_with(context, archive, path, &ImportOptions::default())
}

/// What an import may need besides the archive.
#[derive(Clone, Copy, Debug, Default)]
pub struct ImportOptions<'o> {
    /// Translations of custom ops (`--custom-ops`).
    pub custom_ops: Option<&'o CustomOps>,
    /// The opset the translations are instantiated at (the conversion's);
    /// `None`: the default opset.
    pub opset: Option<u32>,
}

/// [`import_program`] with custom-op translations.
pub fn import_program_with<'c>(
    context: &'c Context,
    archive: &Archive,
    path: &str,
    options: &ImportOptions<'_>,
) -> Result<Module<'c>, Error> {
    let expanded =
        composite::expand(archive.program()).map_err(|message| Error::Import { path: path.to_string(), message })?;
    let program = expanded.as_ref().unwrap_or_else(|| archive.program());
    let importer = Importer {
        context,
        path,
        archive,
        custom_ops: options.custom_ops,
        opset: options.opset.unwrap_or(aten2onnx_passes::onnx_ir::DEFAULT_OPSET),
    };
    importer.check_supported(program.graph())?;
    importer.module(program)
}

/// Positional argument names of the higher-order ops torch serializes
/// without names (from their Python signatures).
fn hop_argument_name(node: &Node, index: usize) -> Option<&'static str> {
    let names: &[&str] = match node.target.strip_prefix("torch.ops.higher_order.")? {
        "cond" => &["pred", "true_fn", "false_fn", "operands"],
        "while_loop" => &["cond_fn", "body_fn", "carried_inputs", "additional_inputs"],
        "map_impl" => &["f", "xs", "pos_args"],
        "scan" => &["combine_fn", "init", "xs", "additional_inputs"],
        _ => return None,
    };
    names.get(index).copied()
}

/// The higher-order op torch.export wraps side-effecting ops in (in core
/// ATen, e.g. `aten._linalg_check_errors` after a linalg op):
/// `with_effects(token, op, *args, **kwargs) -> (token, *op's results)`.
const WITH_EFFECTS: &str = "torch.ops.higher_order.with_effects";

/// The op a `with_effects` node wraps, as a plain node: its arguments (the
/// positional ones named from the op's schema) and results, without the
/// effect token. Tokens only order side effects, and ONNX programs have no
/// side effects to order, so they are dropped from the graph (the
/// signature's token inputs and outputs are skipped too). `Ok(None)` for
/// any other node.
fn unwrap_with_effects(node: &Node) -> Result<Option<Node>, String> {
    if node.target != WITH_EFFECTS {
        return Ok(None);
    }
    let target = match node.inputs.get(1).map(|i| &i.arg) {
        Some(Argument::AsOperator(target)) => target.clone(),
        other => return Err(format!("with_effects: the second argument is {other:?}, not an operator")),
    };
    if !matches!(node.inputs.first().map(|i| &i.arg), Some(Argument::AsTensor(_))) {
        return Err("with_effects: the first argument is not an effect token".to_string());
    }
    let schema = match classify_target(&target)? {
        Target::Aten(schema) => schema,
        _ => return Err(format!("with_effects: the wrapped op '{target}' is not an ATen op")),
    };
    let positional: Vec<&str> = schema.arguments.iter().filter(|a| !a.kwarg_only).map(|a| a.name).collect();
    let mut inputs = Vec::new();
    let mut position = 0;
    for input in &node.inputs[2..] {
        let mut input = input.clone();
        if input.name.is_empty() {
            input.name = positional
                .get(position)
                .ok_or_else(|| {
                    format!("with_effects: '{target}' takes {} positional arguments, more were given", positional.len())
                })?
                .to_string();
            position += 1;
        }
        inputs.push(input);
    }
    let mut outputs: Vec<Argument> = node.outputs.iter().skip(1).cloned().collect();
    if schema.returns.is_empty() {
        // `(token, None)` for an op returning nothing.
        outputs.retain(|o| !matches!(o, Argument::AsNone(_)));
    }
    Ok(Some(Node { target, inputs, outputs, ..node.clone() }))
}

/// Ops outside `aten` that stand for an ATen op, with their argument names
/// mapped to the ATen schema's: `transformers::grouped_mm_fallback(input,
/// weight, offs)` is what Hugging Face mixture-of-experts layers call instead
/// of `torch._grouped_mm(self, mat2, offs)` when capturing in float32 (the
/// same product; rows past `offs[-1]` are zeros where ATen leaves them
/// unspecified, and the lowering writes zeros).
const ATEN_STAND_INS: &[(&str, &str, &[(&str, &str)])] = &[(
    "torch.ops.transformers.grouped_mm_fallback.default",
    "torch.ops.aten._grouped_mm.default",
    &[("input", "self"), ("weight", "mat2"), ("offs", "offs")],
)];

/// `node` as the ATen op it stands for (see `ATEN_STAND_INS`), else `None`.
fn aten_stand_in(node: &Node) -> Option<Node> {
    let (_, target, names) = ATEN_STAND_INS.iter().find(|(from, _, _)| *from == node.target)?;
    let inputs = node
        .inputs
        .iter()
        .map(|input| {
            let mut input = input.clone();
            if let Some((_, to)) = names.iter().find(|(from, _)| *from == input.name) {
                input.name = to.to_string();
            }
            input
        })
        .collect();
    Some(Node { target: target.to_string(), inputs, ..node.clone() })
}

/// The node to import for `node`: the op a `with_effects` wraps, an ATen
/// stand-in's ATen op, or `None` for `node` itself.
fn substitute(node: &Node) -> Result<Option<Node>, String> {
    let inner = unwrap_with_effects(node)?;
    let stand_in = aten_stand_in(inner.as_ref().unwrap_or(node));
    let substituted = stand_in.or(inner);
    let renamed = positional_names_from_schema(substituted.as_ref().unwrap_or(node));
    Ok(renamed.or(substituted))
}

/// `node` with its positional arguments named as the pinned registry's schema
/// names them, when a newer torch renamed them: torch 2.15 calls
/// `_cdist_backward`'s first argument `grad_output`, 2.13 `grad`. torch
/// writes positional arguments first, in schema order, so the k-th positional
/// input is the schema's k-th argument whatever it is called. Keyword
/// arguments keep their names (a renamed keyword argument is reported as
/// not in the schema). `None` when nothing needs renaming.
fn positional_names_from_schema(node: &Node) -> Option<Node> {
    let Ok(Target::Aten(schema)) = classify_target(&node.target) else {
        return None;
    };
    let positional: Vec<&str> = schema.arguments.iter().filter(|a| !a.kwarg_only).map(|a| a.name).collect();
    let renames = |(k, input): (usize, &NamedArgument)| {
        matches!(input.kind, Some(ArgumentKind::Positional))
            && !schema.arguments.iter().any(|a| a.name == input.name)
            && k < positional.len()
    };
    if !node.inputs.iter().enumerate().any(renames) {
        return None;
    }
    let mut renamed = node.clone();
    for (k, input) in renamed.inputs.iter_mut().enumerate() {
        if renames((k, &node.inputs[k])) {
            input.name = positional[k].to_string();
        }
    }
    Some(renamed)
}

/// Where a value came from, for error messages.
fn node_label(node: &Node) -> String {
    let name = node.name.as_deref().unwrap_or("<unnamed>");
    match location::source_line(node.stack_trace()) {
        Some(line) => format!("node '{name}' ({}) at {line}", node.target),
        None => format!("node '{name}' ({})", node.target),
    }
}

pub(crate) struct Importer<'c, 'a> {
    pub(crate) context: &'c Context,
    pub(crate) path: &'a str,
    archive: &'a Archive,
    custom_ops: Option<&'a CustomOps>,
    opset: u32,
}

/// Values by their name in the graph.
pub(crate) type Scope<'c, 'b> = HashMap<String, Value<'c, 'b>>;

/// How a node target maps to the dialect.
enum Target<'t> {
    Aten(&'static aten2onnx_dialects::aten::OpSchema),
    Sym(&'static aten2onnx_dialects::sym::SymOp),
    HigherOrder(&'t str),
    /// An op of a namespace outside ATen (`torch.library`): translated by
    /// a function of the custom-op library, if one is given.
    Custom {
        namespace: &'t str,
        op: &'t str,
        overload: &'t str,
    },
}

/// Namespaces of torch's own ops, never custom ops.
const TORCH_NAMESPACES: &[&str] =
    &["prims", "quantized", "_quantized", "profiler", "inductor", "rngprims", "_c10d_functional"];

/// Op namespaces besides `aten` whose ops the registry holds.
const QUANTIZATION_NAMESPACES: &[&str] = &["quantized_decomposed", "torchao"];

fn classify_target(target: &str) -> Result<Target<'_>, String> {
    if let Some(rest) = target.strip_prefix("torch.ops.aten.") {
        let (op, overload) = rest.rsplit_once('.').unwrap_or((rest, "default"));
        return aten2onnx_dialects::aten::lookup(op, overload).map(Target::Aten).ok_or_else(|| {
            format!(
                "'aten.{op}.{overload}' is not in the aten registry (torch {})",
                aten2onnx_dialects::aten::TORCH_VERSION
            )
        });
    }
    if let Some(name) = target.strip_prefix("torch.ops.higher_order.") {
        return Ok(Target::HigherOrder(name));
    }
    // Quantization ops of PT2E programs (torchao registers them; the
    // registry holds their schemas, so converting never needs torchao).
    for namespace in QUANTIZATION_NAMESPACES {
        if let Some(rest) = target.strip_prefix(&format!("torch.ops.{namespace}.")) {
            let (op, overload) = rest.rsplit_once('.').unwrap_or((rest, "default"));
            let name = format!("{namespace}::{op}");
            return aten2onnx_dialects::aten::lookup(&name, overload).map(Target::Aten).ok_or_else(|| {
                format!(
                    "'{namespace}.{op}.{overload}' is not one of the quantization ops this compiler knows \
                     (torchao {}'s: tools/gen/quantized_schemas.json)",
                    aten2onnx_dialects::aten::TORCHAO_VERSION
                )
            });
        }
    }
    if let Some(sym) = aten2onnx_dialects::sym::lookup(target) {
        return Ok(Target::Sym(sym));
    }
    if let Some(rest) = target.strip_prefix("torch.ops.") {
        let mut parts = rest.splitn(3, '.');
        if let (Some(namespace), Some(op), Some(overload)) = (parts.next(), parts.next(), parts.next()) {
            if !TORCH_NAMESPACES.contains(&namespace) && !overload.contains('.') {
                return Ok(Target::Custom { namespace, op, overload });
            }
        }
    }
    Err(format!("'{target}' is not an ATen op, a symbolic-scalar op or a higher-order op this importer knows"))
}

impl<'c> Importer<'c, '_> {
    fn error(&self, message: impl Into<String>) -> Error {
        Error::Import { path: self.path.to_string(), message: message.into() }
    }

    fn id(&self, name: &str) -> Identifier<'c> {
        Identifier::new(self.context, name)
    }

    fn string(&self, value: &str) -> Attribute<'c> {
        StringAttribute::new(self.context, value).into()
    }

    /// Reports every node whose target is unknown, with counts and source
    /// lines, before building anything.
    fn check_supported(&self, graph: &Graph) -> Result<(), Error> {
        let mut unknown: BTreeMap<String, (usize, Vec<String>)> = BTreeMap::new();
        fn visit(graph: &Graph, unknown: &mut BTreeMap<String, (usize, Vec<String>)>, custom_ops: Option<&CustomOps>) {
            for node in &graph.nodes {
                let inner = match substitute(node) {
                    Ok(inner) => inner,
                    Err(reason) => {
                        let entry = unknown.entry(reason).or_default();
                        entry.0 += 1;
                        if entry.1.len() < 3 {
                            entry.1.push(node_label(node));
                        }
                        continue;
                    }
                };
                let node = inner.as_ref().unwrap_or(node);
                let classified = classify_target(&node.target).and_then(|target| match target {
                    // A tensor subclass (torchao's quantized weights) exported
                    // without being flattened into plain tensors.
                    Target::Custom { namespace: "export", op, .. } if op.starts_with("access_subclass") => {
                        Err("the program holds tensor subclasses (torchao's quantized weights) that torch.export \
                         did not flatten: call `torchao.utils.unwrap_tensor_subclass(model)` before \
                         torch.export.export (docs/quantization.md)"
                            .to_string())
                    }
                    Target::Custom { namespace, op, overload } => match custom_ops {
                        Some(library) if library.find(namespace, op, overload).is_some() => Ok(target),
                        Some(library) => Err(format!(
                            "custom op '{namespace}::{op}.{overload}' has no translation in {} (a function named \
                             `{op}.{overload}` or `{op}` in domain `{namespace}`; docs/custom_ops.md)",
                            library.label
                        )),
                        None => Err(format!(
                            "custom op '{namespace}::{op}.{overload}' has no ONNX translation: give one as a function \
                             `{op}` in domain `{namespace}` of an ONNX model passed with --custom-ops LIB.onnx, or in \
                             `custom_translation_table=` of aten2onnx.export (docs/custom_ops.md)"
                        )),
                    },
                    other => Ok(other),
                });
                if let Err(reason) = classified {
                    let entry = unknown.entry(reason).or_default();
                    entry.0 += 1;
                    if entry.1.len() < 3 {
                        entry.1.push(node_label(node));
                    }
                }
                for input in &node.inputs {
                    if let Argument::AsGraph(g) = &input.arg {
                        visit(&g.graph, unknown, custom_ops);
                    }
                }
            }
        }
        visit(graph, &mut unknown, self.custom_ops);
        if unknown.is_empty() {
            return Ok(());
        }
        let mut message = format!("{} unsupported op kind(s) in the program:", unknown.len());
        for (reason, (count, nodes)) in &unknown {
            message.push_str(&format!("\n  {reason}: {count} node(s), e.g. {}", nodes.join("; ")));
        }
        Err(self.error(message))
    }

    fn module(&self, program: &ExportedProgram) -> Result<Module<'c>, Error> {
        let context = self.context;
        let location = Location::new(context, self.path, 0, 0);
        let mut module = Module::new(location);
        let func = self.function(program)?;
        module.body().append_operation(func);

        let mut ranges = Vec::new();
        for (symbol, range) in &program.range_constraints {
            let bounds = [range.min_val.unwrap_or(i64::MIN), range.max_val.unwrap_or(i64::MAX)];
            ranges.push((self.id(symbol), DenseI64ArrayAttribute::new(context, &bounds).into()));
        }
        let mut op = module.as_operation_mut();
        op.set_attribute(aten_ir::ARCHIVE_ATTR, self.string(self.path));
        op.set_attribute("aten.schema_version", self.string(&program.schema_version.to_string()));
        if let Some(version) = &program.torch_version {
            op.set_attribute("aten.torch_version", self.string(version));
        }
        let verifiers: Vec<Attribute> = program.verifiers.iter().map(|v| self.string(v)).collect();
        op.set_attribute("aten.verifiers", ArrayAttribute::new(context, &verifiers).into());
        if !ranges.is_empty() {
            op.set_attribute("aten.range_constraints", DictionaryAttribute::new(context, &ranges).into());
        }
        // The capture's value of each symbolic size (the sample input's
        // shape), by the text the tensor encodings use: `{s77 = 3 : i64}`.
        let mut hints = BTreeMap::new();
        for meta in program.graph().tensor_values.values() {
            for size in &meta.sizes {
                if let aten2onnx_pt2::schema::SymInt::AsExpr(expr) = size {
                    if let Some(hint) = expr.int_hint() {
                        hints.insert(types::sym_expr_text(&expr.expr_str), hint);
                    }
                }
            }
        }
        if !hints.is_empty() {
            let entries: Vec<(Identifier, Attribute)> = hints
                .iter()
                .map(|(k, v)| {
                    (self.id(k), melior::ir::attribute::IntegerAttribute::new(types::sym_int_type(context), *v).into())
                })
                .collect();
            op.set_attribute("aten.symbol_hints", DictionaryAttribute::new(context, &entries).into());
        }
        Ok(module)
    }

    fn function(&self, program: &ExportedProgram) -> Result<Operation<'c>, Error> {
        let context = self.context;
        let graph = program.graph();
        let signature = program.signature();
        if signature.input_specs.len() != graph.inputs.len() {
            return Err(self.error(format!(
                "signature has {} input specs but the graph has {} inputs",
                signature.input_specs.len(),
                graph.inputs.len()
            )));
        }

        // User inputs become arguments; the rest become weights.
        let mut arg_types = Vec::new();
        let mut arg_names = Vec::new();
        let mut weights = Vec::new();
        let mut constants = Vec::new();
        for spec in &signature.input_specs {
            match spec {
                InputSpec::UserInput(user) => {
                    let name = spec.arg_name().ok_or_else(|| {
                        self.error(format!("user input {:?} is not a tensor or symbolic scalar", user.arg))
                    })?;
                    arg_types.push(self.value_type(graph, &user.arg, name)?);
                    arg_names.push(name.to_string());
                }
                InputSpec::Parameter(p) => weights.push((p.arg.name.clone(), p.parameter_name.clone(), "parameter")),
                InputSpec::Buffer(b) => weights.push((b.arg.name.clone(), b.buffer_name.clone(), "buffer")),
                InputSpec::TensorConstant(c) => {
                    weights.push((c.arg.name.clone(), c.tensor_constant_name.clone(), "constant"))
                }
                InputSpec::ConstantInput(c) => constants.push(c.clone()),
                // Effect tokens order side effects; nothing to carry (see
                // `unwrap_with_effects`).
                InputSpec::Token(_) => {}
                InputSpec::CustomObj(_) => {
                    return Err(self.error(format!(
                        "input '{}' is a {} input, which the aten dialect does not support",
                        spec.arg_name().unwrap_or("?"),
                        spec.tag()
                    )));
                }
            }
        }

        let block_args: Vec<(Type, Location)> = arg_types
            .iter()
            .zip(&arg_names)
            .map(|(t, n)| (*t, Location::name(context, n, Location::unknown(context))))
            .collect();
        let block = Block::new(&block_args);
        let outputs = {
            let mut scope: Scope = HashMap::new();
            for (i, name) in arg_names.iter().enumerate() {
                scope.insert(name.clone(), block.argument(i).map_err(|e| self.error(e.to_string()))?.into());
            }
            // Buffers the program writes back (mutations) hold other values
            // on later calls: only the others' values are known constants.
            let mutated: std::collections::HashSet<&str> = signature
                .output_specs
                .iter()
                .filter_map(|spec| match spec {
                    OutputSpec::BufferMutation(m) => Some(m.buffer_name.as_str()),
                    _ => None,
                })
                .collect();
            for (graph_name, fqn, kind) in &weights {
                let known = *kind != "parameter" && !mutated.contains(fqn.as_str());
                let value = self.weight(&block, graph, graph_name, fqn, kind, known)?;
                scope.insert(graph_name.clone(), value);
            }
            let constant_inputs: HashMap<String, Argument> =
                constants.iter().map(|c| (c.name.clone(), args::constant_argument(&c.value))).collect();
            self.nodes(&block, graph, &mut scope, &constant_inputs)?;
            self.outputs(&block, graph, signature, &scope)?
        };
        let (result_types, result_attrs) = outputs;

        let region = Region::new();
        region.append_block(block);
        let function_type = FunctionType::new(context, &arg_types, &result_types);
        let arg_attrs: Vec<Attribute> = arg_names
            .iter()
            .map(|n| DictionaryAttribute::new(context, &[(self.id("aten.name"), self.string(n))]).into())
            .collect();
        OperationBuilder::new("func.func", Location::new(context, self.path, 0, 0))
            .add_attributes(&[
                (self.id("sym_name"), self.string(ENTRY_FUNCTION)),
                (self.id("function_type"), TypeAttribute::new(function_type.into()).into()),
                (self.id("arg_attrs"), ArrayAttribute::new(context, &arg_attrs).into()),
                (self.id("res_attrs"), ArrayAttribute::new(context, &result_attrs).into()),
            ])
            .add_regions([region])
            .build()
            .map_err(|e| self.error(format!("cannot build the function: {e}")))
    }

    /// The type of a graph input or node output named `name`.
    fn value_type(&self, graph: &Graph, arg: &Argument, name: &str) -> Result<Type<'c>, Error> {
        match arg {
            Argument::AsTensor(_) => self.tensor_type(graph, name),
            Argument::AsSymInt(_) | Argument::AsInt(_) => Ok(types::sym_int_type(self.context)),
            Argument::AsSymFloat(_) | Argument::AsFloat(_) => Ok(types::sym_float_type(self.context)),
            Argument::AsSymBool(_) | Argument::AsBool(_) => Ok(types::sym_bool_type(self.context)),
            other => Err(self.error(format!("value '{name}' has an unsupported kind {other:?}"))),
        }
    }

    fn tensor_type(&self, graph: &Graph, name: &str) -> Result<Type<'c>, Error> {
        let meta = graph
            .tensor_values
            .get(name)
            .ok_or_else(|| self.error(format!("tensor '{name}' has no entry in tensor_values")))?;
        types::tensor_type(self.context, meta).map_err(|e| self.error(format!("tensor '{name}': {e}")))
    }

    /// `%w = "aten.weight"() {name = fqn, kind = kind}`; checks the archive
    /// holds it with the dtype and shape the graph expects (metadata only: no
    /// weight byte is read), except for a `known` constant (a buffer the
    /// program does not mutate, or a tensor constant) of at most
    /// [`aten_ir::MAX_WEIGHT_VALUE_ELEMENTS`] elements: its values are also
    /// attached (`value`, see [`aten_ir::WEIGHT_VALUE_ATTR`]), for the
    /// optimizer to fold (position ids, token type ids, ...).
    fn weight<'b>(
        &self,
        block: &'b Block<'c>,
        graph: &Graph,
        graph_name: &str,
        fqn: &str,
        kind: &str,
        known: bool,
    ) -> Result<Value<'c, 'b>, Error> {
        let meta = graph
            .tensor_values
            .get(graph_name)
            .ok_or_else(|| self.error(format!("{kind} '{fqn}' has no entry in tensor_values")))?;
        let stored = match kind {
            "constant" => self.archive.constant(fqn),
            _ => match self.archive.weight(fqn) {
                // Lifted tensors may be stored among the constants.
                Err(aten2onnx_pt2::Error::UnknownTensor { .. }) => self.archive.constant(fqn),
                other => other,
            },
        }
        .map_err(|e| self.error(format!("{kind} '{fqn}': {e}")))?;
        if stored.dtype != meta.dtype || stored.sizes.len() != meta.sizes.len() {
            return Err(self.error(format!(
                "{kind} '{fqn}': the archive stores {} {:?} but the graph expects {} with {} dims",
                stored.dtype,
                stored.sizes,
                meta.dtype,
                meta.sizes.len()
            )));
        }
        let ty = types::tensor_type(self.context, meta).map_err(|e| self.error(format!("{kind} '{fqn}': {e}")))?;
        let location = Location::name(self.context, graph_name, Location::unknown(self.context));
        let mut attrs = vec![
            (self.id(aten_ir::WEIGHT_NAME_ATTR), self.string(fqn)),
            (self.id(aten_ir::WEIGHT_KIND_ATTR), self.string(kind)),
        ];
        if known && stored.numel() <= aten_ir::MAX_WEIGHT_VALUE_ELEMENTS as u64 {
            if let Some(value) = self.weight_value(&stored) {
                attrs.push((self.id(aten_ir::WEIGHT_VALUE_ATTR), value));
            }
        }
        let op = OperationBuilder::new(aten_ir::WEIGHT_OP, location)
            .add_attributes(&attrs)
            .add_results(&[ty])
            .build()
            .map_err(|e| self.error(e.to_string()))?;
        aten2onnx_passes::ir::result_at(block.append_operation(op), 0)
            .ok_or_else(|| self.error("an op built without a result"))
    }

    /// The values of a small stored tensor as a dense elements attribute
    /// (int64, int32 and bool: index-like buffers such as position or token
    /// type ids, what the optimizer folds), `None` for other types and
    /// non-contiguous views. Floating-point buffers (batch-norm statistics,
    /// rotary frequencies) are weights: they stay in the archive only.
    fn weight_value(&self, stored: &aten2onnx_pt2::TensorData<'_>) -> Option<Attribute<'c>> {
        use aten2onnx_pt2::schema::ScalarType;
        use melior::ir::{
            attribute::{DenseElementsAttribute, IntegerAttribute},
            r#type::{IntegerType, RankedTensorType},
        };
        let context = self.context;
        let bytes = stored.contiguous_bytes()?;
        let (elem, size): (Type<'c>, usize) = match stored.dtype {
            ScalarType::Long => (IntegerType::new(context, 64).into(), 8),
            ScalarType::Int => (IntegerType::new(context, 32).into(), 4),
            ScalarType::Bool => (IntegerType::new(context, 1).into(), 1),
            _ => return None,
        };
        let elements: Vec<Attribute<'c>> = bytes
            .chunks_exact(size)
            .map(|b| -> Attribute<'c> {
                match stored.dtype {
                    ScalarType::Long => IntegerAttribute::new(elem, i64::from_le_bytes(b.try_into().unwrap())).into(),
                    ScalarType::Int => {
                        IntegerAttribute::new(elem, i32::from_le_bytes(b.try_into().unwrap()) as i64).into()
                    }
                    _ => IntegerAttribute::new(elem, (b[0] != 0) as i64).into(),
                }
            })
            .collect();
        let ty = RankedTensorType::new(&stored.sizes.iter().map(|&d| d as u64).collect::<Vec<_>>(), elem, None);
        DenseElementsAttribute::new(ty.into(), &elements).ok().map(Into::into)
    }

    /// Imports every node of `graph` into `block`.
    pub(crate) fn nodes<'b>(
        &self,
        block: &'b Block<'c>,
        graph: &Graph,
        scope: &mut Scope<'c, 'b>,
        constants: &HashMap<String, Argument>,
    ) -> Result<(), Error> {
        for node in &graph.nodes {
            let inner = substitute(node).map_err(|message| self.error(format!("{}: {message}", node_label(node))))?;
            let node = inner.as_ref().unwrap_or(node);
            let op = self
                .node(block, graph, node, scope, constants)
                .map_err(|message| self.error(format!("{}: {message}", node_label(node))))?;
            self.bind_outputs(graph, node, op, scope)?;
        }
        Ok(())
    }

    fn node<'b>(
        &self,
        block: &'b Block<'c>,
        graph: &Graph,
        node: &Node,
        scope: &Scope<'c, 'b>,
        constants: &HashMap<String, Argument>,
    ) -> Result<OperationRef<'c, 'b>, String> {
        let name = node.name.as_deref().unwrap_or("");
        let location = location::node_location(self.context, name, node.stack_trace());
        let result_types = self.result_types(graph, node).map_err(|e| e.to_string())?;
        let built = match classify_target(&node.target)? {
            Target::Aten(schema) => {
                let (operands, mut attributes) =
                    args::aten_arguments(self, block, schema, node, scope, constants, location)?;
                if aten_ir::META_QUERY_OPS.contains(&schema.name) {
                    attributes.extend(self.self_meta(graph, node));
                }
                if let Some(sizes) = Self::result_segment_sizes(schema, node) {
                    attributes.push((
                        self.id(aten_ir::RESULT_SEGMENTS_ATTR),
                        melior::ir::attribute::DenseI32ArrayAttribute::new(self.context, &sizes).into(),
                    ));
                }
                let op_name = schema.dialect_name();
                OperationBuilder::new(&op_name, location)
                    .add_operands(&operands)
                    .add_attributes(&attributes)
                    .add_results(&result_types)
                    .build()
            }
            Target::Sym(sym) => {
                let operands = args::sym_operands(self, block, node, scope, location)?;
                OperationBuilder::new(sym.op, location).add_operands(&operands).add_results(&result_types).build()
            }
            Target::Custom { namespace, op, overload } => {
                let (operands, attributes, region) = self.custom_call(
                    block,
                    node,
                    scope,
                    constants,
                    location,
                    (namespace, op, overload),
                    &result_types,
                )?;
                OperationBuilder::new(&format!("{}{namespace}::{op}.{overload}", aten_ir::CUSTOM_PREFIX), location)
                    .add_operands(&operands)
                    .add_attributes(&attributes)
                    .add_regions([region])
                    .add_results(&result_types)
                    .build()
            }
            Target::HigherOrder(hop) => {
                let (operands, attributes, regions) = self.higher_order(block, node, scope, constants, location)?;
                OperationBuilder::new(&format!("{}{hop}", aten_ir::HOP_PREFIX), location)
                    .add_operands(&operands)
                    .add_attributes(&attributes)
                    .add_regions_vec(regions)
                    .add_results(&result_types)
                    .build()
            }
        };
        let op = built.map_err(|e| format!("cannot build the op: {e}"))?;
        Ok(block.append_operation(op))
    }

    /// The recorded strides and storage offset of the `self` operand of a
    /// `sym_stride` / `sym_storage_offset` / `sym_is_contiguous` node, as the
    /// discardable attributes `aten.self_strides` and `aten.self_storage_offset`
    /// (each element an `i64` or, when symbolic, the infix text of the
    /// expression; see docs/dialects.md). Nothing when the meta is missing.
    fn self_meta(&self, graph: &Graph, node: &Node) -> Vec<(Identifier<'c>, Attribute<'c>)> {
        let Some(meta) = node.inputs.iter().find(|i| i.name == "self").and_then(|i| match &i.arg {
            Argument::AsTensor(t) => graph.tensor_values.get(&t.name),
            _ => None,
        }) else {
            return Vec::new();
        };
        let value = |v: &aten2onnx_pt2::schema::SymInt| -> Attribute<'c> {
            match v {
                aten2onnx_pt2::schema::SymInt::AsInt(n) => {
                    melior::ir::attribute::IntegerAttribute::new(types::sym_int_type(self.context), *n).into()
                }
                aten2onnx_pt2::schema::SymInt::AsExpr(e) => self.string(&types::sym_expr_text(&e.expr_str)),
            }
        };
        let strides: Vec<Attribute> = meta.strides.iter().map(value).collect();
        vec![
            (self.id(aten_ir::SELF_STRIDES_ATTR), ArrayAttribute::new(self.context, &strides).into()),
            (self.id(aten_ir::SELF_STORAGE_OFFSET_ATTR), value(&meta.storage_offset)),
        ]
    }

    /// The output values of a node, flattened, in order.
    fn output_names(node: &Node) -> Vec<Option<(&str, &Argument)>> {
        let mut out = Vec::new();
        for output in &node.outputs {
            match output {
                Argument::AsTensors(list) => {
                    out.extend(list.iter().map(|t| Some((t.name.as_str(), output))));
                }
                Argument::AsTensor(t) => out.push(Some((t.name.as_str(), output))),
                Argument::AsSymInt(SymIntArgument::AsName(n))
                | Argument::AsSymFloat(SymFloatArgument::AsName(n))
                | Argument::AsSymBool(SymBoolArgument::AsName(n)) => out.push(Some((n.as_str(), output))),
                _ => out.push(None),
            }
        }
        out
    }

    /// `resultSegmentSizes` for an op whose schema returns two or more lists
    /// (`_fused_adam`): the flattened results alone do not tell which list an
    /// element belongs to (one list among other returns, as in
    /// `histogramdd`, takes the results the others leave; see
    /// `aten_ir::result_segments`). One count per output of the node.
    fn result_segment_sizes(schema: &aten2onnx_dialects::aten::OpSchema, node: &Node) -> Option<Vec<i32>> {
        let lists = schema.returns.iter().filter(|r| aten_ir::is_list_return(r)).count();
        if lists < 2 || node.outputs.len() != schema.returns.len() {
            return None;
        }
        Some(
            node.outputs
                .iter()
                .map(|output| match output {
                    Argument::AsTensors(list) => list.len() as i32,
                    _ => 1,
                })
                .collect(),
        )
    }

    fn result_types(&self, graph: &Graph, node: &Node) -> Result<Vec<Type<'c>>, Error> {
        Self::output_names(node)
            .into_iter()
            .map(|entry| match entry {
                Some((name, Argument::AsTensors(_))) => self.tensor_type(graph, name),
                Some((name, arg)) => self.value_type(graph, arg, name),
                // An output the program never uses (e.g. a discarded element
                // of a tuple) is typed `none`.
                None => Ok(Type::none(self.context)),
            })
            .collect()
    }

    fn bind_outputs<'b>(
        &self,
        _graph: &Graph,
        node: &Node,
        op: OperationRef<'c, 'b>,
        scope: &mut Scope<'c, 'b>,
    ) -> Result<(), Error> {
        for (i, entry) in Self::output_names(node).into_iter().enumerate() {
            if let Some((name, _)) = entry {
                let count = melior::ir::operation::OperationLike::result_count(&op);
                let value = aten2onnx_passes::ir::result_at(op, i)
                    .ok_or_else(|| self.error(format!("the node names output {i} but its op has {count} result(s)")))?;
                scope.insert(name.to_string(), value);
            }
        }
        Ok(())
    }

    /// Subgraph arguments become regions; every other argument an operand
    /// (tensors, symbolic scalars) or an attribute (static values), with
    /// `arg_names` and `operandSegmentSizes` recording which is which.
    #[allow(clippy::type_complexity)]
    fn higher_order<'b>(
        &self,
        block: &'b Block<'c>,
        node: &Node,
        scope: &Scope<'c, 'b>,
        constants: &HashMap<String, Argument>,
        location: Location<'c>,
    ) -> Result<(Vec<Value<'c, 'b>>, Vec<(Identifier<'c>, Attribute<'c>)>, Vec<Region<'c>>), String> {
        let mut operands = Vec::new();
        let mut segments = Vec::new();
        let mut names = Vec::new();
        let mut attributes = Vec::new();
        let mut regions = Vec::new();
        for (index, input) in node.inputs.iter().enumerate() {
            let name = match (input.name.is_empty(), hop_argument_name(node, index)) {
                (false, _) => input.name.clone(),
                (true, Some(known)) => known.to_string(),
                (true, None) => format!("arg{index}"),
            };
            if let Argument::AsGraph(subgraph) = &input.arg {
                regions.push(self.subgraph(&subgraph.graph).map_err(|e| e.to_string())?);
                continue;
            }
            let values = args::dynamic_values(self, block, &input.arg, scope, constants, location)?;
            match values {
                Some(values) => {
                    segments.push(values.len() as i32);
                    operands.extend(values);
                    names.push(self.string(&name));
                }
                None => {
                    let attr = args::static_attribute(self.context, &input.arg, None)?;
                    attributes.push((self.id(&name), attr));
                }
            }
        }
        attributes.push((self.id("arg_names"), ArrayAttribute::new(self.context, &names).into()));
        attributes.push((
            self.id(aten_ir::SEGMENTS_ATTR),
            melior::ir::attribute::DenseI32ArrayAttribute::new(self.context, &segments).into(),
        ));
        Ok((operands, attributes, regions))
    }

    /// A subgraph as a one-block region ending in `aten.yield`.
    fn subgraph(&self, graph: &Graph) -> Result<Region<'c>, Error> {
        let context = self.context;
        let mut arg_types = Vec::new();
        let mut arg_names = Vec::new();
        for input in &graph.inputs {
            let name = match input {
                Argument::AsTensor(t) => t.name.as_str(),
                Argument::AsSymInt(SymIntArgument::AsName(n)) => n.as_str(),
                other => return Err(self.error(format!("subgraph input {other:?} is not supported"))),
            };
            arg_types.push(self.value_type(graph, input, name)?);
            arg_names.push(name.to_string());
        }
        let block_args: Vec<(Type, Location)> = arg_types
            .iter()
            .zip(&arg_names)
            .map(|(t, n)| (*t, Location::name(context, n, Location::unknown(context))))
            .collect();
        let block = Block::new(&block_args);
        {
            let mut scope: Scope = HashMap::new();
            for (i, name) in arg_names.iter().enumerate() {
                scope.insert(name.clone(), block.argument(i).map_err(|e| self.error(e.to_string()))?.into());
            }
            self.nodes(&block, graph, &mut scope, &HashMap::new())?;
            let mut results = Vec::new();
            for output in &graph.outputs {
                results.extend(
                    args::dynamic_values(self, &block, output, &scope, &HashMap::new(), Location::unknown(context))
                        .map_err(|e| self.error(format!("subgraph output: {e}")))?
                        .ok_or_else(|| self.error(format!("subgraph output {output:?} is a constant")))?,
                );
            }
            let terminator = OperationBuilder::new(aten_ir::YIELD_OP, Location::unknown(context))
                .add_operands(&results)
                .build()
                .map_err(|e| self.error(e.to_string()))?;
            block.append_operation(terminator);
        }
        let region = Region::new();
        region.append_block(block);
        Ok(region)
    }

    /// Builds `func.return`: user outputs first, then mutations. Returns the
    /// result types and attributes.
    #[allow(clippy::type_complexity)]
    fn outputs<'b>(
        &self,
        block: &'b Block<'c>,
        graph: &Graph,
        signature: &aten2onnx_pt2::schema::GraphSignature,
        scope: &Scope<'c, 'b>,
    ) -> Result<(Vec<Type<'c>>, Vec<Attribute<'c>>), Error> {
        if signature.output_specs.len() != graph.outputs.len() {
            return Err(self.error(format!(
                "signature has {} output specs but the graph has {} outputs",
                signature.output_specs.len(),
                graph.outputs.len()
            )));
        }
        // What a mutation spec may name: the program's buffers, parameters
        // and user inputs.
        let mut buffers = std::collections::HashSet::new();
        let mut parameters = std::collections::HashSet::new();
        let mut user_inputs = std::collections::HashSet::new();
        for spec in &signature.input_specs {
            match spec {
                InputSpec::Buffer(b) => {
                    buffers.insert(b.buffer_name.as_str());
                }
                InputSpec::Parameter(p) => {
                    parameters.insert(p.parameter_name.as_str());
                }
                InputSpec::UserInput(_) => {
                    if let Some(name) = spec.arg_name() {
                        user_inputs.insert(name);
                    }
                }
                _ => {}
            }
        }
        let mut user = Vec::new();
        let mut mutations = Vec::new();
        for (spec, output) in signature.output_specs.iter().zip(&graph.outputs) {
            if matches!(spec, OutputSpec::Token(_)) {
                continue;
            }
            let unknown = match spec {
                OutputSpec::BufferMutation(m) if !buffers.contains(m.buffer_name.as_str()) => {
                    Some(("buffer", &m.buffer_name))
                }
                OutputSpec::ParameterMutation(m) if !parameters.contains(m.parameter_name.as_str()) => {
                    Some(("parameter", &m.parameter_name))
                }
                OutputSpec::UserInputMutation(m) if !user_inputs.contains(m.user_input_name.as_str()) => {
                    Some(("user input", &m.user_input_name))
                }
                _ => None,
            };
            if let Some((what, name)) = unknown {
                return Err(self.error(format!(
                    "output spec '{}' mutates {what} '{name}', which is not a {what} of the program's input specs",
                    spec.tag()
                )));
            }
            let (kind, target) = match spec {
                OutputSpec::UserOutput(_) | OutputSpec::LossOutput(_) => (spec.tag(), None),
                OutputSpec::BufferMutation(m) => (spec.tag(), Some(m.buffer_name.clone())),
                OutputSpec::UserInputMutation(m) => (spec.tag(), Some(m.user_input_name.clone())),
                OutputSpec::ParameterMutation(m) => (spec.tag(), Some(m.parameter_name.clone())),
                other => {
                    return Err(
                        self.error(format!("output kind '{}' is not supported (inference graphs only)", other.tag()))
                    );
                }
            };
            let name = match output {
                Argument::AsTensor(t) => t.name.clone(),
                Argument::AsSymInt(SymIntArgument::AsName(n)) => n.clone(),
                other => {
                    return Err(self.error(format!(
                        "output #{} is {other:?}: only tensors and symbolic ints can be outputs",
                        user.len() + mutations.len()
                    )));
                }
            };
            let value =
                *scope.get(&name).ok_or_else(|| self.error(format!("output '{name}' is not defined by the graph")))?;
            // The spec must name the graph's output: a spec naming another
            // value (or one no node defines) says a different program.
            if let Some(spec_name) = spec.arg_name().filter(|n| *n != name) {
                let defined = if scope.contains_key(spec_name) { "another value" } else { "a value no node defines" };
                return Err(self.error(format!(
                    "output spec #{} ('{}') names '{spec_name}' ({defined}), but the graph's output there is '{name}'",
                    user.len() + mutations.len(),
                    spec.tag()
                )));
            }
            let entry = (value, name, kind, target);
            if entry.3.is_some() {
                mutations.push(entry)
            } else {
                user.push(entry)
            }
        }
        let mut values = Vec::new();
        let mut types = Vec::new();
        let mut attrs = Vec::new();
        for (value, name, kind, target) in user.into_iter().chain(mutations) {
            values.push(value);
            types.push(value.r#type());
            let mut entries =
                vec![(self.id("aten.name"), self.string(&name)), (self.id("aten.kind"), self.string(kind))];
            if let Some(target) = target {
                entries.push((self.id("aten.target"), self.string(&target)));
            }
            attrs.push(DictionaryAttribute::new(self.context, &entries).into());
        }
        let ret = OperationBuilder::new("func.return", Location::unknown(self.context))
            .add_operands(&values)
            .build()
            .map_err(|e| self.error(e.to_string()))?;
        block.append_operation(ret);
        Ok((types, attrs))
    }
}

use melior::ir::ValueLike;

#[cfg(test)]
mod tests {
    use super::*;

    fn node(json: &str) -> Node {
        serde_json::from_str(json).expect("a node")
    }

    #[test]
    fn positional_arguments_renamed_by_a_newer_torch_take_the_pinned_names() {
        // torch 2.15 writes `_cdist_backward(grad_output, ...)`; the 2.13
        // schema calls the first argument `grad`.
        let renamed = substitute(&node(
            r#"{"target": "torch.ops.aten._cdist_backward.default", "outputs": [],
                "inputs": [
                  {"name": "grad_output", "arg": {"as_tensor": {"name": "g"}}, "kind": 1},
                  {"name": "x1", "arg": {"as_tensor": {"name": "a"}}, "kind": 1},
                  {"name": "x2", "arg": {"as_tensor": {"name": "b"}}, "kind": 1},
                  {"name": "p", "arg": {"as_float": 2.0}, "kind": 1},
                  {"name": "cdist", "arg": {"as_tensor": {"name": "c"}}, "kind": 1}]}"#,
        ))
        .unwrap()
        .expect("renamed");
        let names: Vec<&str> = renamed.inputs.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(names, ["grad", "x1", "x2", "p", "cdist"]);
    }

    #[test]
    fn keyword_and_unknown_arguments_keep_their_names() {
        // A keyword argument cannot be placed by position: it stays, and the
        // importer reports it as not in the schema.
        let keyword = node(
            r#"{"target": "torch.ops.aten._cdist_backward.default", "outputs": [],
                "inputs": [{"name": "grad_output", "arg": {"as_tensor": {"name": "g"}}, "kind": 2}]}"#,
        );
        assert!(substitute(&keyword).unwrap().is_none());
        // Serializations without `kind` (older torch) are matched by name only.
        let no_kind = node(
            r#"{"target": "torch.ops.aten._cdist_backward.default", "outputs": [],
                "inputs": [{"name": "grad_output", "arg": {"as_tensor": {"name": "g"}}}]}"#,
        );
        assert!(substitute(&no_kind).unwrap().is_none());
        // Names the schema knows are never touched.
        let known = node(
            r#"{"target": "torch.ops.aten.add.Tensor", "outputs": [],
                "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "x"}}, "kind": 1},
                           {"name": "other", "arg": {"as_tensor": {"name": "y"}}, "kind": 1}]}"#,
        );
        assert!(substitute(&known).unwrap().is_none());
    }
}
