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

/// The deepest nesting of brackets, braces, parentheses and angle brackets
/// the parser accepts: MLIR's recursive-descent parser would overflow the
/// stack on deeply nested regions, attributes or types.
pub const MAX_NESTING: usize = 256;

/// Where (1-based line, column) the nesting of `source` first exceeds
/// [`MAX_NESTING`], if it does. Strings and `//` comments are skipped; `->`
/// is not a bracket.
fn too_deep(source: &str) -> Option<(usize, usize)> {
    let bytes = source.as_bytes();
    let (mut depth, mut line, mut column) = (0usize, 1usize, 0usize);
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        column += 1;
        match c {
            b'\n' => {
                line += 1;
                column = 0;
            }
            b'"' => {
                // Skip the string (escapes included); it may be unterminated.
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if i < bytes.len() && bytes[i] == b'\n' {
                    continue;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'-' if bytes.get(i + 1) == Some(&b'>') => i += 1,
            b'(' | b'[' | b'{' | b'<' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some((line, column));
                }
            }
            b')' | b']' | b'}' | b'>' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

fn parse_operation<'c>(context: &'c Context, source: &str, path: &str) -> Result<Operation<'c>, Vec<Diagnostic>> {
    if let Some((line, column)) = too_deep(source) {
        return Err(vec![Diagnostic {
            severity: Severity::Error,
            position: SourcePosition { file: Some(path.to_string()), line, column, ..Default::default() },
            message: format!(
                "nesting deeper than {MAX_NESTING} levels (brackets, braces, parentheses) is not supported"
            ),
        }]);
    }
    // MLIR's lexer expects a NUL just past the buffer (it stops there); a
    // file ending inside a string or identifier would otherwise be read past
    // its end.
    let mut terminated = String::with_capacity(source.len() + 1);
    terminated.push_str(source);
    terminated.push('\0');
    let collector = DiagnosticCollector::attach(context);
    let raw = unsafe {
        sys::mlirOperationCreateParse(
            context.to_raw(),
            sys::MlirStringRef { data: terminated.as_ptr() as *const _, length: source.len() },
            sys::MlirStringRef { data: path.as_ptr() as *const _, length: path.len() },
        )
    };
    let diagnostics = collector.take();
    if raw.ptr.is_null() {
        return Err(if diagnostics.is_empty() {
            vec![Diagnostic {
                severity: Severity::Error,
                position: SourcePosition { file: Some(path.to_string()), line: 1, column: 1, ..Default::default() },
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
    aten2onnx_passes::ir::identifier_text(op.name())
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
