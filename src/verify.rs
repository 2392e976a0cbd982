//! `aten-translate --to-onnx --verify`: the converted model against libtorch.
//!
//! The aten module runs on libtorch (the `interp` interpreter, eager
//! semantics) and the ONNX model in onnxruntime on the same inputs: the
//! capture's sample shapes with seeded random values, or recorded inputs.
//! Each output gets its max absolute and relative error. On a mismatch the
//! program is converted again with every lowered value tagged by its graph
//! node, all tagged values become extra outputs, and the first node (in
//! program order) whose ONNX value differs from libtorch's is named with its
//! ATen op, its lowering rule and its Python source line. When every
//! lowered value matches, the mismatch comes from the optimizer: the model
//! is converted again with parts of it turned off (the onnx passes before
//! `onnx-eqsat`, `onnx-fuse-weights` and `onnx-flatten-tokens`, `onnx-eqsat` with no rule, then with
//! subsets of the rules it applied) and the smallest set of rewrite rules
//! whose removal makes the outputs match is named (usually one rule).

use crate::{
    create_context,
    diagnostics::{render, DiagnosticCollector},
    export::{self, ExportOptions},
    interp::{self, tch_kind_of_type, RtValue},
    pipeline_spec::{lowering_trace_pipeline, PipelineSpec, Source},
    translate::{self, ConvertOptions},
    Error,
};
use aten2onnx_passes::{
    ir::{self, string_value, SourcePosition},
    lowering::builder,
};
use melior::ir::{
    attribute::{ArrayAttribute, AttributeLike, DictionaryAttribute},
    operation::OperationLike,
    BlockLike, Module, RegionLike, Value, ValueLike,
};
use mlir_sys as sys;
use std::path::{Path, PathBuf};

/// Absolute and relative tolerance (fp32): |got - exp| <= ATOL + RTOL * |exp|.
pub const ATOL: f64 = 1e-4;
pub const RTOL: f64 = 1e-4;

/// (atol, rtol) for an output of `kind`: fp32/fp64 and integers use
/// [`ATOL`]/[`RTOL`] (integers and bools match exactly in practice); half
/// precision cannot meet them, since one unit in the last place is already
/// 2^-10 (f16) or 2^-7 (bf16) relative: f16 gets 1e-3 + 1e-3 |exp|
/// (torch.testing's rtol for float16, with an atol of about one ULP at 1),
/// bf16 1e-2 + 1.6e-2 |exp| (torch.testing's rtol for bfloat16). See
/// docs/verify.md.
pub fn tolerance(kind: tch::Kind) -> (f64, f64) {
    match kind {
        tch::Kind::Half => (1e-3, 1e-3),
        tch::Kind::BFloat16 => (1e-2, 1.6e-2),
        _ => (ATOL, RTOL),
    }
}

#[derive(Clone, Debug, Default)]
pub struct VerifyOptions {
    pub convert: ConvertOptions,
    /// A NumPy `.npz` or a directory of `input_<i>.pb` TensorProtos (the
    /// corpus layout); else random inputs of the capture's sample shapes.
    pub inputs: Option<PathBuf>,
}

#[derive(Clone, Debug)]
pub struct OutputError {
    pub name: String,
    pub max_abs: f64,
    pub max_rel: f64,
    pub ok: bool,
}

/// Where libtorch and onnxruntime first disagree.
#[derive(Clone, Debug)]
pub struct Divergence {
    pub node: String,
    pub aten_op: String,
    pub rule: String,
    pub position: SourcePosition,
    pub max_abs: f64,
}

/// What the optimizer bisection found when the lowering does not explain
/// a mismatch.
#[derive(Clone, Debug)]
pub struct OptimizerBlame {
    /// The part that makes the outputs differ: `onnx-eqsat rule(s)`,
    /// `onnx-eqsat` (its rebuild, no rule), `onnx-fuse-weights`,
    /// `onnx-flatten-tokens`, or the onnx passes before `onnx-eqsat`.
    pub stage: String,
    /// The rewrite rules (full name, file) whose removal makes the outputs match.
    pub rules: Vec<(String, String)>,
}

#[derive(Clone, Debug)]
pub struct VerifyReport {
    pub outputs: Vec<OutputError>,
    pub divergence: Option<Divergence>,
    /// Set when the lowering matches everywhere but the optimized model does not.
    pub optimizer: Option<OptimizerBlame>,
}

impl VerifyReport {
    pub fn ok(&self) -> bool {
        self.outputs.iter().all(|o| o.ok)
    }

    /// The comparison as the export report records it (docs/report.md).
    pub fn stats(&self) -> crate::report::VerifyStats {
        use crate::report::{VerifyDivergence, VerifyOutput, VerifyStats};
        let finite = |x: f64| x.is_finite().then_some(x);
        VerifyStats {
            ok: self.ok(),
            atol: ATOL,
            rtol: RTOL,
            outputs: self
                .outputs
                .iter()
                .map(|o| VerifyOutput {
                    name: o.name.clone(),
                    max_abs: finite(o.max_abs),
                    max_rel: finite(o.max_rel),
                    ok: o.ok,
                })
                .collect(),
            bisected: !self.ok(),
            divergence: self.divergence.as_ref().map(|d| VerifyDivergence {
                node: d.node.clone(),
                aten_op: d.aten_op.clone(),
                rule: d.rule.clone(),
                source: d.position.file_line(),
                max_abs: finite(d.max_abs),
            }),
        }
    }

    /// The report as the tool prints it.
    pub fn render(&self) -> String {
        let mut text = String::new();
        for o in &self.outputs {
            text.push_str(&format!(
                "output '{}': max abs error {:.3e}, max rel error {:.3e} {}\n",
                o.name,
                o.max_abs,
                o.max_rel,
                if o.ok { "ok" } else { "MISMATCH" }
            ));
        }
        if let Some(d) = &self.divergence {
            text.push_str(&format!(
                "first divergence: node '{}' ({}), lowering rule {}, at {}: max abs error {:.3e}\n",
                d.node,
                d.aten_op,
                d.rule,
                d.position.file_line(),
                d.max_abs
            ));
        }
        if let Some(b) = &self.optimizer {
            text.push_str("no lowering rule diverges (every lowered value matches libtorch): the optimizer does\n");
            if b.rules.is_empty() {
                text.push_str(&format!("first bad rewrite: {}\n", b.stage));
            }
            if b.rules.len() == 1 {
                let (rule, file) = &b.rules[0];
                text.push_str(&format!(
                    "first bad rewrite: {} {rule} ({file}): the same conversion without it matches libtorch\n",
                    b.stage
                ));
            } else if b.rules.len() > 1 {
                // A minimal set: one rule builds the wrong value, the others
                // build what it matches (e.g. Div from Reciprocal-Mul before a
                // normalization fusion); each alone does not reproduce it.
                text.push_str(&format!(
                    "first bad rewrite: {} {}s, needed together (the same conversion without any one of them \
                     matches libtorch):\n",
                    b.rules.len(),
                    b.stage
                ));
                for (rule, file) in &b.rules {
                    text.push_str(&format!("  {rule} ({file})\n"));
                }
            }
        }
        text
    }
}

/// Converts `input` to `output` and checks it against libtorch.
pub fn verify(input: &str, output: &Path, options: &VerifyOptions) -> Result<VerifyReport, Error> {
    verify_reporting(input, output, options, None)
}

/// [`verify`], filling `report` (the conversion's statistics, as
/// `translate::convert_reporting` does, and `report.verify` with the
/// comparison) when given one; the caller records an error in it.
pub fn verify_reporting(
    input: &str,
    output: &Path,
    options: &VerifyOptions,
    mut report: Option<&mut crate::report::Report>,
) -> Result<VerifyReport, Error> {
    if let Some(r) = report.as_deref_mut() {
        r.options.verify = true;
        r.options.verify_inputs = options.inputs.as_ref().map(|p| p.display().to_string());
    }
    translate::convert_reporting(input, output, &options.convert, report.as_deref_mut())?;
    let verified = compare_with_libtorch(input, output, options)?;
    if let Some(r) = report {
        r.verify = Some(verified.stats());
    }
    Ok(verified)
}

fn compare_with_libtorch(input: &str, output: &Path, options: &VerifyOptions) -> Result<VerifyReport, Error> {
    let context = create_context();
    let reference = translate::load_for(&context, input, &options.convert)?;
    let inputs = match &options.inputs {
        Some(path) => read_inputs_for(path, &argument_names(&reference))?,
        None => sample_inputs(&reference)?,
    };
    // onnxruntime first: the interpreter may write the inputs in place.
    let got = run_onnx(output, &inputs)?;
    let eager_inputs: Vec<tch::Tensor> = inputs.iter().map(|t| t.copy()).collect();
    let run =
        interp::run(&reference, eager_inputs.iter().map(|t| RtValue::Tensor(t.shallow_clone())).collect(), false)?;
    let input_names = argument_names(&reference);
    let mut outputs = Vec::new();
    let mut expected_values = Vec::new();
    for (i, (name, got)) in got.iter().enumerate() {
        // User outputs in order, then written buffers (by name) and inputs.
        let expected = match run.outputs.get(i) {
            Some(value) => value.tensor().map(|t| t.shallow_clone()),
            None => run
                .weights
                .get(name)
                .map(|t| t.shallow_clone())
                .or_else(|| input_names.iter().position(|n| n == name).map(|k| eager_inputs[k].shallow_clone())),
        };
        let expected = expected.ok_or_else(|| Error::Interpreter(format!("no libtorch value for output '{name}'")))?;
        outputs.push(compare(name, got, &expected));
        expected_values.push(expected);
    }
    let mut report = VerifyReport { outputs, divergence: None, optimizer: None };
    if !report.ok() {
        report.divergence = bisect(input, output, &inputs, &options.convert)?;
        if report.divergence.is_none() {
            report.optimizer = bisect_optimizer(input, output, &inputs, &expected_values, &options.convert)?;
        }
    }
    Ok(report)
}

/// The rules `onnx-eqsat` applied (`applied = {"family/rule" = N, ...}` of
/// every `onnx.eqsat` attribute), in order of first appearance.
fn applied_rules(text: &str) -> Vec<String> {
    let mut rules = Vec::new();
    for chunk in text.split("applied = {").skip(1) {
        let body = &chunk[..chunk.find('}').unwrap_or(chunk.len())];
        for part in body.split(',') {
            if let Some(name) = part.trim().strip_prefix('"').and_then(|p| p.split('"').next()) {
                if !rules.iter().any(|r| r == name) {
                    rules.push(name.to_string());
                }
            }
        }
    }
    rules
}

/// Converts `input` with `pipeline` and runs it: true when every output is
/// within tolerance of `expected`; also the rules onnx-eqsat applied.
fn variant_matches(
    input: &str,
    output: &Path,
    pipeline: &str,
    inputs: &[tch::Tensor],
    expected: &[tch::Tensor],
    convert: &ConvertOptions,
) -> Result<(bool, Vec<String>), Error> {
    let context = create_context();
    let mut module = translate::load_for(&context, input, convert)?;
    translate::run_pipeline(&context, &mut module, input, pipeline)?;
    let applied = applied_rules(&crate::module::print(&module, Default::default()));
    let path = output.with_extension("bisect.onnx");
    export::write_model(&module, &path, &ExportOptions::default())?;
    let got = run_onnx(&path, inputs);
    let _ = std::fs::remove_file(&path);
    let got = got?;
    let ok = got.len() == expected.len() && got.iter().zip(expected).all(|((n, g), e)| compare(n, g, e).ok);
    Ok((ok, applied))
}

/// The lowering matches libtorch everywhere but the model does not: finds
/// the optimizer's part in it by converting again with parts turned off.
fn bisect_optimizer(
    input: &str,
    output: &Path,
    inputs: &[tch::Tensor],
    expected: &[tch::Tensor],
    convert: &ConvertOptions,
) -> Result<Option<OptimizerBlame>, Error> {
    if translate::is_onnx_input(input) {
        return Ok(None);
    }
    let blame = |stage: &str, rules: Vec<(String, String)>| Ok(Some(OptimizerBlame { stage: stage.into(), rules }));
    // The conversion's pipeline without the weight quantization and with
    // the half types widened (as the bisection has always compared), then
    // with stages turned off.
    let full = PipelineSpec {
        quantize_weights: None,
        native_half: false,
        ..PipelineSpec::for_conversion(convert, Source::Aten, convert.opset)
    };
    let no_flatten_spec = PipelineSpec { flatten_tokens: false, ..full };
    let eqsat_only_spec = PipelineSpec { fuse_weights: false, ..no_flatten_spec.clone() };
    let (no_flatten, eqsat_only) = (no_flatten_spec.render(), eqsat_only_spec.render());
    let none = PipelineSpec { eqsat: false, ..eqsat_only_spec.clone() }.render();
    let eqsat_with = |option: String| PipelineSpec { eqsat_options: vec![option], ..eqsat_only_spec.clone() }.render();
    if !variant_matches(input, output, &none, inputs, expected, convert)?.0 {
        return blame(
            "the onnx passes before onnx-eqsat (onnx-fold-constants, onnx-cse, dce, onnx-shape-inference)",
            vec![],
        );
    }
    let (ok, applied) = variant_matches(input, output, &eqsat_only, inputs, expected, convert)?;
    if ok {
        if variant_matches(input, output, &no_flatten, inputs, expected, convert)?.0 {
            return blame("onnx-flatten-tokens (passes/src/onnx_flatten_tokens.rs)", vec![]);
        }
        return blame("onnx-fuse-weights (passes/src/onnx_fuse_weights.rs)", vec![]);
    }
    if !variant_matches(input, output, &eqsat_with("iterations=0".into()), inputs, expected, convert)?.0 {
        return blame(
            "onnx-eqsat with no rule applied (its rebuild: passes/optimizer/src/convert.rs, extraction)",
            vec![],
        );
    }
    // Delta debugging over the applied rules: drop each rule whose absence
    // keeps the mismatch; what remains is needed for it (an empty set of
    // rules matches, checked above).
    let with_rules = |rules: &[String]| eqsat_with(format!("rules={}", rules.join(",")));
    let mut culprits = applied;
    if culprits.is_empty() || variant_matches(input, output, &with_rules(&culprits), inputs, expected, convert)?.0 {
        return blame("onnx-eqsat (the mismatch needs rules that did not fire alone)", vec![]);
    }
    for rule in culprits.clone() {
        let rest: Vec<String> = culprits.iter().filter(|r| **r != rule).cloned().collect();
        if !rest.is_empty() && !variant_matches(input, output, &with_rules(&rest), inputs, expected, convert)?.0 {
            culprits = rest;
        }
    }
    let files = culprits
        .into_iter()
        .map(|r| {
            let family = r.split('/').next().unwrap_or_default().replace('-', "_");
            (r, format!("passes/optimizer/src/rules/{family}.rs"))
        })
        .collect();
    blame("onnx-eqsat rule", files)
}

fn compare(name: &str, got: &tch::Tensor, expected: &tch::Tensor) -> OutputError {
    // A complex output is written as its real view (trailing dim of 2,
    // passes/lowering/src/complex.rs): compared as torch.view_as_real.
    let real_view = expected.is_complex().then(|| expected.resolve_conj().resolve_neg().view_as_real());
    let expected = real_view.as_ref().unwrap_or(expected);
    if got.size() != expected.size() {
        return OutputError { name: name.to_string(), max_abs: f64::INFINITY, max_rel: f64::INFINITY, ok: false };
    }
    let g = got.to_kind(tch::Kind::Double);
    let e = expected.to_kind(tch::Kind::Double);
    if g.numel() == 0 {
        return OutputError { name: name.to_string(), max_abs: 0.0, max_rel: 0.0, ok: true };
    }
    let diff = (&g - &e).abs();
    // Equal infinities (and both NaN) count as equal.
    let same = g.eq_tensor(&e).logical_or(&g.isnan().logical_and(&e.isnan()));
    let diff = diff.masked_fill(&same, 0.0);
    let max_abs = diff.max().double_value(&[]);
    let max_rel = (&diff / e.abs().clamp_min(1e-12)).max().double_value(&[]);
    let (atol, rtol) = tolerance(expected.kind());
    let bound = e.abs() * rtol + atol;
    // Where both are NaN the bound is NaN too: `same` decides there.
    let ok = bool::from(diff.le_tensor(&bound).logical_or(&same).all().int64_value(&[]) != 0);
    OutputError { name: name.to_string(), max_abs, max_rel, ok }
}

/// Converts again with every lowered value tagged and returned, runs both
/// sides, and finds the first node whose values differ.
fn bisect(
    input: &str,
    output: &Path,
    inputs: &[tch::Tensor],
    convert: &ConvertOptions,
) -> Result<Option<Divergence>, Error> {
    let context = create_context();
    let reference = translate::load_for(&context, input, convert)?;
    let run = interp::run(&reference, inputs.iter().map(|t| RtValue::Tensor(t.shallow_clone())).collect(), true)?;

    let mut module = translate::load_for(&context, input, convert)?;
    let collector = DiagnosticCollector::attach(&context);
    let manager = crate::pipeline::Pipeline::parse(&lowering_trace_pipeline(convert.opset))?.build(&context, true)?;
    if manager.run(&mut module).is_err() {
        return Err(Error::PassFailed { path: input.to_string(), diagnostics: render(&collector.take()) });
    }
    let names = expose_traced_values(&module)?;
    let debug_path = output.with_extension("trace.onnx");
    export::write_model(&module, &debug_path, &ExportOptions::default())?;
    let values = run_onnx(&debug_path, inputs)?;
    let _ = std::fs::remove_file(&debug_path);
    let mut compared = std::collections::HashSet::new();
    for traced in &run.trace {
        let tag = format!("{}#{}", traced.node, traced.result);
        // A node inside a loop body runs once per iteration; the exposed
        // value (a copy of while_loop's condition before the Loop) is its
        // first run.
        if !names.contains(&tag) || !compared.insert(tag.clone()) {
            continue;
        }
        let Some((_, got)) = values.iter().find(|(n, _)| *n == format!("trace:{tag}")) else { continue };
        let err = compare(&tag, got, &traced.value);
        if !err.ok {
            let rule = aten2onnx_passes::lowering::rule_file(&traced.op)
                .unwrap_or_else(|| "(built-in lowering in passes/src/convert_aten_to_onnx.rs)".to_string());
            return Ok(Some(Divergence {
                node: traced.node.clone(),
                aten_op: traced.op.clone(),
                rule,
                position: traced.position.clone(),
                max_abs: err.max_abs,
            }));
        }
    }
    Ok(None)
}

/// Appends every value tagged `aten.trace` to the function's results, named
/// `trace:<node>#<result>`; returns the tags in order.
fn expose_traced_values(module: &Module) -> Result<Vec<String>, Error> {
    let context = module.context();
    let _context = unsafe { context.to_ref() };
    let function = module.body().first_operation().ok_or_else(|| Error::Interpreter("empty module".into()))?;
    let block =
        function.regions().next().and_then(|r| r.first_block()).ok_or_else(|| Error::Interpreter("no body".into()))?;
    let ret = block.terminator().ok_or_else(|| Error::Interpreter("no return".into()))?;
    let mut tagged: Vec<(Value, String)> = Vec::new();
    ir::walk(function, &mut |op| {
        // Values inside subgraphs (If/Loop/Scan bodies) cannot be graph
        // outputs: only the function's own ops are exposed.
        if op.parent_operation() != Some(function) {
            return;
        }
        for (index, result) in op.results().enumerate() {
            let name = aten2onnx_passes::convert_aten_to_onnx::trace_attr(index);
            if let Some(tag) = op.attribute(&name).ok().and_then(string_value) {
                tagged.push((result.into(), tag));
            }
        }
    });
    let values: Vec<Value> = tagged.iter().map(|(v, _)| *v).collect();
    let attrs: Vec<Vec<(&str, String)>> =
        tagged.iter().map(|(_, tag)| vec![("aten.name", format!("trace:{tag}"))]).collect();
    ir::append_function_results(function, ret, &values, &attrs).map_err(Error::Interpreter)?;
    Ok(tagged.into_iter().map(|(_, t)| t).collect())
}

/// The `aten.name` of each function argument.
fn argument_names(module: &Module) -> Vec<String> {
    let Some(function) = module.body().first_operation() else { return Vec::new() };
    let Some(attrs) = function.attribute("arg_attrs").ok().and_then(|a| ArrayAttribute::try_from(a).ok()) else {
        return Vec::new();
    };
    (0..attrs.len())
        .map(|i| {
            attrs
                .element(i)
                .ok()
                .and_then(|d| DictionaryAttribute::try_from(d).ok())
                .and_then(|d| d.element_by_name("aten.name"))
                .and_then(string_value)
                .unwrap_or_default()
        })
        .collect()
}

/// Random inputs shaped like the capture's sample inputs (dynamic dims take
/// the recorded hints), seeded: floats N(0, 1), integers in [0, 2), bools.
pub fn sample_inputs(module: &Module) -> Result<Vec<tch::Tensor>, Error> {
    let hints = module.as_operation().attribute("aten.symbol_hints").ok();
    let hint = |symbol: &str| -> Option<i64> {
        let dict = DictionaryAttribute::try_from(hints?).ok()?;
        let attr = dict.element_by_name(symbol)?;
        Some(unsafe { sys::mlirIntegerAttrGetValueInt(attr.to_raw()) })
    };
    let function = module.body().first_operation().ok_or_else(|| Error::Interpreter("empty module".into()))?;
    let block =
        function.regions().next().and_then(|r| r.first_block()).ok_or_else(|| Error::Interpreter("no body".into()))?;
    tch::manual_seed(0);
    let mut inputs = Vec::new();
    for i in 0..block.argument_count() {
        let arg: Value = block.argument(i).map_err(|e| Error::Interpreter(e.to_string()))?.into();
        let ty = arg.r#type();
        let shape = aten2onnx_passes::onnx_shape_inference::shape_of(ty)
            .ok_or_else(|| Error::Interpreter(format!("input #{i} is not a ranked tensor")))?;
        let dims: Vec<i64> = shape
            .iter()
            .map(|d| match d {
                aten2onnx_passes::onnx_shape_inference::Dim::Static(n) => Ok(*n),
                aten2onnx_passes::onnx_shape_inference::Dim::Sym(s) => hint(s)
                    .ok_or_else(|| Error::Interpreter(format!("input #{i}: no sample size for '{s}' (use --inputs)"))),
                aten2onnx_passes::onnx_shape_inference::Dim::Unknown => {
                    Err(Error::Interpreter(format!("input #{i}: unknown dim (use --inputs)")))
                }
            })
            .collect::<Result<_, _>>()?;
        let element = builder::element_type(ty).ok_or_else(|| Error::Interpreter("not a tensor".into()))?;
        let kind =
            tch_kind_of_type(element).ok_or_else(|| Error::Interpreter(format!("input #{i}: dtype {element}")))?;
        let t = match kind {
            tch::Kind::Float | tch::Kind::Double | tch::Kind::Half | tch::Kind::BFloat16 => {
                tch::Tensor::randn(&dims, (kind, tch::Device::Cpu))
            }
            tch::Kind::Bool => tch::Tensor::randint(2, &dims, (tch::Kind::Int64, tch::Device::Cpu)).to_kind(kind),
            _ => tch::Tensor::randint(2, &dims, (kind, tch::Device::Cpu)),
        };
        inputs.push(t);
    }
    Ok(inputs)
}

/// Reads recorded inputs: a NumPy `.npz` (arrays named after the graph
/// inputs, or `arr_0`, `arr_1`, ... in order; `np.savez` writes them
/// uncompressed), or a directory of `input_<i>.pb` TensorProtos.
pub fn read_inputs_for(path: &Path, input_names: &[String]) -> Result<Vec<tch::Tensor>, Error> {
    if path.extension().is_some_and(|e| e == "npz") {
        read_npz(path, input_names)
    } else {
        read_inputs(path)
    }
}

fn read_npz(path: &Path, input_names: &[String]) -> Result<Vec<tch::Tensor>, Error> {
    let fail = |m: String| Error::Interpreter(format!("{}: {m}", path.display()));
    let data = std::fs::read(path).map_err(|source| Error::Io { path: path.to_path_buf(), source })?;
    let entries = aten2onnx_pt2::zip_entries(&data).map_err(fail)?;
    let find = |name: &str| entries.iter().find(|e| e.name == format!("{name}.npy"));
    let mut out = Vec::new();
    for (i, input) in input_names.iter().enumerate() {
        let entry = find(input)
            .or_else(|| find(&format!("arr_{i}")))
            .ok_or_else(|| fail(format!("no array '{input}' (or 'arr_{i}')")))?;
        if entry.method != 0 {
            return Err(fail(format!("'{}' is compressed; save with np.savez, not savez_compressed", entry.name)));
        }
        let start = entry.data_offset as usize;
        let bytes = data.get(start..start + entry.size as usize).ok_or_else(|| fail("truncated entry".into()))?;
        out.push(parse_npy(bytes).map_err(|m| fail(format!("{}: {m}", entry.name)))?);
    }
    Ok(out)
}

/// A `.npy` array (little-endian, C order) as a tensor.
fn parse_npy(bytes: &[u8]) -> Result<tch::Tensor, String> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err("not a .npy array".into());
    }
    let (header_len, header_start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        _ => (u32::from_le_bytes(bytes[8..12].try_into().map_err(|_| "truncated")?) as usize, 12),
    };
    let header = std::str::from_utf8(bytes.get(header_start..header_start + header_len).ok_or("truncated header")?)
        .map_err(|_| "header is not text")?;
    let field = |key: &str| -> Option<&str> {
        let at = header.find(&format!("'{key}':"))? + key.len() + 3;
        Some(header[at..].trim_start())
    };
    let descr = field("descr").and_then(|s| s.split('\'').nth(1)).ok_or("no descr")?;
    if field("fortran_order").is_some_and(|s| s.starts_with("True")) {
        return Err("Fortran-order arrays are not supported".into());
    }
    let shape_text = field("shape").ok_or("no shape")?;
    let shape_text = &shape_text[1..shape_text.find(')').ok_or("bad shape")?];
    let shape: Vec<i64> = shape_text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().map_err(|_| "bad shape"))
        .collect::<Result<_, _>>()?;
    let kind = match descr {
        "<f4" => tch::Kind::Float,
        "<f8" => tch::Kind::Double,
        "<i8" => tch::Kind::Int64,
        "<i4" => tch::Kind::Int,
        "<f2" => tch::Kind::Half,
        "<i2" => tch::Kind::Int16,
        "|i1" => tch::Kind::Int8,
        "|u1" => tch::Kind::Uint8,
        "|b1" => tch::Kind::Bool,
        other => return Err(format!("dtype '{other}' is not supported")),
    };
    let data = &bytes[header_start + header_len..];
    tch::Tensor::f_from_data_size(data, &shape, kind).map_err(|e| e.to_string())
}

/// Reads `input_<i>.pb` TensorProtos of a directory, in order.
pub fn read_inputs(dir: &Path) -> Result<Vec<tch::Tensor>, Error> {
    use protobuf::Message;
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|source| Error::Io { path: dir.to_path_buf(), source })?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("input_") && n.ends_with(".pb"))
        })
        .collect();
    files.sort_by_key(|p| {
        p.file_stem().and_then(|s| s.to_str()).and_then(|s| s[6..].parse::<usize>().ok()).unwrap_or(0)
    });
    let mut out = Vec::new();
    for path in files {
        let bytes = std::fs::read(&path).map_err(|source| Error::Io { path: path.clone(), source })?;
        let t = onnx_protobuf::TensorProto::parse_from_bytes(&bytes)
            .map_err(|e| Error::Interpreter(format!("{}: {e}", path.display())))?;
        let kind = match t.data_type {
            1 => tch::Kind::Float,
            7 => tch::Kind::Int64,
            9 => tch::Kind::Bool,
            6 => tch::Kind::Int,
            11 => tch::Kind::Double,
            10 => tch::Kind::Half,
            16 => tch::Kind::BFloat16,
            2 => tch::Kind::Uint8,
            3 => tch::Kind::Int8,
            5 => tch::Kind::Int16,
            other => return Err(Error::Interpreter(format!("{}: data type {other}", path.display()))),
        };
        if t.raw_data.is_empty() && t.dims.iter().product::<i64>() != 0 {
            return Err(Error::Interpreter(format!("{}: only raw_data tensors are read", path.display())));
        }
        out.push(
            tch::Tensor::f_from_data_size(&t.raw_data, &t.dims, kind).map_err(|e| Error::Interpreter(e.to_string()))?,
        );
    }
    Ok(out)
}

/// Runs an ONNX model in onnxruntime; returns its outputs by name, in order.
pub fn run_onnx(model: &Path, inputs: &[tch::Tensor]) -> Result<Vec<(String, tch::Tensor)>, Error> {
    use ort::{
        session::Session,
        value::{DynValue, Tensor},
    };
    let fail = |e: String| Error::Interpreter(format!("onnxruntime: {e}"));
    let env = ort_environment().map_err(fail)?;
    let builder = Session::builder(env).map_err(|e| fail(e.to_string()))?;
    let mut builder = builder.with_intra_threads(2).map_err(|e| fail(e.to_string()))?;
    let mut session = builder.commit_from_file(model).map_err(|e| fail(e.to_string()))?;
    let names: Vec<String> = session.inputs().iter().map(|i| i.name().to_string()).collect();
    let mut feeds: Vec<(String, DynValue)> = Vec::new();
    for (name, t) in names.iter().zip(inputs) {
        // A complex input is fed as its real view (passes/lowering/src/complex.rs).
        let t =
            if t.is_complex() { t.resolve_conj().resolve_neg().view_as_real().contiguous() } else { t.contiguous() };
        let shape: Vec<i64> = t.size();
        let n = t.numel();
        // Every element type onnxruntime takes as a graph input.
        macro_rules! feed {
            ($ty:ty, $zero:expr) => {{
                let mut v: Vec<$ty> = vec![$zero; n];
                t.copy_data(&mut v, n);
                Tensor::from_array((shape, v)).map_err(|e| fail(e.to_string()))?.into_dyn()
            }};
        }
        let value: DynValue = match t.kind() {
            tch::Kind::Float => feed!(f32, 0.0),
            tch::Kind::Double => feed!(f64, 0.0),
            tch::Kind::Half => feed!(half::f16, half::f16::ZERO),
            // tch's Element impl of half::bf16 claims Kind::Half: copy the bits.
            tch::Kind::BFloat16 => {
                let mut bits: Vec<i16> = vec![0; n];
                t.view_dtype(tch::Kind::Int16).copy_data(&mut bits, n);
                let v: Vec<half::bf16> = bits.into_iter().map(|b| half::bf16::from_bits(b as u16)).collect();
                Tensor::from_array((shape, v)).map_err(|e| fail(e.to_string()))?.into_dyn()
            }
            tch::Kind::Int64 => feed!(i64, 0),
            tch::Kind::Int => feed!(i32, 0),
            tch::Kind::Int16 => feed!(i16, 0),
            tch::Kind::Int8 => feed!(i8, 0),
            tch::Kind::Uint8 => feed!(u8, 0),
            tch::Kind::Bool => feed!(bool, false),
            other => return Err(fail(format!("input kind {other:?} is not supported"))),
        };
        feeds.push((name.clone(), value));
    }
    let output_names: Vec<String> = session.outputs().iter().map(|o| o.name().to_string()).collect();
    let outputs = session.run(feeds).map_err(|e| fail(e.to_string()))?;
    let mut result = Vec::new();
    for (i, name) in output_names.iter().enumerate() {
        let value = &outputs[i];
        macro_rules! extract {
            ($($ty:ty),*) => {{
                let mut found = None;
                $(
                    if found.is_none() {
                        if let Ok((shape, data)) = value.try_extract_tensor::<$ty>() {
                            found = Some(tch::Tensor::from_slice(data).reshape(shape.to_vec()));
                        }
                    }
                )*
                found
            }};
        }
        // bfloat16 first, through its bits (tch would take half::bf16 data as Half).
        let bf16 = value.try_extract_tensor::<half::bf16>().ok().map(|(shape, data)| {
            let bits: Vec<i16> = data.iter().map(|x| x.to_bits() as i16).collect();
            tch::Tensor::from_slice(&bits).view_dtype(tch::Kind::BFloat16).reshape(shape.to_vec())
        });
        let t = bf16
            .or_else(|| extract!(f32, f64, half::f16, i64, i32, i16, i8, u8, bool))
            .ok_or_else(|| fail(format!("output '{name}' has an unsupported type")))?;
        result.push((name.clone(), t));
    }
    Ok(result)
}

/// The process's onnxruntime environment (onnxruntime allows one), loaded
/// from `ORT_DYLIB_PATH` (set by tools/env.sh).
pub fn ort_environment() -> Result<&'static ort::environment::Environment, String> {
    static ENV: std::sync::OnceLock<Result<ort::environment::Environment, String>> = std::sync::OnceLock::new();
    ENV.get_or_init(|| {
        let path = std::env::var_os("ORT_DYLIB_PATH")
            .map(PathBuf::from)
            .ok_or("ORT_DYLIB_PATH is not set (source tools/env.sh)")?;
        let builder = ort::init_from(&path).map_err(|e| format!("loading {}: {e}", path.display()))?;
        builder.build().map_err(|e| e.to_string())
    })
    .as_ref()
    .map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The export report's view of a mismatch: non-finite errors become
    /// null, the bisection's divergence is carried over.
    #[test]
    fn verify_stats_of_a_mismatch() {
        let report = VerifyReport {
            outputs: vec![
                OutputError { name: "a".into(), max_abs: 1e-7, max_rel: 2e-7, ok: true },
                OutputError { name: "b".into(), max_abs: f64::INFINITY, max_rel: f64::INFINITY, ok: false },
            ],
            divergence: Some(Divergence {
                node: "silu".into(),
                aten_op: "aten.silu.default".into(),
                rule: "passes/lowering/src/rules/activation/silu.rs".into(),
                position: SourcePosition::default(),
                max_abs: 0.25,
            }),
            optimizer: None,
        };
        let stats = report.stats();
        assert!(!stats.ok && stats.bisected);
        assert_eq!((stats.atol, stats.rtol), (ATOL, RTOL));
        assert_eq!(stats.outputs[0].max_abs, Some(1e-7));
        assert_eq!((stats.outputs[1].max_abs, stats.outputs[1].max_rel, stats.outputs[1].ok), (None, None, false));
        let d = stats.divergence.as_ref().unwrap();
        assert_eq!((d.aten_op.as_str(), d.max_abs), ("aten.silu.default", Some(0.25)));
        let json = serde_json::to_value(&stats).unwrap();
        assert!(json["outputs"][1]["max_abs"].is_null());
        assert_eq!(json["divergence"]["source"], "<unknown location>");
    }

    /// The optimizer's blame as printed: one rule is "the" bad rewrite; a
    /// minimal set of several is listed as needed together.
    #[test]
    fn optimizer_blame_rendering() {
        let rule = |r: &str, f: &str| (r.to_string(), format!("passes/optimizer/src/rules/{f}.rs"));
        let report = |rules: Vec<(String, String)>| VerifyReport {
            outputs: vec![OutputError { name: "y".into(), max_abs: 0.5, max_rel: 0.5, ok: false }],
            divergence: None,
            optimizer: Some(OptimizerBlame { stage: "onnx-eqsat rule".into(), rules }),
        };
        let one = report(vec![rule("algebra/add-zero", "algebra")]).render();
        assert!(one.contains("first bad rewrite: onnx-eqsat rule algebra/add-zero (passes/optimizer/src/rules/algebra.rs): the same conversion without it matches libtorch"), "{one}");
        let two = report(vec![
            rule("algebra/reciprocal-mul-to-div", "algebra"),
            rule("normalization/rms-normalization", "normalization"),
        ])
        .render();
        assert!(two.contains("first bad rewrite: 2 onnx-eqsat rules, needed together"), "{two}");
        assert!(
            two.contains("\n  normalization/rms-normalization (passes/optimizer/src/rules/normalization.rs)\n"),
            "{two}"
        );
        let stage = VerifyReport {
            optimizer: Some(OptimizerBlame {
                stage: "onnx-flatten-tokens (passes/src/onnx_flatten_tokens.rs)".into(),
                rules: vec![],
            }),
            ..report(vec![])
        };
        assert!(stage
            .render()
            .contains("first bad rewrite: onnx-flatten-tokens (passes/src/onnx_flatten_tokens.rs)\n"));
    }
}

#[cfg(test)]
mod bisect_tests {
    use super::*;

    /// The rules the bisection reads from a module's summaries (its
    /// pipeline variants: `pipeline_spec`'s tests).
    #[test]
    fn applied_rules_are_read() {
        let text = r#"attributes {onnx.eqsat = {applied = {"algebra/mul-by-one" = 4 : i64, "attention/sdpa" = 2 : i64}, eclasses = 3 : i64}} ... {applied = {"attention/sdpa" = 1 : i64}}"#;
        assert_eq!(applied_rules(text), vec!["algebra/mul-by-one".to_string(), "attention/sdpa".to_string()]);
    }
}
