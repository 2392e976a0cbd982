//! Shared lowering of torch's recurrent ops (`lstm`, `gru`, `rnn_tanh`,
//! `rnn_relu` and their `*_cell` forms) to ONNX `LSTM` / `GRU` / `RNN`.
//!
//! Torch and ONNX differ in three ways that matter:
//! - gate order inside the stacked weights: torch LSTM is (i, f, g, o),
//!   ONNX (i, o, f, c); torch GRU is (r, z, n), ONNX (z, r, h). The weights
//!   are split by gate and re-concatenated: by the writer when they are
//!   stored weights (`onnx.weight_transform` slices and concatenations of the
//!   memory-mapped archive, no graph ops), else in the graph;
//! - torch's GRU applies the reset gate after the recurrent matmul and its
//!   bias (`r * (W_hn h + b_hn)`): ONNX `linear_before_reset = 1`;
//! - ONNX runs one layer: stacked layers are chained, the output of a
//!   bidirectional layer `[S, 2, B, H]` becomes `[S, B, 2H]` for the next, and
//!   the final states of all layers are concatenated like torch's `h_n`.

use crate::{builder, Attr, Ctx};
use melior::ir::{r#type::RankedTensorType, Type, Value, ValueLike};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Lstm,
    Gru,
    RnnTanh,
    RnnRelu,
}

impl Kind {
    fn gates(self) -> usize {
        match self {
            Kind::Lstm => 4,
            Kind::Gru => 3,
            Kind::RnnTanh | Kind::RnnRelu => 1,
        }
    }

    fn onnx_op(self) -> &'static str {
        match self {
            Kind::Lstm => "LSTM",
            Kind::Gru => "GRU",
            Kind::RnnTanh | Kind::RnnRelu => "RNN",
        }
    }

    /// Torch gate index of each ONNX gate position.
    fn gate_order(self) -> &'static [usize] {
        match self {
            Kind::Lstm => &[0, 3, 1, 2],
            Kind::Gru => &[1, 0, 2],
            Kind::RnnTanh | Kind::RnnRelu => &[0],
        }
    }

    fn states(self) -> usize {
        if self == Kind::Lstm {
            2
        } else {
            1
        }
    }
}

/// The static hidden size from a recurrent weight `[gates * H, H]`.
fn hidden_size(ctx: &Ctx<'_, '_>, kind: Kind, w_hh: Value<'_, '_>) -> Result<i64, String> {
    let dims = builder::dims(w_hh.r#type()).ok_or("the recurrent weight has an unknown rank")?;
    match dims.as_slice() {
        [Some(rows), Some(h)] if *rows == kind.gates() as i64 * *h => Ok(*h),
        [Some(rows), Some(h)] => Err(format!(
            "the recurrent weight is [{rows}, {h}]; expected [{} * hidden_size, hidden_size]{}",
            kind.gates(),
            if kind == Kind::Lstm { " (LSTM with proj_size has no ONNX expression)" } else { "" }
        )),
        _ => {
            let _ = ctx;
            Err("the recurrent weight must have a static shape [gates * hidden_size, hidden_size]".into())
        }
    }
}

/// `w` (`[gates * H, ...]` in torch's gate order) in ONNX's gate order.
fn reorder<'c, 'a>(ctx: &Ctx<'c, 'a>, kind: Kind, w: Value<'c, 'a>, h: i64) -> Result<Value<'c, 'a>, String> {
    let gates = kind.gates();
    if gates == 1 {
        return Ok(w);
    }
    let element = builder::element_type(w.r#type()).ok_or("weight is not a tensor")?;
    let split = ctx.b.const_i64s(&vec![h; gates])?;
    let types = vec![ctx.b.unranked(element); gates];
    let parts = ctx.b.onnx().split(w, Some(split), Some(0), None).results(&types)?;
    let ordered: Vec<Value> = kind.gate_order().iter().map(|&i| parts[i]).collect();
    ctx.b.onnx().concat(&ordered, 0).typed(ctx.b.unranked(element))
}

/// Zeros shaped like `like` (a missing bias next to a present one).
fn zeros_like<'c, 'a>(ctx: &Ctx<'c, 'a>, like: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let zero = ctx.b.const_like(like, 0.0)?;
    let shape = ctx.b.shape(like)?;
    ctx.b.onnx().expand(zero, shape).like(like)
}

/// One direction's weights: `w_ih [G*H, In]`, `w_hh [G*H, H]`, optional biases.
pub struct Direction<'c, 'a> {
    pub w_ih: Value<'c, 'a>,
    pub w_hh: Value<'c, 'a>,
    pub b_ih: Option<Value<'c, 'a>>,
    pub b_hh: Option<Value<'c, 'a>>,
}

/// The static dims of a weight.
fn static_dims(value: Value<'_, '_>) -> Option<Vec<i64>> {
    builder::dims(value.r#type())?.into_iter().collect()
}

/// An `onnx.weight_transform` of `kind` with result dims `dims`.
fn transform<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    kind: &str,
    inputs: &[Value<'c, 'a>],
    attrs: &[(&str, Attr)],
    dims: &[i64],
) -> Result<Value<'c, 'a>, String> {
    let element = builder::element_type(inputs[0].r#type()).ok_or("weight is not a tensor")?;
    let shape: Vec<u64> = dims.iter().map(|&d| d as u64).collect();
    let mut all = vec![("kind", Attr::String(kind.into()))];
    all.extend(attrs.iter().cloned());
    ctx.b.op("weight_transform", inputs, &all, RankedTensorType::new(&shape, element, None).into())
}

/// `w` (`[gates * H, ...]`) in ONNX's gate order, as weight transforms.
fn reorder_weight<'c, 'a>(ctx: &Ctx<'c, 'a>, kind: Kind, w: Value<'c, 'a>, h: i64) -> Result<Value<'c, 'a>, String> {
    if kind.gates() == 1 {
        return Ok(w);
    }
    let dims = static_dims(w).ok_or("a weight without a static shape")?;
    let mut part = dims.clone();
    part[0] = h;
    let parts: Vec<Value> = kind
        .gate_order()
        .iter()
        .map(|&g| transform(ctx, "slice", &[w], &[("axis", Attr::Int(0)), ("start", Attr::Int(g as i64 * h))], &part))
        .collect::<Result<_, _>>()?;
    transform(ctx, "concat", &parts, &[("axis", Attr::Int(0))], &dims)
}

/// [`layer_weights`] done by the writer (`onnx.weight_transform`s: gate
/// slices, concatenations, reshapes of the stored weights; no graph ops),
/// when every weight is a stored weight with a static shape and each
/// direction has both biases or none. `None` otherwise.
#[allow(clippy::type_complexity)]
fn layer_weights_by_writer<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    kind: Kind,
    dirs: &[Direction<'c, 'a>],
    h: i64,
) -> Result<Option<(Value<'c, 'a>, Value<'c, 'a>, Option<Value<'c, 'a>>)>, String> {
    let biases = dirs.iter().all(|d| d.b_ih.is_some() && d.b_hh.is_some());
    let no_biases = dirs.iter().all(|d| d.b_ih.is_none() && d.b_hh.is_none());
    let all: Vec<Value> = dirs.iter().flat_map(|d| [Some(d.w_ih), Some(d.w_hh), d.b_ih, d.b_hh]).flatten().collect();
    if !(biases || no_biases) || !all.iter().all(|v| crate::onnx_ir::is_weight_value(*v) && static_dims(*v).is_some()) {
        return Ok(None);
    }
    let d = dirs.len() as i64;
    // Per direction [1, ...], then the directions along axis 0.
    let stack = |per_dir: Vec<Value<'c, 'a>>| -> Result<Value<'c, 'a>, String> {
        let mut dims = static_dims(per_dir[0]).ok_or("a weight without a static shape")?;
        let unsqueezed: Vec<Value> = per_dir
            .iter()
            .map(|v| {
                let mut one = vec![1];
                one.extend(static_dims(*v).unwrap_or_default());
                transform(ctx, "reshape", &[*v], &[], &one)
            })
            .collect::<Result<_, _>>()?;
        if unsqueezed.len() == 1 {
            return Ok(unsqueezed[0]);
        }
        dims.insert(0, d);
        transform(ctx, "concat", &unsqueezed, &[("axis", Attr::Int(0))], &dims)
    };
    let w = stack(dirs.iter().map(|x| reorder_weight(ctx, kind, x.w_ih, h)).collect::<Result<_, _>>()?)?;
    let r = stack(dirs.iter().map(|x| reorder_weight(ctx, kind, x.w_hh, h)).collect::<Result<_, _>>()?)?;
    let b = if biases {
        let per_dir: Vec<Value> = dirs
            .iter()
            .map(|x| {
                let (b_ih, b_hh) = (x.b_ih.ok_or("bias")?, x.b_hh.ok_or("bias")?);
                let total = 2 * kind.gates() as i64 * h;
                transform(
                    ctx,
                    "concat",
                    &[reorder_weight(ctx, kind, b_ih, h)?, reorder_weight(ctx, kind, b_hh, h)?],
                    &[("axis", Attr::Int(0))],
                    &[total],
                )
            })
            .collect::<Result<_, String>>()?;
        Some(stack(per_dir)?)
    } else {
        None
    };
    Ok(Some((w, r, b)))
}

/// ONNX `W`, `R`, `B` for the directions of one layer (`B` absent when no
/// direction has biases).
fn layer_weights<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    kind: Kind,
    dirs: &[Direction<'c, 'a>],
    h: i64,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>, Option<Value<'c, 'a>>), String> {
    if let Some(weights) = layer_weights_by_writer(ctx, kind, dirs, h)? {
        return Ok(weights);
    }
    let (mut ws, mut rs, mut bs) = (Vec::new(), Vec::new(), Vec::new());
    let has_bias = dirs.iter().any(|d| d.b_ih.is_some() || d.b_hh.is_some());
    for d in dirs {
        ws.push(ctx.unsqueeze(reorder(ctx, kind, d.w_ih, h)?, &[0])?);
        rs.push(ctx.unsqueeze(reorder(ctx, kind, d.w_hh, h)?, &[0])?);
        if has_bias {
            let (b_ih, b_hh) = match (d.b_ih, d.b_hh) {
                (Some(a), Some(b)) => (a, b),
                (Some(a), None) => (a, zeros_like(ctx, a)?),
                (None, Some(b)) => (zeros_like(ctx, b)?, b),
                (None, None) => return Err("biases given for some directions only".into()),
            };
            let b = ctx.b.onnx().concat(&[reorder(ctx, kind, b_ih, h)?, reorder(ctx, kind, b_hh, h)?], 0).like(b_ih)?;
            bs.push(ctx.unsqueeze(b, &[0])?);
        }
    }
    let cat = |vs: Vec<Value<'c, 'a>>| -> Result<Value<'c, 'a>, String> {
        if vs.len() == 1 {
            Ok(vs[0])
        } else {
            ctx.b.onnx().concat(&vs, 0).like(vs[0])
        }
    };
    let b = if has_bias { Some(cat(bs)?) } else { None };
    Ok((cat(ws)?, cat(rs)?, b))
}

/// Runs one ONNX recurrent op over `x` (`[S, B, In]`): returns `Y`
/// (`[S, D, B, H]`) and the final states (`[D, B, H]` each).
#[allow(clippy::too_many_arguments)]
fn run_layer<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    kind: Kind,
    x: Value<'c, 'a>,
    dirs: &[Direction<'c, 'a>],
    initial: &[Value<'c, 'a>],
    h: i64,
    y_type: Type<'c>,
    state_type: Type<'c>,
) -> Result<(Value<'c, 'a>, Vec<Value<'c, 'a>>), String> {
    let (w, r, b) = layer_weights(ctx, kind, dirs, h)?;
    let none = ctx.none()?;
    let mut inputs = vec![x, w, r, b.unwrap_or(none), none, initial[0]];
    if kind == Kind::Lstm {
        inputs.push(initial[1]);
    }
    let bidirectional = dirs.len() == 2;
    let mut attrs = vec![("hidden_size", Attr::Int(h))];
    if bidirectional {
        attrs.push(("direction", Attr::String("bidirectional".into())));
    }
    match kind {
        Kind::Gru => attrs.push(("linear_before_reset", Attr::Int(1))),
        Kind::RnnTanh | Kind::RnnRelu => {
            let f = if kind == Kind::RnnTanh { "Tanh" } else { "Relu" };
            let names: Vec<String> = vec![f.to_string(); dirs.len()];
            attrs.push(("activations", Attr::Strings(names)));
        }
        Kind::Lstm => {}
    }
    let mut results = vec![y_type];
    results.extend(std::iter::repeat_n(state_type, kind.states()));
    let out = ctx.b.build(kind.onnx_op(), &inputs, &attrs, &results)?;
    Ok((out[0], out[1..].to_vec()))
}

/// `Y [S, D, B, H]` -> `[S, B, D*H]` (a Squeeze for one direction).
fn merge_directions<'c, 'a>(ctx: &Ctx<'c, 'a>, y: Value<'c, 'a>, d: i64, h: i64) -> Result<Value<'c, 'a>, String> {
    if d == 1 {
        return ctx.squeeze(y, &[1]);
    }
    let dh = d * h;
    let t = ctx.b.onnx().transpose(y, Some(&[0, 2, 1, 3])).like(y)?;
    let sb = crate::rules::common::shape_slice(ctx, t, 0, Some(2))?;
    let last = ctx.b.const_i64s(&[dh])?;
    let new_shape = ctx.b.onnx().concat(&[sb, last], 0).typed(RankedTensorType::new(&[3], ctx.b.i64_type(), None).into())?;
    ctx.b.onnx().reshape(t, new_shape, None).like(y)
}

/// `lstm.input` / `gru.input` / `rnn_*.input`: results (output, h_n[, c_n]).
pub fn lower_sequence<'c, 'a>(ctx: &Ctx<'c, 'a>, kind: Kind) -> Result<Vec<Value<'c, 'a>>, String> {
    let input = ctx.args.tensor("input")?;
    let hx = if kind == Kind::Lstm { ctx.args.tensors("hx")? } else { vec![ctx.args.tensor("hx")?] };
    if hx.len() != kind.states() {
        return Err(format!("hx has {} tensors; expected {}", hx.len(), kind.states()));
    }
    let params = ctx.args.tensors("params")?;
    let has_biases = ctx.args.bool("has_biases")?;
    let num_layers = ctx.args.int("num_layers")?;
    let dropout = ctx.args.float("dropout")?;
    let train = ctx.args.bool("train")?;
    let bidirectional = ctx.args.bool("bidirectional")?;
    let batch_first = ctx.args.bool("batch_first")?;
    if num_layers < 1 {
        return Err(format!("num_layers must be at least 1, got {num_layers}"));
    }
    if train && dropout > 0.0 && num_layers > 1 {
        return Err("dropout between layers in training mode is random; export the model in eval mode".into());
    }
    if ctx.rank(input)? != 3 {
        return Err(format!("expected a 3-D input, got rank {}", ctx.rank(input)?));
    }
    let d = if bidirectional { 2 } else { 1 };
    let per = if has_biases { 4 } else { 2 };
    let expected = num_layers as usize * d * per;
    if params.len() != expected {
        return Err(if params.len() == num_layers as usize * d * (per + 1) && kind == Kind::Lstm {
            "LSTM with proj_size (a projection of the hidden state) has no ONNX LSTM expression".to_string()
        } else {
            format!(
                "{} weight tensors given; {num_layers} layer(s) x {d} direction(s) x {per} expected",
                params.len()
            )
        });
    }
    let element = ctx.result_element(0)?;
    let unranked = ctx.b.unranked(element);
    let h = hidden_size(ctx, kind, params[1])?;
    let mut x = if batch_first {
        ctx.b.onnx().transpose(input, Some(&[1, 0, 2])).like(input)?
    } else {
        input
    };
    let mut finals: Vec<Vec<Value>> = vec![Vec::new(); kind.states()];
    for layer in 0..num_layers as usize {
        let mut dirs = Vec::new();
        for dir in 0..d {
            let base = (layer * d + dir) * per;
            let p = &params[base..base + per];
            hidden_size(ctx, kind, p[1])?;
            dirs.push(Direction {
                w_ih: p[0],
                w_hh: p[1],
                b_ih: has_biases.then(|| p[2]),
                b_hh: has_biases.then(|| p[3]),
            });
        }
        let start = ctx.b.const_i64s(&[(layer * d) as i64])?;
        let end = ctx.b.const_i64s(&[((layer + 1) * d) as i64])?;
        let axis = ctx.b.const_i64s(&[0])?;
        let initial: Vec<Value> = hx
            .iter()
            .map(|s| ctx.b.onnx().slice(*s, start, end, Some(axis), None).like(*s))
            .collect::<Result<_, _>>()?;
        let (y, states) = run_layer(ctx, kind, x, &dirs, &initial, h, unranked, unranked)?;
        for (all, s) in finals.iter_mut().zip(states) {
            all.push(s);
        }
        x = merge_directions(ctx, y, d as i64, h)?;
    }
    // (The convert pass gives the values returned the results' exact types.)
    let output = if batch_first {
        ctx.b.onnx().transpose(x, Some(&[1, 0, 2])).typed(ctx.result_type(0)?)?
    } else {
        x
    };
    let mut results = vec![output];
    for (i, states) in finals.into_iter().enumerate() {
        let ty = ctx.result_type(i + 1)?;
        results.push(if states.len() == 1 {
            states[0]
        } else {
            ctx.b.onnx().concat(&states, 0).typed(ty)?
        });
    }
    Ok(results)
}

/// `lstm_cell` / `gru_cell` / `rnn_*_cell`: one step on `[B, In]` with
/// states `[B, H]`, as a one-step ONNX recurrence.
pub fn lower_cell<'c, 'a>(ctx: &Ctx<'c, 'a>, kind: Kind) -> Result<Vec<Value<'c, 'a>>, String> {
    let input = ctx.args.tensor("input")?;
    let hx = if kind == Kind::Lstm { ctx.args.tensors("hx")? } else { vec![ctx.args.tensor("hx")?] };
    if hx.len() != kind.states() {
        return Err(format!("hx has {} tensors; expected {}", hx.len(), kind.states()));
    }
    if ctx.rank(input)? != 2 {
        return Err(format!("expected a 2-D input [batch, input_size], got rank {}", ctx.rank(input)?));
    }
    for s in &hx {
        if ctx.rank(*s)? != 2 {
            return Err(format!("expected 2-D states [batch, hidden_size], got rank {}", ctx.rank(*s)?));
        }
    }
    let w_hh = ctx.args.tensor("w_hh")?;
    let h = hidden_size(ctx, kind, w_hh)?;
    let dir = Direction {
        w_ih: ctx.args.tensor("w_ih")?,
        w_hh,
        b_ih: ctx.args.opt_tensor("b_ih")?,
        b_hh: ctx.args.opt_tensor("b_hh")?,
    };
    // torch broadcasts a bias of another rank into the gates ([B, G*H]);
    // ONNX's recurrences take [G*H] only (a [2, G*H] bias gave an invalid model).
    for (name, value, rank) in [("w_ih", Some(dir.w_ih), 2), ("w_hh", Some(w_hh), 2), ("b_ih", dir.b_ih, 1), ("b_hh", dir.b_hh, 1)] {
        if let Some(r) = value.and_then(|v| ctx.rank(v).ok()).filter(|r| *r != rank) {
            return Err(format!("expected a {rank}-D {name}, got rank {r}"));
        }
    }
    let x = ctx.unsqueeze(input, &[0])?;
    let initial: Vec<Value> = hx.iter().map(|s| ctx.unsqueeze(*s, &[0])).collect::<Result<_, _>>()?;
    let element = ctx.result_element(0)?;
    let unranked = ctx.b.unranked(element);
    let (_, states) = run_layer(ctx, kind, x, &[dir], &initial, h, unranked, unranked)?;
    states
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            let axes = ctx.b.const_i64s(&[0])?;
            ctx.b.onnx().squeeze(s, Some(axes)).typed(ctx.result_type(i)?)
        })
        .collect()
}
