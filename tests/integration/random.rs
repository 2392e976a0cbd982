//! Random ops (`rand`, `randn`, `*_like`, `randint`, `randperm`,
//! `bernoulli`, `normal`, `uniform_`, `normal_`, `native_dropout`): their values cannot
//! be compared with torch's, so a program using them is captured with
//! torch.export, converted (opset 21: onnxruntime 1.32 has no kernels for the
//! opset-22 random ops), run in onnxruntime several times, and each output
//! is checked on shape, dtype, range and moments (mean and standard
//! deviation within about 6 standard errors), and on changing between runs.
#![cfg(feature = "torch")]

use aten2onnx::{
    translate::{convert, ConvertOptions},
    verify::ort_environment,
};
use ort::{session::Session, value::Tensor};

/// Runs `model` `runs` times in one onnxruntime session on float32 inputs.
fn run_many(model: &std::path::Path, inputs: &[tch::Tensor], runs: usize) -> Result<Vec<Vec<tch::Tensor>>, String> {
    let env = ort_environment()?;
    let builder = Session::builder(env).map_err(|e| e.to_string())?;
    let mut builder = builder.with_intra_threads(2).map_err(|e| e.to_string())?;
    let mut session = builder.commit_from_file(model).map_err(|e| e.to_string())?;
    let names: Vec<String> = session.inputs().iter().map(|i| i.name().to_string()).collect();
    let count = session.outputs().len();
    let mut all = Vec::new();
    for _ in 0..runs {
        let mut feeds = Vec::new();
        for (name, t) in names.iter().zip(inputs) {
            let n = t.numel();
            let mut v = vec![0f32; n];
            t.contiguous().copy_data(&mut v, n);
            feeds.push((name.clone(), Tensor::from_array((t.size(), v)).map_err(|e| e.to_string())?.into_dyn()));
        }
        let outputs = session.run(feeds).map_err(|e| e.to_string())?;
        let mut got = Vec::new();
        for i in 0..count {
            let value = &outputs[i];
            let t = if let Ok((shape, data)) = value.try_extract_tensor::<f32>() {
                tch::Tensor::from_slice(data).reshape(shape.to_vec())
            } else if let Ok((shape, data)) = value.try_extract_tensor::<f64>() {
                tch::Tensor::from_slice(data).reshape(shape.to_vec())
            } else if let Ok((shape, data)) = value.try_extract_tensor::<i64>() {
                tch::Tensor::from_slice(data).reshape(shape.to_vec())
            } else {
                return Err(format!("output {i} has an unexpected type"));
            };
            got.push(t);
        }
        all.push(got);
    }
    Ok(all)
}

/// Captures the random programs (TRAINING IR, and core ATen for
/// `native_dropout`) into `dir`.
const CAPTURE: &str = r#"
import sys, torch, torch.nn.functional as F
out = sys.argv[1]

class Random(torch.nn.Module):
    def forward(self, x, p):
        n = 20000
        u = x.clone().uniform_(-2.0, 3.0)
        return (torch.rand(n), torch.randn(200, 100), torch.rand_like(x), torch.randn_like(x),
                torch.randint(-3, 5, (n,)), torch.randint(7, (n,)), torch.randperm(50),
                torch.bernoulli(p), torch.bernoulli(x, 0.25), torch.normal(x, 2.0),
                torch.normal(1.0, 0.5, (n,)), torch.normal(-1.0, p + 1.0), torch.normal(x, p + 2.0), u,
                torch.rand(n, dtype=torch.float64))

class Dropout(torch.nn.Module):
    def forward(self, x):
        return F.dropout(x, 0.25, training=True), x.clone().normal_(2.0, 0.5)

x = torch.zeros(20000)
p = torch.full((20000,), 0.3)
torch.export.save(torch.export.export(Random(), (x, p), strict=False), f"{out}/random.pt2")
ep = torch.export.export(Dropout(), (torch.ones(20000),), strict=False).run_decompositions()
targets = {str(n.target) for n in ep.graph.nodes}
assert "aten.native_dropout.default" in targets and "aten.normal_functional.default" in targets, targets
torch.export.save(ep, f"{out}/dropout.pt2")
"#;

fn stats(t: &tch::Tensor) -> (f64, f64, f64, f64) {
    let d = t.to_kind(tch::Kind::Double);
    (d.mean(tch::Kind::Double).double_value(&[]), d.std(true).double_value(&[]), d.min().double_value(&[]), d.max().double_value(&[]))
}

/// `|got - want| <= k * se`.
fn near(what: &str, got: f64, want: f64, se: f64) -> Result<(), String> {
    if (got - want).abs() <= 6.0 * se {
        Ok(())
    } else {
        Err(format!("{what}: {got:.4} is not within 6 standard errors ({se:.4}) of {want:.4}"))
    }
}

/// Mean and standard deviation of `n` draws against a distribution's.
fn moments(name: &str, t: &tch::Tensor, mean: f64, std: f64) -> Result<(), String> {
    let n = t.numel() as f64;
    let (m, s, _, _) = stats(t);
    near(&format!("{name} mean"), m, mean, std / n.sqrt())?;
    // The standard error of a sample std is about std / sqrt(2n).
    near(&format!("{name} std"), s, std, std / (2.0 * n).sqrt() * 1.5)
}

fn range(name: &str, t: &tch::Tensor, lo: f64, hi_exclusive: f64) -> Result<(), String> {
    let (_, _, min, max) = stats(t);
    if min < lo || max >= hi_exclusive {
        return Err(format!("{name}: values in [{min}, {max}], expected [{lo}, {hi_exclusive})"));
    }
    Ok(())
}

fn check_random(outputs: &[tch::Tensor]) -> Result<(), String> {
    use tch::Kind;
    let o = |i: usize| &outputs[i];
    let expect = |i: usize, kind: Kind, shape: &[i64]| -> Result<(), String> {
        if o(i).kind() != kind || o(i).size() != shape {
            return Err(format!("output {i}: {:?} {:?}, expected {kind:?} {shape:?}", o(i).kind(), o(i).size()));
        }
        Ok(())
    };
    let n = 20000;
    // rand: U[0, 1)
    expect(0, Kind::Float, &[n])?;
    range("rand", o(0), 0.0, 1.0)?;
    moments("rand", o(0), 0.5, (1.0f64 / 12.0).sqrt())?;
    // randn: N(0, 1)
    expect(1, Kind::Float, &[200, 100])?;
    moments("randn", o(1), 0.0, 1.0)?;
    expect(2, Kind::Float, &[n])?;
    range("rand_like", o(2), 0.0, 1.0)?;
    moments("rand_like", o(2), 0.5, (1.0f64 / 12.0).sqrt())?;
    expect(3, Kind::Float, &[n])?;
    moments("randn_like", o(3), 0.0, 1.0)?;
    // randint(-3, 5): uniform on 8 integers, mean 0.5, variance (8^2 - 1) / 12
    expect(4, Kind::Int64, &[n])?;
    range("randint.low", o(4), -3.0, 5.0)?;
    moments("randint.low", o(4), 0.5, (63.0f64 / 12.0).sqrt())?;
    for v in -3..5 {
        if o(4).eq(v).sum(Kind::Int64).int64_value(&[]) == 0 {
            return Err(format!("randint.low never drew {v}"));
        }
    }
    expect(5, Kind::Int64, &[n])?;
    range("randint", o(5), 0.0, 7.0)?;
    moments("randint", o(5), 3.0, 2.0)?;
    // randperm(50): a permutation
    expect(6, Kind::Int64, &[50])?;
    let sorted = o(6).sort(0, false).0;
    if sorted != tch::Tensor::arange(50, (Kind::Int64, tch::Device::Cpu)) {
        return Err(format!("randperm is not a permutation: {:?}", Vec::<i64>::try_from(o(6)).unwrap()));
    }
    // bernoulli(p = 0.3) and bernoulli(x, 0.25): 0/1, mean p, std sqrt(p(1-p))
    for (i, p) in [(7, 0.3), (8, 0.25)] {
        expect(i, Kind::Float, &[n])?;
        let binary = o(i).eq(0.0).logical_or(&o(i).eq(1.0)).all().int64_value(&[]) != 0;
        if !binary {
            return Err(format!("bernoulli output {i} has values other than 0 and 1"));
        }
        moments(&format!("bernoulli output {i}"), o(i), p, (p * (1.0 - p)).sqrt())?;
    }
    // normal(x = 0, 2), normal(1, 0.5, size), normal(-1, p + 1 = 1.3), normal(x, p + 2 = 2.3)
    for (i, mean, std) in [(9, 0.0, 2.0), (10, 1.0, 0.5), (11, -1.0, 1.3), (12, 0.0, 2.3)] {
        expect(i, Kind::Float, &[n])?;
        moments(&format!("normal output {i}"), o(i), mean, std)?;
    }
    // uniform_(-2, 3)
    expect(13, Kind::Float, &[n])?;
    range("uniform", o(13), -2.0, 3.0)?;
    moments("uniform", o(13), 0.5, 5.0 / 12f64.sqrt())?;
    // rand(dtype=float64)
    expect(14, Kind::Double, &[n])?;
    range("rand f64", o(14), 0.0, 1.0)?;
    moments("rand f64", o(14), 0.5, (1.0f64 / 12.0).sqrt())
}

fn check_dropout(outputs: &[tch::Tensor]) -> Result<(), String> {
    // ones through dropout(p = 0.25): 0 or 1 / 0.75, kept with probability 0.75.
    let y = &outputs[0];
    if y.kind() != tch::Kind::Float || y.size() != [20000] {
        return Err(format!("dropout: {:?} {:?}", y.kind(), y.size()));
    }
    let scale = 1.0 / 0.75;
    let valid = y.eq(0.0).logical_or(&(y - scale).abs().le(1e-6)).all().int64_value(&[]) != 0;
    if !valid {
        return Err("dropout output has values other than 0 and 1/(1-p)".into());
    }
    let kept = y.ne(0.0).to_kind(tch::Kind::Float);
    moments("dropout keep rate", &kept, 0.75, (0.75f64 * 0.25).sqrt())?;
    // x.normal_(2, 0.5) (normal_functional)
    moments("normal_", &outputs[1], 2.0, 0.5)
}

#[test]
fn random_ops_have_the_right_distributions() {
    if crate::parity::ort_missing() {
        return;
    }
    let Some(python) = crate::export::python() else { return };
    let dir = crate::scratch_dir("random");
    let capture = std::process::Command::new(&python)
        .arg("-c")
        .arg(CAPTURE)
        .arg(&dir)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", python.display()));
    assert!(capture.status.success(), "capture failed:\n{}", String::from_utf8_lossy(&capture.stderr));
    let options = ConvertOptions { opset: 21, opset_given: true, ..Default::default() };
    let cases: [(&str, Vec<tch::Tensor>, fn(&[tch::Tensor]) -> Result<(), String>); 2] = [
        (
            "random",
            vec![tch::Tensor::zeros([20000], (tch::Kind::Float, tch::Device::Cpu)), tch::Tensor::full([20000], 0.3, (tch::Kind::Float, tch::Device::Cpu))],
            check_random,
        ),
        ("dropout", vec![tch::Tensor::ones([20000], (tch::Kind::Float, tch::Device::Cpu))], check_dropout),
    ];
    for (name, inputs, check) in cases {
        let pt2 = dir.join(format!("{name}.pt2"));
        let onnx = dir.join(format!("{name}.onnx"));
        convert(pt2.to_str().unwrap(), &onnx, &options).unwrap_or_else(|e| panic!("converting {name}: {e}"));
        let runs = run_many(&onnx, &inputs, 4).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (run, outputs) in runs.iter().enumerate() {
            check(outputs).unwrap_or_else(|e| panic!("{name} run {run}: {e}"));
            // Each run draws new values.
            if run > 0 {
                for (i, (a, b)) in runs[run - 1].iter().zip(outputs).enumerate() {
                    if a.numel() > 100 && a.equal(b) {
                        panic!("{name} output {i} is the same in runs {} and {run}", run - 1);
                    }
                }
            }
        }
    }
}
