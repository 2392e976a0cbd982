//! ATen registry: lookups, helpers, counts, ArgType parsing and Display.

use std::collections::BTreeSet;

use aten2onnx_dialects::aten::{self, AliasInfo, ArgType, DefaultValue, OpSchema};

fn op(name: &str, overload: &str) -> &'static OpSchema {
    aten::lookup(name, overload).unwrap_or_else(|| panic!("aten::{name}.{overload} missing"))
}

#[test]
fn counts_match_torch_2_13() {
    assert_eq!(aten::TORCH_VERSION, "2.13.0");
    // The pin's 3,754 overloads (1,730 names), the 15 torch 2.15 added and
    // the 25 quantization ops of torchao 0.18.0.
    assert_eq!(aten::all().len(), 3754 + 15 + 25);
    assert_eq!((aten::NEWER_TORCH_VERSION, aten::NEWER_OVERLOADS.len()), ("2.15.0", 15));
    assert_eq!((aten::TORCHAO_VERSION, aten::QUANTIZED_OVERLOADS.len()), ("0.18.0", 25));
    let pinned: BTreeSet<&str> = aten::all()
        .iter()
        .filter(|o| !aten::is_newer(o.name, o.overload) && !aten::is_quantized(o.name, o.overload))
        .map(|o| o.name)
        .collect();
    assert_eq!(pinned.len(), 1730);
    assert!(aten::is_newer("linalg_polar", "default") && aten::lookup("linalg_polar", "default").is_some());
    assert!(!aten::is_newer("add", "Tensor"));
    // Sorted by (name, overload), unique.
    assert!(aten::all().windows(2).all(|w| (w[0].name, w[0].overload) < (w[1].name, w[1].overload)));
    let core = aten::all().iter().filter(|o| o.has_tag("core")).count();
    assert_eq!(core, 193);
}

#[test]
fn add_tensor() {
    let add = op("add", "Tensor");
    assert_eq!(add.name, "add");
    assert_eq!(add.overload, "Tensor");
    let names: Vec<_> = add.arguments.iter().map(|a| a.name).collect();
    assert_eq!(names, ["self", "other", "alpha"]);
    let alpha = add.arg("alpha").unwrap();
    assert_eq!(alpha.ty, "Scalar");
    assert_eq!(alpha.default, Some(DefaultValue::Int(1)));
    assert!(alpha.kwarg_only);
    assert!(!add.arguments[0].kwarg_only);
    assert_eq!(add.positional_args().len(), 2);
    assert!(add.has_tag("core"));
    assert!(add.has_tag("pointwise"));
    assert!(!add.has_tag("inplace"));
    assert!(!add.is_inplace());
    assert!(!add.is_out_variant());
    assert!(add.is_functional());
    assert_eq!(add.returns.len(), 1);
    assert_eq!(add.returns[0].ty, "Tensor");
    assert_eq!(add.qualified_name(), "aten::add.Tensor");
    assert_eq!(add.target_name(), "aten.add.Tensor");
}

#[test]
fn inplace_and_out_variants() {
    let add_ = op("add_", "Tensor");
    assert!(add_.is_inplace());
    assert!(!add_.is_out_variant());
    assert!(add_.has_tag("inplace"));
    let mutated: Vec<_> = add_.mutated_args().map(|a| a.name).collect();
    assert_eq!(mutated, ["self"]);
    let alias = add_.arguments[0].alias.unwrap();
    assert_eq!(alias.set(), Some("a"));
    assert!(alias.is_write);
    assert!(add_.returns[0].is_write());

    let out = op("add", "out");
    assert!(out.is_out_variant());
    assert!(!out.is_inplace());
    assert!(out.has_tag("out"));
    let outs: Vec<_> = out.out_args().map(|a| a.name).collect();
    assert_eq!(outs, ["out"]);
    assert_eq!(out.mutated_args().count(), 1);

    // Element alias: `Tensor(a!)[] self`.
    let fe = op("_foreach_add_", "List");
    assert!(fe.is_inplace());
    assert_eq!(
        fe.arguments[0].alias,
        Some(AliasInfo { before_set: &["a"], after_set: &["a"], is_write: true, on_elements: true })
    );
    // `Tensor(a -> *) self` is a view, not a write.
    let split = op("split", "Tensor");
    assert!(!split.is_inplace() && split.is_functional());
    let a = split.arguments[0].alias.unwrap();
    assert_eq!((a.before_set, a.after_set, a.is_write), (&["a"][..], &["*"][..], false));

    // Both at once: writes `growth_tracker` positionally and `out`.
    let amp = op("_amp_update_scale", "out");
    assert!(amp.is_inplace() && amp.is_out_variant());
    let m: Vec<_> = amp.mutated_args().map(|a| a.name).collect();
    assert_eq!(m, ["growth_tracker", "out"]);
}

#[test]
fn convolution_default() {
    let conv = op("convolution", "default");
    assert!(std::ptr::eq(conv, op("convolution", "")));
    assert_eq!(conv.overload, "");
    assert_eq!(conv.overload_name(), "default");
    let args: Vec<_> = conv.arguments.iter().map(|a| (a.name, a.ty)).collect();
    assert_eq!(
        args,
        [
            ("input", "Tensor"),
            ("weight", "Tensor"),
            ("bias", "Tensor?"),
            ("stride", "SymInt[]"),
            ("padding", "SymInt[]"),
            ("dilation", "SymInt[]"),
            ("transposed", "bool"),
            ("output_padding", "SymInt[]"),
            ("groups", "SymInt"),
        ]
    );
    assert!(conv.arguments.iter().all(|a| a.default.is_none() && !a.kwarg_only));
    assert!(conv.has_tag("core"));
    assert_eq!(conv.arg_index("groups"), Some(8));
}

#[test]
fn native_layer_norm_returns_three_tensors() {
    let ln = op("native_layer_norm", "default");
    assert_eq!(ln.returns.len(), 3);
    assert!(ln.returns.iter().all(|r| r.ty == "Tensor" && r.alias.is_none()));
    assert_eq!(ln.arguments[4].name, "eps");
    assert_eq!(ln.arguments[4].default, None);
    // layer_norm's eps default is exactly 1e-05.
    assert_eq!(op("layer_norm", "").arg("eps").unwrap().default, Some(DefaultValue::Float(1e-05)));
}

#[test]
fn misc_lookups() {
    let ss = op("sym_size", "int");
    assert_eq!(ss.returns[0].ty, "SymInt");
    assert!(aten::lookup("sym_size", "nope").is_none());
    assert!(aten::lookup("no_such_op", "").is_none());
    assert!(aten::lookup_target("torch.ops.aten.add.Tensor").is_some());
    assert!(aten::lookup_target("aten.convolution.default").is_some());
    assert!(aten::lookup_target("aten::convolution").is_some());
    assert!(aten::lookup_target("add.out").is_some());
    assert_eq!(aten::lookup_target("aten::add_.Tensor").unwrap().name, "add_");
    let overloads: Vec<_> = aten::overloads("sym_size").iter().map(|o| o.overload).collect();
    assert_eq!(overloads, ["", "int"]);
    assert!(aten::overloads("no_such_op").is_empty());
    assert!(op("view", "").has_tag("core"));
    assert!(op("transpose_", "").has_tag("inplace_view"));
    assert!(op("view_copy", "").has_tag("view_copy"));
}

#[test]
fn defaults_are_normalized() {
    let mp = op("max_pool2d_with_indices", "");
    // `int[2] stride=[]`, `int[2] padding=0`, `int[2] dilation=1`: expanded to the declared size.
    assert_eq!(mp.arg("stride").unwrap().default, Some(DefaultValue::IntList(&[])));
    assert_eq!(mp.arg("padding").unwrap().default, Some(DefaultValue::IntList(&[0, 0])));
    assert_eq!(mp.arg("dilation").unwrap().default, Some(DefaultValue::IntList(&[1, 1])));
    assert_eq!(mp.arg("ceil_mode").unwrap().default, Some(DefaultValue::Bool(false)));
    let c3 = op("conv3d", "");
    assert_eq!(c3.arg("stride").unwrap().ty, "SymInt[3]");
    assert_eq!(c3.arg("stride").unwrap().default, Some(DefaultValue::IntList(&[1, 1, 1])));
    assert_eq!(op("fft_hfft2", "").arg("dim").unwrap().default, Some(DefaultValue::IntList(&[-2, -1])));
    assert_eq!(op("sum", "dim_IntList").arg("dtype").unwrap().default, Some(DefaultValue::None));
    assert_eq!(op("sum", "dim_IntList").arg("dim").unwrap().default, None);
    assert_eq!(op("triu_indices", "").arg("dtype").unwrap().default, Some(DefaultValue::ScalarType("int64")));
    assert_eq!(
        op("sym_is_contiguous", "").arg("memory_format").unwrap().default,
        Some(DefaultValue::MemoryFormat("contiguous_format"))
    );
    assert_eq!(op("pad", "").arg("mode").unwrap().default, Some(DefaultValue::Str("constant")));
    assert_eq!(op("strip", "").arg("chars").unwrap().default, Some(DefaultValue::Str(" \n\t\u{c}\u{b}")));
    assert_eq!(op("rrelu", "").arg("upper").unwrap().default, Some(DefaultValue::Float(1.0 / 3.0)));
    assert_eq!(op("leaky_relu", "").arg("negative_slope").unwrap().default, Some(DefaultValue::Float(0.01)));
    assert_eq!(aten::scalar_type_code("int64"), Some(4));
    assert_eq!(aten::scalar_type_name(6), Some("float32"));
}

#[test]
fn every_type_string_parses_without_other() {
    let mut types = BTreeSet::new();
    for o in aten::all() {
        types.extend(o.arguments.iter().map(|a| a.ty));
        types.extend(o.returns.iter().map(|r| r.ty));
    }
    assert!(types.len() > 80, "{} distinct types", types.len());
    let mut others = Vec::new();
    for ty in &types {
        let parsed = ArgType::parse(ty);
        if parsed.has_other() {
            others.push(*ty);
        }
        // Display is the inverse of parse.
        assert_eq!(parsed.to_string(), *ty);
    }
    assert!(others.is_empty(), "types left as ArgType::Other: {others:?}");
}

#[test]
fn arg_type_structure() {
    use ArgType::*;
    assert_eq!(ArgType::parse("Tensor"), Tensor);
    assert_eq!(ArgType::parse("Tensor?"), Optional(Box::new(Tensor)));
    assert_eq!(ArgType::parse("Tensor[]"), List { elem: Box::new(Tensor), size: None });
    assert!(ArgType::parse("Tensor[]").is_tensor_list());
    assert!(ArgType::parse("Tensor?[]").is_tensor_list());
    assert!(ArgType::parse("Tensor?").is_tensor());
    assert_eq!(ArgType::parse("int[2]"), List { elem: Box::new(Int), size: Some(2) });
    assert_eq!(ArgType::parse("SymInt[1]?"), Optional(Box::new(List { elem: Box::new(SymInt), size: Some(1) })));
    assert_eq!(ArgType::parse("ScalarType?"), Optional(Box::new(ScalarType)));
    assert_eq!(ArgType::parse("Dimname"), Dimname);
    assert_eq!(ArgType::parse("Dict(str, t)"), Dict { key: Box::new(Str), value: Box::new(TypeVar("t".into())) });
    assert_eq!(
        ArgType::parse("(str, tVal)[]"),
        List { elem: Box::new(Tuple(vec![Str, TypeVar("tVal".into())])), size: None }
    );
    assert_eq!(ArgType::parse("Future(t)"), Future(Box::new(TypeVar("t".into()))));
    assert_eq!(
        ArgType::parse("__torch__.torch.classes.rnn.CellParamsBase[]"),
        List { elem: Box::new(Class("__torch__.torch.classes.rnn.CellParamsBase".into())), size: None }
    );
    assert_eq!(ArgType::parse("Frobnicator"), Other("Frobnicator".into()));
    assert_eq!(ArgType::parse("Tensor[").to_string(), "Tensor[");
    assert!(ArgType::parse("Tensor[").has_other());
    assert_eq!(op("convolution", "").arguments[3].arg_type(), List { elem: Box::new(SymInt), size: None });
}

#[test]
fn display_matches_torch_str() {
    let cases = [
        ("add", "Tensor", "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"),
        ("add_", "Tensor", "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"),
        ("add", "out", "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"),
        ("convolution", "", "convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor"),
        ("native_layer_norm", "", "native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)"),
        ("max_pool2d_with_indices", "", "max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)"),
        ("isclose", "", "isclose(Tensor self, Tensor other, float rtol=1.0000000000000001e-05, float atol=1e-08, bool equal_nan=False) -> Tensor"),
        ("layer_norm", "", "layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1.0000000000000001e-05, bool cudnn_enable=True) -> Tensor"),
        ("rrelu", "", "rrelu(Tensor self, Scalar lower=0.125, Scalar upper=0.33333333333333331, bool training=False, Generator? generator=None) -> Tensor"),
        ("_foreach_add_", "List", "_foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()"),
        ("split", "Tensor", "split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]"),
        ("as_tensor", "", "as_tensor(Tensor(a) data, *, ScalarType? dtype=None, Device? device=None) -> Tensor(b|a)"),
        ("triu_indices", "", "triu_indices(int row, int col, int offset=0, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"),
        ("sym_is_contiguous", "", "sym_is_contiguous(Tensor self, MemoryFormat memory_format=0) -> SymBool"),
        ("fft_hfft2", "", "fft_hfft2(Tensor self, SymInt[1]? s=None, int[1] dim=[-2, -1], str? norm=None) -> Tensor"),
        ("strip", "", r#"strip(str self, str chars=" \n\t\f\v") -> str"#),
        ("format", "", "format(str self, ...) -> str"),
        ("items", "str", "items.str(Dict(str, t) self) -> ((str, t)[])"),
        ("setdefault", "str", "setdefault.str(Dict(str, t)(a!) self, str(b -> *) key, t(c -> *) default_value) -> t(*)"),
        ("sorted", "int", "sorted.int(int[](a) input) -> int[]"),
        ("linalg_inv_ex", "inverse", "linalg_inv_ex.inverse(Tensor A, *, bool check_errors=False, Tensor(a!) inverse, Tensor(b!) info) -> (Tensor(a!) inverse, Tensor(b!) info)"),
    ];
    for (name, overload, expected) in cases {
        let o = op(name, overload);
        assert_eq!(o.to_string(), expected);
        assert_eq!(format!("{o:#}"), format!("aten::{expected}"));
    }
}

/// The quantization ops of PT2E-quantized programs, registered by torchao
/// outside the `aten` namespace (tools/gen/quantized_schemas.json).
#[test]
fn quantized_ops_are_registered() {
    const QD: &str = "quantized_decomposed";
    let expected: &[(&str, &str)] = &[
        ("quantized_decomposed::_choose_qparams_per_token_asymmetric_impl", ""),
        ("quantized_decomposed::choose_qparams", "tensor"),
        ("quantized_decomposed::choose_qparams_per_token", ""),
        ("quantized_decomposed::choose_qparams_per_token_asymmetric", ""),
        ("quantized_decomposed::choose_qparams_symmetric", "tensor"),
        ("quantized_decomposed::convert_element_type", "no_fuse"),
        ("quantized_decomposed::dequantize_per_channel", ""),
        ("quantized_decomposed::dequantize_per_channel_group", ""),
        ("quantized_decomposed::dequantize_per_tensor", ""),
        ("quantized_decomposed::dequantize_per_tensor", "tensor"),
        ("quantized_decomposed::dequantize_per_tensor", "tensor2"),
        ("quantized_decomposed::dequantize_per_token", ""),
        ("quantized_decomposed::fake_quant_per_channel", ""),
        ("quantized_decomposed::quantize_per_channel", ""),
        ("quantized_decomposed::quantize_per_channel_group", ""),
        ("quantized_decomposed::quantize_per_tensor", ""),
        ("quantized_decomposed::quantize_per_tensor", "tensor"),
        ("quantized_decomposed::quantize_per_tensor", "tensor2"),
        ("quantized_decomposed::quantize_per_token", ""),
        ("torchao::choose_qparams_affine", ""),
        ("torchao::choose_scale_float8", ""),
        ("torchao::dequantize_affine", ""),
        ("torchao::dequantize_affine_float8_non_decomposed", ""),
        ("torchao::quantize_affine", ""),
        ("torchao::quantize_affine_float8_non_decomposed", ""),
    ];
    assert_eq!(aten::QUANTIZED_OVERLOADS, expected);
    for &(name, overload) in aten::QUANTIZED_OVERLOADS {
        let o = aten::lookup(name, overload).unwrap_or_else(|| panic!("{name}.{overload} missing"));
        assert_eq!((o.name, o.overload), (name, overload));
        assert!(aten::is_quantized(name, overload) && !aten::is_newer(name, overload));
        assert!(aten::is_quantized(name, o.overload_name()));
        let (ns, base) = name.split_once("::").unwrap();
        assert_eq!((o.namespace(), o.base_name()), (ns, base));
        assert!(ns == QD || ns == "torchao", "{name}");
        // Every spelling of the target finds it.
        let q = o.qualified_name();
        assert_eq!(q, if overload.is_empty() { name.to_string() } else { format!("{name}.{overload}") });
        assert!(std::ptr::eq(aten::lookup_target(&q).unwrap(), o), "{q}");
        let t = o.target_name();
        assert_eq!(t, format!("{ns}.{base}.{}", o.overload_name()));
        assert!(std::ptr::eq(aten::lookup_target(&t).unwrap(), o), "{t}");
        assert!(std::ptr::eq(aten::lookup_target(&format!("torch.ops.{t}")).unwrap(), o), "{t}");
        // The schema text carries the namespace in both forms (torch's `str(schema)`).
        assert!(o.to_string().starts_with(&format!("{q}(")));
        assert_eq!(format!("{o:#}"), o.to_string());
        // Every type is one the verifiers understand.
        assert!(o.arguments.iter().all(|a| !a.arg_type().has_other()), "{o}");
        // No op tags (torchao tags none of them).
        assert!(o.tags.is_empty(), "{o:#}");
    }
    assert!(aten::lookup_target("quantized_decomposed.quantize_per_channel").is_some());
    assert!(aten::lookup_target("torchao.quantize_affine.default").is_some());
    assert!(aten::lookup_target("torchao.int_matmul.default").is_none(), "torchao's kernels are not registered");
    assert!(aten::lookup("quantized_decomposed::quantize_per_tensor", "nope").is_none());
    assert!(aten::lookup("torchao::int_matmul", "").is_none());
    let ovl: Vec<_> = aten::overloads("quantized_decomposed::quantize_per_tensor").iter().map(|o| o.overload).collect();
    assert_eq!(ovl, ["", "tensor", "tensor2"]);
    let ovl: Vec<_> =
        aten::overloads("quantized_decomposed::dequantize_per_tensor").iter().map(|o| o.overload).collect();
    assert_eq!(ovl, ["", "tensor", "tensor2"]);
    assert!(aten::overloads("quantized_decomposed::").is_empty());
    assert!(aten::overloads("quantized_decomposed").is_empty());
}

/// `aten::quantize_per_tensor` and `quantized_decomposed::quantize_per_tensor`
/// are different ops: the unqualified name is always `aten`'s.
#[test]
fn quantized_ops_do_not_collide_with_aten() {
    let aten_q = op("quantize_per_tensor", "");
    assert_eq!(aten_q.namespace(), "aten");
    assert_eq!(aten_q.base_name(), "quantize_per_tensor");
    assert_eq!(aten_q.qualified_name(), "aten::quantize_per_tensor");
    assert_eq!(aten_q.target_name(), "aten.quantize_per_tensor.default");
    assert!(!aten::is_quantized(aten_q.name, aten_q.overload));
    assert_eq!(
        aten_q.to_string(),
        "quantize_per_tensor(Tensor self, float scale, int zero_point, ScalarType dtype) -> Tensor"
    );
    assert!(std::ptr::eq(aten::lookup_target("aten::quantize_per_tensor").unwrap(), aten_q));
    assert!(std::ptr::eq(aten::lookup_target("torch.ops.aten.quantize_per_tensor.default").unwrap(), aten_q));
    assert!(std::ptr::eq(aten::lookup_target("quantize_per_tensor").unwrap(), aten_q));
    let aten_overloads: Vec<_> = aten::overloads("quantize_per_tensor").iter().map(|o| o.overload).collect();
    assert_eq!(aten_overloads, ["", "out", "tensor_qparams", "tensor_qparams_out", "tensors", "tensors_out"]);

    let qd = op("quantized_decomposed::quantize_per_tensor", "tensor");
    assert!(!std::ptr::eq(qd, op("quantize_per_tensor", "")));
    assert_eq!(qd.namespace(), "quantized_decomposed");
    assert_eq!(qd.qualified_name(), "quantized_decomposed::quantize_per_tensor.tensor");
    assert_eq!(qd.target_name(), "quantized_decomposed.quantize_per_tensor.tensor");
    let args: Vec<_> = qd.arguments.iter().map(|a| (a.name, a.ty)).collect();
    assert_eq!(
        args,
        [
            ("input", "Tensor"),
            ("scale", "Tensor"),
            ("zero_point", "Tensor"),
            ("quant_min", "int"),
            ("quant_max", "int"),
            ("dtype", "ScalarType"),
        ]
    );
    assert!(std::ptr::eq(
        aten::lookup_target("torch.ops.quantized_decomposed.quantize_per_tensor.tensor").unwrap(),
        qd
    ));
    let qd_default = op("quantized_decomposed::quantize_per_tensor", "default");
    assert_eq!(qd_default.overload, "");
    assert_eq!(qd_default.qualified_name(), "quantized_decomposed::quantize_per_tensor");
    assert_eq!(qd_default.target_name(), "quantized_decomposed.quantize_per_tensor.default");
    assert!(std::ptr::eq(
        aten::lookup_target("torch.ops.quantized_decomposed.quantize_per_tensor.default").unwrap(),
        qd_default
    ));
    // The table stays sorted with the namespaced names in it (binary search).
    assert!(aten::all().windows(2).all(|w| (w[0].name, w[0].overload) < (w[1].name, w[1].overload)));
}

#[test]
fn quantized_display_matches_torch_str() {
    let cases = [
        ("quantized_decomposed::quantize_per_tensor", "", "quantized_decomposed::quantize_per_tensor(Tensor input, float scale, int zero_point, int quant_min, int quant_max, ScalarType dtype) -> Tensor"),
        ("quantized_decomposed::dequantize_per_tensor", "tensor2", "quantized_decomposed::dequantize_per_tensor.tensor2(Tensor input, Tensor scale, Tensor zero_point, Tensor quant_min, Tensor quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor"),
        ("quantized_decomposed::choose_qparams", "tensor", "quantized_decomposed::choose_qparams.tensor(Tensor input, int quant_min, int quant_max, float eps, ScalarType dtype) -> (Tensor, Tensor)"),
        ("quantized_decomposed::dequantize_per_channel", "", "quantized_decomposed::dequantize_per_channel(Tensor input, Tensor scales, Tensor? zero_points, int axis, int quant_min, int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor"),
        ("quantized_decomposed::convert_element_type", "no_fuse", "quantized_decomposed::convert_element_type.no_fuse(Tensor input, ScalarType dtype) -> Tensor"),
        ("torchao::quantize_affine", "", "torchao::quantize_affine(Tensor input, SymInt[] block_size, Tensor scale, Tensor? zero_point, ScalarType output_dtype, Scalar? quant_min=None, Scalar? quant_max=None) -> Tensor"),
        ("torchao::dequantize_affine", "", "torchao::dequantize_affine(Tensor input, SymInt[] block_size, Tensor scale, Tensor? zero_point, ScalarType input_dtype, Scalar? quant_min=None, Scalar? quant_max=None, ScalarType output_dtype=6) -> Tensor"),
        ("torchao::choose_scale_float8", "", "torchao::choose_scale_float8(Tensor tensor, SymInt[] block_size, ScalarType float8_dtype=24, ScalarType scale_dtype=6, float? hp_value_lb=None, float? hp_value_ub=None) -> Tensor"),
    ];
    for (name, overload, expected) in cases {
        let o = op(name, overload);
        assert_eq!(o.to_string(), expected);
        assert_eq!(format!("{o:#}"), expected);
    }
    // The dtype defaults are stored by name and print as torch's codes.
    let f8 = op("torchao::quantize_affine_float8_non_decomposed", "");
    assert_eq!(f8.arg("float8_dtype").unwrap().default, Some(DefaultValue::ScalarType("float8_e4m3fn")));
    assert_eq!(
        op("torchao::dequantize_affine", "").arg("output_dtype").unwrap().default,
        Some(DefaultValue::ScalarType("float32"))
    );
}

/// Every recorded schema of tools/gen/quantized_schemas.json prints back exactly
/// as torch printed it under torchao, and nothing else is registered as one.
#[test]
fn quantized_schemas_round_trip() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("tools/gen/quantized_schemas.json")).expect("the JSON");
    let doc: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(doc["torchao"].as_str(), Some(aten::TORCHAO_VERSION));
    let recorded: BTreeSet<String> =
        doc["overloads"].as_array().unwrap().iter().map(|e| e["schema"].as_str().unwrap().to_string()).collect();
    let ours: BTreeSet<String> = aten::QUANTIZED_OVERLOADS
        .iter()
        .map(|(name, overload)| format!("{:#}", aten::lookup(name, overload).expect("registered")))
        .collect();
    assert_eq!(ours, recorded);
    // Exactly the namespaced ops of the registry are the quantized ones.
    let namespaced: Vec<_> =
        aten::all().iter().filter(|o| o.name.contains("::")).map(|o| (o.name, o.overload)).collect();
    assert_eq!(namespaced, aten::QUANTIZED_OVERLOADS);
}
