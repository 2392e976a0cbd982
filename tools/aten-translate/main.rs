//! `aten-translate`: translations in and out of the MLIR world.
//!
//!     aten-translate --from-pt2 model.pt2            # print the aten dialect module
//!     aten-translate --to-onnx model.pt2 -o m.onnx   # the main job

use aten2onnx::{export::ExternalData, module::PrintOptions, translate};
use clap::{ArgGroup, Parser};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "aten-translate", about = "Translate torch.export programs to MLIR and ONNX")]
#[command(group(ArgGroup::new("mode").required(true).args(["from_pt2", "to_onnx"])))]
struct Args {
    /// Import a .pt2 archive and print it in the aten dialect.
    #[arg(long = "from-pt2")]
    from_pt2: bool,
    /// Convert a .pt2 or .mlir file to an ONNX model.
    #[arg(long = "to-onnx")]
    to_onnx: bool,
    /// Input file.
    input: String,
    /// Output file ('-' = stdout, the default for --from-pt2).
    #[arg(short = 'o')]
    output: Option<String>,
    /// Target ONNX opset for --to-onnx (17..28).
    #[arg(long, default_value_t = 23)]
    opset: u32,
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
    /// Print locations (node names and Python source lines).
    #[arg(long = "mlir-print-debuginfo")]
    print_debuginfo: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("aten-translate: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), aten2onnx::Error> {
    if args.from_pt2 {
        let print = PrintOptions { debug_info: args.print_debuginfo, generic: false };
        let text = translate::pt2_to_aten_text(&args.input, print)?;
        aten2onnx::write_output(args.output.as_deref().unwrap_or("-"), text.as_bytes())
    } else {
        let output = args
            .output
            .as_deref()
            .ok_or_else(|| aten2onnx::Error::Usage("--to-onnx needs an output file: -o OUT.onnx".to_string()))?;
        let options = translate::ConvertOptions {
            opset: args.opset,
            external_data: match args.external_data.as_str() {
                "always" => ExternalData::Always,
                "never" => ExternalData::Never,
                _ => ExternalData::Auto,
            },
        };
        if args.verify {
            return verify(args, output, options);
        }
        translate::convert(&args.input, std::path::Path::new(output), &options).map(|_| ())
    }
}

#[cfg(feature = "torch")]
fn verify(args: &Args, output: &str, convert: translate::ConvertOptions) -> Result<(), aten2onnx::Error> {
    use aten2onnx::verify::{verify, VerifyOptions};
    let options = VerifyOptions { convert, inputs: args.inputs.as_ref().map(std::path::PathBuf::from) };
    let report = verify(&args.input, std::path::Path::new(output), &options)?;
    print!("{}", report.render());
    if report.ok() {
        Ok(())
    } else {
        Err(aten2onnx::Error::Verification(format!(
            "{}: the ONNX model differs from libtorch beyond |diff| <= {} + {} |expected|",
            args.input,
            aten2onnx::verify::ATOL,
            aten2onnx::verify::RTOL
        )))
    }
}

#[cfg(not(feature = "torch"))]
fn verify(_: &Args, _: &str, _: translate::ConvertOptions) -> Result<(), aten2onnx::Error> {
    Err(aten2onnx::Error::Usage(
        "--verify needs libtorch: this aten-translate was built without the `torch` feature (cargo build --features torch)".into(),
    ))
}
