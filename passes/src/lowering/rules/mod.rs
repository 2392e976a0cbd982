//! Lowering rules, one file per ATen op name: the rule of `aten.gelu.default`
//! is in `gelu.rs` (`where_.rs` for the keyword `where`). Overloads of one op
//! share its file. Add a file, then list it here and in [`ALL`].

use super::Rule;

mod _assert_tensor_metadata;
mod _to_copy;
mod abs;
mod adaptive_avg_pool2d;
mod add;
mod addmm;
mod alias;
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
mod contiguous;
mod convolution;
mod copy;
mod cos;
mod cumsum;
mod detach;
mod diff;
mod div;
mod dropout;
mod embedding;
mod eq;
mod erf;
mod exp;
mod expand;
mod expand_as;
mod fill;
mod flatten;
mod floor;
mod full;
mod full_like;
mod gather;
mod ge;
mod gelu;
mod gt;
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
mod log_softmax;
mod logical_and;
mod logical_not;
mod logical_or;
mod lt;
mod masked_fill;
mod matmul;
mod max_pool2d;
mod maximum;
mod mean;
mod minimum;
mod mm;
mod mul;
mod ne;
mod neg;
mod new_full;
mod new_ones;
mod new_zeros;
mod ones;
mod ones_like;
mod permute;
mod pow;
mod reciprocal;
mod relu;
mod repeat;
mod reshape;
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
mod split;
mod split_with_sizes;
mod sqrt;
mod squeeze;
mod sub;
mod sum;
mod sym_size;
mod t;
mod tanh;
mod to;
mod transpose;
mod tril;
mod triu;
mod unbind;
mod unsqueeze;
mod view;
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
    addmm::RULES,
    alias::RULES,
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
    contiguous::RULES,
    convolution::RULES,
    copy::RULES,
    cos::RULES,
    cumsum::RULES,
    detach::RULES,
    diff::RULES,
    div::RULES,
    dropout::RULES,
    embedding::RULES,
    eq::RULES,
    erf::RULES,
    exp::RULES,
    expand::RULES,
    expand_as::RULES,
    fill::RULES,
    flatten::RULES,
    floor::RULES,
    full::RULES,
    full_like::RULES,
    gather::RULES,
    ge::RULES,
    gelu::RULES,
    gt::RULES,
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
    log_softmax::RULES,
    logical_and::RULES,
    logical_not::RULES,
    logical_or::RULES,
    lt::RULES,
    masked_fill::RULES,
    matmul::RULES,
    max_pool2d::RULES,
    maximum::RULES,
    mean::RULES,
    minimum::RULES,
    mm::RULES,
    mul::RULES,
    ne::RULES,
    neg::RULES,
    new_full::RULES,
    new_ones::RULES,
    new_zeros::RULES,
    ones::RULES,
    ones_like::RULES,
    permute::RULES,
    pow::RULES,
    reciprocal::RULES,
    relu::RULES,
    repeat::RULES,
    reshape::RULES,
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
    split::RULES,
    split_with_sizes::RULES,
    sqrt::RULES,
    squeeze::RULES,
    sub::RULES,
    sum::RULES,
    sym_size::RULES,
    t::RULES,
    tanh::RULES,
    to::RULES,
    transpose::RULES,
    tril::RULES,
    triu::RULES,
    unbind::RULES,
    unsqueeze::RULES,
    view::RULES,
    where_::RULES,
    zeros::RULES,
    zeros_like::RULES,
];
