//! Gradients of views and of `index_select`: the incoming gradient
//! scattered into zeros of the input's size (`select_backward` is
//! `zeros(input_sizes).select_scatter(grad_output, dim, index)`, as in
//! `torch/_decomp/decompositions.py`).

use super::{Arg, Decomposition as D, Dx};
use melior::ir::Value;

/// `grad.new_zeros(sizes)`, typed like the op's result.
fn zeros<'c, 'a>(d: &Dx<'c, 'a>, grad: &str, sizes: &str) -> Result<Value<'c, 'a>, String> {
    d.call("aten.new_zeros.default", &[("self", d.same(grad)?), ("size", d.same(sizes)?)], d.result_type(0)?)
}

pub const DECOMPOSITIONS: &[D] = &[
    D::new("aten.select_backward.default", "zeros(input_sizes).select_scatter(grad_output, dim, index)", |d| {
        let z = zeros(d, "grad_output", "input_sizes")?;
        let args = [("self", Arg::T(z)), ("src", d.same("grad_output")?), ("dim", d.same("dim")?), ("index", d.same("index")?)];
        Ok(vec![d.call("aten.select_scatter.default", &args, d.result_type(0)?)?])
    })
    .samples(&["grad_output: T[4]; input_sizes: [3, 4]; dim: 0; index: -1", "grad_output: T[2,3]; input_sizes: [2, 5, 3]; dim: 1; index: 2"])
    .dtypes(&["f32", "i64"]),
    D::new("aten.slice_backward.default", "zeros(input_sizes).slice_scatter(grad_output, dim, start, end, step)", |d| {
        let z = zeros(d, "grad_output", "input_sizes")?;
        let args = [
            ("self", Arg::T(z)),
            ("src", d.same("grad_output")?),
            ("dim", d.same("dim")?),
            ("start", d.same("start")?),
            ("end", d.same("end")?),
            ("step", d.same("step")?),
        ];
        Ok(vec![d.call("aten.slice_scatter.default", &args, d.result_type(0)?)?])
    })
    .samples(&["grad_output: T[2,4]; input_sizes: [5, 4]; dim: 0; start: 1; end: 4; step: 2"])
    .dtypes(&["f32", "i64"]),
    D::new("aten.diagonal_backward.default", "zeros(input_sizes).diagonal_scatter(grad_output, offset, dim1, dim2)", |d| {
        let z = zeros(d, "grad_output", "input_sizes")?;
        let args = [
            ("self", Arg::T(z)),
            ("src", d.same("grad_output")?),
            ("offset", d.same("offset")?),
            ("dim1", d.same("dim1")?),
            ("dim2", d.same("dim2")?),
        ];
        Ok(vec![d.call("aten.diagonal_scatter.default", &args, d.result_type(0)?)?])
    })
    .samples(&["grad_output: T[2,3]; input_sizes: [2, 3, 4]; offset: 0; dim1: 1; dim2: 2", "grad_output: T[3]; input_sizes: [4, 4]; offset: 1; dim1: 0; dim2: 1"])
    .dtypes(&["f32"]),
    D::new("aten.index_select_backward.default", "zeros(self_sizes).index_add(dim, index, grad)", |d| {
        let z = zeros(d, "grad", "self_sizes")?;
        let args = [("self", Arg::T(z)), ("dim", d.same("dim")?), ("index", d.same("index")?), ("source", d.same("grad")?)];
        Ok(vec![d.call("aten.index_add.default", &args, d.result_type(0)?)?])
    })
    .samples(&["grad: T[3,4]; self_sizes: [5, 4]; dim: 0; index: i64[3]{0..5}"])
    .dtypes(&["f32"]),
];
