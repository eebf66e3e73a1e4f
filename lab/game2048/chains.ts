/**
 * The squeeze alone, from real games: where each game of a series first held a chain of
 * N tiles from a 16384 (`endgame.ts` `chainOf`: 16384, 8192, ... each beside the next),
 * the fast expectimax plays on once more with other tiles, and the figures say how often
 * it then makes 32768, next to how often the series' own game did from the same position.
 * A series of 100 full games spends most of its time before the squeeze; this plays only
 * the part that decides 32768, from the positions the player itself reached.
 *
 * ```sh
 * deno task match 2048 --eval ntuple --p1 expectimax:5 --games 100 --seed 1 --out out/e5b --json
 * deno run --allow-read --allow-import lab/game2048/chains.ts --series out/e5b/games.jsonl \
 *   --tiles 6 --depth 5 --endgame 10
 * ```
 *
 * The positions are taken in the file's order (a `games.jsonl` lists the games as they
 * ended); position i's tiles come from `core/rng.ts` seeded `1000 S + i` (`--seed S`,
 * default 1), so two runs with other `--endgame` or `--depth` meet the same tiles as long
 * as they play alike. `--first A --last B` plays positions A to B only (to split a run
 * over the cores); `--gaps G`, `--through 1` and `--tables GB` add the spec's `,gaps=G`,
 * `,through=1` and `,tables=GB` (the solver's tables kept from one position's game to the
 * next: the same chains come back in each).
 * `--out RUN` appends each position's line to RUN as well and skips the positions RUN
 * already holds (a run resumed, or spread over sessions). `--series` also takes a starts
 * file of `lab/game2048/starts.ts` (the games stopped at their first 16384, `--tiles 1`:
 * the lines kept under `lab/game2048/data/`). Each position prints a JSON line (the series' seed, whether the series
 * made 32768 from it, the largest tile and score made here, slides, the longest search in
 * ms, the endgame solver's first note and its phases: `phasesOf`), then a summary line;
 * `--compare A --compare B` pairs two runs' outputs by position (32768 in each, by each alone, a sign test's p, each
 * run's mean score and the solver's mean first probability), or two `--trials` outputs
 * trial by trial (`compareTrials`: made by each, by each alone, a sign test's p). `--solve` times the endgame
 * solver alone on each position, from an empty table (`--endgame K` cells; the slide, the
 * probability, positions, nodes, the table's slots and milliseconds). `--splice RUN` prints
 * the series with each game played on from its position by the run (`splice`), as records
 * for `lab/game2048/games.ts --summary` and `--compare`: a whole series' figures and time
 * a slide for a player that differs from the series' only from the position on.
 * `--solve --phase-of RUN` solves instead from where each game of the run first held the
 * chain `--chain` (its tiles, default `16384,8192,4096,2048,1024,512`, the last phase;
 * `phaseStarts`), in regions of up to `--endgame K` cells (default: the chain's own), the
 * positions numbered as the run's; `--budget N` gives a chain up after N positions instead
 * of the solver's budget (both `--solve`s); `--solve --board CELLS` solves one board (its 16
 * cells, row by row).
 * `--trials N --phase-of RUN --chain TILES` plays the search (`--depth`, `--endgame`,
 * `--gaps`, `--through`, and `--rescue D --crowd E --letgo P` for the spec's parameters)
 * on from each of those first boards N times, each game until the phase's goal is made
 * (`phaseGoal`, or a later tile `--goal T`: the phases after it too) or the game ends (`phaseTrials`): what the player makes of the phase,
 * next to the solver's value holding the chain, with each trial's outcome to pair two
 * arms by.
 * `--phases RUN` lists every chain the solver held in the run's games (`phaseTable`): in
 * how many games, its goal's mean first probability (at each game's first phase holding
 * it), and how many lost games it ended; then the network's own long stretches
 * (`networkStretches`).
 * `--summary RUN` sums a run up (`summarizeRun`): positions, 32768s, milliseconds a slide,
 * minutes a position, the longest wait, slides a game.
 *
 * This module is the command line; what it runs lives beside it: the positions and the
 * games played on from them in `game2048_positions.ts`, the phases (trials, solves, the
 * chains held, the network's stretches) in `game2048_phases.ts`, and a run's figures, two
 * runs paired and a splice in `game2048_runs.ts`.
 *
 * @module
 */
import { parseArgs } from "../../app/deps.ts";
import { packCells } from "../../plugins/game2048/board.ts";
import { ENDGAME_REGION } from "../../plugins/game2048/endgame.ts";
import { readTextOr } from "./games.ts";
import {
  compareTrials,
  networkStretches,
  phaseGoal,
  phaseStarts,
  phaseTable,
  phaseTrials,
  solveFrom,
  type TrialComparison,
  trialLines,
  type TrialPair,
} from "./phases.ts";
import { type ChainGame, chainStarts, networkPlayer, playFrom, runGames } from "./positions.ts";
import { compareRuns, splice, summarizeRun } from "./runs.ts";

if (import.meta.main) {
  const args = parseArgs(Deno.args, {
    string: [
      "series",
      "tiles",
      "depth",
      "endgame",
      "gaps",
      "through",
      "tables",
      "seed",
      "first",
      "last",
      "weights",
      "splice",
      "p1",
      "phases",
      "summary",
      "out",
      "phase-of",
      "chain",
      "budget",
      "trials",
      "goal",
      "board",
      "rescue",
      "crowd",
      "letgo",
    ],
    boolean: ["solve"],
    collect: ["compare"],
  });
  const compare = (args.compare ?? []) as string[];
  if (compare.length === 2) {
    const [a, b] = compare.map((f) => Deno.readTextFileSync(f));
    if (trialLines(a).some((r) => r.outcomes !== undefined)) {
      let c: TrialComparison;
      try {
        c = compareTrials(a, b);
      } catch (e) {
        console.error(`--compare ${compare[0]} --compare ${compare[1]}: ${(e as Error).message}`);
        Deno.exit(2);
      }
      const line = (r: TrialPair, name: string) =>
        console.log(
          `${name}: ${r.trials} trials; made ${r.made[0]} and ${r.made[1]}; ` +
            `by one alone: ${r.alone[0]} and ${r.alone[1]}`,
        );
      for (const r of c.positions) line(r, `position ${r.index}`);
      line(c.all, `all (${compare[0]}, ${compare[1]})`);
      console.log(`sign test p = ${c.p.toPrecision(2)}`);
      Deno.exit(0);
    }
    const c = compareRuns(a, b);
    const fmt = (x: number) => Math.round(x).toLocaleString("en-US");
    console.log(
      `${c.positions} positions: 32768 in ${c.made[0]} (${compare[0]}) and ${c.made[1]} ` +
        `(${compare[1]}); by one alone: ${c.alone[0]} and ${c.alone[1]} ` +
        `(sign test p = ${c.p.toFixed(3)})`,
    );
    for (const i of [0, 1]) {
      const s = c.scores[i], v = c.solver[i];
      console.log(
        `${compare[i]}: mean score from there ${fmt(s.mean)} (± ${fmt(s.error)}); ` +
          `the solver's first probability ${v.mean.toFixed(3)} on average over ${v.positions}; ` +
          `${c.msPerSlide[i].toFixed(2)} ms a slide`,
      );
    }
    Deno.exit(0);
  }
  if (typeof args.summary === "string") {
    const s = summarizeRun(Deno.readTextFileSync(args.summary));
    console.log(
      `${s.positions} positions: 32768 in ${s.made} (${
        (100 * s.made / Math.max(1, s.positions)).toFixed(0)
      }%); ${s.msPerSlide.toFixed(1)} ms a slide, ${s.minutes.toFixed(1)} minutes a position, ` +
        `the longest wait ${Math.round(s.longestMs / 1000)} s; ${
          Math.round(s.slides)
        } slides a game`,
    );
    Deno.exit(0);
  }
  if (typeof args.phases === "string") {
    for (const r of phaseTable(Deno.readTextFileSync(args.phases))) {
      console.log(
        `${r.chain.join(" ")}: ${r.games} games, first probability ${r.probability.toFixed(3)} ` +
          `on average; last phase of ${r.lostIn} lost games ending in it, ${r.lostAfter} going on`,
      );
    }
    const n = networkStretches(Deno.readTextFileSync(args.phases), 200);
    console.log(
      `the network alone for more than 200 slides between phases before a 32768, or after a ` +
        `lost game's last: ${n.stretches} stretches (${n.medianSlides} slides at the median), ` +
        `${n.lost} games lost in one (the largest tile off its corner at the end in ` +
        `${n.offCorner}); ${n.lostBeforeAny} games lost before any phase`,
    );
    Deno.exit(0);
  }
  const budget = args.budget === undefined ? undefined : Number(args.budget);
  const first = Number(args.first ?? 0), last = Number(args.last ?? Infinity);
  const player = () => networkPlayer(args);
  if (args.solve && typeof args.board === "string") {
    const cells = args.board.split(/[ ,]+/).map(Number), packed = packCells(cells);
    if (cells.length !== 16 || packed === undefined) {
      console.error(`--board takes the 16 cells of a 4x4 board, row by row, not ${args.board}`);
      Deno.exit(2);
    }
    const region = Number(args.endgame ?? ENDGAME_REGION);
    const solve = solveFrom({ seed: 0, lo: packed[0], hi: packed[1] }, 0, region, budget);
    console.log(JSON.stringify(solve));
    Deno.exit(0);
  }
  if (typeof args["phase-of"] === "string" && (args.solve || args.trials !== undefined)) {
    const chain = String(args.chain ?? "16384,8192,4096,2048,1024,512").split(/[ ,]+/)
      .map(Number);
    const starts = phaseStarts(Deno.readTextFileSync(args["phase-of"]), chain)
      .filter(({ index }) => index >= first && index <= last);
    if (args.solve) {
      const region = Number(args.endgame ?? 16 - chain.length);
      for (const { index, start } of starts) {
        console.log(JSON.stringify(solveFrom(start, index, region, budget)));
      }
      Deno.exit(0);
    }
    const trials = Number(args.trials);
    if (!Number.isInteger(trials) || trials < 1 || trials > 1000) {
      console.error(`--trials must be a whole number from 1 to 1000, not ${args.trials}`);
      Deno.exit(2);
    }
    const goal = Number(args.goal ?? phaseGoal(chain));
    if (!Number.isInteger(Math.log2(goal)) || goal < phaseGoal(chain) || goal > 65536) {
      console.error(
        `--goal must be a tile from the phase's own goal ${
          phaseGoal(chain)
        } to 65536, not ${args.goal}`,
      );
      Deno.exit(2);
    }
    const { game: made, params } = player();
    const seed = Number(args.seed ?? 1), depth = Number(args.depth ?? 5);
    const all = starts.map((s) => {
      const r = phaseTrials(made, s, chain, trials, seed, depth, params, goal);
      console.log(JSON.stringify(r));
      return r;
    });
    const n = Math.max(1, all.length), games = all.reduce((a, r) => a + r.trials, 0);
    const won = all.reduce((a, r) => a + r.made, 0);
    console.log(
      `${all.length} positions: the goal ${goal} made in ${won} of ${games} games ` +
        `(${(won / Math.max(1, games)).toFixed(3)}), where the solver holding the chain gives ` +
        `${(all.reduce((a, r) => a + r.probability, 0) / n).toFixed(3)} on average`,
    );
    Deno.exit(0);
  }
  if (typeof args.series !== "string") {
    console.error(
      "usage: lab/game2048/chains.ts --series DIR/games.jsonl [--tiles N] [--depth D] " +
        "[--endgame K] [--gaps G] [--through 1] [--tables GB] [--seed S] [--first A] [--last B] " +
        "[--weights FILE] [--out RUN] [--solve]\n" +
        "       lab/game2048/chains.ts --compare A.jsonl --compare B.jsonl\n" +
        "       lab/game2048/chains.ts --phases RUN\n" +
        "       lab/game2048/chains.ts --solve --phase-of RUN [--chain TILES] [--endgame K] " +
        "[--budget N] [--first A] [--last B]\n" +
        "       lab/game2048/chains.ts --solve --board CELLS [--endgame K] [--budget N]\n" +
        "       lab/game2048/chains.ts --trials N --phase-of RUN [--chain TILES] [--endgame K] " +
        "[--gaps G] [--through 1] [--rescue D --crowd E] [--letgo P] [--depth D] [--goal T] [--seed S] [--first A] " +
        "[--last B]\n" +
        "       lab/game2048/chains.ts --summary RUN\n" +
        "       lab/game2048/chains.ts --series DIR/games.jsonl --tiles N --splice RUN [--p1 SPEC]",
    );
    Deno.exit(2);
  }
  const tiles = Number(args.tiles ?? 6), depth = Number(args.depth ?? 5);
  if (typeof args.splice === "string") {
    const p1 = typeof args.p1 === "string" ? args.p1 : `spliced with ${args.splice}`;
    const s = splice(
      Deno.readTextFileSync(args.series),
      Deno.readTextFileSync(args.splice),
      tiles,
      p1,
    );
    for (const r of s.records) console.log(JSON.stringify(r));
    console.error(
      `${s.records.length} games; left out: ${s.unplayed} positions the run did not play, ` +
        `${s.untimed.length} played without the time` +
        (s.untimed.length === 0 ? "" : ` (${s.untimed.join(", ")}: play them again)`),
    );
    Deno.exit(0);
  }
  const endgame = Number(args.endgame ?? ENDGAME_REGION), seed = Number(args.seed ?? 1);
  const starts = chainStarts(Deno.readTextFileSync(args.series), tiles);
  const end = Math.min(last, starts.length - 1);

  if (args.solve) {
    for (let i = first; i <= end; i++) {
      console.log(JSON.stringify(solveFrom(starts[i], i, endgame, budget)));
    }
    Deno.exit(0);
  }
  const { game: made, params } = player();
  const out = typeof args.out === "string" ? args.out : undefined;
  const done = out === undefined ? new Map<number, ChainGame>() : runGames(readTextOr(out));
  let games = 0, won = 0, seriesWon = 0, seriesKnown = 0;
  const spec = Object.entries(params).map(([k, v]) => `,${k}=${v}`).join("");
  for (let i = first; i <= end; i++) {
    let g = done.get(i);
    if (g === undefined) {
      g = playFrom(made, starts[i], i, seed, depth, params);
      console.log(JSON.stringify(g));
      if (out !== undefined) {
        Deno.writeTextFileSync(out, JSON.stringify(g) + "\n", { append: true });
      }
    }
    games++;
    if (g.maxTile >= 32768) won++;
    if (g.seriesMade32768 !== undefined) seriesKnown++;
    if (g.seriesMade32768) seriesWon++;
  }
  console.log(
    `${games} of ${starts.length} positions with a chain of ${tiles} tiles from 16384 ` +
      `(positions ${first} to ${last}); expectimax:${depth}${spec}, seed ${seed}: ` +
      `32768 in ${won}` +
      (seriesKnown === 0 ? "" : ` (the series, over ${seriesKnown} of them: ${seriesWon})`),
  );
}
