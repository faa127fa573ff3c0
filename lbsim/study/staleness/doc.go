// Package staleness reproduces the analysis "Round Robin Can't See the Giant" (heavy-tailed job
// sizes and stale load information, reference 000_5e4f4e6a97bbec71) and its processor-sharing
// sequel: the document's setup (K=100 servers, Poisson arrivals, mean size 1, load 0.9,
// H2 sizes with balanced means at SCV 1, 4, 10, 30), its five policies, the grid of board
// refresh periods T, the exact or approximate values beside each simulated one, the table of
// where each policy becomes worse than round robin, the Pareto trap, and the document's quoted
// numbers as data to compare with.
//
// It depends on the simulator, its theory package and the plain-data figures of package plots,
// never on a notebook kernel, so notebooks 04 and 05 share it and its tests run under go test.
package staleness
