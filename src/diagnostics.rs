//! Collecting MLIR diagnostics, printing them like mlir-opt does, and
//! checking them against `expected-error` annotations (`--verify-diagnostics`).

use aten2onnx_passes::ir::SourcePosition;
use melior::{
    diagnostic::{DiagnosticHandlerId, DiagnosticSeverity},
    Context,
};
use std::{
    fmt,
    sync::{Arc, Mutex},
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Remark,
    Note,
}

impl Severity {
    fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Remark => "remark",
            Severity::Note => "note",
        }
    }
}

/// One diagnostic, already detached from the MLIR context.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub position: SourcePosition,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Ops imported from an .onnx file carry the node's name but no file
        // position (the caller's message names the file): no `<unknown location>`.
        if self.position.file.is_some() || self.position.node.as_deref().is_none_or(str::is_empty) {
            write!(f, "{}: ", self.position.file_line())?;
        }
        write!(f, "{}: ", self.severity.name())?;
        if let Some(node) = self.position.node.as_ref().filter(|n| !n.is_empty()) {
            write!(f, "[node {node}] ")?;
        }
        write!(f, "{}", self.message)
    }
}

/// Captures every diagnostic of a context while alive.
pub struct DiagnosticCollector<'c> {
    context: &'c Context,
    id: Option<DiagnosticHandlerId>,
    store: Arc<Mutex<Vec<Diagnostic>>>,
}

impl<'c> DiagnosticCollector<'c> {
    pub fn attach(context: &'c Context) -> Self {
        let store = Arc::new(Mutex::new(Vec::new()));
        let sink = store.clone();
        let id = context.attach_diagnostic_handler(move |diagnostic| {
            // Called from C++: a panic here must not unwind (it would abort).
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let Ok(mut list) = sink.lock() else { return };
                let severity = match diagnostic.severity() {
                    DiagnosticSeverity::Error => Severity::Error,
                    DiagnosticSeverity::Warning => Severity::Warning,
                    DiagnosticSeverity::Remark => Severity::Remark,
                    DiagnosticSeverity::Note => Severity::Note,
                };
                list.push(Diagnostic {
                    severity,
                    position: SourcePosition::of(diagnostic.location()),
                    message: diagnostic.to_string(),
                });
                for i in 0..diagnostic.note_count() {
                    if let Ok(note) = diagnostic.note(i) {
                        list.push(Diagnostic {
                            severity: Severity::Note,
                            position: SourcePosition::of(note.location()),
                            message: note.to_string(),
                        });
                    }
                }
            }));
            if caught.is_err() {
                if let Ok(mut list) = sink.lock() {
                    list.push(Diagnostic {
                        severity: Severity::Error,
                        position: SourcePosition::default(),
                        message: "internal error while reading a diagnostic".to_string(),
                    });
                }
            }
            true
        });
        DiagnosticCollector { context, id: Some(id), store }
    }

    /// Takes the diagnostics collected so far.
    pub fn take(&self) -> Vec<Diagnostic> {
        self.store.lock().map(|mut list| std::mem::take(&mut *list)).unwrap_or_default()
    }
}

impl Drop for DiagnosticCollector<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            self.context.detach_diagnostic_handler(id);
        }
    }
}

/// Joins diagnostics into one message, one per line.
pub fn render(diagnostics: &[Diagnostic]) -> String {
    // One line per distinct diagnostic: an aten op lowered to several onnx
    // ops at its location reports the same problem once, not once per op.
    let mut seen = std::collections::HashSet::new();
    diagnostics.iter().map(|d| d.to_string()).filter(|line| seen.insert(line.clone())).collect::<Vec<_>>().join("\n")
}

/// An `expected-<severity> [@<line>] {{message}}` annotation in the source.
#[derive(Debug)]
struct Expectation {
    severity: Severity,
    line: usize,
    message: String,
    annotation_line: usize,
    matched: bool,
}

fn parse_expectations(source: &str, first_line: usize) -> Result<Vec<Expectation>, String> {
    let mut out = Vec::new();
    for (index, text) in source.lines().enumerate() {
        let line = first_line + index;
        let mut rest = text;
        while let Some(pos) = rest.find("expected-") {
            rest = &rest[pos + "expected-".len()..];
            let severity = [
                ("error", Severity::Error),
                ("warning", Severity::Warning),
                ("remark", Severity::Remark),
                ("note", Severity::Note),
            ]
            .into_iter()
            .find(|(name, _)| rest.starts_with(name));
            let Some((name, severity)) = severity else { continue };
            rest = rest[name.len()..].trim_start();
            let mut target = line;
            if let Some(spec) = rest.strip_prefix('@') {
                let end = spec.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(spec.len());
                let offset = &spec[..end];
                target = match offset {
                    "above" => line - 1,
                    "below" => line + 1,
                    _ => {
                        let delta: i64 = offset
                            .parse()
                            .map_err(|_| format!("line {line}: bad expected-{name} offset '@{offset}'"))?;
                        (line as i64 + delta) as usize
                    }
                };
                rest = spec[end..].trim_start();
            }
            let Some(body) = rest.strip_prefix("{{") else {
                return Err(format!("line {line}: expected-{name} without '{{{{message}}}}'"));
            };
            let Some(end) = body.find("}}") else {
                return Err(format!("line {line}: unterminated '{{{{' in expected-{name}"));
            };
            out.push(Expectation {
                severity,
                line: target,
                message: body[..end].to_string(),
                annotation_line: line,
                matched: false,
            });
            rest = &body[end + 2..];
        }
    }
    Ok(out)
}

/// Checks the diagnostics produced for `source` (whose first line has number
/// `first_line`) against its annotations. Returns the problems found.
pub fn verify_expected(source: &str, first_line: usize, produced: &[Diagnostic]) -> Vec<String> {
    let mut expectations = match parse_expectations(source, first_line) {
        Ok(e) => e,
        Err(message) => return vec![message],
    };
    let mut problems = Vec::new();
    for diagnostic in produced {
        let found = expectations.iter_mut().find(|e| {
            !e.matched
                && e.severity == diagnostic.severity
                && e.line == diagnostic.position.line
                && diagnostic.message.contains(&e.message)
        });
        match found {
            Some(e) => e.matched = true,
            None => problems.push(format!("unexpected {}", diagnostic)),
        }
    }
    for e in expectations.iter().filter(|e| !e.matched) {
        problems.push(format!(
            "line {}: expected {} on line {} was not produced: {}",
            e.annotation_line,
            e.severity.name(),
            e.line,
            e.message
        ));
    }
    problems
}
