#!/usr/bin/env python3
# gen_workloads.py [DIR]: write the seven DNN layer tables of the paper's Section VI (Fig. 11)
# as workloads/<model>.csv (docs/reference/training.md), from the public model definitions:
#   alexnet      torchvision alexnet (Krizhevsky et al. 2012, one-GPU form), 224x224
#   resnet50     torchvision resnet50 (He et al. 2016, v1.5: stride in the 3x3 conv), 224x224
#   googlenet    torchvision googlenet without the auxiliary classifiers (its 3x3 in place of
#                the paper's 5x5 branch), 224x224
#   alphagozero  Silver et al. 2017 (Nature), Methods: 20 blocks (19 residual), 19x19x17 input
#   fasterrcnn   torchvision fasterrcnn_resnet50_fpn, 800x800 image, 512 RoIs per image
#   ncf          MLPerf NCF (NeuMF, ml-20m: 138,493 users, 26,744 items, 64 factors,
#                MLP 256-256-128-64)
#   transformer  Vaswani et al. 2017 base (d 512, ff 2048, 8 heads, 6+6 layers, shared
#                37,000-token vocabulary tied with the pre-softmax projection), 64 tokens
# One row per layer, SCALE-Sim's convolution columns (padding folded into the IFMAP size, as
# SCALE-Sim has no padding column), then three of ours:
#   Kind   weights: a layer with parameters, Params = FH*FW*C*NF + e*NF, e = 0 (no bias),
#                   1 (bias), 2 (batch norm gamma, beta), 3 (bias and a norm's gamma, beta)
#          shared:  weights counted at an earlier row (the FPN levels' RPN head, tied
#                   embedding), Params 0
#          matmul:  a product of two activations (attention), Params 0
#          embed:   a lookup table, Params = rows * NF; its GEMM is K = 1 (one non-zero of
#                   the one-hot row), one lookup per IFMAP row
#   Params, Gradient bytes (= 4 * Params, fp32)
# Fully connected layers and every GEMM are 1x1 convolutions: IFMAP M x 1, filter 1x1,
# Channels K, Num Filter N (M rows of the GEMM, K its reduction, N its columns).
import os
import sys

HDR = ("Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, "
       "Num Filter, Strides, Kind, Params, Gradient bytes,")


class T:
    def __init__(self, name):
        self.name, self.rows = name, []

    def conv(self, n, h, w, fh, fw, c, nf, s, extra, kind="weights"):
        p = fh * fw * c * nf + extra * nf if kind == "weights" else 0
        self.rows.append((n, h, w, fh, fw, c, nf, s, kind, p))

    def fc(self, n, m, k, nf, extra=1, kind="weights"):
        self.conv(n, m, 1, 1, 1, k, nf, 1, extra, kind)

    def write(self, d):
        with open(os.path.join(d, self.name + ".csv"), "w") as f:
            f.write(HDR + "\n")
            for r in self.rows:
                f.write(",".join(str(x) for x in r) + ",%d,\n" % (4 * r[9]))
        return sum(r[9] for r in self.rows)


def out(h, f, s):  # SCALE-Sim: no padding (IFMAP already padded)
    return (h - f) // s + 1


def bottlenecks(t, pre, h, e):
    """ResNet-50's four stages of bottleneck blocks (torchvision v1.5: the stride in the 3x3),
    from an h x h x 64 input; e: the batch norm's parameters per filter (2, or 0 when frozen).
    Returns each stage's (size, channels)."""
    c, feats = 64, []
    for li, (w, nb, s) in enumerate([(64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)]):
        for b in range(nb):
            st = s if b == 0 else 1
            p = pre + "layer%d.%d." % (li + 1, b)
            t.conv(p + "conv1", h, h, 1, 1, c, w, 1, e)
            t.conv(p + "conv2", h + 2, h + 2, 3, 3, w, w, st, e)
            ho = out(h + 2, 3, st)
            t.conv(p + "conv3", ho, ho, 1, 1, w, 4 * w, 1, e)
            if b == 0:
                t.conv(p + "downsample", h, h, 1, 1, c, 4 * w, st, e)
            h, c = ho, 4 * w
        feats.append((h, c))
    return feats


def alexnet():
    t = T("alexnet")
    t.conv("conv1", 228, 228, 11, 11, 3, 64, 4, 1)  # 224 + 2*2 -> 55
    t.conv("conv2", 31, 31, 5, 5, 64, 192, 1, 1)  # pool 27, pad 2
    t.conv("conv3", 15, 15, 3, 3, 192, 384, 1, 1)  # pool 13, pad 1
    t.conv("conv4", 15, 15, 3, 3, 384, 256, 1, 1)
    t.conv("conv5", 15, 15, 3, 3, 256, 256, 1, 1)
    t.fc("fc6", 1, 9216, 4096)
    t.fc("fc7", 1, 4096, 4096)
    t.fc("fc8", 1, 4096, 1000)
    return t


def resnet50():
    t = T("resnet50")
    t.conv("conv1", 230, 230, 7, 7, 3, 64, 2, 2)  # 224 + 2*3 -> 112, BN
    bottlenecks(t, "", 56, 2)  # after the 3x3/2 max pool
    t.fc("fc", 1, 2048, 1000)
    return t


def googlenet():
    t = T("googlenet")
    t.conv("conv1", 230, 230, 7, 7, 3, 64, 2, 2)  # BasicConv2d: conv (no bias) + BN
    t.conv("conv2", 56, 56, 1, 1, 64, 64, 1, 2)
    t.conv("conv3", 58, 58, 3, 3, 64, 192, 1, 2)
    cfg = [("3a", 28, 192, 64, 96, 128, 16, 32, 32), ("3b", 28, 256, 128, 128, 192, 32, 96, 64),
           ("4a", 14, 480, 192, 96, 208, 16, 48, 64), ("4b", 14, 512, 160, 112, 224, 24, 64, 64),
           ("4c", 14, 512, 128, 128, 256, 24, 64, 64), ("4d", 14, 512, 112, 144, 288, 32, 64, 64),
           ("4e", 14, 528, 256, 160, 320, 32, 128, 128), ("5a", 7, 832, 256, 160, 320, 32, 128, 128),
           ("5b", 7, 832, 384, 192, 384, 48, 128, 128)]
    for n, h, c, b1, b2r, b2, b3r, b3, b4 in cfg:
        p = "inception" + n + "."
        t.conv(p + "branch1", h, h, 1, 1, c, b1, 1, 2)
        t.conv(p + "branch2.0", h, h, 1, 1, c, b2r, 1, 2)
        t.conv(p + "branch2.1", h + 2, h + 2, 3, 3, b2r, b2, 1, 2)
        t.conv(p + "branch3.0", h, h, 1, 1, c, b3r, 1, 2)
        t.conv(p + "branch3.1", h + 2, h + 2, 3, 3, b3r, b3, 1, 2)  # torchvision: 3x3
        t.conv(p + "branch4.1", h, h, 1, 1, c, b4, 1, 2)  # after the 3x3/1 max pool
    t.fc("fc", 1, 1024, 1000)
    return t


def alphagozero():
    t = T("alphagozero")
    t.conv("conv", 21, 21, 3, 3, 17, 256, 1, 2)  # 19x19 padded, BN (no bias)
    for b in range(19):
        t.conv("res%d.conv1" % (b + 1), 21, 21, 3, 3, 256, 256, 1, 2)
        t.conv("res%d.conv2" % (b + 1), 21, 21, 3, 3, 256, 256, 1, 2)
    t.conv("policy.conv", 19, 19, 1, 1, 256, 2, 1, 2)
    t.fc("policy.fc", 1, 722, 362)
    t.conv("value.conv", 19, 19, 1, 1, 256, 1, 1, 2)
    t.fc("value.fc1", 1, 361, 256)
    t.fc("value.fc2", 1, 256, 1)
    return t


def fasterrcnn():
    t = T("fasterrcnn")
    # ResNet-50 backbone; torchvision freezes its batch norms (FrozenBatchNorm2d: buffers, no
    # parameters) and has no fc: conv weights only (e = 0)
    t.conv("backbone.conv1", 806, 806, 7, 7, 3, 64, 2, 0)  # 800 + 2*3 -> 400
    feats = bottlenecks(t, "backbone.", 200, 0)
    # FPN: a 1x1 lateral and a 3x3 output conv per level, with bias; the pool level has none
    for i, (h, c) in enumerate(feats):
        t.conv("fpn.inner%d" % i, h, h, 1, 1, c, 256, 1, 1)
        t.conv("fpn.layer%d" % i, h + 2, h + 2, 3, 3, 256, 256, 1, 1)
    levels = [h for h, _ in feats] + [(feats[-1][0] - 1) // 2 + 1]  # + max pool 1x1/2
    # RPN head: one 3x3 conv and two 1x1 convs (3 anchors), shared over the five levels
    for i, h in enumerate(levels):
        k = "weights" if i == 0 else "shared"
        t.conv("rpn.conv.p%d" % (i + 2), h + 2, h + 2, 3, 3, 256, 256, 1, 1, k)
        t.conv("rpn.cls.p%d" % (i + 2), h, h, 1, 1, 256, 3, 1, 1, k)
        t.conv("rpn.bbox.p%d" % (i + 2), h, h, 1, 1, 256, 12, 1, 1, k)
    # RoI box head on 512 sampled RoIs (7x7x256 after RoIAlign), 91 COCO classes
    t.fc("roi.fc6", 512, 256 * 7 * 7, 1024)
    t.fc("roi.fc7", 512, 1024, 1024)
    t.fc("roi.cls", 512, 1024, 91)
    t.fc("roi.bbox", 512, 1024, 91 * 4)
    return t


def ncf():
    t = T("ncf")
    users, items = 138493, 26744
    # one (user, item) pair per sample: one lookup per table
    for n, rows, d in [("gmf.user_emb", users, 64), ("gmf.item_emb", items, 64),
                       ("mlp.user_emb", users, 128), ("mlp.item_emb", items, 128)]:
        t.rows.append((n, 1, 1, 1, 1, 1, d, 1, "embed", rows * d))
    t.fc("mlp.fc1", 1, 256, 256)
    t.fc("mlp.fc2", 1, 256, 128)
    t.fc("mlp.fc3", 1, 128, 64)
    t.fc("predict", 1, 128, 1)  # GMF (64) and MLP (64) outputs concatenated
    return t


def transformer():
    t = T("transformer")
    L, d, ff, h, V = 64, 512, 2048, 8, 37000
    # one embedding lookup per source and target token (the table is shared)
    t.rows.append(("embedding", 2 * L, 1, 1, 1, 1, d, 1, "embed", V * d))

    def attn(p, extra_ln):
        for m in ("q", "k", "v"):
            t.fc(p + m, L, d, d)
        # per head (d/h = 64) Q K^T and A V, the 8 heads stacked along the rows (M = h*L;
        # the same MACs and folds as 8 GEMMs when L is a multiple of 32)
        t.fc(p + "qk", h * L, d // h, L, 0, "matmul")
        t.fc(p + "av", h * L, L, d // h, 0, "matmul")
        t.fc(p + "out", L, d, d, 3 if extra_ln else 1)  # + the sublayer's LayerNorm

    for i in range(6):
        attn("enc%d.self." % i, True)
        t.fc("enc%d.ff1" % i, L, d, ff)
        t.fc("enc%d.ff2" % i, L, ff, d, 3)
    for i in range(6):
        attn("dec%d.self." % i, True)
        attn("dec%d.cross." % i, True)
        t.fc("dec%d.ff1" % i, L, d, ff)
        t.fc("dec%d.ff2" % i, L, ff, d, 3)
    t.fc("generator", L, d, V, 0, "shared")  # tied to the embedding; no bias
    return t


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "workloads")
    os.makedirs(d, exist_ok=True)
    for f in (alexnet, alphagozero, fasterrcnn, googlenet, ncf, resnet50, transformer):
        t = f()
        print("%-12s %3d layers %11d parameters" % (t.name, len(t.rows), t.write(d)))


if __name__ == "__main__":
    main()
