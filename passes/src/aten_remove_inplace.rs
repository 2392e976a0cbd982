//! `aten-remove-inplace`: gives the aten dialect value semantics.
//!
//! Inplace variants (`add_`, `fill_`, `copy_`, `index_put_`, `masked_fill_`,
//! ...) and `out=` variants are found through the registry's alias
//! annotations (an argument marked `(a!)` is written), not a hand list. Each
//! becomes its functional overload (`add.Tensor`, `copy.default`, ...) whose
//! result is the new content of the written tensor. [`inplace_form`] decides
//! it for every in-place overload of the registry: the functional overload
//! taking the same arguments (`pow_.Scalar` -> `pow.Tensor_Scalar`), or a
//! refusal with its reason. A comparison or logical op written into a tensor
//! of another dtype is cast to it (torch writes 1 / 0), and a type-promoting
//! op with a wider operand is computed in the promoted dtype, then cast.
//! Later reads of that tensor use the new value. Metadata-changing ops
//! (`unsqueeze_`, `squeeze_`, `t_`, `transpose_`, `swapdims_`, `as_strided_`)
//! rebind the tensor to the out-of-place view of its storage. A write through
//! a view (`x[:, 1:3] = y` is `slice` + `copy_`) is written back into the
//! base with the view's scatter inverse (`slice_scatter`, `select_scatter`,
//! ...), and views taken before a write are recomputed from the new base
//! when read afterwards. Writes to buffers, parameters and user inputs
//! become extra function results
//! (`aten.kind` = `buffer_mutation` / `user_input_mutation` /
//! `parameter_mutation`, `aten.target`), after the existing results.
//! Inside regions of higher-order ops (cond branches, loop bodies) writes
//! to tensors created in that region are rewritten the same way; writes to
//! the region's arguments or outer values are refused. Gradient-mode blocks
//! (`wrap_with_set_grad_enabled`) change no value and are inlined first, so
//! their writes are the enclosing block's. Anything it cannot
//! express (those, writes through views without an inverse, the refused
//! in-place overloads: storage aliasing with `set_`, sparse tensors, lists
//! of tensors, ...) is an error that names the op and its source line.

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
            | "aten.squeeze.default"
            | "aten.squeeze.dim"
            | "aten.squeeze.dims"
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
        let form = if schema.is_inplace() {
            match inplace_form(schema) {
                Some(InplaceForm::Refused(reason)) => {
                    return Err((op, format!("'{name}' is not supported: {reason}")));
                }
                Some(form) => Some(form),
                None => {
                    return Err((
                        op,
                        format!("has no functional counterpart in the registry for {}", schema.target_name()),
                    ));
                }
            }
        } else {
            None
        };
        // `detach_`, `requires_grad_`, ...: the tensor stays the same.
        if form == Some(InplaceForm::Identity) {
            let target = arg_operand(op, schema, written[0]).map_err(|e| (op, e))?;
            let logical = state.logical_of(target);
            for result in op.results() {
                let result: Value = result.into();
                state.logical.insert(key(result), logical);
            }
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
        // Metadata changes (`unsqueeze_`, `t_`, ...): the tensor becomes a
        // view of what it was (its storage).
        if let Some(InplaceForm::View(view)) = form {
            let target = arg_operand(op, schema, "self").map_err(|e| (op, e))?;
            let args = aten_ir::arg_values(op, schema).map_err(|e| (op, e))?;
            let get = |n: &str| arg_by_name_or_position(&args, view, n);
            let result: Value = ir::result_at(op, 0).ok_or_else(|| (op, "no result 0".to_string()))?;
            let built =
                aten_ir::build_op(context, view, &get, &[result.r#type()], op.location()).map_err(|e| (op, e))?;
            let at = op.block().ok_or((op, "op is not in a block".to_string()))?;
            let built = at.insert_operation_before(op, built);
            let value: Value = ir::result_at(built, 0).ok_or_else(|| (op, "no result 0".to_string()))?;
            state.rebind(target, value, built);
            state.logical.insert(key(result), key(value));
            erase.push(op);
            continue;
        }
        let (new_values, own) = functional_form(&state, op, schema, form, &written).map_err(|e| (op, e))?;
        for (index, arg) in written.iter().enumerate() {
            let target = arg_operand(op, schema, arg).map_err(|e| (op, e))?;
            state.assign(target, new_values[index], op).map_err(|e| (op, e))?;
        }
        // Side-effect writers: their own results are the functional op's first ones.
        if let Some(own) = own {
            for (index, new) in own.into_iter().enumerate() {
                let old: Value = ir::result_at(op, index).ok_or_else(|| (op, format!("no result {index}")))?;
                unsafe { sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) };
            }
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

/// What `aten-remove-inplace` makes of an in-place overload (one writing a
/// non-out argument), decided from the registry alone ([`inplace_form`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum InplaceForm {
    /// The functional overload whose results are the new contents of the
    /// written arguments, in order: `add_.Tensor` -> `add.Tensor`,
    /// `pow_.Scalar` -> `pow.Tensor_Scalar`, `normal_` -> `normal_functional`.
    /// A bool result written into a tensor of another dtype (`x.lt_(y)` on a
    /// float `x`) is cast to it, as torch does (1 / 0).
    Functional(&'static OpSchema),
    /// An op writing some arguments besides returning its own results
    /// (`_native_batch_norm_legit`): the `_functional` overload returns those
    /// results, then the new content of each written argument.
    SideEffect(&'static OpSchema),
    /// A metadata-changing op (`unsqueeze_`, `t_`, `squeeze_`, ...): the
    /// tensor is rebound to this out-of-place view of what it was; later
    /// reads see the new shape, and writes go back through the view's
    /// inverse into the same storage.
    View(&'static OpSchema),
    /// Changes no value (`detach_`, `requires_grad_`): the tensor stays as it is.
    Identity,
    /// Refused, with the reason.
    Refused(&'static str),
}

/// In-place overloads rebound as their out-of-place view (`inplace_view`
/// ops, metadata only), with the view's overload.
const VIEW_FORMS: &[(&str, &str, &str, &str)] = &[
    ("as_strided_", "", "as_strided", ""),
    ("squeeze_", "", "squeeze", ""),
    ("squeeze_", "dim", "squeeze", "dim"),
    ("squeeze_", "dims", "squeeze", "dims"),
    // `swapaxes_(axis0, axis1)`, `swapdims_(dim0, dim1)`: a transpose (arguments by position).
    ("swapaxes_", "", "transpose", "int"),
    ("swapdims_", "", "transpose", "int"),
    ("t_", "", "t", ""),
    ("transpose_", "", "transpose", "int"),
    ("unsqueeze_", "", "unsqueeze", ""),
];

/// In-place overloads that change no value.
const IDENTITY_FORMS: &[(&str, &str)] = &[
    // Cuts autograd history.
    ("detach_", ""),
    // CUDA caching-allocator bookkeeping.
    ("record_stream", ""),
    // Autograd flags.
    ("requires_grad_", ""),
    ("retain_grad", ""),
];

/// Functional counterparts the registry does not pair by name and
/// arguments (arguments passed by name, else by position).
const FUNCTIONAL_FORMS: &[(&str, &str, &str, &str)] = &[
    // `_index_put_impl_(self, Tensor[] indices, ...)`: its indices are all present.
    ("_index_put_impl_", "hacked_twin", "_index_put_impl", ""),
    // TorchScript's `copy_(self, other)` overloads: a tensor copied in, a number filled in.
    ("copy_", "Tensor", "copy", ""),
    ("copy_", "float", "fill", "Scalar"),
    ("copy_", "int", "fill", "Scalar"),
];

const SPARSE: &str = "sparse tensors are not supported (the compiler handles strided tensors only)";
const ALIASING: &str = "makes the tensor share another tensor's storage (set_ / set_data / shallow_copy_data_): \
                        two tensors aliasing the same memory have no value-semantics form";
const CUDA: &str = "a CUDA-only kernel (flash / cuDNN / memory-efficient attention internals)";
const CUM_HELPER: &str = "an internal kernel of cummax / cummin (writes values and indices, returns nothing); \
                          exported programs hold cummax / cummin, which have rules";
const NO_GRAD_INIT: &str = "a TorchScript-only helper of torch.nn.init; Python's nn.init calls fill_ / zero_ / \
                            normal_ / uniform_, which are rewritten";
const SOBOL: &str = "torch.quasirandom.SobolEngine's state kernels are not supported";
const FBGEMM: &str = "an fbgemm kernel over a backend-specific packed weight (not a tensor the compiler can read)";
const MKLDNN: &str = "an MKL-DNN (opaque layout) tensor op";
const QAT_OBSERVER: &str = "a quantization-aware-training observer updating its running min / max, scale and zero \
                            point in place: training-time state, not supported";
const FILL_DIAGONAL: &str = "has no functional overload in the registry (fill_diagonal_ is not rewritten yet)";

/// In-place overloads refused by name, with the reason.
const REFUSED: &[(&str, &str, &str)] = &[
    ("_coalesced_", "", SPARSE),
    ("_cudnn_attention_forward_no_dropout_inplace", "", CUDA),
    ("_cummax_helper", "", CUM_HELPER),
    ("_cummin_helper", "", CUM_HELPER),
    ("_fill_mem_eff_dropout_mask_", "", CUDA),
    ("_flash_attention_forward_no_dropout_inplace", "", CUDA),
    ("_mkldnn_transpose_", "", MKLDNN),
    ("_no_grad_fill_", "", NO_GRAD_INIT),
    ("_no_grad_normal_", "", NO_GRAD_INIT),
    ("_no_grad_uniform_", "", NO_GRAD_INIT),
    ("_no_grad_zero_", "", NO_GRAD_INIT),
    ("_sobol_engine_ff_", "", SOBOL),
    ("_sobol_engine_initialize_state_", "", SOBOL),
    ("_sobol_engine_scramble_", "", SOBOL),
    ("copy_sparse_to_sparse_", "", SPARSE),
    ("fbgemm_linear_fp16_weight", "out", FBGEMM),
    ("fbgemm_linear_fp16_weight_fp32_activation", "out", FBGEMM),
    ("fill_diagonal_", "", FILL_DIAGONAL),
    ("fused_moving_avg_obs_fake_quant", "", QAT_OBSERVER),
    ("resize_as_sparse_", "", SPARSE),
    ("set_", "", ALIASING),
    ("set_", "source_Storage", ALIASING),
    ("set_", "source_Storage_storage_offset", ALIASING),
    ("set_", "source_Tensor", ALIASING),
    ("set_", "source_Tensor_storage_offset", ALIASING),
    ("set_data", "", ALIASING),
    ("shallow_copy_data_", "", ALIASING),
    ("sparse_resize_", "", SPARSE),
    ("sparse_resize_and_clear_", "", SPARSE),
];

/// Refusal of an overload writing something other than a tensor.
const NOT_A_TENSOR: &str = "mutates a TorchScript list, dict or generator, not a tensor (TorchScript builtins; \
                            exported programs hold none)";
/// Refusal of an overload writing lists of tensors.
const TENSOR_LISTS: &str = "writes lists of tensors in place (`Tensor(a!)[]`: the multi-tensor _foreach_ kernels, \
                            fused optimizer steps, AMP unscaling of a training step): not rewritten";
/// Refusal of an out= overload that also writes non-out arguments.
const OUT_AND_INPLACE: &str = "an out= overload that also writes its inputs (running statistics, AMP or observer \
                               state, a noise buffer): only the in-place and functional overloads are rewritten";

fn find4(
    table: &[(&str, &str, &'static str, &'static str)],
    schema: &OpSchema,
) -> Option<(&'static str, &'static str)> {
    table
        .iter()
        .find(|(n, o, _, _)| *n == schema.name && *o == schema.overload)
        .map(|&(_, _, fname, fover)| (fname, fover))
}

/// What `aten-remove-inplace` makes of the in-place overload `schema`; None
/// when nothing is decided for it (a gap: the registry-wide test fails).
pub fn inplace_form(schema: &OpSchema) -> Option<InplaceForm> {
    let lookup = |name: &str, overload: &str| registry::lookup(name, overload);
    if let Some(&(_, _, reason)) = REFUSED.iter().find(|(n, o, _)| *n == schema.name && *o == schema.overload) {
        return Some(InplaceForm::Refused(reason));
    }
    if IDENTITY_FORMS.iter().any(|(n, o)| *n == schema.name && *o == schema.overload) {
        return Some(InplaceForm::Identity);
    }
    if let Some((name, overload)) = find4(VIEW_FORMS, schema) {
        return lookup(name, overload).map(InplaceForm::View);
    }
    if let Some((name, overload)) = find4(FUNCTIONAL_FORMS, schema) {
        return lookup(name, overload).filter(|c| c.is_functional()).map(InplaceForm::Functional);
    }
    // By the written arguments' types.
    // A list written as a whole (`Tensor[](a!)`, TorchScript's `remove`,
    // `sort`) is a list mutation; `Tensor(a!)[]` writes the tensors in it.
    let whole_list =
        |a: &registry::Argument| a.alias.is_some_and(|alias| !alias.on_elements) && a.arg_type().is_tensor_list();
    if schema.mutated_args().any(|a| (!a.arg_type().is_tensor() && !a.arg_type().is_tensor_list()) || whole_list(a)) {
        return Some(InplaceForm::Refused(NOT_A_TENSOR));
    }
    if schema.mutated_args().any(|a| a.arg_type().is_tensor_list()) {
        return Some(InplaceForm::Refused(TENSOR_LISTS));
    }
    if schema.is_out_variant() {
        return Some(InplaceForm::Refused(OUT_AND_INPLACE));
    }
    if let Some(candidate) = side_effect_functional(schema) {
        return Some(InplaceForm::SideEffect(candidate));
    }
    // `add_` -> `add`, `__iand__` -> `__and__`.
    let base = match schema.name.strip_prefix("__i").and_then(|n| n.strip_suffix("__")) {
        Some(op) => format!("__{op}__"),
        None => schema.name.strip_suffix('_')?.to_string(),
    };
    if let Some(candidate) = matching_overload(schema, registry::overloads(&base)) {
        return Some(InplaceForm::Functional(candidate));
    }
    // No plain functional overload: `<base>_functional` (`normal_`, `rrelu_with_noise_`),
    // as torch's functionalization pairs them.
    let candidate = lookup(&format!("{base}_functional"), schema.overload)?;
    (candidate.is_functional()
        && same_arguments(schema, candidate)
        && candidate.returns.len() == schema.mutated_args().count())
    .then_some(InplaceForm::Functional(candidate))
}

/// The functional overload among `candidates` taking the arguments of
/// `schema` and returning one value per written argument: the one of the
/// same overload name, else the only one. Arguments match by name and type
/// (`polygamma_(self, n)` / `polygamma(n, self)`), or by position and type
/// (`dropout_(self, ...)` / `dropout(input, ...)`).
fn matching_overload(schema: &OpSchema, candidates: &'static [OpSchema]) -> Option<&'static OpSchema> {
    let written = schema.mutated_args().count();
    let fits = |c: &OpSchema| {
        c.is_functional()
            && c.returns.len() == written
            && c.returns.iter().all(|r| r.ty == "Tensor")
            && same_arguments(schema, c)
    };
    if let Some(c) = candidates.iter().find(|c| c.overload == schema.overload && fits(c)) {
        return Some(c);
    }
    let mut fitting = candidates.iter().filter(|c| fits(c));
    match (fitting.next(), fitting.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// True when `b` takes the arguments of `a`: the same number, each of the
/// same type, by name or else by position.
fn same_arguments(a: &OpSchema, b: &OpSchema) -> bool {
    if a.arguments.len() != b.arguments.len() {
        return false;
    }
    let by_name = a.arguments.iter().all(|x| b.arguments.iter().any(|y| y.name == x.name && y.ty == x.ty));
    let by_position = a.arguments.iter().zip(b.arguments).all(|(x, y)| x.ty == y.ty);
    by_name || by_position
}

/// The functional overload of an out= overload: the overload of the same
/// name whose arguments are the non-out arguments (`add.out` -> `add.Tensor`).
fn out_functional(schema: &OpSchema) -> Option<&'static OpSchema> {
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

/// Functional ops whose result dtype is torch's promotion of their tensor
/// operands' (`add`, `clamp`, `pow`, `floor_divide`, `__and__`, ...).
fn promotes(functional: &OpSchema) -> bool {
    functional.has_tag("pointwise")
        || matches!(functional.name, "floor_divide" | "__and__" | "__or__" | "__xor__" | "_add_relu")
}

/// Functional ops whose result is bool whatever their operands' dtype: in
/// place, torch writes it into the tensor's own dtype (1 / 0).
fn has_bool_result(functional: &OpSchema) -> bool {
    matches!(
        functional.name,
        "eq" | "ne"
            | "lt"
            | "le"
            | "gt"
            | "ge"
            | "greater"
            | "greater_equal"
            | "less"
            | "less_equal"
            | "not_equal"
            | "logical_and"
            | "logical_or"
            | "logical_xor"
            | "logical_not"
    )
}

/// Argument `name` of a functional counterpart, read from the arguments of
/// the op it replaces: by name, else by position (some pairs name an
/// argument differently: `dropout_(self, ...)` vs `dropout(input, ...)`,
/// `swapaxes_(self, axis0, axis1)` vs `transpose(self, dim0, dim1)`).
fn arg_by_name_or_position<'c, 'a>(
    args: &[(&'static str, ArgValue<'c, 'a>)],
    functional: &OpSchema,
    name: &str,
) -> ArgValue<'c, 'a> {
    args.iter()
        .find(|(n, _)| *n == name)
        .or_else(|| functional.arguments.iter().position(|a| a.name == name).and_then(|i| args.get(i)))
        .map(|(_, v)| v.clone())
        .unwrap_or(ArgValue::Absent)
}

/// The new contents of the written arguments and the replacements of the
/// op's own results (side-effect writers only), computed by the functional
/// counterpart (`form`: of an in-place op; None for an out= op), built
/// before `op`.
type FunctionalValues<'c, 'a> = (Vec<Value<'c, 'a>>, Option<Vec<Value<'c, 'a>>>);

fn functional_form<'c, 'a>(
    state: &State<'c, 'a>,
    op: OperationRef<'c, 'a>,
    schema: &OpSchema,
    form: Option<InplaceForm>,
    written: &[&str],
) -> Result<FunctionalValues<'c, 'a>, String> {
    let (functional, side_effect) = match form {
        Some(InplaceForm::Functional(f)) => (f, false),
        Some(InplaceForm::SideEffect(f)) => (f, true),
        Some(other) => return Err(format!("internal error: {other:?} is not a functional form")),
        None => (
            out_functional(schema)
                .ok_or_else(|| format!("has no functional counterpart in the registry for {}", schema.target_name()))?,
            false,
        ),
    };
    let args = aten_ir::arg_values(op, schema)?;
    let get = |name: &str| arg_by_name_or_position(&args, functional, name);
    let mut result_types: Vec<Type> = Vec::new();
    if side_effect {
        // The op's own results, then the new content of each written argument.
        result_types.extend(op.results().map(|r| r.r#type()));
        for arg in written {
            result_types.push(arg_operand(op, schema, arg)?.r#type());
        }
    } else {
        // The in-place op's results (the written tensors, `resize_`'s with
        // their new shape), else the written arguments' types (out= outputs,
        // written arguments the op does not return).
        for (index, arg) in written.iter().enumerate() {
            result_types.push(match ir::result_at(op, index) {
                Some(r) if schema.is_inplace() => r.r#type(),
                _ => arg_operand(op, schema, arg)?.r#type(),
            });
        }
    }
    result_types.truncate(functional.returns.len());
    // The element type torch computes the new content in when it is not the
    // written tensor's (converted to it afterwards, as torch's in-place
    // kernels write their result): bool for a comparison or logical op
    // (torch writes 1 / 0), the promoted type of the tensor operands for a
    // type-promoting op (`u8.clamp_(min=i32)` clamps in int32,
    // `x32.add_(y64)` adds in float64).
    let bool_type: Type = melior::ir::r#type::IntegerType::new(state.context, 1).into();
    let computed: Option<Type> = match form {
        Some(InplaceForm::Functional(f)) if has_bool_result(f) => Some(bool_type),
        Some(InplaceForm::Functional(f)) if promotes(f) && result_types.len() == 1 => {
            let mut operands = Vec::new();
            for (arg, (_, value)) in schema.arguments.iter().zip(&args) {
                if let ArgValue::Operands(values) = value {
                    if arg.arg_type().is_tensor() {
                        for v in values {
                            let element = crate::lowering::builder::element_type(v.r#type()).ok_or("not a tensor")?;
                            operands.push((element, crate::lowering::builder::rank(v.r#type()) == Some(0)));
                        }
                    }
                }
            }
            crate::lowering::builder::result_type(state.context, &operands)
        }
        _ => None,
    };
    let cast_to: Vec<Option<Type>> = result_types
        .iter()
        .map(|&t| {
            let element = crate::lowering::builder::element_type(t);
            (computed.is_some() && element.is_some() && element != computed).then_some(t)
        })
        .collect();
    let built_types: Vec<Type> = result_types
        .iter()
        .zip(&cast_to)
        .map(|(&t, cast)| match (cast, computed) {
            (Some(_), Some(computed)) => {
                crate::lowering::builder::with_element_type(t, computed).ok_or("not a tensor type")
            }
            _ => Ok(t),
        })
        .collect::<Result<_, _>>()?;
    let block = op.block().ok_or("op is not in a block")?;
    let built = aten_ir::build_op(state.context, functional, &get, &built_types, op.location())?;
    let built = block.insert_operation_before(op, built);
    let mut results: Vec<Value> = Vec::new();
    for (index, cast) in cast_to.iter().enumerate() {
        let value: Value = ir::result_at(built, index).ok_or_else(|| format!("no result {index}"))?;
        results.push(match cast {
            Some(t) => to_dtype(state.context, value, *t, op)?,
            None => value,
        });
    }
    if side_effect {
        let own = schema.returns.len();
        let new_values = results.split_off(own);
        return Ok((new_values, Some(results)));
    }
    Ok((results, None))
}

/// `_to_copy(value, dtype=<element of ty>)` of type `ty`, built before `at`.
fn to_dtype<'c, 'a>(
    context: &'c melior::Context,
    value: Value<'c, 'a>,
    ty: Type<'c>,
    at: OperationRef<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    use melior::ir::attribute::{IntegerAttribute, TypeAttribute};
    let schema = registry::lookup("_to_copy", "").ok_or("registry has no _to_copy")?;
    let element = crate::lowering::builder::element_type(ty).ok_or("not a tensor type")?;
    let dtype: Attribute = TypeAttribute::new(element).into();
    let no: Attribute = IntegerAttribute::new(melior::ir::r#type::IntegerType::new(context, 1).into(), 0).into();
    let get = |n: &str| match n {
        "self" => ArgValue::Operands(vec![value]),
        "dtype" => ArgValue::Attribute(dtype),
        "non_blocking" => ArgValue::Attribute(no),
        _ => ArgValue::Absent,
    };
    let built = aten_ir::build_op(context, schema, &get, &[ty], at.location())?;
    let block = at.block().ok_or("op is not in a block")?;
    ir::result_at(block.insert_operation_before(at, built), 0).ok_or_else(|| "a built op without a result".to_string())
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
        self.resolve_logical(logical, at)
    }

    /// The current content of the storage `value` was created with (a
    /// function argument, a weight), whatever tensor its name was rebound
    /// to since (`x.unsqueeze_(0)` makes `x` a view of that storage).
    fn resolve_storage(&mut self, value: Value<'c, 'a>, at: OperationRef<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.values.entry(key(value)).or_insert(value);
        self.resolve_logical(key(value), at)
    }

    /// [`State::resolve`] of a logical value.
    fn resolve_logical(&mut self, logical: Key, at: OperationRef<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        if let Some(view) = self.views.get(&logical).copied() {
            let parent_now = self.resolve_logical(view.parent, at)?;
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
        self.assign_logical(logical, value, at)
    }

    /// [`State::assign`] to a logical value.
    fn assign_logical(&mut self, logical: Key, value: Value<'c, 'a>, at: OperationRef<'c, 'a>) -> Result<(), String> {
        self.latest.insert(logical, value);
        // Every version of a tensor stands for it: a later write through
        // this value writes the same tensor.
        self.logical.insert(key(value), logical);
        let Some(view) = self.views.get(&logical).copied() else {
            return Ok(());
        };
        let parent_now = self.resolve_logical(view.parent, at)?;
        let new_parent = self.scatter(view.op, parent_now, value, at)?;
        self.assign_logical(view.parent, new_parent, at)?;
        // The view now reflects the new parent version.
        self.views.insert(logical, View { op: view.op, parent: view.parent, parent_version: key(new_parent) });
        self.latest.insert(logical, value);
        Ok(())
    }

    /// Rebinds the tensor `target` names (the current version of it) to
    /// `value = view_op(target, ...)`, a view of its storage with new
    /// metadata (`unsqueeze_`, `t_`, ...): every name of the tensor (the
    /// SSA values standing for it) now reads the view, while the views
    /// taken from it before keep their parent, the storage.
    fn rebind(&mut self, target: Value<'c, 'a>, value: Value<'c, 'a>, view_op: OperationRef<'c, 'a>) {
        let old = self.logical_of(target);
        let new = key(value);
        self.values.insert(new, value);
        self.latest.insert(new, value);
        self.views.insert(new, View { op: view_op, parent: old, parent_version: key(target) });
        for logical in self.logical.values_mut() {
            if *logical == old {
                *logical = new;
            }
        }
        // The SSA value the storage was first known by names the tensor too.
        self.logical.insert(old, new);
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
            "aten.slice.Tensor" | "aten.select.int" | "aten.diagonal.default" | "aten.as_strided.default" => (
                match name.as_str() {
                    "aten.slice.Tensor" => "slice_scatter",
                    "aten.select.int" => "select_scatter",
                    "aten.as_strided.default" => "as_strided_scatter",
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
            // `squeeze.dim` of a dim of size 1 (of another size it changes nothing).
            "aten.transpose.int" | "aten.t.default" | "aten.unsqueeze.default" | "aten.squeeze.dim"
                if name != "aten.squeeze.dim" || squeezes_a_unit_dim(base, &get_view("dim")) =>
            {
                (
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
                )
            }
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
            // Reshapes: back to the base's shape (squeezes of dims of unknown size too).
            "aten.view.default"
            | "aten._unsafe_view.default"
            | "aten.squeeze.default"
            | "aten.squeeze.dim"
            | "aten.squeeze.dims" => {
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

/// True when `squeeze(base, dim)` removes a dim of static size 1.
fn squeezes_a_unit_dim(base: Value<'_, '_>, dim: &ArgValue<'_, '_>) -> bool {
    let ArgValue::Attribute(dim) = dim else {
        return false;
    };
    if ir::attribute_kind(*dim) != "integer" {
        return false;
    }
    let dim = unsafe { sys::mlirIntegerAttrGetValueInt(melior::ir::attribute::AttributeLike::to_raw(dim)) };
    let Some(dims) = crate::lowering::builder::dims(base.r#type()) else {
        return false;
    };
    let rank = dims.len() as i64;
    let d = if dim < 0 { dim + rank } else { dim };
    (0..rank).contains(&d) && dims[d as usize] == Some(1)
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
        let current = state.resolve_storage(arg, ret)?;
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
        let current = state.resolve_storage(weight, ret)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Every in-place overload of the registry is mapped (to a functional
    /// counterpart taking its arguments, a view, or nothing) or refused with
    /// a reason; none is left to the generic "no functional counterpart".
    #[test]
    fn every_inplace_overload_is_mapped_or_refused_with_a_reason() {
        let mut gaps = Vec::new();
        let mut mapped: BTreeMap<&str, usize> = BTreeMap::new();
        let mut refused: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        let mut unlowered = Vec::new();
        for schema in registry::all().iter().filter(|s| s.is_inplace()) {
            let name = schema.target_name();
            let Some(form) = inplace_form(schema) else {
                gaps.push(name);
                continue;
            };
            let kind = match form {
                InplaceForm::Functional(f) | InplaceForm::SideEffect(f) | InplaceForm::View(f) => {
                    assert!(f.is_functional(), "{name} is mapped to {}, which writes an argument", f.target_name());
                    // Every argument of the counterpart without a default comes
                    // from the op's own (by name or position, as
                    // `arg_by_name_or_position` reads them), of the same type.
                    for (i, arg) in f.arguments.iter().enumerate() {
                        let own = schema.arg(arg.name).or_else(|| schema.arguments.get(i));
                        match own {
                            Some(own) => assert!(
                                own.ty == arg.ty
                                    || (own.ty == "Tensor[]" && arg.ty == "Tensor?[]")
                                    || (matches!(own.ty, "int" | "float") && arg.ty == "Scalar"),
                                "{name} -> {}: argument '{}' is {} in the in-place op, {} in the counterpart",
                                f.target_name(),
                                arg.name,
                                own.ty,
                                arg.ty
                            ),
                            None => assert!(
                                arg.has_default() || arg.is_optional(),
                                "{name} -> {}: nothing feeds argument '{}'",
                                f.target_name(),
                                arg.name
                            ),
                        }
                    }
                    match form {
                        InplaceForm::Functional(_) => {
                            assert_eq!(
                                f.returns.len(),
                                schema.mutated_args().count(),
                                "{name} -> {}: one result per written argument",
                                f.target_name()
                            );
                            "functional"
                        }
                        InplaceForm::SideEffect(_) => "side-effect functional",
                        _ => {
                            assert!(schema.has_tag("inplace_view"), "{name} is rebound as a view but changes data");
                            "view"
                        }
                    }
                }
                InplaceForm::Identity => "identity",
                InplaceForm::Refused(reason) => {
                    assert!(reason.len() > 20, "{name}: refused without a real reason: {reason:?}");
                    refused.entry(reason).or_default().push(name);
                    continue;
                }
            };
            if let InplaceForm::Functional(f) | InplaceForm::SideEffect(f) | InplaceForm::View(f) = form {
                let target = f.dialect_name();
                let lowered = crate::lowering::all_rules().any(|r| r.target == target)
                    || crate::decompositions::find(&target).is_some();
                if !lowered {
                    unlowered.push(format!("{name} -> {target}"));
                }
            }
            *mapped.entry(kind).or_default() += 1;
        }
        let total_mapped: usize = mapped.values().sum();
        let total_refused: usize = refused.values().map(Vec::len).sum();
        println!("in-place overloads: {} mapped {mapped:?}, {total_refused} refused", total_mapped);
        for (reason, names) in &refused {
            println!("  refused ({}): {reason}\n    {}", names.len(), names.join(" "));
        }
        println!(
            "mapped to a counterpart without a rule or decomposition ({}):\n  {}",
            unlowered.len(),
            unlowered.join("\n  ")
        );
        assert!(gaps.is_empty(), "in-place overloads neither mapped nor refused with a reason: {gaps:?}");
        // Inplace-view ops are never taken for value writes.
        for schema in registry::all().iter().filter(|s| s.is_inplace() && s.has_tag("inplace_view")) {
            assert!(
                !matches!(inplace_form(schema), Some(InplaceForm::Functional(_) | InplaceForm::SideEffect(_)))
                    || matches!(schema.name, "resize_" | "resize_as_"),
                "{}: metadata change mapped as a value write",
                schema.target_name()
            );
        }
    }

    /// The pairs the issue named, and what they must be.
    #[test]
    fn inplace_counterparts_of_renamed_overloads() {
        let form = |name: &str, overload: &str| inplace_form(registry::lookup(name, overload).unwrap());
        let functional =
            |name: &str, overload: &str| Some(InplaceForm::Functional(registry::lookup(name, overload).unwrap()));
        assert_eq!(form("pow_", "Scalar"), functional("pow", "Tensor_Scalar"));
        assert_eq!(form("pow_", "Tensor"), functional("pow", "Tensor_Tensor"));
        assert_eq!(form("float_power_", "Scalar"), functional("float_power", "Tensor_Scalar"));
        assert_eq!(form("floor_divide_", "Tensor"), functional("floor_divide", ""));
        assert_eq!(form("floor_divide_", "Scalar"), functional("floor_divide", "Scalar"));
        assert_eq!(form("ldexp_", ""), functional("ldexp", "Tensor"));
        assert_eq!(form("polygamma_", ""), functional("polygamma", ""));
        assert_eq!(form("lt_", "Tensor"), functional("lt", "Tensor"));
        assert_eq!(form("logical_not_", ""), functional("logical_not", ""));
        assert_eq!(form("__iand__", "Tensor"), functional("__and__", "Tensor"));
        assert_eq!(form("dropout_", ""), functional("dropout", ""));
        assert_eq!(form("normal_", ""), functional("normal_functional", ""));
        assert_eq!(form("rrelu_with_noise_", ""), functional("rrelu_with_noise_functional", ""));
        let view = |name: &str, overload: &str| Some(InplaceForm::View(registry::lookup(name, overload).unwrap()));
        assert_eq!(form("unsqueeze_", ""), view("unsqueeze", ""));
        assert_eq!(form("squeeze_", ""), view("squeeze", ""));
        assert_eq!(form("squeeze_", "dims"), view("squeeze", "dims"));
        assert_eq!(form("swapaxes_", ""), view("transpose", "int"));
        assert_eq!(form("t_", ""), view("t", ""));
        assert_eq!(form("detach_", ""), Some(InplaceForm::Identity));
        assert!(matches!(form("set_", "source_Tensor"), Some(InplaceForm::Refused(_))));
        assert!(matches!(form("_foreach_add_", "List"), Some(InplaceForm::Refused(_))));
        assert!(matches!(form("add_", "t"), Some(InplaceForm::Refused(_))));
        for comparison in
            ["eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor", "logical_not"]
        {
            assert!(has_bool_result(registry::overloads(comparison).first().unwrap()), "{comparison}");
        }
    }
}
