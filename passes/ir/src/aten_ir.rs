//! Conventions of the `aten` dialect in MLIR (see docs/dialects.md).
//!
//! An op `aten.<name>.<overload>` mirrors one ATen overload of the registry.
//! Each schema argument is carried in exactly one way:
//! - **operands**: tensors (`Tensor`, `Tensor?`), tensor lists (`Tensor[]`,
//!   `Tensor?[]`, where a missing element is a `none` value from `aten.none`),
//!   and symbolic scalars or lists holding symbolic scalars (`SymInt` values
//!   computed in the graph, type `i64`; `SymFloat` `f64`; `SymBool` `i1`);
//! - **an attribute named after the argument**: every static value (ints as
//!   `i64`, floats as `f64`, bools, strings, int lists as `array<i64>`, float
//!   lists as `array<f64>`, bool lists as `array<i1>`, dtypes as types,
//!   layout / memory format / device as strings);
//! - **absent**: `None` for an optional argument.
//!
//! Without an `operandSegmentSizes` attribute, every argument that has no
//! attribute takes exactly one operand, in schema order, except that when
//! the op has exactly as many operands as non-attribute *required* arguments,
//! the optional ones are absent (`linear(x, w)` with no bias). When neither
//! holds (a tensor list, some of several optional tensors), `operandSegmentSizes`
//! gives the operand count of every schema argument.

use crate::ir::{self, dense_i32_values};
use aten2onnx_dialects::aten::{self as registry, ArgType, OpSchema};
use melior::ir::{operation::OperationLike, Attribute, OperationRef, Value};
use std::ops::Range;

pub const DIALECT_PREFIX: &str = "aten.";
/// `%w = "aten.weight"() {name = "fc.weight", kind = "parameter"}`: a
/// parameter, buffer or constant tensor of the program. Its bytes stay in the
/// archive named by the module's `aten.archive` attribute.
pub const WEIGHT_OP: &str = "aten.weight";
/// Attribute naming the weight (its fully qualified name in the archive).
pub const WEIGHT_NAME_ATTR: &str = "name";
/// `parameter`, `buffer` or `constant`.
pub const WEIGHT_KIND_ATTR: &str = "kind";
pub const WEIGHT_KINDS: &[&str] = &["parameter", "buffer", "constant"];
/// Optional attribute of a buffer the program does not mutate, or of a
/// tensor constant, of at most [`MAX_WEIGHT_VALUE_ELEMENTS`] elements: its
/// values (a dense elements attribute of the weight's shape), copied to the
/// `onnx.initializer` for the optimizer to read (the bytes written are still
/// the archive's).
pub const WEIGHT_VALUE_ATTR: &str = "value";
/// The largest weight whose values are attached ([`WEIGHT_VALUE_ATTR`]).
pub const MAX_WEIGHT_VALUE_ELEMENTS: usize = 1024;
/// `%n = "aten.none"() : () -> none`: a missing element of a `Tensor?[]`.
pub const NONE_OP: &str = "aten.none";
/// Symbolic-scalar ops (`_operator.*`, `torch.sym_*`): `aten.sym.<name>`.
pub const SYM_PREFIX: &str = "aten.sym.";
/// `%c = "aten.sym.constant"() {value = 4 : i64} : () -> i64`: a static
/// element of a list that also holds symbolic values.
pub const SYM_CONSTANT_OP: &str = "aten.sym.constant";
/// Higher-order ops (`torch.ops.higher_order.<name>`): `aten.hop.<name>`,
/// their subgraphs as regions terminated by `aten.yield`.
pub const HOP_PREFIX: &str = "aten.hop.";
pub const YIELD_OP: &str = "aten.yield";
/// Calls of custom ops (`torch.library` ops outside ATen):
/// `aten.custom.<namespace>::<op>.<overload>`, tensor arguments as operands,
/// static ones as attributes (`arg_names` lists every argument in call
/// order), and one region: the op's ONNX translation instantiated for this
/// call, in the onnx dialect, ending in `onnx.yield` (the lowering inlines
/// it; see `aten2onnx::custom_ops`).
pub const CUSTOM_PREFIX: &str = "aten.custom.";
/// The `domain::name` of the function a custom call was instantiated from.
pub const CUSTOM_TRANSLATION_ATTR: &str = "aten.translation";
/// The names of a custom call's arguments that are its operands, in order.
pub const CUSTOM_OPERANDS_ATTR: &str = "aten.operand_args";
/// Per-argument operand counts, when the default layout does not hold.
pub const SEGMENTS_ATTR: &str = "operandSegmentSizes";
/// Per-return result counts, when the default layout of results does not
/// hold (see [`result_segments`]).
pub const RESULT_SEGMENTS_ATTR: &str = "resultSegmentSizes";
/// Ops asking for the memory layout of their `self` operand, which the
/// aten dialect's tensor types do not carry: the importer attaches the
/// capture's recorded strides and storage offset of `self` to them
/// ([`SELF_STRIDES_ATTR`], [`SELF_STORAGE_OFFSET_ATTR`]; docs/dialects.md).
pub const META_QUERY_OPS: &[&str] = &["sym_stride", "sym_storage_offset", "sym_is_contiguous"];
/// `array<...>` of the recorded strides of `self`: an `i64` per static
/// stride, the infix text of the expression (`"4*s1"`) per symbolic one.
pub const SELF_STRIDES_ATTR: &str = "aten.self_strides";
/// The recorded storage offset of `self`: an `i64` or an expression's text.
pub const SELF_STORAGE_OFFSET_ATTR: &str = "aten.self_storage_offset";
/// Module attribute: path of the `.pt2` archive holding the weights.
pub const ARCHIVE_ATTR: &str = "aten.archive";

/// What an `aten.*` op name refers to.
#[derive(Clone, Copy, Debug)]
pub enum AtenOp {
    /// An overload of the generated registry.
    Registered(&'static OpSchema),
    Weight,
    None,
    SymConstant,
    /// `aten.sym.<name>` from the hand-written symbolic-op table.
    Sym(&'static aten2onnx_dialects::sym::SymOp),
    /// `aten.hop.<name>`.
    HigherOrder,
    Yield,
    /// `aten.custom.<namespace>::<op>.<overload>`.
    Custom,
}

/// Splits `aten.add.Tensor` into (`add`, `Tensor`).
pub fn split_name(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix(DIALECT_PREFIX)?;
    let (op, overload) = rest.rsplit_once('.')?;
    if op.is_empty() || overload.is_empty() || op.contains('.') {
        return None;
    }
    Some((op, overload))
}

/// Classifies an op name of the aten dialect; `Err` explains an unknown one.
pub fn classify(name: &str) -> Result<AtenOp, String> {
    match name {
        WEIGHT_OP => return Ok(AtenOp::Weight),
        NONE_OP => return Ok(AtenOp::None),
        SYM_CONSTANT_OP => return Ok(AtenOp::SymConstant),
        YIELD_OP => return Ok(AtenOp::Yield),
        _ => {}
    }
    if let Some(sym) = name.strip_prefix(SYM_PREFIX) {
        return aten2onnx_dialects::sym::all()
            .iter()
            .find(|s| s.op == name)
            .map(AtenOp::Sym)
            .ok_or_else(|| format!("unknown symbolic op 'sym.{sym}'"));
    }
    if name.starts_with(HOP_PREFIX) {
        return Ok(AtenOp::HigherOrder);
    }
    if name.starts_with(CUSTOM_PREFIX) {
        return Ok(AtenOp::Custom);
    }
    let Some((op, overload)) = split_name(name) else {
        return Err("is not an aten op name: expected 'aten.<op>.<overload>'".to_string());
    };
    if let Some(schema) = registry::lookup(op, overload) {
        return Ok(AtenOp::Registered(schema));
    }
    let others: Vec<String> = registry::overloads(op).iter().map(|s| s.overload_name().to_string()).collect();
    Err(if others.is_empty() {
        format!("is not in the aten registry (torch {}): no op named '{op}'", registry::TORCH_VERSION)
    } else {
        format!(
            "is not in the aten registry (torch {}): '{op}' has no overload '{overload}' (overloads: {})",
            registry::TORCH_VERSION,
            others.join(", ")
        )
    })
}

/// How one schema argument is carried by an op.
#[derive(Clone, Debug)]
pub enum Slot<'c> {
    Operands(Range<usize>),
    Attribute(Attribute<'c>),
    Absent,
}

/// True for argument types whose values are always operands.
pub fn is_tensor_type(ty: &ArgType) -> bool {
    match ty {
        ArgType::Tensor => true,
        ArgType::Optional(inner) => is_tensor_type(inner),
        ArgType::List { elem, .. } => is_tensor_type(elem),
        _ => false,
    }
}

/// Resolves how each argument of `schema` is carried by `op`.
pub fn layout<'c>(op: OperationRef<'c, '_>, schema: &OpSchema) -> Result<Vec<Slot<'c>>, String> {
    let operand_count = op.operand_count();
    let mut slots = Vec::with_capacity(schema.arguments.len());
    if let Ok(attr) = op.attribute(SEGMENTS_ATTR) {
        let sizes = dense_i32_values(attr).ok_or_else(|| format!("'{SEGMENTS_ATTR}' must be an array<i32>"))?;
        if sizes.len() != schema.arguments.len() {
            return Err(format!(
                "'{SEGMENTS_ATTR}' has {} entries but the schema has {} arguments",
                sizes.len(),
                schema.arguments.len()
            ));
        }
        let mut next = 0usize;
        for (arg, &size) in schema.arguments.iter().zip(&sizes) {
            if size < 0 {
                return Err(format!("'{SEGMENTS_ATTR}' entry for '{}' is negative", arg.name));
            }
            let attr = op.attribute(arg.name).ok();
            slots.push(match (size, attr) {
                (0, Some(attr)) => Slot::Attribute(attr),
                (0, None) => Slot::Absent,
                (_, Some(_)) => {
                    return Err(format!("argument '{}' is given both as operands and as an attribute", arg.name))
                }
                (n, None) => {
                    let range = next..next + n as usize;
                    next += n as usize;
                    Slot::Operands(range)
                }
            });
        }
        if next != operand_count {
            return Err(format!("'{SEGMENTS_ATTR}' accounts for {next} operands but the op has {operand_count}"));
        }
    } else {
        let attrs: Vec<Option<Attribute<'c>>> = schema.arguments.iter().map(|a| op.attribute(a.name).ok()).collect();
        let is_optional = |a: &registry::Argument| matches!(ArgType::parse_static(a.ty), ArgType::Optional(_));
        let required = schema.arguments.iter().zip(&attrs).filter(|(a, at)| at.is_none() && !is_optional(a)).count();
        let all = attrs.iter().filter(|a| a.is_none()).count();
        // One operand per non-attribute argument, or only the required ones.
        let optional_absent = operand_count != all && operand_count == required;
        let mut next = 0usize;
        for (arg, attr) in schema.arguments.iter().zip(attrs) {
            slots.push(match attr {
                Some(attr) => Slot::Attribute(attr),
                None if optional_absent && is_optional(arg) => Slot::Absent,
                None => {
                    next += 1;
                    Slot::Operands(next - 1..next)
                }
            });
        }
        if next != operand_count {
            let expected: Vec<_> = schema
                .arguments
                .iter()
                .zip(&slots)
                .filter(|(_, s)| matches!(s, Slot::Operands(_)))
                .map(|(a, _)| a.name)
                .collect();
            return Err(format!(
                "has {operand_count} operands but expects {next} ({}); arguments given as attributes: the rest. \
                 Use '{SEGMENTS_ATTR}' for lists and absent tensors",
                expected.join(", ")
            ));
        }
    }
    Ok(slots)
}

/// True when a schema return is a list (`Tensor[]`): the importer flattens
/// it into one result per element.
pub fn is_list_return(ret: &registry::Return) -> bool {
    matches!(ArgType::parse_static(ret.ty), ArgType::List { .. })
}

/// The results of `op` that carry each return of `schema`, in order. The
/// importer flattens a `Tensor[]` return into one result per element, so
/// without [`RESULT_SEGMENTS_ATTR`] each return is one result except a single
/// list return, which takes what the others leave (`split` returns only a
/// list; `histogramdd` returns `(Tensor hist, Tensor[] bin_edges)`: result 0
/// and results 1..). With two or more list returns (`_fused_adam`) the counts
/// are ambiguous and `resultSegmentSizes = array<i32: ...>` gives the result
/// count of every return (1 for a non-list one).
pub fn result_segments(op: OperationRef<'_, '_>, schema: &OpSchema) -> Result<Vec<Range<usize>>, String> {
    let count = op.result_count();
    let returns = schema.returns;
    let sizes: Vec<usize> = if let Ok(attr) = op.attribute(RESULT_SEGMENTS_ATTR) {
        let sizes = dense_i32_values(attr).ok_or_else(|| format!("'{RESULT_SEGMENTS_ATTR}' must be an array<i32>"))?;
        if sizes.len() != returns.len() {
            return Err(format!(
                "'{RESULT_SEGMENTS_ATTR}' has {} entries but the schema returns {}",
                sizes.len(),
                returns.len()
            ));
        }
        let mut out = Vec::with_capacity(sizes.len());
        for (i, (ret, &size)) in returns.iter().zip(&sizes).enumerate() {
            if size < 0 || (!is_list_return(ret) && size != 1) {
                return Err(format!(
                    "'{RESULT_SEGMENTS_ATTR}' entry #{i} is {size}, but return #{i} ({}) {}",
                    ret.ty,
                    if is_list_return(ret) { "cannot be negative" } else { "is one result" }
                ));
            }
            out.push(size as usize);
        }
        let total: usize = out.iter().sum();
        if total != count {
            return Err(format!("'{RESULT_SEGMENTS_ATTR}' accounts for {total} results but the op has {count}"));
        }
        out
    } else {
        let lists = returns.iter().filter(|r| is_list_return(r)).count();
        match lists {
            0 if count != returns.len() => {
                return Err(format!("has {count} results but the schema returns {}", returns.len()))
            }
            0 => vec![1; returns.len()],
            1 if count + 1 < returns.len() => {
                return Err(format!(
                    "has {count} results but the schema returns {} (one of them a list of any length)",
                    returns.len()
                ))
            }
            1 => returns.iter().map(|r| if is_list_return(r) { count + 1 - returns.len() } else { 1 }).collect(),
            _ => {
                return Err(format!(
                    "returns {lists} lists, so '{RESULT_SEGMENTS_ATTR}' must give the result count of each return"
                ))
            }
        }
    };
    let mut next = 0;
    Ok(sizes
        .into_iter()
        .map(|n| {
            next += n;
            next - n..next
        })
        .collect())
}

/// How a builder placed one argument: its operand count, whether it has an
/// attribute, and whether its type is optional.
#[derive(Clone, Copy, Debug)]
pub struct Placement {
    pub operands: usize,
    pub has_attribute: bool,
    pub optional: bool,
}

/// The `operandSegmentSizes` a builder must attach, or `None` when one of the
/// implicit layouts of [`layout`] describes the op.
pub fn segments_if_needed(placements: &[Placement]) -> Option<Vec<i32>> {
    let attr_ok = placements.iter().all(|p| !p.has_attribute || p.operands == 0);
    let one_each = placements.iter().all(|p| p.has_attribute || p.operands == 1);
    let required_only =
        placements.iter().all(|p| p.has_attribute || if p.optional { p.operands == 0 } else { p.operands == 1 });
    let implicit = attr_ok && (one_each || required_only);
    (!implicit).then(|| placements.iter().map(|p| p.operands as i32).collect())
}

/// The values of an argument carried as operands.
pub fn operands_of<'c, 'a>(op: OperationRef<'c, 'a>, range: &Range<usize>) -> Vec<Value<'c, 'a>> {
    range.clone().filter_map(|i| ir::operand_at(op, i)).collect()
}

/// Reads the weight name of an `aten.weight` op.
pub fn weight_name(op: OperationRef<'_, '_>) -> Option<String> {
    op.attribute(WEIGHT_NAME_ATTR).ok().and_then(ir::string_value)
}

/// An argument value for [`build_op`].
#[derive(Clone, Debug)]
pub enum ArgValue<'c, 'a> {
    Operands(Vec<Value<'c, 'a>>),
    Attribute(Attribute<'c>),
    Absent,
}

/// The arguments of an existing op, by schema argument name.
pub fn arg_values<'c, 'a>(
    op: OperationRef<'c, 'a>,
    schema: &OpSchema,
) -> Result<Vec<(&'static str, ArgValue<'c, 'a>)>, String> {
    let slots = layout(op, schema)?;
    Ok(schema
        .arguments
        .iter()
        .zip(slots)
        .map(|(arg, slot)| {
            let value = match slot {
                Slot::Operands(range) => ArgValue::Operands(operands_of(op, &range)),
                Slot::Attribute(a) => ArgValue::Attribute(a),
                Slot::Absent => ArgValue::Absent,
            };
            (arg.name, value)
        })
        .collect())
}

/// Builds (unattached) `aten.<schema>` from arguments looked up by name with
/// `get` (missing names are absent), adding `operandSegmentSizes` only when
/// needed.
pub fn build_op<'c, 'a>(
    context: &'c melior::Context,
    schema: &OpSchema,
    get: &dyn Fn(&str) -> ArgValue<'c, 'a>,
    result_types: &[melior::ir::Type<'c>],
    location: melior::ir::Location<'c>,
) -> Result<melior::ir::Operation<'c>, String> {
    use melior::ir::{attribute::DenseI32ArrayAttribute, operation::OperationBuilder, Identifier};
    let mut operands = Vec::new();
    let mut attributes = Vec::new();
    let mut placements = Vec::new();
    for arg in schema.arguments {
        let optional = matches!(ArgType::parse(arg.ty), ArgType::Optional(_));
        let (count, has_attribute) = match get(arg.name) {
            ArgValue::Operands(values) => {
                let n = values.len();
                operands.extend(values);
                (n, false)
            }
            ArgValue::Attribute(attr) => {
                attributes.push((Identifier::new(context, arg.name), attr));
                (0, true)
            }
            ArgValue::Absent => (0, false),
        };
        placements.push(Placement { operands: count, has_attribute, optional });
    }
    if let Some(segments) = segments_if_needed(&placements) {
        attributes
            .push((Identifier::new(context, SEGMENTS_ATTR), DenseI32ArrayAttribute::new(context, &segments).into()));
    }
    OperationBuilder::new(&schema.dialect_name(), location)
        .add_operands(&operands)
        .add_attributes(&attributes)
        .add_results(result_types)
        .build()
        .map_err(|e| format!("cannot build {}: {e}", schema.target_name()))
}
