"""App 3, PageRank by power iteration on a 32-node directed graph.

A[i, j] = 1 when page j links to page i (a pattern matrix: no values are
stored). Every page has 1 to 4 out-links, no self-links. Iteration:
r <- d * A (r / outdeg) + (1 - d) / N, ITERS times from r = 1/N, d = 0.85.
Writes pagerank_a.mtx and pagerank_*.npy (vectors); run: python3 data/gen_pagerank.py"""

from mtx import Lcg, write_coordinate, write_vector_npy

N, ITERS, D = 32, 20, 0.85
rng = Lcg(0x5EED1234)

links = set()
for j in range(N):
    for _ in range(1 + rng.below(4)):
        i = rng.below(N)
        if i != j:
            links.add((i, j))
    if not any(jj == j for _, jj in links):
        links.add(((j + 1) % N, j))
outdeg = [sum(1 for _, jj in links if jj == j) for j in range(N)]

r = [1.0 / N] * N
for _ in range(ITERS):
    w = [r[j] / outdeg[j] for j in range(N)]
    r = [D * sum(w[j] for (ii, j) in links if ii == i) + (1 - D) / N for i in range(N)]

write_coordinate("pagerank_a.mtx", N, N, [(i, j, 1.0) for i, j in links],
                 "PageRank link pattern, A[i, j] = 1: page j links to page i; by data/gen_pagerank.py",
                 pattern=True)
write_vector_npy("pagerank_outdeg.npy", [float(d) for d in outdeg])
write_vector_npy("pagerank_r.npy", r)
top = max(range(N), key=lambda k: r[k])
print("pagerank: edges", len(links), "sum", sum(r), "top page", top, r[top])
