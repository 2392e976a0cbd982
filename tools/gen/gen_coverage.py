#!/usr/bin/env python3
"""Regenerate docs/coverage.md: what the lowering covers.

Run from the repository root (after `source tools/env.sh`):

    .venv/bin/python tools/gen/gen_coverage.py [--binary PATH] [--out docs/coverage.md] [--check]

Sources:
  rules        `aten-opt --list-rules` (JSON: target, source file, opset range,
               dtypes, number of differential samples) from $ATEN2ONNX_BIN_DIR
               or target/debug; when that binary is missing or predates the
               flag, the rule files under passes/lowering/src/rules/ are
               parsed instead (targets, `.opsets(a, b)`, `.dtypes(&[...])`).
  core ATen    every `aten::` overload of the pinned torch (2.13) tagged
               `torch.Tag.core`.
  sweep        docs/opinfo-sweep.json, written by tools/sweeps/opinfo_sweep.py.

--check exits 1 when docs/coverage.md differs from what would be written
(without rewriting it).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RULES_DIR = REPO / "passes" / "lowering" / "src" / "rules"
SWEEP_JSON = REPO / "docs" / "opinfo-sweep.json"
MIN_OPSET, MAX_OPSET = 17, 28


def default_binary() -> Path:
    bin_dir = os.environ.get("ATEN2ONNX_BIN_DIR")
    return Path(bin_dir) / "aten-opt" if bin_dir else REPO / "target" / "debug" / "aten-opt"


def rules_from_binary(binary: Path):
    if not binary.exists():
        return None
    try:
        proc = subprocess.run([str(binary), "--list-rules"], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError:
        return None


def rules_from_sources():
    """Fallback: the rule declarations read from the rule files."""
    rules = []
    target_re = re.compile(r'Rule::(?:unary|binary|custom)\(\s*"(aten\.[\w.]+)"')
    for path in sorted(RULES_DIR.glob("*/*.rs")):
        text = path.read_text()
        starts = [m for m in target_re.finditer(text)]
        for k, m in enumerate(starts):
            end = starts[k + 1].start() if k + 1 < len(starts) else len(text)
            chunk = text[m.end():end]
            # The builder chain of this rule ends at the first `,\n` or `];`
            # outside parentheses; a crude cut at the next `Rule::` is enough.
            opsets = (MIN_OPSET, MAX_OPSET)
            mo = re.search(r"\.opsets\(\s*(\d+)\s*,\s*(\d+)\s*\)", chunk)
            if mo:
                opsets = (int(mo.group(1)), int(mo.group(2)))
            dtypes = ["f32"]
            md = re.search(r"\.dtypes\(\s*&\[([^\]]*)\]", chunk)
            if md:
                dtypes = re.findall(r'"(\w+)"', md.group(1))
            rules.append({"target": m.group(1), "file": f"passes/lowering/src/rules/{path.parent.name}/{path.name}",
                          "opsets": list(opsets), "dtypes": dtypes, "samples": None})
    return rules


INEXPRESSIBLE_RS = REPO / "passes" / "lowering" / "src" / "inexpressible.rs"


def inexpressible_from_sources():
    """Fallback: the table of passes/lowering/src/inexpressible.rs."""
    if not INEXPRESSIBLE_RS.exists():
        return []
    text = INEXPRESSIBLE_RS.read_text()
    consts = {m.group(1): m.group(2) for m in re.finditer(r'const (\w+): &str\s*=\s*"((?:[^"\\]|\\.)*)"', text, re.S)}
    out = []
    for m in re.finditer(r'Inexpressible\s*\{\s*op:\s*"(\w+)",\s*reason:\s*(?:"((?:[^"\\]|\\.)*)"|(\w+))', text, re.S):
        reason = m.group(2) if m.group(2) is not None else consts.get(m.group(3), m.group(3))
        reason = re.sub(r"\\\n\s*", "", reason)
        out.append({"target": f"aten.{m.group(1)}", "file": "passes/lowering/src/inexpressible.rs",
                    "inexpressible": reason})
    return out


def core_overloads():
    import warnings
    warnings.filterwarnings("ignore")
    import torch

    names = set()
    for schema in torch._C._jit_get_all_schemas():
        if not schema.name.startswith("aten::"):
            continue
        op = schema.name[len("aten::"):]
        overload = schema.overload_name or "default"
        try:
            packet = getattr(torch.ops.aten, op)
            ov = getattr(packet, overload)
        except (AttributeError, RuntimeError):
            continue
        if torch.Tag.core in ov.tags:
            names.add(f"aten.{op}.{overload}")
    all_aten = sum(1 for s in torch._C._jit_get_all_schemas() if s.name.startswith("aten::"))
    # Mutating core overloads never reach the lowering: aten-remove-inplace makes them functional first.
    via = {n: f for n in names if (f := remove_inplace_functional(n))}
    return sorted(names), torch.__version__, all_aten, via


def remove_inplace_functional(target: str):
    """The functional overload `aten-remove-inplace` (passes/src/aten_remove_inplace.rs, `functional_schema`)
    rewrites a mutating overload to, or None: `x_.ov` -> `x.ov`; an out= variant -> the functional overload
    with its other arguments; an op writing arguments besides its own results (`_native_batch_norm_legit`
    updates its running stats) -> `<op>_functional.ov`."""
    import torch

    def packet(name):
        return getattr(torch.ops.aten, name, None)

    def writes(s):
        return [a for a in s.arguments if a.alias_info is not None and a.alias_info.is_write]

    _, op, ov = target.split(".")
    schema = getattr(packet(op), ov)._schema
    written = writes(schema)
    if not written:
        return None
    if any(not a.kwarg_only for a in written):
        if op.endswith("_") and packet(op[:-1]) is not None and ov in packet(op[:-1]).overloads():
            cand = getattr(packet(op[:-1]), ov)._schema
            return None if writes(cand) else f"aten.{op[:-1]}.{ov}"
        fp = packet(op + "_functional")
        if fp is None or ov not in fp.overloads():
            return None
        cand = getattr(fp, ov)._schema
        same = [(a.name, str(a.type)) for a in cand.arguments] == [(a.name, str(a.type)) for a in schema.arguments]
        own = all(r.alias_info is None for r in schema.returns)
        ok = not writes(cand) and same and own and len(cand.returns) == len(schema.returns) + len(written)
        return f"aten.{op}_functional.{ov}" if ok else None
    inputs = [(a.name, str(a.type)) for a in schema.arguments if not (a.kwarg_only and a in written)]
    for name in packet(op).overloads():
        cand = getattr(packet(op), name)._schema
        if not writes(cand) and [(a.name, str(a.type)) for a in cand.arguments] == inputs:
            return f"aten.{op}.{name}"
    return None


def base_of(target: str) -> str:
    # aten.<op>.<overload>
    return target.split(".")[1]


def pct(n, d):
    return f"{100.0 * n / d:.1f}%" if d else "-"


def core_coverage(core, targets, via):
    """(covered core overloads, missing ones, {covered through aten-remove-inplace: its functional overload})."""
    through = {t: f for t, f in via.items() if t not in targets and f in targets}
    have = sorted((set(core) & targets) | set(through))
    return have, sorted(set(core) - set(have)), through


def render(rules, source, core, torch_version, all_aten, sweep, refused=(), via=None):
    by_base = defaultdict(list)
    for r in rules:
        by_base[base_of(r["target"])].append(r)
    targets = {r["target"] for r in rules}
    core_set = set(core)
    core_have, core_missing, through = core_coverage(core, targets, via or {})
    dtype_count = defaultdict(int)
    for r in rules:
        for d in r["dtypes"]:
            dtype_count[d] += 1
    L = ["# Coverage", "",
         "Generated by `tools/gen/gen_coverage.py` (do not edit by hand); regenerate with",
         "", "```sh", "source tools/env.sh", ".venv/bin/python tools/gen/gen_coverage.py", "```", "",
         f"Rules read from {source}; core ATen from torch {torch_version}; sweep figures from",
         "`docs/opinfo-sweep.json` (`tools/sweeps/opinfo_sweep.py`, see [opinfo-sweep.md](opinfo-sweep.md)).", "",
         "## Summary", "",
         f"- Lowering rules: **{len(rules)} overloads of {len(by_base)} base ops** "
         f"(torch registers {all_aten} `aten::` overloads).",
         f"- Core ATen (`torch.Tag.core`): **{len(core_have)} of {len(core)} overloads "
         f"({pct(len(core_have), len(core))})**; {len(core_missing)} missing (listed below)" +
         "." + (f" {len(through)} of the covered ones are mutating overloads that `aten-remove-inplace` makes "
                "functional before the lowering, covered by the rule of that functional overload (" +
                ", ".join(f"`{t}` -> `{f}`" for t, f in sorted(through.items())) + ")." if through else ""),
         "- Dtypes claimed (rules declaring each, differentially tested against libtorch): " +
         ", ".join(f"{d} {n}" for d, n in sorted(dtype_count.items(), key=lambda x: -x[1])) + "."]
    opset_ranges = defaultdict(int)
    for r in rules:
        opset_ranges[tuple(r["opsets"])] += 1
    L.append("- Opset ranges: " + ", ".join(f"{a}..{b}: {n} rules" for (a, b), n in sorted(opset_ranges.items())) + ".")
    L += ["", "## OpInfo sweep (latest)", ""]
    configs = (sweep or {}).get("configs", {})
    if configs:
        cats = ["pass", "wrong", "convert-error", "crash", "ort-error", "capture-skip", "skip"]
        L += ["| IR | dtype | samples/OpInfo | cases | OpInfos all pass | " + " | ".join(cats) + " | run at |",
              "|---|---|---|---|---|" + "---|" * len(cats) + "---|"]
        order = sorted(configs, key=lambda k: (k.split("/")[1] != "float32", k.split("/")[0] != "default", k))
        for k in order:
            s = configs[k]
            t = s["totals"]
            L.append(f"| {s['ir']} | {s['dtype']}{(' (' + s['tag'] + ')') if s.get('tag') else ''} | {s['samples_per_opinfo']} | {s['cases']} | "
                     f"{s['opinfos_all_pass']} of {s['opinfos']} | " +
                     " | ".join(f"{t.get(c, 0)} ({pct(t.get(c, 0), s['cases'])})" for c in cats) + f" | {s['when']} |")
        L += ["", "Missing overloads blocking the most sweep cases (default IR, float32):", ""]
        s = configs.get("default/float32")
        if s:
            for m in s["missing"][:25]:
                L.append(f"- `{m['overload']}`: {m['cases']} cases")
    else:
        L.append("No sweep results yet: run `.venv/bin/python tools/sweeps/opinfo_sweep.py`.")
    refused_ops = {base_of(r["target"]): r["inexpressible"] for r in refused}
    L += ["", f"## Core ATen overloads without a rule ({len(core_missing)})", ""]
    if core_missing:
        L += [", ".join(f"`{m}`" + (" (no ONNX expression)" if base_of(m) in refused_ops else "")
                        for m in core_missing)]
    else:
        L.append("None: every core ATen overload has a rule.")
    L += ["", f"## Ops with no ONNX expression ({len(refused_ops)})", "",
          "Refused at every opset, with the reason, under their own heading of the conversion error",
          "(\"have no ONNX expression\", apart from \"have no lowering\" = not yet implemented); the table is",
          "`passes/lowering/src/inexpressible.rs` (all overloads of each op). An op without a rule whose",
          "tensors are complex is refused the same way.", ""]
    if refused_ops:
        L += ["| op | reason |", "|---|---|"]
        L += [f"| {op} | {reason} |" for op, reason in sorted(refused_ops.items())]
    L += ["", f"## Rules ({len(by_base)} base ops)", "",
          "| base op | overloads | opsets | dtypes | core | file |", "|---|---|---|---|---|---|"]
    for base in sorted(by_base):
        rs = by_base[base]
        ovs = ", ".join(f"`{r['target'].split('.', 2)[2]}`" for r in rs)
        ops = sorted({f"{r['opsets'][0]}..{r['opsets'][1]}" for r in rs})
        dts = []
        for r in rs:
            for d in r["dtypes"]:
                if d not in dts:
                    dts.append(d)
        core_n = sum(1 for r in rs if r["target"] in core_set)
        files = sorted({r["file"].rsplit("/", 1)[-1] for r in rs if r["file"]})
        L.append(f"| {base} | {ovs} | {', '.join(ops)} | {', '.join(dts)} | {core_n or ''} | {', '.join(files)} |")
    return "\n".join(L) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--binary", default=str(default_binary()), help="aten-opt with --list-rules")
    p.add_argument("--out", default=str(REPO / "docs" / "coverage.md"))
    p.add_argument("--check", action="store_true")
    p.add_argument("--json", help="also write the figures as JSON here")
    args = p.parse_args()
    rules = rules_from_binary(Path(args.binary))
    source = "`aten-opt --list-rules`"
    if rules is None:
        rules = rules_from_sources()
        source = "the rule files (passes/lowering/src/rules/*/*.rs; `aten-opt --list-rules` unavailable)"
        print(f"gen_coverage: {args.binary} --list-rules unavailable; parsed the rule files", file=sys.stderr)
    refused = [r for r in rules if "inexpressible" in r]
    rules = [r for r in rules if "inexpressible" not in r]
    if not refused:
        refused = inexpressible_from_sources()
    core, torch_version, all_aten, via = core_overloads()
    sweep = json.loads(SWEEP_JSON.read_text()) if SWEEP_JSON.exists() else None
    text = render(rules, source, core, torch_version, all_aten, sweep, refused, via)
    out = Path(args.out)
    targets = {r["target"] for r in rules}
    core_have, core_missing, through = core_coverage(core, targets, via)
    if args.json:
        Path(args.json).write_text(json.dumps({
            "overloads": len(rules), "base_ops": len({base_of(r["target"]) for r in rules}),
            "core": len(core), "core_covered": len(core_have),
            "core_missing": core_missing, "core_via_remove_inplace": through}, indent=1))
    if args.check:
        if not out.exists() or out.read_text() != text:
            print(f"{out} is stale: run tools/gen/gen_coverage.py", file=sys.stderr)
            return 1
        return 0
    out.write_text(text)
    base_ops = len({base_of(r["target"]) for r in rules})
    print(f"wrote {out}: {len(rules)} overloads, {base_ops} base ops, core ATen {len(core_have)}/{len(core)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
