//! An interpreter for the `aten` dialect on libtorch (`--features torch`).
//!
//! Every registered op runs through libtorch's own dispatcher, called by
//! name and overload with boxed arguments built from the op's schema
//! (src/interp/shim.cpp): one generic path for all 3,754 overloads of the
//! registry, rather than a hand-written call per op through tch's generated
//! methods (which would need code for each op and cannot reach every
//! overload). tch provides tensor ownership and conversions. Inplace ops run
//! as inplace ops, so programs keep eager semantics exactly.

mod ffi;

use crate::{import::types::scalar_type_of, Error};
use aten2onnx_dialects::aten::{self as registry, ArgType, OpSchema};
use aten2onnx_passes::{
    aten_ir::{self, AtenOp, Slot},
    ir::{self, attribute_kind, dense_i64_values, string_value, SourcePosition},
    lowering::args::{number, Number},
};
use aten2onnx_pt2::{schema::ScalarType, Archive};
use melior::ir::{
    attribute::AttributeLike, operation::OperationLike, Attribute, BlockLike, Module, OperationRef, RegionLike, Type,
    Value, ValueLike,
};
use mlir_sys as sys;
use std::{collections::HashMap, ffi::CString};

/// A runtime value.
#[derive(Debug)]
pub enum RtValue {
    Tensor(tch::Tensor),
    Int(i64),
    Float(f64),
    Bool(bool),
    None,
}

impl RtValue {
    fn shallow(&self) -> RtValue {
        match self {
            RtValue::Tensor(t) => RtValue::Tensor(t.shallow_clone()),
            RtValue::Int(i) => RtValue::Int(*i),
            RtValue::Float(f) => RtValue::Float(*f),
            RtValue::Bool(b) => RtValue::Bool(*b),
            RtValue::None => RtValue::None,
        }
    }

    pub fn tensor(&self) -> Option<&tch::Tensor> {
        if let RtValue::Tensor(t) = self {
            Some(t)
        } else {
            None
        }
    }
}

/// A tensor value an op produced, kept for comparisons (`--verify` bisection).
pub struct Traced {
    /// The graph node (from the op location).
    pub node: String,
    pub result: usize,
    pub op: String,
    pub position: SourcePosition,
    pub value: tch::Tensor,
}

/// The outputs of a run and, when tracing, every tensor each op produced.
pub struct Run {
    pub outputs: Vec<RtValue>,
    pub trace: Vec<Traced>,
    /// The weights by name after the run (buffers written in place show
    /// their new content).
    pub weights: HashMap<String, tch::Tensor>,
}

/// Runs the module's `forward` on `inputs` (one per function argument).
/// Weights are read from the archive named by `aten.archive`.
pub fn run(module: &Module, inputs: Vec<RtValue>, trace: bool) -> Result<Run, Error> {
    let fail = |message: String| Error::Interpreter(message);
    let body = module.body();
    let function = body.first_operation().ok_or_else(|| fail("empty module".into()))?;
    let archive = match module.as_operation().attribute(aten_ir::ARCHIVE_ATTR).ok().and_then(string_value) {
        Some(path) => Some(Archive::open(&path)?),
        None => None,
    };
    let mut interpreter = Interpreter {
        archive: archive.as_ref(),
        values: HashMap::new(),
        trace: trace.then(Vec::new),
        weights: HashMap::new(),
        probe: None,
    };
    let region = function.regions().next().ok_or_else(|| fail("function without a body".into()))?;
    let block = region.first_block().ok_or_else(|| fail("function without a block".into()))?;
    if block.argument_count() != inputs.len() {
        return Err(fail(format!("forward takes {} inputs, {} given", block.argument_count(), inputs.len())));
    }
    let outputs = interpreter.run_block(block, inputs).map_err(fail)?;
    Ok(Run { outputs, trace: interpreter.trace.unwrap_or_default(), weights: interpreter.weights })
}

/// Runs the module's `forward` on `inputs` and returns what libtorch gave
/// for its last op, whatever result types that op declares: how a test
/// learns the results of a one-op module before building it with exact
/// types.
pub fn probe_last_op(module: &Module, inputs: Vec<RtValue>) -> Result<Vec<RtValue>, Error> {
    let fail = |message: String| Error::Interpreter(message);
    let function = module.body().first_operation().ok_or_else(|| fail("empty module".into()))?;
    let block = function.regions().next().and_then(|r| r.first_block()).ok_or_else(|| fail("no body".into()))?;
    let mut interpreter = Interpreter {
        archive: None,
        values: HashMap::new(),
        trace: None,
        weights: HashMap::new(),
        probe: Some(Vec::new()),
    };
    interpreter.run_block(block, inputs).map_err(fail)?;
    interpreter.probe.unwrap_or_default().into_iter().last().ok_or_else(|| fail("no op".into()))
}

struct Interpreter<'a> {
    archive: Option<&'a Archive>,
    values: HashMap<usize, RtValue>,
    trace: Option<Vec<Traced>>,
    weights: HashMap<String, tch::Tensor>,
    /// When set, every op's values are collected here and result counts are
    /// not checked (to learn the results of a one-op module being built).
    probe: Option<Vec<Vec<RtValue>>>,
}

fn key(v: Value<'_, '_>) -> usize {
    v.to_raw().ptr as usize
}

impl Interpreter<'_> {
    fn get(&self, v: Value<'_, '_>) -> Result<RtValue, String> {
        self.values
            .get(&key(v))
            .map(RtValue::shallow)
            .ok_or_else(|| "operand has no value (not computed yet)".to_string())
    }

    /// Runs a block; returns the operands of its terminator.
    fn run_block(&mut self, block: melior::ir::BlockRef<'_, '_>, args: Vec<RtValue>) -> Result<Vec<RtValue>, String> {
        for (i, value) in args.into_iter().enumerate() {
            let arg: Value = block.argument(i).map_err(|e| e.to_string())?.into();
            self.values.insert(key(arg), value);
        }
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            let name = ir::op_name(op);
            if name == "func.return" || name == aten_ir::YIELD_OP {
                return op.operands().map(|v| self.get(v)).collect();
            }
            let results = self.run_op(op, &name).map_err(|e| {
                let pos = SourcePosition::of(op.location());
                let node = pos.node.clone().map(|n| format!(" [node {n}]")).unwrap_or_default();
                format!("{}:{node} '{name}' failed on libtorch: {e}", pos.file_line())
            })?;
            if let Some(probe) = &mut self.probe {
                probe.push(results.iter().map(RtValue::shallow).collect());
            } else if results.len() != op.result_count() {
                return Err(format!("'{name}' gave {} values for {} results", results.len(), op.result_count()));
            }
            let position = SourcePosition::of(op.location());
            for (i, value) in results.into_iter().enumerate().take(op.result_count()) {
                if let (Some(trace), RtValue::Tensor(t), Some(node)) = (&mut self.trace, &value, &position.node) {
                    trace.push(Traced {
                        node: node.clone(),
                        result: i,
                        op: name.clone(),
                        position: position.clone(),
                        value: t.copy(),
                    });
                }
                let result: Value = ir::result_at(op, i).ok_or_else(|| format!("the op has no result {i}"))?;
                self.values.insert(key(result), value);
            }
        }
        Err("block has no terminator".into())
    }

    fn run_op(&mut self, op: OperationRef<'_, '_>, name: &str) -> Result<Vec<RtValue>, String> {
        match aten_ir::classify(name)? {
            AtenOp::Weight => {
                let tensor = self.weight(op)?;
                let name = aten_ir::weight_name(op).unwrap_or_default();
                self.weights.insert(name, tensor.shallow_clone());
                Ok(vec![RtValue::Tensor(tensor)])
            }
            AtenOp::None => Ok(vec![RtValue::None]),
            AtenOp::SymConstant => {
                let attr = op.attribute("value").map_err(|_| "no value")?;
                Ok(vec![match number(attr).ok_or("value is not a number")? {
                    Number::Int(i) => RtValue::Int(i),
                    Number::Float(f) => RtValue::Float(f),
                    Number::Bool(b) => RtValue::Bool(b),
                }])
            }
            AtenOp::Sym(sym) => {
                let operands: Vec<RtValue> = op.operands().map(|v| self.get(v)).collect::<Result<_, _>>()?;
                Ok(vec![sym_op(sym.op, &operands)?])
            }
            AtenOp::HigherOrder => self.higher_order(op, name),
            AtenOp::Yield => Err("stray aten.yield".into()),
            AtenOp::Custom => self.custom_call(op, name),
            AtenOp::Registered(schema) => self.call(op, schema),
        }
    }

    fn weight(&self, op: OperationRef<'_, '_>) -> Result<tch::Tensor, String> {
        let name = aten_ir::weight_name(op).ok_or("weight without a name")?;
        let archive = self.archive.ok_or("the module has no aten.archive to read weights from")?;
        let data = archive.weight(&name).or_else(|_| archive.constant(&name)).map_err(|e| e.to_string())?;
        let kind = tch_kind(data.dtype).ok_or_else(|| format!("dtype {} has no tch kind", data.dtype))?;
        let elem = data.dtype.element_size().unwrap_or(1);
        let storage = tch::Tensor::f_from_data_size(data.storage, &[(data.storage.len() / elem) as i64], kind)
            .map_err(|e| e.to_string())?;
        Ok(storage.as_strided(&data.sizes, &data.strides, Some(data.storage_offset)).contiguous())
    }

    fn higher_order(&mut self, op: OperationRef<'_, '_>, name: &str) -> Result<Vec<RtValue>, String> {
        let operands: Vec<RtValue> = op.operands().map(|v| self.get(v)).collect::<Result<_, _>>()?;
        let region = |i: usize| -> Result<melior::ir::BlockRef, String> {
            op.region(i).map_err(|e| e.to_string())?.first_block().ok_or_else(|| "empty region".to_string())
        };
        match name.strip_prefix(aten_ir::HOP_PREFIX) {
            Some("cond") => {
                let (pred, rest) = operands.split_first().ok_or("cond without a predicate")?;
                let taken = match pred {
                    RtValue::Tensor(t) => t.int64_value(&[]) != 0,
                    RtValue::Bool(b) => *b,
                    RtValue::Int(i) => *i != 0,
                    _ => return Err("cond predicate is not a bool".into()),
                };
                let args = rest.iter().map(RtValue::shallow).collect();
                self.run_block(region(if taken { 0 } else { 1 })?, args)
            }
            // `with torch.autocast(device, dtype, enabled)` inside the forward:
            // the body under libtorch's own CPU autocast (the reference for
            // the casts the lowering infers from the recorded types).
            Some("wrap_with_autocast") => {
                let device = op.attribute("arg0").ok().and_then(string_value).unwrap_or_default();
                let enabled =
                    op.attribute("arg2").ok().and_then(|a| number(a)).map(|n| matches!(n, Number::Bool(true)));
                let dtype =
                    op.attribute("arg1").ok().filter(|a| unsafe { sys::mlirAttributeIsAType(a.to_raw()) }).and_then(
                        |a| c10_scalar_type(unsafe { Type::from_raw(sys::mlirTypeAttrGetValue(a.to_raw())) }),
                    );
                let args = operands.iter().map(RtValue::shallow).collect();
                if device != "cpu" {
                    // Another device's autocast does not touch CPU tensors.
                    return self.run_block(region(0)?, args);
                }
                let enabled = enabled.ok_or("wrap_with_autocast without its `enabled` flag")?;
                let dtype = dtype.ok_or("wrap_with_autocast without a dtype")?;
                let previous = ffi::set_autocast_cpu(enabled, dtype);
                let result = self.run_block(region(0)?, args);
                ffi::set_autocast_cpu(previous.0, previous.1);
                result
            }
            // `with torch.no_grad()` inside the forward: the values are the body's.
            Some("wrap_with_set_grad_enabled") => {
                let args = operands.iter().map(RtValue::shallow).collect();
                self.run_block(region(0)?, args)
            }
            Some("while_loop") => {
                let segments = op
                    .attribute(aten_ir::SEGMENTS_ATTR)
                    .ok()
                    .and_then(ir::dense_i32_values)
                    .ok_or("while_loop without operandSegmentSizes")?;
                let carried_count = segments.first().copied().unwrap_or(0) as usize;
                let mut carried: Vec<RtValue> = operands[..carried_count].iter().map(RtValue::shallow).collect();
                let extra: Vec<RtValue> = operands[carried_count..].iter().map(RtValue::shallow).collect();
                loop {
                    let mut args: Vec<RtValue> = carried.iter().map(RtValue::shallow).collect();
                    args.extend(extra.iter().map(RtValue::shallow));
                    let go = self.run_block(region(0)?, args)?;
                    let go = match go.first() {
                        Some(RtValue::Tensor(t)) => t.int64_value(&[]) != 0,
                        Some(RtValue::Bool(b)) => *b,
                        _ => return Err("while_loop condition is not a bool".into()),
                    };
                    if !go {
                        return Ok(carried);
                    }
                    let mut args: Vec<RtValue> = carried.iter().map(RtValue::shallow).collect();
                    args.extend(extra.iter().map(RtValue::shallow));
                    carried = self.run_block(region(1)?, args)?;
                }
            }
            Some(hop @ ("scan" | "map_impl")) => {
                let segments = op
                    .attribute(aten_ir::SEGMENTS_ATTR)
                    .ok()
                    .and_then(ir::dense_i32_values)
                    .ok_or("scan without operandSegmentSizes")?;
                let seg = |i: usize| segments.get(i).copied().unwrap_or(0) as usize;
                // scan(init, xs, additional) / map_impl(xs, pos_args).
                let (states, scanned) = if hop == "scan" { (seg(0), seg(1)) } else { (0, seg(0)) };
                let mut carry: Vec<RtValue> = operands[..states].iter().map(RtValue::shallow).collect();
                let xs: Vec<tch::Tensor> = operands[states..states + scanned]
                    .iter()
                    .map(|v| v.tensor().map(|t| t.shallow_clone()).ok_or("scan input is not a tensor"))
                    .collect::<Result<_, _>>()?;
                let extra: Vec<RtValue> = operands[states + scanned..].iter().map(RtValue::shallow).collect();
                let steps = xs.first().map(|x| x.size().first().copied().unwrap_or(0)).ok_or("scan over no tensors")?;
                let mut ys: Vec<Vec<tch::Tensor>> = Vec::new();
                for step in 0..steps {
                    let mut args: Vec<RtValue> = carry.iter().map(RtValue::shallow).collect();
                    args.extend(xs.iter().map(|x| RtValue::Tensor(x.select(0, step))));
                    args.extend(extra.iter().map(RtValue::shallow));
                    let mut out = self.run_block(region(0)?, args)?;
                    if out.len() < states {
                        return Err(format!("{hop} body yields {} values for {states} states", out.len()));
                    }
                    let slices = out.split_off(states);
                    carry = out;
                    for (j, y) in slices.into_iter().enumerate() {
                        let y = y.tensor().ok_or("scan output is not a tensor")?.shallow_clone();
                        if ys.len() <= j {
                            ys.push(Vec::new());
                        }
                        ys[j].push(y);
                    }
                }
                if steps == 0 {
                    return Err(format!("{hop} over an empty dim is not interpreted"));
                }
                let mut results = carry;
                results.extend(ys.iter().map(|list| RtValue::Tensor(tch::Tensor::stack(list, 0))));
                Ok(results)
            }
            _ => Err(format!("higher-order op '{name}' is not interpreted")),
        }
    }

    /// Calls a registered overload through the dispatcher.
    fn call(&mut self, op: OperationRef<'_, '_>, schema: &OpSchema) -> Result<Vec<RtValue>, String> {
        let slots = aten_ir::layout(op, schema)?;
        // Everything the boxed arguments point at lives until the call returns.
        let mut keep = Keep::default();
        let mut args = Vec::with_capacity(slots.len());
        for (arg, slot) in schema.arguments.iter().zip(&slots) {
            let ty = ArgType::parse(arg.ty);
            let boxed = match slot {
                Slot::Absent => ffi::Arg::default(),
                Slot::Operands(range) => {
                    let values: Vec<RtValue> =
                        aten_ir::operands_of(op, range).into_iter().map(|v| self.get(v)).collect::<Result<_, _>>()?;
                    operand_arg(&ty, values, &mut keep).map_err(|e| format!("argument '{}': {e}", arg.name))?
                }
                Slot::Attribute(attr) => {
                    attribute_arg(&ty, *attr, &mut keep).map_err(|e| format!("argument '{}': {e}", arg.name))?
                }
            };
            args.push(boxed);
        }
        let returned = ffi::call(schema.name, schema.overload_name(), &args)?;
        drop(keep);
        Ok(runtime_values(returned))
    }
}

impl Interpreter<'_> {
    /// A custom op through the dispatcher (registered in this process: the
    /// Python entry point's; `aten-translate --verify` has no Python ops).
    fn custom_call(&mut self, op: OperationRef<'_, '_>, name: &str) -> Result<Vec<RtValue>, String> {
        let full = name.strip_prefix(aten_ir::CUSTOM_PREFIX).unwrap_or(name);
        let (qualified, overload) = full.rsplit_once('.').ok_or("a custom op name without an overload")?;
        let names = |attr: &str| -> Vec<String> {
            op.attribute(attr).ok().and_then(aten2onnx_passes::ir::string_array).unwrap_or_default()
        };
        let operand_names = names(aten_ir::CUSTOM_OPERANDS_ATTR);
        let mut operands = op.operands();
        let mut keep = Keep::default();
        let mut args = Vec::new();
        let arg_names = names("arg_names");
        for arg in &arg_names {
            let boxed = if operand_names.contains(arg) {
                let value = operands.next().ok_or("fewer operands than tensor arguments")?;
                operand_arg(&ArgType::parse("Tensor"), vec![self.get(value)?], &mut keep)?
            } else if let Ok(attr) = op.attribute(arg) {
                let ty = match aten2onnx_passes::ir::attribute_kind(attr) {
                    "integer" => "int",
                    "float" => "float",
                    "bool" => "bool",
                    "string" => "str",
                    "array<i64>" => "int[]",
                    "array<f64>" => "float[]",
                    other => return Err(format!("argument '{arg}': a {other} attribute")),
                };
                attribute_arg(&ArgType::parse(ty), attr, &mut keep).map_err(|e| format!("argument '{arg}': {e}"))?
            } else {
                ffi::Arg::default()
            };
            args.push(boxed);
        }
        let arg_names: Vec<&str> = arg_names.iter().map(String::as_str).collect();
        let returned = ffi::call_named(qualified, overload, &arg_names, &args).map_err(|e| {
            format!("{e}\n(the reference run calls the custom op '{qualified}.{overload}' through libtorch: it must be registered in this process)")
        })?;
        drop(keep);
        Ok(runtime_values(returned))
    }
}

/// A dispatcher call's results as runtime values (a returned list
/// flattened, as the aten dialect's results are).
fn runtime_values(returned: Vec<ffi::Returned>) -> Vec<RtValue> {
    let mut results = Vec::new();
    for r in returned {
        match r {
            ffi::Returned::Tensor(t) => results.push(RtValue::Tensor(t)),
            ffi::Returned::Tensors(list) => results.extend(list.into_iter().map(RtValue::Tensor)),
            ffi::Returned::Int(i) => results.push(RtValue::Int(i)),
            ffi::Returned::Double(d) => results.push(RtValue::Float(d)),
            ffi::Returned::Bool(b) => results.push(RtValue::Bool(b)),
            ffi::Returned::None => results.push(RtValue::None),
        }
    }
    results
}

/// Owned storage behind boxed arguments.
#[derive(Default)]
struct Keep {
    tensors: Vec<tch::Tensor>,
    lists: Vec<Vec<*mut std::ffi::c_void>>,
    ints: Vec<Vec<i64>>,
    doubles: Vec<Vec<f64>>,
    strings: Vec<CString>,
}

impl Keep {
    fn tensor(&mut self, t: tch::Tensor) -> *mut std::ffi::c_void {
        self.tensors.push(t);
        let last = self.tensors.last_mut().unwrap();
        last.as_mut_ptr() as *mut _
    }

    fn string(&mut self, s: &str) -> *const std::ffi::c_char {
        self.strings.push(CString::new(s).unwrap_or_default());
        self.strings.last().unwrap().as_ptr()
    }
}

fn int_of(v: &RtValue) -> Result<i64, String> {
    match v {
        RtValue::Int(i) => Ok(*i),
        RtValue::Bool(b) => Ok(*b as i64),
        RtValue::Tensor(t) if t.numel() == 1 => Ok(t.int64_value(&[])),
        other => Err(format!("expected an int, got {other:?}")),
    }
}

fn operand_arg(ty: &ArgType, values: Vec<RtValue>, keep: &mut Keep) -> Result<ffi::Arg, String> {
    let mut a = ffi::Arg::default();
    let inner = match ty {
        ArgType::Optional(inner) => inner.as_ref(),
        other => other,
    };
    match inner {
        ArgType::List { elem, .. } if aten_ir::is_tensor_type(elem) => {
            let optional = matches!(**elem, ArgType::Optional(_));
            let mut ptrs = Vec::new();
            for v in values {
                match v {
                    RtValue::Tensor(t) => ptrs.push(keep.tensor(t)),
                    RtValue::None if optional => ptrs.push(std::ptr::null_mut()),
                    other => return Err(format!("expected a tensor in the list, got {other:?}")),
                }
            }
            a.kind = if optional { ffi::OPT_TENSORS } else { ffi::TENSORS };
            a.len = ptrs.len();
            keep.lists.push(ptrs);
            a.tensors = keep.lists.last().unwrap().as_ptr();
        }
        ArgType::List { .. } => {
            let ints: Vec<i64> = values.iter().map(int_of).collect::<Result<_, _>>()?;
            a.kind = ffi::INTS;
            a.len = ints.len();
            keep.ints.push(ints);
            a.ints = keep.ints.last().unwrap().as_ptr();
        }
        _ => {
            let [value] = <[RtValue; 1]>::try_from(values).map_err(|_| "expected one value")?;
            match value {
                RtValue::Tensor(t) => {
                    a.kind = ffi::TENSOR;
                    a.tensor = keep.tensor(t);
                }
                RtValue::Int(i) => return Ok(number_arg(Number::Int(i), false, false)),
                RtValue::Float(d) => return Ok(number_arg(Number::Float(d), false, false)),
                RtValue::Bool(b) => return Ok(number_arg(Number::Bool(b), false, false)),
                RtValue::None => {}
            }
        }
    }
    Ok(a)
}

fn attribute_arg(ty: &ArgType, attr: Attribute<'_>, keep: &mut Keep) -> Result<ffi::Arg, String> {
    let mut a = ffi::Arg::default();
    let inner = match ty {
        ArgType::Optional(inner) => inner.as_ref(),
        other => other,
    };
    let kind = attribute_kind(attr);
    match (inner, kind) {
        // A Python number for a Tensor argument: a wrapped-number tensor.
        (ArgType::Tensor, _) => return Ok(number_arg(number(attr).ok_or("expected a number")?, true, false)),
        (ArgType::ScalarType, "type") => {
            let t = unsafe { Type::from_raw(sys::mlirTypeAttrGetValue(attr.to_raw())) };
            a.kind = ffi::SCALAR_TYPE;
            a.i = c10_scalar_type(t).ok_or_else(|| format!("dtype {t} has no c10 code"))?;
        }
        (ArgType::Layout, "string") => {
            let s = string_value(attr).unwrap_or_default();
            a.kind = ffi::LAYOUT;
            a.i = code_of(registry::LAYOUTS, &s)?;
        }
        (ArgType::MemoryFormat, "string") => {
            let s = string_value(attr).unwrap_or_default();
            a.kind = ffi::MEMORY_FORMAT;
            a.i = code_of(registry::MEMORY_FORMATS, &s)?;
        }
        (ArgType::Device, "string") => {
            a.kind = ffi::DEVICE;
            a.s = keep.string(&string_value(attr).unwrap_or_default());
        }
        (_, "string") => {
            a.kind = ffi::STRING;
            a.s = keep.string(&string_value(attr).unwrap_or_default());
        }
        (_, "integer" | "float" | "bool") => {
            return Ok(number_arg(number(attr).ok_or("expected a number")?, false, matches!(inner, ArgType::Float)));
        }
        (_, "array<i64>") => {
            let ints = dense_i64_values(attr).unwrap_or_default();
            a.kind = ffi::INTS;
            a.len = ints.len();
            keep.ints.push(ints);
            a.ints = keep.ints.last().unwrap().as_ptr();
        }
        (_, "array<f64>") => {
            let raw = attr.to_raw();
            let n = unsafe { sys::mlirDenseArrayGetNumElements(raw) };
            let doubles: Vec<f64> = (0..n).map(|i| unsafe { sys::mlirDenseF64ArrayGetElement(raw, i) }).collect();
            a.kind = ffi::DOUBLES;
            a.len = doubles.len();
            keep.doubles.push(doubles);
            a.doubles = keep.doubles.last().unwrap().as_ptr();
        }
        (_, "array<i1>") => {
            let raw = attr.to_raw();
            let n = unsafe { sys::mlirDenseArrayGetNumElements(raw) };
            let ints: Vec<i64> = (0..n).map(|i| unsafe { sys::mlirDenseBoolArrayGetElement(raw, i) } as i64).collect();
            a.kind = ffi::BOOLS;
            a.len = ints.len();
            keep.ints.push(ints);
            a.ints = keep.ints.last().unwrap().as_ptr();
        }
        (ty, kind) => return Err(format!("cannot pass a {kind} attribute as {ty:?}")),
    }
    Ok(a)
}

fn code_of(table: &[(i64, &str)], name: &str) -> Result<i64, String> {
    table.iter().find(|(_, n)| *n == name).map(|(c, _)| *c).ok_or_else(|| format!("unknown name '{name}'"))
}

/// A boxed number: as a 0-d "wrapped number" tensor when it stands for a
/// Tensor argument, as a double when the schema wants a float.
fn number_arg(n: Number, wrapped: bool, float: bool) -> ffi::Arg {
    let mut a = ffi::Arg::default();
    match n {
        Number::Int(i) if float && !wrapped => {
            a.kind = ffi::DOUBLE;
            a.d = i as f64;
        }
        Number::Int(i) => {
            a.kind = if wrapped { ffi::WRAPPED_INT } else { ffi::INT };
            a.i = i;
        }
        Number::Float(d) => {
            a.kind = if wrapped { ffi::WRAPPED_DOUBLE } else { ffi::DOUBLE };
            a.d = d;
        }
        Number::Bool(b) => {
            a.kind = if wrapped { ffi::WRAPPED_BOOL } else { ffi::BOOL };
            a.i = b as i64;
        }
    }
    a
}

/// Symbolic-scalar arithmetic with Python's semantics.
fn sym_op(op: &str, v: &[RtValue]) -> Result<RtValue, String> {
    let f = |x: &RtValue| match x {
        RtValue::Int(i) => Ok(*i as f64),
        RtValue::Float(f) => Ok(*f),
        RtValue::Bool(b) => Ok(*b as i64 as f64),
        other => Err(format!("not a number: {other:?}")),
    };
    let all_int = v.iter().all(|x| matches!(x, RtValue::Int(_) | RtValue::Bool(_)));
    let i = |x: &RtValue| int_of(x);
    let name = op.strip_prefix(aten_ir::SYM_PREFIX).unwrap_or(op);
    Ok(match (name, v) {
        ("add", [a, b]) if all_int => RtValue::Int(i(a)? + i(b)?),
        ("sub", [a, b]) if all_int => RtValue::Int(i(a)? - i(b)?),
        ("mul", [a, b]) if all_int => RtValue::Int(i(a)? * i(b)?),
        ("floordiv", [a, b]) if all_int => {
            RtValue::Int(i(a)?.div_euclid(i(b)?) - if i(b)? < 0 && i(a)?.rem_euclid(i(b)?) != 0 { 1 } else { 0 })
        }
        ("mod", [a, b]) if all_int => RtValue::Int(((i(a)? % i(b)?) + i(b)?) % i(b)?),
        ("max", [a, b]) if all_int => RtValue::Int(i(a)?.max(i(b)?)),
        ("min", [a, b]) if all_int => RtValue::Int(i(a)?.min(i(b)?)),
        ("neg", [a]) if all_int => RtValue::Int(-i(a)?),
        ("add", [a, b]) => RtValue::Float(f(a)? + f(b)?),
        ("sub", [a, b]) => RtValue::Float(f(a)? - f(b)?),
        ("mul", [a, b]) => RtValue::Float(f(a)? * f(b)?),
        ("truediv", [a, b]) => RtValue::Float(f(a)? / f(b)?),
        ("floordiv", [a, b]) => RtValue::Float(python_float_divmod(f(a)?, f(b)?).0),
        ("mod", [a, b]) => RtValue::Float(python_float_divmod(f(a)?, f(b)?).1),
        ("pow", [a, b]) => RtValue::Float(f(a)?.powf(f(b)?)),
        ("neg", [a]) => RtValue::Float(-f(a)?),
        ("eq", [a, b]) => RtValue::Bool(f(a)? == f(b)?),
        ("ne", [a, b]) => RtValue::Bool(f(a)? != f(b)?),
        ("lt", [a, b]) => RtValue::Bool(f(a)? < f(b)?),
        ("le", [a, b]) => RtValue::Bool(f(a)? <= f(b)?),
        ("gt", [a, b]) => RtValue::Bool(f(a)? > f(b)?),
        ("ge", [a, b]) => RtValue::Bool(f(a)? >= f(b)?),
        ("not", [a]) => RtValue::Bool(f(a)? == 0.0),
        ("and", [a, b]) => RtValue::Bool(f(a)? != 0.0 && f(b)? != 0.0),
        ("or", [a, b]) => RtValue::Bool(f(a)? != 0.0 || f(b)? != 0.0),
        ("ceil", [a]) => RtValue::Int(f(a)?.ceil() as i64),
        ("floor", [a]) => RtValue::Int(f(a)?.floor() as i64),
        ("trunc", [a]) | ("int", [a]) => RtValue::Int(f(a)?.trunc() as i64),
        ("float", [a]) => RtValue::Float(f(a)?),
        ("sqrt", [a]) => RtValue::Float(f(a)?.sqrt()),
        ("max", [a, b]) => RtValue::Float(f(a)?.max(f(b)?)),
        ("min", [a, b]) => RtValue::Float(f(a)?.min(f(b)?)),
        _ => return Err(format!("symbolic op '{op}' with {} operands is not interpreted", v.len())),
    })
}

/// Python's float `(a // b, a % b)` (CPython's `_float_div_mod`): `1 // 0.1`
/// is 9.0, not `floor(1 / 0.1)` = 10.
fn python_float_divmod(a: f64, b: f64) -> (f64, f64) {
    let mut rem = a % b;
    let mut div = (a - rem) / b;
    if rem != 0.0 && ((b < 0.0) != (rem < 0.0)) {
        rem += b;
        div -= 1.0;
    }
    let floor = div.floor();
    (if div - floor > 0.5 { floor + 1.0 } else { floor }, rem)
}

/// c10::ScalarType codes.
fn c10_scalar_type(t: Type<'_>) -> Option<i64> {
    Some(match t.to_string().as_str() {
        "ui8" => 0,
        "i8" => 1,
        "i16" => 2,
        "i32" => 3,
        "i64" => 4,
        "f16" => 5,
        "f32" => 6,
        "f64" => 7,
        "complex<f32>" => 9,
        "complex<f64>" => 10,
        "i1" => 11,
        "bf16" => 15,
        _ => return None,
    })
}

/// The tch kind of a serialized dtype.
pub fn tch_kind(dtype: ScalarType) -> Option<tch::Kind> {
    use ScalarType::*;
    Some(match dtype {
        Float => tch::Kind::Float,
        Double => tch::Kind::Double,
        Half => tch::Kind::Half,
        BFloat16 => tch::Kind::BFloat16,
        Long => tch::Kind::Int64,
        Int => tch::Kind::Int,
        Short => tch::Kind::Int16,
        Char => tch::Kind::Int8,
        Byte => tch::Kind::Uint8,
        Bool => tch::Kind::Bool,
        ComplexFloat => tch::Kind::ComplexFloat,
        ComplexDouble => tch::Kind::ComplexDouble,
        _ => return None,
    })
}

/// The tch kind of an MLIR tensor element type.
pub fn tch_kind_of_type(t: Type<'_>) -> Option<tch::Kind> {
    scalar_type_of(t).and_then(tch_kind)
}

#[cfg(test)]
mod sym_tests {
    /// Python's float floor division and modulo (values printed by CPython).
    #[test]
    fn python_float_divmod_matches_cpython() {
        use super::python_float_divmod as dm;
        assert_eq!(dm(1.0, 0.1), (9.0, 0.09999999999999995));
        assert_eq!(dm(7.0, -0.75), (-10.0, -0.5));
        assert_eq!(dm(-7.0, 2.5), (-3.0, 0.5));
        assert_eq!(dm(6.0, 3.0), (2.0, 0.0));
    }
}
