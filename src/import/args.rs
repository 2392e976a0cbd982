//! Node arguments to operands and attributes (the layout is documented in
//! `aten2onnx_passes::aten_ir`).

use super::{types, Importer, Scope};
use aten2onnx_dialects::aten::{ArgType, DefaultValue, OpSchema};
use aten2onnx_passes::aten_ir;
use aten2onnx_pt2::schema::{
    Argument, ConstantValue, Layout, MemoryFormat, Node, OptionalTensorArgument, SymBoolArgument, SymFloatArgument,
    SymIntArgument,
};
use melior::ir::{
    attribute::AttributeLike,
    attribute::{
        ArrayAttribute, BoolAttribute, DenseI32ArrayAttribute, DenseI64ArrayAttribute, FloatAttribute,
        IntegerAttribute, StringAttribute, TypeAttribute,
    },
    operation::OperationBuilder,
    r#type::IntegerType,
    Attribute, Block, BlockLike, Identifier, Location, Type, Value,
};
use mlir_sys as sys;
use std::collections::HashMap;

type Attrs<'c> = Vec<(Identifier<'c>, Attribute<'c>)>;

/// A `constant_input` of the signature as the argument it stands for.
pub fn constant_argument(value: &ConstantValue) -> Argument {
    match value {
        ConstantValue::AsNone(b) => Argument::AsNone(*b),
        ConstantValue::AsInt(i) => Argument::AsInt(*i),
        ConstantValue::AsFloat(f) => Argument::AsFloat(*f),
        ConstantValue::AsString(s) => Argument::AsString(s.clone()),
        ConstantValue::AsBool(b) => Argument::AsBool(*b),
    }
}

/// Operands and attributes of an ATen node, following its schema; omitted
/// arguments take the schema's default.
pub(crate) fn aten_arguments<'c, 'b>(
    importer: &Importer<'c, '_>,
    block: &'b Block<'c>,
    schema: &OpSchema,
    node: &Node,
    scope: &Scope<'c, 'b>,
    constants: &HashMap<String, Argument>,
    location: Location<'c>,
) -> Result<(Vec<Value<'c, 'b>>, Attrs<'c>), String> {
    for (i, input) in node.inputs.iter().enumerate() {
        if !schema.arguments.iter().any(|a| a.name == input.name) {
            return Err(format!("argument '{}' is not in the schema {}", input.name, schema));
        }
        if node.inputs[..i].iter().any(|earlier| earlier.name == input.name) {
            return Err(format!("argument '{}' is given twice (schema {})", input.name, schema));
        }
    }
    let mut operands = Vec::new();
    let mut attributes = Vec::new();
    let mut per_arg = Vec::with_capacity(schema.arguments.len());
    for arg in schema.arguments {
        let ty = ArgType::parse(arg.ty);
        let given = node.inputs.iter().find(|i| i.name == arg.name).map(|i| &i.arg);
        let context = |e: String| format!("argument '{}' ({}): {e}", arg.name, arg.ty);
        let (count, attribute) = match given {
            Some(value) => match dynamic_values(importer, block, value, scope, constants, location).map_err(context)? {
                // A symbolic number passed for a Tensor argument (`x / x.shape[0]`)
                // becomes a 0-d tensor, which promotes like the number would.
                Some(values) if is_symbolic_scalar(value) && matches!(ty, ArgType::Tensor) => {
                    operands.push(scalar_tensor(importer, block, values[0], value, location).map_err(context)?);
                    (1, None)
                }
                Some(values) => {
                    let n = values.len();
                    operands.extend(values);
                    (n, None)
                }
                None => (
                    0,
                    static_attribute(importer.context, value, Some(&ty)).map(Some).or_else(|e| {
                        if matches!(value, Argument::AsNone(_)) {
                            Ok(None)
                        } else {
                            Err(context(e))
                        }
                    })?,
                ),
            },
            None => match &arg.default {
                Some(default) => (0, default_attribute(importer.context, default, &ty).map_err(context)?),
                None => return Err(format!("required argument '{}' is missing", arg.name)),
            },
        };
        per_arg.push(aten_ir::Placement {
            operands: count,
            has_attribute: attribute.is_some(),
            optional: matches!(ty, ArgType::Optional(_)),
        });
        if let Some(attribute) = attribute {
            attributes.push((importer.id(arg.name), attribute));
        }
    }
    if let Some(segments) = aten_ir::segments_if_needed(&per_arg) {
        attributes.push((
            importer.id(aten_ir::SEGMENTS_ATTR),
            DenseI32ArrayAttribute::new(importer.context, &segments).into(),
        ));
    }
    Ok((operands, attributes))
}

fn is_symbolic_scalar(arg: &Argument) -> bool {
    matches!(
        arg,
        Argument::AsSymInt(SymIntArgument::AsName(_))
            | Argument::AsSymFloat(SymFloatArgument::AsName(_))
            | Argument::AsSymBool(SymBoolArgument::AsName(_))
    )
}

/// `aten.scalar_tensor.default(s) {dtype}`: int64 for SymInt, float64 for
/// SymFloat, bool for SymBool.
fn scalar_tensor<'c, 'b>(
    importer: &Importer<'c, '_>,
    block: &'b Block<'c>,
    value: Value<'c, 'b>,
    arg: &Argument,
    location: Location<'c>,
) -> Result<Value<'c, 'b>, String> {
    let schema = aten2onnx_dialects::aten::lookup("scalar_tensor", "").ok_or("registry has no scalar_tensor")?;
    let dtype = match arg {
        Argument::AsSymFloat(_) => aten2onnx_pt2::schema::ScalarType::Double,
        Argument::AsSymBool(_) => aten2onnx_pt2::schema::ScalarType::Bool,
        _ => aten2onnx_pt2::schema::ScalarType::Long,
    };
    let element = types::element_type(importer.context, dtype)?;
    let dtype_attr = dtype_attr(importer.context, dtype)?;
    let get = |name: &str| match name {
        "s" => aten_ir::ArgValue::Operands(vec![value]),
        "dtype" => aten_ir::ArgValue::Attribute(dtype_attr),
        _ => aten_ir::ArgValue::Absent,
    };
    let ty = melior::ir::r#type::RankedTensorType::new(&[], element, None).into();
    let op = aten_ir::build_op(importer.context, schema, &get, &[ty], location)?;
    aten2onnx_passes::ir::result_at(block.append_operation(op), 0)
        .ok_or_else(|| "an op built without a result".to_string())
}

/// Operands of a symbolic-scalar node (`_operator.mul(a, 2)`): static values
/// become `aten.sym.constant`.
pub(crate) fn sym_operands<'c, 'b>(
    importer: &Importer<'c, '_>,
    block: &'b Block<'c>,
    node: &Node,
    scope: &Scope<'c, 'b>,
    location: Location<'c>,
) -> Result<Vec<Value<'c, 'b>>, String> {
    let mut out = Vec::new();
    for input in &node.inputs {
        match dynamic_values(importer, block, &input.arg, scope, &HashMap::new(), location)? {
            Some(values) => out.extend(values),
            None => {
                let attr = static_attribute(importer.context, &input.arg, None)?;
                out.push(sym_constant(importer, block, attr, location)?);
            }
        }
    }
    Ok(out)
}

fn sym_constant<'c, 'b>(
    importer: &Importer<'c, '_>,
    block: &'b Block<'c>,
    value: Attribute<'c>,
    location: Location<'c>,
) -> Result<Value<'c, 'b>, String> {
    // i64 for ints, f64 for floats, i1 for bools: the attribute's own type.
    let ty = value.r#type();
    let op = OperationBuilder::new(aten_ir::SYM_CONSTANT_OP, location)
        .add_attributes(&[(importer.id("value"), value)])
        .add_results(&[ty])
        .build()
        .map_err(|e| e.to_string())?;
    aten2onnx_passes::ir::result_at(block.append_operation(op), 0)
        .ok_or_else(|| "an op built without a result".to_string())
}

/// `%n = "aten.none"()`, for a missing element of a `Tensor?[]`.
fn none_value<'c, 'b>(
    importer: &Importer<'c, '_>,
    block: &'b Block<'c>,
    location: Location<'c>,
) -> Result<Value<'c, 'b>, String> {
    let op = OperationBuilder::new(aten_ir::NONE_OP, location)
        .add_results(&[Type::none(importer.context)])
        .build()
        .map_err(|e| e.to_string())?;
    aten2onnx_passes::ir::result_at(block.append_operation(op), 0)
        .ok_or_else(|| "an op built without a result".to_string())
}

/// The operands of an argument that carries graph values (tensors, symbolic
/// scalars, lists holding any); `None` when the argument is static.
pub(crate) fn dynamic_values<'c, 'b>(
    importer: &Importer<'c, '_>,
    block: &'b Block<'c>,
    arg: &Argument,
    scope: &Scope<'c, 'b>,
    constants: &HashMap<String, Argument>,
    location: Location<'c>,
) -> Result<Option<Vec<Value<'c, 'b>>>, String> {
    let lookup = |name: &str| -> Result<Value<'c, 'b>, String> {
        scope.get(name).copied().ok_or_else(|| format!("value '{name}' is used before it is defined"))
    };
    Ok(Some(match arg {
        Argument::AsTensor(t) => {
            if let Some(constant) = constants.get(&t.name) {
                return dynamic_values(importer, block, constant, scope, &HashMap::new(), location);
            }
            vec![lookup(&t.name)?]
        }
        Argument::AsTensors(list) => list.iter().map(|t| lookup(&t.name)).collect::<Result<_, _>>()?,
        Argument::AsOptionalTensor(OptionalTensorArgument::AsTensor(t)) => vec![lookup(&t.name)?],
        Argument::AsOptionalTensors(list) => {
            let mut values = Vec::new();
            for item in list {
                values.push(match item {
                    OptionalTensorArgument::AsTensor(t) => lookup(&t.name)?,
                    OptionalTensorArgument::AsNone(_) => none_value(importer, block, location)?,
                });
            }
            values
        }
        Argument::AsSymInt(SymIntArgument::AsName(n))
        | Argument::AsSymFloat(SymFloatArgument::AsName(n))
        | Argument::AsSymBool(SymBoolArgument::AsName(n)) => vec![lookup(n)?],
        Argument::AsSymInts(list) if list.iter().any(|e| matches!(e, SymIntArgument::AsName(_))) => {
            let mut values = Vec::new();
            for item in list {
                values.push(match item {
                    SymIntArgument::AsName(n) => lookup(n)?,
                    SymIntArgument::AsInt(i) => {
                        sym_constant(importer, block, int_attr(importer.context, *i), location)?
                    }
                });
            }
            values
        }
        Argument::AsSymFloats(list) if list.iter().any(|e| matches!(e, SymFloatArgument::AsName(_))) => {
            let mut values = Vec::new();
            for item in list {
                values.push(match item {
                    SymFloatArgument::AsName(n) => lookup(n)?,
                    SymFloatArgument::AsFloat(f) => {
                        sym_constant(importer, block, float_attr(importer.context, *f), location)?
                    }
                });
            }
            values
        }
        Argument::AsSymBools(list) if list.iter().any(|e| matches!(e, SymBoolArgument::AsName(_))) => {
            let mut values = Vec::new();
            for item in list {
                values.push(match item {
                    SymBoolArgument::AsName(n) => lookup(n)?,
                    SymBoolArgument::AsBool(b) => {
                        sym_constant(importer, block, BoolAttribute::new(importer.context, *b).into(), location)?
                    }
                });
            }
            values
        }
        _ => return Ok(None),
    }))
}

fn int_attr<'c>(ctx: &'c melior::Context, value: i64) -> Attribute<'c> {
    IntegerAttribute::new(IntegerType::new(ctx, 64).into(), value).into()
}

fn float_attr<'c>(ctx: &'c melior::Context, value: f64) -> Attribute<'c> {
    FloatAttribute::new(ctx, Type::float64(ctx), value).into()
}

fn f64_array<'c>(ctx: &'c melior::Context, values: &[f64]) -> Attribute<'c> {
    unsafe { Attribute::from_raw(sys::mlirDenseF64ArrayGet(ctx.to_raw(), values.len() as isize, values.as_ptr())) }
}

fn bool_array<'c>(ctx: &'c melior::Context, values: &[bool]) -> Attribute<'c> {
    let ints: Vec<std::ffi::c_int> = values.iter().map(|&b| b as std::ffi::c_int).collect();
    unsafe { Attribute::from_raw(sys::mlirDenseBoolArrayGet(ctx.to_raw(), ints.len() as isize, ints.as_ptr())) }
}

fn string_array<'c>(ctx: &'c melior::Context, values: &[String]) -> Attribute<'c> {
    let items: Vec<Attribute> = values.iter().map(|s| StringAttribute::new(ctx, s).into()).collect();
    ArrayAttribute::new(ctx, &items).into()
}

fn dtype_attr<'c>(ctx: &'c melior::Context, dtype: aten2onnx_pt2::schema::ScalarType) -> Result<Attribute<'c>, String> {
    Ok(TypeAttribute::new(types::element_type(ctx, dtype)?).into())
}

fn expected_float(ty: Option<&ArgType>) -> bool {
    match ty {
        Some(ArgType::Float) => true,
        Some(ArgType::Optional(inner)) => expected_float(Some(inner)),
        _ => false,
    }
}

fn expected_float_list(ty: Option<&ArgType>) -> bool {
    match ty {
        Some(ArgType::List { elem, .. }) => matches!(**elem, ArgType::Float),
        Some(ArgType::Optional(inner)) => expected_float_list(Some(inner)),
        _ => false,
    }
}

/// Declared size of a list type (`int[2]`), for expanding a scalar.
fn declared_list(ty: Option<&ArgType>) -> Option<Option<usize>> {
    match ty {
        Some(ArgType::List { size, .. }) => Some(*size),
        Some(ArgType::Optional(inner)) => declared_list(Some(inner)),
        _ => None,
    }
}

/// The attribute for a static argument value; `ty` (the schema type, when
/// known) picks float over int for `float` arguments and expands a scalar
/// given for a sized list (`int[2] stride=1`).
pub fn static_attribute<'c>(
    ctx: &'c melior::Context,
    arg: &Argument,
    ty: Option<&ArgType>,
) -> Result<Attribute<'c>, String> {
    Ok(match arg {
        Argument::AsInt(i) | Argument::AsSymInt(SymIntArgument::AsInt(i)) => match declared_list(ty) {
            Some(size) => DenseI64ArrayAttribute::new(ctx, &vec![*i; size.unwrap_or(1)]).into(),
            None if expected_float(ty) => float_attr(ctx, *i as f64),
            None => int_attr(ctx, *i),
        },
        Argument::AsFloat(f) | Argument::AsSymFloat(SymFloatArgument::AsFloat(f)) => float_attr(ctx, *f),
        Argument::AsBool(b) | Argument::AsSymBool(SymBoolArgument::AsBool(b)) => BoolAttribute::new(ctx, *b).into(),
        Argument::AsString(s) => StringAttribute::new(ctx, s).into(),
        Argument::AsInts(v) if expected_float_list(ty) => {
            f64_array(ctx, &v.iter().map(|&i| i as f64).collect::<Vec<_>>())
        }
        Argument::AsInts(v) => DenseI64ArrayAttribute::new(ctx, v).into(),
        Argument::AsSymInts(v) => {
            let ints: Vec<i64> = v
                .iter()
                .map(|e| match e {
                    SymIntArgument::AsInt(i) => Ok(*i),
                    SymIntArgument::AsName(n) => Err(format!("symbolic element '{n}'")),
                })
                .collect::<Result<_, _>>()?;
            DenseI64ArrayAttribute::new(ctx, &ints).into()
        }
        Argument::AsFloats(v) => f64_array(ctx, v),
        Argument::AsSymFloats(v) => {
            let floats: Vec<f64> = v
                .iter()
                .map(|e| match e {
                    SymFloatArgument::AsFloat(f) => Ok(*f),
                    SymFloatArgument::AsName(n) => Err(format!("symbolic element '{n}'")),
                })
                .collect::<Result<_, _>>()?;
            f64_array(ctx, &floats)
        }
        Argument::AsBools(v) => bool_array(ctx, v),
        Argument::AsSymBools(v) => {
            let bools: Vec<bool> = v
                .iter()
                .map(|e| match e {
                    SymBoolArgument::AsBool(b) => Ok(*b),
                    SymBoolArgument::AsName(n) => Err(format!("symbolic element '{n}'")),
                })
                .collect::<Result<_, _>>()?;
            bool_array(ctx, &bools)
        }
        Argument::AsStrings(v) => string_array(ctx, v),
        Argument::AsScalarType(dtype) => dtype_attr(ctx, *dtype)?,
        Argument::AsLayout(layout) => StringAttribute::new(ctx, layout_name(*layout)).into(),
        Argument::AsMemoryFormat(format) => StringAttribute::new(ctx, memory_format_name(*format)).into(),
        Argument::AsDevice(device) => StringAttribute::new(
            ctx,
            &match device.index {
                Some(i) => format!("{}:{i}", device.kind),
                None => device.kind.clone(),
            },
        )
        .into(),
        Argument::AsNone(_) => return Err("None has no attribute form".to_string()),
        other => return Err(format!("argument kind {} is not supported", argument_kind(other))),
    })
}

/// The attribute for a schema default (`None` stays absent).
pub fn default_attribute<'c>(
    ctx: &'c melior::Context,
    default: &DefaultValue,
    ty: &ArgType,
) -> Result<Option<Attribute<'c>>, String> {
    let ty = Some(ty);
    Ok(Some(match default {
        DefaultValue::None => return Ok(None),
        DefaultValue::Int(i) => static_attribute(ctx, &Argument::AsInt(*i), ty)?,
        DefaultValue::Float(f) => float_attr(ctx, *f),
        DefaultValue::Bool(b) => BoolAttribute::new(ctx, *b).into(),
        DefaultValue::Str(s) => StringAttribute::new(ctx, s).into(),
        DefaultValue::IntList(v) => static_attribute(ctx, &Argument::AsInts(v.to_vec()), ty)?,
        DefaultValue::FloatList(v) => f64_array(ctx, v),
        DefaultValue::BoolList(v) => bool_array(ctx, v),
        DefaultValue::Layout(name) | DefaultValue::MemoryFormat(name) | DefaultValue::Device(name) => {
            StringAttribute::new(ctx, name).into()
        }
        DefaultValue::ScalarType(name) => {
            let dtype = aten2onnx_pt2::schema::ScalarType::ALL
                .iter()
                .copied()
                .find(|t| t.name() == *name || format!("{t:?}") == *name)
                .ok_or_else(|| format!("unknown default dtype '{name}'"))?;
            dtype_attr(ctx, dtype)?
        }
    }))
}

fn layout_name(layout: Layout) -> &'static str {
    match layout {
        Layout::Strided => "strided",
        Layout::SparseCoo => "sparse_coo",
        Layout::SparseCsr => "sparse_csr",
        Layout::SparseCsc => "sparse_csc",
        Layout::SparseBsr => "sparse_bsr",
        Layout::SparseBsc => "sparse_bsc",
        Layout::Mkldnn => "_mkldnn",
        Layout::Unknown => "unknown",
    }
}

fn memory_format_name(format: MemoryFormat) -> &'static str {
    match format {
        MemoryFormat::ContiguousFormat => "contiguous_format",
        MemoryFormat::ChannelsLast => "channels_last",
        MemoryFormat::ChannelsLast3d => "channels_last_3d",
        MemoryFormat::PreserveFormat => "preserve_format",
        MemoryFormat::Unknown => "unknown",
    }
}

/// The JSON tag of an argument, for messages.
fn argument_kind(arg: &Argument) -> String {
    let debug = format!("{arg:?}");
    debug.split(['(', ' ']).next().unwrap_or("?").to_string()
}
