//! `aten-translate`: translations in and out of the MLIR world.
//!
//! ```text
//! aten-translate --from-pt2 model.pt2            # print the aten dialect module
//! aten-translate --to-onnx model.pt2 -o m.onnx   # the main job
//! aten-translate --from-onnx model.onnx          # print an ONNX model in the onnx dialect
//! aten-translate --to-onnx in.onnx -o out.onnx   # re-optimize an ONNX model
//! ```

use crate::{export::ExternalData, module::PrintOptions, translate};
use clap::{ArgGroup, Parser};

/// The default `--opset`.
fn aten2onnx_passes_default_opset() -> u32 {
    translate::ConvertOptions::default().opset
}
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "aten-translate", version, about = "Translate torch.export programs to MLIR and ONNX")]
#[command(group(ArgGroup::new("mode").required(true).args(["from_pt2", "from_onnx", "to_onnx"])))]
struct Args {
    /// Import a .pt2 archive and print it in the aten dialect.
    #[arg(long = "from-pt2")]
    from_pt2: bool,
    /// Import an ONNX model and print it in the onnx dialect.
    #[arg(long = "from-onnx")]
    from_onnx: bool,
    /// Convert a .pt2, .onnx (re-optimize) or .mlir file to an ONNX model.
    #[arg(long = "to-onnx")]
    to_onnx: bool,
    /// Input file.
    input: String,
    /// Output file ('-' = stdout, the default for --from-pt2).
    #[arg(short = 'o')]
    output: Option<String>,
    /// Target ONNX opset for --to-onnx (17..28; default 23, or the
    /// `onnx.opset` of a .mlir input). An .onnx input keeps its opset, or is
    /// upgraded to this one (13.. -> ..23; docs/from-onnx.md).
    #[arg(long)]
    opset: Option<u32>,
    /// With --to-onnx: `onnxruntime` lets the optimizer use onnxruntime's
    /// com.microsoft contrib ops where they pay (SkipSimplifiedLayerNormalization,
    /// GroupQueryAttention, QuickGelu, ...); `standard` (default) writes
    /// standard ONNX only.
    #[arg(long, value_parser = ["standard", "onnxruntime"], default_value = "standard")]
    target: String,
    /// With --to-onnx: how the optimizer picks the cheapest equivalent
    /// program from its e-graph: `greedy` (default) or `ilp` (exact, by
    /// integer linear programming, at most 1 s per function body; greedy's
    /// choice is kept when the solver does not beat it in time).
    #[arg(long, value_parser = ["greedy", "ilp"], default_value = "greedy")]
    extract: String,
    /// With --to-onnx: also decompose these aten ops (comma-separated, e.g.
    /// `aten.gelu.default`) into simpler aten ops before lowering, although
    /// they have a lowering rule (`aten-opt --list-decompositions` lists
    /// them). Ops without a rule are decomposed anyway when they can be.
    #[arg(long, value_delimiter = ',')]
    decompose: Vec<String>,
    /// With --to-onnx: how float16/bfloat16 ops are written. `torch`
    /// (default): computed in float32 and rounded at each aten op's results,
    /// as PyTorch's CPU kernels do, so every runtime rounds at the same
    /// points (onnxruntime's CPU provider otherwise runs float16 islands in
    /// float32 without intermediate roundings, and has no bfloat16 kernels).
    /// `native`: ops keep their half types (a smaller graph for runtimes
    /// with native float16 kernels; the roundings are then the runtime's).
    #[arg(long = "half-precision", value_parser = ["torch", "native"], default_value = "torch")]
    half_precision: String,
    /// With --to-onnx: weight-only quantization of the Linear layers,
    /// block-wise round-to-nearest with onnxruntime's quantizer's numbers:
    /// `int4` or `int8`, then `:`-separated options `block=N` (32), `sym`
    /// (default) / `asym`, `exclude=REGEX` (archive names left in float,
    /// e.g. `lm_head`), `accuracy=N` (MatMulNBits accuracy_level, default 4),
    /// `scope=linear,embedding` (embedding tables too, int4).
    /// Standard output: DequantizeLinear + MatMul / Gather (opset 21+); with
    /// `--target onnxruntime`: MatMulNBits, GatherBlockQuantized.
    /// docs/quantization.md.
    #[arg(long = "quantize-weights", value_name = "SPEC")]
    quantize_weights: Option<String>,
    /// Translations of custom ops: an ONNX model whose function `my_op` in
    /// domain `mylib` translates `mylib::my_op` (`my_op.<overload>` for one
    /// overload). docs/custom_ops.md.
    #[arg(long = "custom-ops", value_name = "LIB.onnx")]
    custom_ops: Option<String>,
    /// With an .onnx input: take equal `dim_param` names as equal sizes
    /// (value_info and outputs included), as the exporter claims. Off by
    /// default: onnxruntime does not check the names, so a model whose
    /// names lie would convert into one that computes something else; the
    /// optimizer then proves sizes equal from the ops alone (and fuses less
    /// on some exporters' models). docs/from-onnx.md.
    #[arg(long = "trust-dim-params")]
    trust_dim_params: bool,
    /// Put initializers in `<output>.data` (always), or never; default: only past 2 GiB.
    #[arg(long = "external-data", value_parser = ["auto", "always", "never"], default_value = "auto")]
    external_data: String,
    /// With --to-onnx: run the aten program on libtorch and the ONNX model in
    /// onnxruntime, report per-output errors, exit 1 above tolerance and name
    /// the first diverging op (needs the `torch` build feature).
    #[arg(long)]
    verify: bool,
    /// With --verify: a NumPy .npz of the inputs (by input name, or arr_0,
    /// arr_1, ...), or a directory of input_<i>.pb TensorProtos (default:
    /// random inputs of the capture's sample shapes).
    #[arg(long)]
    inputs: Option<String>,
    /// With --to-onnx: run the registry verifiers after every pass, as
    /// aten-opt does (default: on the input and the result; when the result
    /// is invalid or a pass fails, the pipeline is re-run this way so the
    /// error names the pass).
    #[arg(long = "verify-each")]
    verify_each: bool,
    /// Print locations (node names and Python source lines).
    #[arg(long = "mlir-print-debuginfo")]
    print_debuginfo: bool,
    /// With --to-onnx: leave out where each ONNX node came from (aten node,
    /// aten op and Python line in the node's doc_string and metadata_props)
    /// and the source archive's name.
    #[arg(long = "strip-debug-info")]
    strip_debug_info: bool,
    /// With --to-onnx: write an export report (per-pass timings and op
    /// counts, lowering and ONNX statistics; JSON, or .xlsx when FILE ends
    /// so), also when the conversion fails. Schema: docs/report.md.
    #[arg(long)]
    report: Option<String>,
    /// With --to-onnx: print the report as a table on stdout.
    #[arg(long)]
    stats: bool,
    /// No progress bar (it is shown on stderr, when stderr is a terminal,
    /// for conversions longer than a second).
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// Runs the tool on `args` (the first is the program name), as its binary
/// does: the exit code (0 or 1), messages on stderr.
pub fn main<I, S>(args: I) -> ExitCode
where
    I: IntoIterator<Item = S>,
    S: Into<std::ffi::OsString> + Clone,
{
    let args = match crate::guard::parse_args_from::<Args, _, _>(args) {
        Ok(args) => args,
        Err(code) => return code,
    };
    crate::guard::run("aten-translate", &args.input, || {
        if args.to_onnx {
            crate::progress::enable(args.quiet);
        }
        let result = run(&args).map_err(|e| e.to_string());
        crate::progress::finish();
        result
    })
}

fn dim_params(args: &Args) -> crate::onnx_import::DimParams {
    if args.trust_dim_params {
        crate::onnx_import::DimParams::Trusted
    } else {
        crate::onnx_import::DimParams::Claims
    }
}

fn run(args: &Args) -> Result<(), crate::Error> {
    if args.from_pt2 || args.from_onnx {
        let print = PrintOptions { debug_info: args.print_debuginfo, generic: false };
        let output = args.output.as_deref().unwrap_or("-");
        if output != "-" {
            crate::output::check_not_input(
                std::path::Path::new(output),
                &[(std::path::Path::new(&args.input), "the input")],
            )?;
            if let Some(library) = &args.custom_ops {
                crate::output::check_not_input(
                    std::path::Path::new(output),
                    &[(std::path::Path::new(library), "the --custom-ops library")],
                )?;
            }
        }
        let text = if args.from_onnx {
            translate::onnx_to_text(&args.input, print, dim_params(args))?
        } else {
            let library = args.custom_ops.as_deref().map(crate::custom_ops::CustomOps::load).transpose()?;
            let import = crate::import::ImportOptions { custom_ops: library.as_ref(), opset: args.opset };
            translate::pt2_to_aten_text_with(&args.input, print, &import)?
        };
        crate::write_output(output, text.as_bytes())
    } else {
        let output = args
            .output
            .as_deref()
            .ok_or_else(|| crate::Error::Usage("--to-onnx needs an output file: -o OUT.onnx".to_string()))?;
        let options = translate::ConvertOptions {
            opset: args.opset.unwrap_or(aten2onnx_passes_default_opset()),
            opset_given: args.opset.is_some(),
            external_data: match args.external_data.as_str() {
                "always" => ExternalData::Always,
                "never" => ExternalData::Never,
                _ => ExternalData::Auto,
            },
            debug_info: !args.strip_debug_info,
            target: aten2onnx_passes::optimizer::rules::Target::parse(&args.target).unwrap_or_default(),
            extract: aten2onnx_passes::optimizer::extract_ilp::Extractor::parse(&args.extract).unwrap_or_default(),
            decompose: args.decompose.clone(),
            native_half: args.half_precision == "native",
            quantize_weights: args.quantize_weights.as_deref().map(translate::QuantizeWeights::parse).transpose()?,
            custom_ops: args
                .custom_ops
                .as_deref()
                .map(crate::custom_ops::CustomOps::load)
                .transpose()?
                .map(std::sync::Arc::new),
            dim_params: dim_params(args),
            verification: if args.verify_each {
                translate::Verification::EachPass
            } else {
                translate::Verification::Result
            },
            ..Default::default()
        };
        if args.report.is_none() && !args.stats {
            if args.verify {
                return verify(args, output, options, None);
            }
            let quantizing = options.quantize_weights.is_some();
            return translate::convert(&args.input, std::path::Path::new(output), &options)
                .map(|written| print_notes(&written, quantizing, args.quiet));
        }
        if let Some(path) = &args.report {
            let path = std::path::Path::new(path);
            crate::output::check_not_input(path, &[(std::path::Path::new(&args.input), "the input")])?;
            if path == std::path::Path::new(output) {
                return Err(crate::Error::Usage("--report names the ONNX output file".into()));
            }
            // Checked before converting: a report that cannot be written
            // after a successful conversion left the model behind with exit 1.
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
            if !dir.is_dir() {
                return Err(crate::Error::Usage(format!(
                    "--report {}: the directory {} does not exist",
                    path.display(),
                    dir.display()
                )));
            }
        }
        let quantizing = options.quantize_weights.is_some();
        let mut report = crate::report::Report::new("aten-translate", &args.input);
        let result = if args.verify {
            verify(args, output, options, Some(&mut report))
        } else {
            translate::convert_reporting(&args.input, std::path::Path::new(output), &options, Some(&mut report))
                .map(|written| print_notes(&written, quantizing, args.quiet))
        };
        if let Err(e) = &result {
            report.fail(e);
        }
        if args.stats {
            crate::output::write_output("-", report.render_table().as_bytes())?;
        }
        if let Some(path) = &args.report {
            report.write(path)?;
        }
        result.map(|_| ())
    }
}

/// What the user should know about a model written with exit 0: complex
/// graph inputs and outputs change the model's signature (each is written as
/// its real view; feeding a complex array fails), and a `--quantize-weights`
/// that found no weight to quantize wrote a float model.
fn print_notes(written: &crate::export::ExportReport, quantizing: bool, quiet: bool) {
    if quiet {
        return;
    }
    if quantizing && written.quantized_weights == 0 {
        eprintln!(
            "aten-translate: note: --quantize-weights quantized no weight (it takes float32, float16 or \
             bfloat16 weights of static 2-D shape that feed a MatMul or Gemm, or a Gather with \
             scope=linear,embedding, and do not match exclude=; docs/quantization.md): the model is written in float"
        );
    }
    for (name, dtype) in &written.complex_views {
        eprintln!("aten-translate: note: `{name}`: {}", crate::export::complex_view_note(dtype));
    }
}

/// `--verify`: converts, compares with libtorch, prints the comparison;
/// fills `export_report` (`--report`/`--stats`) when given one.
#[cfg(feature = "torch")]
fn verify(
    args: &Args,
    output: &str,
    convert: translate::ConvertOptions,
    export_report: Option<&mut crate::report::Report>,
) -> Result<(), crate::Error> {
    use crate::verify::{verify_reporting, VerifyOptions};
    let options = VerifyOptions { convert, inputs: args.inputs.as_ref().map(std::path::PathBuf::from) };
    let report = verify_reporting(&args.input, std::path::Path::new(output), &options, export_report)?;
    crate::output::write_output("-", report.render().as_bytes())?;
    if report.ok() {
        Ok(())
    } else {
        Err(crate::Error::Verification(format!(
            "{}: the ONNX model differs from libtorch beyond |diff| <= {} + {} |expected| \
             (1e-3 + 1e-3 |expected| for float16 outputs, 1e-2 + 1.6e-2 |expected| for bfloat16)",
            args.input,
            crate::verify::ATOL,
            crate::verify::RTOL
        )))
    }
}

#[cfg(not(feature = "torch"))]
fn verify(
    _: &Args,
    _: &str,
    _: translate::ConvertOptions,
    _: Option<&mut crate::report::Report>,
) -> Result<(), crate::Error> {
    Err(crate::Error::Usage(
        "--verify needs libtorch: this aten-translate was built without the `torch` feature (cargo build --features torch)".into(),
    ))
}
