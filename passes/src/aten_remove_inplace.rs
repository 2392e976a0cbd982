//! `aten-remove-inplace`: gives the aten dialect value semantics.
//!
//! Inplace variants (`add_`, `fill_`, `copy_`, `index_put_`, `masked_fill_`,
//! ...) and `out=` variants are found through the registry's alias
//! annotations (an argument marked `(a!)` is written), not a hand list. Each
//! becomes its functional overload (`add.Tensor`, `copy.default`, ...) whose
//! result is the new content of the written tensor. Later reads of that
//! tensor use the new value. A write through a view (`x[:, 1:3] = y` is
//! `slice` + `copy_`) is written back into the base with the view's scatter
//! inverse (`slice_scatter`, `select_scatter`, ...), and views taken before a
//! write are recomputed from the new base when read afterwards. Writes to
//! buffers, parameters and user inputs become extra function results
//! (`aten.kind` = `buffer_mutation` / `user_input_mutation` /
//! `parameter_mutation`, `aten.target`), after the existing results.
//! Inside regions of higher-order ops (cond branches, loop bodies) writes
//! to tensors created in that region are rewritten the same way; writes to
//! the region's arguments or outer values are refused. Anything it cannot
//! express (those, writes through views without an inverse,
//! metadata-changing inplace ops) is an error that names the op and its
//! source line.

use crate::{
    aten_ir::{self, ArgValue, AtenOp},
    diag::op_error,
    ir::{self, string_value},
    Factory, PassId, PassInfo, ProjectPass,
};
use aten2onnx_dialects::aten::{self as registry, OpSchema};
use melior::ir::{
    attribute::{ArrayAttribute, DenseI64ArrayAttribute, DictionaryAttribute},
    operation::OperationLike,
    Attribute, BlockLike, OperationRef, RegionLike, Type, Value, ValueLike,
};
use mlir_sys as sys;
use std::collections::HashMap;

static ID: PassId = PassId::new();

pub const INFO: PassInfo = PassInfo {
    name: "aten-remove-inplace",
    summary: "Turn inplace and out= aten ops into value semantics; mutated buffers/inputs become results",
    options: &[],
    create: |_| Ok(Box::new(Factory { pass: RemoveInplace, id: &ID, info: &INFO })),
};

#[derive(Clone)]
struct RemoveInplace;

impl ProjectPass for RemoveInplace {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()> {
        let mut ok = true;
        let mut functions = Vec::new();
        ir::walk(op, &mut |o| {
            if ir::op_name(o) == "func.func" {
                functions.push(o);
            }
        });
        for function in functions {
            if let Err((at, message)) = remove_inplace(function) {
                op_error(at, &message);
                ok = false;
            }
        }
        if ok {
            Ok(())
        } else {
            Err(())
        }
    }
}

type Key = usize;

fn key(value: Value<'_, '_>) -> Key {
    value.to_raw().ptr as usize
}

/// A view: `value = view_op(parent, ...)`.
#[derive(Clone, Copy)]
struct View<'c, 'a> {
    op: OperationRef<'c, 'a>,
    /// The logical value viewed.
    parent: Key,
    /// The version of the parent the current content was taken from.
    parent_version: Key,
}

struct State<'c, 'a> {
    context: &'c melior::Context,
    /// Logical value -> its current version.
    latest: HashMap<Key, Value<'c, 'a>>,
    /// SSA value -> logical value it stands for (results of inplace ops alias
    /// the written argument).
    logical: HashMap<Key, Key>,
    /// Logical value -> the view that produced it.
    views: HashMap<Key, View<'c, 'a>>,
    /// Logical values by key, to read them back.
    values: HashMap<Key, Value<'c, 'a>>,
}

/// Ops that return a view of their first argument, and how to write a new
/// content of the view back into the base.
fn is_view_op(name: &str) -> bool {
    matches!(
        name,
        "aten.slice.Tensor"
            | "aten.select.int"
            | "aten.view.default"
            | "aten._unsafe_view.default"
            | "aten.transpose.int"
            | "aten.permute.default"
            | "aten.unsqueeze.default"
            | "aten.squeeze.dim"
            | "aten.t.default"
            | "aten.alias.default"
            | "aten.detach.default"
            | "aten.expand.default"
            | "aten.diagonal.default"
            | "aten.narrow.default"
            | "aten.as_strided.default"
    )
}

type Failure<'c, 'a> = (OperationRef<'c, 'a>, String);

fn remove_inplace<'c, 'a>(function: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
    // `to_ref` borrows the ContextRef: keep it alive as long as the context is used.
    let context_ref = function.context();
    let context = unsafe { context_ref.to_ref() };
    let Some(region) = function.regions().next() else {
        return Ok(());
    };
    let Some(block) = region.first_block() else {
        return Ok(());
    };
    rewrite_block(context, block, Some(function))
}

/// Rewrites the writes of one block: the function's body (`function` set:
/// writes to inputs and buffers become extra results) or a region of a
/// higher-order op (`function` None), where only values created in that
/// region may be written (`y = x.clone(); y.add_(1)` in a branch): a write
/// to a region argument or an outer value would be a side effect of the
/// branch or loop body, which torch itself forbids and ONNX cannot express.
fn rewrite_block<'c, 'a>(
    context: &'c melior::Context,
    block: melior::ir::BlockRef<'c, 'a>,
    function: Option<OperationRef<'c, 'a>>,
) -> Result<(), Failure<'c, 'a>> {
    let mut state = State {
        context,
        latest: HashMap::new(),
        logical: HashMap::new(),
        views: HashMap::new(),
        values: HashMap::new(),
    };
    let mut ops = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        ops.push(op);
        next = op.next_in_block();
    }
    // Regions of higher-order ops first, each block on its own.
    for &op in &ops {
        for region in op.regions() {
            let mut inner = region.first_block();
            while let Some(b) = inner {
                rewrite_block(context, b, None)?;
                inner = b.next_in_region();
            }
        }
    }
    let mut erase = Vec::new();
    for op in ops {
        let name = ir::op_name(op);
        // 1. Operands read the current version of what they name.
        for i in 0..op.operand_count() {
            let operand = op.operand(i).map_err(|e| (op, e.to_string()))?;
            let current = state.resolve(operand, op).map_err(|e| (op, e))?;
            if key(current) != key(operand) {
                unsafe { sys::mlirOperationSetOperand(op.to_raw(), i as isize, current.to_raw()) };
            }
        }
        if name == "func.return" {
            if let Some(function) = function {
                add_mutation_results(&mut state, function, op).map_err(|e| (op, e))?;
            }
            continue;
        }
        // 2. Views remember their parent.
        if is_view_op(&name) && op.result_count() == 1 {
            let result = op.result(0).map_err(|e| (op, e.to_string()))?.into();
            let parent_ssa = op.operand(0).map_err(|e| (op, e.to_string()))?;
            let parent = state.logical_of(parent_ssa);
            state.register(result);
            state.views.insert(key(result), View { op, parent, parent_version: key(parent_ssa) });
            continue;
        }
        // 3. Writes become functional ops plus an assignment.
        let Some((schema, written)) = writes(op) else {
            continue;
        };
        // `detach_` only cuts autograd history: the tensor stays the same.
        if name == "aten.detach_.default" {
            let target = arg_operand(op, schema, "self").map_err(|e| (op, e))?;
            let result: Value = op.result(0).map_err(|e| (op, e.to_string()))?.into();
            let logical = state.logical_of(target);
            state.logical.insert(key(result), logical);
            erase.push(op);
            continue;
        }
        if schema.has_tag("inplace_view") {
            return Err((
                op,
                format!("'{name}' changes tensor metadata in place; rewrite it as its out-of-place form"),
            ));
        }
        if function.is_none() {
            for arg in &written {
                let target = arg_operand(op, schema, arg).map_err(|e| (op, e))?;
                if !state.created_in(target, block) {
                    return Err((
                        op,
                        format!(
                            "writes argument '{arg}', a tensor from outside this region of a higher-order op \
                             (an operand of the branch or loop body); only tensors created inside the region \
                             can be written (clone it first)"
                        ),
                    ));
                }
            }
        }
        let (functional, new_values) = functional_form(&state, op, schema, &written).map_err(|e| (op, e))?;
        let block = op.block().ok_or((op, "op is not in a block".to_string()))?;
        let built = block.insert_operation_before(op, functional);
        for (index, arg) in written.iter().enumerate() {
            let target = arg_operand(op, schema, arg).map_err(|e| (op, e))?;
            let value = built.result(new_values[index]).map_err(|e| (op, e.to_string()))?.into();
            state.assign(target, value, op).map_err(|e| (op, e))?;
        }
        // The op's results alias what it wrote.
        for (index, arg) in written.iter().enumerate() {
            if index < op.result_count() {
                let target = arg_operand(op, schema, arg).map_err(|e| (op, e))?;
                let result: Value = op.result(index).map_err(|e| (op, e.to_string()))?.into();
                let logical = state.logical_of(target);
                state.logical.insert(key(result), logical);
            }
        }
        erase.push(op);
    }
    for op in erase.into_iter().rev() {
        for result in op.results() {
            let value: Value = result.into();
            if ir::has_uses(value) {
                let logical = state.logical_of(value);
                let current = state.latest.get(&logical).copied().unwrap_or(value);
                unsafe { sys::mlirValueReplaceAllUsesOfWith(value.to_raw(), current.to_raw()) };
            }
        }
        unsafe { ir::erase(op) };
    }
    Ok(())
}

/// The schema and written arguments of an inplace / out= op.
fn writes(op: OperationRef<'_, '_>) -> Option<(&'static OpSchema, Vec<&'static str>)> {
    let name = ir::op_name(op);
    let Ok(AtenOp::Registered(schema)) = aten_ir::classify(&name) else {
        return None;
    };
    let written: Vec<&'static str> = schema.mutated_args().map(|a| a.name).collect();
    (!written.is_empty()).then_some((schema, written))
}

/// The operand carrying argument `arg` (a single tensor).
fn arg_operand<'c, 'a>(op: OperationRef<'c, 'a>, schema: &OpSchema, arg: &str) -> Result<Value<'c, 'a>, String> {
    match aten_ir::arg_values(op, schema)?.into_iter().find(|(n, _)| *n == arg) {
        Some((_, ArgValue::Operands(values))) if values.len() == 1 => Ok(values[0]),
        _ => Err(format!("written argument '{arg}' is not a single tensor")),
    }
}

/// The functional overload of an inplace or out= overload: `add_.Tensor` ->
/// `add.Tensor`; `add.out` -> the overload of `add` whose arguments are the
/// non-out arguments.
fn functional_schema(schema: &OpSchema) -> Option<&'static OpSchema> {
    if schema.is_inplace() {
        let base = schema.name.strip_suffix('_')?;
        let candidate = registry::lookup(base, schema.overload)?;
        return candidate.is_functional().then_some(candidate);
    }
    let inputs: Vec<(&str, &str)> = schema.arguments.iter().filter(|a| !a.is_out()).map(|a| (a.name, a.ty)).collect();
    registry::overloads(schema.name).iter().find(|candidate| {
        candidate.is_functional()
            && candidate.arguments.len() == inputs.len()
            && candidate.arguments.iter().zip(&inputs).all(|(a, (n, t))| a.name == *n && a.ty == *t)
    })
}

/// Builds the functional op; returns it with, for each written argument, the
/// index of the result holding its new content.
fn functional_form<'c, 'a>(
    state: &State<'c, 'a>,
    op: OperationRef<'c, 'a>,
    schema: &OpSchema,
    written: &[&str],
) -> Result<(melior::ir::Operation<'c>, Vec<usize>), String> {
    let functional = functional_schema(schema)
        .ok_or_else(|| format!("has no functional counterpart in the registry for {}", schema.target_name()))?;
    let args = aten_ir::arg_values(op, schema)?;
    // By name, else by position: some pairs name the first argument
    // differently (`dropout_(self, ...)` vs `dropout(input, ...)`).
    let get = |name: &str| {
        args.iter()
            .find(|(n, _)| *n == name)
            .or_else(|| functional.arguments.iter().position(|a| a.name == name).and_then(|i| args.get(i)))
            .map(|(_, v)| v.clone())
            .unwrap_or(ArgValue::Absent)
    };
    let result_types: Vec<Type> = if schema.is_inplace() {
        op.results().map(|r| r.r#type()).collect()
    } else {
        // out= variants return the out tensors; the functional form returns
        // values of the same types.
        written.iter().map(|arg| arg_operand(op, schema, arg).map(|v| v.r#type())).collect::<Result<_, _>>()?
    };
    let built = aten_ir::build_op(
        state.context,
        functional,
        &get,
        &result_types[..functional.returns.len().min(result_types.len())],
        op.location(),
    )?;
    Ok((built, (0..written.len()).collect()))
}

impl<'c, 'a> State<'c, 'a> {
    /// True when the tensor `value` names (through views, its base) was
    /// created by an op of `block`.
    fn created_in(&mut self, value: Value<'c, 'a>, block: melior::ir::BlockRef<'c, 'a>) -> bool {
        let mut logical = self.logical_of(value);
        while let Some(view) = self.views.get(&logical) {
            logical = view.parent;
        }
        let base = self.values.get(&logical).copied().unwrap_or(value);
        unsafe {
            sys::mlirValueIsAOpResult(base.to_raw()) && {
                let owner = OperationRef::from_raw(sys::mlirOpResultGetOwner(base.to_raw()));
                owner.block().is_some_and(|b| b == block)
            }
        }
    }

    fn register(&mut self, value: Value<'c, 'a>) {
        self.values.entry(key(value)).or_insert(value);
    }

    fn logical_of(&mut self, value: Value<'c, 'a>) -> Key {
        let k = key(value);
        let logical = self.logical.get(&k).copied().unwrap_or(k);
        self.values.entry(logical).or_insert(value);
        logical
    }

    /// The current content of the tensor `value` names, recomputing a view
    /// whose base changed since it was taken. New ops go before `at`.
    fn resolve(&mut self, value: Value<'c, 'a>, at: OperationRef<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        let logical = self.logical_of(value);
        if let Some(view) = self.views.get(&logical).copied() {
            let parent_value = self.values[&view.parent];
            let parent_now = self.resolve(parent_value, at)?;
            if key(parent_now) != view.parent_version {
                // Re-take the view from the parent's current version.
                let clone = unsafe { melior::ir::Operation::from_raw(sys::mlirOperationClone(view.op.to_raw())) };
                let block = at.block().ok_or("op is not in a block")?;
                let fresh = block.insert_operation_before(at, clone);
                unsafe { sys::mlirOperationSetOperand(fresh.to_raw(), 0, parent_now.to_raw()) };
                let fresh_value: Value = fresh.result(0).map_err(|e| e.to_string())?.into();
                self.latest.insert(logical, fresh_value);
                self.logical.insert(key(fresh_value), logical);
                self.views.insert(logical, View { op: view.op, parent: view.parent, parent_version: key(parent_now) });
                return Ok(fresh_value);
            }
        }
        Ok(self.latest.get(&logical).copied().unwrap_or(self.values[&logical]))
    }

    /// Records that the tensor `target` names now holds `value`; writes
    /// through views go back into their bases. New ops go before `at`.
    fn assign(&mut self, target: Value<'c, 'a>, value: Value<'c, 'a>, at: OperationRef<'c, 'a>) -> Result<(), String> {
        let logical = self.logical_of(target);
        self.latest.insert(logical, value);
        // Every version of a tensor stands for it: a later write through
        // this value writes the same tensor.
        self.logical.insert(key(value), logical);
        let Some(view) = self.views.get(&logical).copied() else {
            return Ok(());
        };
        let parent_value = self.values[&view.parent];
        let parent_now = self.resolve(parent_value, at)?;
        let new_parent = self.scatter(view.op, parent_now, value, at)?;
        self.assign(parent_value, new_parent, at)?;
        // The view now reflects the new parent version.
        self.views.insert(logical, View { op: view.op, parent: view.parent, parent_version: key(new_parent) });
        self.latest.insert(logical, value);
        Ok(())
    }

    /// Builds the base with the view's region replaced by `src`.
    fn scatter(
        &mut self,
        view: OperationRef<'c, 'a>,
        base: Value<'c, 'a>,
        src: Value<'c, 'a>,
        at: OperationRef<'c, 'a>,
    ) -> Result<Value<'c, 'a>, String> {
        let name = ir::op_name(view);
        let view_schema = match aten_ir::classify(&name) {
            Ok(AtenOp::Registered(s)) => s,
            _ => return Err(format!("cannot write through '{name}'")),
        };
        let args = aten_ir::arg_values(view, view_schema)?;
        let get_view = |n: &str| args.iter().find(|(a, _)| *a == n).map(|(_, v)| v.clone()).unwrap_or(ArgValue::Absent);
        let (target, get): (&str, Box<dyn Fn(&str) -> ArgValue<'c, 'a>>) = match name.as_str() {
            // The view's region of the base is replaced by `src`.
            "aten.slice.Tensor" | "aten.select.int" | "aten.diagonal.default" => (
                match name.as_str() {
                    "aten.slice.Tensor" => "slice_scatter",
                    "aten.select.int" => "select_scatter",
                    _ => "diagonal_scatter",
                },
                Box::new(move |n: &str| match n {
                    "self" => ArgValue::Operands(vec![base]),
                    "src" => ArgValue::Operands(vec![src]),
                    other => get_view(other),
                }),
            ),
            "aten.alias.default" | "aten.detach.default" => return Ok(src),
            // Self-inverse or paired views, applied to `src` with the same arguments.
            "aten.transpose.int" | "aten.t.default" | "aten.unsqueeze.default" | "aten.squeeze.dim" => (
                match name.as_str() {
                    "aten.transpose.int" => "transpose",
                    "aten.t.default" => "t",
                    "aten.unsqueeze.default" => "squeeze",
                    _ => "unsqueeze",
                },
                Box::new(move |n: &str| match n {
                    "self" => ArgValue::Operands(vec![src]),
                    other => get_view(other),
                }),
            ),
            "aten.permute.default" => {
                let dims = match get_view("dims") {
                    ArgValue::Attribute(a) => ir::dense_i64_values(a).ok_or("permute dims are not static")?,
                    _ => return Err("permute dims are not static".into()),
                };
                let rank = dims.len() as i64;
                let mut inverse = vec![0i64; dims.len()];
                for (i, d) in dims.iter().enumerate() {
                    inverse[((d + rank) % rank) as usize] = i as i64;
                }
                let inverse: Attribute = DenseI64ArrayAttribute::new(self.context, &inverse).into();
                (
                    "permute",
                    Box::new(move |n: &str| match n {
                        "self" => ArgValue::Operands(vec![src]),
                        "dims" => ArgValue::Attribute(inverse),
                        _ => ArgValue::Absent,
                    }),
                )
            }
            "aten.view.default" | "aten._unsafe_view.default" => {
                let shape = crate::lowering::builder::dims(base.r#type())
                    .and_then(|d| d.into_iter().collect::<Option<Vec<i64>>>())
                    .ok_or("writing through a view of a tensor with dynamic shape is not supported")?;
                let size: Attribute = DenseI64ArrayAttribute::new(self.context, &shape).into();
                (
                    "view",
                    Box::new(move |n: &str| match n {
                        "self" => ArgValue::Operands(vec![src]),
                        "size" => ArgValue::Attribute(size),
                        _ => ArgValue::Absent,
                    }),
                )
            }
            other => return Err(format!("cannot write through the view '{other}' (no inverse)")),
        };
        let overload = match target {
            "transpose" => "int",
            "squeeze" => "dim",
            _ => "default",
        };
        let schema =
            registry::lookup(target, overload).ok_or_else(|| format!("registry has no {target}.{overload}"))?;
        // Every inverse produces a tensor shaped like the base.
        let built = aten_ir::build_op(self.context, schema, &*get, &[base.r#type()], at.location())?;
        let block = at.block().ok_or("op is not in a block")?;
        Ok(block.insert_operation_before(at, built).result(0).map_err(|e| e.to_string())?.into())
    }
}

/// Adds results for every buffer, parameter or user input whose content
/// changed, after the existing results.
fn add_mutation_results<'c, 'a>(
    state: &mut State<'c, 'a>,
    function: OperationRef<'c, 'a>,
    ret: OperationRef<'c, 'a>,
) -> Result<(), String> {
    let block = ret.block().ok_or("return is not in a block")?;
    let mut extra: Vec<(Value, &str, String)> = Vec::new();
    // Function arguments (user inputs).
    let arg_attrs = function.attribute("arg_attrs").ok();
    for i in 0..block.argument_count() {
        let arg: Value = block.argument(i).map_err(|e| e.to_string())?.into();
        let current = state.resolve(arg, ret)?;
        if key(current) != key(arg) {
            let name = arg_attrs
                .and_then(|a| ArrayAttribute::try_from(a).ok())
                .and_then(|a| a.element(i).ok())
                .and_then(|d| DictionaryAttribute::try_from(d).ok())
                .and_then(|d| d.element_by_name("aten.name"))
                .and_then(string_value)
                .unwrap_or_else(|| format!("arg{i}"));
            extra.push((current, "user_input_mutation", name));
        }
    }
    // Weights (buffers and parameters).
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if ir::op_name(op) != aten_ir::WEIGHT_OP {
            continue;
        }
        let weight: Value = op.result(0).map_err(|e| e.to_string())?.into();
        let current = state.resolve(weight, ret)?;
        if key(current) != key(weight) {
            let kind = op.attribute(aten_ir::WEIGHT_KIND_ATTR).ok().and_then(string_value).unwrap_or_default();
            let name = aten_ir::weight_name(op).unwrap_or_default();
            let kind = if kind == "parameter" { "parameter_mutation" } else { "buffer_mutation" };
            extra.push((current, kind, name));
        }
    }
    if extra.is_empty() {
        return Ok(());
    }
    let values: Vec<Value> = extra.iter().map(|(v, _, _)| *v).collect();
    let attrs: Vec<Vec<(&str, String)>> = extra
        .iter()
        .map(|(_, kind, target)| {
            vec![("aten.kind", kind.to_string()), ("aten.name", target.clone()), ("aten.target", target.clone())]
        })
        .collect();
    ir::append_function_results(function, ret, &values, &attrs)?;
    Ok(())
}
