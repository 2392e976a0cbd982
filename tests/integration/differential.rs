//! Differential tests of every lowering rule (`--features torch`): for each
//! registered rule, each dtype it claims and each of its samples, a one-op
//! aten module is built from the registry schema, run on libtorch (the
//! interpreter) and, lowered and exported, in onnxruntime; outputs must
//! agree within |got - exp| <= 1e-4 + 1e-4 |exp| (exactly for ints and
//! bools; float16 within 1e-3 + 1e-3 |exp| and bfloat16 within 1e-2 +
//! 1.6e-2 |exp|, the half-precision tolerances of `verify::tolerance`, since
//! one unit in the last place of a float16 is already ~1e-3 relative).
//! Where onnxruntime's CPU provider has no kernel for an op at a dtype
//! (session creation fails with "Could not find an implementation" /
//! NOT_IMPLEMENTED), the case is not skipped: it is counted and printed as an
//! ORT kernel gap, and the model is checked with `onnx.checker` (full check,
//! strict shape inference) and its output dtypes and shapes compared with
//! libtorch's instead. Rules are enumerated from the registry of rules, so a new rule is
//! tested the moment it is registered; a rule with no samples fails here.
//! Declared refusals must fail to lower with the declared message.
//!
//! Sample language (one sample = `name: value` pairs separated by `;`;
//! arguments left out take their schema default):
//! - tensors `T[2,3]` (T = the dtype under test), `f32[4]`, `i64[3]`, `bool[2,2]`,
//!   `T[]` (0-d); value ranges `i64[3]{0..4}`, `T[2]{pos}` (positive), `T[4]{unit}`
//!   (in [0, 1)), `T[2,5]{sorted}` (sorted along the last dim), `T[3,3]{spd}` (symmetric
//!   positive-definite), `T[3,3]{dd}` (diagonally dominant);
//! - tensor lists `(T[2,3], T[2,3])`, with `none` elements for `Tensor?[]`;
//! - numbers `2`, `-1.5`, `true`; lists `[1, 2]`, `[0.5, 1.5]`; strings
//!   `"tanh"`; dtypes `dtype(f32)`; `none`; bool lists `[true, false]`.

use aten2onnx::{
    create_context,
    import::args::{default_attribute, static_attribute},
    interp::{self, RtValue},
    module::{self, PrintOptions},
    translate::{self, ConvertOptions},
    verify::{run_onnx, tolerance},
};
use aten2onnx_dialects::aten::{self as registry, ArgType, OpSchema};
use aten2onnx_passes::{
    aten_ir::{self, ArgValue},
    lowering::{self, Lower, Rule},
};
use aten2onnx_pt2::schema::Argument;
use melior::{
    ir::{
        attribute::{StringAttribute, TypeAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::{FunctionType, RankedTensorType},
        Block, BlockLike, Identifier, Location, Module, Region, RegionLike, Type, Value,
    },
    Context,
};

/// One parsed sample value.
#[derive(Clone, Debug)]
enum SampleValue {
    Tensor { dtype: String, shape: Vec<i64>, range: Range },
    Tensors(Vec<Option<SampleValue>>),
    Int(i64),
    Float(f64),
    Bool(bool),
    Ints(Vec<i64>),
    Floats(Vec<f64>),
    Bools(Vec<bool>),
    Str(String),
    Dtype(String),
    None,
}

#[derive(Clone, Copy, Debug)]
enum Range {
    Default,
    Positive,
    Ints(i64, i64),
    /// `{unit}`: uniform in [0, 1) (quantile levels).
    Unit,
    /// `{sorted}`: the default range sorted along the last dim (searchsorted).
    Sorted,
    /// `{spd}`: symmetric positive-definite matrices `X X^T / n + I` over the
    /// last two dims (Cholesky).
    Spd,
    /// `{dd}`: the default range plus `2n` on the diagonal of the last two
    /// dims: diagonally dominant, well conditioned (solves, inverses).
    DiagDominant,
}

fn parse_value(text: &str, dtype: &str) -> Result<SampleValue, String> {
    let t = text.trim();
    if t == "none" {
        return Ok(SampleValue::None);
    }
    if t == "true" || t == "false" {
        return Ok(SampleValue::Bool(t == "true"));
    }
    if let Some(s) = t.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        return Ok(SampleValue::Str(s.to_string()));
    }
    if let Some(d) = t.strip_prefix("dtype(").and_then(|s| s.strip_suffix(')')) {
        return Ok(SampleValue::Dtype(if d == "T" { dtype.to_string() } else { d.to_string() }));
    }
    if let Some(inner) = t.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
        let items = split_top(inner, ',')
            .into_iter()
            .map(|item| match parse_value(&item, dtype)? {
                SampleValue::None => Ok(None),
                v @ SampleValue::Tensor { .. } => Ok(Some(v)),
                other => Err(format!("tensor list element {other:?}")),
            })
            .collect::<Result<_, String>>()?;
        return Ok(SampleValue::Tensors(items));
    }
    if let Some(inner) = t.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
        let items: Vec<&str> = inner.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
        if !items.is_empty() && items.iter().all(|i| *i == "true" || *i == "false") {
            return Ok(SampleValue::Bools(items.iter().map(|i| *i == "true").collect()));
        }
        if items.iter().any(|i| i.contains('.') || i.contains('e')) {
            return items
                .iter()
                .map(|i| i.parse::<f64>().map_err(|e| e.to_string()))
                .collect::<Result<_, _>>()
                .map(SampleValue::Floats);
        }
        return items
            .iter()
            .map(|i| i.parse::<i64>().map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()
            .map(SampleValue::Ints);
    }
    if let Some(open) = t.find('[') {
        let name = &t[..open];
        let close = t.find(']').ok_or("unclosed shape")?;
        let shape: Vec<i64> = t[open + 1..close]
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| s.parse::<i64>().map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        let rest = t[close + 1..].trim();
        let range = match rest {
            "" => Range::Default,
            "{pos}" => Range::Positive,
            "{unit}" => Range::Unit,
            "{sorted}" => Range::Sorted,
            "{spd}" => Range::Spd,
            "{dd}" => Range::DiagDominant,
            r => {
                let inner = r.strip_prefix('{').and_then(|s| s.strip_suffix('}')).ok_or("bad range")?;
                let (a, b) = inner.split_once("..").ok_or("bad range")?;
                Range::Ints(a.trim().parse().map_err(|_| "bad range")?, b.trim().parse().map_err(|_| "bad range")?)
            }
        };
        // Complex samples run with dtype c64 / c128: `C` is it, `T` its component.
        let dtype = match (name, dtype) {
            ("T", "c64") => "f32".to_string(),
            ("T", "c128") => "f64".to_string(),
            ("C", "c64" | "c128") => dtype.to_string(),
            ("C", _) => return Err(format!("a complex tensor C in a sample run at {dtype}")),
            ("T", _) => dtype.to_string(),
            _ => name.to_string(),
        };
        return Ok(SampleValue::Tensor { dtype, shape, range });
    }
    if let Ok(i) = t.parse::<i64>() {
        return Ok(SampleValue::Int(i));
    }
    t.parse::<f64>().map(SampleValue::Float).map_err(|_| format!("cannot parse sample value '{t}'"))
}

/// Splits on `sep` outside brackets and parentheses.
fn split_top(text: &str, sep: char) -> Vec<String> {
    let (mut depth, mut cur, mut out) = (0, String::new(), Vec::new());
    for c in text.chars() {
        match c {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            _ => {}
        }
        if c == sep && depth == 0 {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// The results a sample's module returns (`returns: [0]`; default all).
fn returned_results(sample: &[(String, SampleValue)]) -> Option<Vec<usize>> {
    sample.iter().find(|(n, _)| n == "returns").and_then(|(_, v)| match v {
        SampleValue::Ints(v) => Some(v.iter().map(|&i| i as usize).collect()),
        _ => None,
    })
}

fn parse_sample(sample: &str, dtype: &str) -> Result<Vec<(String, SampleValue)>, String> {
    split_top(sample, ';')
        .into_iter()
        .map(|pair| {
            let (name, value) = pair.split_once(':').ok_or_else(|| format!("'{pair}' is not name: value"))?;
            Ok((name.trim().to_string(), parse_value(value, dtype)?))
        })
        .collect()
}

/// Default samples of 1:1 rules: several shapes, broadcasting, size-1 and
/// zero-size dims, 0-d.
fn default_samples(rule: &Rule) -> Vec<String> {
    match rule.lower {
        Lower::Unary(_) => ["self: T[2,3]", "self: T[1,4]", "self: T[0,3]", "self: T[]"].map(String::from).to_vec(),
        Lower::Binary(_) => {
            let schema = schema_of(rule);
            let other = schema.arguments.iter().find(|a| a.name == "other").map(|a| a.ty).unwrap_or("Tensor");
            if other == "Tensor" {
                [
                    "self: T[2,3]; other: T[2,3]",
                    "self: T[2,3]; other: T[3]",
                    "self: T[2,1]; other: T[1,4]",
                    "self: T[0,3]; other: T[3]",
                    "self: T[2,3]; other: 2.5",
                ]
                .map(String::from)
                .to_vec()
            } else {
                ["self: T[2,3]; other: 2.5", "self: T[0,3]; other: 2", "self: T[]; other: -1.5"]
                    .map(String::from)
                    .to_vec()
            }
        }
        Lower::Custom(_) => Vec::new(),
    }
}

fn schema_of(rule: &Rule) -> &'static OpSchema {
    let (op, overload) = aten_ir::split_name(rule.target).expect("rule target");
    registry::lookup(op, overload).expect("rule target in the registry")
}

fn element<'c>(context: &'c Context, dtype: &str) -> Type<'c> {
    Type::parse(
        context,
        match dtype {
            "bool" => "i1",
            "u8" => "ui8",
            "c64" => "complex<f32>",
            "c128" => "complex<f64>",
            other => other,
        },
    )
    .unwrap_or_else(|| panic!("dtype {dtype}"))
}

fn kind(dtype: &str) -> tch::Kind {
    match dtype {
        "f32" => tch::Kind::Float,
        "f64" => tch::Kind::Double,
        "i64" => tch::Kind::Int64,
        "i32" => tch::Kind::Int,
        "bool" => tch::Kind::Bool,
        "f16" => tch::Kind::Half,
        "bf16" => tch::Kind::BFloat16,
        "i8" => tch::Kind::Int8,
        "u8" => tch::Kind::Uint8,
        "i16" => tch::Kind::Int16,
        "c64" => tch::Kind::ComplexFloat,
        "c128" => tch::Kind::ComplexDouble,
        other => panic!("dtype {other} in a sample"),
    }
}

fn random_tensor(dtype: &str, shape: &[i64], range: Range) -> tch::Tensor {
    if let Some(component) = match dtype {
        "c64" => Some("f32"),
        "c128" => Some("f64"),
        _ => None,
    } {
        // Real and imaginary parts drawn like a real tensor of the range.
        let parts = random_tensor(component, &[shape, &[2]].concat(), range);
        return parts.view_as_complex();
    }
    let k = kind(dtype);
    if let Range::Sorted = range {
        return random_tensor(dtype, shape, Range::Default).sort(-1, false).0;
    }
    if let (Range::Spd | Range::DiagDominant, [.., n, _]) = (range, shape) {
        let x = random_tensor(dtype, shape, Range::Default);
        let eye = tch::Tensor::eye(*n, (kind(dtype), tch::Device::Cpu));
        return match range {
            Range::Spd => x.matmul(&x.transpose(-2, -1)) / (*n as f64) + eye,
            _ => x + eye * (2.0 * *n as f64),
        };
    }
    match (k, range) {
        (tch::Kind::Bool, _) => tch::Tensor::randint(2, shape, (tch::Kind::Int64, tch::Device::Cpu)).to_kind(k),
        (_, Range::Ints(a, b)) => {
            tch::Tensor::randint_low(a, b, shape, (tch::Kind::Int64, tch::Device::Cpu)).to_kind(k)
        }
        (tch::Kind::Uint8, _) => {
            tch::Tensor::randint_low(0, 11, shape, (tch::Kind::Int64, tch::Device::Cpu)).to_kind(k)
        }
        (tch::Kind::Int64 | tch::Kind::Int | tch::Kind::Int16 | tch::Kind::Int8, _) => {
            tch::Tensor::randint_low(-5, 6, shape, (tch::Kind::Int64, tch::Device::Cpu)).to_kind(k)
        }
        (_, Range::Positive) => tch::Tensor::rand(shape, (k, tch::Device::Cpu)) * 1.9 + 0.1,
        (_, Range::Unit) => tch::Tensor::rand(shape, (k, tch::Device::Cpu)),
        _ => tch::Tensor::rand(shape, (k, tch::Device::Cpu)) * 4.0 - 2.0,
    }
}

/// The aten module text of one op on `sample`, and its inputs.
fn build_module(
    schema: &OpSchema,
    sample: &[(String, SampleValue)],
    result_types: Option<Vec<String>>,
) -> Result<(String, Vec<tch::Tensor>), String> {
    let returns = returned_results(sample);
    let sample: Vec<(String, SampleValue)> = sample.iter().filter(|(n, _)| n != "returns").cloned().collect();
    let sample = sample.as_slice();
    for (name, _) in sample {
        if !schema.arguments.iter().any(|a| a.name == *name) {
            return Err(format!("sample names '{name}', which {} does not have", schema.target_name()));
        }
    }
    let context = create_context();
    let location = Location::unknown(&context);
    // Tensors become function arguments, in sample order.
    let mut specs: Vec<(String, Vec<i64>, Range)> = Vec::new();
    for (_, value) in sample {
        let items: Vec<&SampleValue> = match value {
            SampleValue::Tensors(items) => items.iter().flatten().collect(),
            v => vec![v],
        };
        for item in items {
            if let SampleValue::Tensor { dtype, shape, range } = item {
                specs.push((dtype.clone(), shape.clone(), *range));
            }
        }
    }
    let arg_types: Vec<Type> = specs
        .iter()
        .map(|(dtype, shape, _)| {
            let dims: Vec<u64> = shape.iter().map(|&d| d as u64).collect();
            RankedTensorType::new(&dims, element(&context, dtype), None).into()
        })
        .collect();
    let inputs: Vec<tch::Tensor> =
        specs.iter().map(|(dtype, shape, range)| random_tensor(dtype, shape, *range)).collect();
    let block_args: Vec<(Type, Location)> = arg_types.iter().map(|t| (*t, location)).collect();
    let block = Block::new(&block_args);
    let mut next_arg = 0usize;
    let mut values: Vec<(String, ArgValue)> = Vec::new();
    for arg in schema.arguments {
        let ty = ArgType::parse(arg.ty);
        let given = sample.iter().find(|(n, _)| n == arg.name).map(|(_, v)| v);
        let mut take = || -> Value {
            next_arg += 1;
            block.argument(next_arg - 1).unwrap().into()
        };
        let value = match given {
            None => match &arg.default {
                Some(d) => match default_attribute(&context, d, &ty)? {
                    Some(attr) => ArgValue::Attribute(attr),
                    None => ArgValue::Absent,
                },
                None => return Err(format!("sample misses required argument '{}'", arg.name)),
            },
            Some(SampleValue::None) => ArgValue::Absent,
            Some(SampleValue::Tensor { .. }) => ArgValue::Operands(vec![take()]),
            Some(SampleValue::Tensors(items)) => {
                let mut ops = Vec::new();
                for item in items {
                    match item {
                        Some(_) => ops.push(take()),
                        None => {
                            let none = OperationBuilder::new(aten_ir::NONE_OP, location)
                                .add_results(&[Type::none(&context)])
                                .build()
                                .map_err(|e| e.to_string())?;
                            ops.push(block.append_operation(none).result(0).unwrap().into());
                        }
                    }
                }
                ArgValue::Operands(ops)
            }
            Some(SampleValue::Dtype(d)) => ArgValue::Attribute(TypeAttribute::new(element(&context, d)).into()),
            Some(SampleValue::Str(s)) => ArgValue::Attribute(StringAttribute::new(&context, s).into()),
            Some(other) => {
                let arg_value = match other {
                    SampleValue::Int(i) => Argument::AsInt(*i),
                    SampleValue::Float(f) => Argument::AsFloat(*f),
                    SampleValue::Bool(b) => Argument::AsBool(*b),
                    SampleValue::Ints(v) => Argument::AsInts(v.clone()),
                    SampleValue::Floats(v) => Argument::AsFloats(v.clone()),
                    SampleValue::Bools(v) => Argument::AsBools(v.clone()),
                    _ => unreachable!(),
                };
                ArgValue::Attribute(static_attribute(&context, &arg_value, Some(&ty))?)
            }
        };
        values.push((arg.name.to_string(), value));
    }
    let results: Vec<Type> = match &result_types {
        Some(types) => types.iter().map(|t| Type::parse(&context, t).unwrap()).collect(),
        None => vec![Type::parse(&context, "tensor<*xf32>").unwrap()],
    };
    let get = |name: &str| values.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone()).unwrap_or(ArgValue::Absent);
    let op = aten_ir::build_op(&context, schema, &get, &results, Location::name(&context, "op", location))?;
    let op = block.append_operation(op);
    let all: Vec<Value> = op.results().map(Into::into).collect();
    let outs: Vec<Value> = match (&returns, &result_types) {
        (Some(keep), Some(_)) => keep.iter().filter_map(|&i| all.get(i).copied()).collect(),
        _ => all,
    };
    let out_types: Vec<Type> = outs.iter().map(|v| melior::ir::ValueLike::r#type(v)).collect();
    let ret = OperationBuilder::new("func.return", location).add_operands(&outs).build().map_err(|e| e.to_string())?;
    block.append_operation(ret);
    let region = Region::new();
    region.append_block(block);
    let function = OperationBuilder::new("func.func", location)
        .add_attributes(&[
            (Identifier::new(&context, "sym_name"), StringAttribute::new(&context, "forward").into()),
            (
                Identifier::new(&context, "function_type"),
                TypeAttribute::new(FunctionType::new(&context, &arg_types, &out_types).into()).into(),
            ),
        ])
        .add_regions([region])
        .build()
        .map_err(|e| e.to_string())?;
    let module = Module::new(location);
    module.body().append_operation(function);
    Ok((module::print(&module, PrintOptions::default()), inputs))
}

/// The MLIR type of a libtorch result.
fn type_of(value: &RtValue) -> Result<String, String> {
    let t = value.tensor().ok_or("the op returns a non-tensor (tested through the corpus instead)")?;
    let elem = match t.kind() {
        tch::Kind::Float => "f32",
        tch::Kind::Double => "f64",
        tch::Kind::Int64 => "i64",
        tch::Kind::Int => "i32",
        tch::Kind::Bool => "i1",
        tch::Kind::Half => "f16",
        tch::Kind::BFloat16 => "bf16",
        tch::Kind::Int8 => "i8",
        tch::Kind::Uint8 => "ui8",
        tch::Kind::Int16 => "i16",
        tch::Kind::ComplexFloat => "complex<f32>",
        tch::Kind::ComplexDouble => "complex<f64>",
        other => return Err(format!("result kind {other:?}")),
    };
    let dims: Vec<String> = t.size().iter().map(|d| d.to_string()).collect();
    Ok(if dims.is_empty() { format!("tensor<{elem}>") } else { format!("tensor<{}x{elem}>", dims.join("x")) })
}

/// How far the current [`check`] got: 0 building inputs, 1 libtorch,
/// 2 converting, 3 onnxruntime (read by the sample fuzzer after a panic).
pub(crate) static STAGE: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Runs one (rule, dtype, sample); `Err` explains a mismatch.
/// The random seed of a (rule, dtype, sample) case: a stable hash (FNV-1a)
/// of the three, so a case keeps its inputs when rules, dtypes or samples
/// are added or removed elsewhere, and when only some rules run
/// (`ATEN2ONNX_ONLY`). `index` only names the scratch files.
fn sample_seed(target: &str, dtype: &str, sample: &str) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in target.bytes().chain([0]).chain(dtype.bytes()).chain([0]).chain(sample.bytes()) {
        h ^= byte as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (h >> 1) as i64
}

pub(crate) fn check(rule: &Rule, dtype: &str, sample: &str, dir: &std::path::Path, index: usize) -> Result<(), String> {
    check_with(rule, dtype, sample, dir, index, &ConvertOptions::default())
}

/// [`check`] converting with `options` (tests/integration/decompose.rs
/// forces a decomposition with `decompose`).
pub(crate) fn check_with(
    rule: &Rule,
    dtype: &str,
    sample: &str,
    dir: &std::path::Path,
    index: usize,
    options: &ConvertOptions,
) -> Result<(), String> {
    STAGE.store(0, std::sync::atomic::Ordering::Relaxed);
    let schema = schema_of(rule);
    let parsed = parse_sample(sample, dtype)?;
    let seed = sample_seed(rule.target, dtype, sample);
    tch::manual_seed(seed);
    let (probe_text, inputs) = build_module(schema, &parsed, None)?;
    let context = create_context();
    let probe = module::parse(&context, &probe_text, "probe.mlir").map_err(|e| e.to_string())?;
    // Stages for the sample fuzzer (tests/integration/sample_fuzz.rs): a crash
    // (a signal) is then placed in libtorch or in the converter.
    let stage = |what: &str| {
        let n = ["libtorch", "convert", "onnxruntime"].iter().position(|s| *s == what).map_or(0, |i| i as u8 + 1);
        STAGE.store(n, std::sync::atomic::Ordering::Relaxed);
        if std::env::var_os("ATEN2ONNX_FUZZ_VERBOSE").is_some() {
            eprintln!("stage: {what}");
        }
    };
    stage("libtorch");
    let eager = interp::probe_last_op(&probe, inputs.iter().map(|t| RtValue::Tensor(t.copy())).collect())
        .map_err(|e| format!("libtorch refused the sample: {e}"))?;
    let types: Vec<String> = eager.iter().map(type_of).collect::<Result<_, _>>()?;
    tch::manual_seed(seed);
    let (text, inputs) = build_module(schema, &parsed, Some(types))?;
    let mlir = dir.join(format!("case{index}.mlir"));
    std::fs::write(&mlir, &text).unwrap();
    let expected = interp::run(
        &module::parse(&context, &text, "case.mlir").map_err(|e| e.to_string())?,
        inputs.iter().map(|t| RtValue::Tensor(t.copy())).collect(),
        false,
    )
    .map_err(|e| e.to_string())?;
    let onnx = dir.join(format!("case{index}.onnx"));
    stage("convert");
    translate::convert(mlir.to_str().unwrap(), &onnx, options).map_err(|e| format!("conversion: {e}\n{text}"))?;
    stage("onnxruntime");
    let got = match run_onnx(&onnx, &inputs) {
        Ok(got) => got,
        Err(e) => {
            let e = e.to_string();
            let Some(op) = ort_kernel_gap(&e) else { return Err(format!("{e}\n{text}")) };
            // No CPU kernel in onnxruntime: checked with onnx.checker and
            // shape inference at the end of the run (see `check_ort_gaps`).
            let expected: Vec<(String, Vec<i64>)> = expected
                .outputs
                .iter()
                .map(|o| o.tensor().map(|t| (format!("{:?}", t.kind()), t.size())).unwrap_or_default())
                .collect();
            ORT_GAPS.lock().unwrap().push(OrtGap {
                label: format!("{} [{dtype}] {{{sample}}}", rule.target),
                op,
                onnx: onnx.clone(),
                expected,
            });
            return Ok(());
        }
    };
    for (i, ((_, g), e)) in got.iter().zip(&expected.outputs).enumerate() {
        let e = e.tensor().unwrap();
        // A complex result is written as its real view (lowering/complex.rs).
        let real_view = e.is_complex().then(|| e.resolve_conj().resolve_neg().view_as_real());
        let e = real_view.as_ref().unwrap_or(e);
        if g.size() != e.size() {
            return Err(format!("result {i}: shape {:?}, libtorch {:?}\n{text}", g.size(), e.size()));
        }
        if g.kind() != e.kind() {
            return Err(format!("result {i}: dtype {:?}, libtorch {:?}\n{text}", g.kind(), e.kind()));
        }
        if g.numel() == 0 || SHAPE_ONLY.iter().any(|(t, _)| *t == rule.target) {
            continue;
        }
        let (gd, ed) = (g.to_kind(tch::Kind::Double), e.to_kind(tch::Kind::Double));
        let same = gd.eq_tensor(&ed).logical_or(&gd.isnan().logical_and(&ed.isnan()));
        let diff = (&gd - &ed).abs().masked_fill(&same, 0.0);
        let (atol, rtol) = tolerance(e.kind());
        let bound = ed.abs() * rtol + atol;
        let exact = !matches!(e.kind(), tch::Kind::Float | tch::Kind::Double | tch::Kind::Half | tch::Kind::BFloat16);
        let bad = if exact {
            diff.gt(0.0).any().int64_value(&[]) != 0
        } else {
            diff.gt_tensor(&bound).any().int64_value(&[]) != 0
        };
        if bad {
            return Err(format!("result {i}: max |diff| {:.3e}\n{text}", diff.max().double_value(&[])));
        }
    }
    Ok(())
}

/// A case onnxruntime could not run for want of a CPU kernel.
pub(crate) struct OrtGap {
    label: String,
    /// The op (and opset) onnxruntime names, e.g. `Mul(14)`.
    op: String,
    onnx: std::path::PathBuf,
    /// libtorch's result kinds (`tch::Kind` debug names) and shapes.
    expected: Vec<(String, Vec<i64>)>,
}

pub(crate) static ORT_GAPS: std::sync::Mutex<Vec<OrtGap>> = std::sync::Mutex::new(Vec::new());

/// The op onnxruntime names when it has no kernel for it ("Could not find an
/// implementation for Mul(14) node with name ..."), or `None` for any other error.
fn ort_kernel_gap(error: &str) -> Option<String> {
    if let Some(i) = error.find("Could not find an implementation for ") {
        let rest = &error[i + "Could not find an implementation for ".len()..];
        return Some(rest.split_whitespace().next().unwrap_or("?").to_string());
    }
    // A kernel that exists but refuses the dtype at run time ("CPU execution
    // provider: MLFloat16 data type is not supported with ScatterND opset 16
    // when reduction is 'add'").
    if let Some(i) = error.find(" data type is not supported with ") {
        let rest = &error[i + " data type is not supported with ".len()..];
        return Some(rest.split(" when").next().unwrap_or(rest).trim().to_string());
    }
    error.contains("NOT_IMPLEMENTED").then(|| "NOT_IMPLEMENTED".to_string())
}

/// Checks the models of the ORT-gap cases with `onnx.checker` (full check:
/// strict shape inference) and compares their output dtypes and shapes with
/// libtorch's; returns one failure per case that does not pass.
fn check_ort_gaps(gaps: &[OrtGap]) -> Vec<String> {
    if gaps.is_empty() {
        return Vec::new();
    }
    let Some(python) = crate::export::python() else {
        return gaps
            .iter()
            .map(|g| format!("{}: no kernel in onnxruntime ({}) and no python to check", g.label, g.op))
            .collect();
    };
    const SCRIPT: &str = r#"
import sys, onnx
from onnx import TensorProto as P
names = {P.FLOAT: "Float", P.DOUBLE: "Double", P.FLOAT16: "Half", P.BFLOAT16: "BFloat16", P.INT64: "Int64",
         P.INT32: "Int", P.INT16: "Int16", P.INT8: "Int8", P.UINT8: "Uint8", P.BOOL: "Bool"}
for path in sys.argv[1:]:
    try:
        m = onnx.load(path)
        onnx.checker.check_model(m, full_check=True)
        m = onnx.shape_inference.infer_shapes(m, check_type=True, strict_mode=True)
        outs = []
        for o in m.graph.output:
            t = o.type.tensor_type
            dims = ",".join(str(d.dim_value) if d.HasField("dim_value") else "?" for d in t.shape.dim)
            outs.append(names.get(t.elem_type, str(t.elem_type)) + "[" + dims + "]")
        print("OK " + " ".join(outs))
    except Exception as e:
        print("FAIL " + " ".join(str(e).split())[:300])
"#;
    let out = std::process::Command::new(python)
        .arg("-c")
        .arg(SCRIPT)
        .args(gaps.iter().map(|g| &g.onnx))
        .output()
        .expect("run python");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    let mut failures = Vec::new();
    for (i, gap) in gaps.iter().enumerate() {
        let want: Vec<String> = gap
            .expected
            .iter()
            .map(|(k, s)| format!("{k}[{}]", s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(",")))
            .collect();
        match lines.get(i) {
            Some(line) if line.starts_with("OK") => {
                let got: Vec<&str> = line[2..].split_whitespace().collect();
                if got != want {
                    failures.push(format!(
                        "{} (no onnxruntime kernel: {}): onnx shape inference gives {got:?}, libtorch {want:?}",
                        gap.label, gap.op
                    ));
                }
            }
            other => failures.push(format!(
                "{} (no onnxruntime kernel: {}): onnx.checker: {}",
                gap.label,
                gap.op,
                other.unwrap_or(&"no answer").trim_start_matches("FAIL ")
            )),
        }
    }
    failures
}

/// Rules whose values torch leaves unspecified (`empty` and friends): only
/// the shape and dtype of their results are compared.
const SHAPE_ONLY: &[(&str, &str)] = &[
    ("aten.empty.memory_format", "uninitialized memory in torch; the lowering gives zeros"),
    ("aten.empty_strided.default", "uninitialized memory in torch; the lowering gives zeros"),
    ("aten.empty_like.default", "uninitialized memory in torch; the lowering gives zeros"),
    ("aten.new_empty.default", "uninitialized memory in torch; the lowering gives zeros"),
    ("aten.new_empty_strided.default", "uninitialized memory in torch; the lowering gives zeros"),
    ("aten.empty_permuted.default", "uninitialized memory in torch; the lowering gives zeros"),
];

/// Rules whose op does not return a tensor (a one-op module cannot return
/// their value as an ONNX output; the corpus and tests/ops cover them), or
/// returns random values (tests/integration/random.rs checks them).
pub(crate) const NOT_DIFFERENTIAL: &[(&str, &str)] = &[
    ("aten.sym_size.int", "returns a SymInt; covered by the dynamic-shape corpus models and tests/ops/sym_size"),
    ("aten.sym_numel.default", "returns a SymInt; covered by tests/ops/sym_numel"),
    (
        "aten.hash_tensor.default",
        "returns uint64, a dtype tch 0.26 cannot read (Kind panics); covered by tests/ops/hash_tensor (as int64) and the OpInfo sweep",
    ),
    ("aten.sym_is_contiguous.default", "returns a SymBool; covered by tests/ops/sym_is_contiguous"),
    (
        "aten.sym_storage_offset.default",
        "returns a SymInt read from the capture's tensor meta; covered by tests/ops/sym_storage_offset_split",
    ),
    (
        "aten.sym_stride.int",
        "returns a SymInt read from the capture's tensor meta; covered by lit-tests/convert-aten-to-onnx.mlir",
    ),
    ("aten._assert_tensor_metadata.default", "returns nothing; covered by tests/ops"),
    ("aten._local_scalar_dense.default", "returns a Scalar; covered by tests/ops/tensors_item_core"),
    ("aten.item.default", "returns a Scalar; covered by tests/ops/tensors_item"),
    ("aten._assert_scalar.default", "returns nothing (a symbolic check); covered by tests/ops/tensors_nonzero"),
    ("aten._linalg_check_errors.default", "returns nothing (an error check); covered by tests/ops/core_linalg_inv"),
    ("aten.rand.default", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.randn.default", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.rand_like.default", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.randn_like.default", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.randint.default", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.randint.low", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.randperm.default", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.bernoulli.default", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.bernoulli.p", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.normal.Tensor_float", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.normal.float_Tensor", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.normal.Tensor_Tensor", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.normal.float_float", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.uniform.default", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.native_dropout.default", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    (
        "aten.normal_functional.default",
        "random: tested on shape, dtype, range and moments in tests/integration/random.rs",
    ),
    ("aten.cauchy.default", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.exponential.default", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.geometric.default", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.log_normal.default", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.multinomial.default", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.randint_like.default", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    ("aten.randint_like.low_dtype", "random: tested on shape, dtype, range and moments in tests/integration/random.rs"),
    (
        "aten.linalg_polar.default",
        "new in torch 2.15: libtorch 2.13 has no such op; covered by tests/ops/linalg_polar (captured with 2.15, f32 and f64)",
    ),
    (
        "aten.linalg_matrix_sqrth.default",
        "new in torch 2.15: libtorch 2.13 has no such op; covered by tests/ops/linalg_matrix_sqrth (captured with 2.15, f32 and f64)",
    ),
];

/// The samples the differential test runs for `rule`: its own, else the
/// defaults of 1:1 rules.
pub(crate) fn samples_of(rule: &Rule) -> Vec<String> {
    if rule.samples.is_empty() {
        default_samples(rule)
    } else {
        rule.samples.iter().map(|s| s.to_string()).collect()
    }
}

/// Every rule, every dtype it claims, every sample.
#[test]
fn every_rule_matches_libtorch() {
    if crate::parity::ort_missing() {
        return;
    }
    let dir = crate::scratch_dir("differential");
    let mut failures = Vec::new();
    let mut without_samples = Vec::new();
    let (mut rules, mut runs) = (0, 0);
    let mut index = 0;
    // ATEN2ONNX_ONLY=a,b: only the rules whose target contains a or b.
    let only = std::env::var("ATEN2ONNX_ONLY").ok();
    for rule in lowering::all_rules() {
        if only.as_ref().is_some_and(|o| !o.split(',').any(|p| rule.target.contains(p))) {
            continue;
        }
        rules += 1;
        if let Some((_, why)) = NOT_DIFFERENTIAL.iter().find(|(t, _)| *t == rule.target) {
            eprintln!("{}: not differential ({why})", rule.target);
            continue;
        }
        // Ops of other namespaces (quantized_decomposed::, torchao::) are
        // registered by Python code (torch.ao, torchao), not in libtorch:
        // the dispatcher has no kernel to compare with. Their op cases
        // (tests/ops/quant_*) hold the eager outputs instead.
        if rule.target.contains("::") {
            eprintln!("{}: not differential (a Python-registered op; covered by tests/ops/quant_*)", rule.target);
            continue;
        }
        let samples = samples_of(rule);
        if samples.is_empty() && rule.complex_samples.is_empty() {
            without_samples.push(rule.target);
            continue;
        }
        // Complex samples: `C` = complex64 / complex128, `T` its component.
        for dtype in ["c64", "c128"] {
            for sample in rule.complex_samples {
                index += 1;
                runs += 1;
                if let Err(e) = check(rule, dtype, sample, &dir, index) {
                    failures.push(format!("{} [{dtype}] {{{sample}}}: {e}", rule.target));
                }
            }
        }
        for dtype in rule.dtypes {
            for sample in &samples {
                index += 1;
                runs += 1;
                if let Err(e) = check(rule, dtype, sample, &dir, index) {
                    failures.push(format!("{} [{dtype}] {{{sample}}}: {e}", rule.target));
                }
            }
        }
        for (sample, message) in rule.refuses {
            index += 1;
            let refused = match check(rule, rule.dtypes[0], sample, &dir, index) {
                Ok(()) => false,
                Err(e) => e.contains(message),
            };
            if !refused {
                failures.push(format!("{}: sample {{{sample}}} should be refused with '{message}'", rule.target));
            }
        }
    }
    let gaps = std::mem::take(&mut *ORT_GAPS.lock().unwrap());
    failures.extend(check_ort_gaps(&gaps));
    let mut gap_ops: Vec<String> = Vec::new();
    for g in &gaps {
        let dtype = g.label.split('[').nth(1).and_then(|s| s.split(']').next()).unwrap_or("?");
        let key = format!("{} at {dtype}", g.op);
        if !gap_ops.contains(&key) {
            gap_ops.push(key);
        }
    }
    eprintln!(
        "differential: {} case(s) have no onnxruntime CPU kernel (checked with onnx.checker + shape inference \
         instead of run): {}",
        gaps.len(),
        gap_ops.join(", ")
    );
    for g in &gaps {
        eprintln!("  ORT kernel gap: {} -> {}", g.label, g.op);
    }
    eprintln!("differential: {rules} rules, {runs} (rule, dtype, sample) runs, {} failures", failures.len());
    for f in failures.iter().take(3) {
        eprintln!("{f}\n---");
    }
    assert!(
        without_samples.is_empty(),
        "rules without samples (declare .samples(&[..])):\n  {}",
        without_samples.join("\n  ")
    );
    assert!(failures.is_empty(), "{} differential failures:\n{}", failures.len(), failures.join("\n---\n"));
}
