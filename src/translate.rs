//! Library entry points behind `aten-translate`.

use crate::{Error, create_context, import, module::{self, PrintOptions}};

/// Imports a `.pt2` archive and prints the aten-dialect module.
pub fn pt2_to_aten_text(path: &str, print: PrintOptions) -> Result<String, Error> {
    let context = create_context();
    let archive = aten2onnx_pt2::Archive::open(path)?;
    let module = import::import_program(&context, &archive, path)?;
    Ok(module::print(&module, print))
}

/// Converts a `.pt2` or `.mlir` file to an ONNX model.
pub fn to_onnx(path: &str) -> Result<Vec<u8>, Error> {
    if !(path.ends_with(".pt2") || path.ends_with(".mlir")) {
        return Err(Error::Usage(format!("{path}: --to-onnx takes a .pt2 or .mlir file")));
    }
    // Lowering to the onnx dialect and the ONNX writer are the next milestone
    // (docs/roadmap.md). Refuse clearly rather than write a partial model.
    Err(Error::NotImplemented(format!(
        "{path}: --to-onnx is not implemented yet: the aten-to-onnx lowering and the ONNX writer are not built; \
         no output file was written"
    )))
}
