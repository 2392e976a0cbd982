"""flex_attention through `aten2onnx.export`: the higher-order op rewritten
into ATen ops (aten2onnx._flex_attention), run in onnxruntime against eager."""

import numpy as np
import onnxruntime as ort
import pytest
import torch
from torch.export import Dim
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

import aten2onnx
from aten2onnx._flex_attention import decompose_flex_attention

ATOL = 1e-4
RTOL = 1e-4

pytestmark = [
    pytest.mark.filterwarnings("ignore:flex_attention called without torch.compile"),
    pytest.mark.filterwarnings("ignore:return_lse is deprecated"),
    pytest.mark.filterwarnings("ignore::FutureWarning"),
]

B, H, L, S, D = 2, 4, 16, 16, 8


def qkv(b=B, hq=H, hkv=H, lq=L, skv=S, d=D, seed=0, dtype=torch.float32):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(b, hq, lq, d, generator=g, dtype=dtype)
    k = torch.randn(b, hkv, skv, d, generator=g, dtype=dtype)
    v = torch.randn(b, hkv, skv, d, generator=g, dtype=dtype)
    return q, k, v


def run_onnx(model_bytes, feeds):
    session = ort.InferenceSession(model_bytes, providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    assert len(names) == len(feeds), names
    return session.run(None, {n: v.numpy() for n, v in zip(names, feeds)})


def assert_close(actual, expected):
    expected = expected.detach().numpy()
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    # -inf (the lse of a fully masked row) where eager has it, close elsewhere
    inf = np.isneginf(expected)
    assert np.array_equal(np.isneginf(actual), inf)
    a, e = actual[~inf], expected[~inf]
    assert np.all(np.isfinite(a)), "non-finite values"
    bound = ATOL + RTOL * np.abs(e)
    assert np.all(np.abs(a - e) <= bound), f"max |diff| {np.abs(a - e).max()}"


def check(model, inputs, *, dynamic_shapes=None, more_inputs=(), strict=False):
    """Exports `model`, runs the ONNX model on `inputs` (and `more_inputs`,
    other shapes for dynamic dims) and compares with eager."""
    model = model.eval()
    data = aten2onnx.export(model, inputs, dynamic_shapes=dynamic_shapes, strict=strict)
    for feeds in (inputs, *more_inputs):
        got = run_onnx(data, feeds)
        with torch.no_grad():
            expected = model(*feeds)
        expected = expected if isinstance(expected, tuple) else (expected,)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_close(g, e)
    return data


def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


class Plain(torch.nn.Module):
    def forward(self, q, k, v):
        return flex_attention(q, k, v)


class ScoreMod(torch.nn.Module):
    def __init__(self, score_mod, **options):
        super().__init__()
        self.score_mod = score_mod
        self.options = options

    def forward(self, q, k, v):
        return flex_attention(q, k, v, score_mod=self.score_mod, **self.options)


class MaskInside(torch.nn.Module):
    """create_block_mask inside forward (traced with the program)."""

    def __init__(self, mask_mod, batch=None, **options):
        super().__init__()
        self.mask_mod = mask_mod
        self.batch = batch
        self.options = options

    def forward(self, q, k, v):
        block_mask = create_block_mask(self.mask_mod, self.batch, None, q.shape[2], k.shape[2], device="cpu")
        return flex_attention(q, k, v, block_mask=block_mask, **self.options)


class MaskAttribute(torch.nn.Module):
    """A BlockMask built outside the program (its tensors become constants)."""

    def __init__(self, block_mask):
        super().__init__()
        self.block_mask = block_mask

    def forward(self, q, k, v):
        return flex_attention(q, k, v, block_mask=self.block_mask)


GLOBAL_CAUSAL = create_block_mask(causal, None, None, L, S, device="cpu")


class MaskClosure(torch.nn.Module):
    def forward(self, q, k, v):
        return flex_attention(q, k, v, block_mask=GLOBAL_CAUSAL)


def test_no_mods():
    check(Plain(), qkv())


def test_causal_block_mask_attribute():
    check(MaskAttribute(create_block_mask(causal, None, None, L, S, device="cpu")), qkv())


def test_causal_block_mask_closure():
    data = check(MaskClosure(), qkv())
    # the block mask's tensors are not left in the model as initializers
    import onnx

    proto = onnx.load_from_string(data)
    assert all(i.data_type != onnx.TensorProto.INT32 for i in proto.graph.initializer)


def test_causal_block_mask_inside_forward():
    check(MaskInside(causal), qkv())


def test_sliding_window():
    def sliding(b, h, q_idx, kv_idx):
        return (q_idx >= kv_idx) & (q_idx - kv_idx <= 4)

    check(MaskInside(sliding), qkv(lq=32, skv=32))


def test_prefix_lm_constant():
    def prefix(b, h, q_idx, kv_idx):
        return (kv_idx <= q_idx) | (kv_idx < 5)

    check(MaskInside(prefix), qkv())


class PrefixPerBatch(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("prefix_length", torch.tensor([3, 9]))

    def forward(self, q, k, v):
        def prefix(b, h, q_idx, kv_idx):
            return (kv_idx <= q_idx) | (kv_idx < self.prefix_length[b])

        block_mask = create_block_mask(prefix, q.shape[0], None, q.shape[2], k.shape[2], device="cpu")
        return flex_attention(q, k, v, block_mask=block_mask)


def test_prefix_lm_buffer_indexed_by_batch():
    check(PrefixPerBatch(), qkv())


class Alibi(torch.nn.Module):
    def __init__(self, heads=H):
        super().__init__()
        self.register_buffer("slopes", torch.exp2(-torch.arange(1, heads + 1, dtype=torch.float32) * 8 / heads))

    def forward(self, q, k, v):
        def alibi(score, b, h, q_idx, kv_idx):
            return score + self.slopes[h] * (kv_idx - q_idx)

        return flex_attention(q, k, v, score_mod=alibi)


def test_alibi():
    check(Alibi(), qkv())


def test_alibi_strict_export():
    check(Alibi(), qkv(), strict=True)


def test_tanh_soft_capping():
    def soft_cap(score, b, h, q_idx, kv_idx):
        return 2.0 * torch.tanh(score / 2.0)

    check(ScoreMod(soft_cap), qkv(seed=1))


def test_gqa():
    check(ScoreMod(None, enable_gqa=True), qkv(hq=4, hkv=2))


def test_gqa_with_mask_and_head_dependent_score():
    check(
        MaskInside(causal, enable_gqa=True),
        qkv(hq=4, hkv=2),
    )
    check(ScoreMod(lambda s, b, h, q_idx, kv_idx: s * (h + 1) / 4, enable_gqa=True), qkv(hq=4, hkv=2))


def test_return_lse():
    check(ScoreMod(None, return_lse=True), qkv())
    check(MaskInside(causal, return_lse=True), qkv())


def test_bias_indexed_by_q_and_kv():
    class Bias(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("bias", torch.randn(12, 20))

        def forward(self, q, k, v):
            return flex_attention(q, k, v, score_mod=lambda s, b, h, q_idx, kv_idx: s + self.bias[q_idx, kv_idx])

    check(Bias(), qkv(lq=12, skv=20))


def test_constant_tensor_in_score_mod():
    # torch.tensor(...) inside the score_mod: a constant of its subgraph
    def score_mod(score, b, h, q_idx, kv_idx):
        return score * torch.tensor([1.0, 0.5, 2.0, 1.5])[h] + torch.tensor(0.25)

    check(ScoreMod(score_mod), qkv())


def test_key_value_batch_of_one():
    check(MaskInside(causal, batch=B), qkv(b=B, hkv=H)[:1] + tuple(t[:1] for t in qkv(b=B)[1:]))


def test_l_differs_from_s():
    check(ScoreMod(None, return_lse=True), qkv(lq=12, skv=20))

    def bottom_right_causal(b, h, q_idx, kv_idx):
        return q_idx + 8 >= kv_idx

    check(MaskInside(bottom_right_causal), qkv(lq=12, skv=20))


def test_fully_masked_rows():
    def late(b, h, q_idx, kv_idx):
        return (q_idx >= kv_idx) & (q_idx >= 5)  # rows 0..4 see nothing

    q, k, v = qkv()
    out, lse = MaskInside(late, return_lse=True)(q, k, v)
    assert torch.all(out[:, :, :5] == 0) and torch.all(lse[:, :, :5] == -float("inf"))
    check(MaskInside(late, return_lse=True), (q, k, v))
    # the same with a score_mod that masks: rows of -inf scores give 0 too
    check(
        ScoreMod(lambda s, b, h, q_idx, kv_idx: torch.where(kv_idx < q_idx - 3, s, -float("inf")), return_lse=True),
        (q, k, v),
    )


def test_dynamic_sequence_length():
    seq = Dim("seq", min=2, max=128)  # create_block_mask needs <= 128 (one block)
    shapes = ({2: seq}, {2: seq}, {2: seq})
    data = check(MaskInside(causal), qkv(), dynamic_shapes=shapes, more_inputs=[qkv(lq=40, skv=40, seed=3)])
    session = ort.InferenceSession(data, providers=["CPUExecutionProvider"])
    assert [i.shape for i in session.get_inputs()] == [[B, H, "seq", D]] * 3

    def masked(score, b, h, q_idx, kv_idx):
        return torch.where(q_idx >= kv_idx, score, -float("inf"))

    big = Dim("seq", min=2, max=4096)
    check(
        ScoreMod(masked),
        qkv(),
        dynamic_shapes=({2: big}, {2: big}, {2: big}),
        more_inputs=[qkv(lq=5, skv=5, seed=4), qkv(lq=200, skv=200, seed=5)],
    )


def test_dynamic_query_and_key_lengths_with_alibi_gqa_lse():
    class Model(Alibi):
        def forward(self, q, k, v):
            return flex_attention(
                q,
                k,
                v,
                score_mod=lambda s, b, h, q_idx, kv_idx: s + self.slopes[h] * (kv_idx - q_idx),
                enable_gqa=True,
                return_lse=True,
            )

    lq, skv = Dim("lq"), Dim("skv")
    check(
        Model(),
        qkv(hq=4, hkv=2, lq=16, skv=24),
        dynamic_shapes=({2: lq}, {2: skv}, {2: skv}),
        more_inputs=[qkv(hq=4, hkv=2, lq=5, skv=33, seed=6)],
    )


def test_inside_cond_branch():
    class Branches(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("bias", torch.rand(H))

        def forward(self, q, k, v):
            def attend(q, k, v):
                return flex_attention(q, k, v, score_mod=lambda s, b, h, q_idx, kv_idx: s + self.bias[h])

            return torch.cond(q.sum() > 0, attend, lambda q, k, v: q * 2, (q, k, v))

    q, k, v = qkv()
    check(Branches(), (q.abs(), k, v), more_inputs=[(-q.abs(), k, v)])


def test_float64_and_float16():
    model = MaskInside(causal, return_lse=True)
    q, k, v = qkv(dtype=torch.float64)
    out, lse = run_onnx(aten2onnx.export(model, (q, k, v)), (q, k, v))
    expected_out, expected_lse = model(q, k, v)
    assert_close(out, expected_out)
    # torch.export records the lse of flex_attention as float32 (its fake
    # kernel), where eager float64 gives float64: the model follows the program
    assert_close(lse, expected_lse.float())
    q, k, v = qkv(dtype=torch.float16)
    out, lse = run_onnx(aten2onnx.export(model, (q, k, v)), (q, k, v))
    expected_out, expected_lse = model(q, k, v)
    np.testing.assert_allclose(out.astype(np.float32), expected_out.float().numpy(), atol=1e-3, rtol=1e-3)
    assert_close(lse, expected_lse)


def test_program_without_flex_attention_is_untouched():
    ep = torch.export.export(torch.nn.Linear(4, 3), (torch.randn(2, 4),))
    assert decompose_flex_attention(ep) is ep


def test_exported_program_is_not_modified():
    model = Alibi()
    ep = torch.export.export(model, qkv())
    before = [(n.op, n.target, n.name) for n in ep.graph.nodes]
    rewritten = decompose_flex_attention(ep)
    assert rewritten is not ep
    assert [(n.op, n.target, n.name) for n in ep.graph.nodes] == before
    assert any(n.target is torch.ops.higher_order.flex_attention for n in ep.graph.nodes)
    assert not any("flex" in str(n.target) for n in rewritten.graph.nodes)
    # the score_mod/mask_mod subgraphs are gone with it
    assert not any(isinstance(m, torch.fx.GraphModule) for m in rewritten.graph_module.children())
    assert any(isinstance(m, torch.fx.GraphModule) for m in ep.graph_module.children())
    # the rewritten program runs as eager does, and torch.export can save it
    q, k, v = qkv()
    torch.testing.assert_close(rewritten.module()(q, k, v), model(q, k, v))
    run_onnx(aten2onnx.export(ep), (q, k, v))  # the ExportedProgram itself


def test_non_elementwise_score_mod_is_refused():
    def summed(score, b, h, q_idx, kv_idx):
        return score + score.sum()  # a reduction: not elementwise

    with pytest.raises(aten2onnx.ConversionError, match=r"aten\.sum\.default.*not elementwise") as error:
        aten2onnx.export(ScoreMod(summed), qkv())
    assert "test_flex_attention.py" in str(error.value)

    class RowBias(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("bias", torch.randn(H, 3))

        def forward(self, q, k, v):
            # bias[h] is a row per score: vmap sums it, broadcasting would not
            return flex_attention(q, k, v, score_mod=lambda s, b, h, q_idx, kv_idx: s + self.bias[h].sum())

    with pytest.raises(aten2onnx.ConversionError, match="for each score"):
        aten2onnx.export(RowBias(), qkv())


def test_max_scores_output_of_the_op():
    # flex_attention(return_aux=AuxRequest(max_scores=True)) is refused on CPU
    # by torch itself; the op's three outputs (out, lse/ln2, max/ln2) are
    # checked by calling the higher-order op directly
    from torch._higher_order_ops.flex_attention import flex_attention as flex_attention_op

    block_mask = create_block_mask(lambda b, h, q_idx, kv_idx: (q_idx >= kv_idx) & (q_idx >= 3), None, None, L, S, device="cpu")

    class Op(torch.nn.Module):
        def forward(self, q, k, v):
            return flex_attention_op(q, k, v, lambda s, b, h, q_idx, kv_idx: s * 1.5, block_mask.as_tuple(), 0.3, {})

    check(Op(), qkv())
