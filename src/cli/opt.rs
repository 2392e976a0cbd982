//! `aten-opt`: runs pass pipelines over aten/onnx modules, mlir-opt style.
//!
//! ```text
//! aten-opt in.mlir --pass-pipeline='builtin.module(func.func(dce))'
//! ```

use crate::{
    module::PrintOptions,
    opt::{self, OptOptions},
};
use clap::Parser;
use std::{io::Read, process::ExitCode};

#[derive(Parser)]
#[command(name = "aten-opt", version, about = "Run pass pipelines over aten and onnx dialect modules")]
struct Args {
    /// Input .mlir file ('-' for stdin).
    #[arg(default_value = "-")]
    input: String,
    /// Pipeline in MLIR syntax, e.g. 'builtin.module(func.func(dce))'.
    #[arg(long = "pass-pipeline")]
    pass_pipeline: Option<String>,
    /// Output file (default: stdout).
    #[arg(short = 'o', default_value = "-")]
    output: String,
    /// Process each '// -----' separated chunk as its own module.
    #[arg(long = "split-input-file")]
    split_input_file: bool,
    /// Check diagnostics against 'expected-error {{...}}' annotations.
    #[arg(long = "verify-diagnostics")]
    verify_diagnostics: bool,
    /// Print the module after every pass (on stderr).
    #[arg(long = "mlir-print-ir-after-all")]
    print_ir_after_all: bool,
    /// Print locations.
    #[arg(long = "mlir-print-debuginfo")]
    print_debuginfo: bool,
    /// Print all ops in the generic form.
    #[arg(long = "mlir-print-op-generic")]
    print_generic: bool,
    /// Run the aten/onnx registry verifiers on the input and after every pass.
    #[arg(long = "verify-each", default_value_t = true, action = clap::ArgAction::Set)]
    verify_each: bool,
    /// List the available passes and exit.
    #[arg(long = "list-passes")]
    list_passes: bool,
    /// Print every lowering rule (target, source file, opset range, dtypes) as JSON and exit.
    #[arg(long = "list-rules")]
    list_rules: bool,
    /// Print every decomposition of `aten-decompose` (target, what it
    /// becomes, source file) and exit.
    #[arg(long = "list-decompositions")]
    list_decompositions: bool,
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
    if args.list_passes {
        return print_listing(&crate::opt::list_passes());
    }
    if args.list_rules {
        return print_listing(&crate::opt::list_rules());
    }
    if args.list_decompositions {
        return print_listing(&crate::opt::list_decompositions());
    }
    let input = if args.input == "-" { "<stdin>".to_string() } else { args.input.clone() };
    crate::guard::run("aten-opt", &input, || run(&args))
}

/// A listing on stdout (exit 1 with a message if it cannot be written; a
/// reader that stops early, as `| head` does, is not an error).
fn print_listing(text: &str) -> ExitCode {
    match crate::output::write_output("-", text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("aten-opt: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    if args.input != "-" && args.output != "-" {
        crate::output::check_not_input(
            std::path::Path::new(&args.output),
            &[(std::path::Path::new(&args.input), "the input")],
        )
        .map_err(|e| e.to_string())?;
    }
    let (source, path) = if args.input == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map_err(|e| format!("<stdin>: {e}"))?;
        (text, "<stdin>".to_string())
    } else {
        let text = std::fs::read_to_string(&args.input).map_err(|e| format!("{}: {e}", args.input))?;
        (text, args.input.clone())
    };
    let options = OptOptions {
        pipeline: args.pass_pipeline.clone(),
        split_input_file: args.split_input_file,
        verify_diagnostics: args.verify_diagnostics,
        print_ir_after_all: args.print_ir_after_all,
        verify_each: args.verify_each,
        print: PrintOptions { debug_info: args.print_debuginfo, generic: args.print_generic },
    };
    let output = opt::run(&source, &path, &options).map_err(|e| e.to_string())?;
    crate::write_output(&args.output, output.as_bytes()).map_err(|e| e.to_string())
}
