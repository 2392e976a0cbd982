//! Locations for imported ops: the node name and the user's Python line.

use melior::{ir::Location, Context};

/// One `File "...", line N, in fn` frame of a recorded stack trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame<'a> {
    pub file: &'a str,
    pub line: usize,
    pub function: &'a str,
}

/// Parses the frames of a node's `stack_trace` metadata, outermost first.
pub fn frames(stack_trace: &str) -> Vec<Frame<'_>> {
    let mut out = Vec::new();
    for line in stack_trace.lines() {
        let Some(rest) = line.trim_start().strip_prefix("File \"") else { continue };
        let Some((file, rest)) = rest.split_once("\", line ") else { continue };
        let (number, function) = match rest.split_once(", in ") {
            Some((n, f)) => (n, f.trim()),
            None => (rest, ""),
        };
        if let Ok(line) = number.trim().parse() {
            out.push(Frame { file, line, function });
        }
    }
    out
}

/// The frame that is the user's code: the innermost frame outside torch
/// itself (site-packages, or torch's own relative paths), else the outermost.
pub fn user_frame<'a>(frames: &[Frame<'a>]) -> Option<Frame<'a>> {
    // torch's own files, and code torch generated (`<eval_with_key>.N`).
    let is_library = |f: &Frame| {
        f.file.contains("/site-packages/")
            || f.file.contains("/dist-packages/")
            || f.file.starts_with("torch/")
            || f.file.starts_with('<')
    };
    frames.iter().rev().find(|f| !is_library(f)).or(frames.first()).cloned()
}

/// `loc("node"("file.py":LINE:0))`, or `loc("node")` without a stack trace.
pub fn node_location<'c>(context: &'c Context, node: &str, stack_trace: Option<&str>) -> Location<'c> {
    // The user frame of a trace, memoized by the trace's text: the nodes of
    // a model share a few dozen traces (39 among a 32-layer Llama's 2,154
    // nodes), and parsing each was 2% of a conversion. Bounded memo.
    thread_local! {
        static MEMO: std::cell::RefCell<std::collections::HashMap<String, Option<(String, usize)>>> =
            Default::default();
    }
    let user = |trace: &str| -> Option<(String, usize)> {
        if let Some(found) = MEMO.with(|m| m.borrow().get(trace).cloned()) {
            return found;
        }
        let found = user_frame(&frames(trace)).map(|frame| (frame.file.to_string(), frame.line));
        MEMO.with(|m| {
            let mut m = m.borrow_mut();
            if m.len() >= 1024 {
                m.clear();
            }
            m.insert(trace.to_string(), found.clone());
        });
        found
    };
    let child = stack_trace
        .and_then(user)
        .map(|(file, line)| Location::new(context, &file, line, 0))
        .unwrap_or_else(|| Location::unknown(context));
    Location::name(context, node, child)
}

/// `file.py:LINE` of a node's stack trace, for error messages.
pub fn source_line(stack_trace: Option<&str>) -> Option<String> {
    stack_trace.and_then(|t| user_frame(&frames(t))).map(|f| format!("{}:{}", f.file, f.line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_user_frame() {
        let trace = "File \"/work/model.py\", line 44, in forward\n    h = torch.relu(self.fc1(x))\n  \
                     File \"/venv/lib/python3.11/site-packages/torch/nn/modules/linear.py\", line 134, in forward\n    return F.linear(input, self.weight, self.bias)";
        let f = frames(trace);
        assert_eq!(f.len(), 2);
        assert_eq!(user_frame(&f), Some(Frame { file: "/work/model.py", line: 44, function: "forward" }));
        let internal = frames("File \"torch/fx/passes/runtime_assert.py\", line 24, in insert");
        assert_eq!(user_frame(&internal).unwrap().file, "torch/fx/passes/runtime_assert.py");
        assert!(frames("no frames here").is_empty());
    }
}
