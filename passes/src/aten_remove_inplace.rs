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
//! the region's arguments or outer values are refused. Gradient-mode blocks
//! (`wrap_with_set_grad_enabled`) change no value and are inlined first, so
//! their writes are the enclosing block's. Anything it cannot
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

/// Inlines the `wrap_with_set_grad_enabled` ops of `block` (a `with
/// torch.no_grad()` block; nested ones too): gradient mode changes no value,
/// so its body is code of the enclosing block, and a write there to an outer
/// tensor is an ordinary write of this block (RWKV rescales its weights in
/// place under `no_grad`: a parameter mutation, like one outside it).
fn inline_grad_mode_blocks<'c, 'a>(block: melior::ir::BlockRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
    let name = format!("{}wrap_with_set_grad_enabled", aten_ir::HOP_PREFIX);
    // One pass per nesting level: an inlined body may bring its own blocks.
    loop {
        let mut found = Vec::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            if ir::op_name(op) == name {
                found.push(op);
            }
            next = op.next_in_block();
        }
        if found.is_empty() {
            return Ok(());
        }
        for op in found {
            crate::control_flow::inline_grad_mode(op).map_err(|message| (op, message))?;
            // SAFETY: every result was replaced by the inlined body's values.
            unsafe { ir::erase(op) };
        }
    }
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
    inline_grad_mode_blocks(block)?;
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
            let operand = ir::operand_at(op, i).ok_or_else(|| (op, format!("no operand {i}")))?;
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
            let result = ir::result_at(op, 0).ok_or_else(|| (op, "no result 0".to_string()))?;
            let parent_ssa = ir::operand_at(op, 0).ok_or_else(|| (op, "no operand 0".to_string()))?;
            let parent = state.logical_of(parent_ssa);
            state.register(result);
            state.views.insert(key(result), View { op, parent, parent_version: key(parent_ssa) });
            continue;
        }
        // 3. Writes become functional ops plus an assignment.
        if let Some((results, stats)) = running_stats_rewrite(context, op).map_err(|e| (op, e))? {
            if function.is_none() {
                for &(target, _) in &stats {
                    if !state.created_in(target, block) {
                        return Err((
                            op,
                            "updates running statistics from outside this region of a higher-order op; only \
                             tensors created inside the region can be written (clone them first)"
                                .to_string(),
                        ));
                    }
                }
            }
            for (i, value) in results.into_iter().enumerate() {
                let old: Value = ir::result_at(op, i).ok_or_else(|| (op, format!("no result {i}")))?;
                unsafe { sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), value.to_raw()) };
            }
            for (target, value) in stats {
                state.assign(target, value, op).map_err(|e| (op, e))?;
            }
            erase.push(op);
            continue;
        }
        let Some((schema, written)) = writes(op) else {
            continue;
        };
        // `detach_` only cuts autograd history: the tensor stays the same.
        if name == "aten.detach_.default" {
            let target = arg_operand(op, schema, "self").map_err(|e| (op, e))?;
            let result: Value = ir::result_at(op, 0).ok_or_else(|| (op, "no result 0".to_string()))?;
            let logical = state.logical_of(target);
            state.logical.insert(key(result), logical);
            erase.push(op);
            continue;
        }
        // `resize_` / `resize_as_` give the tensor a new shape: its new
        // version is `resize(self, size)` (a new value of that shape); a view
        // cannot be resized back into its base.
        let resize = matches!(name.as_str(), "aten.resize_.default" | "aten.resize_as_.default");
        if resize {
            let target = arg_operand(op, schema, "self").map_err(|e| (op, e))?;
            let logical = state.logical_of(target);
            if state.views.contains_key(&logical) {
                return Err((op, format!("'{name}' of a view: a view cannot be resized back into its base")));
            }
        }
        if schema.has_tag("inplace_view") && !resize {
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
        let (functional, new_values, own) = functional_form(&state, op, schema, &written).map_err(|e| (op, e))?;
        let block = op.block().ok_or((op, "op is not in a block".to_string()))?;
        let built = block.insert_operation_before(op, functional);
        for (index, arg) in written.iter().enumerate() {
            let target = arg_operand(op, schema, arg).map_err(|e| (op, e))?;
            let value = ir::result_at(built, new_values[index])
                .ok_or_else(|| (op, format!("no result {}", new_values[index])))?;
            state.assign(target, value, op).map_err(|e| (op, e))?;
        }
        // Side-effect writers: their own results are the functional op's first ones.
        for index in 0..own {
            let old: Value = ir::result_at(op, index).ok_or_else(|| (op, format!("no result {index}")))?;
            let new: Value = ir::result_at(built, index).ok_or_else(|| (op, format!("no result {index}")))?;
            unsafe { sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) };
        }
        if own > 0 {
            erase.push(op);
            continue;
        }
        // The op's results alias what it wrote.
        for (index, arg) in written.iter().enumerate() {
            if index < op.result_count() {
                let target = arg_operand(op, schema, arg).map_err(|e| (op, e))?;
                let result: Value = ir::result_at(op, index).ok_or_else(|| (op, format!("no result {index}")))?;
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
        if let Some(candidate) = schema.name.strip_suffix('_').and_then(|base| registry::lookup(base, schema.overload))
        {
            return candidate.is_functional().then_some(candidate);
        }
        return side_effect_functional(schema).or_else(|| inplace_functional(schema));
    }
    let inputs: Vec<(&str, &str)> = schema.arguments.iter().filter(|a| !a.is_out()).map(|a| (a.name, a.ty)).collect();
    registry::overloads(schema.name).iter().find(|candidate| {
        candidate.is_functional()
            && candidate.arguments.len() == inputs.len()
            && candidate.arguments.iter().zip(&inputs).all(|(a, (n, t))| a.name == *n && a.ty == *t)
    })
}

/// The functional counterpart of an op that writes some of its arguments as
/// a side effect besides returning its own results (`_native_batch_norm_legit`
/// updates `running_mean` / `running_var`): torch's functionalization pairs it
/// with `<name>_functional`, which takes the same arguments and returns the
/// op's results followed by the new content of each written argument.
fn side_effect_functional(schema: &OpSchema) -> Option<&'static OpSchema> {
    let name = format!("{}_functional", schema.name);
    let candidate = registry::lookup(&name, schema.overload)?;
    let written = schema.mutated_args().count();
    let same_args = candidate.arguments.len() == schema.arguments.len()
        && candidate.arguments.iter().zip(schema.arguments).all(|(a, b)| a.name == b.name && a.ty == b.ty);
    let side_effect = schema.returns.iter().all(|r| r.alias.is_none());
    (candidate.is_functional() && same_args && side_effect && candidate.returns.len() == schema.returns.len() + written)
        .then_some(candidate)
}

/// The `<name>_functional` form of an inplace op that has no plain
/// functional overload: same arguments, one result for the written `self`
/// (`normal_` -> `normal_functional`, as torch's functionalization pairs them).
fn inplace_functional(schema: &OpSchema) -> Option<&'static OpSchema> {
    let name = format!("{}_functional", schema.name.strip_suffix('_')?);
    let candidate = registry::lookup(&name, schema.overload)?;
    let same_args = candidate.arguments.len() == schema.arguments.len()
        && candidate.arguments.iter().zip(schema.arguments).all(|(a, b)| a.name == b.name && a.ty == b.ty);
    (candidate.is_functional()
        && same_args
        && candidate.returns.len() == schema.returns.len()
        && schema.mutated_args().count() == 1)
        .then_some(candidate)
}

/// Builds the functional op; returns it with, for each written argument, the
/// index of the result holding its new content.
fn functional_form<'c, 'a>(
    state: &State<'c, 'a>,
    op: OperationRef<'c, 'a>,
    schema: &OpSchema,
    written: &[&str],
) -> Result<(melior::ir::Operation<'c>, Vec<usize>, usize), String> {
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
    let side_effect =
        functional.returns.len() == schema.returns.len() + written.len() && functional.name != schema.name;
    let result_types: Vec<Type> = if side_effect {
        // The op's own results, then the new content of each written argument.
        let mut types: Vec<Type> = op.results().map(|r| r.r#type()).collect();
        for arg in written {
            types.push(arg_operand(op, schema, arg)?.r#type());
        }
        types
    } else if schema.is_inplace() {
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
    if side_effect {
        let own = schema.returns.len();
        return Ok((built, (own..own + written.len()).collect(), own));
    }
    Ok((built, (0..written.len()).collect(), 0))
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
                let fresh_value: Value = ir::result_at(fresh, 0).ok_or_else(|| "no result 0".to_string())?;
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
                    .and_then(|d| d.into_iter().collect::<Option<Vec<i64>>>());
                match shape {
                    Some(shape) => {
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
                    // A base of dynamic shape (DeBERTa's `x.view(...)`
                    // then `div_`): back to the base's run-time shape.
                    None => (
                        "view_as",
                        Box::new(move |n: &str| match n {
                            "self" => ArgValue::Operands(vec![src]),
                            "other" => ArgValue::Operands(vec![base]),
                            _ => ArgValue::Absent,
                        }),
                    ),
                }
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
        ir::result_at(block.insert_operation_before(at, built), 0)
            .ok_or_else(|| "a built op without a result".to_string())
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
        let weight: Value = ir::result_at(op, 0).ok_or_else(|| "no result 0".to_string())?;
        let current = state.resolve(weight, ret)?;
        if key(current) != key(weight) {
            // A mutated buffer's value is not a constant of the program: the
            // optimizer must not see the importer's copy of it.
            if op.attribute(aten_ir::WEIGHT_VALUE_ATTR).is_ok() {
                let name = aten_ir::WEIGHT_VALUE_ATTR;
                unsafe {
                    sys::mlirOperationRemoveAttributeByName(
                        op.to_raw(),
                        sys::MlirStringRef { data: name.as_ptr() as *const _, length: name.len() },
                    )
                };
            }
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

/// Values replacing an op's results, and (written tensor, its new content) pairs.
type Rewrite<'c, 'a> = (Vec<Value<'c, 'a>>, Vec<(Value<'c, 'a>, Value<'c, 'a>)>);

/// `batch_norm`, `native_batch_norm` (training) and `instance_norm`
/// (`use_input_stats`) with running statistics update those in place although
/// their schemas declare no write (torch.export's training IR keeps them as
/// they are). They become `_native_batch_norm_legit_functional`, whose
/// results 3 and 4 (the blended statistics: momentum, unbiased batch
/// variance) are the new content of `running_mean` / `running_var`.
/// `instance_norm` is computed as torch does: batch norm of the input viewed
/// as `[1, N*C, ...]` with the statistics, weight and bias repeated N times,
/// the updated statistics averaged back over N (static N and C needed).
/// New ops go before `op`; `None` when the op writes nothing.
fn running_stats_rewrite<'c, 'a>(
    context: &'c melior::Context,
    op: OperationRef<'c, 'a>,
) -> Result<Option<Rewrite<'c, 'a>>, String> {
    use melior::ir::{attribute::BoolAttribute, r#type::RankedTensorType};
    let name = ir::op_name(op);
    let (instance, training_arg) = match name.as_str() {
        "aten.batch_norm.default" | "aten.native_batch_norm.default" => (false, "training"),
        "aten.instance_norm.default" => (true, "use_input_stats"),
        _ => return Ok(None),
    };
    let Ok(AtenOp::Registered(schema)) = aten_ir::classify(&name) else {
        return Ok(None);
    };
    let args = aten_ir::arg_values(op, schema)?;
    let get = |n: &str| args.iter().find(|(a, _)| *a == n).map(|(_, v)| v.clone()).unwrap_or(ArgValue::Absent);
    let tensor = |n: &str| match get(n) {
        ArgValue::Operands(v) if v.len() == 1 => Some(v[0]),
        _ => None,
    };
    let training = match get(training_arg) {
        ArgValue::Attribute(a) if ir::attribute_kind(a) == "bool" => unsafe {
            sys::mlirBoolAttrGetValue(melior::ir::attribute::AttributeLike::to_raw(&a))
        },
        ArgValue::Attribute(a) if ir::attribute_kind(a) == "integer" => unsafe {
            sys::mlirIntegerAttrGetValueInt(melior::ir::attribute::AttributeLike::to_raw(&a)) != 0
        },
        _ => return Ok(None),
    };
    let (Some(rm), Some(rv), Some(input)) = (tensor("running_mean"), tensor("running_var"), tensor("input")) else {
        return Ok(None);
    };
    if !training {
        return Ok(None);
    }
    // batch_norm returns early on an empty input, without touching the stats.
    if name == "aten.batch_norm.default"
        && crate::lowering::builder::dims(input.r#type()).is_some_and(|d| d.contains(&Some(0)))
    {
        return Ok(None);
    }
    let functional = registry::lookup("_native_batch_norm_legit_functional", "default")
        .ok_or("registry has no _native_batch_norm_legit_functional")?;
    let block = op.block().ok_or("op is not in a block")?;
    let location = op.location();
    let true_attr: Attribute = BoolAttribute::new(context, true).into();
    let result = |o: OperationRef<'c, 'a>, i: usize| -> Result<Value<'c, 'a>, String> {
        ir::result_at(o, i).ok_or_else(|| format!("no result {i}"))
    };
    if !instance {
        let mut types: Vec<Type> = vec![ir::result_at(op, 0).ok_or_else(|| "no result 0".to_string())?.r#type()];
        for i in 1..3 {
            types.push(if i < op.result_count() {
                ir::result_at(op, i).ok_or_else(|| format!("no result {i}"))?.r#type()
            } else {
                rm.r#type()
            });
        }
        types.push(rm.r#type());
        types.push(rv.r#type());
        let f_get = |n: &str| if n == "training" { ArgValue::Attribute(true_attr) } else { get(n) };
        let built = aten_ir::build_op(context, functional, &f_get, &types, location)?;
        let built = block.insert_operation_before(op, built);
        let own = (0..op.result_count()).map(|i| result(built, i)).collect::<Result<Vec<_>, _>>()?;
        return Ok(Some((own, vec![(rm, result(built, 3)?), (rv, result(built, 4)?)])));
    }
    // instance_norm: static [N, C, spatial...].
    let dims = crate::lowering::builder::dims(input.r#type())
        .and_then(|d| d.into_iter().collect::<Option<Vec<i64>>>())
        .ok_or("instance_norm updating running statistics needs an input of static shape")?;
    if dims.len() < 3 {
        return Err("instance_norm needs an [N, C, spatial...] input".into());
    }
    let element = crate::lowering::builder::element_type(input.r#type()).ok_or("input is not a tensor")?;
    let stat_element = crate::lowering::builder::element_type(rm.r#type()).ok_or("running_mean is not a tensor")?;
    let (n, c) = (dims[0], dims[1]);
    let ty = |shape: &[i64], e: Type<'c>| -> Type<'c> {
        let shape: Vec<u64> = shape.iter().map(|&d| d as u64).collect();
        RankedTensorType::new(&shape, e, None).into()
    };
    let ints = |v: &[i64]| -> ArgValue<'c, 'a> { ArgValue::Attribute(DenseI64ArrayAttribute::new(context, v).into()) };
    let build = |target: &str, overload: &str, get: &dyn Fn(&str) -> ArgValue<'c, 'a>, types: &[Type<'c>]| {
        let schema =
            registry::lookup(target, overload).ok_or_else(|| format!("registry has no {target}.{overload}"))?;
        let built = aten_ir::build_op(context, schema, get, types, location)?;
        Ok::<_, String>(block.insert_operation_before(op, built))
    };
    let repeat = |v: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        let e = crate::lowering::builder::element_type(v.r#type()).ok_or("not a tensor")?;
        let get = |a: &str| match a {
            "self" => ArgValue::Operands(vec![v]),
            "repeats" => ints(&[n]),
            _ => ArgValue::Absent,
        };
        result(build("repeat", "default", &get, &[ty(&[n * c], e)])?, 0)
    };
    let view = |v: Value<'c, 'a>, shape: &[i64], e: Type<'c>| -> Result<Value<'c, 'a>, String> {
        let get = |a: &str| match a {
            "self" => ArgValue::Operands(vec![v]),
            "size" => ints(shape),
            _ => ArgValue::Absent,
        };
        result(build("view", "default", &get, &[ty(shape, e)])?, 0)
    };
    let mut flat = vec![1, n * c];
    flat.extend(&dims[2..]);
    let x = view(input, &flat, element)?;
    let (rm_rep, rv_rep) = (repeat(rm)?, repeat(rv)?);
    let weight = tensor("weight").map(repeat).transpose()?;
    let bias = tensor("bias").map(repeat).transpose()?;
    let f_get = |a: &str| match a {
        "input" => ArgValue::Operands(vec![x]),
        "weight" => weight.map_or(ArgValue::Absent, |w| ArgValue::Operands(vec![w])),
        "bias" => bias.map_or(ArgValue::Absent, |b| ArgValue::Operands(vec![b])),
        "running_mean" => ArgValue::Operands(vec![rm_rep]),
        "running_var" => ArgValue::Operands(vec![rv_rep]),
        "training" => ArgValue::Attribute(true_attr),
        other => get(other),
    };
    let types = [
        ty(&flat, element),
        ty(&[n * c], element),
        ty(&[n * c], element),
        ty(&[n * c], stat_element),
        ty(&[n * c], stat_element),
    ];
    let bn = build("_native_batch_norm_legit_functional", "default", &f_get, &types)?;
    let y = view(result(bn, 0)?, &dims, element)?;
    let false_attr: Attribute = BoolAttribute::new(context, false).into();
    let average = |v: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        let per_instance = view(v, &[n, c], stat_element)?;
        let get = |a: &str| match a {
            "self" => ArgValue::Operands(vec![per_instance]),
            "dim" => ints(&[0]),
            "keepdim" => ArgValue::Attribute(false_attr),
            _ => ArgValue::Absent,
        };
        result(build("mean", "dim", &get, &[ty(&[c], stat_element)])?, 0)
    };
    let new_rm = average(result(bn, 3)?)?;
    let new_rv = average(result(bn, 4)?)?;
    Ok(Some((vec![y], vec![(rm, new_rm), (rv, new_rv)])))
}
