"""App 1, pruned 2-layer MLP: logits = W2 relu(W1 x + b1) + b2.

W1 (32x16) is pruned 2:4 along its columns (at most two nonzeros in each
group of four inputs), so the firmware stores the same file as CSR, as BSR
2x2 and as 2:4 (`block2_4`). W2 (10x32) keeps about 30% of its entries.
Values are multiples of 1/32, inputs multiples of 1/16: every product and
sum below is exact in f32, so the f64 reference here is the f32 result.
Writes mlp_*.mtx and mlp_*.npy (vectors); run: python3 data/gen_mlp.py"""

from mtx import Lcg, write_array, write_coordinate, write_vector_npy

H, N, O, B = 32, 16, 10, 4
rng = Lcg(0x0BADC0DE)

w1 = [[0.0] * N for _ in range(H)]
for i in range(H):
    for g in range(0, N, 4):
        keep = rng.below(3)  # 0, 1 or 2 entries of this group of four
        cols = list(range(g, g + 4))
        for _ in range(keep):
            j = cols.pop(rng.below(len(cols)))
            w1[i][j] = rng.value(32, 32)
w2 = [[rng.value(32, 32) if rng.below(10) < 3 else 0.0 for _ in range(H)] for _ in range(O)]
b1 = [rng.value(32, 16) for _ in range(H)]
b2 = [rng.value(32, 16) for _ in range(O)]
xs = [[rng.value(16, 16) for _ in range(N)] for _ in range(B)]

logits, classes = [], []
for x in xs:
    h = [max(sum(w1[i][j] * x[j] for j in range(N)) + b1[i], 0.0) for i in range(H)]
    y = [sum(w2[i][j] * h[j] for j in range(H)) + b2[i] for i in range(O)]
    logits.append(y)
    classes.append(max(range(O), key=lambda k: (y[k], -k)))  # first maximum

def nz(m):
    return [(i, j, v) for i, row in enumerate(m) for j, v in enumerate(row) if v != 0.0]

write_coordinate("mlp_w1.mtx", H, N, nz(w1), "MLP layer 1 (32x16, pruned 2:4), by data/gen_mlp.py")
write_coordinate("mlp_w2.mtx", O, H, nz(w2), "MLP layer 2 (10x32, ~30% kept), by data/gen_mlp.py")
write_vector_npy("mlp_b1.npy", b1)
write_vector_npy("mlp_b2.npy", b2)
write_array("mlp_x.mtx", xs, "MLP inputs, one per row, by data/gen_mlp.py")
write_array("mlp_logits.mtx", logits, "expected logits, one row per input, by data/gen_mlp.py")
write_vector_npy("mlp_class.npy", classes, integer=True)
print("mlp: W1 nnz", len(nz(w1)), "W2 nnz", len(nz(w2)), "classes", classes)
