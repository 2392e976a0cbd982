"""`torch.nn.attention.flex_attention` as plain ATen ops.

torch.export records a `flex_attention` call as the higher-order op
`torch.ops.higher_order.flex_attention(q, k, v, score_mod, block_mask, scale,
kernel_options, score_mod_other_buffers, mask_mod_other_buffers)`, with
`score_mod` and the `mask_mod` (the last element of the `block_mask` tuple) as
sub-GraphModules. `torch.export.save` cannot serialize it (torch 2.13: the
`block_mask` tuple is an "Unsupported list/tuple argument type") and the
compiler has no rule for it, so `decompose_flex_attention` rewrites every such
node into the ATen ops of its eager implementation
(`torch._higher_order_ops.flex_attention.math_attention`):

    G = Hq // Hkv; k, v = repeat_interleave(k, v, G, dim=1)        (GQA)
    wp = float64 if q is float64 else float32
    scores = (q.to(wp) @ k.to(wp).transpose(-2, -1)) * scale        (B, H, L, S)
    b, h, m, n = arange(B|H|L|S) viewed (B,1,1,1) (1,H,1,1) (1,1,L,1) (1,1,1,S)
    post = where(mask_mod(b, h, m, n, *mask_bufs), score_mod(scores, b, h, m, n, *score_bufs), -inf)
    lse = where(all(post == -inf, -1), -inf, logsumexp(post, -1))
    max = amax(post, -1)
    out = _safe_softmax(post, -1).to(q.dtype) @ v.to(q.dtype)
    HOP results: (out, lse / ln 2, max / ln 2)

Eager vmaps `score_mod`/`mask_mod` over (b, h, m, n); here their subgraphs are
inlined with the index grids as broadcasting tensors, which gives the same
values for ops that act element by element (pointwise ops, `x[h]`-style
indexing of buffers, dtype conversions, scalar constants, where). Any other op
raises `ConversionError`. The block-sparsity tensors of the block mask are
ignored (as eager CPU does: only its mask_mod counts) and the code that built
them becomes dead and is removed.
"""

from __future__ import annotations

import math
import operator
from typing import Any, Callable, Dict, List, Optional, Tuple

import torch
import torch.fx
import torch.utils._pytree as pytree
from torch.fx.node import Node, map_aggregate

from ._native import ConversionError
from ._source import user_line as _user_line

__all__ = ["decompose_flex_attention"]

aten = torch.ops.aten

_NEG_INF = -math.inf
_LN2 = math.log(2.0)

#: Ops of a score_mod/mask_mod that pass their input through unchanged.
_IDENTITY = {
    aten.lift_fresh_copy.default,
    aten.detach.default,
    aten.detach_.default,
    aten.alias.default,
    aten.clone.default,
}
#: Ops that are elementwise without the `pointwise` tag.
_ELEMENTWISE = {
    aten.where.self,
    aten.where.ScalarOther,
    aten.where.ScalarSelf,
    aten.where.Scalar,
    aten.__and__.Tensor,
    aten.__and__.Scalar,
    aten.__or__.Tensor,
    aten.__or__.Scalar,
    aten.__xor__.Tensor,
    aten.__xor__.Scalar,
    aten.__lshift__.Tensor,
    aten.__lshift__.Scalar,
    aten.__rshift__.Tensor,
    aten.__rshift__.Scalar,
    aten.floor_divide.default,
    aten.floor_divide.Scalar,
    aten.to.dtype,
    aten.to.dtype_layout,
    aten.to.device,
    aten._to_copy.default,
    aten.type_as.default,
}
#: Creation of a tensor of size `size` (allowed when the size is [], a scalar).
_SCALAR_CREATION = {
    aten.full.default: 0,
    aten.zeros.default: 0,
    aten.ones.default: 0,
    aten.empty.memory_format: 0,
    aten.new_full.default: 1,
    aten.new_zeros.default: 1,
    aten.new_ones.default: 1,
    aten.new_empty.default: 1,
}
_ASSERTS = {aten._assert_tensor_metadata.default}
#: Sources of the meta kept from the flex_attention node on the nodes replacing it.
_META_KEYS = ("stack_trace", "nn_module_stack", "source_fn_stack", "torch_fn", "custom")


def _is_flex(node: Node) -> bool:
    return node.op == "call_function" and node.target is torch.ops.higher_order.flex_attention


def _submodules_used(gm: torch.fx.GraphModule):
    for node in gm.graph.nodes:
        if node.op == "get_attr":
            obj = _get_attr(gm, node.target)
            if isinstance(obj, torch.fx.GraphModule):
                yield node.target, obj


def _get_attr(module, target: str):
    obj = module
    for atom in target.split("."):
        if not hasattr(obj, atom):
            return None
        obj = getattr(obj, atom)
    return obj


def _contains_flex(gm: torch.fx.GraphModule, seen=None) -> bool:
    seen = set() if seen is None else seen
    if id(gm) in seen:
        return False
    seen.add(id(gm))
    if any(_is_flex(node) for node in gm.graph.nodes):
        return True
    return any(_contains_flex(sub, seen) for _, sub in _submodules_used(gm))


def decompose_flex_attention(ep):
    """Returns `ep` itself when its graph (or a subgraph of a higher-order op
    in it) has no `flex_attention`; else a new `ExportedProgram` in which each
    `flex_attention` is replaced by ATen ops with its eager semantics (`ep` is
    not modified)."""
    if not _contains_flex(ep.graph_module):
        return ep
    from torch._guards import detect_fake_mode

    fake_mode = detect_fake_mode([n.meta.get("val") for n in ep.graph.nodes if n.op == "placeholder"])
    if fake_mode is None:
        from torch._subclasses.fake_tensor import FakeTensorMode

        fake_mode = FakeTensorMode(allow_non_fake_inputs=True)
    program = _Program(ep, fake_mode)
    gm = program.rewrite(ep.graph_module, top=True)
    return program.finish(gm)


class _Program:
    """The state of one rewrite: the fake mode, and the changes to the
    program's signature (constants lifted from score/mask mods, constants of
    the block mask that became unused)."""

    def __init__(self, ep, fake_mode):
        self.ep = ep
        self.fake_mode = fake_mode
        self.top_graph: Optional[torch.fx.Graph] = None
        #: per graph: the new names of nodes (a result takes its getitem's name)
        self.names: Dict[torch.fx.Graph, Dict[Node, str]] = {}
        self.new_constants: List[Tuple[str, Node, torch.Tensor]] = []

    # -- graph modules ------------------------------------------------------

    def rewrite(self, gm: torch.fx.GraphModule, top: bool = False) -> torch.fx.GraphModule:
        graph = torch.fx.Graph()
        output = graph.graph_copy(gm.graph, {})
        out_node = graph.output(output)
        old_out = next(n for n in reversed(gm.graph.nodes) if n.op == "output")
        out_node.meta = dict(old_out.meta)
        if top:
            self.top_graph = graph

        used_before = {n.name for n in graph.nodes if n.op == "placeholder" and n.users}
        replaced: Dict[str, torch.fx.GraphModule] = {}
        for node in list(graph.nodes):
            if _is_flex(node):
                _Decomposition(self, gm, graph, node, top).run()
        for node in list(graph.nodes):
            if node.op != "get_attr" or node.target in replaced:
                continue
            sub = _get_attr(gm, node.target)
            if isinstance(sub, torch.fx.GraphModule) and _contains_flex(sub):
                replaced[node.target] = self.rewrite(sub)
        _eliminate_dead_code(graph)
        if top:
            # the lifted constants of a block mask built outside the program,
            # now unused (the signature drops them in finish)
            from torch.export.graph_signature import InputKind

            constants = {
                s.arg.name for s in self.ep.graph_signature.input_specs if s.kind == InputKind.CONSTANT_TENSOR
            }
            for node in list(graph.nodes):
                if node.op == "placeholder" and not node.users and node.name in used_before and node.name in constants:
                    graph.erase_node(node)
        graph = _renamed(graph, self.names.get(graph, {}))
        graph.lint()

        new_gm = torch.fx.GraphModule(gm, graph, class_name=type(gm).__name__)
        new_gm.meta.update(gm.meta)
        for target, sub in replaced.items():
            setattr(new_gm, target, sub)
        return new_gm

    def finish(self, gm: torch.fx.GraphModule):
        from torch.export.graph_signature import (
            ExportGraphSignature,
            InputKind,
            InputSpec,
            TensorArgument,
        )

        ep = self.ep
        placeholders = {n.name for n in gm.graph.nodes if n.op == "placeholder"}
        input_specs = []
        constants = dict(ep.constants)
        for spec in ep.graph_signature.input_specs:
            name = getattr(spec.arg, "name", None)
            if name is not None and name not in placeholders:
                # a constant of the block mask, now unused: dropped
                if spec.kind != InputKind.CONSTANT_TENSOR:  # pragma: no cover - _eliminate_dead_code keeps others
                    raise ConversionError(f"flex_attention: input {name} was removed")
                if spec.target is not None and not any(
                    s.target == spec.target and getattr(s.arg, "name", None) in placeholders
                    for s in ep.graph_signature.input_specs
                ):
                    constants.pop(spec.target, None)
                continue
            input_specs.append(spec)
        if self.new_constants:
            position = _lifted_position(input_specs)
            lifted = [
                InputSpec(kind=InputKind.CONSTANT_TENSOR, arg=TensorArgument(name=node.name), target=target, persistent=None)
                for target, node, _ in self.new_constants
            ]
            input_specs[position:position] = lifted
            for target, _, tensor in self.new_constants:
                constants[target] = tensor
        order = [n.name for n in gm.graph.nodes if n.op == "placeholder"]
        if order != [getattr(s.arg, "name", None) for s in input_specs]:  # pragma: no cover - a bug
            raise ConversionError(f"flex_attention: internal error: the inputs {order} do not follow the signature")
        signature = ExportGraphSignature(input_specs=input_specs, output_specs=list(ep.graph_signature.output_specs))
        return ep._update(gm, signature, constants=constants)

    # -- constants of score/mask mods ------------------------------------------

    def lift_constant(self, tensor: torch.Tensor) -> Node:
        """A placeholder for a constant tensor of a score/mask mod, in the
        program's top graph (a lifted constant of the signature)."""
        from torch.export.graph_signature import InputKind

        graph = self.top_graph
        used = set(self.ep.constants) | {t for t, _, _ in self.new_constants}
        i = 0
        while f"flex_attention_constant_{i}" in used:
            i += 1
        target = f"flex_attention_constant_{i}"
        placeholders = {n.name: n for n in graph.nodes if n.op == "placeholder"}
        # after the parameters, buffers and constants (the signature's order, see finish)
        specs = self.ep.graph_signature.input_specs
        position = _lifted_position(specs)
        anchor = None
        for spec in specs[position:]:
            anchor = placeholders.get(getattr(spec.arg, "name", None))
            if anchor is not None:
                break
        if anchor is not None:
            context = graph.inserting_before(anchor)
        else:
            context = graph.inserting_after(list(placeholders.values())[-1])
        with context:
            node = graph.placeholder(f"c_{target}")
        node.meta["val"] = self.fake_mode.from_tensor(tensor, static_shapes=True)
        self.new_constants.append((target, node, tensor))
        return node


def _renamed(graph: torch.fx.Graph, names: Dict[Node, str]) -> torch.fx.Graph:
    """A copy of `graph` whose nodes in `names` get these names (fx never
    frees a name: a node cannot take the name of an erased one in place)."""
    if not names:
        return graph
    new_graph = torch.fx.Graph()
    env: Dict[Node, Node] = {}
    for node in graph.nodes:
        args = torch.fx.node.map_arg(node.args, env.__getitem__)
        kwargs = torch.fx.node.map_arg(node.kwargs, env.__getitem__)
        new = new_graph.create_node(node.op, node.target, args, kwargs, name=names.get(node, node.name), type_expr=node.type)
        new.meta = dict(node.meta)
        env[node] = new
    return new_graph


def _lifted_position(specs) -> int:
    """Where lifted constants go in a list of input specs: after the last
    parameter, buffer or constant (else before the first user input)."""
    from torch.export.graph_signature import InputKind

    kinds = (InputKind.PARAMETER, InputKind.BUFFER, InputKind.CONSTANT_TENSOR)
    last = max((i for i, s in enumerate(specs) if s.kind in kinds), default=None)
    if last is not None:
        return last + 1
    return next((i for i, s in enumerate(specs) if s.kind == InputKind.USER_INPUT), 0)


class _Const:
    """The value of a get_attr of a score/mask mod (a tensor, a TreeSpec)."""

    def __init__(self, value):
        self.value = value


class _Decomposition:
    def __init__(self, program: _Program, gm, graph: torch.fx.Graph, node: Node, top: bool):
        self.program = program
        self.gm = gm
        self.graph = graph
        self.node = node
        self.top = top
        self.fake_mode = program.fake_mode
        self.meta = {k: node.meta[k] for k in _META_KEYS if k in node.meta}

    # -- node creation ----------------------------------------------------------

    def emit(self, target, args, kwargs=None) -> Node:
        kwargs = kwargs or {}
        fake_args, fake_kwargs = map_aggregate((args, kwargs), lambda a: a.meta["val"] if isinstance(a, Node) else a)
        with self.fake_mode:
            val = target(*fake_args, **fake_kwargs)
        new = self.graph.call_function(target, tuple(args), dict(kwargs))
        new.meta.update(self.meta)
        new.meta["val"] = val
        return new

    def size(self, x: Node, dim: int):
        """x.size(dim) as an int, or an aten.sym_size.int node for a SymInt."""
        value = x.meta["val"].shape[dim]
        if isinstance(value, int):
            return value
        from torch.fx.experimental.symbolic_shapes import is_concrete_int

        if is_concrete_int(value):
            return int(value)
        new = self.graph.call_function(aten.sym_size.int, (x, dim))
        new.meta.update(self.meta)
        new.meta["val"] = value
        return new

    def to(self, x: Node, dtype: torch.dtype) -> Node:
        if x.meta["val"].dtype == dtype:
            return x
        return self.emit(aten.to.dtype, (x, dtype))

    def error(self, message: str):
        where = _user_line(self.node.meta.get("stack_trace"))
        return ConversionError(f"flex_attention{f' at {where}' if where else ''}: {message}")

    # -- the decomposition ------------------------------------------------------

    def run(self):
        node = self.node
        names = (
            "query",
            "key",
            "value",
            "score_mod",
            "block_mask",
            "scale",
            "kernel_options",
            "score_mod_other_buffers",
            "mask_mod_other_buffers",
        )
        bound = dict(zip(names, node.args))
        bound.update(node.kwargs)
        bound.setdefault("score_mod_other_buffers", ())
        bound.setdefault("mask_mod_other_buffers", ())
        q, k, v = bound["query"], bound["key"], bound["value"]
        score_mod = self.module_of(bound["score_mod"], "score_mod")
        block_mask = bound["block_mask"]
        if not isinstance(block_mask, (tuple, list)) or not block_mask:
            raise self.error(f"unexpected block_mask argument {block_mask!r}")
        mask_mod = self.module_of(block_mask[-1], "mask_mod")
        scale = bound["scale"]
        score_bufs = list(bound["score_mod_other_buffers"])
        mask_bufs = list(bound["mask_mod_other_buffers"])

        users = list(node.users)
        wanted = set()
        for user in users:
            if user.op != "call_function" or user.target is not operator.getitem or user.args[1] not in (0, 1, 2):
                raise self.error(f"unexpected use of the flex_attention results: {user.format_node()}")
            if user.users:
                wanted.add(user.args[1])

        with self.graph.inserting_before(node):
            results = self.attention(q, k, v, score_mod, mask_mod, scale, score_bufs, mask_bufs, wanted)
            for user in users:
                index = user.args[1]
                expected = getattr(user.meta.get("val"), "dtype", None)
                if index in results and expected is not None and expected != results[index].meta["val"].dtype:
                    # float64 queries: eager returns the lse in float64, but
                    # torch's fake kernel (so the program) says float32
                    results[index] = self.emit(aten.to.dtype, (results[index], expected))

        for user in users:
            index = user.args[1]
            if index in results:
                self.check_like(results[index], user)
                user.replace_all_uses_with(results[index])
                # the result keeps the name of the getitem it replaces (the
                # signature's output names, module_call_graph)
                self.program.names.setdefault(self.graph, {})[results[index]] = user.name
            self.graph.erase_node(user)
        self.graph.erase_node(node)

    def module_of(self, arg, what: str) -> torch.fx.GraphModule:
        module = _get_attr(self.gm, arg.target) if isinstance(arg, Node) and arg.op == "get_attr" else None
        if not isinstance(module, torch.fx.GraphModule):
            raise self.error(f"the {what} is not a subgraph ({arg!r})")
        return module

    def check_like(self, new: Node, old: Node):
        expected = old.meta.get("val")
        got = new.meta["val"]
        if not isinstance(expected, torch.Tensor):
            return
        if expected.dtype != got.dtype or len(expected.shape) != len(got.shape):
            raise self.error(
                f"internal error: the decomposition gives {got.dtype}{list(got.shape)} "
                f"where flex_attention gives {expected.dtype}{list(expected.shape)}"
            )

    def attention(self, q, k, v, score_mod, mask_mod, scale, score_bufs, mask_bufs, wanted) -> Dict[int, Node]:
        qv, kv = q.meta["val"], k.meta["val"]
        if qv.dim() != 4 or kv.dim() != 4:
            raise self.error(f"expected 4-D query and key, got {list(qv.shape)} and {list(kv.shape)}")
        working = torch.float64 if qv.dtype == torch.float64 else torch.float32

        # GQA: each key/value head serves G = Hq // Hkv query heads
        # (repeat_interleave along the heads: unsqueeze, expand, flatten)
        hq, hkv = qv.shape[1], kv.shape[1]
        from torch.fx.experimental.symbolic_shapes import statically_known_true

        if not statically_known_true(hq == hkv):
            if not (isinstance(hq, int) and isinstance(hkv, int)):
                raise self.error(f"grouped-query attention with a symbolic number of heads ({hq} query, {hkv} key/value heads)")
            group = hq // hkv
            k = self.repeat_heads(k, group)
            v = self.repeat_heads(v, group)
        # a key/value batch of 1 broadcasts over the query batch in the matmuls

        scores = self.emit(aten.matmul.default, (self.to(q, working), self.emit(aten.transpose.int, (self.to(k, working), -2, -1))))
        scores = self.emit(aten.mul.Tensor, (scores, scale))

        grids: Dict[int, Node] = {}

        def grid(axis: int) -> Node:
            if axis not in grids:
                length = self.size(scores, axis)
                index = self.emit(
                    aten.arange.default,
                    (length,),
                    {"dtype": torch.int64, "device": qv.device, "pin_memory": False},
                )
                shape = [1, 1, 1, 1]
                shape[axis] = -1
                grids[axis] = self.emit(aten.view.default, (index, shape))
            return grids[axis]

        score_inputs = [lambda: scores] + [lambda a=a: grid(a) for a in range(4)] + [lambda b=b: b for b in score_bufs]
        mask_inputs = [lambda a=a: grid(a) for a in range(4)] + [lambda b=b: b for b in mask_bufs]

        modded = self.inline(score_mod, score_inputs, 5, "score_mod")
        if not isinstance(modded, Node):
            raise self.error(f"score_mod returns {modded!r}, not a tensor")
        if _is_noop_mask(mask_mod) and modded.meta["val"].dtype == working:
            post = modded  # where(True, s, -inf) = s
        else:
            mask = self.inline(mask_mod, mask_inputs, 4, "mask_mod")
            if not isinstance(mask, Node) or mask.meta["val"].dtype != torch.bool:
                raise self.error("mask_mod does not return a bool tensor")
            if modded.meta["val"].dtype == working:
                post = self.emit(aten.where.ScalarOther, (mask, modded, _NEG_INF))
            else:
                minus_inf = self.emit(
                    aten.full.default, ([], _NEG_INF), {"dtype": working, "device": qv.device, "pin_memory": False}
                )
                post = self.emit(aten.where.self, (mask, modded, minus_inf))
        if not _same_shape(post.meta["val"].shape, scores.meta["val"].shape):
            post = self.emit(aten.expand.default, (post, [self.size(scores, d) for d in range(4)]))

        results: Dict[int, Node] = {}
        if 0 in wanted:
            probs = self.emit(aten._safe_softmax.default, (post, -1))
            results[0] = self.emit(aten.matmul.default, (self.to(probs, qv.dtype), self.to(v, qv.dtype)))
        if 1 in wanted:
            lse = self.emit(aten.logsumexp.default, (post, [-1]))
            masked = self.emit(aten.all.dim, (self.emit(aten.eq.Scalar, (post, _NEG_INF)), -1))
            lse = self.emit(aten.where.ScalarSelf, (masked, _NEG_INF, lse))
            results[1] = self.emit(aten.div.Tensor, (lse, _LN2))
        if 2 in wanted:
            top = self.emit(aten.amax.default, (post, [-1]))
            results[2] = self.emit(aten.div.Tensor, (top, _LN2))
        return results

    def repeat_heads(self, x: Node, group: int) -> Node:
        if group == 1:
            return x
        x = self.emit(aten.unsqueeze.default, (x, 2))
        x = self.emit(aten.expand.default, (x, [-1, -1, group, -1, -1]))
        return self.emit(aten.flatten.using_ints, (x, 1, 2))

    # -- score_mod / mask_mod ---------------------------------------------------

    def inline(self, module: torch.fx.GraphModule, inputs: List[Callable[[], Any]], batched_inputs: int, what: str):
        """The nodes of a score_mod/mask_mod subgraph, evaluated on the
        broadcasting index grids; returns the value of its output. The first
        `batched_inputs` inputs (score, b, h, q_idx, kv_idx) are the ones
        vmap maps over; the rest (the mod's buffers) are whole tensors."""
        env: Dict[Node, Any] = {}
        batched = set()
        placeholders = [n for n in module.graph.nodes if n.op == "placeholder"]
        if len(placeholders) != len(inputs):
            raise self.error(f"{what} takes {len(placeholders)} inputs, expected {len(inputs)}")
        for i, (placeholder, make) in enumerate(zip(placeholders, inputs)):
            if placeholder.users:
                env[placeholder] = make()
            if i < batched_inputs:
                batched.add(placeholder)

        def value(a):
            if isinstance(a, Node):
                if a not in env:
                    raise self.error(f"{what}: {a.name} is used before it is computed")
                return self.materialize(env[a])
            return a

        for n in module.graph.nodes:
            if n.op == "placeholder":
                continue
            if n.op == "output":
                result = n.args[0]
                if isinstance(result, (tuple, list)):
                    if len(result) != 1:
                        raise self.error(f"{what} returns {len(result)} values")
                    result = result[0]
                return value(result)
            if n.op == "get_attr":
                env[n] = _Const(_get_attr(module, n.target))
                continue
            if n.op != "call_function":
                raise self.error(f"{what} has a {n.op} node ({n.format_node()}), not supported")
            target = n.target
            per_score = any(a in batched for a in n.all_input_nodes)
            if per_score:
                batched.add(n)
                self.check_scalar(n, what)
            if target in _ASSERTS:
                env[n] = None
                continue
            if target in _IDENTITY:
                env[n] = env[n.args[0]] if isinstance(n.args[0], Node) else n.args[0]
                continue
            if target is torch.ops.higher_order.flat_apply:
                x, indices = self.mod_index(n, env, what)
                env[n] = self.index(x, indices, batched, what, value)
                continue
            if target is aten.index.Tensor:
                env[n] = self.index(n.args[0], list(n.args[1]), batched, what, value)
                continue
            if not self.allowed(n, per_score):
                raise self.error(
                    f"{what} uses {_op_name(target)}, an op that is not elementwise: the score_mod/mask_mod "
                    "of flex_attention are converted for elementwise ops (pointwise math, comparisons, "
                    "where, dtype conversions, scalar constants) and indexing of tensors by the "
                    "b/h/q_idx/kv_idx indices"
                )
            args, kwargs = map_aggregate((n.args, n.kwargs), value)
            env[n] = self.emit(target, args, kwargs)
        raise self.error(f"{what} has no output")  # pragma: no cover

    def check_scalar(self, n: Node, what: str):
        """Each value computed by a score/mask mod is one element (vmap):
        a 0-dim tensor; a larger one would not broadcast like the grids."""
        val = n.meta.get("val")
        if isinstance(val, torch.Tensor) and val.dim() != 0:
            raise self.error(
                f"{what}: {_op_name(n.target)} gives a tensor of shape {list(val.shape)} for each score "
                "(only elementwise score/mask mods, whose values are scalars, are converted; index buffers "
                "with one index per dimension, e.g. bias[h, q_idx])"
            )

    def allowed(self, n: Node, per_score: bool) -> bool:
        """Whether the broadcasting evaluation of `n` gives what vmap gives:
        an elementwise op on per-score values, any functional op on values
        that do not depend on the score or the indices (computed once)."""
        target = n.target
        if not isinstance(target, torch._ops.OpOverload):
            return False
        if target._schema.is_mutable or torch.Tag.nondeterministic_seeded in target.tags:
            return False
        if not per_score:
            return True
        if target in _SCALAR_CREATION:
            size = n.args[_SCALAR_CREATION[target]] if len(n.args) > _SCALAR_CREATION[target] else n.kwargs.get("size")
            return isinstance(size, (list, tuple)) and len(size) == 0
        return target in _ELEMENTWISE or torch.Tag.pointwise in target.tags

    def mod_index(self, n: Node, env, what: str):
        """`buffer[idx]` in a score/mask mod: torch traces it as a flat_apply of
        torch._dynamo's ModIndex (aten.index.Tensor); returns the buffer and
        the indices (nodes of the mod)."""
        try:
            func_spec, in_spec = (_const(env[a]) if isinstance(a, Node) else a for a in n.args[:2])
            func = pytree._retrieve_constant(func_spec) if isinstance(func_spec, pytree.TreeSpec) else func_spec
            args, kwargs = pytree.tree_unflatten(list(n.args[2:]), in_spec)
            inner = getattr(func, "func", func)
        except Exception as error:  # an unknown flat_apply
            raise self.error(f"{what} uses an unsupported flat_apply ({error})") from None
        if inner is aten.index.Tensor and not kwargs:
            return args[0], list(args[1])
        name = getattr(inner, "__name__", "")
        if (
            name == "_call_custom_autograd_function_in_pre_dispatch"
            and args
            and args[0] == "torch._dynamo._trace_wrapped_higher_order_op.ModIndex"
            and len(args) == 3
            and not kwargs
        ):
            return args[1], list(args[2])
        raise self.error(f"{what} calls {name or inner!r} (flat_apply), an op that is not elementwise")

    def index(self, x, indices, batched, what: str, value) -> Node:
        """`x[indices]` (aten.index.Tensor) in a score/mask mod: with the
        indices broadcasting grids, the index gives the grid's shape, as vmap."""
        if not isinstance(x, Node) or not all(isinstance(i, Node) for i in indices):
            raise self.error(f"{what}: indexing with {indices!r}: only tensor indices are supported")
        if x in batched:
            raise self.error(f"{what}: indexing a value computed from the score or the indices")
        x_val = x.meta.get("val")
        for i in indices:
            dtype = getattr(i.meta.get("val"), "dtype", None)
            if dtype is not None and (dtype == torch.bool or dtype.is_floating_point):
                raise self.error(f"{what}: indexing with a {dtype} index")
        if any(i in batched for i in indices) and isinstance(x_val, torch.Tensor) and len(indices) != x_val.dim():
            raise self.error(
                f"{what}: a tensor of {x_val.dim()} dims indexed with {len(indices)} indices "
                "(give one index per dimension, e.g. bias[h, q_idx])"
            )
        return self.emit(aten.index.Tensor, (value(x), [value(i) for i in indices]))

    def materialize(self, value):
        """A get_attr tensor of a mod as a node: a 0-dim one as aten.full, a
        larger one as a lifted constant of the program."""
        if not isinstance(value, _Const):
            return value
        tensor = value.value
        if not isinstance(tensor, torch.Tensor):
            return tensor
        device = self.node.args[0].meta["val"].device
        if tensor.dim() == 0:
            return self.emit(
                aten.full.default, ([], tensor.item()), {"dtype": tensor.dtype, "device": device, "pin_memory": False}
            )
        if not self.top:
            raise self.error("a score_mod/mask_mod constant tensor inside a nested subgraph is not supported")
        return self.program.lift_constant(tensor.detach().clone())


def _const(arg):
    return arg.value if isinstance(arg, _Const) else arg


def _op_name(target) -> str:
    if target is torch.ops.higher_order.flat_apply:
        return "an indexing (flat_apply of ModIndex)"
    if isinstance(target, torch._ops.OpOverload):
        return f"aten.{target._schema.name.split('::')[-1]}.{target._overloadname}" if target.namespace == "aten" else str(target)
    return getattr(target, "__name__", str(target))


def _same_shape(a, b) -> bool:
    from torch.fx.experimental.symbolic_shapes import statically_known_true

    return len(a) == len(b) and all(statically_known_true(x == y) for x, y in zip(a, b))


def _is_noop_mask(module: torch.fx.GraphModule) -> bool:
    """torch's noop_mask: `b.new_ones(size=(), dtype=torch.bool)`."""
    calls = [n for n in module.graph.nodes if n.op == "call_function"]
    if len(calls) != 1 or calls[0].target is not aten.new_ones.default:
        return False
    (n,) = calls
    out = next(o for o in module.graph.nodes if o.op == "output")
    result = out.args[0]
    if isinstance(result, (tuple, list)):
        result = result[0] if len(result) == 1 else None
    return result is n and list(n.args[1]) == [] and n.kwargs.get("dtype") == torch.bool


# ---------------------------------------------------------------------------
# dead code: the block mask's tensors (built by create_block_mask inside the
# program: vmap, index_put_, argsort...) are unused once flex_attention is gone

_VMAP_NESTING = ("_vmap_increment_nesting", "_vmap_decrement_nesting", "lazy_load_decompositions")
_VMAP_BATCH = ("_add_batch_dim", "_remove_batch_dim")


def _is_functorch(node: Node, names) -> bool:
    target = node.target
    return (
        node.op == "call_function"
        and getattr(target, "__module__", "") == "torch._functorch.predispatch"
        and getattr(target, "__name__", "") in names
    )


def _is_fresh(node: Node) -> bool:
    """A tensor that an op allocated (not a view, not an input)."""
    target = node.target
    if node.op != "call_function" or not isinstance(target, torch._ops.OpOverload):
        return False
    schema = target._schema
    return not schema.is_mutable and all(r.alias_info is None for r in schema.returns)


def _written_args(node: Node) -> List[Any]:
    target = node.target
    if node.op != "call_function" or not isinstance(target, torch._ops.OpOverload) or not target._schema.is_mutable:
        return []
    written = []
    for i, argument in enumerate(target._schema.arguments):
        if argument.alias_info is not None and argument.alias_info.is_write:
            written.append(node.args[i] if i < len(node.args) else node.kwargs.get(argument.name))
    return written


def _eliminate_dead_code(graph: torch.fx.Graph) -> None:
    """Mark and sweep: the output and the side effects are live, and what
    they read. An in-place op is live when it writes to a live tensor or to
    one it did not see allocated; an assertion when what it checks is live;
    the vmap level calls when a batched value is live."""
    nodes = list(graph.nodes)
    live = set()
    pending = []

    def mark(node):
        if node not in live:
            live.add(node)
            pending.append(node)

    mutations = []
    for node in nodes:
        if node.op == "output":
            mark(node)
        elif node.op == "placeholder":
            live.add(node)
        elif node.op == "call_function":
            if node.target in _ASSERTS or _is_functorch(node, _VMAP_NESTING):
                continue
            written = _written_args(node)
            if written:
                if all(isinstance(a, Node) and _is_fresh(a) for a in written):
                    mutations.append((node, written))
                else:
                    mark(node)
                continue
            try:
                impure = node.is_impure()
            except Exception:  # pragma: no cover - an unknown target
                impure = True
            if impure:
                mark(node)
    while True:
        while pending:
            node = pending.pop()
            for arg in node.all_input_nodes:
                mark(arg)
        grew = False
        for node, written in mutations:
            if node not in live and any(a in live for a in written):
                mark(node)
                grew = True
        if not grew:
            break
    for node in nodes:
        if node.op == "call_function" and node.target in _ASSERTS:
            if all(a in live for a in node.all_input_nodes):
                live.add(node)
    if any(n in live and _is_functorch(n, _VMAP_BATCH) for n in nodes):
        live.update(n for n in nodes if _is_functorch(n, _VMAP_NESTING))
    for node in reversed(nodes):
        if node not in live:
            graph.erase_node(node)
