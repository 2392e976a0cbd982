//! Parsing and printing modules.

use crate::{
    diagnostics::{render, Diagnostic, DiagnosticCollector, Severity},
    Error,
};
use aten2onnx_passes::ir::SourcePosition;
use melior::{
    ir::{
        operation::{Operation, OperationLike, OperationPrintingFlags},
        BlockLike, Module,
    },
    Context,
};
use mlir_sys as sys;

/// Parses MLIR text; `path` names the source in locations and errors.
/// Diagnostics are collected into the error rather than printed.
pub fn parse<'c>(context: &'c Context, source: &str, path: &str) -> Result<Module<'c>, Error> {
    parse_with_diagnostics(context, source, path)
        .map_err(|diagnostics| Error::Parse { path: path.to_string(), diagnostics: render(&diagnostics) })
}

/// Like [`parse`], returning the parser's diagnostics on failure.
///
/// Like mlir-opt, ops at the top level without a `module` get an implicit
/// one: a single op is moved into a new module; several ops are parsed
/// again with `module {` opened on a comment or blank line before the first
/// one, so that lines and columns stay those of the file.
pub fn parse_with_diagnostics<'c>(
    context: &'c Context,
    source: &str,
    path: &str,
) -> Result<Module<'c>, Vec<Diagnostic>> {
    let operation = match parse_operation(context, source, path) {
        Ok(op) => op,
        Err(diagnostics) if diagnostics.iter().any(|d| d.message.contains("single top-level operation")) => {
            let at = implicit_module_insertion(source).unwrap_or(0);
            let wrapped = format!("{}module {{{}\n}}", &source[..at], &source[at..]);
            parse_operation(context, &wrapped, path)?
        }
        Err(diagnostics) => return Err(diagnostics),
    };
    if name_of(&operation) == "builtin.module" {
        return Module::from_operation(operation).ok_or_else(Vec::new);
    }
    let module = Module::new(operation.location());
    module.body().append_operation(operation);
    Ok(module)
}

fn parse_operation<'c>(context: &'c Context, source: &str, path: &str) -> Result<Operation<'c>, Vec<Diagnostic>> {
    let collector = DiagnosticCollector::attach(context);
    let raw = unsafe {
        sys::mlirOperationCreateParse(
            context.to_raw(),
            sys::MlirStringRef { data: source.as_ptr() as *const _, length: source.len() },
            sys::MlirStringRef { data: path.as_ptr() as *const _, length: path.len() },
        )
    };
    let diagnostics = collector.take();
    if raw.ptr.is_null() {
        return Err(if diagnostics.is_empty() {
            vec![Diagnostic {
                severity: Severity::Error,
                position: SourcePosition { file: Some(path.to_string()), line: 1, column: 1, node: None },
                message: "cannot parse the input".to_string(),
            }]
        } else {
            diagnostics
        });
    }
    Ok(unsafe { Operation::from_raw(raw) })
}

/// Where to open the implicit `module {`: the start of the comment or blank
/// line just before the first op (no op text moves), else the start of the
/// first op's line.
fn implicit_module_insertion(source: &str) -> Option<usize> {
    let mut offset = 0;
    let mut previous: Option<(usize, bool)> = None; // (offset, comment or blank)
    for line in source.split_inclusive('\n') {
        let text = line.trim_start();
        let blank_or_comment = text.trim().is_empty() || text.starts_with("//");
        let skip = blank_or_comment || text.starts_with('#') || text.starts_with('!');
        if !skip {
            return Some(match previous {
                Some((at, true)) => at,
                _ => offset,
            });
        }
        previous = Some((offset, blank_or_comment));
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
