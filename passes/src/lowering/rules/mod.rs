//! Lowering rules, one file per ATen op name: the rule of `aten.gelu.default`
//! is in `gelu.rs` (`where_.rs` for the keyword `where`). Overloads of one op
//! share its file. Add a file, then list it here and in [`ALL`].

use super::Rule;

mod _assert_tensor_metadata;
mod _to_copy;
mod abs;
mod adaptive_avg_pool2d;
mod add;
mod addcdiv;
mod addcmul;
mod addmm;
mod alias;
mod all;
mod amax;
mod amin;
mod any;
mod arange;
mod argmax;
mod avg_pool2d;
mod batch_norm;
mod bitwise_and;
mod bitwise_not;
mod bitwise_or;
mod bmm;
mod cat;
mod ceil;
mod chunk;
mod clamp;
mod clamp_max;
mod clamp_min;
mod clone;
mod common;
mod constant_pad_nd;
mod contiguous;
mod convolution;
mod copy;
mod cos;
mod cumsum;
mod detach;
mod diff;
mod div;
mod dropout;
mod einsum;
mod elu;
mod embedding;
mod eq;
mod erf;
mod exp;
mod expand;
mod expand_as;
mod expm1;
mod fill;
mod flatten;
mod flip;
mod floor;
mod full;
mod full_like;
mod gather;
mod ge;
mod gelu;
mod glu;
mod group_norm;
mod gt;
mod hardsigmoid;
mod hardswish;
mod hardtanh;
mod index;
mod index_put;
mod index_select;
mod layer_norm;
mod le;
mod leaky_relu;
mod lift_fresh_copy;
mod linear;
mod log;
mod log1p;
mod log_softmax;
mod logical_and;
mod logical_not;
mod logical_or;
mod lt;
mod masked_fill;
mod matmul;
mod max;
mod max_pool2d;
mod maximum;
mod mean;
mod min;
mod minimum;
mod mish;
mod mm;
mod mul;
mod narrow;
mod ne;
mod neg;
mod new_full;
mod new_ones;
mod new_zeros;
#[allow(non_snake_case)] // named after `aten.numpy_T`
mod numpy_T;
mod ones;
mod ones_like;
mod pad;
mod permute;
mod pixel_shuffle;
mod pow;
mod prod;
mod reciprocal;
mod relu;
mod remainder;
mod repeat;
mod reshape;
mod rms_norm;
mod roll;
mod round;
mod rsqrt;
mod rsub;
mod scalar_tensor;
mod scaled_dot_product_attention;
mod select;
mod select_scatter;
mod sigmoid;
mod sign;
mod silu;
mod sin;
mod slice;
mod slice_scatter;
mod softmax;
mod softplus;
mod split;
mod split_with_sizes;
mod sqrt;
mod square;
mod squeeze;
mod stack;
mod std;
mod sub;
mod sum;
mod sym_size;
mod t;
mod tanh;
mod to;
mod transpose;
mod tril;
mod triu;
mod trunc;
mod unbind;
mod unflatten;
mod unsqueeze;
mod upsample_bilinear2d;
mod upsample_nearest2d;
mod var;
mod view;
mod view_as;
mod where_;
mod zeros;
mod zeros_like;

/// Every rule group, in file order.
pub static ALL: &[&[Rule]] = &[
    _assert_tensor_metadata::RULES,
    _to_copy::RULES,
    abs::RULES,
    adaptive_avg_pool2d::RULES,
    add::RULES,
    addcdiv::RULES,
    addcmul::RULES,
    addmm::RULES,
    alias::RULES,
    all::RULES,
    amax::RULES,
    amin::RULES,
    any::RULES,
    arange::RULES,
    argmax::RULES,
    avg_pool2d::RULES,
    batch_norm::RULES,
    bitwise_and::RULES,
    bitwise_not::RULES,
    bitwise_or::RULES,
    bmm::RULES,
    cat::RULES,
    ceil::RULES,
    chunk::RULES,
    clamp::RULES,
    clamp_max::RULES,
    clamp_min::RULES,
    clone::RULES,
    constant_pad_nd::RULES,
    contiguous::RULES,
    convolution::RULES,
    copy::RULES,
    cos::RULES,
    cumsum::RULES,
    detach::RULES,
    diff::RULES,
    div::RULES,
    dropout::RULES,
    einsum::RULES,
    elu::RULES,
    embedding::RULES,
    eq::RULES,
    erf::RULES,
    exp::RULES,
    expand::RULES,
    expand_as::RULES,
    expm1::RULES,
    fill::RULES,
    flatten::RULES,
    flip::RULES,
    floor::RULES,
    full::RULES,
    full_like::RULES,
    gather::RULES,
    ge::RULES,
    gelu::RULES,
    glu::RULES,
    group_norm::RULES,
    gt::RULES,
    hardsigmoid::RULES,
    hardswish::RULES,
    hardtanh::RULES,
    index::RULES,
    index_put::RULES,
    index_select::RULES,
    layer_norm::RULES,
    le::RULES,
    leaky_relu::RULES,
    lift_fresh_copy::RULES,
    linear::RULES,
    log::RULES,
    log1p::RULES,
    log_softmax::RULES,
    logical_and::RULES,
    logical_not::RULES,
    logical_or::RULES,
    lt::RULES,
    masked_fill::RULES,
    matmul::RULES,
    max::RULES,
    max_pool2d::RULES,
    maximum::RULES,
    mean::RULES,
    min::RULES,
    minimum::RULES,
    mish::RULES,
    mm::RULES,
    mul::RULES,
    narrow::RULES,
    ne::RULES,
    neg::RULES,
    new_full::RULES,
    new_ones::RULES,
    new_zeros::RULES,
    numpy_T::RULES,
    ones::RULES,
    ones_like::RULES,
    pad::RULES,
    permute::RULES,
    pixel_shuffle::RULES,
    pow::RULES,
    prod::RULES,
    reciprocal::RULES,
    relu::RULES,
    remainder::RULES,
    repeat::RULES,
    reshape::RULES,
    rms_norm::RULES,
    roll::RULES,
    round::RULES,
    rsqrt::RULES,
    rsub::RULES,
    scalar_tensor::RULES,
    scaled_dot_product_attention::RULES,
    select::RULES,
    select_scatter::RULES,
    sigmoid::RULES,
    sign::RULES,
    silu::RULES,
    sin::RULES,
    slice::RULES,
    slice_scatter::RULES,
    softmax::RULES,
    softplus::RULES,
    split::RULES,
    split_with_sizes::RULES,
    sqrt::RULES,
    square::RULES,
    squeeze::RULES,
    stack::RULES,
    std::RULES,
    sub::RULES,
    sum::RULES,
    sym_size::RULES,
    t::RULES,
    tanh::RULES,
    to::RULES,
    transpose::RULES,
    tril::RULES,
    triu::RULES,
    trunc::RULES,
    unbind::RULES,
    unflatten::RULES,
    unsqueeze::RULES,
    upsample_bilinear2d::RULES,
    upsample_nearest2d::RULES,
    var::RULES,
    view::RULES,
    view_as::RULES,
    where_::RULES,
    zeros::RULES,
    zeros_like::RULES,
];
