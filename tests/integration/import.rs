//! Importing every valid `.pt2` fixture into the aten dialect.

use crate::{import, nested_ops, parse_and_verify, VALID_FIXTURES};
use aten2onnx::{
    create_context,
    module::{self, PrintOptions},
};
use aten2onnx_passes::ir::{op_name, string_value};
use melior::ir::{
    attribute::{ArrayAttribute, DictionaryAttribute},
    operation::OperationLike,
    r#type::{DimSize, RankedTensorType, ShapedTypeLike},
    BlockLike, Module, OperationRef, RegionLike, ValueLike,
};

/// Imports `name`, snapshots the text, then checks that it parses back with a
/// fresh context, passes both registry verifiers and prints byte-identically.
fn check_fixture(name: &str) {
    let text = import(name, false);
    insta::assert_snapshot!(name, text);
    let again = parse_and_verify(&text, PrintOptions::default())
        .unwrap_or_else(|e| panic!("{name}: the imported module does not verify:\n{e}"));
    assert_eq!(again, text, "{name}: printing the re-parsed module changed the text");
    // The importer is deterministic.
    assert_eq!(import(name, false), text, "{name}: importing twice gave different text");
}

macro_rules! fixture_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check_fixture(stringify!($name));
            }
        )*

        /// The list above names every valid fixture, and every `.pt2` in
        /// tests/fixtures is either valid (tested here) or a bad input
        /// (tested in `errors`).
        #[test]
        fn every_valid_fixture_has_a_test() {
            assert_eq!(&[$(stringify!($name)),*], VALID_FIXTURES);
            let bad = ["truncated", "not_a_zip", "bad_schema", "corrupt_json", "custom_op"];
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "pt2") {
                    let stem = path.file_stem().unwrap().to_string_lossy().to_string();
                    assert!(
                        VALID_FIXTURES.contains(&stem.as_str()) || bad.contains(&stem.as_str()),
                        "fixture {stem}.pt2 has no test: add it to fixture_tests! in tests/integration/import.rs"
                    );
                }
            }
        }
    };
}

fixture_tests!(mlp, mlp_core, conv_block, conv_block_core, attention, attention_core, cond, while_loop);

/// With debug info the locations carry the node name and the user's Python
/// line (`loc("linear"("tools/capture_fixtures.py":49:0))`); they survive a
/// round trip too.
#[test]
fn mlp_with_debug_info() {
    let print = PrintOptions { debug_info: true, generic: false };
    let text = import("mlp", true);
    insta::assert_snapshot!("mlp_debuginfo", text);
    assert!(text.contains(r#"loc("linear"(#loc"#), "node names are locations:\n{text}");
    assert!(text.contains(r#"loc("tools/capture_fixtures.py":49:0)"#), "the Python source line is recorded:\n{text}");
    assert!(text.contains(r#"loc("tests/fixtures/mlp.pt2":0:0)"#), "the function is located at the archive:\n{text}");
    let again = parse_and_verify(&text, print).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again, text, "printing the re-parsed module with debug info changed the text");
}

/// Subgraph ops of a higher-order op keep their own node locations, at the
/// user's Python line: the frames of FX-generated code (`<eval_with_key>.N`,
/// no file on disk) are not the user's source.
#[test]
fn cond_with_debug_info() {
    let text = import("cond", true);
    assert!(
        !text.contains("<eval_with_key>"),
        "locations must point at the user's source, not FX-generated code:\n{text}"
    );
    assert!(text.contains(r#"loc("tools/capture_fixtures.py":119:0)"#), "{text}");
    insta::assert_snapshot!("cond_debuginfo", text);
    let again =
        parse_and_verify(&text, PrintOptions { debug_info: true, generic: false }).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again, text);
}

/// Parses an imported fixture and hands its `func.func @forward` to `check`.
fn with_forward(name: &str, check: impl FnOnce(&Module, OperationRef)) {
    let text = import(name, false);
    let context = create_context();
    let module = module::parse(&context, &text, "import.mlir").unwrap_or_else(|e| panic!("{e}"));
    let functions: Vec<_> =
        nested_ops(module.as_operation()).into_iter().filter(|op| op_name(*op) == "func.func").collect();
    assert_eq!(functions.len(), 1, "{name}: one function per program");
    let forward = functions[0];
    assert_eq!(
        forward.attribute("sym_name").ok().and_then(string_value).as_deref(),
        Some(aten2onnx::import::ENTRY_FUNCTION)
    );
    check(&module, forward);
}

/// `arg_attrs` / `res_attrs` entry `index`, attribute `key`, as a string.
fn entry_string(func: OperationRef, list: &str, index: usize, key: &str) -> Option<String> {
    let array = ArrayAttribute::try_from(func.attribute(list).ok()?).ok()?;
    let dict = DictionaryAttribute::try_from(array.element(index).ok()?).ok()?;
    dict.element_by_name(key).and_then(string_value)
}

#[test]
fn mlp_has_one_argument_x_with_a_dynamic_batch() {
    with_forward("mlp", |module, forward| {
        let block = forward.region(0).unwrap().first_block().unwrap();
        assert_eq!(block.argument_count(), 1);
        assert_eq!(entry_string(forward, "arg_attrs", 0, "aten.name").as_deref(), Some("x"));
        let ty = RankedTensorType::try_from(block.argument(0).unwrap().r#type()).expect("a ranked tensor");
        assert_eq!(ty.rank(), 2);
        assert_eq!(ty.dim_size(0).unwrap(), DimSize::Dynamic, "the batch dim is dynamic");
        assert_eq!(ty.dim_size(1).unwrap(), DimSize::Static(8));
        // The symbolic size is named in the encoding and bounded at module level.
        assert_eq!(ty.encoding().map(|e| e.to_string()).as_deref(), Some(r#"["s77"]"#));
        let ranges = module.as_operation().attribute("aten.range_constraints").expect("range constraints");
        assert!(DictionaryAttribute::try_from(ranges).unwrap().element_by_name("s77").is_some());
        assert_eq!(
            module.as_operation().attribute("aten.archive").ok().and_then(string_value).as_deref(),
            Some("tests/fixtures/mlp.pt2")
        );
    });
}

#[test]
fn conv_block_core_lists_buffer_mutations_after_the_user_output() {
    with_forward("conv_block_core", |_, forward| {
        let block = forward.region(0).unwrap().first_block().unwrap();
        let ret = block.terminator().expect("func.return");
        assert_eq!(op_name(ret), "func.return");
        let kinds: Vec<_> = (0..ret.operand_count())
            .map(|i| entry_string(forward, "res_attrs", i, "aten.kind").unwrap_or_default())
            .collect();
        assert_eq!(kinds, ["user_output", "buffer_mutation", "buffer_mutation", "buffer_mutation"]);
        let targets: Vec<_> =
            (0..ret.operand_count()).map(|i| entry_string(forward, "res_attrs", i, "aten.target")).collect();
        assert_eq!(
            targets,
            [
                None,
                Some("bn.running_mean".into()),
                Some("bn.running_var".into()),
                Some("bn.num_batches_tracked".into())
            ]
        );
    });
}

#[test]
fn attention_has_parameter_buffer_and_constant_weights() {
    with_forward("attention", |_, forward| {
        let weights: Vec<(String, String)> = nested_ops(forward)
            .into_iter()
            .filter(|op| op_name(*op) == "aten.weight")
            .map(|op| {
                let attr = |key| op.attribute(key).ok().and_then(string_value).unwrap_or_default();
                (attr("name"), attr("kind"))
            })
            .collect();
        let kind_of = |name: &str| weights.iter().find(|(n, _)| n == name).map(|(_, k)| k.as_str());
        assert_eq!(kind_of("qkv.weight"), Some("parameter"));
        assert_eq!(kind_of("steps"), Some("buffer"));
        assert_eq!(kind_of("head_gain"), Some("buffer"), "a non-persistent buffer is still a buffer");
        assert_eq!(kind_of("pos_row"), Some("constant"));
        for kind in ["parameter", "buffer", "constant"] {
            assert!(weights.iter().any(|(_, k)| k == kind), "no {kind} weight in {weights:?}");
        }
        // Two user inputs, named as in Python.
        assert_eq!(entry_string(forward, "arg_attrs", 0, "aten.name").as_deref(), Some("x"));
        assert_eq!(entry_string(forward, "arg_attrs", 1, "aten.name").as_deref(), Some("pad_mask"));
    });
}

#[test]
fn cond_has_a_hop_with_two_regions() {
    with_forward("cond", |_, forward| {
        let conds: Vec<_> = nested_ops(forward).into_iter().filter(|op| op_name(*op) == "aten.hop.cond").collect();
        assert_eq!(conds.len(), 1);
        let cond = conds[0];
        assert_eq!(cond.region_count(), 2, "true and false branches");
        for region in cond.regions() {
            let block = region.first_block().expect("one block a branch");
            assert!(block.next_in_region().is_none(), "one block a branch");
            // (`terminator()` is `None` for unregistered ops: take the last op.)
            let mut last = block.first_operation().expect("a non-empty branch");
            while let Some(next) = last.next_in_block() {
                last = next;
            }
            assert_eq!(op_name(last), "aten.yield");
            assert_eq!(last.operand_count(), cond.result_count(), "each branch yields every result");
        }
        // The predicate is the first operand: a 0-d bool tensor.
        assert_eq!(cond.operand(0).unwrap().r#type().to_string(), "tensor<i1>");
    });
}

#[test]
fn while_loop_has_a_hop_with_cond_and_body_regions() {
    with_forward("while_loop", |_, forward| {
        let ops: Vec<_> = nested_ops(forward).into_iter().filter(|op| op_name(*op) == "aten.hop.while_loop").collect();
        assert_eq!(ops.len(), 1);
        assert_eq!(ops[0].region_count(), 2);
        assert_eq!(ops[0].result_count(), 2, "one result per carried input");
    });
}
