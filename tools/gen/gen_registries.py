#!/usr/bin/env python3
"""Generate the op registries of the `aten2onnx-dialects` crate.

Sources (authoritative, read at generation time):
  * every `aten::` overload of `torch._C._jit_get_all_schemas()`, with the op
    tags of `torch.ops.aten.<op>.<overload>.tags`;
  * tools/gen/newer_torch_schemas.json and tools/gen/quantized_schemas.json (below);
  * every schema of `onnx.defs.get_all_schemas_with_history()`.

Outputs (static Rust data, no runtime parsing):
  * dialects/src/aten/generated.rs
  * dialects/src/onnx/generated.rs

Usage:
  .venv/bin/python tools/gen/gen_registries.py            # (re)write both files
  .venv/bin/python tools/gen/gen_registries.py --check    # write nothing; exit 1 and
                                                      # name the stale file(s)
  /path/to/newer/python tools/gen/gen_registries.py --capture-newer
      # with a NEWER torch: write tools/gen/newer_torch_schemas.json, the overloads
      # of that torch the pinned registry lacks (then regenerate with the pin)
  .venv/bin/python tools/gen/gen_registries.py --capture-quantized
      # with torchao importable: write tools/gen/quantized_schemas.json, the
      # quantization ops of PT2E-quantized programs (then regenerate)

Newer torch releases add overloads (torch 2.15: `linalg_polar`,
`linalg_matrix_sqrth`) that captures made with them contain. They come from
`tools/gen/newer_torch_schemas.json`, written by `--capture-newer` under that
torch (its schemas go through the same parser and cross-checks there, and
their normalized defaults and tags are recorded): the pinned generation
merges the entries its own torch lacks into the same table, lists them in
`NEWER_OVERLOADS` with `NEWER_TORCH_VERSION`, and never lets them replace a
pinned schema. The JSON is an input like torch itself, so `--check` stays
exact under the pin.

PT2E-quantized programs also contain ops outside the `aten` namespace that
torchao registers (on import; the `quantized_decomposed` library itself is
defined by torch's `torch.ao.quantization.fx._decomposed`, which torchao
imports): every `quantized_decomposed::` overload and torchao's quantization
primitives (`TORCHAO_PRIMITIVES`). `--capture-quantized` (torchao importable)
puts them through the same parser and cross-checks and records them in
`tools/gen/quantized_schemas.json` with the torchao version; the normal
generation merges them into the same table under their namespaced names
(`quantized_decomposed::quantize_per_tensor`, overload `tensor`), lists them
in `QUANTIZED_OVERLOADS` with `TORCHAO_VERSION`, and never imports torchao.

How the ATen schemas are read. Each schema is parsed from its canonical text
`str(schema)` by the small schema-language parser below (it covers the whole
registry, including the ~300 TorchScript builtins such as `dict.str((str,
tVal)[] inputs)` or `format(str self, ...)` that torchgen cannot parse). The
parse is then cross-checked, and the generator aborts on any disagreement:
  * against the JIT objects (argument names, kwarg-only flags, declared list
    sizes, alias before/after sets and write flags, default values);
  * against torchgen's `FunctionSchema.parse` (declared types and alias
    annotations) for every schema torchgen accepts;
  * by printing the parsed schema back with the same rules as the Rust
    `Display` impl and comparing with `str(schema)`.
Default values come from the JIT `Argument.default_value` (already normalized
by the JIT: `int[2] padding=0` is exposed as `[0, 0]`), checked against the
printed text.
"""

from __future__ import annotations

import argparse
import difflib
import math
import struct
import sys
import warnings
import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ATEN_OUT = ROOT / "dialects" / "src" / "aten" / "generated.rs"
NEWER_JSON = ROOT / "tools" / "gen" / "newer_torch_schemas.json"
QUANTIZED_JSON = ROOT / "tools" / "gen" / "quantized_schemas.json"
# The quantization ops of PT2E-quantized programs: every overload of this
# namespace, and of the `torchao` namespace only these quantization primitives
# (not its kernels: int_matmul, mx_fp8_bf16, ...).
QUANTIZED_NAMESPACE = "quantized_decomposed"
TORCHAO_PRIMITIVES = (
    "quantize_affine",
    "dequantize_affine",
    "choose_qparams_affine",
    "quantize_affine_float8_non_decomposed",
    "dequantize_affine_float8_non_decomposed",
    "choose_scale_float8",
)
ONNX_OUT = ROOT / "dialects" / "src" / "onnx" / "generated.rs"
# The typed ONNX builder of the lowering rules (one method an op).
BUILDER_OUT = ROOT / "passes" / "lowering" / "src" / "onnx_ops.rs"

# c10::Layout and c10::MemoryFormat enumerators (c10/core/Layout.h,
# c10/core/MemoryFormat.h). The JIT exposes such defaults as plain ints;
# `check_enum_tables` verifies the codes the JIT schema parser knows by name.
LAYOUTS = [
    (0, "strided"),
    (1, "sparse_coo"),
    (2, "sparse_csr"),
    (3, "_mkldnn"),
    (4, "sparse_csc"),
    (5, "sparse_bsr"),
    (6, "sparse_bsc"),
    (7, "jagged"),
]
MEMORY_FORMATS = [
    (0, "contiguous_format"),
    (1, "preserve_format"),
    (2, "channels_last"),
    (3, "channels_last_3d"),
]


class GenError(Exception):
    pass


# --------------------------------------------------------------------------
# Rust literal helpers


def rs_str(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif 0x20 <= ord(ch) < 0x7F:
            out.append(ch)
        else:
            out.append("\\u{%x}" % ord(ch))
    out.append('"')
    return "".join(out)


def rs_f64(v: float) -> str:
    if math.isnan(v):
        return "f64::NAN"
    if math.isinf(v):
        return "f64::INFINITY" if v > 0 else "f64::NEG_INFINITY"
    r = repr(float(v))  # shortest round-trip text; Rust parses it exactly
    assert float(r) == v
    if not any(c in r for c in ".e"):
        r += ".0"
    return r


def f32_round(v: float) -> float:
    return struct.unpack("<f", struct.pack("<f", v))[0]


def rs_f32(v: float) -> str:
    if math.isnan(v):
        return "f32::NAN"
    if math.isinf(v):
        return "f32::INFINITY" if v > 0 else "f32::NEG_INFINITY"
    v = f32_round(v)
    for prec in range(1, 18):  # shortest text that round-trips through f32
        r = "%.*g" % (prec, v)
        try:
            if f32_round(float(r)) == v:
                break
        except OverflowError:  # rounded past f32::MAX
            continue
    if not any(c in r for c in ".e"):
        r += ".0"
    return r


def rs_strs(items) -> str:
    return "&[" + ", ".join(rs_str(s) for s in items) + "]"


def rs_bool(b: bool) -> str:
    return "true" if b else "false"


# --------------------------------------------------------------------------
# C++-compatible printing (mirrors c10's operator<< for FunctionSchema and the
# Rust Display impl); used to prove the parse is faithful.


def print_quoted(s: str) -> str:
    table = {
        "\\": "\\\\",
        "'": "\\'",
        '"': '\\"',
        "\a": "\\a",
        "\b": "\\b",
        "\f": "\\f",
        "\n": "\\n",
        "\r": "\\r",
        "\t": "\\t",
        "\v": "\\v",
    }
    out = ['"']
    for ch in s.encode("utf-8"):
        c = chr(ch)
        if c in table:
            out.append(table[c])
        elif 0x20 <= ch < 0x7F:
            out.append(c)
        else:
            out.append("\\%03o" % ch)
    out.append('"')
    return "".join(out)


def print_double(v: float) -> str:
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    s = "%.17g" % v
    if not any(c in s for c in ".e"):
        s += "."
    return s


# --------------------------------------------------------------------------
# ATen schema-language parser


@dataclass
class Alias:
    before: list
    after: list
    is_write: bool
    on_elements: bool  # `Tensor(a!)[]`: the annotation is on the list elements

    def text(self) -> str:
        s = "|".join(self.before)
        if self.is_write:
            s += "!"
        if self.before != self.after:
            s += " -> " + "|".join(self.after)
        return "(" + s + ")"


@dataclass
class Arg:
    name: str
    ty: str  # declared type without alias annotation, e.g. `Tensor[]`, `int[2]?`
    alias: Alias | None
    default_text: str | None
    kwarg_only: bool
    default: tuple | None = None  # normalized (kind, payload) once checked


def namespace_of(name: str) -> str:
    """`aten` for a registry name without namespace (`add`), else the prefix
    (`quantized_decomposed` of `quantized_decomposed::quantize_per_tensor`)."""
    return name.split("::", 1)[0] if "::" in name else "aten"


def base_name_of(name: str) -> str:
    """The name without its namespace (`quantize_per_tensor`)."""
    return name.split("::", 1)[1] if "::" in name else name


def qualified_name_of(name: str) -> str:
    """The name as torch prints it: `aten::add`, `quantized_decomposed::quantize_per_tensor`."""
    return name if "::" in name else "aten::" + name


@dataclass
class Schema:
    # Registry name: `add` for `aten::add` (the `aten` namespace is implied);
    # other namespaces are kept, `quantized_decomposed::quantize_per_tensor`.
    name: str
    overload: str
    args: list
    returns: list
    is_vararg: bool
    is_varret: bool
    tags: list = field(default_factory=list)


CONTAINER_TYPES = {"Dict", "Future", "RRef", "Await", "Union", "Tuple", "Optional", "List"}


class Parser:
    def __init__(self, text: str):
        self.s = text
        self.i = 0

    def fail(self, msg: str):
        raise GenError(f"cannot parse schema {self.s!r} at {self.i}: {msg}")

    def peek(self, k: int = 1) -> str:
        return self.s[self.i : self.i + k]

    def skip_ws(self):
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1

    def eat(self, tok: str) -> bool:
        self.skip_ws()
        if self.s.startswith(tok, self.i):
            self.i += len(tok)
            return True
        return False

    def expect(self, tok: str):
        if not self.eat(tok):
            self.fail(f"expected {tok!r}")

    def ident(self, dotted: bool = False) -> str:
        """An identifier; `dotted` also takes qualified class names such as
        `__torch__.torch.classes.rnn.CellParamsBase`."""
        self.skip_ws()
        j = self.i
        extra = "_." if dotted else "_"
        while j < len(self.s) and (self.s[j].isalnum() or self.s[j] in extra):
            j += 1
        if j == self.i:
            self.fail("expected identifier")
        tok = self.s[self.i : j]
        self.i = j
        return tok

    def alias_body(self) -> Alias:
        # after '(' : set ['!'] [' -> ' set] ')'
        def alias_set():
            names = []
            while True:
                self.skip_ws()
                if self.peek() == "*":
                    self.i += 1
                    names.append("*")
                else:
                    names.append(self.ident())
                if not self.eat("|"):
                    return names

        before = alias_set()
        write = self.eat("!")
        after = alias_set() if self.eat("->") else list(before)
        self.expect(")")
        return Alias(before, after, write, False)

    def base_type(self) -> str:
        self.skip_ws()
        if self.peek() == "(":  # tuple type
            self.i += 1
            elems = []
            if not self.eat(")"):
                while True:
                    t, a = self.type_()
                    if a is not None:
                        self.fail("alias inside tuple type")
                    elems.append(t)
                    if self.eat(")"):
                        break
                    self.expect(",")
            return "(" + ", ".join(elems) + ")"
        name = self.ident(dotted=True)
        if name in CONTAINER_TYPES and self.peek() == "(":
            self.i += 1
            elems = []
            while True:
                t, a = self.type_()
                if a is not None:
                    self.fail("alias inside container type")
                elems.append(t)
                if self.eat(")"):
                    break
                self.expect(",")
            return name + "(" + ", ".join(elems) + ")"
        return name

    def type_(self):
        """Returns (type text without annotation, Alias|None)."""
        ty = self.base_type()
        alias = None
        while True:
            if self.peek() == "(":
                if alias is not None:
                    self.fail("two alias annotations")
                self.i += 1
                alias = self.alias_body()
            elif self.peek() == "[":
                j = self.s.index("]", self.i)
                size = self.s[self.i + 1 : j]
                if size and not size.isdigit():
                    self.fail("bad list size")
                if alias is not None:
                    if alias.on_elements:
                        self.fail("alias on nested list elements")
                    alias.on_elements = True
                ty += "[" + size + "]"
                self.i = j + 1
            elif self.peek() == "?":
                self.i += 1
                ty += "?"
            else:
                return ty, alias

    def default_text(self) -> str:
        self.skip_ws()
        j = self.i
        depth = 0
        while j < len(self.s):
            c = self.s[j]
            if c == '"':
                j += 1
                while self.s[j] != '"':
                    j += 2 if self.s[j] == "\\" else 1
            elif c in "([":
                depth += 1
            elif c in ")]":
                if depth == 0:
                    break
                depth -= 1
            elif c == "," and depth == 0:
                break
            j += 1
        text = self.s[self.i : j]
        self.i = j
        return text

    def arg(self, kwarg_only: bool, is_return: bool) -> Arg:
        ty, alias = self.type_()
        self.skip_ws()
        name = ""
        if self.peek().isalpha() or self.peek() == "_":
            name = self.ident()
        default = None
        if not is_return and self.eat("="):
            default = self.default_text()
        return Arg(name, ty, alias, default, kwarg_only)

    def schema(self) -> Schema:
        """`ns::name[.overload](args) -> returns`; the name is returned
        without the namespace for `aten`, as `ns::name` otherwise (callers
        check the namespace they expect)."""
        qual = self.ident()
        self.expect("::")
        name = self.ident()
        if qual != "aten":
            name = qual + "::" + name
        overload = ""
        if self.eat("."):
            overload = self.ident()
        self.expect("(")
        args, vararg, kw = [], False, False
        if not self.eat(")"):
            while True:
                if self.eat("..."):
                    vararg = True
                elif self.eat("*"):
                    kw = True
                else:
                    args.append(self.arg(kw, False))
                if self.eat(")"):
                    break
                self.expect(",")
        self.expect("->")
        self.skip_ws()
        rets, varret = [], False
        # '(' always opens the return list: c10 prints a single return whose
        # type starts with '(' (a tuple) inside an extra pair of parentheses.
        if self.peek() == "(":
            self.i += 1
            if not self.eat(")"):
                while True:
                    if self.eat("..."):
                        varret = True
                    else:
                        rets.append(self.arg(False, True))
                    if self.eat(")"):
                        break
                    self.expect(",")
        elif self.eat("..."):
            varret = True
        else:
            rets.append(self.arg(False, True))
        self.skip_ws()
        if self.i != len(self.s):
            self.fail("trailing text")
        return Schema(name, overload, args, rets, vararg, varret)


def print_arg(a: Arg) -> str:
    ty = a.ty
    opt = ty.endswith("?")
    base = ty[:-1] if opt else ty
    out = base
    if a.alias is not None:
        if a.alias.on_elements:
            k = base.rindex("[")
            out = base[:k] + a.alias.text() + base[k:]
        else:
            out = base + a.alias.text()
    if opt:
        out += "?"
    if a.name:
        out += " " + a.name
    if a.default is not None:
        out += "=" + print_default(a.ty, a.default)
    return out


def print_default(ty: str, d: tuple) -> str:
    kind, v = d
    if kind == "None":
        return "None"
    if kind == "Bool":
        return "True" if v else "False"
    if kind == "Int":
        return str(v)
    if kind == "Float":
        return print_double(v)
    if kind == "Str":
        return print_quoted(v)
    if kind == "IntList":
        # c10 prints `int[N] x=[k, k, ...]` as `x=k` (only for non-optional
        # lists of plain `int`, not `SymInt`)
        if ty.startswith("int[") and ty.endswith("]") and len(v) > 1 and len(set(v)) == 1:
            return str(v[0])
        return "[" + ", ".join(str(x) for x in v) + "]"
    if kind == "FloatList":
        return "[" + ", ".join(print_double(x) for x in v) + "]"
    if kind == "BoolList":
        return "[" + ", ".join("True" if x else "False" for x in v) + "]"
    if kind in ("ScalarType", "Layout", "MemoryFormat"):
        return str(v[1])
    if kind == "Device":
        return v
    raise GenError(f"unknown default kind {kind}")


def print_schema(s: Schema, qualified: bool = True) -> str:
    """torch's `str(schema)`; `qualified=False` drops only an `aten::` prefix
    (a foreign namespace is part of the name)."""
    out = qualified_name_of(s.name) if qualified else s.name
    if s.overload:
        out += "." + s.overload
    parts, seen_kw = [], False
    for a in s.args:
        p = print_arg(a)
        if a.kwarg_only and not seen_kw:
            p = "*, " + p
            seen_kw = True
        parts.append(p)
    if s.is_vararg:
        parts.append("...")
    out += "(" + ", ".join(parts) + ") -> "
    rets = [print_arg(r) for r in s.returns]
    if s.is_varret:
        rets.append("...")
    paren = not ((len(s.returns) == 1 and not s.is_varret) or (not s.returns and s.is_varret))
    if len(s.returns) == 1 and not s.is_varret and rets[0].startswith("("):
        paren = True
    body = ", ".join(rets)
    return out + ("(" + body + ")" if paren else body)


# --------------------------------------------------------------------------
# ATen: collection and checks


def scalar_type_table(torch):
    """c10::ScalarType code -> torch dtype name (`int64`), via prim::dtype."""
    table = {}
    for attr in sorted(dir(torch)):
        d = getattr(torch, attr)
        if not isinstance(d, torch.dtype):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                code = int(torch.ops.prim.dtype(torch.empty(0, dtype=d)))
        except Exception:
            continue  # dtypes that cannot back a tensor (quantized, packed bits)
        table[code] = str(d).removeprefix("torch.")
    return sorted(table.items())


def check_enum_tables(torch):
    def code(decl):
        return torch._C.parse_schema(f"f({decl}) -> ()").arguments[0].default_value

    if code("Layout l=strided") != 0 or code("MemoryFormat m=contiguous_format") != 0:
        raise GenError("c10 Layout/MemoryFormat codes changed; update the tables")
    if set(n for _, n in LAYOUTS) != set(
        n for n in dir(torch) if isinstance(getattr(torch, n), torch.layout)
    ):
        raise GenError("torch layouts differ from the LAYOUTS table")
    fmts = {n for n in dir(torch) if isinstance(getattr(torch, n), torch.memory_format)}
    if set(n for _, n in MEMORY_FORMATS) != fmts - {"legacy_contiguous_format"}:
        raise GenError("torch memory formats differ from the MEMORY_FORMATS table")


def normalize_default(torch, ty: str, value, scalar_types) -> tuple:
    base = ty[:-1] if ty.endswith("?") else ty
    if value is None:
        return ("None", None)
    if base.endswith("]"):
        elem = base[: base.rindex("[")]
        if not isinstance(value, list):
            raise GenError(f"list default {value!r} for {ty}")
        if elem in ("int", "SymInt"):
            return ("IntList", [int(x) for x in value])
        if elem == "float":
            return ("FloatList", [float(x) for x in value])
        if elem == "bool":
            return ("BoolList", [bool(x) for x in value])
        raise GenError(f"unsupported list default type {ty}")
    if base == "ScalarType":
        return ("ScalarType", (scalar_types[int(value)], int(value)))
    if base == "Layout":
        return ("Layout", (dict(LAYOUTS)[int(value)], int(value)))
    if base == "MemoryFormat":
        return ("MemoryFormat", (dict(MEMORY_FORMATS)[int(value)], int(value)))
    if isinstance(value, torch.device):
        return ("Device", str(value))
    if isinstance(value, bool):
        return ("Bool", value)
    if isinstance(value, int):
        return ("Int", value)
    if isinstance(value, float):
        return ("Float", value)
    if isinstance(value, str):
        return ("Str", value)
    raise GenError(f"unsupported default {value!r} for {ty}")


def check_schema(torch, tgm, js, scalar_types, torchgen_failures) -> Schema:
    """Parses the JIT schema `js` from its text and cross-checks the parse
    against the JIT object, the print round trip and torchgen (where torchgen
    parses it; failures are appended to `torchgen_failures`); reads the tags
    of `torch.ops.<ns>.<op>.<overload>`. Any namespace."""
    text = str(js)
    s = Parser(text).schema()
    ctx = f"in {text}"
    if s.overload != js.overload_name or qualified_name_of(s.name) != js.name:
        raise GenError(f"name mismatch {ctx}")
    jargs = list(js.arguments)
    if len(jargs) != len(s.args) or len(js.returns) != len(s.returns):
        raise GenError(f"arity mismatch {ctx}")
    for idx, (a, j) in enumerate(zip(s.args + s.returns, jargs + list(js.returns))):
        is_return = idx >= len(s.args)
        if a.name != j.name:
            raise GenError(f"argument name mismatch {a.name!r} {ctx}")
        size = None
        base = a.ty.rstrip("?")
        if base.endswith("]") and base[base.rindex("[") + 1 : -1]:
            size = int(base[base.rindex("[") + 1 : -1])
        if j.N != size and not (is_return and j.N is None):
            raise GenError(f"list size mismatch for {a.name} {ctx}")
        ji = j.alias_info
        if a.alias is None:
            if ji is not None and (ji.before_set or ji.after_set or ji.is_write):
                raise GenError(f"missed alias on {a.name} {ctx}")
        elif a.alias.on_elements:
            if ji is None or ji.before_set or ji.is_write != a.alias.is_write:
                raise GenError(f"element alias mismatch on {a.name} {ctx}")
        else:
            if (
                ji is None
                or set(ji.before_set) != set(a.alias.before)
                or set(ji.after_set) != set(a.alias.after)
                or ji.is_write != a.alias.is_write
            ):
                raise GenError(f"alias mismatch on {a.name} {ctx}")
    for a, j in zip(s.args, jargs):
        if a.kwarg_only != j.kwarg_only:
            raise GenError(f"kwarg_only mismatch on {a.name} {ctx}")
        if (a.default_text is not None) != j.has_default_value():
            raise GenError(f"default presence mismatch on {a.name} {ctx}")
        if a.default_text is not None:
            a.default = normalize_default(torch, a.ty, j.default_value, scalar_types)
            if print_default(a.ty, a.default) != a.default_text:
                raise GenError(
                    f"default of {a.name} prints as {print_default(a.ty, a.default)!r}, "
                    f"schema says {a.default_text!r} {ctx}"
                )
    if print_schema(s) != text:
        raise GenError(f"round trip failed:\n  {print_schema(s)}\n  {text}")
    # torchgen cross-check of declared types and annotations.
    try:
        tg = tgm.FunctionSchema.parse(text.removeprefix(namespace_of(s.name) + "::"))
    except Exception as e:  # TorchScript-only builtins
        torchgen_failures.append((text, str(e).splitlines()[0] if str(e) else type(e).__name__))
    else:
        tg_args = list(tg.arguments.flat_all)
        tg_rets = list(tg.returns)
        if [x.name for x in tg_args] != [a.name for a in s.args]:
            raise GenError(f"torchgen argument order differs {ctx}")
        for a, t in zip(s.args + s.returns, tg_args + tg_rets):
            ann = str(t.annotation) if t.annotation is not None else None
            mine = a.alias.text()[1:-1] if a.alias is not None else None
            if str(t.type) != a.ty or ann != mine:
                raise GenError(
                    f"torchgen disagrees on {a.name}: {t.type} ({ann}) vs {a.ty} ({mine}) {ctx}"
                )
    ns = namespace_of(s.name)
    try:
        ovl = getattr(getattr(getattr(torch.ops, ns), base_name_of(s.name)), s.overload or "default")
    except (AttributeError, RuntimeError) as e:
        raise GenError(f"no torch.ops.{ns} overload for {text}: {e}") from e
    s.tags = sorted(t.name for t in ovl.tags)
    return s


def check_keys(schemas: list):
    """Sorted by (name, overload), unique, no overload literally named `default`."""
    keys = [(s.name, s.overload) for s in schemas]
    if keys != sorted(keys):
        raise GenError("schemas not sorted by (name, overload)")
    if len(set(keys)) != len(keys):
        raise GenError("duplicate (name, overload)")
    if any(o == "default" for _, o in keys):
        raise GenError("an overload is literally named 'default'; lookup() would be ambiguous")


def collect_aten():
    import torch
    import torchgen.model as tgm

    check_enum_tables(torch)
    scalar_types = dict(scalar_type_table(torch))
    out = []
    torchgen_failures = []
    for js in torch._C._jit_get_all_schemas():
        if not js.name.startswith("aten::"):
            continue
        out.append(check_schema(torch, tgm, js, scalar_types, torchgen_failures))
    out.sort(key=lambda s: (s.name, s.overload))
    check_keys(out)
    return out, torchgen_failures, sorted(scalar_types.items())


def pinned_keys() -> set:
    """(name, overload) of every overload in the checked-in pinned registry."""
    import re

    text = ATEN_OUT.read_text()
    body = text[text.index("pub static OPS"):]
    return {(m.group(1), m.group(2)) for m in re.finditer(r'^    op!\("([^"]*)", "([^"]*)"', body, re.M)}


def capture_newer() -> int:
    """Under a newer torch: the overloads the pinned registry lacks, as JSON."""
    import json

    import torch

    pinned_text = ATEN_OUT.read_text()
    pinned_version = pinned_text.split("from torch==", 1)[1].split(" ", 1)[0]
    version = torch.__version__.split("+")[0]
    if version == pinned_version:
        raise GenError(f"--capture-newer needs a torch newer than the pinned {pinned_version}")
    aten, _, _ = collect_aten()
    keys = pinned_keys()
    entries = [schema_entry(sch) for sch in aten if (sch.name, sch.overload) not in keys]
    doc = {"torch": version, "pinned": pinned_version, "overloads": entries}
    NEWER_JSON.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(f"wrote {NEWER_JSON.relative_to(ROOT)}: {len(entries)} overloads of torch {version} absent from {pinned_version}")
    return 0


def schema_entry(sch: Schema) -> dict:
    """The JSON record of a checked schema: its text, normalized defaults, tags."""
    return {
        "schema": print_schema(sch),
        "defaults": {a.name: list(a.default) for a in sch.args if a.default is not None},
        "tags": sch.tags,
    }


def schema_from_entry(e: dict, scalar_types: dict, what: str) -> Schema:
    """A schema recorded by `schema_entry`, re-parsed and re-checked: every
    default present and printing as the text says (a ScalarType default must
    name the same code in the pinned torch), the text round-trips."""
    sch = Parser(e["schema"]).schema()
    for a in sch.args:
        if (a.default_text is None) != (a.name not in e["defaults"]):
            raise GenError(f"default of {a.name} missing or extra in {e['schema']}")
        if a.default_text is not None:
            a.default = tuple(e["defaults"][a.name])
            if print_default(a.ty, a.default) != a.default_text:
                raise GenError(f"recorded default of {a.name} prints differently in {e['schema']}")
            if a.default[0] == "ScalarType" and scalar_types.get(a.default[1][1]) != a.default[1][0]:
                raise GenError(f"default of {a.name} names a dtype the pinned torch codes differently: {e['schema']}")
    if print_schema(sch) != e["schema"]:
        raise GenError(f"{what} schema does not round-trip: {e['schema']}")
    sch.tags = list(e["tags"])
    return sch


def load_newer(pinned: list, scalar_types: dict) -> tuple:
    """(version, schemas) of tools/gen/newer_torch_schemas.json absent from `pinned`."""
    import json

    if not NEWER_JSON.exists():
        return None, []
    doc = json.loads(NEWER_JSON.read_text())
    have = {(x.name, x.overload) for x in pinned}
    out = []
    for e in doc["overloads"]:
        sch = schema_from_entry(e, scalar_types, "newer")
        if namespace_of(sch.name) != "aten":
            raise GenError(f"not an aten schema in {NEWER_JSON.name}: {e['schema']}")
        if (sch.name, sch.overload) in have:
            continue  # the pin has it (a newer pin): its own schema wins
        out.append(sch)
    return doc["torch"], out


def is_quantization_op(qualified: str) -> bool:
    """`quantized_decomposed::*`, or one of torchao's quantization primitives."""
    ns, _, base = qualified.partition("::")
    return ns == QUANTIZED_NAMESPACE or (ns == "torchao" and base in TORCHAO_PRIMITIVES)


def capture_quantized() -> int:
    """With torchao importable: the quantization ops of PT2E-quantized
    programs (`is_quantization_op`), checked like the ATen schemas, as JSON."""
    import json

    import torch
    import torchgen.model as tgm

    try:
        import torchao
    except ImportError as e:
        raise GenError(f"--capture-quantized needs torchao importable: {e}") from e
    check_enum_tables(torch)
    scalar_types = dict(scalar_type_table(torch))
    torchgen_failures = []
    out = [
        check_schema(torch, tgm, js, scalar_types, torchgen_failures)
        for js in torch._C._jit_get_all_schemas()
        if is_quantization_op(js.name)
    ]
    out.sort(key=lambda s: (s.name, s.overload))
    check_keys(out)
    names = {s.name for s in out}
    missing = [p for p in TORCHAO_PRIMITIVES if "torchao::" + p not in names]
    if missing or not any(namespace_of(n) == QUANTIZED_NAMESPACE for n in names):
        raise GenError(
            f"torchao {torchao.__version__} does not register {missing or QUANTIZED_NAMESPACE + '::*'}"
        )
    for text, err in torchgen_failures:
        print(f"torchgen cannot parse: {text}  [{err}]")
    doc = {
        "torch": torch.__version__.split("+")[0],
        "torchao": torchao.__version__.split("+")[0],
        "overloads": [schema_entry(s) for s in out],
    }
    QUANTIZED_JSON.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(
        f"wrote {QUANTIZED_JSON.relative_to(ROOT)}: {len(out)} overloads of torchao {doc['torchao']} "
        f"(torch {doc['torch']}; {len(torchgen_failures)} not parseable by torchgen)"
    )
    return 0


def load_quantized(scalar_types: dict) -> tuple:
    """(torchao version, schemas) of tools/gen/quantized_schemas.json. Never
    imports torchao: the JSON is the input."""
    import json

    if not QUANTIZED_JSON.exists():
        return None, []
    doc = json.loads(QUANTIZED_JSON.read_text())
    out = []
    for e in doc["overloads"]:
        sch = schema_from_entry(e, scalar_types, "quantized")
        if not is_quantization_op(sch.name):
            raise GenError(f"not a quantization op in {QUANTIZED_JSON.name}: {e['schema']}")
        out.append(sch)
    out.sort(key=lambda s: (s.name, s.overload))
    check_keys(out)
    return doc["torchao"], out


# --------------------------------------------------------------------------
# ATen: Rust emission


def rs_default(d: tuple) -> str:
    kind, v = d
    if kind == "None":
        return "D::None"
    if kind == "Bool":
        return f"D::Bool({rs_bool(v)})"
    if kind == "Int":
        return f"D::Int({v})"
    if kind == "Float":
        return f"D::Float({rs_f64(v)})"
    if kind == "Str":
        return f"D::Str({rs_str(v)})"
    if kind == "IntList":
        return "D::IntList(&[" + ", ".join(str(x) for x in v) + "])"
    if kind == "FloatList":
        return "D::FloatList(&[" + ", ".join(rs_f64(x) for x in v) + "])"
    if kind == "BoolList":
        return "D::BoolList(&[" + ", ".join(rs_bool(x) for x in v) + "])"
    if kind in ("ScalarType", "Layout", "MemoryFormat"):
        return f"D::{kind}({rs_str(v[0])})"
    if kind == "Device":
        return f"D::Device({rs_str(v)})"
    raise GenError(kind)


def rs_alias(al: Alias) -> str:
    if al.before == al.after:
        f = ("w" if al.is_write else "v") + ("e" if al.on_elements else "")
        return f"{f}({rs_strs(al.before)})"
    return "al({}, {}, {}, {})".format(
        rs_strs(al.before), rs_strs(al.after), rs_bool(al.is_write), rs_bool(al.on_elements)
    )


def rs_arg(a: Arg) -> str:
    n, t = rs_str(a.name), rs_str(a.ty)
    if a.alias is not None and a.default is not None:
        return f"arg({n}, {t}, Some({rs_default(a.default)}), {rs_bool(a.kwarg_only)}, Some({rs_alias(a.alias)}))"
    f = "k" if a.kwarg_only else "p"
    if a.alias is not None:
        return f"{f}a({n}, {t}, {rs_alias(a.alias)})"
    if a.default is None:
        return f"{f}({n}, {t})"
    return f"{f}d({n}, {t}, {rs_default(a.default)})"


def rs_ret(r: Arg) -> str:
    if r.alias is not None:
        return f"ra({rs_str(r.name)}, {rs_str(r.ty)}, {rs_alias(r.alias)})"
    return f"r({rs_str(r.name)}, {rs_str(r.ty)})"


def header(versions) -> str:
    return (
        "// @generated by tools/gen/gen_registries.py from torch=={torch} and onnx=={onnx}. DO NOT EDIT.\n"
        "// Regenerate: .venv/bin/python tools/gen/gen_registries.py\n".format(**versions)
    )


def emit_aten(schemas, scalar_types, versions, newer=(None, []), quantized=(None, [])) -> str:
    newer_version, newer_schemas = newer
    newer_keys = sorted((x.name, x.overload) for x in newer_schemas)
    torchao_version, quantized_schemas = quantized
    quantized_keys = sorted((x.name, x.overload) for x in quantized_schemas)
    schemas = sorted(list(schemas) + list(newer_schemas) + list(quantized_schemas), key=lambda x: (x.name, x.overload))
    check_keys(schemas)
    L = [header(versions)]
    L.append(
        """//! Every `aten::` overload of `torch._C._jit_get_all_schemas()`, plus the
//! newer torch's overloads and the quantization ops torchao registers, sorted
//! by (name, overload). Data only: the types and accessors live in `super`.

use super::{AliasInfo, Argument, DefaultValue as D, OpSchema, Return};

/// Version of the `torch` package this registry was generated from.
pub const TORCH_VERSION: &str = "%(torch)s";

/// The newer torch whose overloads absent from the pinned one are merged in
/// (tools/gen/newer_torch_schemas.json); "" when none.
pub const NEWER_TORCH_VERSION: &str = "%(newer)s";

/// Those overloads, (name, overload), sorted.
pub static NEWER_OVERLOADS: &[(&str, &str)] = &[%(newer_keys)s];

/// The torchao whose quantization ops (every `quantized_decomposed::`
/// overload and torchao's quantization primitives such as
/// `torchao::quantize_affine`) are merged in (tools/gen/quantized_schemas.json);
/// "" when none.
pub const TORCHAO_VERSION: &str = "%(torchao)s";

/// Those overloads, (namespaced name, overload), sorted.
pub static QUANTIZED_OVERLOADS: &[(&str, &str)] = &[%(quantized_keys)s];

/// `c10::ScalarType` code -> torch dtype name, for the dtypes of this torch build
/// that can back a tensor (probed with `prim::dtype`).
pub static SCALAR_TYPES: &[(i64, &str)] = &[%(st)s];
/// `c10::Layout` code -> torch layout name.
pub static LAYOUTS: &[(i64, &str)] = &[%(lay)s];
/// `c10::MemoryFormat` code -> torch memory format name.
pub static MEMORY_FORMATS: &[(i64, &str)] = &[%(mf)s];

// Compact constructors for the table below: p/pd/pa = positional (plain, with
// default, with alias annotation), k/kd/ka = keyword-only; w/v = alias set that
// is written (`a!`) / only aliased (`a`), an `e` suffix puts the annotation on
// the list elements (`Tensor(a!)[]`); al = general form (`a -> *`).
const fn arg(name: &'static str, ty: &'static str, default: Option<D>, kwarg_only: bool, alias: Option<AliasInfo>) -> Argument {
    Argument { name, ty, default, kwarg_only, alias }
}
const fn p(name: &'static str, ty: &'static str) -> Argument {
    arg(name, ty, None, false, None)
}
const fn pd(name: &'static str, ty: &'static str, d: D) -> Argument {
    arg(name, ty, Some(d), false, None)
}
const fn pa(name: &'static str, ty: &'static str, alias: AliasInfo) -> Argument {
    arg(name, ty, None, false, Some(alias))
}
const fn k(name: &'static str, ty: &'static str) -> Argument {
    arg(name, ty, None, true, None)
}
const fn kd(name: &'static str, ty: &'static str, d: D) -> Argument {
    arg(name, ty, Some(d), true, None)
}
const fn ka(name: &'static str, ty: &'static str, alias: AliasInfo) -> Argument {
    arg(name, ty, None, true, Some(alias))
}
const fn al(before_set: &'static [&'static str], after_set: &'static [&'static str], is_write: bool, on_elements: bool) -> AliasInfo {
    AliasInfo { before_set, after_set, is_write, on_elements }
}
const fn w(set: &'static [&'static str]) -> AliasInfo {
    al(set, set, true, false)
}
const fn we(set: &'static [&'static str]) -> AliasInfo {
    al(set, set, true, true)
}
const fn v(set: &'static [&'static str]) -> AliasInfo {
    al(set, set, false, false)
}
const fn ve(set: &'static [&'static str]) -> AliasInfo {
    al(set, set, false, true)
}
const fn r(name: &'static str, ty: &'static str) -> Return {
    Return { name, ty, alias: None }
}
const fn ra(name: &'static str, ty: &'static str, alias: AliasInfo) -> Return {
    Return { name, ty, alias: Some(alias) }
}

// op!(name, overload, [arguments], [returns], [tags] [, vararg, varret])
macro_rules! op {
    ($name:literal, $overload:literal, [$($a:expr),* $(,)?], [$($r:expr),* $(,)?], [$($t:literal),* $(,)?]) => {
        op!($name, $overload, [$($a),*], [$($r),*], [$($t),*], false, false)
    };
    ($name:literal, $overload:literal, [$($a:expr),* $(,)?], [$($r:expr),* $(,)?], [$($t:literal),* $(,)?], $vararg:literal, $varret:literal) => {
        OpSchema {
            name: $name,
            overload: $overload,
            arguments: &[$($a),*],
            returns: &[$($r),*],
            tags: &[$($t),*],
            is_vararg: $vararg,
            is_varret: $varret,
        }
    };
}

/// All overloads, sorted by (name, overload) in byte order.
pub static OPS: &[OpSchema] = &[
"""
        % {
            "torch": versions["torch"],
            "onnx": versions["onnx"],
            "newer": newer_version or "",
            "newer_keys": ", ".join(f"({rs_str(n)}, {rs_str(o)})" for n, o in newer_keys),
            "torchao": torchao_version or "",
            "quantized_keys": ", ".join(f"({rs_str(n)}, {rs_str(o)})" for n, o in quantized_keys),
            "st": ", ".join(f"({c}, {rs_str(n)})" for c, n in scalar_types),
            "lay": ", ".join(f"({c}, {rs_str(n)})" for c, n in LAYOUTS),
            "mf": ", ".join(f"({c}, {rs_str(n)})" for c, n in MEMORY_FORMATS),
        }
    )
    for s in schemas:
        flags = ""
        if s.is_vararg or s.is_varret:
            flags = f", {rs_bool(s.is_vararg)}, {rs_bool(s.is_varret)}"
        L.append(
            "    op!({}, {}, [{}], [{}], [{}]{}),\n".format(
                rs_str(s.name),
                rs_str(s.overload),
                ", ".join(rs_arg(a) for a in s.args),
                ", ".join(rs_ret(r) for r in s.returns),
                ", ".join(rs_str(t) for t in s.tags),
                flags,
            )
        )
    L.append("];\n")
    return "".join(L)


# --------------------------------------------------------------------------
# ONNX


ATTR_TYPES = {
    "FLOAT": "Float",
    "INT": "Int",
    "STRING": "String",
    "TENSOR": "Tensor",
    "GRAPH": "Graph",
    "FLOATS": "Floats",
    "INTS": "Ints",
    "STRINGS": "Strings",
    "TENSORS": "Tensors",
    "GRAPHS": "Graphs",
    "SPARSE_TENSOR": "SparseTensor",
    "SPARSE_TENSORS": "SparseTensors",
    "TYPE_PROTO": "TypeProto",
    "TYPE_PROTOS": "TypeProtos",
}
PARAM_OPTIONS = {"Single": "Single", "Optional": "Optional", "Variadic": "Variadic"}


def onnx_attr_default(attr) -> str:
    from onnx import AttributeProto

    dv = attr.default_value
    if dv is None or dv.type == AttributeProto.UNDEFINED:
        return "None"
    t = dv.type
    if t == AttributeProto.INT:
        return f"Some(AttrDefault::Int({dv.i}))"
    if t == AttributeProto.FLOAT:
        return f"Some(AttrDefault::Float({rs_f32(dv.f)}))"
    if t == AttributeProto.STRING:
        return f"Some(AttrDefault::String({rs_str(dv.s.decode('utf-8'))}))"
    if t == AttributeProto.INTS:
        return "Some(AttrDefault::Ints(&[" + ", ".join(str(x) for x in dv.ints) + "]))"
    if t == AttributeProto.FLOATS:
        return "Some(AttrDefault::Floats(&[" + ", ".join(rs_f32(x) for x in dv.floats) + "]))"
    if t == AttributeProto.STRINGS:
        return "Some(AttrDefault::Strings(" + rs_strs(x.decode("utf-8") for x in dv.strings) + "))"
    return "Some(AttrDefault::Other)"


def collect_onnx():
    import onnx.defs

    schemas = list(onnx.defs.get_all_schemas_with_history())
    schemas.sort(key=lambda s: (s.domain, s.name, s.since_version))
    keys = [(s.domain, s.name, s.since_version) for s in schemas]
    if len(set(keys)) != len(keys):
        raise GenError("duplicate ONNX (domain, name, since_version)")
    return schemas



# The opsets the lowering targets (passes/lowering/src/lib.rs MIN_OPSET / MAX_OPSET).
BUILDER_OPSETS = (17, 28)
RUST_KEYWORDS = {"as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if",
                 "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "static",
                 "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await",
                 "dyn", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
                 "unsized", "virtual", "yield", "try", "gen"}


def snake(name: str) -> str:
    out = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()
    return out + "_" if out in RUST_KEYWORDS else out


def emit_onnx_builder(schemas, versions) -> str:
    """`passes/lowering/src/onnx_ops.rs`: one method a default-domain op on
    `Ops` (`b.onnx()`), its inputs and attributes typed, for the opsets the
    lowering targets."""
    import onnx.defs

    lo, hi = BUILDER_OPSETS
    by_name = {}
    for sc in schemas:
        if sc.domain == "":
            by_name.setdefault(sc.name, []).append(sc)
    A = onnx.defs.OpSchema.AttrType
    rust_attr = {
        A.INT: ("i64", "Attr::Int({v})"),
        A.FLOAT: ("f32", "Attr::Float({v})"),
        A.STRING: ("&str", "Attr::String({v}.to_string())"),
        A.INTS: ("&[i64]", "Attr::Ints({v}.to_vec())"),
        A.FLOATS: ("&[f32]", "Attr::Floats({v}.to_vec())"),
        A.STRINGS: ("&[&str]", "Attr::Strings({v}.iter().map(|s| s.to_string()).collect())"),
        A.TENSOR: ("Attribute<'c>", "{v}"),
    }
    O = onnx.defs.OpSchema.FormalParameterOption
    methods = []
    skipped = []
    for name in sorted(by_name):
        versions_ = sorted(by_name[name], key=lambda x: x.since_version)
        # Versions in force at some opset of lo..hi.
        live = []
        for i, sc in enumerate(versions_):
            end = versions_[i + 1].since_version - 1 if i + 1 < len(versions_) else 10**9
            if sc.since_version <= hi and end >= lo:
                live.append(sc)
        if not live or live[-1].deprecated:
            continue
        latest = live[-1]
        attrs = {}
        unsupported = None
        for sc in live:
            for an, a in sc.attributes.items():
                if a.type not in rust_attr:
                    # An optional one (Constant's sparse_value) is left out;
                    # a required one (If's branches) leaves the op to the
                    # by-name form.
                    if a.required:
                        unsupported = f"attribute {an} of type {a.type.name}"
                    continue
                attrs.setdefault(an, a)
        if unsupported:
            skipped.append(f"{name} ({unsupported})")
            continue
        required = {an for an in attrs if all(an in sc.attributes and sc.attributes[an].required for sc in live)}
        input_names = {snake(f.name) for f in latest.inputs}
        params = []
        pushes = []
        for f in latest.inputs:
            v = snake(f.name)
            if f.option == O.Variadic:
                params.append(f"{v}: &[Value<'c, 'v>]")
                pushes.append(f"node_inputs.extend({v}.iter().map(|v| Some(*v)));")
            elif f.option == O.Optional:
                params.append(f"{v}: Option<Value<'c, 'v>>")
                pushes.append(f"node_inputs.push({v});")
            else:
                params.append(f"{v}: Value<'c, 'v>")
                pushes.append(f"node_inputs.push(Some({v}));")
        attr_pushes = []
        for an in sorted(attrs):
            ty, conv = rust_attr[attrs[an].type]
            # An attribute that became an input (ReduceSumSquare's axes at 18).
            v = snake(an) + "_attr" if snake(an) in input_names else snake(an)
            if an in required:
                params.append(f"{v}: {ty}")
                attr_pushes.append(f"node_attrs.push(({rs_str(an)}, {attr_value(conv, v)}));")
            else:
                params.append(f"{v}: Option<{ty}>")
                attr_pushes.append(f"if let Some({v}) = {v} {{ node_attrs.push(({rs_str(an)}, {attr_value(conv, v)})); }}")
        since = ", ".join(str(sc.since_version) for sc in live)
        doc = f"    /// `{name}` (versions {since} in opsets {lo}..{hi})."
        body = [f"        let mut node_inputs: Vec<Option<Value<'c, 'v>>> = Vec::new();" if pushes else
                f"        let node_inputs: Vec<Option<Value<'c, 'v>>> = Vec::new();"]
        body += ["        " + p for p in pushes]
        body.append(f"        let {'mut ' if attr_pushes else ''}node_attrs: Vec<(&'static str, AttrValue<'c>)> = Vec::new();")
        body += ["        " + p for p in attr_pushes]
        body.append(f"        Node {{ b: self.b, op_type: {rs_str(name)}, inputs: node_inputs, attrs: node_attrs }}")
        methods.append(
            f"{doc}\n    #[allow(clippy::too_many_arguments)]\n    pub fn {snake(name)}<'v>(&self, {', '.join(params)}) -> Node<'b, 'c, 'a, 'v> {{\n"
            + "\n".join(body) + "\n    }"
        )
    header = f"""// @generated by tools/gen/gen_registries.py from onnx=={versions['onnx']}. DO NOT EDIT.
// Regenerate: .venv/bin/python tools/gen/gen_registries.py

//! The typed ONNX builder: one method per default-domain op of the opsets
//! the lowering targets ({lo}..{hi}), on [`Ops`] (`builder.onnx()`), its
//! inputs and attributes typed from the onnx registry, so a misspelled op or
//! attribute, a wrong attribute type or a missing required input does not
//! compile. Optional inputs and attributes are `Option`s; variadic inputs a
//! slice. The [`Node`] it returns is built by `.like(v)` (one result of
//! `v`'s element type, shape to be inferred), `.typed(ty)` or
//! `.results(&[ty, ...])`. Which version of the op a model gets is the
//! model's opset (`onnx-verify` checks the signature of that version).
//! Ops taking graph, type or sparse attributes are built by name:
//! {', '.join(skipped) if skipped else 'none'}.

use crate::builder::{{Attr, Builder}};
use melior::ir::{{Attribute, Type, Value}};

/// An attribute of a typed call: a plain value, or an MLIR attribute
/// (TENSOR attributes).
pub enum AttrValue<'c> {{
    Plain(Attr),
    Raw(Attribute<'c>),
}}

/// The typed ops of a [`Builder`].
pub struct Ops<'b, 'c, 'a> {{
    b: &'b Builder<'c, 'a>,
}}

impl<'c, 'a> Builder<'c, 'a> {{
    /// The typed ONNX ops (`b.onnx().transpose(x, Some(&[1, 0])).like(x)`).
    pub fn onnx(&self) -> Ops<'_, 'c, 'a> {{
        Ops {{ b: self }}
    }}
}}

/// An op ready to be built: its inputs (`None` for an optional input left
/// out) and attributes.
pub struct Node<'b, 'c, 'a, 'v> {{
    b: &'b Builder<'c, 'a>,
    op_type: &'static str,
    inputs: Vec<Option<Value<'c, 'v>>>,
    attrs: Vec<(&'static str, AttrValue<'c>)>,
}}

impl<'c, 'a> Node<'_, 'c, 'a, '_> {{
    /// One result with the element type of `like` and an unknown shape.
    pub fn like(self, like: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {{
        let element = crate::builder::element_type(melior::ir::ValueLike::r#type(&like)).ok_or("operand is not a tensor")?;
        let ty = self.b.unranked(element);
        self.typed(ty)
    }}

    /// One result of type `ty`.
    pub fn typed(self, ty: Type<'c>) -> Result<Value<'c, 'a>, String> {{
        Ok(self.results(&[ty])?.remove(0))
    }}

    /// The results, of types `types`.
    pub fn results(self, types: &[Type<'c>]) -> Result<Vec<Value<'c, 'a>>, String> {{
        // Trailing optional inputs left out are dropped; others are `onnx.none`.
        let mut inputs = self.inputs;
        while inputs.last().is_some_and(Option::is_none) {{
            inputs.pop();
        }}
        let mut values: Vec<Value<'c, '_>> = Vec::with_capacity(inputs.len());
        for input in inputs {{
            values.push(match input {{
                Some(v) => v,
                None => self.b.none()?,
            }});
        }}
        let mut plain = Vec::new();
        let mut raw = Vec::new();
        for (name, value) in self.attrs {{
            match value {{
                AttrValue::Plain(a) => plain.push((name, a)),
                AttrValue::Raw(a) => raw.push((name, a)),
            }}
        }}
        if raw.is_empty() {{
            let plain: Vec<(&str, Attr)> = plain;
            return self.b.build(self.op_type, &values, &plain, types);
        }}
        let mut attributes: Vec<(melior::ir::Identifier<'c>, Attribute<'c>)> =
            plain.iter().map(|(n, a)| (melior::ir::Identifier::new(self.b.context, n), self.b.attribute(a))).collect();
        attributes.extend(raw.into_iter().map(|(n, a)| (melior::ir::Identifier::new(self.b.context, n), a)));
        self.b.build_raw(self.op_type, &values, attributes, types)
    }}
}}

impl<'b, 'c, 'a> Ops<'b, 'c, 'a> {{
"""
    return header + "\n\n".join(methods) + "\n}\n"


def attr_value(conv: str, v: str) -> str:
    inner = conv.format(v=v)
    return f"AttrValue::Raw({inner})" if conv == "{v}" else f"AttrValue::Plain({inner})"


def opset_ranges() -> str:
    import onnx.defs

    ranges = sorted(onnx.defs.C.schema_version_map().items())
    if dict(ranges).get("", (0, 0))[1] != onnx.defs.onnx_opset_version():
        raise GenError("schema_version_map() disagrees with onnx_opset_version()")
    return ", ".join(f"({rs_str(d)}, {lo}, {hi})" for d, (lo, hi) in ranges)


def emit_onnx(schemas, versions) -> str:
    L = [header(versions)]
    L.append(
        """//! Every schema of `onnx.defs.get_all_schemas_with_history()`, sorted by
//! (domain, name, since_version). Data only: the types and accessors live in
//! `super`. Doc strings are left out.

use super::{AttrDefault, AttrType::*, Attribute, FormalParameter, OpSchema, ParamOption::*, TypeConstraint};

/// Version of the `onnx` package this registry was generated from.
pub const ONNX_VERSION: &str = "%(onnx)s";

/// (domain, first opset, last opset) of every operator-set domain this onnx
/// build registers (`onnx.defs` `schema_version_map()`).
pub static OPSET_RANGES: &[(&str, u32, u32)] = &[%(ranges)s];

macro_rules! io {
    ($name:literal, $ty:literal, $opt:ident, $homog:literal, $min_arity:literal) => {
        FormalParameter { name: $name, type_str: $ty, option: $opt, is_homogeneous: $homog, min_arity: $min_arity }
    };
}
macro_rules! at {
    ($name:literal, $ty:ident, $required:literal, $default:expr) => {
        Attribute { name: $name, ty: $ty, required: $required, default: $default }
    };
}
macro_rules! tc {
    ($param:literal, $types:expr) => {
        TypeConstraint { type_param: $param, allowed_types: $types }
    };
}

"""
        % dict(versions, ranges=opset_ranges())
    )
    # Intern the allowed-type lists (many constraints share the same list).
    lists = {}
    for s in schemas:
        for c in s.type_constraints:
            key = tuple(c.allowed_type_strs)
            if key not in lists:
                lists[key] = f"T{len(lists)}"
    for key, ident in lists.items():
        L.append(f"const {ident}: &[&str] = {rs_strs(key)};\n")
    L.append("\n/// All ONNX schemas, sorted by (domain, name, since_version).\npub static SCHEMAS: &[OpSchema] = &[\n")
    for s in schemas:
        def params(ps):
            return ", ".join(
                "io!({}, {}, {}, {}, {})".format(
                    rs_str(p.name),
                    rs_str(p.type_str),
                    PARAM_OPTIONS[p.option.name],
                    rs_bool(p.is_homogeneous),
                    p.min_arity,
                )
                for p in ps
            )

        attrs = ", ".join(
            "at!({}, {}, {}, {})".format(
                rs_str(a.name), ATTR_TYPES[a.type.name], rs_bool(a.required), onnx_attr_default(a)
            )
            for _, a in sorted(s.attributes.items())
        )
        tcs = ", ".join(
            "tc!({}, {})".format(rs_str(c.type_param_str), lists[tuple(c.allowed_type_strs)])
            for c in s.type_constraints
        )
        L.append(
            "    OpSchema {{ domain: {}, name: {}, since_version: {}, deprecated: {}, "
            "min_input: {}, max_input: {}, min_output: {}, max_output: {},\n"
            "        inputs: &[{}],\n        outputs: &[{}],\n        attributes: &[{}],\n"
            "        type_constraints: &[{}] }},\n".format(
                rs_str(s.domain),
                rs_str(s.name),
                s.since_version,
                rs_bool(s.deprecated),
                s.min_input,
                s.max_input,
                s.min_output,
                s.max_output,
                params(s.inputs),
                params(s.outputs),
                attrs,
                tcs,
            )
        )
    L.append("];\n")
    return "".join(L)


# --------------------------------------------------------------------------


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if an output is stale")
    ap.add_argument("-v", "--verbose", action="store_true", help="list the schemas torchgen cannot parse")
    ap.add_argument(
        "--capture-newer", action="store_true", help="with a newer torch: write tools/gen/newer_torch_schemas.json"
    )
    ap.add_argument(
        "--capture-quantized",
        action="store_true",
        help="with torchao importable: write tools/gen/quantized_schemas.json",
    )
    opts = ap.parse_args()
    if opts.capture_newer and opts.capture_quantized:
        ap.error("--capture-newer and --capture-quantized are separate runs")
    if opts.capture_newer:
        return capture_newer()
    if opts.capture_quantized:
        return capture_quantized()

    import onnx
    import torch

    versions = {"torch": torch.__version__.split("+")[0], "onnx": onnx.__version__}
    aten, tg_failures, scalar_types = collect_aten()
    onnx_schemas = collect_onnx()
    newer = load_newer(aten, dict(scalar_types))
    quantized = load_quantized(dict(scalar_types))
    if "torchao" in sys.modules:
        raise GenError("torchao was imported: the generation must read tools/gen/quantized_schemas.json only")
    outputs = {
        ATEN_OUT: emit_aten(aten, scalar_types, versions, newer, quantized),
        ONNX_OUT: emit_onnx(onnx_schemas, versions),
        BUILDER_OUT: emit_onnx_builder(onnx_schemas, versions),
    }
    summary = (
        f"aten: {len(aten)} overloads over {len(set(s.name for s in aten))} names "
        f"(+{len(newer[1])} of torch {newer[0]}) "
        f"(+{len(quantized[1])} quantization ops of torchao {quantized[0]}) "
        f"({len(tg_failures)} TorchScript builtins not parseable by torchgen); "
        f"onnx: {len(onnx_schemas)} schemas"
    )
    if opts.verbose:
        for text, err in tg_failures:
            print(f"torchgen cannot parse: {text}  [{err}]")

    stale = []
    for path, text in outputs.items():
        old = path.read_text() if path.exists() else None
        if old == text:
            continue
        stale.append(path)
        if not opts.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    rel = [str(p.relative_to(ROOT)) for p in stale]
    if opts.check:
        if stale:
            for p in stale:
                old = p.read_text().splitlines() if p.exists() else []
                diff = list(
                    difflib.unified_diff(old, outputs[p].splitlines(), str(p.relative_to(ROOT)), "generated", lineterm="", n=0)
                )
                print(f"stale: {p.relative_to(ROOT)} ({len(diff)} diff lines); first lines:", file=sys.stderr)
                for line in diff[:12]:
                    print("  " + line[:200], file=sys.stderr)
            print(
                "error: generated registries are stale: " + ", ".join(rel)
                + "\nRegenerate: .venv/bin/python tools/gen/gen_registries.py",
                file=sys.stderr,
            )
            return 1
        print(f"up to date ({summary})")
        return 0
    print(("wrote " + ", ".join(rel) if rel else "unchanged") + f" ({summary})")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except GenError as e:
        print(f"gen_registries: error: {e}", file=sys.stderr)
        sys.exit(2)
