#!/usr/bin/env python3
"""Writes diffusion2d_20x20.mtx, the SPD matrix of the `cg` example.

The 5-point finite-difference matrix of -div(k grad u) = f on a 20 x 20 grid
with zero Dirichlet boundaries: 400 unknowns, node (r, c) numbered
r * 20 + c. Each grid edge e (numbered in the order the loops below visit
them) has the conductivity k_e = 1 + (e mod 5) / 4, so the values are exact
binary fractions; each boundary side of a node adds k_b = 1 to its
diagonal. The matrix is a weighted graph Laplacian of a connected grid plus
a nonzero diagonal on the boundary nodes: symmetric positive definite.

Stored as Matrix Market `coordinate real symmetric`, lower triangle only,
in column-major order (as most Matrix Market files are): a reader that
wants rows has to sort. Usage: python3 diffusion2d.py > diffusion2d_20x20.mtx
"""

N = 20


def main() -> None:
    n = N * N
    diag = [0.0] * n
    lower = {}  # (row, col) with row > col -> value
    e = 0
    for r in range(N):
        for c in range(N):
            i = r * N + c
            # Edges to the right and down neighbours.
            for dr, dc in ((0, 1), (1, 0)):
                rr, cc = r + dr, c + dc
                if rr < N and cc < N:
                    j = rr * N + cc
                    k = 1.0 + (e % 5) / 4.0
                    e += 1
                    diag[i] += k
                    diag[j] += k
                    lower[(j, i)] = -k
            # Dirichlet boundary: one unit conductivity per missing neighbour.
            missing = (r == 0) + (r == N - 1) + (c == 0) + (c == N - 1)
            diag[i] += float(missing)
    entries = [((i, i), v) for i, v in enumerate(diag)] + list(lower.items())
    entries.sort(key=lambda t: (t[0][1], t[0][0]))
    print("%%MatrixMarket matrix coordinate real symmetric")
    print("% -div(k grad u) on a 20x20 grid, 5-point stencil, zero Dirichlet")
    print("% boundaries: SPD, 400 unknowns, lower triangle, column-major.")
    print("% Made by examples/data/diffusion2d.py; read by the `cg` example.")
    print(f"{n} {n} {len(entries)}")
    for (i, j), v in entries:
        print(f"{i + 1} {j + 1} {v:g}")


if __name__ == "__main__":
    main()
