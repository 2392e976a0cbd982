//! Hostile and fuzz-found `.onnx` inputs: `aten-translate --to-onnx` on every
//! `.onnx` file of `tests/fuzz_regressions_onnx/` (hand-made hostile models
//! written by `tools/fuzz/hostile_onnx.py`, and the inputs the `from_onnx` fuzz
//! target crashed on, see docs/fuzzing.md). A `NAME.expect` beside a model
//! says `exit 0` (valid: converts, and the output exists) or `exit 1` on its
//! first line, then substrings the message must contain; without one, exit 1
//! with a message naming the file is expected. Never a panic, a signal, a
//! hang, an `internal error` or an output left behind on failure.

use crate::scratch_dir;
use std::{
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

const ATEN_TRANSLATE: &str = env!("CARGO_BIN_EXE_aten-translate");
const DIR: &str = "tests/fuzz_regressions_onnx";
/// Far above what any of these takes (seconds in a debug build).
const TIMEOUT: Duration = Duration::from_secs(120);

/// Runs `aten-translate --to-onnx input -o out -q` with a timeout; returns
/// the exit code (None: killed by a signal) and stderr.
fn convert(input: &Path, out: &Path) -> Result<(Option<i32>, String), String> {
    let mut child = Command::new(ATEN_TRANSLATE)
        .args(["--to-onnx", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "-q"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running aten-translate");
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waiting for aten-translate") {
            return Ok((status.code(), reader.join().unwrap()));
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("timed out after {TIMEOUT:?}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn hostile_onnx_models_exit_cleanly() {
    let scratch = scratch_dir("fuzz_regressions_onnx");
    let mut inputs: Vec<_> = std::fs::read_dir(DIR)
        .expect("tests/fuzz_regressions_onnx")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "onnx"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 20, "{} inputs in {DIR}", inputs.len());
    let mut failures = Vec::new();
    for input in &inputs {
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        let expect = std::fs::read_to_string(input.with_extension("expect")).unwrap_or_else(|_| "exit 1\n".into());
        let mut lines = expect.lines();
        let code: i32 = match lines.next().and_then(|l| l.strip_prefix("exit ")).map(str::trim) {
            Some("0") => 0,
            Some("1") => 1,
            other => panic!("{name}.expect: the first line must be `exit 0` or `exit 1`, not {other:?}"),
        };
        let needles: Vec<&str> = lines.filter(|l| !l.trim().is_empty()).collect();
        let out = scratch.join(format!("{name}.out.onnx"));
        let _ = std::fs::remove_file(&out);
        let (status, message) = match convert(input, &out) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let mut problems = Vec::new();
        if status != Some(code) {
            problems.push(format!("exit {status:?}, expected {code}"));
        }
        if message.contains("panicked") || message.contains("internal error") {
            problems.push("a panic".into());
        }
        if code == 1 {
            if out.exists() {
                problems.push("an output was written".into());
            }
            if !message.contains(&name) {
                problems.push("the message does not name the file".into());
            }
        } else if !out.exists() {
            problems.push("no output".into());
        }
        for needle in &needles {
            if !message.contains(needle) {
                problems.push(format!("the message lacks `{needle}`"));
            }
        }
        let leftovers: Vec<_> = std::fs::read_dir(&scratch)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|f| f.starts_with(&name) && !f.ends_with(".out.onnx") && !f.ends_with(".out.onnx.data"))
            .collect();
        if !leftovers.is_empty() {
            problems.push(format!("files left behind: {leftovers:?}"));
        }
        if !problems.is_empty() {
            failures.push(format!("{name}: {}\n{message}", problems.join("; ")));
        }
        let _ = std::fs::remove_file(&out);
        let _ = std::fs::remove_file(scratch.join(format!("{name}.out.onnx.data")));
    }
    assert!(failures.is_empty(), "{} of {} inputs:\n{}", failures.len(), inputs.len(), failures.join("\n"));
}
