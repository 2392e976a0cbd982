//! Library entry points behind `aten-translate`.

use crate::{
    create_context,
    diagnostics::{render, DiagnosticCollector},
    export::{self, ExportOptions, ExportReport, ExternalData},
    import,
    module::{self, PrintOptions},
    output::check_not_input,
    pipeline::Pipeline,
    Error,
};
use melior::{
    ir::{operation::OperationLike, Module},
    Context,
};
use std::path::Path;

/// Imports a `.pt2` archive and prints the aten-dialect module (verified
/// against the registries first).
pub fn pt2_to_aten_text(path: &str, print: PrintOptions) -> Result<String, Error> {
    pt2_to_aten_text_with(path, print, &import::ImportOptions::default())
}

/// [`pt2_to_aten_text`] with custom-op translations.
pub fn pt2_to_aten_text_with(
    path: &str,
    print: PrintOptions,
    options: &import::ImportOptions<'_>,
) -> Result<String, Error> {
    let context = create_context();
    let archive = aten2onnx_pt2::Archive::open(path)?;
    let module = import::import_program_with(&context, &archive, path, options)?;
    verify_input(&context, &module, path)?;
    Ok(module::print(&module, print))
}

/// Imports an ONNX model and prints the onnx-dialect module (verified
/// against the registries first).
pub fn onnx_to_text(
    path: &str,
    print: PrintOptions,
    dim_params: crate::onnx_import::DimParams,
) -> Result<String, Error> {
    let context = create_context();
    let module = crate::onnx_import::import(&context, path, dim_params)?;
    verify_input(&context, &module, path)?;
    Ok(module::print(&module, print))
}

/// What an imported ONNX model goes through: optimization only
/// ([`crate::pipeline_spec::PipelineSpec::onnx`]). A debugging aid
/// (bisecting a pass): `ATEN2ONNX_ONNX_PIPELINE=...` replaces it, as given.
pub fn onnx_pipeline_override() -> Option<String> {
    std::env::var("ATEN2ONNX_ONNX_PIPELINE").ok().filter(|p| !p.is_empty())
}

pub fn is_onnx_input(path: &str) -> bool {
    path.ends_with(".onnx")
}

/// Runs the registry verifiers on a freshly loaded module.
pub fn verify_input(context: &Context, module: &Module, path: &str) -> Result<(), Error> {
    let collector = DiagnosticCollector::attach(context);
    if aten2onnx_passes::verify_dialects(module.as_operation()).is_err() {
        return Err(Error::Invalid { path: path.to_string(), diagnostics: render(&collector.take()) });
    }
    Ok(())
}

/// Options of the `.pt2`/`.mlir` -> ONNX conversion.
#[derive(Clone, Debug)]
pub struct ConvertOptions {
    /// Target ONNX opset (17..28).
    pub opset: u32,
    pub external_data: ExternalData,
    /// The user chose `opset` (`--opset`): a module whose `onnx.opset`
    /// attribute says otherwise is refused. When false, a module's
    /// `onnx.opset` wins over `opset`.
    pub opset_given: bool,
    /// Keep node provenance (aten node, op, Python line) and the source
    /// archive in the ONNX model (`--strip-debug-info` clears it).
    pub debug_info: bool,
    /// `dim_param` names by symbol (`s77` -> `batch`), overriding the
    /// derived ones (the Python entry point passes the `torch.export.Dim`
    /// names here).
    pub dim_names: std::collections::BTreeMap<String, String>,
    /// What the model may contain: standard ONNX (default) or also
    /// onnxruntime's `com.microsoft` contrib ops (`--target onnxruntime`:
    /// `onnx-eqsat{target=onnxruntime}`).
    pub target: aten2onnx_passes::optimizer::rules::Target,
    /// How the optimizer picks the program from its e-graph: greedy
    /// (default) or exact by integer linear programming (`--extract ilp`:
    /// `onnx-eqsat{extract=ilp}`).
    pub extract: aten2onnx_passes::optimizer::extract_ilp::Extractor,
    /// Ops to decompose although they have a lowering rule (`--decompose`:
    /// `aten-decompose{ops=...}`); ops without a rule are decomposed anyway
    /// when they have a decomposition.
    pub decompose: Vec<String>,
    /// float16/bfloat16 ops as written (`--half-precision native`): leaves
    /// out `onnx-widen-half`, which computes them in float32 with PyTorch's
    /// rounding points (the default).
    pub native_half: bool,
    /// When the registry verifiers run: after every pass (the library's
    /// default, and what the tests use) or on the result only, as
    /// `aten-translate` does unless `--verify-each` (see [`Verification`]).
    pub verification: Verification,
    /// Weight-only quantization (`--quantize-weights SPEC`, see
    /// [`QuantizeWeights::parse`]): `onnx-quantize-weights` after the
    /// optimizer.
    pub quantize_weights: Option<QuantizeWeights>,
    /// Translations of custom ops (`--custom-ops LIB.onnx`, see
    /// [`crate::custom_ops`]).
    pub custom_ops: Option<std::sync::Arc<crate::custom_ops::CustomOps>>,
    /// What an `.onnx` input's `dim_param` names prove (`--trust-dim-params`).
    pub dim_params: crate::onnx_import::DimParams,
}

/// A `--quantize-weights` SPEC: `int4` or `int8`, then `:`-separated
/// options: `block=N` (32), `sym` (default) or `asym`, `exclude=REGEX`
/// (archive names that stay float, e.g. `lm_head`), `accuracy=N`
/// (MatMulNBits' accuracy_level with `--target onnxruntime`, default 4),
/// `scope=linear` (default) or `scope=linear,embedding` (Gather tables too:
/// GatherBlockQuantized, 4 bits). E.g. `int4`,
/// `int4:block=64:asym:exclude=lm_head`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantizeWeights {
    pub bits: u32,
    pub block: u32,
    pub symmetric: bool,
    pub exclude: Option<String>,
    pub accuracy_level: u32,
    /// `scope=linear,embedding`: Gather tables too (4 bits).
    pub embeddings: bool,
}

impl QuantizeWeights {
    pub fn parse(spec: &str) -> Result<QuantizeWeights, Error> {
        let bad = |m: String| Error::Usage(format!("--quantize-weights {spec:?}: {m}"));
        let mut parts = spec.split(':');
        let bits = match parts.next().unwrap_or("") {
            "int4" => 4,
            "int8" => 8,
            other => return Err(bad(format!("the type must be int4 or int8, got {other:?}"))),
        };
        let mut q =
            QuantizeWeights { bits, block: 32, symmetric: true, exclude: None, accuracy_level: 4, embeddings: false };
        for part in parts {
            match part.split_once('=') {
                None if part == "sym" => q.symmetric = true,
                None if part == "asym" => q.symmetric = false,
                Some(("block", v)) => {
                    q.block = v
                        .parse()
                        .ok()
                        .filter(|b: &u32| aten2onnx_passes::onnx_quantize_weights::valid_block(*b as i64))
                        .ok_or_else(|| bad(format!("block must be a power of two from 16 to 4096, got {v:?}")))?
                }
                Some(("accuracy", v)) => {
                    q.accuracy_level = v
                        .parse()
                        .ok()
                        .filter(|a: &u32| *a <= 4)
                        .ok_or_else(|| bad(format!("accuracy must be 0..4, got {v:?}")))?
                }
                Some(("exclude", v)) => {
                    // It travels inside the pass pipeline's text: no spaces or braces.
                    if v.is_empty() || v.contains(|c: char| c.is_whitespace() || c == '{' || c == '}') {
                        return Err(bad(format!("exclude must be a regex without spaces or braces, got {v:?}")));
                    }
                    q.exclude = Some(v.to_string());
                }
                Some(("scope", "linear")) => q.embeddings = false,
                Some(("scope", "linear,embedding" | "embedding,linear")) => q.embeddings = true,
                Some(("scope", v)) => {
                    return Err(bad(format!(
                        "scope {v:?} is not supported: 'linear' (MatMul/Gemm weights) or 'linear,embedding' (and \
                         Gather tables)"
                    )))
                }
                _ => {
                    return Err(bad(format!(
                        "unknown option {part:?} (block=N, sym, asym, exclude=REGEX, accuracy=N, \
                         scope=linear|linear,embedding)"
                    )))
                }
            }
        }
        if q.embeddings && q.bits != 4 {
            return Err(bad("embedding tables are quantized to 4 bits only (onnxruntime's GatherBlockQuantized): \
                            use int4 with scope=linear,embedding"
                .to_string()));
        }
        Ok(q)
    }

    /// The pass in a pipeline, for the target.
    pub fn pass(&self, target: aten2onnx_passes::optimizer::rules::Target) -> String {
        use aten2onnx_passes::optimizer::rules::Target;
        let format = if target == Target::OnnxRuntime { "matmulnbits" } else { "qdq" };
        let mut s = format!(
            "onnx-quantize-weights{{bits={} block={} symmetric={} format={format} accuracy-level={}",
            self.bits, self.block, self.symmetric as u8, self.accuracy_level
        );
        if let Some(e) = &self.exclude {
            s.push_str(&format!(" exclude={e}"));
        }
        if self.embeddings {
            s.push_str(" embeddings=1");
        }
        s.push('}');
        s
    }
}

/// When [`run_pipeline_with`] runs the registry verifiers (aten-verify,
/// onnx-verify; MLIR's structural verifier runs after every pass either
/// way).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Verification {
    /// After every pass: a pass that leaves an invalid op is named at once.
    #[default]
    EachPass,
    /// On the pipeline's result only: a third of a conversion's time is the
    /// per-pass verification of a module that is valid. When the result is
    /// invalid (or a pass fails), the pipeline runs again on a copy of the
    /// input with the verifiers after every pass, so the error names the pass
    /// and the op exactly as [`Verification::EachPass`] would.
    Result,
}

impl Default for ConvertOptions {
    fn default() -> Self {
        ConvertOptions {
            opset: aten2onnx_passes::onnx_ir::DEFAULT_OPSET,
            external_data: ExternalData::Auto,
            opset_given: false,
            debug_info: true,
            dim_names: Default::default(),
            target: Default::default(),
            extract: Default::default(),
            decompose: Vec::new(),
            native_half: false,
            verification: Verification::EachPass,
            quantize_weights: None,
            custom_ops: None,
            dim_params: Default::default(),
        }
    }
}

/// Refuses an opset outside what the lowering supports.
pub fn check_opset(opset: u32) -> Result<(), Error> {
    use aten2onnx_passes::lowering::{MAX_OPSET, MIN_OPSET};
    if !(MIN_OPSET..=MAX_OPSET).contains(&opset) {
        return Err(Error::Usage(format!("--opset {opset} is outside the supported range {MIN_OPSET}..{MAX_OPSET}")));
    }
    Ok(())
}

/// The pass pipeline of the main job, from the aten dialect to a verified
/// onnx-dialect module (every option at its default: see
/// [`crate::pipeline_spec::PipelineSpec`] for the others).
pub fn default_pipeline(opset: u32) -> String {
    crate::pipeline_spec::PipelineSpec::new(opset).render()
}

/// `--decompose` names: each must look like an aten op name, or it would
/// be spliced into the pass pipeline text (an empty one swallowed the next
/// pass option; `}` or a space could add options or passes).
pub fn check_decompose(ops: &[String]) -> Result<(), Error> {
    for op in ops {
        if op.is_empty() || !op.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
            return Err(Error::Usage(format!("--decompose: {op:?} is not an aten op name (aten.<op>.<overload>)")));
        }
    }
    Ok(())
}

/// Loads a `.pt2` (imported) or `.mlir` (parsed) file into `context` and
/// runs the registry verifiers on it. A `.mlir`'s `aten.archive` is resolved
/// (a relative path against the `.mlir`'s directory, else the working
/// directory), opened to check it, and replaced by the resolved path.
pub fn load<'c>(context: &'c Context, path: &str) -> Result<Module<'c>, Error> {
    load_with(context, path, None, &import::ImportOptions::default(), Default::default())
}

/// [`load`] as a conversion with `options` loads: an ONNX model upgraded
/// to the given opset, a `.pt2`'s custom ops translated at the opset.
pub fn load_for<'c>(context: &'c Context, path: &str, options: &ConvertOptions) -> Result<Module<'c>, Error> {
    let import = import::ImportOptions { custom_ops: options.custom_ops.as_deref(), opset: Some(options.opset) };
    load_with(context, path, options.opset_given.then_some(options.opset), &import, options.dim_params)
}

/// [`load`]: an ONNX model first upgraded to opset `onnx_opset` when given
/// (`--to-onnx m.onnx --opset N`, see `onnx_import::upgrade`), a `.pt2`
/// imported with `import`.
fn load_with<'c>(
    context: &'c Context,
    path: &str,
    onnx_opset: Option<u32>,
    import: &import::ImportOptions<'_>,
    dim_params: crate::onnx_import::DimParams,
) -> Result<Module<'c>, Error> {
    let module = if path.ends_with(".pt2") {
        let archive = aten2onnx_pt2::Archive::open(path)?;
        import::import_program_with(context, &archive, path, import)?
    } else if is_onnx_input(path) {
        crate::onnx_import::import_at_opset(context, path, onnx_opset, dim_params)?
    } else if path.ends_with(".mlir") {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.into(), source })?;
        let module = module::parse(context, &text, path)?;
        resolve_archive(context, &module, path)?;
        module
    } else {
        return Err(Error::Usage(format!("{path}: expected a .pt2, .onnx or .mlir file")));
    };
    verify_input(context, &module, path)?;
    Ok(module)
}

/// The module's `aten.archive`, if any.
pub fn archive_of(module: &Module) -> Option<String> {
    module
        .as_operation()
        .attribute(aten2onnx_passes::aten_ir::ARCHIVE_ATTR)
        .ok()
        .and_then(aten2onnx_passes::ir::string_value)
}

fn resolve_archive(context: &Context, module: &Module, mlir: &str) -> Result<(), Error> {
    let Some(named) = archive_of(module) else { return Ok(()) };
    let fail = |message: String| Error::Import { path: mlir.to_string(), message };
    let named_path = Path::new(&named);
    let resolved = if named_path.is_absolute() {
        named_path.to_path_buf()
    } else {
        let beside = Path::new(mlir).parent().unwrap_or(Path::new("")).join(named_path);
        if beside.exists() || !named_path.exists() {
            beside
        } else {
            named_path.to_path_buf()
        }
    };
    if !resolved.exists() {
        return Err(fail(format!(
            "its `aten.archive` names `{named}`, which does not exist (looked for {})",
            resolved.display()
        )));
    }
    let resolved_text = resolved.to_string_lossy().into_owned();
    aten2onnx_pt2::Archive::open(&resolved)
        .map_err(|e| fail(format!("the archive its `aten.archive` names cannot be used: {e}")))?;
    let attr = melior::ir::attribute::StringAttribute::new(context, &resolved_text);
    let name = aten2onnx_passes::aten_ir::ARCHIVE_ATTR;
    unsafe {
        mlir_sys::mlirOperationSetAttributeByName(
            module.as_operation().to_raw(),
            mlir_sys::MlirStringRef { data: name.as_ptr() as *const _, length: name.len() },
            melior::ir::attribute::AttributeLike::to_raw(&attr),
        )
    };
    Ok(())
}

/// The `<output>.data` path the writer may use beside `output`.
fn data_file_of(output: &Path) -> Option<std::path::PathBuf> {
    let name = output.file_name()?.to_str()?;
    Some(output.with_file_name(format!("{name}.data")))
}

/// Converts a `.pt2` or `.mlir` file to an ONNX model at `output` (written
/// atomically; nothing is left behind on error). An output (or its
/// `.data` file) naming the input, or the archive a `.mlir` refers to, is
/// refused before anything is written.
pub fn convert(input: &str, output: &Path, options: &ConvertOptions) -> Result<ExportReport, Error> {
    convert_reporting(input, output, options, None)
}

/// [`convert`], filling `report` (per-pass timings and op counts, lowering
/// and ONNX statistics) when given one; the caller records an error in it.
pub fn convert_reporting(
    input: &str,
    output: &Path,
    options: &ConvertOptions,
    mut report: Option<&mut crate::report::Report>,
) -> Result<ExportReport, Error> {
    let start = std::time::Instant::now();
    if let Some(r) = report.as_deref_mut() {
        r.output = Some(output.display().to_string());
        r.options.opset = options.opset;
        r.options.opset_requested = options.opset_given.then_some(options.opset);
        r.options.debug_info = options.debug_info;
        r.options.external_data = format!("{:?}", options.external_data).to_lowercase();
    }
    let result = convert_steps(input, output, options, report.as_deref_mut());
    if let Some(r) = report {
        r.timings_ms.total = start.elapsed().as_secs_f64() * 1e3;
    }
    result
}

fn convert_steps(
    input: &str,
    output: &Path,
    options: &ConvertOptions,
    mut report: Option<&mut crate::report::Report>,
) -> Result<ExportReport, Error> {
    use crate::report;
    check_opset(options.opset)?;
    let outputs: Vec<std::path::PathBuf> = std::iter::once(output.to_path_buf()).chain(data_file_of(output)).collect();
    for out in &outputs {
        check_not_input(out, &[(Path::new(input), "the input")])?;
        if let Some(library) = &options.custom_ops {
            check_not_input(out, &[(Path::new(&library.label), "the --custom-ops library")])?;
        }
    }
    let context = create_context();
    let mut load_ms = 0.0;
    crate::progress::stage(format!("loading {input}"));
    let mut module = report::timed(&mut load_ms, || load_for(&context, input, options))?;
    crate::progress::stage("lowering and optimizing");
    if let Some(r) = report.as_deref_mut() {
        r.timings_ms.load = load_ms;
    }
    if let Some(archive) = archive_of(&module) {
        let what = format!("the archive {input} refers to");
        for out in &outputs {
            check_not_input(out, &[(Path::new(&archive), &what)])?;
        }
    }
    // The files whose bytes initializers read (an imported ONNX model and
    // its external data) must not be overwritten while they are read.
    for file in crate::onnx_import::referenced_files(&module) {
        let what = format!("a data file {input} reads ({})", file.display());
        for out in &outputs {
            check_not_input(out, &[(file.as_path(), &what)])?;
        }
    }
    // An ONNX model, or its module printed by --from-onnx (it records the
    // model's IR version): the onnx part of the pipeline, at the model's opset.
    let onnx_input =
        is_onnx_input(input) || module.as_operation().attribute(crate::onnx_import::IR_VERSION_ATTR).is_ok();
    let opset = match module_opset(&module) {
        Some(declared) if options.opset_given && declared != options.opset => {
            return Err(Error::Usage(format!(
                "{input}: the module targets opset {declared} (its `onnx.opset` attribute) but --opset {} was given",
                options.opset
            )))
        }
        // An imported ONNX model keeps its opset, whatever it is.
        Some(declared) if onnx_input => declared,
        Some(declared) => {
            check_opset(declared).map_err(|_| Error::Import {
                path: input.to_string(),
                message: format!("its `onnx.opset` attribute ({declared}) is outside the supported range"),
            })?;
            declared
        }
        None => options.opset,
    };
    let mut dim_names = options.dim_names.clone();
    if onnx_input {
        // The model's own dim_param names stay as they are.
        for (symbol, name) in crate::onnx_import::dim_params(&module) {
            dim_names.entry(symbol).or_insert(name);
        }
    }
    let export_options = ExportOptions {
        external_data: options.external_data,
        debug_info: options.debug_info,
        dim_names,
        ..Default::default()
    };
    check_decompose(&options.decompose)?;
    use crate::pipeline_spec::{PipelineSpec, Source};
    let source = if onnx_input { Source::Onnx } else { Source::Aten };
    let pipeline = match onnx_pipeline_override().filter(|_| onnx_input) {
        Some(text) => text,
        None => PipelineSpec::for_conversion(options, source, opset).render(),
    };
    let Some(r) = report else {
        run_pipeline_with(&context, &mut module, input, &pipeline, options.verification)?;
        return export::write_model(&module, output, &export_options);
    };
    r.options.opset = opset;
    r.options.pipeline = pipeline.clone();
    let (aten, unsupported) = report::aten_inventory(&module, opset);
    r.unsupported = unsupported;
    let mut passes_ms = 0.0;
    let lowered = report::timed(&mut passes_ms, || report::run_pipeline(&context, &mut module, input, &pipeline, r));
    r.timings_ms.passes = passes_ms;
    lowered?;
    let aten = r.aten_before_lowering.take().unwrap_or(aten);
    let (lowering, decomposed) = report::lowering_records(&aten, &r.lowered_by_aten, &module);
    r.lowering = lowering;
    r.decomposed.extend(decomposed);
    r.onnx = Some(report::onnx_stats(&module));
    let mut write_ms = 0.0;
    let written = report::timed(&mut write_ms, || export::write_model(&module, output, &export_options));
    r.timings_ms.write = write_ms;
    written
}

/// The module's `onnx.opset` attribute, when it has one.
fn module_opset(module: &Module) -> Option<u32> {
    use melior::ir::attribute::AttributeLike;
    let attr = module.as_operation().attribute(aten2onnx_passes::onnx_ir::OPSET_ATTR).ok()?;
    unsafe {
        if !mlir_sys::mlirAttributeIsAInteger(attr.to_raw()) {
            return None;
        }
        u32::try_from(mlir_sys::mlirIntegerAttrGetValueInt(attr.to_raw())).ok().or(Some(0))
    }
}

/// Runs [`default_pipeline`] on `module`, with the registry verifiers after
/// every pass.
pub fn lower(context: &Context, module: &mut Module, path: &str, opset: u32) -> Result<(), Error> {
    run_pipeline(context, module, path, &default_pipeline(opset))
}

/// Runs `pipeline` on `module`, with the registry verifiers after every pass.
pub fn run_pipeline(context: &Context, module: &mut Module, path: &str, pipeline: &str) -> Result<(), Error> {
    run_pipeline_with(context, module, path, pipeline, Verification::EachPass)
}

/// Runs `pipeline` on `module`, verifying as `verification` says.
pub fn run_pipeline_with(
    context: &Context,
    module: &mut Module,
    path: &str,
    pipeline: &str,
    verification: Verification,
) -> Result<(), Error> {
    let parsed = Pipeline::parse(pipeline)?;
    let run = |module: &mut Module, each_pass: bool| -> Result<(), Error> {
        let collector = DiagnosticCollector::attach(context);
        let manager = parsed.build(context, each_pass)?;
        if manager.run(module).is_err() || aten2onnx_passes::verify_dialects(module.as_operation()).is_err() {
            return Err(Error::PassFailed { path: path.to_string(), diagnostics: render(&collector.take()) });
        }
        Ok(())
    };
    if verification == Verification::EachPass {
        return run(module, true);
    }
    // The copy costs a few milliseconds; the per-pass verifiers it replaces,
    // tens (a 32-layer Llama: ~40 of ~130 ms).
    // SAFETY: a clone is a new top-level op, owned by `Operation`.
    let copy = unsafe { melior::ir::Operation::from_raw(mlir_sys::mlirOperationClone(module.as_operation().to_raw())) };
    let Err(failed) = run(module, false) else { return Ok(()) };
    let Some(mut again) = Module::from_operation(copy) else { return Err(failed) };
    match run(&mut again, true) {
        Err(named) => Err(named),
        // Not expected (the passes are deterministic): the first report.
        Ok(()) => Err(failed),
    }
}
