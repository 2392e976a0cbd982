//! The `aten-opt` driver: parse, run a pipeline, print, like mlir-opt.

use crate::{
    create_context,
    diagnostics::{render, verify_expected, DiagnosticCollector},
    module::{self, PrintOptions},
    pipeline::Pipeline,
    Error,
};
use melior::pass::PassIrPrintingOptions;

/// The separator `--split-input-file` splits on.
pub const SPLIT_MARKER: &str = "// -----";

#[derive(Clone, Debug, Default)]
pub struct OptOptions {
    /// `builtin.module(...)`; `None` only parses, verifies and prints.
    pub pipeline: Option<String>,
    pub split_input_file: bool,
    pub verify_diagnostics: bool,
    /// `--mlir-print-ir-after-all`: the module after each pass, on stderr.
    pub print_ir_after_all: bool,
    /// Run the dialect verifiers after every project pass and on the input.
    pub verify_each: bool,
    pub print: PrintOptions,
}

/// Runs `aten-opt` over the whole input and returns what to print on stdout.
pub fn run(source: &str, path: &str, options: &OptOptions) -> Result<String, Error> {
    // Reject bad pipeline text once, before touching the input.
    let pipeline = options.pipeline.as_deref().map(Pipeline::parse).transpose()?;
    if let Some(pipeline) = &pipeline {
        // Resolve every pass name and option now, so pipeline errors are
        // reported whatever the input holds.
        pipeline.build(&create_context(), false)?;
    }
    let chunks = if options.split_input_file { split(source) } else { vec![(source, 0)] };
    let mut outputs = Vec::new();
    let mut failures = Vec::new();
    for (chunk, first_line) in chunks {
        match run_chunk(chunk, first_line, path, pipeline.as_ref(), options) {
            Ok(Some(text)) => outputs.push(text),
            Ok(None) => {}
            Err(error) if options.split_input_file => failures.push(error.to_string()),
            Err(error) => return Err(error),
        }
    }
    if !failures.is_empty() {
        return Err(Error::PassFailed { path: path.to_string(), diagnostics: failures.join("\n") });
    }
    Ok(outputs.join(&format!("{SPLIT_MARKER}\n")))
}

/// Splits on `// -----` lines, keeping each chunk's first line number.
fn split(source: &str) -> Vec<(&str, usize)> {
    let mut chunks = Vec::new();
    let mut start = 0;
    let mut start_line = 0;
    let mut line = 0;
    let mut offset = 0;
    for text in source.split_inclusive('\n') {
        if text.trim_end() == SPLIT_MARKER {
            chunks.push((&source[start..offset], start_line));
            start = offset + text.len();
            start_line = line + 1;
        }
        offset += text.len();
        line += 1;
    }
    chunks.push((&source[start..], start_line));
    chunks
}

fn run_chunk(
    chunk: &str,
    first_line: usize,
    path: &str,
    pipeline: Option<&Pipeline>,
    options: &OptOptions,
) -> Result<Option<String>, Error> {
    let context = create_context();
    let collector = DiagnosticCollector::attach(&context);
    // Pad with empty lines so locations keep the line numbers of the whole file.
    let padded = format!("{}{}", "\n".repeat(first_line), chunk);
    let mut parse_diagnostics = Vec::new();
    let result = (|| {
        let mut module = module::parse_with_diagnostics(&context, &padded, path).map_err(|list| {
            let error = Error::Parse { path: path.to_string(), diagnostics: render(&list) };
            parse_diagnostics = list;
            error
        })?;
        if options.verify_each && aten2onnx_passes::verify_dialects(module.as_operation()).is_err() {
            return Err(Error::PassFailed { path: path.to_string(), diagnostics: String::new() });
        }
        if let Some(pipeline) = pipeline {
            let manager = pipeline.build(&context, options.verify_each)?;
            if options.print_ir_after_all {
                manager.enable_ir_printing(&PassIrPrintingOptions {
                    before_all: false,
                    after_all: true,
                    module_scope: true,
                    on_change: false,
                    on_failure: false,
                    flags: options.print.flags(),
                    tree_printing_path: Default::default(),
                });
            }
            manager
                .run(&mut module)
                .map_err(|_| Error::PassFailed { path: path.to_string(), diagnostics: String::new() })?;
        }
        Ok(module::print(&module, options.print))
    })();
    let mut diagnostics = parse_diagnostics;
    diagnostics.extend(collector.take());
    if options.verify_diagnostics {
        let problems = verify_expected(chunk, first_line + 1, &diagnostics);
        if !problems.is_empty() {
            return Err(Error::DiagnosticsMismatch { path: path.to_string(), problems: problems.join("\n") });
        }
        return Ok(result.ok());
    }
    match result {
        Ok(text) => {
            // Warnings and remarks go to stderr; the module to stdout.
            if !diagnostics.is_empty() {
                eprintln!("{}", render(&diagnostics));
            }
            Ok(Some(text))
        }
        Err(Error::PassFailed { path, .. }) => {
            Err(Error::PassFailed { path, diagnostics: render(&std::mem::take(&mut diagnostics)) })
        }
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn split_keeps_line_numbers() {
        let text = "a\nb\n// -----\nc\n// -----\nd\n";
        assert_eq!(split(text), vec![("a\nb\n", 0), ("c\n", 3), ("d\n", 5)]);
    }
}

/// The `--list-passes` text: project passes with their options, then a pointer
/// to MLIR's own passes.
pub fn list_passes() -> String {
    let mut text = String::from("Project passes:\n");
    for info in aten2onnx_passes::REGISTRY {
        text.push_str(&format!("  {:<22} {}\n", info.name, info.summary));
        for option in info.options {
            text.push_str(&format!("      {{{}=...}}  {}\n", option.name, option.help));
        }
    }
    text.push_str(
        "Any pass registered in MLIR 22 (canonicalize, cse, symbol-dce, inline, ...) is also accepted;\n\
         see `mlir-opt --help` for that list.\n",
    );
    text
}

/// The `--list-rules` text: every lowering rule as one JSON array of
/// `{"target", "file", "opsets": [first, last], "dtypes", "samples"}`, then
/// the ops that have no ONNX expression as `{"target": "aten.<op>", "file",
/// "inexpressible": reason}` (read by tools/gen/gen_coverage.py).
/// One line per decomposition of `aten-decompose`: target, what it
/// becomes, and its file under passes/lowering/src/decompositions/.
pub fn list_decompositions() -> String {
    use aten2onnx_passes::decompositions::{all, file_of};
    all().map(|d| format!("{}  ->  {}  [{}]\n", d.target, d.summary, file_of(d.target).unwrap_or("?"))).collect()
}

pub fn list_rules() -> String {
    fn quote(s: &str) -> String {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }
    use aten2onnx_passes::lowering::{all_rules, rule_file, rule_summary};
    let rows: Vec<String> = all_rules()
        .map(|rule| {
            let dtypes: Vec<String> = rule.dtypes.iter().map(|d| quote(d)).collect();
            let summary = rule_summary(rule.target).map(|s| format!(", \"summary\": {}", quote(s))).unwrap_or_default();
            format!(
                "  {{\"target\": {}, \"file\": {}, \"opsets\": [{}, {}], \"dtypes\": [{}], \"samples\": {}{summary}}}",
                quote(rule.target),
                quote(&rule_file(rule.target).unwrap_or_default()),
                rule.opsets.0,
                rule.opsets.1,
                dtypes.join(", "),
                rule.samples.len()
            )
        })
        .collect();
    // Ops with no ONNX expression (passes/lowering/src/inexpressible.rs): no
    // rule, refused with this reason at every opset.
    let refused = aten2onnx_passes::lowering::inexpressible::OPS.iter().map(|entry| {
        format!(
            "  {{\"target\": {}, \"file\": {}, \"inexpressible\": {}}}",
            quote(&format!("aten.{}", entry.op)),
            quote("passes/lowering/src/inexpressible.rs"),
            quote(entry.reason)
        )
    });
    let rows: Vec<String> = rows.into_iter().chain(refused).collect();
    format!("[\n{}\n]\n", rows.join(",\n"))
}
