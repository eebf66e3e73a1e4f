/**
 * Helpers the benchmark suites share: the fastest of several runs, and one row of a
 * search-throughput table.
 *
 * @module
 */
import type { SearchResult } from "../core/search/types.ts";

/** The fastest of `runs` runs of a search (the machine is shared, so the best is fairest). */
export const bestOf = (runs: number, f: () => SearchResult): SearchResult => {
  let r = f();
  for (let i = 1; i < runs; i++) {
    const x = f();
    if (x.timeMs < r.timeMs) r = x;
  }
  return r;
};

/** Prints a search as one row: name, nodes, time, nodes per second, value (and move). */
export const searchRow = (name: string, r: SearchResult, width = 44, showMove = false): void =>
  console.log(
    `${name.padEnd(width)} ${String(r.nodes).padStart(10)} nodes ${
      r.timeMs.toFixed(1).padStart(8)
    } ms ${((r.nodes / r.timeMs) / 1000).toFixed(2).padStart(7)} M nodes/s  value ${r.value}` +
      (showMove ? `  move ${r.move === undefined ? "-" : r.move + 1}` : ""),
  );
