//! The e-graph optimizer (`onnx-eqsat`, `aten2onnx_passes::optimizer`).
//!
//! Every rule declares an example module where it fires. Here each example
//! is (1) run through the pass and snapshotted
//! (`integration__optimizer__<family>_<rule>.snap`), with a check that the
//! rule applied and that no union was refused; (2) exported before and after
//! and run in onnxruntime on eight input sets, outputs compared: same
//! shapes, NaN where NaN, the same sign of zero, values within 1e-5 +
//! 1e-5|x|. The sets bind each symbolic dim to 3, then independently to
//! 1, 2, 3 or 5 (a batch of 1 beside a batch of 5), and put special values
//! (signed zeros, NaN, infinities, subnormals, values near overflow) first
//! or at random positions (`numeric_set`); rules exempt from some of them
//! say why (`FINITE_INPUTS_ONLY`, `NO_OVERFLOW`, `ZERO_SIGN_FREE`). `every_eqsat_rule_has_tests`
//! fails when a rule is not named in `lit-tests/onnx-eqsat.mlir` or has no
//! snapshot. The corpus test converts every corpus model with the pass
//! appended to the main pipeline and compares onnxruntime with eager PyTorch.

use crate::{parse_and_verify, run_pipeline};
use aten2onnx::{
    create_context,
    export::{write_model, ExportOptions},
    module::{self, PrintOptions},
};
use aten2onnx_passes::optimizer::{
    analysis::Dim,
    convert::ty_info,
    lang::dtype,
    rules::{all_rules, RuleRef, Target},
};
use melior::ir::{operation::OperationLike, BlockLike, RegionLike, ValueLike};
use ort::{
    session::Session,
    value::{DynValue, Tensor},
};
use std::path::{Path, PathBuf};

const PIPELINE: &str = "builtin.module(func.func(onnx-eqsat))";
const SNAPSHOT_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/integration/snapshots");

fn example_module(rule: RuleRef) -> String {
    // Examples with initializers read them from the weight fixture.
    let archive = match rule.example.contains("onnx.initializer") {
        true => format!(", aten.archive = \"{}\"", aten2onnx_passes::optimizer::rules::weights::EXAMPLE_ARCHIVE),
        false => String::new(),
    };
    // Rules of the `onnxruntime` target run on modules that name it.
    let target = match rule.target() {
        Target::OnnxRuntime => ", onnx.target = \"onnxruntime\"",
        Target::Standard => "",
    };
    // An example whose rule fires only at older opsets starts with `// opset N`.
    let opset = rule
        .example
        .trim_start()
        .strip_prefix("// opset ")
        .and_then(|rest| rest.split_whitespace().next()?.parse::<u32>().ok())
        .unwrap_or(rule.min_opset.max(23));
    format!("module attributes {{onnx.opset = {opset} : i64{archive}{target}}} {{{}\n}}\n", rule.example)
}

fn snapshot_name(rule: RuleRef) -> String {
    format!("{}_{}", rule.family, rule.name.replace('-', "_"))
}

/// Runs the pass on a rule's example; checks the rule applied and nothing
/// was refused; returns (input, output).
fn optimized(rule: RuleRef) -> (String, String) {
    let input = example_module(rule);
    let output = run_pipeline(&input, PIPELINE).unwrap_or_else(|e| panic!("{}: {e}", rule.full_name()));
    parse_and_verify(&output, PrintOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", rule.full_name()));
    assert!(
        output.contains(&format!("\"{}\" = ", rule.full_name())),
        "{} did not apply on its example:\n{output}",
        rule.full_name()
    );
    assert!(!output.contains("refused ="), "{}: a union was refused:\n{output}", rule.full_name());
    (input, output)
}

#[test]
fn every_eqsat_rule_on_its_example() {
    for rule in all_rules() {
        let (input, output) = optimized(rule);
        let snapshot = format!(
            "// rule: {} ({})\n// pipeline: {PIPELINE}\n// ---- input ----\n{}\n// ---- output ----\n{output}",
            rule.full_name(),
            rule.summary,
            input.trim()
        );
        insta::assert_snapshot!(snapshot_name(rule), snapshot);
    }
}

/// Every rule is named in the lit test and has its snapshot; the numeric
/// check runs every rule's example by construction.
#[test]
fn every_eqsat_rule_has_tests() {
    // The `onnxruntime` target's rules are checked in their own file.
    let read = |name: &str| {
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("lit-tests").join(name)).expect(name)
    };
    let lit = read("onnx-eqsat.mlir") + &read("onnx-eqsat-ort.mlir");
    let mut missing = Vec::new();
    let mut names = std::collections::BTreeSet::new();
    for rule in all_rules() {
        assert!(names.insert(rule.full_name()), "two rules are named {}", rule.full_name());
        if !lit.contains(&format!("\"{}\"", rule.full_name())) {
            missing.push(format!("{} is not checked in lit-tests/onnx-eqsat(-ort).mlir", rule.full_name()));
        }
        let snap = Path::new(SNAPSHOT_DIR).join(format!("integration__optimizer__{}.snap", snapshot_name(rule)));
        // INSTA_UPDATE=always: the snapshot test of this run writes it.
        let writing = matches!(std::env::var("INSTA_UPDATE").as_deref(), Ok("always" | "new"));
        if !snap.is_file() && !writing {
            missing.push(format!("{} has no snapshot {}", rule.full_name(), snap.display()));
        }
        if rule.example.trim().is_empty() || rule.summary.is_empty() {
            missing.push(format!("{} has no example or summary", rule.full_name()));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

// ------------------------------------------------------------ numeric check

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn uniform(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

pub(crate) enum Input {
    F32(Vec<i64>, Vec<f32>),
    F64(Vec<i64>, Vec<f64>),
    F16(Vec<i64>, Vec<half::f16>),
    I64(Vec<i64>, Vec<i64>),
    I32(Vec<i64>, Vec<i32>),
    I8(Vec<i64>, Vec<i8>),
    U8(Vec<i64>, Vec<u8>),
    Bool(Vec<i64>, Vec<bool>),
}

impl Input {
    fn value(&self) -> DynValue {
        match self {
            Input::F32(s, v) => Tensor::from_array((s.clone(), v.clone())).unwrap().into_dyn(),
            Input::F64(s, v) => Tensor::from_array((s.clone(), v.clone())).unwrap().into_dyn(),
            Input::F16(s, v) => Tensor::from_array((s.clone(), v.clone())).unwrap().into_dyn(),
            Input::I64(s, v) => Tensor::from_array((s.clone(), v.clone())).unwrap().into_dyn(),
            Input::I32(s, v) => Tensor::from_array((s.clone(), v.clone())).unwrap().into_dyn(),
            Input::I8(s, v) => Tensor::from_array((s.clone(), v.clone())).unwrap().into_dyn(),
            Input::U8(s, v) => Tensor::from_array((s.clone(), v.clone())).unwrap().into_dyn(),
            Input::Bool(s, v) => Tensor::from_array((s.clone(), v.clone())).unwrap().into_dyn(),
        }
    }
}

/// Inputs for the example's function arguments: symbolic dims are 3;
/// `specials` puts -0.0, NaN, +inf, -inf, +0.0 first in float inputs.
pub(crate) fn inputs_for(text: &str, seed: u64, specials: bool) -> Vec<Input> {
    inputs_sized(text, seed, specials, 3)
}

/// [`inputs_for`] with every symbolic dim `symbolic` (0: empty tensors).
pub(crate) fn inputs_sized(text: &str, seed: u64, specials: bool, symbolic: i64) -> Vec<Input> {
    let specials = if specials { Specials::First } else { Specials::None };
    inputs_drawn(text, seed, specials, &|_: &str| symbolic)
}

/// Where special float values go in a drawn input.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Specials {
    None,
    /// -0.0, NaN, +inf, -inf, +0.0 in the first slots.
    First,
    /// About a quarter of the elements, at random positions, drawn from
    /// [`SPECIAL_POOL`] (so NaN meets finite values, subnormals meet
    /// normals, near-overflow values meet small ones).
    Scattered,
    /// [`Specials::Scattered`] without the near-overflow values.
    ScatteredNoOverflow,
}

/// Special values for [`Specials::Scattered`]: signed zeros, NaN,
/// infinities, float32 subnormals (and the smallest normal), values near
/// float32 overflow, and values large enough that their square overflows.
const SPECIAL_POOL: &[f32] = &[
    // Near overflow first: [`NO_OVERFLOW`] rules skip these four.
    3.0e38,
    -3.0e38,
    2.0e19,
    -1.0e20,
    0.0,
    -0.0,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    1e-39,
    -2e-40,
    1.4e-45,
    f32::MIN_POSITIVE,
];

/// Inputs for the example's function arguments, symbolic dim `s` of size
/// `size(s)` (one size per symbol name: the example's own equalities hold).
pub(crate) fn inputs_drawn(text: &str, seed: u64, specials: Specials, size: &dyn Fn(&str) -> i64) -> Vec<Input> {
    let context = create_context();
    let module = module::parse(&context, text, crate::INPUT).unwrap();
    let func = module.body().first_operation().unwrap();
    let block = func.region(0).unwrap().first_block().unwrap();
    let mut rng = Rng(seed);
    (0..block.argument_count())
        .map(|i| {
            let ty = ty_info(block.argument(i).unwrap().r#type());
            let shape: Vec<i64> = ty
                .dims
                .unwrap()
                .iter()
                .map(|d| match d {
                    Dim::Static(n) => *n,
                    Dim::Sym(s) => size(s.as_str()),
                    Dim::Unknown => size(""),
                })
                .collect();
            let n = shape.iter().product::<i64>() as usize;
            let draw_floats = |rng: &mut Rng| -> Vec<f32> {
                let mut v: Vec<f32> = (0..n).map(|_| (rng.uniform() * 4.0 - 2.0) as f32).collect();
                match specials {
                    Specials::None => {}
                    Specials::First => {
                        for (slot, s) in v.iter_mut().zip([-0.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0]) {
                            *slot = s;
                        }
                    }
                    Specials::Scattered | Specials::ScatteredNoOverflow => {
                        let pool = if specials == Specials::Scattered { SPECIAL_POOL } else { &SPECIAL_POOL[4..] };
                        for slot in v.iter_mut() {
                            if rng.next() % 4 == 0 {
                                *slot = pool[(rng.next() % pool.len() as u64) as usize];
                            }
                        }
                    }
                }
                v
            };
            match ty.elem {
                Some(dtype::FLOAT) => Input::F32(shape, draw_floats(&mut rng)),
                Some(dtype::DOUBLE) => {
                    let v = draw_floats(&mut rng).into_iter().map(|x| x as f64).collect();
                    Input::F64(shape, v)
                }
                Some(dtype::FLOAT16) => {
                    let v = draw_floats(&mut rng);
                    Input::F16(shape, v.into_iter().map(half::f16::from_f32).collect())
                }
                Some(dtype::INT64) => Input::I64(shape, (0..n).map(|_| (rng.next() % 11) as i64 - 5).collect()),
                Some(dtype::INT32) => Input::I32(shape, (0..n).map(|_| (rng.next() % 11) as i32 - 5).collect()),
                // Every value of the type can occur (quantized data: the ends matter).
                Some(dtype::INT8) => Input::I8(shape, (0..n).map(|_| rng.next() as u8 as i8).collect()),
                Some(dtype::UINT8) => Input::U8(shape, (0..n).map(|_| rng.next() as u8).collect()),
                // Mostly true (a mask keeping most positions).
                Some(dtype::BOOL) => Input::Bool(shape, (0..n).map(|_| rng.next() % 4 != 0).collect()),
                other => panic!("no input generator for data type {other:?}"),
            }
        })
        .collect()
}

/// Writes `text` (one function) as an ONNX model at `path`.
pub(crate) fn export(text: &str, path: &Path) {
    let context = create_context();
    let module = module::parse(&context, text, crate::INPUT).unwrap_or_else(|e| panic!("{e}"));
    write_model(&module, path, &ExportOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// Output shape and values (as f64).
pub(crate) fn outputs(
    env: &ort::environment::Environment,
    model: &Path,
    inputs: &[Input],
) -> Vec<(Vec<i64>, Vec<f64>)> {
    // The graph as written: onnxruntime's own rewrites (its QDQ fusions,
    // which also fail to load some valid QDQ graphs at opset 21+) would
    // judge its optimizer, not the rule.
    let mut session = Session::builder(env)
        .unwrap()
        .with_optimization_level(ort::session::builder::GraphOptimizationLevel::Disable)
        .unwrap()
        .commit_from_file(model)
        .unwrap_or_else(|e| panic!("onnxruntime cannot load {}: {e}", model.display()));
    let names: Vec<String> = session.inputs().iter().map(|i| i.name().to_string()).collect();
    let feeds: Vec<(String, DynValue)> = names.into_iter().zip(inputs).map(|(n, v)| (n, v.value())).collect();
    let results = session.run(feeds).unwrap_or_else(|e| panic!("{}: {e}", model.display()));
    results
        .iter()
        .map(|(_, v)| {
            if let Ok((s, d)) = v.try_extract_tensor::<f32>() {
                (s.to_vec(), d.iter().map(|&x| x as f64).collect())
            } else if let Ok((s, d)) = v.try_extract_tensor::<f64>() {
                (s.to_vec(), d.to_vec())
            } else if let Ok((s, d)) = v.try_extract_tensor::<half::f16>() {
                (s.to_vec(), d.iter().map(|&x| x.to_f64()).collect())
            } else if let Ok((s, d)) = v.try_extract_tensor::<i64>() {
                (s.to_vec(), d.iter().map(|&x| x as f64).collect())
            } else if let Ok((s, d)) = v.try_extract_tensor::<i32>() {
                (s.to_vec(), d.iter().map(|&x| x as f64).collect())
            } else if let Ok((s, d)) = v.try_extract_tensor::<i8>() {
                (s.to_vec(), d.iter().map(|&x| x as f64).collect())
            } else if let Ok((s, d)) = v.try_extract_tensor::<u8>() {
                (s.to_vec(), d.iter().map(|&x| x as f64).collect())
            } else {
                panic!("{}: an output of a type the check does not read", model.display())
            }
        })
        .collect()
}

pub(crate) fn compare(what: &str, before: &[(Vec<i64>, Vec<f64>)], after: &[(Vec<i64>, Vec<f64>)]) {
    if let Err(e) = differences(what, before, after) {
        panic!("{e}");
    }
}

/// The first difference between two runs' outputs: shapes, NaN where NaN,
/// the sign of zeros, values within 1e-5 + 1e-5|x|.
pub(crate) fn differences(
    what: &str,
    before: &[(Vec<i64>, Vec<f64>)],
    after: &[(Vec<i64>, Vec<f64>)],
) -> Result<(), String> {
    if before.len() != after.len() {
        return Err(format!("{what}: {} outputs after the rewrite, {} before", after.len(), before.len()));
    }
    for (k, ((sb, vb), (sa, va))) in before.iter().zip(after).enumerate() {
        if sb != sa {
            return Err(format!("{what}: output {k} has shape {sa:?} after the rewrite, {sb:?} before"));
        }
        for (i, (b, a)) in vb.iter().zip(va).enumerate() {
            let ok = if b.is_nan() {
                a.is_nan()
            } else if *b == 0.0 {
                *a == 0.0 && a.is_sign_negative() == b.is_sign_negative()
            } else {
                b == a || (a - b).abs() <= 1e-5 + 1e-5 * b.abs()
            };
            if !ok {
                return Err(format!("{what}: output {k}[{i}] is {a} after the rewrite, {b} before"));
            }
        }
    }
    Ok(())
}

/// Rules whose rewrite is equal on finite inputs only, with the reason
/// (each says so in its summary): their examples skip the input set with
/// NaN and infinities.
const FINITE_INPUTS_ONLY: &[(&str, &str)] = &[
    (
        "attention/sdpa-nan-rows",
        "torch.onnx's SDPA zeroes a Softmax row holding a NaN (from a NaN or inf in Q or K); \
         the fused Attention gives NaN there, as torch's own SDPA does",
    ),
    (
        "attention/sdpa-padding-mask",
        "a boolean mask applied as Where(m, scores, -inf) hides a NaN or inf score at a masked key; \
         Attention adds the mask as 0 / -inf, so a NaN there stays NaN (as torch's own SDPA with a \
         boolean mask gives: it adds the mask too). Found by the scattered special values",
    ),
];

/// Fusions whose result may be a zero of the other sign where the
/// spelled-out form underflows: a product of subnormals rounds to a signed
/// zero before the sum, the fused kernel may round once (FMA) and keep the
/// other sign. Their zeros are compared without the sign.
const ZERO_SIGN_FREE: &[(&str, &str)] = &[(
    "rotary/rotate-half",
    "x1 * cos + (-x2) * sin with subnormal products: -0 from the fused op where the sum gave +0 (scattered set 7)",
)];

/// Fusions that hold up to rounding for inputs whose intermediate values do
/// not overflow: their scattered special values leave out the near-overflow
/// ones (the rest of the pool, NaN, infinities and subnormals, stays).
const NO_OVERFLOW: &[(&str, &str)] = &[
    (
        "normalization/layer-normalization",
        "x - mean overflows to inf in the spelled-out form for |x| near float32's max (then inf / inf is NaN); \
         the fused kernel normalizes in another order",
    ),
    ("normalization/layer-normalization-affine", "as layer-normalization"),
    (
        "attention/sdpa",
        "the scale split over Q and Kt (torch.onnx's form) joins the op's: (q * a) . (k * b) and (q . k) * (a * b) \
         overflow at different magnitudes (found with onnxruntime's optimizer off)",
    ),
    (
        "attention/gqa",
        "a key scaled before its heads are repeated gives its scale to the op: (q . (k * c)) * s and \
         (q . k) * (c * s) overflow at different magnitudes",
    ),
];

/// `outputs` with every -0.0 made +0.0.
fn unsigned_zeros(outputs: Vec<(Vec<i64>, Vec<f64>)>) -> Vec<(Vec<i64>, Vec<f64>)> {
    outputs.into_iter().map(|(s, v)| (s, v.into_iter().map(|x| if x == 0.0 { 0.0 } else { x }).collect())).collect()
}

/// Input sets of the per-rule numeric check.
const NUMERIC_SETS: u64 = 8;

/// Set `set`: where special values go, and the size of each symbolic dim.
/// Sets 0 and 1 bind every symbol to 3 (plain, then specials first); the
/// others draw each symbol's size independently from {1, 2, 3, 5} (a
/// batch of 1 against another of 5: the broadcasts a fusion must not
/// assume away) and scatter specials, subnormals and near-overflow values
/// at random positions in every other set.
fn numeric_set(set: u64) -> (Specials, fn(u64, &str) -> i64) {
    fn three(_: u64, _: &str) -> i64 {
        3
    }
    fn drawn(seed: u64, sym: &str) -> i64 {
        let h = sym.bytes().fold(seed ^ 0xCBF2_9CE4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01B3));
        [1, 2, 3, 5][(h >> 33) as usize % 4]
    }
    match set {
        0 => (Specials::None, three),
        1 => (Specials::First, three),
        s if s % 2 == 0 => (Specials::None, drawn),
        _ => (Specials::Scattered, drawn),
    }
}

#[test]
fn every_eqsat_rule_keeps_the_numbers() {
    let Some(env) = crate::parity::environment() else {
        crate::parity::ort_missing();
        return;
    };
    let dir = crate::scratch_dir("eqsat_numeric");
    let mut failures = Vec::new();
    for rule in all_rules() {
        let (input, output) = optimized(rule);
        let stem = snapshot_name(rule);
        let (before_path, after_path) =
            (dir.join(format!("{stem}.before.onnx")), dir.join(format!("{stem}.after.onnx")));
        export(&input, &before_path);
        export(&output, &after_path);
        let finite_only = FINITE_INPUTS_ONLY.iter().any(|(name, _)| *name == rule.full_name());
        for set in 0..NUMERIC_SETS {
            let (specials, sizes) = numeric_set(set);
            let mut specials = specials;
            if specials != Specials::None && finite_only {
                continue;
            }
            if specials == Specials::Scattered && NO_OVERFLOW.iter().any(|(name, _)| *name == rule.full_name()) {
                specials = Specials::ScatteredNoOverflow;
            }
            let seed = 0x9E37_79B9_7F4A_7C15 ^ (set + 1);
            let inputs = inputs_drawn(&input, seed, specials, &|sym: &str| sizes(seed, sym));
            let before = outputs(env, &before_path, &inputs);
            let after = outputs(env, &after_path, &inputs);
            let (before, after) = if ZERO_SIGN_FREE.iter().any(|(name, _)| *name == rule.full_name()) {
                (unsigned_zeros(before), unsigned_zeros(after))
            } else {
                (before, after)
            };
            if let Err(e) = differences(&format!("{} (input set {set})", rule.full_name()), &before, &after) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{} rule checks differ:\n{}", failures.len(), failures.join("\n"));
}

// ------------------------------------------------------------------- corpus

/// The main pipeline with `onnx-eqsat` appended.
fn pipeline_with_eqsat() -> String {
    let base = aten2onnx::translate::default_pipeline(23);
    if base.contains("onnx-eqsat") {
        return base;
    }
    let body = base.strip_suffix("))").expect("the main pipeline ends with a func.func(...) stage");
    format!("{body}, onnx-eqsat))")
}

fn convert_with_eqsat(input: &str, out: &Path) -> Result<(), String> {
    let context = create_context();
    let mut module = aten2onnx::translate::load(&context, input).map_err(|e| e.to_string())?;
    let collector = aten2onnx::diagnostics::DiagnosticCollector::attach(&context);
    let manager = aten2onnx::pipeline::Pipeline::parse(&pipeline_with_eqsat())
        .map_err(|e| e.to_string())?
        .build(&context, true)
        .map_err(|e| e.to_string())?;
    if manager.run(&mut module).is_err() {
        return Err(aten2onnx::diagnostics::render(&collector.take()));
    }
    let text = module::print(&module, PrintOptions::default());
    assert!(!text.contains("refused ="), "{input}: a union was refused");
    write_model(&module, out, &ExportOptions::default()).map(|_| ()).map_err(|e| e.to_string())
}

/// Every corpus model converted with the optimizer matches eager PyTorch
/// (both recorded input sets, the parity tolerance).
#[test]
fn corpus_with_eqsat_matches_eager() {
    let Some(env) = crate::parity::environment() else {
        crate::parity::ort_missing();
        return;
    };
    let mut failures = Vec::new();
    for model in crate::parity::CORPUS {
        let dir = PathBuf::from("tests/corpus").join(model);
        if let Err(e) = crate::parity::check_dir_with(env, &dir, &format!("eqsat-{model}"), &convert_with_eqsat) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every corpus model converted for the `onnxruntime` target (contrib ops)
/// matches eager PyTorch in onnxruntime (both recorded input sets, the
/// parity tolerance), and the contrib rules fire on the transformers.
#[test]
fn corpus_with_ort_target_matches_eager() {
    let Some(env) = crate::parity::environment() else {
        crate::parity::ort_missing();
        return;
    };
    let pipeline = aten2onnx::pipeline_spec::PipelineSpec {
        target: Target::OnnxRuntime,
        ..aten2onnx::pipeline_spec::PipelineSpec::new(23)
    }
    .render();
    let fired = std::cell::RefCell::new(std::collections::BTreeSet::new());
    let convert = |input: &str, out: &Path| -> Result<(), String> {
        let context = create_context();
        let mut module = aten2onnx::translate::load(&context, input).map_err(|e| e.to_string())?;
        aten2onnx::translate::run_pipeline(&context, &mut module, input, &pipeline).map_err(|e| e.to_string())?;
        let text = module::print(&module, PrintOptions::default());
        assert!(!text.contains("refused ="), "{input}: a union was refused");
        for rule in all_rules().filter(|r| r.target() == Target::OnnxRuntime) {
            if text.contains(&format!("\"{}\" = ", rule.full_name())) {
                fired.borrow_mut().insert(rule.full_name());
            }
        }
        write_model(&module, out, &ExportOptions::default()).map(|_| ()).map_err(|e| e.to_string())
    };
    let mut failures = Vec::new();
    for model in crate::parity::CORPUS {
        let dir = PathBuf::from("tests/corpus").join(model);
        if let Err(e) = crate::parity::check_dir_with(env, &dir, &format!("ort-{model}"), &convert) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let fired = fired.into_inner();
    eprintln!("onnxruntime-target rules that fired on the corpus: {fired:?}");
    for rule in ["ort_normalization/skip-simplified-layer-normalization", "ort_attention/group-query-attention"] {
        assert!(fired.contains(rule), "{rule} never fired on the corpus: {fired:?}");
    }
}

// ------------------------------------------------------- random programs

/// A random onnx-dialect program over one float32 input, built from ops the
/// rules look at (constants 0, -0, 1, 2; transposes, reshapes, squeezes,
/// casts, expands, identities, negations, reciprocals) so that rules fire and
/// interact. Returns the module text.
fn random_program(rng: &mut Rng) -> String {
    fn ty(shape: &[i64], elem: &str) -> String {
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        if dims.is_empty() {
            format!("tensor<{elem}>")
        } else {
            format!("tensor<{}x{elem}>", dims.join("x"))
        }
    }
    let pick = |rng: &mut Rng, n: usize| (rng.next() % n as u64) as usize;
    let mut body = Vec::new();
    let mut values: Vec<(String, Vec<i64>)> = vec![("%x".into(), vec![2, 3, 4])];
    let mut counter = 0;
    let fresh = |counter: &mut usize| {
        *counter += 1;
        format!("%v{counter}")
    };
    for _ in 0..12 {
        let (v, shape) = values[pick(rng, values.len())].clone();
        let t = ty(&shape, "f32");
        let out = fresh(&mut counter);
        let (line, out_shape) = match pick(rng, 12) {
            0 => {
                let op = ["Neg", "Relu", "Identity", "Abs", "Reciprocal", "Sigmoid"][pick(rng, 6)];
                (format!("{out} = \"onnx.{op}\"({v}) : ({t}) -> {t}"), shape.clone())
            }
            1 | 2 => {
                let op = ["Mul", "Add", "Sub", "Div"][pick(rng, 4)];
                let c = ["1.0", "0.0", "-0.0", "2.0"][pick(rng, 4)];
                let c_shape: Vec<i64> = match pick(rng, 3) {
                    0 => vec![],
                    1 => vec![*shape.last().unwrap_or(&1)],
                    _ => vec![1; shape.len()],
                };
                let ct = ty(&c_shape, "f32");
                let k = fresh(&mut counter);
                body.push(format!("{k} = \"onnx.Constant\"() {{value = dense<{c}> : {ct}}} : () -> {ct}"));
                let (a, b, at, bt) = if pick(rng, 2) == 0 { (&v, &k, &t, &ct) } else { (&k, &v, &ct, &t) };
                (format!("{out} = \"onnx.{op}\"({a}, {b}) : ({at}, {bt}) -> {t}"), shape.clone())
            }
            3 | 4 => {
                let mut perm: Vec<usize> = (0..shape.len()).collect();
                for i in (1..perm.len()).rev() {
                    perm.swap(i, pick(rng, i + 1));
                }
                let new: Vec<i64> = perm.iter().map(|&p| shape[p]).collect();
                let p: Vec<String> = perm.iter().map(|p| p.to_string()).collect();
                (
                    format!(
                        "{out} = \"onnx.Transpose\"({v}) {{perm = array<i64: {}>}} : ({t}) -> {}",
                        p.join(", "),
                        ty(&new, "f32")
                    ),
                    new,
                )
            }
            5 | 6 => {
                let options: [&[i64]; 6] = [&[24], &[6, 4], &[2, 12], &[2, 3, 4], &[4, 3, 2], &[1, 24, 1]];
                let new = options[pick(rng, options.len())].to_vec();
                let k = fresh(&mut counter);
                let dims: Vec<String> = new.iter().map(|d| d.to_string()).collect();
                let st = ty(&[new.len() as i64], "i64");
                body.push(format!(
                    "{k} = \"onnx.Constant\"() {{value = dense<[{}]> : {st}}} : () -> {st}",
                    dims.join(", ")
                ));
                (format!("{out} = \"onnx.Reshape\"({v}, {k}) : ({t}, {st}) -> {}", ty(&new, "f32")), new)
            }
            7 => {
                let axis = pick(rng, shape.len() + 1);
                let mut new = shape.clone();
                new.insert(axis, 1);
                let k = fresh(&mut counter);
                body.push(format!(
                    "{k} = \"onnx.Constant\"() {{value = dense<{axis}> : tensor<1xi64>}} : () -> tensor<1xi64>"
                ));
                (format!("{out} = \"onnx.Unsqueeze\"({v}, {k}) : ({t}, tensor<1xi64>) -> {}", ty(&new, "f32")), new)
            }
            8 => match shape.iter().position(|&d| d == 1) {
                Some(axis) => {
                    let mut new = shape.clone();
                    new.remove(axis);
                    let k = fresh(&mut counter);
                    body.push(format!(
                        "{k} = \"onnx.Constant\"() {{value = dense<{axis}> : tensor<1xi64>}} : () -> tensor<1xi64>"
                    ));
                    (format!("{out} = \"onnx.Squeeze\"({v}, {k}) : ({t}, tensor<1xi64>) -> {}", ty(&new, "f32")), new)
                }
                None => (format!("{out} = \"onnx.Neg\"({v}) : ({t}) -> {t}"), shape.clone()),
            },
            9 => {
                let (code, elem) = [(11, "f64"), (10, "f16"), (1, "f32")][pick(rng, 3)];
                let mid = fresh(&mut counter);
                body.push(format!("{mid} = \"onnx.Cast\"({v}) {{to = {code} : i64}} : ({t}) -> {}", ty(&shape, elem)));
                (
                    format!("{out} = \"onnx.Cast\"({mid}) {{to = 1 : i64}} : ({}) -> {t}", ty(&shape, elem)),
                    shape.clone(),
                )
            }
            10 => {
                let k = fresh(&mut counter);
                let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
                let st = ty(&[shape.len() as i64], "i64");
                body.push(format!(
                    "{k} = \"onnx.Constant\"() {{value = dense<[{}]> : {st}}} : () -> {st}",
                    dims.join(", ")
                ));
                (format!("{out} = \"onnx.Expand\"({v}, {k}) : ({t}, {st}) -> {t}"), shape.clone())
            }
            _ => {
                let same: Vec<&(String, Vec<i64>)> = values.iter().filter(|(_, s)| *s == shape).collect();
                let (w, _) = same[pick(rng, same.len())];
                let op = ["Add", "Mul", "Sub"][pick(rng, 3)];
                (format!("{out} = \"onnx.{op}\"({v}, {w}) : ({t}, {t}) -> {t}"), shape.clone())
            }
        };
        body.push(line);
        values.push((out, out_shape));
    }
    let (last, last_shape) = values.last().unwrap().clone();
    let (other, other_shape) = values[pick(rng, values.len())].clone();
    let (lt, ot) = (ty(&last_shape, "f32"), ty(&other_shape, "f32"));
    format!(
        "module attributes {{onnx.opset = 23 : i64}} {{\nfunc.func @f(%x: tensor<2x3x4xf32>) -> ({lt}, {ot}) {{\n  {}\n  return {last}, {other} : {lt}, {ot}\n}}\n}}\n",
        body.join("\n  ")
    )
}

/// Runs the optimizer on generated program `case`: its output (no union
/// refused), the rules that fired added to `fired`, and the program
/// exported before and after the pass (`dir/<case>.before.onnx`,
/// `.after.onnx`).
fn optimize_generated(
    input: &str,
    case: u64,
    dir: &Path,
    fired: &mut std::collections::BTreeSet<String>,
) -> (String, std::path::PathBuf, std::path::PathBuf) {
    let output = run_pipeline(input, PIPELINE).unwrap_or_else(|e| panic!("case {case}: {e}\n{input}"));
    assert!(!output.contains("refused ="), "case {case}: a union was refused:\n{output}");
    for rule in all_rules() {
        if output.contains(&format!("\"{}\" = ", rule.full_name())) {
            fired.insert(rule.full_name());
        }
    }
    let (before_path, after_path) = (dir.join(format!("{case}.before.onnx")), dir.join(format!("{case}.after.onnx")));
    export(input, &before_path);
    export(&output, &after_path);
    (output, before_path, after_path)
}

/// Random programs (fixed seeds) keep their outputs through the optimizer:
/// the rules and the converter together, on random inputs and on -0.0, NaN
/// and infinities.
#[test]
fn random_programs_keep_the_numbers() {
    let Some(env) = crate::parity::environment() else {
        crate::parity::ort_missing();
        return;
    };
    let dir = crate::scratch_dir("eqsat_random");
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut fired = std::collections::BTreeSet::new();
    for case in 0..40u64 {
        let input = random_program(&mut rng);
        let (output, before_path, after_path) = optimize_generated(&input, case, &dir, &mut fired);
        for (set, specials) in [(0u64, Specials::None), (1, Specials::First), (2, Specials::Scattered)] {
            let inputs = inputs_drawn(&input, 77 + case * 3 + set, specials, &|_: &str| 3);
            let before = outputs(env, &before_path, &inputs);
            let after = outputs(env, &after_path, &inputs);
            compare(&format!("random case {case} (input set {set})\n{input}\n{output}"), &before, &after);
        }
    }
    eprintln!("rules that fired on the random programs: {fired:?}");
    assert!(fired.len() >= 8, "the generator should exercise the rules, fired only {fired:?}");
}

// ------------------------------------------------ random fusion programs

/// A dim of a generated program: a number, or a symbol bound at run time.
#[derive(Clone, Copy, PartialEq)]
enum D {
    N(i64),
    S(&'static str),
}

/// `tensor<...>` of `dims` with the names of the symbolic ones.
fn tensor_of(dims: &[D], elem: &str) -> String {
    let mut text: Vec<String> = dims
        .iter()
        .map(|d| match d {
            D::N(n) => n.to_string(),
            D::S(_) => "?".to_string(),
        })
        .collect();
    text.push(elem.to_string());
    let names: Vec<String> = dims
        .iter()
        .filter_map(|d| match d {
            D::S(s) => Some(format!("\"{s}\"")),
            D::N(_) => None,
        })
        .collect();
    if names.is_empty() {
        format!("tensor<{}>", text.join("x"))
    } else {
        format!("tensor<{}, [{}]>", text.join("x"), names.join(", "))
    }
}

/// The numpy broadcast of two dims where one may be 1 (the generator only
/// broadcasts a 1, or a symbol that is 1 or the other at run time, against
/// the other).
fn bcast(a: D, b: D) -> D {
    match (a, b) {
        (D::N(1), other) | (other, D::N(1)) => other,
        (x, _) => x,
    }
}

/// One program of the fusion families (attention spelled out, RMS and
/// layer normalizations, rotary embeddings, GELU and HardSwish), its forms
/// and shapes drawn at random: batch 1 or
/// N, key/value batch or heads of 1 (broadcast), a key/value batch under
/// its own symbol (1 or the query's at run time), scale on the scores or
/// split over Q and K, additive or boolean masks of several shapes, either
/// operand order; normalizations with Pow or Mul squares, Div or
/// Reciprocal, eps on either side, a scale and a bias of the normalized
/// shape or of more dims; rotary halves by Slice or Split, whole or partial,
/// caches with equal halves or not, the rotation's sign either way; GELU
/// and HardSwish constants exact or slightly off. Returns the module text.
fn random_fusion_program(rng: &mut Rng) -> String {
    let pick = |rng: &mut Rng, n: usize| (rng.next() % n as u64) as usize;
    let mut body: Vec<String> = Vec::new();
    let mut args: Vec<String> = Vec::new();
    let mut results: Vec<(String, String)> = Vec::new();
    let mut n = 0;
    let mut fresh = || {
        n += 1;
        format!("%v{n}")
    };
    let arg = |args: &mut Vec<String>, name: &str, dims: &[D], elem: &str| {
        args.push(format!("%{name}: {}", tensor_of(dims, elem)));
        format!("%{name}")
    };
    let constant = |body: &mut Vec<String>, name: String, value: &str, elem: &str| {
        body.push(format!(
            "{name} = \"onnx.Constant\"() {{value = dense<{value}> : tensor<{elem}>}} : () -> tensor<{elem}>"
        ));
        name
    };
    let b = [D::S("b"), D::N(1), D::N(2)][pick(rng, 3)];
    let s = [D::S("s"), D::N(3)][pick(rng, 2)];
    let family = pick(rng, 4);
    if family == 3 {
        // GELU (erf or tanh) and HardSwish spelled out, the constants right
        // or slightly off (which must not fuse), factors in several orders.
        let dims = [b, s, D::N(8)];
        let t = tensor_of(&dims, "f32");
        let f32s = "tensor<f32>";
        let x = arg(&mut args, "x", &dims, "f32");
        let exact = pick(rng, 4) != 0;
        let half_value = if exact { "0.5" } else { "0.6" };
        let y = match pick(rng, 3) {
            0 => {
                // 0.5 * x * (1 + Erf(x / sqrt 2))
                let a = fresh();
                if pick(rng, 2) == 0 {
                    let r2 = constant(&mut body, fresh(), "1.41421354", "f32");
                    body.push(format!("{a} = \"onnx.Div\"({x}, {r2}) : ({t}, {f32s}) -> {t}"));
                } else {
                    let r = constant(&mut body, fresh(), "0.707106769", "f32");
                    body.push(format!("{a} = \"onnx.Mul\"({x}, {r}) : ({t}, {f32s}) -> {t}"));
                }
                let (e, one, sum) = (fresh(), constant(&mut body, fresh(), "1.0", "f32"), fresh());
                body.push(format!("{e} = \"onnx.Erf\"({a}) : ({t}) -> {t}"));
                body.push(if pick(rng, 2) == 0 {
                    format!("{sum} = \"onnx.Add\"({e}, {one}) : ({t}, {f32s}) -> {t}")
                } else {
                    format!("{sum} = \"onnx.Add\"({one}, {e}) : ({f32s}, {t}) -> {t}")
                });
                let half = constant(&mut body, fresh(), half_value, "f32");
                let (p1, out) = (fresh(), fresh());
                if pick(rng, 2) == 0 {
                    body.push(format!("{p1} = \"onnx.Mul\"({x}, {sum}) : ({t}, {t}) -> {t}"));
                    body.push(format!("{out} = \"onnx.Mul\"({p1}, {half}) : ({t}, {f32s}) -> {t}"));
                } else {
                    body.push(format!("{p1} = \"onnx.Mul\"({half}, {x}) : ({f32s}, {t}) -> {t}"));
                    body.push(format!("{out} = \"onnx.Mul\"({sum}, {p1}) : ({t}, {t}) -> {t}"));
                }
                out
            }
            1 => {
                // 0.5 * x * (1 + Tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
                let cube = fresh();
                if pick(rng, 2) == 0 {
                    let three = constant(&mut body, fresh(), "3.0", "f32");
                    body.push(format!("{cube} = \"onnx.Pow\"({x}, {three}) : ({t}, {f32s}) -> {t}"));
                } else {
                    let sq = fresh();
                    body.push(format!("{sq} = \"onnx.Mul\"({x}, {x}) : ({t}, {t}) -> {t}"));
                    body.push(format!("{cube} = \"onnx.Mul\"({sq}, {x}) : ({t}, {t}) -> {t}"));
                }
                let k = constant(&mut body, fresh(), "4.471500e-02", "f32");
                let (ck, inner, g, sg, th, one, sum) = (
                    fresh(),
                    fresh(),
                    constant(&mut body, fresh(), "0.797884583", "f32"),
                    fresh(),
                    fresh(),
                    constant(&mut body, fresh(), "1.0", "f32"),
                    fresh(),
                );
                body.push(format!("{ck} = \"onnx.Mul\"({k}, {cube}) : ({f32s}, {t}) -> {t}"));
                body.push(format!("{inner} = \"onnx.Add\"({x}, {ck}) : ({t}, {t}) -> {t}"));
                body.push(format!("{sg} = \"onnx.Mul\"({inner}, {g}) : ({t}, {f32s}) -> {t}"));
                body.push(format!("{th} = \"onnx.Tanh\"({sg}) : ({t}) -> {t}"));
                body.push(format!("{sum} = \"onnx.Add\"({th}, {one}) : ({t}, {f32s}) -> {t}"));
                let half = constant(&mut body, fresh(), half_value, "f32");
                let (h, out) = (fresh(), fresh());
                body.push(format!("{h} = \"onnx.Mul\"({x}, {half}) : ({t}, {f32s}) -> {t}"));
                body.push(format!("{out} = \"onnx.Mul\"({h}, {sum}) : ({t}, {t}) -> {t}"));
                out
            }
            _ => {
                // x * HardSigmoid(x) {alpha = 1/6, beta = 0.5}
                let (hs, out) = (fresh(), fresh());
                let alpha = if exact { "0.166666672" } else { "0.2" };
                body.push(format!("{hs} = \"onnx.HardSigmoid\"({x}) {{alpha = {alpha} : f32, beta = 5.000000e-01 : f32}} : ({t}) -> {t}"));
                body.push(if pick(rng, 2) == 0 {
                    format!("{out} = \"onnx.Mul\"({x}, {hs}) : ({t}, {t}) -> {t}")
                } else {
                    format!("{out} = \"onnx.Mul\"({hs}, {x}) : ({t}, {t}) -> {t}")
                });
                out
            }
        };
        results.push((y, t));
    } else if family == 2 {
        // Rotary embedding, rotate-half form, whole or partial (the first r
        // of D dims rotated), caches with equal halves or not.
        let (h, d) = (D::N(2), 8i64);
        let r = [8i64, 4][pick(rng, 2)];
        let half = r / 2;
        let x_dims = [b, h, s, D::N(d)];
        let x_ty = tensor_of(&x_dims, "f32");
        let x = arg(&mut args, "x", &x_dims, "f32");
        let a = arg(&mut args, "a", &[D::N(1), s, D::N(half)], "f32");
        let other = if pick(rng, 4) == 0 { arg(&mut args, "a2", &[D::N(1), s, D::N(half)], "f32") } else { a.clone() };
        let (a_ty, cat_ty, c4_ty) = (
            tensor_of(&[D::N(1), s, D::N(half)], "f32"),
            tensor_of(&[D::N(1), s, D::N(r)], "f32"),
            tensor_of(&[D::N(1), D::N(1), s, D::N(r)], "f32"),
        );
        let ints = |body: &mut Vec<String>, name: String, v: i64| {
            body.push(format!(
                "{name} = \"onnx.Constant\"() {{value = dense<{v}> : tensor<1xi64>}} : () -> tensor<1xi64>"
            ));
            name
        };
        let i64s = "tensor<1xi64>";
        let slice = |body: &mut Vec<String>,
                     out: &str,
                     x: &str,
                     x_ty: &str,
                     start: &str,
                     end: &str,
                     ax: &str,
                     one: &str,
                     ty: &str| {
            body.push(format!(
                "{out} = \"onnx.Slice\"({x}, {start}, {end}, {ax}, {one}) : ({x_ty}, {i64s}, {i64s}, {i64s}, {i64s}) -> {ty}"
            ));
        };
        let (cat, cos, sin, c4, s4) = (fresh(), fresh(), fresh(), fresh(), fresh());
        body.push(format!("{cat} = \"onnx.Concat\"({a}, {other}) {{axis = -1 : i64}} : ({a_ty}, {a_ty}) -> {cat_ty}"));
        body.push(format!("{cos} = \"onnx.Cos\"({cat}) : ({cat_ty}) -> {cat_ty}"));
        body.push(format!("{sin} = \"onnx.Sin\"({cat}) : ({cat_ty}) -> {cat_ty}"));
        let one = ints(&mut body, fresh(), 1);
        body.push(format!("{c4} = \"onnx.Unsqueeze\"({cos}, {one}) : ({cat_ty}, {i64s}) -> {c4_ty}"));
        body.push(format!("{s4} = \"onnx.Unsqueeze\"({sin}, {one}) : ({cat_ty}, {i64s}) -> {c4_ty}"));
        let (zero, hc, rc, end, ax) = (
            ints(&mut body, fresh(), 0),
            ints(&mut body, fresh(), half),
            ints(&mut body, fresh(), r),
            ints(&mut body, fresh(), i64::MAX),
            ints(&mut body, fresh(), 3),
        );
        let (xr_ty, half_ty) = (tensor_of(&[b, h, s, D::N(r)], "f32"), tensor_of(&[b, h, s, D::N(half)], "f32"));
        let xr = if r == d {
            x.clone()
        } else {
            let xr = fresh();
            slice(&mut body, &xr, &x, &x_ty, &zero, &rc, &ax, &one, &xr_ty);
            xr
        };
        let (x1, x2) = if pick(rng, 2) == 0 {
            let (x1, x2) = (fresh(), fresh());
            slice(&mut body, &x1, &xr, &xr_ty, &zero, &hc, &ax, &one, &half_ty);
            slice(&mut body, &x2, &xr, &xr_ty, &hc, &end, &ax, &one, &half_ty);
            (x1, x2)
        } else {
            let parts = fresh();
            body.push(format!(
                "{parts}:2 = \"onnx.Split\"({xr}) {{axis = -1 : i64, num_outputs = 2 : i64}} : ({xr_ty}) -> ({half_ty}, {half_ty})"
            ));
            (format!("{parts}#0"), format!("{parts}#1"))
        };
        let (neg, rot) = (fresh(), fresh());
        body.push(format!("{neg} = \"onnx.Neg\"({x2}) : ({half_ty}) -> {half_ty}"));
        // Concat(x1, -x2) is the other rotation's sign: not rotate-half.
        let (first, second) = if pick(rng, 5) == 0 { (&x1, &neg) } else { (&neg, &x1) };
        body.push(format!(
            "{rot} = \"onnx.Concat\"({first}, {second}) {{axis = -1 : i64}} : ({half_ty}, {half_ty}) -> {xr_ty}"
        ));
        let (m1, m2, y) = (fresh(), fresh(), fresh());
        body.push(if pick(rng, 2) == 0 {
            format!("{m1} = \"onnx.Mul\"({xr}, {c4}) : ({xr_ty}, {c4_ty}) -> {xr_ty}")
        } else {
            format!("{m1} = \"onnx.Mul\"({c4}, {xr}) : ({c4_ty}, {xr_ty}) -> {xr_ty}")
        });
        body.push(format!("{m2} = \"onnx.Mul\"({rot}, {s4}) : ({xr_ty}, {c4_ty}) -> {xr_ty}"));
        body.push(if pick(rng, 2) == 0 {
            format!("{y} = \"onnx.Add\"({m1}, {m2}) : ({xr_ty}, {xr_ty}) -> {xr_ty}")
        } else {
            format!("{y} = \"onnx.Add\"({m2}, {m1}) : ({xr_ty}, {xr_ty}) -> {xr_ty}")
        });
        let out = if r == d {
            y
        } else {
            let (rest, joined) = (fresh(), fresh());
            let rest_ty = tensor_of(&[b, h, s, D::N(d - r)], "f32");
            slice(&mut body, &rest, &x, &x_ty, &rc, &end, &ax, &one, &rest_ty);
            body.push(format!(
                "{joined} = \"onnx.Concat\"({y}, {rest}) {{axis = -1 : i64}} : ({xr_ty}, {rest_ty}) -> {x_ty}"
            ));
            joined
        };
        results.push((out, x_ty));
    } else if family == 0 {
        // Attention spelled out.
        let (h, d, dv) = (D::N(2), D::N(4), [D::N(4), D::N(3)][pick(rng, 2)]);
        let t = [D::S("t"), D::N(5), s][pick(rng, 3)];
        let kb = match pick(rng, 4) {
            0 => D::N(1),
            1 if b == D::S("b") => D::S("bk"),
            _ => b,
        };
        let kh = if pick(rng, 4) == 0 { D::N(1) } else { h };
        let (ob, oh) = (bcast(b, kb), bcast(h, kh));
        let q = arg(&mut args, "q", &[b, h, s, d], "f32");
        let v = arg(&mut args, "v", &[kb, kh, t, dv], "f32");
        let kt_dims = [kb, kh, d, t];
        let (kt_ty, f32s) = (tensor_of(&kt_dims, "f32"), tensor_of(&[], "f32"));
        let kt = fresh();
        match pick(rng, 3) {
            0 => {
                let k = arg(&mut args, "k", &[kb, kh, t, d], "f32");
                let kty = tensor_of(&[kb, kh, t, d], "f32");
                body.push(format!(
                    "{kt} = \"onnx.Transpose\"({k}) {{perm = array<i64: 0, 1, 3, 2>}} : ({kty}) -> {kt_ty}"
                ));
            }
            1 => {
                let k = arg(&mut args, "k", &[kb, t, kh, d], "f32");
                let kty = tensor_of(&[kb, t, kh, d], "f32");
                body.push(format!(
                    "{kt} = \"onnx.Transpose\"({k}) {{perm = array<i64: 0, 2, 3, 1>}} : ({kty}) -> {kt_ty}"
                ));
            }
            _ => {
                let k = arg(&mut args, "kt", &kt_dims, "f32");
                body.push(format!("{kt} = \"onnx.Identity\"({k}) : ({kt_ty}) -> {kt_ty}"));
            }
        }
        let (q_ty, sc_ty) = (tensor_of(&[b, h, s, d], "f32"), tensor_of(&[ob, oh, s, t], "f32"));
        let scores = fresh();
        let scale = ["0.5", "0.353553385", "2.0", "0.125"][pick(rng, 4)];
        let mut scaled = scores.clone();
        match pick(rng, 5) {
            0 => body.push(format!("{scores} = \"onnx.MatMul\"({q}, {kt}) : ({q_ty}, {kt_ty}) -> {sc_ty}")),
            k @ (1..=3) => {
                body.push(format!("{scores} = \"onnx.MatMul\"({q}, {kt}) : ({q_ty}, {kt_ty}) -> {sc_ty}"));
                let c = constant(&mut body, fresh(), scale, "f32");
                scaled = fresh();
                body.push(match k {
                    1 => format!("{scaled} = \"onnx.Mul\"({scores}, {c}) : ({sc_ty}, {f32s}) -> {sc_ty}"),
                    2 => format!("{scaled} = \"onnx.Mul\"({c}, {scores}) : ({f32s}, {sc_ty}) -> {sc_ty}"),
                    _ => format!("{scaled} = \"onnx.Div\"({scores}, {c}) : ({sc_ty}, {f32s}) -> {sc_ty}"),
                });
            }
            _ => {
                let c = constant(&mut body, fresh(), "0.707106769", "f32");
                let (qs, ks) = (fresh(), fresh());
                body.push(format!("{qs} = \"onnx.Mul\"({q}, {c}) : ({q_ty}, {f32s}) -> {q_ty}"));
                body.push(format!("{ks} = \"onnx.Mul\"({c}, {kt}) : ({f32s}, {kt_ty}) -> {kt_ty}"));
                body.push(format!("{scores} = \"onnx.MatMul\"({qs}, {ks}) : ({q_ty}, {kt_ty}) -> {sc_ty}"));
            }
        }
        let mask_shapes =
            [vec![b, D::N(1), s, t], vec![D::N(1), D::N(1), s, t], vec![s, t], vec![b, D::N(1), D::N(1), t]];
        let logits = match pick(rng, 3) {
            0 => scaled,
            1 => {
                let shape = &mask_shapes[pick(rng, mask_shapes.len())];
                let m = arg(&mut args, "m", shape, "f32");
                let out = fresh();
                let mty = tensor_of(shape, "f32");
                body.push(if pick(rng, 2) == 0 {
                    format!("{out} = \"onnx.Add\"({scaled}, {m}) : ({sc_ty}, {mty}) -> {sc_ty}")
                } else {
                    format!("{out} = \"onnx.Add\"({m}, {scaled}) : ({mty}, {sc_ty}) -> {sc_ty}")
                });
                out
            }
            _ => {
                let shape = &mask_shapes[pick(rng, mask_shapes.len())];
                let m = arg(&mut args, "mb", shape, "i1");
                let inf = constant(&mut body, fresh(), "0xFF800000", "f32");
                let out = fresh();
                let mty = tensor_of(shape, "i1");
                body.push(format!(
                    "{out} = \"onnx.Where\"({m}, {scaled}, {inf}) : ({mty}, {sc_ty}, {f32s}) -> {sc_ty}"
                ));
                out
            }
        };
        let p = fresh();
        let axis = ["-1", "3"][pick(rng, 2)];
        body.push(format!("{p} = \"onnx.Softmax\"({logits}) {{axis = {axis} : i64}} : ({sc_ty}) -> {sc_ty}"));
        let (o, v_ty, o_ty) = (fresh(), tensor_of(&[kb, kh, t, dv], "f32"), tensor_of(&[ob, oh, s, dv], "f32"));
        body.push(format!("{o} = \"onnx.MatMul\"({p}, {v}) : ({sc_ty}, {v_ty}) -> {o_ty}"));
        results.push((o, o_ty));
    } else {
        // RMS or layer normalization over the last axis.
        let hidden = D::N(8);
        let dims = [b, s, hidden];
        let (x_ty, r_ty) = (tensor_of(&dims, "f32"), tensor_of(&[b, s, D::N(1)], "f32"));
        let x = arg(&mut args, "x", &dims, "f32");
        let layer = pick(rng, 2) == 0;
        let axes_value = ["-1", "2"][pick(rng, 2)];
        let axes = constant(&mut body, fresh(), axes_value, "1xi64");
        let centered = if layer {
            let (mean, c) = (fresh(), fresh());
            body.push(format!("{mean} = \"onnx.ReduceMean\"({x}, {axes}) : ({x_ty}, tensor<1xi64>) -> {r_ty}"));
            body.push(format!("{c} = \"onnx.Sub\"({x}, {mean}) : ({x_ty}, {r_ty}) -> {x_ty}"));
            c
        } else {
            x.clone()
        };
        let sq = fresh();
        if pick(rng, 2) == 0 {
            let two = constant(&mut body, fresh(), "2.0", "f32");
            body.push(format!("{sq} = \"onnx.Pow\"({centered}, {two}) : ({x_ty}, tensor<f32>) -> {x_ty}"));
        } else {
            body.push(format!("{sq} = \"onnx.Mul\"({centered}, {centered}) : ({x_ty}, {x_ty}) -> {x_ty}"));
        }
        let (m, a, r) = (fresh(), fresh(), fresh());
        body.push(format!("{m} = \"onnx.ReduceMean\"({sq}, {axes}) : ({x_ty}, tensor<1xi64>) -> {r_ty}"));
        let eps = constant(&mut body, fresh(), ["1.0e-5", "1.0e-6", "0.0"][pick(rng, 3)], "f32");
        body.push(if pick(rng, 2) == 0 {
            format!("{a} = \"onnx.Add\"({m}, {eps}) : ({r_ty}, tensor<f32>) -> {r_ty}")
        } else {
            format!("{a} = \"onnx.Add\"({eps}, {m}) : (tensor<f32>, {r_ty}) -> {r_ty}")
        });
        body.push(format!("{r} = \"onnx.Sqrt\"({a}) : ({r_ty}) -> {r_ty}"));
        let normed = fresh();
        if pick(rng, 2) == 0 {
            body.push(format!("{normed} = \"onnx.Div\"({centered}, {r}) : ({x_ty}, {r_ty}) -> {x_ty}"));
        } else {
            let inv = fresh();
            body.push(format!("{inv} = \"onnx.Reciprocal\"({r}) : ({r_ty}) -> {r_ty}"));
            body.push(format!("{normed} = \"onnx.Mul\"({centered}, {inv}) : ({x_ty}, {r_ty}) -> {x_ty}"));
        }
        // Mostly the normalized shape (what fuses), sometimes more dims.
        let affine_shapes = [vec![hidden], vec![hidden], vec![hidden], vec![D::N(1), D::N(1), hidden], vec![s, hidden]];
        let mut out = normed;
        if pick(rng, 3) != 0 {
            let shape = &affine_shapes[pick(rng, affine_shapes.len())];
            let w = arg(&mut args, "w", shape, "f32");
            let (scaled, w_ty) = (fresh(), tensor_of(shape, "f32"));
            body.push(format!("{scaled} = \"onnx.Mul\"({w}, {out}) : ({w_ty}, {x_ty}) -> {x_ty}"));
            out = scaled;
            if layer && pick(rng, 2) == 0 {
                let shape = &affine_shapes[pick(rng, affine_shapes.len())];
                let bias = arg(&mut args, "bias", shape, "f32");
                let (biased, b_ty) = (fresh(), tensor_of(shape, "f32"));
                body.push(format!("{biased} = \"onnx.Add\"({out}, {bias}) : ({x_ty}, {b_ty}) -> {x_ty}"));
                out = biased;
            }
        }
        results.push((out, x_ty));
    }
    let (names, types): (Vec<String>, Vec<String>) = results.into_iter().unzip();
    format!(
        "module attributes {{onnx.opset = 23 : i64}} {{\nfunc.func @f({}) -> ({}) {{\n  {}\n  return {} : {}\n}}\n}}\n",
        args.join(", "),
        types.join(", "),
        body.join("\n  "),
        names.join(", "),
        types.join(", ")
    )
}

/// Random programs of the fusion families keep their outputs through the
/// optimizer, with their symbols bound independently: a query batch of 3
/// against a key/value batch of 3 and of 1 (a broadcast the fused op must
/// not be given), batch 1, sequence and key lengths of 2 and 4. Finite
/// inputs (the special values of each rule are checked by
/// `every_eqsat_rule_keeps_the_numbers`, with the documented exceptions).
#[test]
fn random_fusion_programs_keep_the_numbers() {
    let Some(env) = crate::parity::environment() else {
        crate::parity::ort_missing();
        return;
    };
    let dir = crate::scratch_dir("eqsat_random_fusions");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut fired = std::collections::BTreeSet::new();
    let bindings: [&dyn Fn(&str) -> i64; 3] = [
        &|name| match name {
            "b" | "bk" => 3,
            "s" => 2,
            _ => 4,
        },
        &|name| match name {
            "b" => 3,
            "bk" => 1,
            "s" => 4,
            _ => 2,
        },
        &|name| match name {
            "b" | "bk" => 1,
            "s" => 3,
            _ => 3,
        },
    ];
    for case in 0..200u64 {
        let input = random_fusion_program(&mut rng);
        let (output, before_path, after_path) = optimize_generated(&input, case, &dir, &mut fired);
        for (set, size) in bindings.iter().enumerate() {
            // A static batch of 2 with a key/value batch of 1 is a broadcast
            // in the program itself: every binding is valid.
            let inputs = inputs_drawn(&input, 0xF05 + case * 7 + set as u64, Specials::None, *size);
            let before = outputs(env, &before_path, &inputs);
            let mut after = outputs(env, &after_path, &inputs);
            // A query row whose every key a boolean mask hides: the spelled-out
            // Softmax gives NaN, Attention (and torch's SDPA) 0, the documented
            // difference of `attention/sdpa` on a bare Softmax. Only there.
            if input.contains("%mb") {
                for ((_, vb), (_, va)) in before.iter().zip(after.iter_mut()) {
                    for (b, a) in vb.iter().zip(va.iter_mut()) {
                        if b.is_nan() && *a == 0.0 {
                            *a = f64::NAN;
                        }
                    }
                }
            }
            compare(&format!("random fusion case {case} (binding {set})\n{input}\n{output}"), &before, &after);
        }
    }
    eprintln!("rules that fired on the random fusion programs: {fired:?}");
    for rule in [
        "attention/sdpa",
        "attention/sdpa-padding-mask",
        "normalization/rms-normalization",
        "normalization/rms-normalization-scale",
        "normalization/layer-normalization",
        "normalization/layer-normalization-affine",
        "rotary/rotate-half",
        "rotary/partial-rotary",
        "activation/gelu-erf",
        "activation/gelu-tanh",
        "activation/hard-swish",
    ] {
        assert!(fired.contains(rule), "{rule} never fired on the random fusion programs: {fired:?}");
    }
}

/// `onnx-flatten-tokens` on its lit cases: onnxruntime before and after, on
/// random inputs, with NaN/inf, with symbolic sizes 3 and 5, and with an
/// empty batch (symbolic size 0: the run-time exit shape has a 0, which
/// `allowzero` keeps).
#[test]
fn flatten_tokens_keeps_the_numbers() {
    let Some(env) = crate::parity::environment() else {
        crate::parity::ort_missing();
        return;
    };
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("lit-tests/onnx-flatten-tokens.mlir"))
            .expect("lit-tests/onnx-flatten-tokens.mlir");
    let dir = crate::scratch_dir("flatten_tokens");
    let mut rewritten = 0;
    for (k, chunk) in text.split("// -----").enumerate() {
        let input = &chunk[chunk.find("module attributes").expect("a module per case")..];
        let output = crate::run_pipeline(input, "builtin.module(func.func(onnx-flatten-tokens))")
            .unwrap_or_else(|e| panic!("case {k}: {e}"));
        if output.contains("onnx.flatten_tokens") {
            rewritten += 1;
        }
        let (before, after) = (dir.join(format!("{k}.before.onnx")), dir.join(format!("{k}.after.onnx")));
        export(input, &before);
        export(&output, &after);
        for (seed, specials, symbolic) in [(0u64, false, 3), (1, true, 3), (2, false, 5), (3, false, 0)] {
            let inputs = inputs_sized(input, 0xF1A7 ^ seed, specials, symbolic);
            compare(
                &format!("onnx-flatten-tokens case {k} (seed {seed}, symbolic dims {symbolic})"),
                &outputs(env, &before, &inputs),
                &outputs(env, &after, &inputs),
            );
        }
    }
    assert_eq!(rewritten, 2, "the @layer and @static cases are rewritten, @unchanged is not");
}

/// The optimizer's output depends on its input only: every limit is a
/// count, never a clock, and orders do not follow pointers or hash seeds.
/// The corpus Llama (optimized with the ORT target, the most rules) is
/// converted on an idle machine and again with every core busy: the bytes
/// are the same.
#[test]
fn conversions_are_byte_identical_under_load() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = crate::scratch_dir("determinism");
    let options = aten2onnx::translate::ConvertOptions { target: Target::OnnxRuntime, ..Default::default() };
    let convert = |out: &Path| {
        aten2onnx::translate::convert("tests/corpus/llama/model.pt2", out, &options).unwrap();
        std::fs::read(out).unwrap()
    };
    let idle = convert(&dir.join("idle.onnx"));
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get()) * 2;
    let spinners: Vec<_> = (0..cores)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                }
                x
            })
        })
        .collect();
    let loaded: Vec<Vec<u8>> = (0..2).map(|i| convert(&dir.join(format!("loaded{i}.onnx")))).collect();
    stop.store(true, Ordering::Relaxed);
    for s in spinners {
        let _ = s.join();
    }
    for (i, bytes) in loaded.iter().enumerate() {
        assert!(bytes == &idle, "conversion {i} under load differs from the idle one");
    }
}
