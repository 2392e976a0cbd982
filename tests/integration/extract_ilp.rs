//! Exact extraction: `onnx-eqsat{extract=ilp}` (`aten-translate --extract
//! ilp`, `passes/optimizer/src/extract_ilp.rs`). Corpus models converted with
//! the ILP extraction run in onnxruntime like greedy extraction's (within
//! 1e-5 + 1e-5|x| on the recorded inputs) and like eager PyTorch (the parity
//! tolerance); the ILP's choice never costs more than greedy's nor has more
//! nodes, and the run says how the solver ended.

use aten2onnx::{
    create_context,
    export::{write_model, ExportOptions},
    module::{self, PrintOptions},
    translate,
};
use aten2onnx_passes::optimizer::extract_ilp::Extractor;
use ort::{session::Session, value::DynValue};
use std::path::{Path, PathBuf};

/// Converts `input` with the main pipeline and `extract`; returns the ONNX
/// node count and the optimized module's text.
fn convert(input: &str, out: &Path, extract: Extractor) -> (usize, String) {
    let context = create_context();
    let mut module = translate::load(&context, input).unwrap_or_else(|e| panic!("{input}: {e}"));
    let pipeline =
        aten2onnx::pipeline_spec::PipelineSpec { extract, ..aten2onnx::pipeline_spec::PipelineSpec::new(23) }.render();
    translate::run_pipeline(&context, &mut module, input, &pipeline).unwrap_or_else(|e| panic!("{input}: {e}"));
    let text = module::print(&module, PrintOptions::default());
    write_model(&module, out, &ExportOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    (aten2onnx::report::onnx_stats(&module).nodes, text)
}

/// The integer `key = N : i64` of the `onnx.eqsat` summary in `text`.
fn summary_int(text: &str, key: &str) -> i64 {
    let at = text.find(&format!("{key} = ")).unwrap_or_else(|| panic!("no {key} in the summary:\n{text}"));
    let rest = &text[at + key.len() + 3..];
    rest[..rest.find(' ').unwrap()].parse().unwrap()
}

fn run(env: &ort::environment::Environment, model: &Path, feeds: &[(String, &crate::parity::Array)]) -> Vec<DynValue> {
    let mut session = Session::builder(env)
        .unwrap()
        .commit_from_file(model)
        .unwrap_or_else(|e| panic!("onnxruntime cannot load {}: {e}", model.display()));
    let feeds: Vec<(String, DynValue)> =
        feeds.iter().map(|(name, a)| (name.clone(), crate::parity::to_value(a))).collect();
    let outputs = session.run(feeds).unwrap_or_else(|e| panic!("{}: {e}", model.display()));
    outputs.into_iter().map(|(_, v)| v).collect()
}

/// Float outputs within 1e-5 + 1e-5|x| of each other (NaN where NaN),
/// others equal.
fn same_outputs(what: &str, greedy: &[DynValue], ilp: &[DynValue]) {
    assert_eq!(greedy.len(), ilp.len(), "{what}: output count");
    for (k, (g, i)) in greedy.iter().zip(ilp).enumerate() {
        if let (Ok((sg, vg)), Ok((si, vi))) = (g.try_extract_tensor::<f32>(), i.try_extract_tensor::<f32>()) {
            assert_eq!(sg, si, "{what}: output {k} shape");
            for (n, (&b, &a)) in vg.iter().zip(vi).enumerate() {
                let (b, a) = (b as f64, a as f64);
                let ok = (b.is_nan() && a.is_nan()) || b == a || (a - b).abs() <= 1e-5 + 1e-5 * b.abs();
                assert!(ok, "{what}: output {k}[{n}] is {a} with ILP extraction, {b} with greedy");
            }
        } else if let (Ok((sg, vg)), Ok((si, vi))) = (g.try_extract_tensor::<i64>(), i.try_extract_tensor::<i64>()) {
            assert_eq!((sg, vg), (si, vi), "{what}: output {k}");
        } else {
            panic!("{what}: output {k} of a type the check does not read, or of different types");
        }
    }
}

#[test]
fn corpus_with_ilp_extraction_matches_greedy() {
    let Some(env) = crate::parity::environment() else {
        crate::parity::ort_missing();
        return;
    };
    let dir = crate::scratch_dir("eqsat_ilp");
    for model in ["llama", "bert", "gpt2", "resnet18"] {
        let corpus = PathBuf::from("tests/corpus").join(model);
        let input = corpus.join("model.pt2");
        if !input.is_file() {
            panic!(
                "{} missing: run `.venv/bin/python tools/capture/capture_corpus.py --only {model}`",
                input.display()
            );
        }
        let input = input.to_str().unwrap();
        let (greedy_path, ilp_path) = (dir.join(format!("{model}.greedy.onnx")), dir.join(format!("{model}.ilp.onnx")));
        let (greedy_nodes, greedy_text) = convert(input, &greedy_path, Extractor::Greedy);
        let (ilp_nodes, ilp_text) = convert(input, &ilp_path, Extractor::Ilp);
        assert!(!greedy_text.contains("extract = "), "{model}: greedy runs record no extraction");
        assert!(ilp_text.contains("extract = \"ilp\""), "{model}:\n{ilp_text}");
        assert!(
            ilp_text.contains("ilp_status = \"optimal\"") || ilp_text.contains("ilp_status = \"time limit\""),
            "{model}: the solver fell back to greedy:\n{ilp_text}"
        );
        let (cost_greedy, cost_ilp) = (summary_int(&ilp_text, "cost_greedy"), summary_int(&ilp_text, "cost_ilp"));
        assert!(cost_ilp <= cost_greedy, "{model}: ILP cost {cost_ilp} above greedy's {cost_greedy}");
        assert!(
            ilp_nodes <= greedy_nodes,
            "{model}: {ilp_nodes} nodes with ILP extraction, {greedy_nodes} with greedy"
        );
        eprintln!("{model}: {greedy_nodes} nodes greedy, {ilp_nodes} ILP; cost {cost_greedy} -> {cost_ilp}");
        let mut sets: Vec<PathBuf> = std::fs::read_dir(&corpus)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir() && p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("set_")))
            .collect();
        sets.sort();
        assert!(!sets.is_empty(), "{}: no set_* input directories", corpus.display());
        for (set, set_dir) in sets.iter().enumerate() {
            let inputs: Vec<crate::parity::Array> =
                crate::parity::sorted_files(set_dir, "input_").iter().map(|p| crate::parity::read_tensor(p)).collect();
            let feeds: Vec<(String, &crate::parity::Array)> = inputs.iter().map(|a| (a.name.clone(), a)).collect();
            let greedy = run(env, &greedy_path, &feeds);
            let ilp = run(env, &ilp_path, &feeds);
            same_outputs(&format!("{model} set_{set}"), &greedy, &ilp);
            let expected: Vec<crate::parity::Array> =
                crate::parity::sorted_files(set_dir, "output_").iter().map(|p| crate::parity::read_tensor(p)).collect();
            for (exp, got) in expected.iter().zip(&ilp) {
                crate::parity::compare(&format!("ilp-{model}"), set, exp, got).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
}

/// The pass options: a bad extractor or time limit is refused by name; a
/// zero time limit keeps greedy's choice and says so.
#[test]
fn ilp_extraction_options() {
    let text = std::fs::read_to_string("lit-tests/onnx-eqsat-options.mlir").unwrap();
    let err = crate::run_pipeline(&text, "builtin.module(func.func(onnx-eqsat{extract=exact}))").unwrap_err();
    assert!(err.contains("option 'extract' must be 'greedy' or 'ilp', got 'exact'"), "{err}");
    let err = crate::run_pipeline(&text, "builtin.module(func.func(onnx-eqsat{extract=ilp ilp-time-limit-ms=soon}))")
        .unwrap_err();
    assert!(err.contains("option 'ilp-time-limit-ms' must be a number"), "{err}");
    let greedy = crate::run_pipeline(&text, "builtin.module(func.func(onnx-eqsat))").unwrap();
    let zero =
        crate::run_pipeline(&text, "builtin.module(func.func(onnx-eqsat{extract=ilp ilp-time-limit-ms=0}))").unwrap();
    assert!(zero.contains("ilp_status = \"time limit\""), "{zero}");
    assert_eq!(summary_int(&zero, "cost_greedy"), summary_int(&zero, "cost_ilp"));
    fn ops(t: &str) -> Vec<&str> {
        t.lines().filter(|l| l.contains("\"onnx.")).map(str::trim).collect()
    }
    assert_eq!(ops(&greedy), ops(&zero), "a zero time limit keeps greedy's choice");
    let ilp = crate::run_pipeline(&text, "builtin.module(func.func(onnx-eqsat{extract=ilp}))").unwrap();
    assert!(ilp.contains("ilp_status = \"optimal\""), "{ilp}");
    insta::assert_snapshot!("onnx_eqsat_extract_ilp", ilp);
}
