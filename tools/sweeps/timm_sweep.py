#!/usr/bin/env python3
"""Smoke run over timm's architecture families (prints results; not a test).

One model per timm module (`timm.list_modules()`, the smallest-sounding
name of each, or the pick in PICKS), plus EXTRA variants of the large
families, built with random weights (`pretrained=False`, nothing is
downloaded), captured with torch.export (batch dynamic, the image size of
the model's pretrained config static: many of these fix it), converted with
aten-translate and compared with eager PyTorch on two batch sizes, exactly
as tools/sweeps/try_real_models.py does (its `run`: float32 1e-4 + 1e-4|exp|,
float16 with its float32-truth verdict).

    .venv/bin/pip install --no-deps timm
    .venv/bin/python tools/sweeps/timm_sweep.py [--debug] [--dtype f32] [--list] [--from NAME] [NAME_OR_MODULE ...]
"""
import os, sys

import timm
import torch

import try_real_models as trm

# A smaller member where the name heuristic picks a large one.
PICKS = {
    "dpn": "dpn48b",
    "senet": "legacy_seresnet18",
    "regnet": "regnetx_002",
    "tresnet": "tresnet_m",
    "efficientnet": "tinynet_e",
    "cspnet": "cs3darknet_focus_s",
    "convmixer": "convmixer_768_32",
    "dla": "dla34",
    "res2net": "res2net50_14w_8s",
    "fasternet": "fasternet_t0",
    "sequencer": "sequencer2d_s",
    "xception_aligned": "xception41p",
    "swin_transformer": "swin_tiny_patch4_window7_224",
    "hrnet": "hrnet_w18_small",
    "nfnet": "nf_regnet_b0",
    "mobilenetv5": "mobilenetv5_300m",
}
# Second members of the large families (different blocks than the pick).
EXTRA = [
    "mixnet_s", "efficientnet_lite0", "mnasnet_small", "fbnetc_100", "lcnet_050",
    "repvgg_a0", "mobileone_s0", "resnet51q", "gcresnet33ts", "seresnext26ts", "eca_resnet33ts",
    "resnet18d", "seresnext26d_32x4d", "ecaresnet26t", "resnet26t", "gcresnet50t", "resnetrs50",
    "skresnext50_32x4d", "wide_resnet50_2",
    "vit_small_patch16_rope_224", "vit_base_patch16_siglip_224", "vit_small_patch14_reg4_dinov2",
    "vit_relpos_base_patch16_clsgap_224", "flexivit_small", "vit_medium_patch16_gap_256",
    "eva02_small_patch14_224", "maxvit_nano_rw_256", "coatnet_nano_rw_224", "maxxvitv2_nano_rw_256",
    "convnext_nano_ols", "convnextv2_atto", "nf_resnet26", "dm_nfnet_f0",
    "regnety_002", "regnetz_b16", "poolformer_s12", "convformer_s18", "mixer_s16_224", "resmlp_12_224",
    "cspdarknet53", "darknet53", "repvit_m0_9", "ghostnetv2_100", "ghostnetv3_050",
    "mobilenetv4_conv_small", "mobilenetv4_hybrid_medium", "efficientvit_b1", "levit_conv_128s",
    "swinv2_cr_tiny_ns_224", "tiny_vit_11m_224", "hgnetv2_b0", "edgenext_xx_small", "mobilevitv2_050",
    "botnet26t_256", "halonet26t", "lambda_resnet26t", "sebotnet33ts_256",
]


def pick(module):
    if module in PICKS:
        return PICKS[module]
    pref = ["atto", "femto", "pico", "nano", "tiny", "xxs", "xs", "small", "_050", "_075", "_100",
            "mobile", "b0", "18", "10", "base"]
    def key(n):
        return next(((i, len(n)) for i, p in enumerate(pref) if p in n), (99, len(n)))
    names = timm.list_models(module=module)
    return sorted(names, key=key)[0] if names else None


def calibrated(model, h, w):
    """Random weights without trained BatchNorm statistics let activations
    grow layer after layer (outputs of 1e3..1e16 in RepVGG, MobileOne,
    Inception-v3, DarkNet: eager float32 then disagrees with itself beyond
    1e-4 when only its thread count changes). As after training, give every
    BatchNorm the statistics of the data it sees: one forward pass in train
    mode with cumulative averages (momentum None), on a batch unrelated to
    the test inputs; then trained_like's affine parameters."""
    bns = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if bns:
        saved = [m.momentum for m in bns]
        for m in bns:
            m.momentum = None
            if m.running_mean is not None:
                m.reset_running_stats()
        g = torch.Generator().manual_seed(7)
        model.train()
        with torch.no_grad():
            model(torch.randn(4, 3, h, w, generator=g))
        for m, mo in zip(bns, saved):
            m.momentum = mo
        model.eval()
    # The classifier at unit scale (trained_like), keeping the statistics.
    lin = [m for m in model.modules() if isinstance(m, torch.nn.Linear)]
    if lin:
        g = torch.Generator().manual_seed(1)
        with torch.no_grad():
            lin[-1].weight.copy_(torch.randn(lin[-1].weight.shape, generator=g) / lin[-1].in_features ** 0.5)
    return model


def entry(name):
    cfg = timm.get_pretrained_cfg(name)
    _, h, w = (cfg.input_size if cfg is not None else (3, 224, 224))
    build = lambda: calibrated(timm.create_model(name, pretrained=False), h, w)
    sets = [trm.img(n, 3, h, w) for n in (2, 3)]
    return dict(build=build, sets=sets, dyn=({0: trm.B},), note=f"{h}x{w} static")


def main(argv):
    trm.BIN = trm.translate_binary(argv)
    dtypes, names = ["f32"], []
    it = iter(argv)
    for a in it:
        if a == "--dtype":
            dtypes = next(it).split(",")
        elif a in ("--debug", "--list"):
            pass
        elif a == "--from":
            next(it)
        else:
            names.append(a)
    modules = set(timm.list_modules())
    if not names:
        names = [pick(m) for m in sorted(modules)] + EXTRA
    names = [pick(n) if n in modules else n for n in names]
    names = [n for n in names if n]
    if "--from" in argv:
        start = argv[argv.index("--from") + 1]
        names = names[names.index(start):]
    if "--list" in argv:
        print("\n".join(names))
        return 0
    print(f"aten-translate: {trm.BIN}; {len(names)} models", flush=True)
    for n in names:
        for dt in dtypes:
            try:
                trm.run(f"timm_{n}", dt=dt, **entry(n))
            except Exception as e:
                trm.report(f"timm_{n}", dt, "ERROR", "", [], f"{type(e).__name__}: {str(e)[:200]}")
            sys.stdout.flush()
            # Captures of 155 models fill a disk: keep only what failed.
            if trm.RESULTS[-1][2] in ("OK", "ORT-GAP"):
                for ext in ("pt2", "onnx"):
                    path = f"{trm.OUT}/timm_{n}_{dt}.{ext}"
                    if os.path.exists(path):
                        os.remove(path)
    res = trm.RESULTS
    print("\n| model | dtype | status | shapes | max err | note |\n|---|---|---|---|---|---|")
    for name, dt, status, shapes, errs, note in res:
        e = ", ".join(f"{x:.2e}" for x in errs) or "-"
        print(f"| {name} | {dt} | {status} | {shapes} | {e} | {note.splitlines()[0] if note else ''} |")
    counts = {}
    for r in res:
        counts[r[2]] = counts.get(r[2], 0) + 1
    print("\n" + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + f" of {len(res)}")
    return 1 if any(r[2] not in ("OK", "ORT-GAP") for r in res) else 0


if __name__ == "__main__":
    torch.set_num_threads(1)
    sys.exit(main(sys.argv[1:]))
