/**
 * A training worker (`train.ts` `trainNetwork`): given the shared weights, control words
 * and its pool of late-start positions (`StartPool`), it claims games one at a time,
 * plays and learns each (`playGame`), reports the results about every quarter second,
 * and on `PAUSE` reports and waits (`Atomics.wait`) until the flag changes; on `STOP`, or
 * past the last game, it reports and ends.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { createNetwork } from "./ntuple.ts";
import {
  CONTROL,
  Episode,
  type GameResult,
  type LateStarts,
  PAUSE,
  playGame,
  StartPool,
  STOP,
  type WorkerReport,
  type WorkerSetup,
} from "./train.ts";

self.onmessage = (e: MessageEvent<WorkerSetup>) => {
  const { weights, coherence, control: shared, shape, seed, alpha, late, pool } = e.data;
  const net = createNetwork(
    shape,
    new Float32Array(weights),
    coherence === undefined ? undefined : new Float32Array(coherence),
  );
  const control = new Int32Array(shared);
  const episode = new Episode();
  const starts: LateStarts = { share: late, pool: new StartPool(pool) };
  const result: GameResult = { score: 0, maxRank: 0, moves: 0, late: false };
  let results: number[] = [];
  let last = performance.now();
  const report = (kind: WorkerReport["kind"]) => {
    const r: WorkerReport = { kind, results };
    self.postMessage(r);
    results = [];
    last = performance.now();
  };
  for (;;) {
    const flag = Atomics.load(control, CONTROL.flag);
    if (flag === STOP) break;
    if (flag === PAUSE) {
      report("paused");
      Atomics.wait(control, CONTROL.flag, PAUSE);
      continue;
    }
    const limit = Atomics.load(control, CONTROL.limit);
    const game = Atomics.add(control, CONTROL.next, 1);
    if (limit >= 0 && game >= limit) break;
    playGame(net, seed, game, alpha, episode, result, starts);
    results.push(result.score, result.maxRank, result.moves, result.late ? 1 : 0);
    if (performance.now() - last > 250) report("games");
  }
  report("done");
};
