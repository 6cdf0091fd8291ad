"""App 2, sparse Kalman covariance prediction: P <- F P F^T + Q, STEPS times.

F (8x8) is a constant-acceleration model for two axes, sparse (I plus dt
couplings position <- velocity <- acceleration, dt = 1/8), P0 and Q dense
and symmetric. Writes kalman_*.mtx; run: python3 data/gen_kalman.py"""

from mtx import write_array, write_coordinate

N, STEPS, DT = 8, 4, 0.125

# State per axis: position, velocity, acceleration, jerk bias; two axes.
f = [[0.0] * N for _ in range(N)]
for a in (0, 4):
    for k in range(4):
        f[a + k][a + k] = 1.0
    f[a + 0][a + 1] = DT
    f[a + 0][a + 2] = DT * DT / 2
    f[a + 1][a + 2] = DT
    f[a + 2][a + 3] = 0.5
p0 = [[(1.0 if i == j else 0.0) + (0.25 if abs(i - j) == 1 else 0.0) for j in range(N)] for i in range(N)]
q = [[(0.0625 if i == j else 0.0) for j in range(N)] for i in range(N)]

p = p0
for _ in range(STEPS):
    t = [[sum(f[i][k] * p[k][j] for k in range(N)) for j in range(N)] for i in range(N)]
    p = [[sum(t[i][k] * f[j][k] for k in range(N)) + q[i][j] for j in range(N)] for i in range(N)]

nz = [(i, j, v) for i, row in enumerate(f) for j, v in enumerate(row) if v != 0.0]
write_coordinate("kalman_f.mtx", N, N, nz, "Kalman transition F (8x8), by data/gen_kalman.py")
write_array("kalman_p0.mtx", p0, "Kalman initial covariance P0, by data/gen_kalman.py")
write_array("kalman_q.mtx", q, "Kalman process noise Q, by data/gen_kalman.py")
write_array("kalman_p.mtx", p, f"expected P after {STEPS} steps, by data/gen_kalman.py")
print("kalman: F nnz", len(nz), "P[0][0]", p[0][0])
