//! Decompositions of aten ops into simpler aten ops, applied by
//! `aten-decompose` (passes/src/aten_decompose.rs): one file per ATen op name
//! (`tanh_backward.rs` holds `aten.tanh_backward.default`; aliases share
//! `aliases.rs`). `passes/lowering/build.rs` lists every file declaring
//! `pub const DECOMPOSITIONS` in [`ALL`]: adding one is adding its file.
//!
//! The reference semantics are PyTorch's own decompositions
//! (`torch/_decomp/decompositions.py`, `torch/_refs`): each decomposition
//! says which it follows, and its samples are checked like a lowering rule's
//! (libtorch runs the original op, onnxruntime the decomposed-then-lowered
//! program: tests/integration/decompose.rs).
//!
//! A decomposition is a function over [`Dx`]: the op's arguments by schema
//! name ([`Args`], as in lowering rules) and [`Dx::call`], which builds an aten
//! op before the decomposed one from named arguments. Results replace the
//! op's results in order and must have their types.

use crate::{
    aten_ir::{self, ArgValue},
    ir, Args,
};
use aten2onnx_dialects::aten::{self as registry, ArgType, DefaultValue, OpSchema};
use melior::ir::{
    attribute::{FloatAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    BlockLike, Location, OperationRef, Type, Value, ValueLike,
};

include!(concat!(env!("OUT_DIR"), "/decompositions.rs"));

/// How one aten overload decomposes.
#[derive(Clone, Copy)]
pub struct Decomposition {
    /// The op decomposed: `aten.<op>.<overload>`.
    pub target: &'static str,
    /// What it becomes, in a line (`--list-decompositions`, docs).
    pub summary: &'static str,
    pub decompose: for<'c, 'a> fn(&Dx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String>,
    /// Argument sets tests/integration/decompose.rs runs (the sample
    /// language of lowering rules, docs/lowering.md).
    pub samples: &'static [&'static str],
    /// Element types the samples run with.
    pub dtypes: &'static [&'static str],
}

impl Decomposition {
    pub const fn new(
        target: &'static str,
        summary: &'static str,
        decompose: for<'c, 'a> fn(&Dx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String>,
    ) -> Decomposition {
        Decomposition { target, summary, decompose, samples: &[], dtypes: &["f32"] }
    }

    pub const fn samples(mut self, samples: &'static [&'static str]) -> Decomposition {
        self.samples = samples;
        self
    }

    pub const fn dtypes(mut self, dtypes: &'static [&'static str]) -> Decomposition {
        self.dtypes = dtypes;
        self
    }
}

/// The decomposition of `target`, if there is one.
pub fn find(target: &str) -> Option<&'static Decomposition> {
    all().find(|d| d.target == target)
}

/// Every decomposition, in file order.
pub fn all() -> impl Iterator<Item = &'static Decomposition> {
    ALL.iter().flat_map(|(_, group)| group.iter())
}

/// The file (under passes/lowering/src/decompositions/) holding `target`'s decomposition.
pub fn file_of(target: &str) -> Option<&'static str> {
    ALL.iter().find(|(_, group)| group.iter().any(|d| d.target == target)).map(|(file, _)| *file)
}

/// An argument of an op [`Dx::call`] builds.
#[derive(Clone)]
pub enum Arg<'c, 'a> {
    /// A tensor (or `SymInt`) operand.
    T(Value<'c, 'a>),
    /// A tensor list.
    Ts(Vec<Value<'c, 'a>>),
    Int(i64),
    Float(f64),
    Bool(bool),
    Ints(Vec<i64>),
    /// A dtype (`ScalarType`).
    Dtype(Type<'c>),
    /// The decomposed op's own argument, as it was given.
    Same(ArgValue<'c, 'a>),
}

/// What a decomposition gets: the op, its arguments, and a builder of aten ops.
pub struct Dx<'c, 'a> {
    pub context: &'c melior::Context,
    pub op: OperationRef<'c, 'a>,
    pub schema: &'static OpSchema,
    pub args: Args<'c, 'a>,
    /// The op's arguments as given, by schema name (for [`Dx::same`]).
    given: Vec<(&'static str, ArgValue<'c, 'a>)>,
    /// Location of the ops built: the op's own, under a name
    /// `<node>/decomposed` so that `--verify` tells them from the node.
    location: Location<'c>,
    built: std::cell::RefCell<Vec<mlir_sys::MlirOperation>>,
}

impl<'c, 'a> Dx<'c, 'a> {
    pub fn new(
        context: &'c melior::Context,
        op: OperationRef<'c, 'a>,
        schema: &'static OpSchema,
    ) -> Result<Self, String> {
        let location = op.location();
        let location = match ir::SourcePosition::of(location).node {
            Some(node) => Location::name(context, &format!("{node}/decomposed"), location),
            None => location,
        };
        let given = aten_ir::arg_values(op, schema)?;
        Ok(Dx { context, op, schema, args: Args::new(op, schema)?, given, location, built: Default::default() })
    }

    /// The type of result `index` of the op decomposed.
    pub fn result_type(&self, index: usize) -> Result<Type<'c>, String> {
        self.args.result_type(index)
    }

    /// The op's argument `name` as given (to pass it on unchanged).
    pub fn same(&self, name: &str) -> Result<Arg<'c, 'a>, String> {
        self.given
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| Arg::Same(v.clone()))
            .ok_or_else(|| format!("decomposition bug: {} has no argument '{name}'", self.schema.target_name()))
    }

    /// Builds `target` (`aten.mul.Tensor`) before the decomposed op from
    /// arguments by schema name (left-out ones take their defaults), with
    /// one result of type `result`.
    pub fn call(&self, target: &str, args: &[(&str, Arg<'c, 'a>)], result: Type<'c>) -> Result<Value<'c, 'a>, String> {
        Ok(self.call_n(target, args, &[result])?.remove(0))
    }

    /// [`Dx::call`] with several results.
    pub fn call_n(
        &self,
        target: &str,
        args: &[(&str, Arg<'c, 'a>)],
        results: &[Type<'c>],
    ) -> Result<Vec<Value<'c, 'a>>, String> {
        let (op, overload) =
            aten_ir::split_name(target).ok_or_else(|| format!("decomposition bug: bad op name '{target}'"))?;
        let schema = registry::lookup(op, overload)
            .ok_or_else(|| format!("decomposition bug: '{target}' is not in the registry"))?;
        for (name, _) in args {
            if !schema.arguments.iter().any(|a| a.name == *name) {
                return Err(format!("decomposition bug: {target} has no argument '{name}'"));
            }
        }
        let mut values: Vec<(&str, ArgValue<'c, 'a>)> = Vec::new();
        for (name, arg) in args {
            values.push((name, self.arg_value(arg)));
        }
        // Left-out arguments take their schema defaults (the aten dialect
        // spells every static argument out; `None` stays absent).
        for arg in schema.arguments {
            if values.iter().any(|(n, _)| *n == arg.name) {
                continue;
            }
            match &arg.default {
                Some(default) => {
                    if let Some(attr) = self.default_attribute(default, arg.ty)? {
                        values.push((arg.name, ArgValue::Attribute(attr)));
                    }
                }
                None if aten_ir::is_tensor_type(&ArgType::parse(arg.ty)) => {}
                None => return Err(format!("decomposition bug: {target} needs argument '{}'", arg.name)),
            }
        }
        let get =
            |name: &str| values.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone()).unwrap_or(ArgValue::Absent);
        let built = aten_ir::build_op(self.context, schema, &get, results, self.location)?;
        let block = self.op.block().ok_or("the op is not in a block")?;
        let built = block.insert_operation_before(self.op, built);
        self.built.borrow_mut().push(built.to_raw());
        Ok(built.results().map(Into::into).collect())
    }

    /// The attribute of a schema default (`None` for `=None`).
    fn default_attribute(&self, default: &DefaultValue, ty: &str) -> Result<Option<melior::ir::Attribute<'c>>, String> {
        let ctx = self.context;
        let float_type = matches!(ty.trim_end_matches('?'), "float" | "SymFloat");
        Ok(Some(match default {
            DefaultValue::None => return Ok(None),
            DefaultValue::Bool(b) => IntegerAttribute::new(IntegerType::new(ctx, 1).into(), *b as i64).into(),
            DefaultValue::Int(i) if float_type => FloatAttribute::new(ctx, Type::float64(ctx), *i as f64).into(),
            DefaultValue::Int(i) => IntegerAttribute::new(IntegerType::new(ctx, 64).into(), *i).into(),
            DefaultValue::Float(f) => FloatAttribute::new(ctx, Type::float64(ctx), *f).into(),
            DefaultValue::Str(s)
            | DefaultValue::Layout(s)
            | DefaultValue::MemoryFormat(s)
            | DefaultValue::Device(s) => StringAttribute::new(ctx, s).into(),
            DefaultValue::IntList(v) => melior::ir::attribute::DenseI64ArrayAttribute::new(ctx, v).into(),
            DefaultValue::FloatList(_) | DefaultValue::BoolList(_) | DefaultValue::ScalarType(_) => {
                return Err(format!(
                    "decomposition bug: pass the {ty} argument explicitly (its default {default:?} is not built)"
                ))
            }
        }))
    }

    fn arg_value(&self, arg: &Arg<'c, 'a>) -> ArgValue<'c, 'a> {
        let ctx = self.context;
        match arg {
            Arg::T(v) => ArgValue::Operands(vec![*v]),
            Arg::Ts(vs) => ArgValue::Operands(vs.clone()),
            Arg::Int(i) => ArgValue::Attribute(IntegerAttribute::new(IntegerType::new(ctx, 64).into(), *i).into()),
            Arg::Float(f) => ArgValue::Attribute(FloatAttribute::new(ctx, Type::float64(ctx), *f).into()),
            Arg::Bool(b) => {
                ArgValue::Attribute(IntegerAttribute::new(IntegerType::new(ctx, 1).into(), *b as i64).into())
            }
            Arg::Ints(v) => ArgValue::Attribute(melior::ir::attribute::DenseI64ArrayAttribute::new(ctx, v).into()),
            Arg::Dtype(t) => ArgValue::Attribute(TypeAttribute::new(*t).into()),
            Arg::Same(v) => v.clone(),
        }
    }

    /// The number of results of the op decomposed.
    pub fn op_results(&self) -> usize {
        self.op.result_count()
    }

    /// True when `op` is one the decomposition built.
    pub fn is_built(&self, op: mlir_sys::MlirOperation) -> bool {
        self.built.borrow().iter().any(|b| b.ptr == op.ptr)
    }

    /// The type of `value`.
    pub fn type_of(&self, value: Value<'c, '_>) -> Type<'c> {
        value.r#type()
    }

    /// `type_` with element type `element` (same shape).
    pub fn with_element(&self, type_: Type<'c>, element: Type<'c>) -> Result<Type<'c>, String> {
        crate::builder::with_element_type(type_, element).ok_or_else(|| "not a tensor type".to_string())
    }

    /// The `i1` tensor type shaped like `type_` (comparison results).
    pub fn bool_like(&self, type_: Type<'c>) -> Result<Type<'c>, String> {
        self.with_element(type_, IntegerType::new(self.context, 1).into())
    }
}
