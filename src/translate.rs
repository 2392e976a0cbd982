//! Library entry points behind `aten-translate`.

use crate::{
    create_context,
    diagnostics::{render, DiagnosticCollector},
    export::{self, ExportOptions, ExportReport, ExternalData},
    import,
    module::{self, PrintOptions},
    pipeline::Pipeline,
    Error,
};
use melior::{ir::Module, Context};
use std::path::Path;

/// Imports a `.pt2` archive and prints the aten-dialect module.
pub fn pt2_to_aten_text(path: &str, print: PrintOptions) -> Result<String, Error> {
    let context = create_context();
    let archive = aten2onnx_pt2::Archive::open(path)?;
    let module = import::import_program(&context, &archive, path)?;
    Ok(module::print(&module, print))
}

/// Options of the `.pt2`/`.mlir` -> ONNX conversion.
#[derive(Clone, Debug)]
pub struct ConvertOptions {
    /// Target ONNX opset (17..28).
    pub opset: u32,
    pub external_data: ExternalData,
}

impl Default for ConvertOptions {
    fn default() -> Self {
        ConvertOptions { opset: aten2onnx_passes::onnx_ir::DEFAULT_OPSET, external_data: ExternalData::Auto }
    }
}

/// The pass pipeline of the main job, from the aten dialect to a verified
/// onnx-dialect module.
pub fn default_pipeline(opset: u32) -> String {
    format!(
        "builtin.module(aten-remove-inplace, convert-aten-to-onnx{{opset={opset}}}, \
         func.func(onnx-fold-constants, onnx-cse, onnx-fold-constants, dce, onnx-shape-inference))"
    )
}

/// Loads a `.pt2` (imported) or `.mlir` (parsed) file into `context`.
pub fn load<'c>(context: &'c Context, path: &str) -> Result<Module<'c>, Error> {
    if path.ends_with(".pt2") {
        let archive = aten2onnx_pt2::Archive::open(path)?;
        import::import_program(context, &archive, path)
    } else if path.ends_with(".mlir") {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.into(), source })?;
        module::parse(context, &text, path)
    } else {
        Err(Error::Usage(format!("{path}: expected a .pt2 or .mlir file")))
    }
}

/// Converts a `.pt2` or `.mlir` file to an ONNX model at `output` (written
/// atomically; nothing is left behind on error).
pub fn convert(input: &str, output: &Path, options: &ConvertOptions) -> Result<ExportReport, Error> {
    let context = create_context();
    let mut module = load(&context, input)?;
    lower(&context, &mut module, input, options.opset)?;
    export::write_model(&module, output, &ExportOptions { external_data: options.external_data, ..Default::default() })
}

/// Runs [`default_pipeline`] on `module`, with the registry verifiers after
/// every pass.
pub fn lower(context: &Context, module: &mut Module, path: &str, opset: u32) -> Result<(), Error> {
    let collector = DiagnosticCollector::attach(context);
    let manager = Pipeline::parse(&default_pipeline(opset))?.build(context, true)?;
    if manager.run(module).is_err() || aten2onnx_passes::verify_dialects(module.as_operation()).is_err() {
        return Err(Error::PassFailed { path: path.to_string(), diagnostics: render(&collector.take()) });
    }
    Ok(())
}
