//! Textual pass pipelines in MLIR's syntax, e.g.
//! `builtin.module(func.func(dce, canonicalize{max-iterations=3}), aten-verify)`.
//!
//! MLIR cannot resolve Rust (external) passes by name, so this module parses
//! the text itself: project passes are built from `aten2onnx_passes::REGISTRY`,
//! every other pass name is handed to MLIR's own registry as a one-element
//! pipeline (`mlirOpPassManagerAddPipeline`), which appends to the manager.

use crate::Error;
use aten2onnx_passes::{check_options, PassOptions};
use melior::{
    pass::{OperationPassManager, PassManager},
    Context,
};
use mlir_sys as sys;
use std::ffi::c_void;

/// One element of a pipeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Element {
    /// `name{options}`; `options` is the raw text between the braces.
    Pass { name: String, options: String },
    /// `op.name(elements)`: passes run on each nested op of that name.
    Nested { anchor: String, elements: Vec<Element> },
}

/// A parsed pipeline: the anchor (always `builtin.module` at the top) and its elements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pipeline {
    pub anchor: String,
    pub elements: Vec<Element>,
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn error(&self, message: &str) -> Error {
        Error::Pipeline(format!("{message} at column {}\n  {}\n  {}^", self.pos + 1, self.text, " ".repeat(self.pos)))
    }

    fn skip_ws(&mut self) {
        while self.text[self.pos..].starts_with(char::is_whitespace) {
            self.pos += self.text[self.pos..].chars().next().map_or(1, char::len_utf8);
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.text[self.pos..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn name(&mut self) -> Result<String, Error> {
        self.skip_ws();
        let rest = &self.text[self.pos..];
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '$')))
            .unwrap_or(rest.len());
        if len == 0 {
            return Err(self.error("expected a pass or operation name"));
        }
        self.pos += len;
        Ok(rest[..len].to_string())
    }

    /// The text between balanced braces (the opening brace already consumed).
    fn braced(&mut self) -> Result<String, Error> {
        let start = self.pos;
        let mut depth = 1;
        let mut quoted = false;
        for (offset, c) in self.text[start..].char_indices() {
            match c {
                '"' => quoted = !quoted,
                '{' if !quoted => depth += 1,
                '}' if !quoted => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos = start + offset + 1;
                        return Ok(self.text[start..start + offset].trim().to_string());
                    }
                }
                _ => {}
            }
        }
        self.pos = self.text.len();
        Err(self.error("unterminated '{' in pass options"))
    }

    fn elements(&mut self) -> Result<Vec<Element>, Error> {
        let mut out = Vec::new();
        if self.peek() == Some(')') {
            return Ok(out);
        }
        loop {
            let name = self.name()?;
            if self.eat('(') {
                let elements = self.elements()?;
                if !self.eat(')') {
                    return Err(self.error("expected ')' to close the nested pipeline"));
                }
                out.push(Element::Nested { anchor: name, elements });
            } else if self.eat('{') {
                let options = self.braced()?;
                out.push(Element::Pass { name, options });
            } else {
                out.push(Element::Pass { name, options: String::new() });
            }
            if !self.eat(',') {
                return Ok(out);
            }
        }
    }
}

impl Pipeline {
    /// Parses `builtin.module(...)`.
    pub fn parse(text: &str) -> Result<Pipeline, Error> {
        let mut parser = Parser { text, pos: 0 };
        let anchor = parser.name()?;
        if !parser.eat('(') {
            return Err(parser.error(&format!(
                "expected '(' after '{anchor}': a pipeline is written 'builtin.module(pass1, func.func(pass2))'"
            )));
        }
        let elements = parser.elements()?;
        if !parser.eat(')') {
            return Err(parser.error("expected ',' or ')'"));
        }
        if parser.peek().is_some() {
            return Err(parser.error("unexpected text after the pipeline"));
        }
        if anchor != "builtin.module" {
            return Err(Error::Pipeline(format!("the pipeline must be anchored on 'builtin.module', not '{anchor}'")));
        }
        Ok(Pipeline { anchor, elements })
    }

    /// Builds a pass manager for this pipeline. `verify_each` runs the
    /// registry verifiers after every project pass (MLIR's structural
    /// verifier runs after every pass either way).
    pub fn build<'c>(&self, context: &'c Context, verify_each: bool) -> Result<PassManager<'c>, Error> {
        let manager = PassManager::new(context);
        manager.enable_verifier(true);
        add_elements(manager.as_operation_pass_manager(), &self.elements, verify_each)?;
        Ok(manager)
    }
}

/// Parses `key=value key2="v a l" key3={nested}` into a map.
pub fn parse_options(text: &str) -> Result<PassOptions, String> {
    let mut options = PassOptions::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let eq = rest.find('=').ok_or_else(|| format!("option '{rest}' has no '=value'"))?;
        let key = rest[..eq].trim().to_string();
        rest = rest[eq + 1..].trim_start();
        let (value, tail) = if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"').ok_or("unterminated '\"' in option value")?;
            (quoted[..end].to_string(), &quoted[end + 1..])
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            (rest[..end].to_string(), &rest[end..])
        };
        options.insert(key, value);
        rest = tail.trim_start();
    }
    Ok(options)
}

fn add_elements(manager: OperationPassManager, elements: &[Element], verify_each: bool) -> Result<(), Error> {
    for element in elements {
        match element {
            Element::Nested { anchor, elements } => add_elements(manager.nested_under(anchor), elements, verify_each)?,
            Element::Pass { name, options } => match aten2onnx_passes::lookup(name) {
                Some(info) => {
                    let options = parse_options(options)
                        .and_then(|o| check_options(info, &o).map(|_| o))
                        .map_err(|e| Error::Pipeline(format!("pass '{name}': {e}")))?;
                    let factory = (info.create)(&options).map_err(Error::Pipeline)?;
                    manager.add_pass(factory.build(verify_each));
                }
                None => add_mlir_pass(manager, name, options)?,
            },
        }
    }
    Ok(())
}

/// MLIR passes that crash on the project's modules (MLIR 22 segfaults in
/// them on an unregistered op with one region, which every `onnx.Loop` /
/// `onnx.Scan` / `aten.hop.*` is): refused by name instead.
const UNSAFE_MLIR_PASSES: &[(&str, &str)] = &[
    ("inline", "it crashes (MLIR 22) on unregistered ops with regions such as onnx.Loop"),
    ("remove-dead-values", "it crashes (MLIR 22) on unregistered ops with regions such as onnx.Loop"),
];

/// Appends one upstream MLIR pass, letting MLIR parse its options.
fn add_mlir_pass(manager: OperationPassManager, name: &str, options: &str) -> Result<(), Error> {
    if let Some(reason) = UNSAFE_MLIR_PASSES.iter().find(|(n, _)| *n == name).map(|(_, r)| r) {
        return Err(Error::Pipeline(format!("MLIR's pass '{name}' is not available in aten-opt: {reason}")));
    }
    let text = if options.is_empty() { name.to_string() } else { format!("{name}{{{options}}}") };
    let mut message = String::new();
    unsafe extern "C" fn collect(part: sys::MlirStringRef, data: *mut c_void) {
        let message = unsafe { &mut *(data as *mut String) };
        if part.length == 0 || part.data.is_null() {
            return;
        }
        let bytes = unsafe { std::slice::from_raw_parts(part.data as *const u8, part.length) };
        message.push_str(&String::from_utf8_lossy(bytes));
    }
    let result = unsafe {
        sys::mlirOpPassManagerAddPipeline(
            manager.to_raw(),
            sys::MlirStringRef { data: text.as_ptr() as *const _, length: text.len() },
            Some(collect),
            &mut message as *mut String as *mut c_void,
        )
    };
    if result.value == 0 {
        let project: Vec<_> = aten2onnx_passes::REGISTRY.iter().map(|p| p.name).collect();
        let detail = message.trim();
        return Err(Error::Pipeline(if detail.contains("does not refer to a registered pass") {
            format!(
                "unknown pass '{name}': not a project pass ({}) nor a registered MLIR pass; see --list-passes",
                project.join(", ")
            )
        } else {
            format!("pass '{name}': {detail}")
        }));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_nested_pipelines_with_options() {
        let p = Pipeline::parse(
            "builtin.module(func.func(dce, canonicalize{max-iterations=3 region-simplify=disabled}), aten-verify)",
        )
        .unwrap();
        assert_eq!(
            p.elements,
            vec![
                Element::Nested {
                    anchor: "func.func".into(),
                    elements: vec![
                        Element::Pass { name: "dce".into(), options: String::new() },
                        Element::Pass {
                            name: "canonicalize".into(),
                            options: "max-iterations=3 region-simplify=disabled".into()
                        },
                    ]
                },
                Element::Pass { name: "aten-verify".into(), options: String::new() },
            ]
        );
    }

    #[test]
    fn reports_the_column_of_bad_text() {
        let err = Pipeline::parse("builtin.module(func.func(dce)").unwrap_err().to_string();
        assert!(err.contains("expected ',' or ')' at column 30"), "{err}");
        let err = Pipeline::parse("builtin.module(dce{x=1)").unwrap_err().to_string();
        assert!(err.contains("unterminated '{'"), "{err}");
        let err = Pipeline::parse("func.func(dce)").unwrap_err().to_string();
        assert!(err.contains("anchored on 'builtin.module'"), "{err}");
    }

    #[test]
    fn parses_option_values() {
        let o = parse_options(r#"a=1 b="x y" c=true"#).unwrap();
        assert_eq!(o["a"], "1");
        assert_eq!(o["b"], "x y");
        assert_eq!(o["c"], "true");
        assert!(parse_options("novalue").is_err());
    }
}
