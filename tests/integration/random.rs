//! Random ops (`rand`, `randn`, `*_like`, `randint`, `randint_like`,
//! `randperm`, `bernoulli`, `normal`, `uniform_`, `normal_`, `cauchy_`,
//! `exponential_`, `geometric_`, `log_normal_`, `multinomial`, and the
//! training-mode `dropout` family, `rrelu` and SDPA's `dropout_p`): their
//! values cannot be compared with torch's, so programs using them are
//! captured with torch.export, converted at opset 21 and at the default
//! opset (onnxruntime 1.32 has no kernels for the opset-22 Random* ops: the
//! lowering draws from `Dropout` masks, rules/helpers/random_common.rs), run in
//! onnxruntime several times, and each output is checked on shape, dtype,
//! range and moments (mean and standard deviation within about 6 standard
//! errors), and on changing between runs. One program has a dynamic size.
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

class More(torch.nn.Module):
    def forward(self, x, w):
        return (x.clone().cauchy_(1.0, 2.0), x.clone().exponential_(2.0), x.clone().geometric_(0.3),
                x.clone().log_normal_(0.5, 0.25), x.clone().normal_(2.0, 0.5),
                torch.multinomial(w, 20000, replacement=True), torch.multinomial(w.expand(5000, 4), 2).float(),
                torch.randint_like(x, 10), torch.randint_like(x, -3, 5, dtype=torch.int64),
                torch.zeros(20000, dtype=torch.int64).geometric_(0.5), torch.multinomial(w, 1))

ep = torch.export.export(More(), (torch.zeros(20000), torch.tensor([1.0, 2.0, 3.0, 4.0])), strict=False)
targets = {str(n.target) for n in ep.graph.nodes}
for t in ["cauchy_", "exponential_", "geometric_", "log_normal_", "normal_", "multinomial", "randint_like"]:
    assert any(t in x for x in targets), (t, targets)
torch.export.save(ep, f"{out}/more.pt2")

class Train(torch.nn.Module):
    def forward(self, x, z, img, zimg):
        q = torch.zeros(1, 1, 400, 8)
        k = torch.zeros(1, 1, 200, 8)
        v = torch.ones(1, 1, 200, 8)
        return (F.dropout(x, 0.25, training=True), F.dropout2d(img, 0.4, training=True),
                F.alpha_dropout(z, 0.3, training=True), F.feature_alpha_dropout(zimg, 0.3, training=True),
                F.rrelu(-x, 0.1, 0.3, training=True), F.rrelu(x, 0.1, 0.3, training=True),
                F.scaled_dot_product_attention(q, k, v, dropout_p=0.3), F.dropout(x, 1.0, training=True))

ep = torch.export.export(Train(), (torch.ones(20000), torch.zeros(20000), torch.ones(200, 50, 2, 2),
                                   torch.zeros(200, 50, 2, 2)), strict=False)
targets = {str(n.target) for n in ep.graph.nodes}
for t in ["aten.dropout.default", "aten.feature_dropout.default", "aten.alpha_dropout.default",
          "aten.feature_alpha_dropout.default", "aten.rrelu.default", "aten.scaled_dot_product_attention.default"]:
    assert t in targets, (t, targets)
torch.export.save(ep, f"{out}/train.pt2")

class SmallDropout(torch.nn.Module):
    def forward(self, x):
        return (F.dropout(x, 0.5, training=True), F.dropout2d(x.reshape(1, 64, 1), 0.3, training=True))

torch.export.save(torch.export.export(SmallDropout(), (torch.ones(64),), strict=False), f"{out}/small_dropout.pt2")

class Dynamic(torch.nn.Module):
    def forward(self, x, p):
        n = x.shape[0]
        return (torch.rand(n), torch.randn_like(x), torch.bernoulli(p), torch.randint(0, 7, (n,)),
                F.dropout(x + 1, 0.25, training=True), torch.randint_like(x, 3, 9))

n = torch.export.Dim("n", min=2)
ep = torch.export.export(Dynamic(), (torch.zeros(20000), torch.full((20000,), 0.3)),
                         dynamic_shapes={"x": {0: n}, "p": {0: n}}, strict=False)
torch.export.save(ep, f"{out}/dynamic.pt2")
"#;

fn stats(t: &tch::Tensor) -> (f64, f64, f64, f64) {
    let d = t.to_kind(tch::Kind::Double);
    (
        d.mean(tch::Kind::Double).double_value(&[]),
        d.std(true).double_value(&[]),
        d.min().double_value(&[]),
        d.max().double_value(&[]),
    )
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
    let d = t.to_kind(tch::Kind::Double);
    let (min, max) = (d.min().double_value(&[]), d.max().double_value(&[]));
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

/// The fraction of `t`'s elements where `pred` holds, as Bernoulli draws
/// with probability `p`.
fn fraction(name: &str, hits: &tch::Tensor, p: f64) -> Result<(), String> {
    moments(name, &hits.to_kind(tch::Kind::Double), p, (p * (1.0 - p)).sqrt())
}

fn expect_shape(name: &str, t: &tch::Tensor, kind: tch::Kind, shape: &[i64]) -> Result<(), String> {
    if t.kind() != kind || t.size() != shape {
        return Err(format!("{name}: {:?} {:?}, expected {kind:?} {shape:?}", t.kind(), t.size()));
    }
    Ok(())
}

fn all(t: &tch::Tensor) -> bool {
    t.all().int64_value(&[]) != 0
}

fn check_more(o: &[tch::Tensor]) -> Result<(), String> {
    use tch::Kind;
    let n = 20000;
    // cauchy_(1, 2): median 1, quartiles at 1 -+ 2.
    expect_shape("cauchy", &o[0], Kind::Float, &[n])?;
    fraction("cauchy below the median", &o[0].lt(1.0), 0.5)?;
    fraction("cauchy within the quartiles", &(&o[0] - 1.0).abs().lt(2.0), 0.5)?;
    if !all(&o[0].isfinite()) {
        return Err("cauchy has non-finite values".into());
    }
    // exponential_(2): mean = std = 0.5, positive.
    expect_shape("exponential", &o[1], Kind::Float, &[n])?;
    range("exponential", &o[1], 1e-30, f64::INFINITY)?;
    moments("exponential", &o[1], 0.5, 0.5)?;
    // geometric_(0.3): integers >= 1, mean 1/p, std sqrt(1-p)/p.
    for (i, kind, p) in [(2, Kind::Float, 0.3), (9, Kind::Int64, 0.5)] {
        expect_shape("geometric", &o[i], kind, &[n])?;
        range("geometric", &o[i], 1.0, f64::INFINITY)?;
        let d = o[i].to_kind(Kind::Double);
        if !all(&d.eq_tensor(&d.floor())) {
            return Err("geometric has non-integer values".into());
        }
        moments(&format!("geometric({p})"), &o[i], 1.0 / p, (1.0f64 - p).sqrt() / p)?;
    }
    // log_normal_(0.5, 0.25): positive, log ~ N(0.5, 0.25^2).
    expect_shape("log_normal", &o[3], Kind::Float, &[n])?;
    range("log_normal", &o[3], 1e-30, f64::INFINITY)?;
    moments("log of log_normal", &o[3].log(), 0.5, 0.25)?;
    // normal_(2, 0.5) in the training IR (normal_ -> normal_functional).
    expect_shape("normal_", &o[4], Kind::Float, &[n])?;
    moments("normal_", &o[4], 2.0, 0.5)?;
    // multinomial with replacement over weights 1:2:3:4.
    expect_shape("multinomial", &o[5], Kind::Int64, &[n])?;
    range("multinomial", &o[5], 0.0, 4.0)?;
    for k in 0..4 {
        fraction(&format!("multinomial draws of {k}"), &o[5].eq(k), (k + 1) as f64 / 10.0)?;
    }
    // Without replacement, 2 of 4, 5000 rows: distinct; the first follows the weights.
    expect_shape("multinomial without replacement", &o[6], Kind::Float, &[5000, 2])?;
    let first = o[6].select(1, 0);
    let second = o[6].select(1, 1);
    if !all(&first.ne_tensor(&second)) {
        return Err("multinomial without replacement drew a category twice".into());
    }
    for k in 0..4 {
        fraction(&format!("first draw without replacement of {k}"), &first.eq(k as f64), (k + 1) as f64 / 10.0)?;
    }
    // randint_like(x, 10): float integers in [0, 10); low_dtype(-3, 5) int64.
    expect_shape("randint_like", &o[7], Kind::Float, &[n])?;
    range("randint_like", &o[7], 0.0, 10.0)?;
    if !all(&o[7].eq_tensor(&o[7].floor())) {
        return Err("randint_like has non-integer values".into());
    }
    moments("randint_like", &o[7], 4.5, (99.0f64 / 12.0).sqrt())?;
    expect_shape("randint_like.low_dtype", &o[8], Kind::Int64, &[n])?;
    range("randint_like.low_dtype", &o[8], -3.0, 5.0)?;
    moments("randint_like.low_dtype", &o[8], 0.5, (63.0f64 / 12.0).sqrt())?;
    expect_shape("multinomial(n=1)", &o[10], Kind::Int64, &[1])?;
    range("multinomial(n=1)", &o[10], 0.0, 4.0)
}

fn check_train(o: &[tch::Tensor]) -> Result<(), String> {
    use tch::Kind;
    let n = 20000;
    // dropout(ones, 0.25): 0 or 4/3, kept 3/4 of the time.
    expect_shape("dropout", &o[0], Kind::Float, &[n])?;
    let scale = 1.0 / 0.75;
    if !all(&o[0].eq(0.0).logical_or(&(&o[0] - scale).abs().le(1e-6))) {
        return Err("dropout output has values other than 0 and 1/(1-p)".into());
    }
    fraction("dropout keep rate", &o[0].ne(0.0), 0.75)?;
    moments("dropout output", &o[0], 1.0, (0.25f64 / 0.75).sqrt())?;
    // dropout2d(ones [200, 50, 2, 2], 0.4): whole channels 0 or 1/0.6.
    expect_shape("dropout2d", &o[1], Kind::Float, &[200, 50, 2, 2])?;
    let channels = o[1].reshape([10000, 4]);
    let first = channels.select(1, 0);
    if !all(&channels.eq_tensor(&first.unsqueeze(1))) {
        return Err("dropout2d: a channel is partly dropped".into());
    }
    if !all(&first.eq(0.0).logical_or(&(&first - 1.0 / 0.6).abs().le(1e-6))) {
        return Err("dropout2d output has values other than 0 and 1/(1-p)".into());
    }
    fraction("dropout2d channel keep rate", &first.ne(0.0), 0.6)?;
    // alpha_dropout(0 inputs, 0.3): dropped -> a' = -alpha*a*(1-p) + ..., i.e. two values; mean 0 over N(0,1)
    // inputs is checked on z = 0: kept elements give b_kept = alpha*a*p, dropped -alpha*a*(1-p).
    let alpha = 1.7580993408473766f64;
    let p = 0.3;
    let a = 1.0 / ((alpha * alpha * p + 1.0) * (1.0 - p)).sqrt();
    let (kept, dropped) = (alpha * a * p, -alpha * a * (1.0 - p));
    for (i, name, count) in [(2, "alpha_dropout", n), (3, "feature_alpha_dropout", 10000)] {
        let y = if i == 2 { o[i].shallow_clone() } else { o[i].reshape([10000, 4]) };
        let values = if i == 2 {
            y.shallow_clone()
        } else {
            let first = y.select(1, 0);
            if !all(&y.eq_tensor(&first.unsqueeze(1))) {
                return Err("feature_alpha_dropout: a channel is partly dropped".into());
            }
            first
        };
        if values.numel() as i64 != count {
            return Err(format!("{name}: {} values", values.numel()));
        }
        let is_kept = (&values - kept).abs().le(1e-5);
        let is_dropped = (&values - dropped).abs().le(1e-5);
        if !all(&is_kept.logical_or(&is_dropped)) {
            return Err(format!("{name}: values other than {kept} and {dropped}"));
        }
        fraction(&format!("{name} drop rate"), &is_dropped, p)?;
    }
    // rrelu(-1, 0.1, 0.3, training): slopes uniform in [0.1, 0.3); rrelu(1) = 1.
    expect_shape("rrelu", &o[4], Kind::Float, &[n])?;
    let slope = -&o[4];
    range("rrelu slope", &slope, 0.1 - 1e-7, 0.3)?;
    moments("rrelu slope", &slope, 0.2, 0.2 / 12f64.sqrt())?;
    if !all(&o[5].eq(1.0)) {
        return Err("rrelu changed positive inputs".into());
    }
    // SDPA with dropout 0.3 on uniform weights (1/200) and V = 1: each row is
    // sum(mask) / (0.7 * 200), mean 1, std sqrt(0.3 / 0.7 / 200).
    expect_shape("sdpa", &o[6], Kind::Float, &[1, 1, 400, 8])?;
    let rows = o[6].reshape([400, 8]).select(1, 0);
    moments("sdpa dropout row sums", &rows, 1.0, (0.3f64 / 0.7 / 200.0).sqrt())?;
    // dropout(p = 1): zeros.
    if !all(&o[7].eq(0.0)) {
        return Err("dropout(p=1) is not zero".into());
    }
    Ok(())
}

fn check_dynamic(o: &[tch::Tensor], n: i64) -> Result<(), String> {
    use tch::Kind;
    expect_shape("rand(n)", &o[0], Kind::Float, &[n])?;
    range("rand(n)", &o[0], 0.0, 1.0)?;
    expect_shape("randn_like", &o[1], Kind::Float, &[n])?;
    expect_shape("bernoulli", &o[2], Kind::Float, &[n])?;
    expect_shape("randint(n)", &o[3], Kind::Int64, &[n])?;
    range("randint(n)", &o[3], 0.0, 7.0)?;
    expect_shape("dropout", &o[4], Kind::Float, &[n])?;
    expect_shape("randint_like", &o[5], Kind::Float, &[n])?;
    range("randint_like", &o[5], 3.0, 9.0)?;
    if n >= 20000 {
        moments("rand(n)", &o[0], 0.5, (1.0f64 / 12.0).sqrt())?;
        moments("randn_like", &o[1], 0.0, 1.0)?;
        fraction("bernoulli(0.3)", &o[2].eq(1.0), 0.3)?;
        moments("randint(n)", &o[3], 3.0, 2.0)?;
        fraction("dropout keep rate", &o[4].ne(0.0), 0.75)?;
        moments("randint_like(3, 9)", &o[5], 5.5, (35.0f64 / 12.0).sqrt())?;
    }
    Ok(())
}

/// Runs CAPTURE into a fresh scratch dir `name`; None without Python.
fn capture_programs(name: &str) -> Option<std::path::PathBuf> {
    let python = crate::export::python()?;
    let dir = crate::scratch_dir(name);
    let capture = std::process::Command::new(&python)
        .arg("-c")
        .arg(CAPTURE)
        .arg(&dir)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", python.display()));
    assert!(capture.status.success(), "capture failed:\n{}", String::from_utf8_lossy(&capture.stderr));
    Some(dir)
}

#[test]
fn random_ops_have_the_right_distributions() {
    if crate::parity::ort_missing() {
        return;
    }
    let Some(dir) = capture_programs("random") else { return };
    let f = |shape: &[i64], v: f64| tch::Tensor::full(shape, v, (tch::Kind::Float, tch::Device::Cpu));
    let dynamic_small = |o: &[tch::Tensor]| check_dynamic(o, 37);
    let dynamic_large = |o: &[tch::Tensor]| check_dynamic(o, 20000);
    type Check<'x> = &'x dyn Fn(&[tch::Tensor]) -> Result<(), String>;
    let cases: Vec<(&str, Vec<tch::Tensor>, Check)> = vec![
        ("random", vec![f(&[20000], 0.0), f(&[20000], 0.3)], &check_random),
        ("dropout", vec![f(&[20000], 1.0)], &check_dropout),
        ("more", vec![f(&[20000], 0.0), tch::Tensor::from_slice(&[1.0f32, 2.0, 3.0, 4.0])], &check_more),
        (
            "train",
            vec![f(&[20000], 1.0), f(&[20000], 0.0), f(&[200, 50, 2, 2], 1.0), f(&[200, 50, 2, 2], 0.0)],
            &check_train,
        ),
        ("dynamic", vec![f(&[20000], 0.0), f(&[20000], 0.3)], &dynamic_large),
        ("dynamic", vec![f(&[37], 0.0), f(&[37], 0.3)], &dynamic_small),
    ];
    // Opset 21 (the last with onnxruntime kernels for the Random* ops) and
    // the default (23): the lowering is the same, both must load and run.
    for opset in [21, aten2onnx_passes::onnx_ir::DEFAULT_OPSET] {
        let options = ConvertOptions { opset, opset_given: true, ..Default::default() };
        for (name, inputs, check) in &cases {
            let pt2 = dir.join(format!("{name}.pt2"));
            let onnx = dir.join(format!("{name}-{opset}.onnx"));
            convert(pt2.to_str().unwrap(), &onnx, &options).unwrap_or_else(|e| panic!("converting {name}: {e}"));
            let runs = run_many(&onnx, inputs, 4).unwrap_or_else(|e| panic!("{name} at opset {opset}: {e}"));
            for (run, outputs) in runs.iter().enumerate() {
                check(outputs).unwrap_or_else(|e| panic!("{name} at opset {opset}, run {run}: {e}"));
                // Each run draws new values.
                if run > 0 {
                    for (i, (a, b)) in runs[run - 1].iter().zip(outputs).enumerate() {
                        if a.numel() > 100 && a.equal(b) && !(*name == "train" && (i == 5 || i == 7)) {
                            panic!("{name} output {i} is the same in runs {} and {run} (opset {opset})", run - 1);
                        }
                    }
                }
            }
        }
    }
}

/// Dropout masks of successive runs are independent draws: every position
/// varies, and a position's keep bit in one run says nothing about the
/// next. Bare onnxruntime `Dropout` masks fail both: the first element is
/// the same in every run, and consecutive masks are shifted copies (lag-1
/// correlation of a position: mean |corr| 0.5); see random_common.rs.
#[test]
fn dropout_masks_are_independent_across_runs() {
    if crate::parity::ort_missing() {
        return;
    }
    let Some(dir) = capture_programs("random_independent") else { return };
    let onnx = dir.join("small_dropout.onnx");
    convert(dir.join("small_dropout.pt2").to_str().unwrap(), &onnx, &ConvertOptions::default())
        .unwrap_or_else(|e| panic!("converting small_dropout: {e}"));
    let ones = tch::Tensor::ones([64], (tch::Kind::Float, tch::Device::Cpu));
    let runs = 400;
    let all = run_many(&onnx, &[ones], runs).unwrap_or_else(|e| panic!("small_dropout: {e}"));
    for (output, keep) in [(0usize, 0.5f64), (1, 0.7)] {
        // kept[run][position] in {0, 1}
        let kept: Vec<Vec<f64>> = all
            .iter()
            .map(|o| {
                let t = o[output].reshape([-1]).ne(0.0).to_kind(tch::Kind::Double);
                (0..64).map(|i| t.double_value(&[i])).collect()
            })
            .collect();
        let sd = (keep * (1.0 - keep) / runs as f64).sqrt();
        let mut corr_sum = 0.0;
        for pos in 0..64 {
            let col: Vec<f64> = kept.iter().map(|r| r[pos]).collect();
            let rate = col.iter().sum::<f64>() / runs as f64;
            assert!(
                (rate - keep).abs() <= 6.0 * sd,
                "output {output}, position {pos}: kept in {rate:.3} of {runs} runs, expected {keep} (sd {sd:.3})"
            );
            let (a, b) = (&col[..runs - 1], &col[1..]);
            let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
            let (ma, mb) = (mean(a), mean(b));
            let cov: f64 = a.iter().zip(b).map(|(x, y)| (x - ma) * (y - mb)).sum();
            let va: f64 = a.iter().map(|x| (x - ma).powi(2)).sum();
            let vb: f64 = b.iter().map(|y| (y - mb).powi(2)).sum();
            corr_sum += (cov / (va * vb).sqrt().max(1e-12)).abs();
        }
        // Independent runs: mean |corr| about sqrt(2 / pi) / sqrt(399) = 0.04.
        let mean_corr = corr_sum / 64.0;
        assert!(
            mean_corr < 0.12,
            "output {output}: mean |lag-1 correlation| of a position's keep bit is {mean_corr:.3}"
        );
    }
}
