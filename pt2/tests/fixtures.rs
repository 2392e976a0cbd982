//! Reads the checked-in fixtures (tests/fixtures, regenerate with
//! `.venv/bin/python tools/capture/capture_fixtures.py`).

mod common;

use aten2onnx_pt2::*;
use common::fixture;

fn open(name: &str) -> Archive {
    Archive::open(fixture(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn targets(g: &Graph) -> Vec<&str> {
    g.nodes.iter().map(|n| n.target.as_str()).collect()
}

fn count(g: &Graph, target: &str) -> usize {
    g.nodes.iter().filter(|n| n.target == target).count()
}

/// An inplace ATen overload, e.g. `torch.ops.aten.add_.Tensor`.
fn is_inplace(target: &str) -> bool {
    target
        .strip_prefix("torch.ops.aten.")
        .and_then(|t| t.split('.').next())
        .is_some_and(|op| op.ends_with('_') && !op.starts_with('_'))
}

fn input_tags(p: &ExportedProgram) -> Vec<&'static str> {
    p.signature().input_specs.iter().map(InputSpec::tag).collect()
}

fn output_tags(p: &ExportedProgram) -> Vec<&'static str> {
    p.signature().output_specs.iter().map(OutputSpec::tag).collect()
}

/// Every tensor name used by a node or graph output is defined (graph input or
/// earlier node output) and has a TensorMeta.
fn check_dataflow(g: &Graph) {
    use std::collections::HashSet;
    let mut defined: HashSet<&str> = HashSet::new();
    for a in &g.inputs {
        if let Some(n) = a.as_tensor_name() {
            defined.insert(n);
        }
    }
    fn tensor_names(a: &Argument) -> Vec<&str> {
        match a {
            Argument::AsTensor(t) => vec![&t.name],
            Argument::AsTensors(ts) => ts.iter().map(|t| t.name.as_str()).collect(),
            Argument::AsOptionalTensor(OptionalTensorArgument::AsTensor(t)) => vec![&t.name],
            Argument::AsOptionalTensors(ts) => ts
                .iter()
                .filter_map(|t| match t {
                    OptionalTensorArgument::AsTensor(t) => Some(t.name.as_str()),
                    _ => None,
                })
                .collect(),
            _ => vec![],
        }
    }
    for node in &g.nodes {
        for input in &node.inputs {
            for n in tensor_names(&input.arg) {
                assert!(defined.contains(n), "{}: input `{n}` undefined", node.target);
            }
            if let Argument::AsGraph(sub) = &input.arg {
                check_dataflow(&sub.graph);
            }
        }
        for out in &node.outputs {
            for n in tensor_names(out) {
                assert!(g.tensor_values.contains_key(n), "no meta for `{n}`");
                defined.insert(n);
            }
        }
    }
    for out in &g.outputs {
        for n in tensor_names(out) {
            assert!(defined.contains(n), "graph output `{n}` undefined");
        }
    }
}

/// Every weight/constant resolves, has the right byte length and borrows from the map.
fn check_payloads(a: &Archive) -> usize {
    let map = a.bytes().as_ptr_range();
    let mut n = 0;
    let names: Vec<(bool, String)> = a
        .weight_names()
        .map(|n| (true, n.to_string()))
        .chain(a.constant_names().map(|n| (false, n.to_string())))
        .collect();
    for (is_weight, name) in names {
        let t = if is_weight { a.weight(&name) } else { a.constant(&name) }.unwrap_or_else(|e| panic!("{e}"));
        let numel: i64 = t.sizes.iter().product();
        assert_eq!(t.numel(), numel as u64);
        assert_eq!(t.nbytes(), numel as u64 * t.dtype.element_size().unwrap() as u64, "{name}");
        assert!(t.storage.len() as u64 >= t.nbytes(), "{name}");
        let sr = t.storage.as_ptr_range();
        assert!(map.start <= sr.start && sr.end <= map.end, "{name} not in the map");
        // torch.export.save aligns every payload to 64 bytes.
        assert_eq!((sr.start as usize - map.start as usize) % 64, 0, "{name}");
        if let Some(bytes) = t.contiguous_bytes() {
            assert_eq!(bytes.len() as u64, t.nbytes());
            let br = bytes.as_ptr_range();
            assert!(sr.start <= br.start && br.end <= sr.end);
        }
        n += 1;
    }
    n
}

fn common_checks(name: &str) -> Archive {
    let a = open(name);
    let stem = name.strip_suffix(".pt2").unwrap();
    assert_eq!(a.root(), stem);
    assert_eq!(a.model_name(), "model");
    assert_eq!(a.path(), fixture(name));
    let p = a.program();
    assert_eq!(p.schema_version.major, 8);
    assert!(p.torch_version.as_deref().unwrap().starts_with("2."));
    assert_eq!(p.opset_version.get("aten"), Some(&10));
    let g = p.graph();
    assert_eq!(g.inputs.len(), p.signature().input_specs.len());
    assert_eq!(g.outputs.len(), p.signature().output_specs.len());
    for (arg, spec) in g.inputs.iter().zip(&p.signature().input_specs) {
        if let Some(n) = spec.arg_name() {
            assert_eq!(arg.as_tensor_name(), Some(n));
        }
    }
    // Parameters and persistent buffers are weights; the rest are constants.
    for spec in &p.signature().input_specs {
        match spec {
            InputSpec::Parameter(s) => {
                let w = a.weight(&s.parameter_name).unwrap();
                assert!(w.is_param);
                let meta = &g.tensor_values[&s.arg.name];
                assert_eq!(meta.dtype, w.dtype);
                assert_eq!(meta.static_sizes().unwrap(), w.sizes);
            }
            InputSpec::Buffer(s) if s.persistent => {
                a.weight(&s.buffer_name).unwrap();
            }
            InputSpec::Buffer(s) => {
                a.constant(&s.buffer_name).unwrap();
            }
            InputSpec::TensorConstant(s) => {
                a.constant(&s.tensor_constant_name).unwrap();
            }
            _ => {}
        }
    }
    check_dataflow(g);
    check_payloads(&a);
    for node in &g.nodes {
        assert!(node.target.starts_with("torch.ops."), "{}", node.target);
        assert!(node.name.is_some());
    }
    a
}

#[test]
fn mlp_training_ir() {
    let a = common_checks("mlp.pt2");
    let p = a.program();
    let g = p.graph();
    assert_eq!(p.verifiers, ["TRAINING"]);
    assert_eq!(
        targets(g),
        [
            "torch.ops.aten.sym_size.int",
            "torch.ops.aten.linear.default",
            "torch.ops.aten.relu.default",
            "torch.ops.aten.view.default",
            "torch.ops.aten.linear.default",
        ]
    );
    assert_eq!(input_tags(p), ["parameter", "parameter", "parameter", "parameter", "user_input"]);
    assert_eq!(output_tags(p), ["user_output"]);

    // Dynamic batch: x is [s, 8] with s a symbol that has a range constraint.
    let x = &g.tensor_values["x"];
    assert_eq!(x.dtype, ScalarType::Float);
    assert_eq!(x.layout, Layout::Strided);
    assert_eq!(x.device.kind, "cpu");
    let SymInt::AsExpr(batch) = &x.sizes[0] else { panic!("batch dim should be symbolic: {:?}", x.sizes) };
    let sym = batch.symbol_name().expect("bare symbol");
    assert!(p.range_constraints.contains_key(sym), "{sym}");
    assert_eq!(batch.int_hint(), Some(3));
    assert_eq!(x.sizes[1], SymInt::AsInt(8));
    assert!(x.static_sizes().is_none());

    // sym_size.int produces a SymInt used by view's size list.
    let sym_size = &g.nodes[0];
    assert_eq!(sym_size.input("dim"), Some(&Argument::AsInt(0)));
    let Argument::AsSymInt(SymIntArgument::AsName(s)) = &sym_size.outputs[0] else { panic!() };
    assert!(g.sym_int_values.contains_key(s));
    let view = &g.nodes[3];
    assert_eq!(
        view.input("size"),
        Some(&Argument::AsSymInts(vec![SymIntArgument::AsName(s.clone()), SymIntArgument::AsInt(-1)]))
    );
    assert_eq!(view.inputs[0].kind, Some(ArgumentKind::Positional));

    // Metadata.
    let linear = &g.nodes[1];
    let st = linear.stack_trace().unwrap();
    assert!(st.starts_with("File \""), "{st}");
    assert!(st.contains("capture_fixtures.py"), "{st}");
    // Only the keys the importer reads are kept (the file has more).
    assert!(!linear.metadata.contains_key("nn_module_stack"));
    assert_eq!(linear.metadata.keys().collect::<Vec<_>>(), ["stack_trace"]);

    // Weights.
    let names: Vec<&str> = a.weight_names().collect();
    assert_eq!(names, ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]);
    assert_eq!(a.constant_names().len(), 0);
    let w = a.weight("fc1.weight").unwrap();
    assert_eq!(
        (w.dtype, w.sizes.as_slice(), w.strides.as_slice()),
        (ScalarType::Float, &[16i64, 8][..], &[8i64, 1][..])
    );
    assert_eq!(w.contiguous_bytes().unwrap().len(), 16 * 8 * 4);
    assert!(w.requires_grad);
    let b = a.weight("fc2.bias").unwrap();
    assert_eq!(b.sizes, [4]);
    assert_eq!(b.storage.len(), 16);
    // Values are finite floats (nn.Linear init is within +-1/sqrt(fan_in)).
    for c in w.contiguous_bytes().unwrap().chunks_exact(4) {
        let v = f32::from_le_bytes(c.try_into().unwrap());
        assert!(v.abs() <= 1.0 / 8f32.sqrt() + 1e-6, "{v}");
    }
}

#[test]
fn mlp_core_aten() {
    let a = common_checks("mlp_core.pt2");
    let p = a.program();
    let g = p.graph();
    assert_eq!(p.verifiers, ["ATEN"]);
    assert_eq!(count(g, "torch.ops.aten.addmm.default"), 2);
    assert_eq!(count(g, "torch.ops.aten.linear.default"), 0);
    assert_eq!(count(g, "torch.ops.aten.view.default"), 1);
    assert_eq!(output_tags(p), ["user_output"]);
}

#[test]
fn conv_block_training_ir_has_inplace_buffer_update() {
    let a = common_checks("conv_block.pt2");
    let p = a.program();
    let g = p.graph();
    assert_eq!(p.verifiers, ["TRAINING"]);
    assert_eq!(
        input_tags(p),
        ["parameter", "parameter", "parameter", "parameter", "buffer", "buffer", "buffer", "user_input"]
    );
    // Training IR: the buffer update stays an inplace op; no mutation outputs.
    assert_eq!(output_tags(p), ["user_output"]);
    let add_ = g.nodes.iter().find(|n| n.target == "torch.ops.aten.add_.Tensor").expect("num_batches_tracked += 1");
    assert_eq!(add_.input("self").and_then(Argument::as_tensor_name), Some("b_bn_num_batches_tracked"));
    assert_eq!(add_.input("other"), Some(&Argument::AsInt(1)));
    let bn = g.nodes.iter().find(|n| n.target == "torch.ops.aten.batch_norm.default").unwrap();
    assert_eq!(bn.input("training"), Some(&Argument::AsBool(true)));
    assert_eq!(bn.input("momentum"), Some(&Argument::AsFloat(0.1)));
    let conv = &g.nodes[0];
    assert_eq!(conv.target, "torch.ops.aten.conv2d.default");
    assert_eq!(conv.input("padding"), Some(&Argument::AsInts(vec![1, 1])));
    // Defaults are omitted: dilation and groups are not written.
    assert_eq!(conv.input("dilation"), None);
    assert_eq!(conv.input("groups"), None);

    let nbt = a.weight("bn.num_batches_tracked").unwrap();
    assert_eq!(nbt.dtype, ScalarType::Long);
    assert!(nbt.sizes.is_empty());
    assert_eq!(nbt.contiguous_bytes().unwrap(), 0i64.to_le_bytes());
    assert!(!nbt.is_param);
    let rv = a.weight("bn.running_var").unwrap();
    let ones: Vec<u8> = (0..4).flat_map(|_| 1f32.to_le_bytes()).collect();
    assert_eq!(rv.contiguous_bytes().unwrap(), ones);
    assert_eq!(a.weight("conv.weight").unwrap().sizes, [4, 3, 3, 3]);
}

#[test]
fn conv_block_core_has_buffer_mutations() {
    let a = common_checks("conv_block_core.pt2");
    let p = a.program();
    let g = p.graph();
    assert_eq!(p.verifiers, ["ATEN"]);
    assert!(g.nodes.iter().all(|n| !is_inplace(&n.target)), "{:?}", targets(g));
    let muts: Vec<&str> = p
        .signature()
        .output_specs
        .iter()
        .filter_map(|s| match s {
            OutputSpec::BufferMutation(m) => Some(m.buffer_name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(muts, ["bn.running_mean", "bn.running_var", "bn.num_batches_tracked"]);
    assert_eq!(output_tags(p), ["buffer_mutation", "buffer_mutation", "buffer_mutation", "user_output"]);
    // Multi-output node: all outputs listed (no getitem nodes).
    let bn = g.nodes.iter().find(|n| n.target == "torch.ops.aten._native_batch_norm_legit_functional.default").unwrap();
    assert_eq!(bn.outputs.len(), 5);
    assert_eq!(count(g, "_operator.getitem"), 0);
    let pool = g.nodes.iter().find(|n| n.target == "torch.ops.aten.max_pool2d_with_indices.default").unwrap();
    assert_eq!(pool.outputs.len(), 2);
}

#[test]
fn attention_training_ir() {
    let a = common_checks("attention.pt2");
    let p = a.program();
    let g = p.graph();
    assert_eq!(
        input_tags(p),
        [
            "parameter",
            "parameter",
            "parameter",
            "parameter",
            "parameter",
            "parameter",
            "buffer",
            "buffer",
            "tensor_constant",
            "user_input",
            "user_input"
        ]
    );
    // In training IR the buffer mutation is an inplace op, not an output.
    assert_eq!(output_tags(p), ["user_output"]);
    for t in [
        "torch.ops.aten.layer_norm.default",
        "torch.ops.aten.scaled_dot_product_attention.default",
        "torch.ops.aten.masked_fill_.Scalar",
        "torch.ops.aten.chunk.default",
    ] {
        assert_eq!(count(g, t), 1, "{t}");
    }
    assert_eq!(count(g, "torch.ops.aten.add_.Tensor"), 2);
    let mf = g.nodes.iter().find(|n| n.target == "torch.ops.aten.masked_fill_.Scalar").unwrap();
    assert_eq!(mf.input("value"), Some(&Argument::AsFloat(f64::NEG_INFINITY)));
    let chunk = g.nodes.iter().find(|n| n.target == "torch.ops.aten.chunk.default").unwrap();
    let Argument::AsTensors(parts) = &chunk.outputs[0] else { panic!() };
    assert_eq!(parts.len(), 3);
    let zeros = g.nodes.iter().find(|n| n.target == "torch.ops.aten.zeros.default").unwrap();
    assert_eq!(zeros.input("dtype"), Some(&Argument::AsScalarType(ScalarType::Float)));
    assert_eq!(zeros.inputs[1].kind, Some(ArgumentKind::Keyword));
    assert_eq!(g.tensor_values["pad_mask"].dtype, ScalarType::Bool);

    // Buffers / constants.
    let specs = &p.signature().input_specs;
    assert!(specs.iter().any(|s| matches!(s,
        InputSpec::Buffer(b) if b.buffer_name == "head_gain" && !b.persistent)));
    assert_eq!(a.constant_names().collect::<Vec<_>>(), ["pos_row", "head_gain"]);
    assert!(a.weight_names().any(|n| n == "steps"));
    assert!(!a.weight_names().any(|n| n == "head_gain"));

    // pos_row is row 1 of a [3, 16] table stored whole: offset 16 elements.
    let row = a.constant("pos_row").unwrap();
    assert_eq!(row.storage_offset, 16);
    assert_eq!(row.storage.len(), 3 * 16 * 4);
    let bytes = row.contiguous_bytes().unwrap();
    assert_eq!(bytes.len(), 64);
    let vals: Vec<f32> = bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    let expected: Vec<f32> = (16..32).map(|i| i as f32 / 100.0).collect();
    assert_eq!(vals, expected);
    let gain = a.constant("head_gain").unwrap();
    assert!(!gain.is_param);
    assert_eq!(gain.contiguous_bytes().unwrap(), (0..16).flat_map(|_| 0.9f32.to_le_bytes()).collect::<Vec<_>>());

    // proj.weight is a transposed parameter: not contiguous.
    let pw = a.weight("proj.weight").unwrap();
    assert_eq!(pw.sizes, [16, 16]);
    assert_eq!(pw.strides, [1, 16]);
    assert!(!pw.is_contiguous());
    assert!(pw.contiguous_bytes().is_none());
    assert_eq!(pw.storage.len(), 16 * 16 * 4);
}

#[test]
fn attention_core_is_functional() {
    let a = common_checks("attention_core.pt2");
    let p = a.program();
    let g = p.graph();
    assert_eq!(p.verifiers, ["ATEN"]);
    assert!(g.nodes.iter().all(|n| !is_inplace(&n.target)), "{:?}", targets(g));
    assert_eq!(output_tags(p), ["buffer_mutation", "user_output"]);
    let OutputSpec::BufferMutation(m) = &p.signature().output_specs[0] else { panic!() };
    assert_eq!(m.buffer_name, "steps");
    assert_eq!(count(g, "torch.ops.aten.native_layer_norm.default"), 1);
    assert_eq!(count(g, "torch.ops.aten.scaled_dot_product_attention.default"), 0);
    // -inf survives as a float argument somewhere (the mask fill value).
    let has_neg_inf = g.nodes.iter().any(|n| n.inputs.iter().any(|i| i.arg == Argument::AsFloat(f64::NEG_INFINITY)));
    assert!(has_neg_inf);
}

#[test]
fn cond_has_inline_subgraphs() {
    let a = common_checks("cond.pt2");
    let p = a.program();
    let g = p.graph();
    let cond = g.nodes.iter().find(|n| n.target == "torch.ops.higher_order.cond").unwrap();
    assert!(cond.inputs.iter().all(|i| i.name.is_empty()));
    assert_eq!(
        cond.inputs.iter().map(|i| i.arg.tag()).collect::<Vec<_>>(),
        ["as_tensor", "as_graph", "as_graph", "as_tensors"]
    );
    let Argument::AsGraph(t) = &cond.inputs[1].arg else { panic!() };
    let Argument::AsGraph(f) = &cond.inputs[2].arg else { panic!() };
    assert_eq!(t.name, "true_graph_0");
    assert_eq!(f.name, "false_graph_0");
    assert_eq!(targets(&t.graph), ["torch.ops.aten.linear.default", "torch.ops.aten.sin.default"]);
    assert_eq!(targets(&f.graph), ["torch.ops.aten.cos.default", "torch.ops.aten.mul.Tensor"]);
    // Operands: x plus the lifted parameters the true branch closes over.
    let Argument::AsTensors(ops) = &cond.inputs[3].arg else { panic!() };
    assert_eq!(ops.len(), t.graph.inputs.len());
    assert_eq!(t.graph.inputs.len(), f.graph.inputs.len());
    // Dynamic batch reaches the subgraphs.
    let sub_x = &t.graph.tensor_values[t.graph.inputs[0].as_tensor_name().unwrap()];
    assert!(matches!(sub_x.sizes[0], SymInt::AsExpr(_)));
    assert_eq!(cond.outputs.len(), 1);
}

#[test]
fn while_loop_has_inline_subgraphs() {
    let a = common_checks("while_loop.pt2");
    let g = a.program().graph();
    assert_eq!(targets(g), ["torch.ops.higher_order.while_loop"]);
    let wl = &g.nodes[0];
    let Argument::AsGraph(c) = &wl.inputs[0].arg else { panic!() };
    let Argument::AsGraph(b) = &wl.inputs[1].arg else { panic!() };
    assert!(c.graph.is_single_tensor_return);
    assert_eq!(targets(&c.graph), ["torch.ops.aten.lt.Scalar"]);
    assert_eq!(b.graph.outputs.len(), 2);
    assert_eq!(wl.inputs[2].arg, {
        Argument::AsTensors(vec![TensorArgument { name: "it".into() }, TensorArgument { name: "x".into() }])
    });
    // Empty additional_inputs are serialized as an empty tensor list.
    assert_eq!(wl.inputs[3].arg, Argument::AsTensors(vec![]));
    assert_eq!(wl.outputs.len(), 2);
    assert_eq!(a.weight_names().len(), 0);
}

#[test]
fn entry_access() {
    let a = open("mlp.pt2");
    assert_eq!(a.entry("archive_format").unwrap(), b"pt2");
    assert_eq!(a.entry("byteorder").unwrap(), b"little");
    assert!(a.entry("models/model.json").unwrap().starts_with(b"{"));
    let e = a.entry("no/such/entry").unwrap_err();
    assert!(matches!(e, Error::MissingEntry { ref entry, .. } if entry == "mlp/no/such/entry"));
    assert!(e.to_string().contains("mlp.pt2"), "{e}");
    let e = a.weight("fc3.weight").unwrap_err();
    assert!(matches!(e, Error::UnknownTensor { kind: "weight", .. }), "{e}");
    assert!(e.to_string().contains("mlp.pt2") && e.to_string().contains("fc3.weight"));
    let e = a.constant("fc1.weight").unwrap_err();
    assert!(matches!(e, Error::UnknownTensor { kind: "constant", .. }), "{e}");
    assert_eq!(a.weight_meta("fc1.weight").unwrap().path_name, "weight_0");
    assert!(a.constant_meta("fc1.weight").is_none());
    // Opening from memory gives the same program.
    let b = Archive::from_bytes("mem.pt2", a.bytes().to_vec()).unwrap();
    assert_eq!(a.program(), b.program());
    assert!(format!("{a:?}").contains("mlp"));
}

#[test]
fn archive_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Archive>();
    assert_send_sync::<Error>();
}
