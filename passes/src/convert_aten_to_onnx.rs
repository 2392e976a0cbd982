//! `convert-aten-to-onnx`: lowers every aten op to onnx ops with the rules of
//! `lowering::rules`. Before changing anything it checks that every op has a
//! rule for the target opset, and reports all that do not, with counts and
//! source lines. Weights become `onnx.initializer`; symbolic scalars become
//! 1-element int64 tensors.

use crate::{
    aten_ir::{self, AtenOp},
    diag::{error_at, op_error},
    ir::{self, SourcePosition},
    lowering::{self, builder, Args, Builder, Ctx, MAX_OPSET, MIN_OPSET},
    onnx_ir, Factory, PassId, PassInfo, PassOption, PassOptions, ProjectPass,
};
use melior::ir::{attribute::AttributeLike as _, block::BlockLike as _, r#type::TypeLike as _, RegionLike as _};
use melior::ir::{
    attribute::{IntegerAttribute, StringAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::{IntegerType, RankedTensorType},
    Identifier, OperationRef, Type, Value, ValueLike,
};
use mlir_sys as sys;
use std::collections::BTreeMap;

static ID: PassId = PassId::new();

pub const INFO: PassInfo = PassInfo {
    name: "convert-aten-to-onnx",
    summary: "Lower aten ops to onnx ops (rules in passes/lowering/src/rules/)",
    options: &[
        PassOption { name: "opset", help: "target ONNX opset, 17..28 (default 23)" },
        PassOption {
            name: "trace",
            help: "tag each value that replaces an aten result with `aten.trace = \"<node>#<result>\"` (for --verify)",
        },
    ],
    create: create,
};

fn create(options: &PassOptions) -> Result<Box<dyn crate::PassFactory>, String> {
    let opset = match options.get("opset") {
        Some(text) => text.parse::<u32>().map_err(|_| format!("opset '{text}' is not a number"))?,
        None => onnx_ir::DEFAULT_OPSET,
    };
    if !(MIN_OPSET..=MAX_OPSET).contains(&opset) {
        return Err(format!("opset {opset} is outside the supported range {MIN_OPSET}..{MAX_OPSET}"));
    }
    let trace = match options.get("trace").map(String::as_str) {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => return Err(format!("trace '{other}' is not true or false")),
    };
    Ok(Box::new(Factory { pass: ConvertAtenToOnnx { opset, trace }, id: &ID, info: &INFO }))
}

#[derive(Clone)]
pub struct ConvertAtenToOnnx {
    pub opset: u32,
    pub trace: bool,
}

/// Discardable attribute naming the aten result an onnx value replaced.
pub const TRACE_ATTR: &str = "aten.trace";

/// The attribute tagging result `index` of an op: [`TRACE_ATTR`] for result
/// 0, `aten.trace.<index>` for the others.
pub fn trace_attr(index: usize) -> String {
    if index == 0 {
        TRACE_ATTR.to_string()
    } else {
        format!("{TRACE_ATTR}.{index}")
    }
}

impl ProjectPass for ConvertAtenToOnnx {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()> {
        convert(op, self.opset, self.trace)
    }
}

/// Lowers everything under `root` (a module) to the onnx dialect.
pub fn convert(root: OperationRef<'_, '_>, opset: u32, trace: bool) -> Result<(), ()> {
    drop_assertions(root);
    let mut ops = Vec::new();
    ir::walk(root, &mut |op| {
        if ir::op_name(op).starts_with(aten_ir::DIALECT_PREFIX) {
            ops.push(op);
        }
    });
    if let Err(message) = check_coverage(&ops, opset) {
        error_at(root.location(), &message);
        return Err(());
    }
    // Checked before any op is lowered: the exponent's constant op is
    // still an `aten.sym.constant` (with its int or float value).
    for &op in &ops {
        if ir::op_name(op) == "aten.sym.pow" {
            if let Err(message) = sym_pow_exponent(op) {
                op_error(op, &format!("cannot be lowered: {message}"));
                return Err(());
            }
        }
    }
    // Higher-order ops become onnx ops with regions whose bodies are still
    // aten ops (see control_flow.rs); the loop below lowers those in place.
    if ops.iter().any(|op| ir::op_name(*op).starts_with(aten_ir::HOP_PREFIX)) {
        if let Err((at, message)) = crate::control_flow::lower_higher_order_ops(root) {
            op_error(at, &format!("cannot be lowered: {message}"));
            return Err(());
        }
        ops.clear();
        ir::walk(root, &mut |op| {
            if ir::op_name(op).starts_with(aten_ir::DIALECT_PREFIX) {
                ops.push(op);
            }
        });
    }
    // SAFETY: the context outlives every op of the module being converted.
    // `to_ref` borrows the ContextRef: keep it alive as long as the context is used.
    let context_ref = root.context();
    let context = unsafe { context_ref.to_ref() };
    // The aten types of every op's operands, read before any op is lowered
    // (a lowered complex value has the real-view type), then complex block
    // arguments (graph inputs) take their real-view types.
    let aten_types: Vec<Vec<Type>> = ops.iter().map(|op| op.operands().map(|v| v.r#type()).collect()).collect();
    let any_complex = ops.iter().any(|op| has_complex_type(*op));
    mark_complex_signature(root);
    let complex_signature = match retype_complex_arguments(root) {
        Ok(found) => found,
        Err(message) => {
            error_at(root.location(), &message);
            return Err(());
        }
    };
    let mut ok = true;
    for (&op, aten_types) in ops.iter().zip(aten_types) {
        // A panicking rule is a bug: report it at the op (its node and source
        // line) instead of aborting the whole process.
        let lowered =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| lower_op(context, op, opset, trace, aten_types)))
                .unwrap_or_else(|payload| {
                    let text = payload
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "unknown panic".to_string());
                    Err(format!(
                        "internal error in its lowering rule (a bug, please report it with this input): {text}"
                    ))
                });
        if let Err(message) = lowered {
            op_error(op, &format!("cannot be lowered: {message}"));
            ok = false;
            break;
        }
    }
    if !ok {
        return Err(());
    }
    for op in ops.into_iter().rev() {
        if op.results().any(|r| ir::has_uses(r.into())) {
            op_error(op, "still has uses after lowering (rule bug)");
            return Err(());
        }
        unsafe { ir::erase(op) };
    }
    if complex_signature || any_complex {
        ir::sync_function_types(root);
    }
    set_opset(root, opset);
    Ok(())
}

/// The argument/result attribute naming the complex dtype of a graph input
/// or output that the lowering turns into its real view: the writer records
/// it in the ONNX value's `doc_string` and `aten-translate` says it on stderr,
/// so that the changed signature is never a surprise.
pub const COMPLEX_VIEW_ATTR: &str = "aten.complex_view";

/// Tags each complex input and result of every `func.func` with
/// [`COMPLEX_VIEW_ATTR`] (torch's dtype name: `complex64`, `complex128`,
/// `complex32`) before their types become real views.
fn mark_complex_signature(root: OperationRef<'_, '_>) {
    use melior::ir::{attribute::TypeAttribute, r#type::FunctionType};
    let mut funcs = Vec::new();
    ir::walk(root, &mut |op| {
        if ir::op_name(op) == "func.func" {
            funcs.push(op);
        }
    });
    let dtype_name = |ty: Type| -> Option<&'static str> {
        let component = lowering::complex::component_type(ty)?;
        let raw = component.to_raw();
        Some(if unsafe { sys::mlirTypeIsAF64(raw) } {
            "complex128"
        } else if unsafe { sys::mlirTypeIsAF16(raw) } {
            "complex32"
        } else {
            "complex64"
        })
    };
    for func in funcs {
        let Some(fty) = func
            .attribute("function_type")
            .ok()
            .and_then(|a| TypeAttribute::try_from(a).ok())
            .and_then(|t| FunctionType::try_from(t.value()).ok())
        else {
            continue;
        };
        let context_ref = func.context();
        let context = unsafe { context_ref.to_ref() };
        let name = COMPLEX_VIEW_ATTR;
        let name_ref = sys::MlirStringRef { data: name.as_ptr() as *const _, length: name.len() };
        for i in 0..fty.input_count() {
            if let Some(dtype) = fty.input(i).ok().and_then(dtype_name) {
                let value = StringAttribute::new(context, dtype);
                unsafe { sys::mlirFuncSetArgAttr(func.to_raw(), i as isize, name_ref, value.to_raw()) };
            }
        }
        for i in 0..fty.result_count() {
            if let Some(dtype) = fty.result(i).ok().and_then(dtype_name) {
                let value = StringAttribute::new(context, dtype);
                unsafe { sys::mlirFuncSetResultAttr(func.to_raw(), i as isize, name_ref, value.to_raw()) };
            }
        }
    }
}

/// Gives every complex block argument of a `func.func` entry block its
/// real-view type (`lowering::complex`); true when there was one. Complex
/// block arguments of nested regions (loop-carried values) are refused.
fn retype_complex_arguments(root: OperationRef<'_, '_>) -> Result<bool, String> {
    let mut found = false;
    let mut nested = None;
    ir::walk(root, &mut |op| {
        let is_func = ir::op_name(op) == "func.func";
        for r in 0..op.region_count() {
            let Ok(region) = op.region(r) else { continue };
            let mut block = region.first_block();
            while let Some(b) = block {
                for i in 0..b.argument_count() {
                    let Ok(arg) = b.argument(i) else { continue };
                    let Some(view) = lowering::complex::real_view_type(arg.r#type()) else { continue };
                    if is_func {
                        unsafe { sys::mlirValueSetType(arg.to_raw(), view.to_raw()) };
                        found = true;
                    } else if nested.is_none() {
                        nested = Some(ir::op_name(op));
                    }
                }
                block = b.next_in_region();
            }
        }
    });
    if let Some(op) = nested {
        return Err(format!(
            "a complex block argument of {op} (a complex value carried through control flow) is not supported"
        ));
    }
    Ok(found)
}

fn set_opset(root: OperationRef<'_, '_>, opset: u32) {
    let attr = IntegerAttribute::new(
        unsafe { Type::from_raw(sys::mlirIntegerTypeGet(sys::mlirOperationGetContext(root.to_raw()), 64)) },
        opset as i64,
    );
    unsafe {
        sys::mlirOperationSetAttributeByName(
            root.to_raw(),
            sys::MlirStringRef { data: onnx_ir::OPSET_ATTR.as_ptr() as *const _, length: onnx_ir::OPSET_ATTR.len() },
            attr.to_raw(),
        )
    };
}

/// Lists every op without a rule for `opset`, with counts and where they are:
/// ops that have no ONNX expression at all (`lowering::inexpressible`, or
/// complex-valued) under their own heading with the reason, apart from the
/// ops whose lowering is not yet implemented.
fn check_coverage(ops: &[OperationRef<'_, '_>], opset: u32) -> Result<(), String> {
    // problem -> (count, places)
    let mut missing: BTreeMap<String, (usize, Vec<String>)> = BTreeMap::new();
    // op name -> (count, places, reason)
    let mut refused: BTreeMap<String, (usize, Vec<String>, &'static str)> = BTreeMap::new();
    // op name -> (count, places): rules that do not handle complex tensors.
    let mut real_only: BTreeMap<String, (usize, Vec<String>)> = BTreeMap::new();
    for &op in ops {
        let name = ir::op_name(op);
        let problem = match aten_ir::classify(&name) {
            Ok(AtenOp::Registered(_)) => match lowering::rule(&name) {
                Some(rule) if rule.supports(opset) && rule.complex.is_none() && has_complex_type(op) => {
                    let entry = real_only.entry(name.clone()).or_default();
                    entry.0 += 1;
                    if entry.1.len() < 3 {
                        entry.1.push(place(op));
                    }
                    continue;
                }
                Some(rule) if rule.supports(opset) => None,
                Some(rule) => Some(format!("{name} (rule supports opsets {}..{})", rule.opsets.0, rule.opsets.1)),
                None => {
                    if let Some(reason) = lowering::inexpressible::reason(&name) {
                        let entry = refused.entry(name.clone()).or_insert((0, Vec::new(), reason));
                        entry.0 += 1;
                        if entry.1.len() < 3 {
                            entry.1.push(place(op));
                        }
                        continue;
                    }
                    Some(name.clone())
                }
            },
            Ok(AtenOp::HigherOrder) if crate::control_flow::is_supported(&name) => None,
            Ok(AtenOp::HigherOrder) => Some(format!(
                "{name} (higher-order op without an ONNX lowering; supported: {})",
                crate::control_flow::SUPPORTED.join(", ")
            )),
            Ok(AtenOp::Sym(sym)) if !sym_supported(sym.op) => Some(name.clone()),
            Ok(_) => None,
            Err(e) => Some(format!("{name} ({e})")),
        };
        if let Some(problem) = problem {
            let entry = missing.entry(problem).or_default();
            entry.0 += 1;
            if entry.1.len() < 3 {
                entry.1.push(place(op));
            }
        }
    }
    if missing.is_empty() && refused.is_empty() && real_only.is_empty() {
        return Ok(());
    }
    let missing_total: usize = missing.values().map(|(n, _)| n).sum();
    let refused_total: usize = refused.values().map(|(n, _, _)| n).sum();
    let real_only_total: usize = real_only.values().map(|(n, _)| n).sum();
    let mut sections = Vec::new();
    if !refused.is_empty() {
        let mut text = format!(
            "{refused_total} op(s) of {} kind(s) have no ONNX expression (refused at every opset; see \
             passes/lowering/src/inexpressible.rs):",
            refused.len()
        );
        for (name, (count, places, reason)) in &refused {
            text.push_str(&format!("\n  {name}: {count}x, e.g. {} -- {reason}", places.join("; ")));
        }
        sections.push(text);
    }
    if !real_only.is_empty() {
        // Parsed by tools/sweeps/opinfo_sweep.py (the heading and the item lines).
        let mut text = format!(
            "{} op(s) of {} kind(s) are not supported on complex tensors (their rules handle real tensors only; \
             complex tensors are lowered as real tensors with a trailing dim of 2, see docs/lowering.md):",
            real_only_total,
            real_only.len()
        );
        for (name, (count, places)) in &real_only {
            text.push_str(&format!(
                "\n  {name}: {count}x, e.g. {} -- {name} on complex tensors is not supported",
                places.join("; ")
            ));
        }
        sections.push(text);
    }
    if !missing.is_empty() {
        // This heading is parsed by tools/sweeps/opinfo_sweep.py and quoted in the docs.
        // Alone, it reads as before; next to the refused ops it says these
        // are only missing a rule.
        let pending = if refused.is_empty() && real_only.is_empty() { "" } else { " (not yet implemented)" };
        let mut text = format!(
            "{missing_total} op(s) of {} kind(s) have no lowering to ONNX opset {opset}{pending}:",
            missing.len()
        );
        for (problem, (count, places)) in &missing {
            text.push_str(&format!("\n  {problem}: {count}x, e.g. {}", places.join("; ")));
        }
        sections.push(text);
    }
    if sections.len() == 1 {
        return Err(sections.remove(0));
    }
    Err(format!(
        "{} op(s) of {} kind(s) cannot be lowered to ONNX opset {opset}:\n{}",
        missing_total + refused_total + real_only_total,
        missing.len() + refused.len() + real_only.len(),
        sections.join("\n")
    ))
}

/// `_assert_scalar` lowers to nothing (rules/symbolic/_assert_scalar.rs: ONNX has no
/// assertion). It is dropped before the coverage check together with the
/// side-effect-free ops that only fed it: torch.export defines some unbacked
/// symbols just to check them (`u5 = sym_storage_offset(piece)` then
/// `_assert_scalar(u5 >= 0)` after a `tensor_split` at data-dependent
/// indices), and a value nothing reads needs no rule. Values still read
/// elsewhere keep their ops (and need their rules).
fn drop_assertions(root: OperationRef<'_, '_>) {
    let mut asserts = Vec::new();
    ir::walk(root, &mut |op| {
        if ir::op_name(op) == "aten._assert_scalar.default" {
            asserts.push(op);
        }
    });
    // No op is created below, so the raw handles of erased ops stay unique.
    let mut erased = std::collections::HashSet::new();
    for assert in asserts {
        let mut feeders: Vec<OperationRef> = assert.operands().filter_map(ir::defining_op).collect();
        // SAFETY: an assertion has no results; it is not referenced again.
        unsafe { ir::erase(assert) };
        while let Some(op) = feeders.pop() {
            let key = op.to_raw().ptr as usize;
            if erased.contains(&key)
                || op.result_count() == 0
                || !crate::dce::is_removable(op)
                || op.results().any(|r| ir::has_uses(r.into()))
            {
                continue;
            }
            feeders.extend(op.operands().filter_map(ir::defining_op));
            erased.insert(key);
            // SAFETY: unused, and skipped above if met again.
            unsafe { ir::erase(op) };
        }
    }
}

/// `node 'x' at model.py:3:0`: where an op comes from, for the messages.
fn place(op: OperationRef<'_, '_>) -> String {
    let pos = SourcePosition::of(op.location());
    let node = pos.node.clone().map(|n| format!("node '{n}' at ")).unwrap_or_default();
    format!("{node}{}", pos.file_line())
}

/// True when an operand or result of `op` is a complex tensor.
fn has_complex_type(op: OperationRef<'_, '_>) -> bool {
    let is_complex = |ty: Type| {
        builder::element_type(ty).is_some_and(|element| unsafe { sys::mlirTypeIsAComplex(element.to_raw()) })
    };
    op.operands().any(|v| is_complex(v.r#type())) || op.results().any(|r| is_complex(r.r#type()))
}

/// True when the symbolic-scalar op has a lowering ([`lower_sym`]).
fn sym_supported(op: &str) -> bool {
    sym_lowering(op).is_some()
        || matches!(
            op.strip_prefix(aten_ir::SYM_PREFIX),
            Some("truediv" | "float" | "int" | "trunc" | "floor" | "ceil" | "sqrt" | "pos")
        )
}

/// The ONNX op of a symbolic-scalar op on ints (operands are 1-element
/// int64 tensors); with a float operand see [`lower_sym`].
fn sym_lowering(op: &str) -> Option<&'static str> {
    Some(match op.strip_prefix(aten_ir::SYM_PREFIX)? {
        "add" => "Add",
        "sub" => "Sub",
        "mul" => "Mul",
        // Sizes are non-negative, where floor and truncating division agree.
        "floordiv" => "Div",
        "mod" => "Mod",
        "neg" => "Neg",
        "eq" => "Equal",
        "lt" => "Less",
        "le" => "LessOrEqual",
        "gt" => "Greater",
        "ge" => "GreaterOrEqual",
        "max" => "Max",
        "min" => "Min",
        // Integer powers only (`(H // patch) ** 2`, DINOv2's position
        // embedding count): see `sym_pow_exponent`.
        "pow" => "Pow",
        _ => return None,
    })
}

/// A symbolic-scalar op on 1-element tensors: SymInt int64, SymFloat
/// float64 (Python's float), SymBool bool. Ints follow [`sym_lowering`];
/// with a float operand the op runs in float64 (Python promotes), and the
/// conversions back to int are explicit (`//` and `%` as Python's, see
/// [`python_float_divmod`]): `int` / `math.trunc` round toward
/// zero, `math.floor` / `math.ceil` as named (as the sizes torch computes
/// for `F.interpolate(scale_factor=0.6, recompute_scale_factor=True)`).
fn lower_sym<'c, 'a>(b: &Builder<'c, 'a>, op: OperationRef<'c, 'a>, sym: &str) -> Result<Value<'c, 'a>, String> {
    let context = b.context;
    let name = sym.strip_prefix(aten_ir::SYM_PREFIX).unwrap_or(sym);
    let operands: Vec<Value<'c, 'a>> = op.operands().collect();
    let f64_t = Type::float64(context);
    let one = |element: Type<'c>| -> Type<'c> { RankedTensorType::new(&[1], element, None).into() };
    let is_float = |v: Value<'c, 'a>| builder::element_type(v.r#type()) == Some(f64_t);
    let as_f64 = |v: Value<'c, 'a>| if is_float(v) { Ok(v) } else { b.cast(v, f64_t) };
    let arg = |i: usize| operands.get(i).copied().ok_or_else(|| format!("symbolic '{name}' without operand {i}"));
    let bool_t: Type = IntegerType::new(context, 1).into();
    match name {
        "float" => return as_f64(arg(0)?),
        "pos" => return Ok(arg(0)?),
        "sqrt" => return b.onnx().sqrt(as_f64(arg(0)?)?).typed(one(f64_t)),
        "truediv" => return b.onnx().div(as_f64(arg(0)?)?, as_f64(arg(1)?)?).typed(one(f64_t)),
        "int" | "trunc" | "floor" | "ceil" => {
            let x = arg(0)?;
            if !is_float(x) {
                // An int already (a bool becomes 0 / 1).
                return b.cast_like_type(x, b.i64_type());
            }
            let rounded = match name {
                "floor" => b.onnx().floor(x).typed(one(f64_t))?,
                "ceil" => b.onnx().ceil(x).typed(one(f64_t))?,
                _ => {
                    let zero = b.constant(one(f64_t), &[builder::float_attr(context, f64_t, 0.0)])?;
                    let negative = b.onnx().less(x, zero).typed(one(bool_t))?;
                    let up = b.onnx().ceil(x).typed(one(f64_t))?;
                    let down = b.onnx().floor(x).typed(one(f64_t))?;
                    b.onnx().where_(negative, up, down).typed(one(f64_t))?
                }
            };
            return b.cast(rounded, b.i64_type());
        }
        _ => {}
    }
    let onnx = sym_lowering(sym).ok_or_else(|| format!("no lowering of symbolic '{name}'"))?;
    let comparison = matches!(onnx, "Equal" | "Less" | "LessOrEqual" | "Greater" | "GreaterOrEqual");
    if !operands.iter().any(|v| is_float(*v)) {
        let element = if comparison { bool_t } else { b.i64_type() };
        return b.op(onnx, &operands, &[], one(element));
    }
    // Float operands: Python promotes the ints to float.
    let floats: Vec<Value<'c, 'a>> = operands.iter().map(|v| as_f64(*v)).collect::<Result<_, _>>()?;
    match name {
        "floordiv" | "mod" => python_float_divmod(b, floats[0], floats[1], name == "mod"),
        _ => b.op(onnx, &floats, &[], one(if comparison { bool_t } else { f64_t })),
    }
}

/// Python's float `a // b` or `a % b` (CPython's `_float_div_mod`), not
/// `floor(a / b)`: `1 // 0.1` is 9.0 while `floor(1 / 0.1)` is 10. From C's
/// fmod (ONNX `Mod` with fmod = 1): the remainder takes the divisor's sign,
/// the quotient `(a - mod) / b` is rounded to the nearest integer.
fn python_float_divmod<'c, 'a>(
    b: &Builder<'c, 'a>,
    x: Value<'c, 'a>,
    y: Value<'c, 'a>,
    remainder: bool,
) -> Result<Value<'c, 'a>, String> {
    let context = b.context;
    let f64_t = Type::float64(context);
    let ty: Type = RankedTensorType::new(&[1], f64_t, None).into();
    let bools: Type = RankedTensorType::new(&[1], IntegerType::new(context, 1).into(), None).into();
    let k = |v: f64| b.constant(ty, &[builder::float_attr(context, f64_t, v)]);
    let fmod = b.onnx().mod_(x, y, Some(1)).typed(ty)?;
    // mod != 0 and its sign differs from the divisor's: mod += b, div -= 1.
    let zero = k(0.0)?;
    let nonzero = b.onnx().not(b.onnx().equal(fmod, zero).typed(bools)?).typed(bools)?;
    let signs_differ =
        b.onnx().xor(b.onnx().less(y, zero).typed(bools)?, b.onnx().less(fmod, zero).typed(bools)?).typed(bools)?;
    let adjust = b.onnx().and(nonzero, signs_differ).typed(bools)?;
    if remainder {
        return b.onnx().where_(adjust, b.onnx().add(fmod, y).typed(ty)?, fmod).typed(ty);
    }
    let div = b.onnx().div(b.onnx().sub(x, fmod).typed(ty)?, y).typed(ty)?;
    let div = b.onnx().where_(adjust, b.onnx().sub(div, k(1.0)?).typed(ty)?, div).typed(ty)?;
    let floor = b.onnx().floor(div).typed(ty)?;
    let round_up = b.onnx().greater(b.onnx().sub(div, floor).typed(ty)?, k(0.5)?).typed(bools)?;
    b.onnx().where_(round_up, b.onnx().add(floor, k(1.0)?).typed(ty)?, floor).typed(ty)
}

/// The exponent of an integer `aten.sym.pow` must be a non-negative integer
/// constant: Python's `int ** int` is an int only then (a negative or float
/// exponent gives a float: the op's result is then a SymFloat, lowered in
/// float64).
fn sym_pow_exponent(op: OperationRef<'_, '_>) -> Result<(), String> {
    // A float power (`E ** -0.5`) is computed in float64 by lower_sym.
    if ir::result_at(op, 0).is_some_and(|r| unsafe { sys::mlirTypeIsAF64(r.r#type().to_raw()) }) {
        return Ok(());
    }
    let exponent = op.operand(1).map_err(|e| e.to_string())?;
    let constant = ir::defining_op(exponent).filter(|d| ir::op_name(*d) == aten_ir::SYM_CONSTANT_OP);
    let value = constant.and_then(|c| c.attribute("value").ok()).and_then(lowering::args::number);
    match value {
        Some(lowering::args::Number::Int(n)) if n >= 0 => Ok(()),
        _ => Err("a symbolic power needs a non-negative integer constant exponent".into()),
    }
}

fn lower_op<'c, 'a>(
    context: &'c melior::Context,
    op: OperationRef<'c, 'a>,
    opset: u32,
    trace: bool,
    aten_operand_types: Vec<Type<'c>>,
) -> Result<(), String> {
    let name = ir::op_name(op);
    let mut b = Builder::new(context, op, opset)?;
    if !matches!(aten_ir::classify(&name), Ok(AtenOp::Weight)) {
        b.location = traced_location(context, op.location(), &name);
    }
    let replacements: Vec<Value<'c, 'a>> = match aten_ir::classify(&name)? {
        AtenOp::Registered(schema) => {
            let rule = lowering::rule(&name).ok_or("no rule")?;
            let ctx = Ctx { args: Args::new(op, schema)?, b, aten_operand_types };
            let values = rule.apply(&ctx)?;
            fix_result_types(op, &values, &ctx.b)?;
            if trace {
                tag_values(context, op, &values, &ctx.b);
            }
            values
        }
        AtenOp::Weight => {
            let name = aten_ir::weight_name(op).ok_or("weight without a name")?;
            let ty = ir::result_at(op, 0).ok_or("weight without a result")?.r#type();
            if lowering::complex::is_complex_type(ty) {
                return Err(format!(
                    "the complex weight '{name}' is not supported (complex constants have no ONNX initializer here)"
                ));
            }
            let mut attrs = vec![(Identifier::new(context, "name"), StringAttribute::new(context, &name).into())];
            // A known constant's values (aten_ir::WEIGHT_VALUE_ATTR), for the optimizer.
            if let Ok(value) = op.attribute(aten_ir::WEIGHT_VALUE_ATTR) {
                attrs.push((Identifier::new(context, aten_ir::WEIGHT_VALUE_ATTR), value));
            }
            let built = OperationBuilder::new(onnx_ir::INITIALIZER_OP, op.location())
                .add_attributes(&attrs)
                .add_results(&[ty])
                .build()
                .map_err(|e| e.to_string())?;
            let block = op.block().ok_or("no block")?;
            vec![ir::result_at(block.insert_operation_before(op, built), 0).ok_or("a built op without a result")?]
        }
        AtenOp::None => {
            let built = OperationBuilder::new(onnx_ir::NONE_OP, op.location())
                .add_results(&[Type::none(context)])
                .build()
                .map_err(|e| e.to_string())?;
            let block = op.block().ok_or("no block")?;
            vec![ir::result_at(block.insert_operation_before(op, built), 0).ok_or("a built op without a result")?]
        }
        AtenOp::SymConstant => {
            let value = op.attribute("value").map_err(|_| "no value")?;
            let number = lowering::args::number(value).ok_or("value is not a number")?;
            let result = ir::result_at(op, 0).ok_or("a constant without a result")?.r#type();
            match number {
                // A SymFloat constant (`s * 0.6`) stays a float64.
                lowering::args::Number::Float(f) if result == Type::float64(context) => {
                    let ty = RankedTensorType::new(&[1], result, None).into();
                    vec![b.constant(ty, &[builder::float_attr(context, result, f)])?]
                }
                lowering::args::Number::Float(f) if f.fract() != 0.0 => {
                    return Err(format!("the float {f} as a symbolic int"));
                }
                number => vec![b.const_i64s(&[number.as_f64() as i64])?],
            }
        }
        AtenOp::Sym(sym) => vec![lower_sym(&b, op, sym.op)?],
        AtenOp::Custom => inline_custom_call(op)?,
        AtenOp::HigherOrder | AtenOp::Yield => {
            return Err("higher-order op left after control-flow lowering (bug)".into())
        }
    };
    let results: Vec<Value> = op.results().map(Into::into).collect();
    if replacements.len() != results.len() {
        return Err(format!("rule gave {} values for {} results", replacements.len(), results.len()));
    }
    for (old, new) in results.into_iter().zip(replacements) {
        unsafe { sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) };
    }
    Ok(())
}

/// Moves the translation in a custom-op call's region before the call (its
/// block arguments replaced by the call's operands, already lowered) and
/// returns the values it yields.
fn inline_custom_call<'c, 'a>(op: OperationRef<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let body = op.region(0).ok().and_then(|r| r.first_block()).ok_or("a custom-op call without its translation")?;
    if body.argument_count() != op.operand_count() {
        return Err(format!(
            "its translation takes {} tensor(s), the call passes {}",
            body.argument_count(),
            op.operand_count()
        ));
    }
    for (i, operand) in op.operands().enumerate() {
        let argument = body.argument(i).map_err(|e| e.to_string())?;
        unsafe { sys::mlirValueReplaceAllUsesOfWith(argument.to_raw(), operand.to_raw()) };
    }
    let terminator = ir::last_op(body).ok_or("a custom-op translation without a terminator")?;
    let yielded: Vec<Value<'c, 'a>> = terminator.operands().map(|v| unsafe { Value::from_raw(v.to_raw()) }).collect();
    // Values the translation computes take the types torch recorded for the
    // op's results (the body's are unranked until shape inference); a
    // different element type is a wrong translation.
    let computed: Vec<bool> = yielded
        .iter()
        .map(|v| ir::defining_op(*v).is_some_and(|d| d.parent_operation().is_some_and(|p| p == op)))
        .collect();
    for (i, (value, &computed)) in yielded.iter().zip(&computed).enumerate() {
        let expected =
            ir::result_at(op, i).ok_or("the translation yields more values than the op has results")?.r#type();
        let actual = value.r#type();
        let (Some(want), Some(got)) = (builder::element_type(expected), builder::element_type(actual)) else {
            continue;
        };
        if want != got {
            return Err(format!(
                "its translation's output #{i} has element type {got}, torch computed {want} for the op's result"
            ));
        }
        if computed && actual != expected {
            unsafe { sys::mlirValueSetType(value.to_raw(), expected.to_raw()) };
        }
    }
    while let Some(first) = body.first_operation() {
        if first == terminator {
            break;
        }
        // SAFETY: `first` is detached from the region and re-attached
        // before the call in the same function.
        unsafe { sys::mlirOperationMoveBefore(first.to_raw(), op.to_raw()) };
    }
    // The yielded values now live in the call's block; the region's
    // terminator goes with the call when it is erased.
    Ok(yielded)
}

/// `loc("<node>"("<aten op>"(<position>)))` from the aten op's
/// `loc("<node>"(<position>))`: the node name stays first (messages,
/// `--verify`), and the ONNX writer can name the aten op of each node.
fn traced_location<'c>(
    context: &'c melior::Context,
    location: melior::ir::Location<'c>,
    aten_op: &str,
) -> melior::ir::Location<'c> {
    if location.is_name() {
        let node = ir::identifier_text(location.name_value());
        let inner = melior::ir::Location::name(context, aten_op, location.name_child_location());
        melior::ir::Location::name(context, &node, inner)
    } else {
        location
    }
}

/// Tags the values a rule created with the node and result they replace.
fn tag_values(context: &melior::Context, op: OperationRef<'_, '_>, values: &[Value<'_, '_>], b: &Builder) {
    let Some(node) = SourcePosition::of(op.location()).node else {
        return;
    };
    for (i, value) in values.iter().enumerate() {
        if !b.created(*value) {
            continue;
        }
        let tag = StringAttribute::new(context, &format!("{node}#{i}"));
        unsafe {
            if !sys::mlirValueIsAOpResult(value.to_raw()) {
                continue;
            }
            let owner = sys::mlirOpResultGetOwner(value.to_raw());
            // One attribute per tagged result of the owner (a Split lowering
            // `chunk` has several).
            let name = trace_attr(sys::mlirOpResultGetResultNumber(value.to_raw()) as usize);
            sys::mlirOperationSetAttributeByName(
                owner,
                sys::MlirStringRef { data: name.as_ptr() as *const _, length: name.len() },
                melior::ir::attribute::AttributeLike::to_raw(&tag),
            );
        }
    }
}

/// Gives each value a rule created the exact type torch inferred for the
/// corresponding aten result (rules may build them with unknown shapes).
fn fix_result_types(op: OperationRef<'_, '_>, values: &[Value<'_, '_>], b: &Builder) -> Result<(), String> {
    for (i, value) in values.iter().enumerate() {
        let expected = ir::result_at(op, i)
            .ok_or_else(|| format!("the rule gave {} values for {} results", values.len(), op.result_count()))?
            .r#type();
        // A complex result's ONNX value is its real view (lowering::complex).
        let expected = lowering::complex::real_view_type(expected).unwrap_or(expected);
        let actual = value.r#type();
        if actual == expected || !unsafe { sys::mlirTypeIsATensor(expected.to_raw()) } {
            continue;
        }
        let (Some(want), Some(got)) = (builder::element_type(expected), builder::element_type(actual)) else {
            return Err(format!("result #{i}: rule produced {actual}, expected {expected}"));
        };
        if want != got {
            return Err(format!("result #{i}: rule produced element type {got}, torch computed {want}"));
        }
        // Only values this rule created are retyped; a forwarded operand keeps its type.
        if b.created(*value) {
            unsafe { sys::mlirValueSetType(value.to_raw(), expected.to_raw()) };
        }
    }
    Ok(())
}
