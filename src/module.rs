//! Parsing and printing modules.

use crate::{
    Error,
    diagnostics::{Diagnostic, DiagnosticCollector, Severity, render},
};
use aten2onnx_passes::ir::SourcePosition;
use melior::{
    Context,
    ir::{Module, operation::{Operation, OperationLike, OperationPrintingFlags}},
};
use mlir_sys as sys;

/// Parses MLIR text; `path` names the source in locations and errors.
/// Diagnostics are collected into the error rather than printed.
pub fn parse<'c>(context: &'c Context, source: &str, path: &str) -> Result<Module<'c>, Error> {
    parse_with_diagnostics(context, source, path)
        .map_err(|diagnostics| Error::Parse { path: path.to_string(), diagnostics: render(&diagnostics) })
}

/// Like [`parse`], returning the parser's diagnostics on failure.
pub fn parse_with_diagnostics<'c>(
    context: &'c Context,
    source: &str,
    path: &str,
) -> Result<Module<'c>, Vec<Diagnostic>> {
    let collector = DiagnosticCollector::attach(context);
    // Like mlir-opt, ops at the top level without a module get an implicit one.
    let wrapped;
    let source = match implicit_module_insertion(source) {
        Some(at) => {
            wrapped = format!("{}module {{{}\n}}", &source[..at], &source[at..]);
            wrapped.as_str()
        }
        None => source,
    };
    let raw = unsafe {
        sys::mlirOperationCreateParse(
            context.to_raw(),
            sys::MlirStringRef { data: source.as_ptr() as *const _, length: source.len() },
            sys::MlirStringRef { data: path.as_ptr() as *const _, length: path.len() },
        )
    };
    let diagnostics = collector.take();
    if raw.ptr.is_null() {
        return Err(diagnostics);
    }
    let operation = unsafe { Operation::from_raw(raw) };
    let name = name_of(&operation);
    Module::from_operation(operation).ok_or_else(|| {
        vec![Diagnostic {
            severity: Severity::Error,
            position: SourcePosition { file: Some(path.to_string()), line: 1, column: 1, node: None },
            message: format!("expected a 'builtin.module' at the top level, found '{name}'"),
        }]
    })
}

/// Where to open an implicit `module {` when the text's first top-level op
/// is not a module: the start of its line (after alias definitions), so that
/// line numbers stay those of the file. `None` when the text has a module.
fn implicit_module_insertion(source: &str) -> Option<usize> {
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let text = line.trim_start();
        let skip = text.is_empty() || text.starts_with("//") || text.starts_with('#') || text.starts_with('!');
        if !skip {
            let is_module = text.starts_with("module") || text.starts_with("\"builtin.module\"");
            return (!is_module).then_some(offset);
        }
        offset += line.len();
    }
    None
}

fn name_of(op: &Operation) -> String {
    op.name().as_string_ref().as_str().unwrap_or("").to_string()
}

/// How to print a module.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    /// Print locations (`--mlir-print-debuginfo`).
    pub debug_info: bool,
    /// Print every op in the generic form.
    pub generic: bool,
}

impl PrintOptions {
    pub fn flags(&self) -> OperationPrintingFlags {
        let mut flags = OperationPrintingFlags::new().enable_debug_info(self.debug_info, false);
        if self.generic {
            flags = flags.print_generic_operation_form();
        }
        flags
    }
}

/// Prints a module as text.
pub fn print(module: &Module, options: PrintOptions) -> String {
    let mut text = module
        .as_operation()
        .to_string_with_flags(options.flags())
        .unwrap_or_else(|_| module.as_operation().to_string());
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}
