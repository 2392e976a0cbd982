//! Structure-aware differential fuzzing of the lowering rules (run by hand,
//! not in CI: `#[ignore]`):
//!
//!     ATEN2ONNX_FUZZ_ITERS=20 ATEN2ONNX_FUZZ_SEED=1 [ATEN2ONNX_ONLY=a,b] \
//!       cargo test --features aten2onnx/torch --test integration fuzz_rule_samples -- --ignored --nocapture
//!
//! Byte mutation of archives and `.mlir` text mostly exercises the parsers;
//! this fuzzer instead builds *well-typed* one-op programs that torch accepts:
//! it mutates each rule's differential samples (tensor shapes: size 0 and 1,
//! larger, rank up and down; integer arguments: negated, off by one, out of
//! range; float arguments: NaN, ±inf, -0.0, huge), lets libtorch decide
//! whether the mutated call is valid (and what it returns), then converts and
//! runs it in onnxruntime exactly as the differential test does. Findings:
//! - **wrong**: converted, but onnxruntime's numbers differ from libtorch's;
//! - **internal error**: a panic caught by the guard;
//! - **ort-error**: the converted model does not load or run.
//!
//! A clean refusal by a rule ("cannot be lowered: ...") is not a finding.
//! Every finding is printed with its program; docs/fuzzing.md has the figures.

use crate::differential::{check, samples_of, NOT_DIFFERENTIAL, STAGE};
use aten2onnx_passes::lowering;

/// xorshift64*: deterministic per seed, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A mutated copy of `sample` (the sample language of docs/lowering.md);
/// `returns:` (which results the module returns) is kept.
fn mutate(sample: &str, rng: &mut Rng) -> String {
    sample
        .split(';')
        .map(|part| if part.trim_start().starts_with("returns") { part.to_string() } else { mutate_part(part, rng) })
        .collect::<Vec<_>>()
        .join(";")
}

fn mutate_part(sample: &str, rng: &mut Rng) -> String {
    let mut out = String::with_capacity(sample.len() + 16);
    let chars: Vec<char> = sample.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        // A tensor shape `T[...]` / `i64[...]`: mutate its dims.
        if c == '[' && i > 0 && chars[i - 1].is_alphanumeric() {
            let end = (i..chars.len()).find(|&j| chars[j] == ']').unwrap_or(chars.len() - 1);
            let inner: String = chars[i + 1..end].iter().collect();
            out.push('[');
            out.push_str(&mutate_shape(&inner, rng));
            out.push(']');
            i = end + 1;
            continue;
        }
        // A number after ':' / ',' / '(' / space: maybe mutate it.
        let starts_number =
            (c.is_ascii_digit() || c == '-') && (i == 0 || matches!(chars[i - 1], ':' | ',' | '(' | ' ' | '['));
        if starts_number {
            let end = (i + 1..chars.len())
                .find(|&j| !(chars[j].is_ascii_alphanumeric() || matches!(chars[j], '.' | '-' | '+')))
                .unwrap_or(chars.len());
            let token: String = chars[i..end].iter().collect();
            out.push_str(&mutate_number(&token, rng));
            i = end;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

fn mutate_shape(inner: &str, rng: &mut Rng) -> String {
    let mut dims: Vec<i64> =
        inner.split(',').filter(|s| !s.trim().is_empty()).filter_map(|s| s.trim().parse().ok()).collect();
    if dims.len() != inner.split(',').filter(|s| !s.trim().is_empty()).count() {
        return inner.to_string(); // symbolic or unusual: keep
    }
    if rng.chance(50) {
        return inner.to_string();
    }
    match rng.below(6) {
        0 if !dims.is_empty() => {
            let k = rng.below(dims.len() as u64) as usize;
            dims[k] = 0;
        }
        1 if !dims.is_empty() => {
            let k = rng.below(dims.len() as u64) as usize;
            dims[k] = 1;
        }
        2 if !dims.is_empty() => {
            let k = rng.below(dims.len() as u64) as usize;
            dims[k] += 1 + rng.below(4) as i64;
        }
        3 if !dims.is_empty() => {
            dims.remove(0);
        }
        4 if dims.len() < 5 => dims.insert(0, 1 + rng.below(3) as i64),
        _ => dims.clear(),
    }
    dims.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

fn mutate_number(token: &str, rng: &mut Rng) -> String {
    if !rng.chance(35) {
        return token.to_string();
    }
    if let Ok(n) = token.parse::<i64>() {
        return match rng.below(6) {
            0 => (-n).to_string(),
            1 => (n + 1).to_string(),
            2 => (n - 1).to_string(),
            3 => 0.to_string(),
            4 => (n * 7 + 3).to_string(),
            _ => (-(n.abs()) - 1).to_string(),
        };
    }
    if token.parse::<f64>().is_ok() {
        return ["nan", "inf", "-inf", "-0.0", "1e30", "0.0", "-2.5"][rng.below(7) as usize].to_string();
    }
    token.to_string()
}

/// The mutated samples of one rule, in this process; prints one line per
/// finding (`FINDING ...`) and a summary (`SUMMARY runs passed refused-by-torch refused`).
fn fuzz_one_rule(rule: &lowering::Rule, iters: usize, seed: u64) {
    let dir = crate::scratch_dir(&format!("sample-fuzz-{}", std::process::id()));
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ fxhash(rule.target) | 1);
    let samples = samples_of(rule);
    let (mut runs, mut torch_refused, mut refused, mut passed) = (0usize, 0usize, 0usize, 0usize);
    for i in 0..iters {
        let base = &samples[rng.below(samples.len() as u64) as usize];
        let sample = mutate(base, &mut rng);
        let dtype = rule.dtypes[rng.below(rule.dtypes.len() as u64) as usize];
        let index = 1_000_000 + i;
        runs += 1;
        // Logged before running, so that a crash (a signal) names its program.
        eprintln!("case: {} [{dtype}] {{{sample}}}", rule.target);
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(rule, dtype, &sample, &dir, index)));
        let finding = |kind: &str, e: &str| {
            let e = e.replace('\n', "\n    ");
            eprintln!("FINDING {kind} {} [{dtype}] {{{sample}}}: {e}", rule.target)
        };
        match result {
            Ok(Ok(())) => passed += 1,
            Ok(Err(e)) if e.contains("internal error") => finding("INTERNAL-ERROR", &e),
            Ok(Err(e)) if e.starts_with("conversion:") => refused += 1,
            Ok(Err(e)) if e.starts_with("result ") => finding("WRONG", &e),
            Ok(Err(e)) if e.contains("onnxruntime") => finding("ORT-ERROR", &e),
            // libtorch refused the call, or the mutation made the sample unparsable.
            Ok(Err(_)) => torch_refused += 1,
            // A panic before conversion is the harness's input generation or
            // tch on arguments libtorch rejects: not a converter finding.
            Err(_) if STAGE.load(std::sync::atomic::Ordering::Relaxed) < 2 => torch_refused += 1,
            Err(_) => finding("PANIC", "a panic while converting or running onnxruntime"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("SUMMARY {runs} {passed} {torch_refused} {refused}");
}

fn fxhash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// The child side: `ATEN2ONNX_FUZZ_RULE=<target>` fuzzes that one rule.
#[test]
#[ignore = "a fuzzer's worker: started by fuzz_rule_samples"]
fn fuzz_rule_samples_worker() {
    let Ok(target) = std::env::var("ATEN2ONNX_FUZZ_RULE") else { return };
    let iters: usize = std::env::var("ATEN2ONNX_FUZZ_ITERS").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    let seed: u64 = std::env::var("ATEN2ONNX_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let rule = lowering::all_rules().find(|r| r.target == target).expect("a rule target");
    fuzz_one_rule(rule, iters, seed);
}

/// One worker process per rule, so that a crash (a signal: seen inside
/// libtorch's kernels on inconsistent arguments) costs one rule, and is
/// placed in libtorch (the oracle, not a finding) or in the converter.
#[test]
#[ignore = "a fuzzer: run by hand (see the module docs)"]
fn fuzz_rule_samples() {
    if crate::parity::ort_missing() {
        return;
    }
    let only = std::env::var("ATEN2ONNX_ONLY").ok();
    let exe = std::env::current_exe().expect("the test binary");
    let (mut runs, mut torch_refused, mut refused, mut passed, mut rules) = (0usize, 0usize, 0usize, 0usize, 0usize);
    let mut findings: Vec<String> = Vec::new();
    let mut oracle_crashes: Vec<String> = Vec::new();
    for rule in lowering::all_rules() {
        if only.as_ref().is_some_and(|o| !o.split(',').any(|p| rule.target.contains(p))) {
            continue;
        }
        if NOT_DIFFERENTIAL.iter().any(|(t, _)| *t == rule.target) || samples_of(rule).is_empty() {
            continue;
        }
        rules += 1;
        let out = std::process::Command::new(&exe)
            .args(["fuzz_rule_samples_worker", "--ignored", "--exact", "--nocapture", "--test-threads=1"])
            .arg("sample_fuzz::fuzz_rule_samples_worker")
            .env("ATEN2ONNX_FUZZ_RULE", rule.target)
            .env("ATEN2ONNX_FUZZ_VERBOSE", "1")
            .output()
            .expect("run the worker");
        let text = String::from_utf8_lossy(&out.stderr).into_owned();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("SUMMARY ") {
                let n: Vec<usize> = rest.split(' ').filter_map(|x| x.parse().ok()).collect();
                if let [a, b, c, d] = n[..] {
                    runs += a;
                    passed += b;
                    torch_refused += c;
                    refused += d;
                }
            }
        }
        let mut lines = text.lines().peekable();
        while let Some(line) = lines.next() {
            if line.starts_with("FINDING ") {
                let mut f = line.to_string();
                while lines.peek().is_some_and(|l| l.starts_with("    ")) {
                    f.push('\n');
                    f.push_str(lines.next().unwrap());
                }
                findings.push(f);
            }
        }
        if !out.status.success() && !text.contains("SUMMARY ") {
            let last_case = text.lines().rev().find(|l| l.starts_with("case: ")).unwrap_or("case: ?");
            let last_stage = text.lines().rev().find(|l| l.starts_with("stage: ")).unwrap_or("stage: ?");
            let what = format!("{} ({:?}) during {last_stage} of {last_case}", rule.target, out.status);
            if last_stage == "stage: libtorch" {
                oracle_crashes.push(what);
            } else {
                findings.push(format!("FINDING CRASH {what}"));
            }
        }
    }
    eprintln!(
        "sample fuzz: {rules} rules, {runs} runs: {passed} match libtorch, {torch_refused} refused by libtorch, \
         {refused} refused cleanly by the converter, {} findings, {} crashes inside libtorch (the oracle)",
        findings.len(),
        oracle_crashes.len()
    );
    for c in &oracle_crashes {
        eprintln!("libtorch crashed: {c}");
    }
    for f in &findings {
        eprintln!("{f}\n---");
    }
    assert!(findings.is_empty(), "{} findings (above)", findings.len());
}
