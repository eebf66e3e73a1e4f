/**
 * Adjudication (`--adjudicate`), as fastchess adjudicates by tablebases and by scores: a
 * game of a series whose result is settled ends early, its result marked adjudicated
 * (`GameResult.reason` `"adjudicated"`, the rule in `GameResult.adjudicated`).
 *
 * - `proof[:NODES]`: before each player's move, alpha-beta searches the position one ply
 *   deeper at a time (in the engine's workers) until it proves the result (every line to
 *   its end, or a forced win found) or has spent NODES nodes (default 100,000) on it.
 *   Nodes, not time, bound it: the same games end at the same ply on any machine. Where
 *   the search meets a chance move it proves nothing (its value is the dice's average or
 *   their worst for one side), so a game with chance moves is adjudicated by proof only
 *   where no chance move is left within reach of the proof.
 * - `score:V:N`: the players' own searches valued the position at V or more for the same
 *   side (player 0's view: +V or more, or -V or less) on N searched moves in a row (both
 *   players' searches, in turn; a move without a search, a random player's, is passed
 *   over): that side wins. V is in the game's value units.
 *
 * @module
 */
import { CHANCE, type Game, type Player, WIN_THRESHOLD } from "../../core/game.ts";
import { alphabetaStrategy } from "../../core/search/strategies.ts";
import type { SearchResult } from "../../core/search/types.ts";
import { search } from "../../core/engine/engine.ts";
import type { SearchError } from "../../core/errors.ts";
import type { GameSource } from "../../core/source.ts";
import { Effect } from "../../core/deps.ts";
import type { GameResult } from "../transcript.ts";

/** The rules of `--adjudicate`; a rule left out is off. */
export interface Adjudication {
  /** The proof rule: the most nodes its search spends on a position. */
  readonly proofNodes?: number;
  /** The score rule: the value and the plies in a row. */
  readonly score?: { readonly value: number; readonly plies: number };
}

/** The proof rule's nodes when `proof` names none. */
export const PROOF_NODES = 100_000;

/** The deepest the proof rule searches (a position is then left to the players). */
const PROOF_MAX_DEPTH = 64;

/** The usage lines of `--adjudicate`. */
export const ADJUDICATE_USAGE =
  `  --adjudicate R   end a game early once its result is settled, marked adjudicated:
                   proof[:NODES] when alpha-beta proves it before a move within NODES
                   nodes (default ${PROOF_NODES}; not through chance moves), score:V:N
                   when the players' searches value it V or more for one side on N
                   moves in a row (V in the game's values); both: proof,score:V:N
`;

/**
 * Reads `--adjudicate`'s text (`proof`, `proof:NODES`, `score:V:N`, or both, separated by
 * a comma); a message naming the flag and the accepted forms when it is wrong.
 *
 * @example
 * ```ts
 * import { parseAdjudication } from "./adjudicate.ts";
 * const a = parseAdjudication("proof:5000,score:400:8");
 * if (typeof a === "string" || a.proofNodes !== 5000 || a.score?.plies !== 8) throw new Error();
 * if (typeof parseAdjudication("proof:0") !== "string") throw new Error("0 nodes is refused");
 * ```
 */
export const parseAdjudication = (text: string): Adjudication | string => {
  const wrong = (why: string) =>
    `--adjudicate: ${why} (give proof, proof:NODES with NODES from 1 to 1000000000, ` +
    `score:V:N with V above 0 and N from 1 to 10000, or both as proof,score:V:N; got '${text}')`;
  let proofNodes: number | undefined;
  let score: Adjudication["score"];
  for (const part of text.split(",").map((p) => p.trim())) {
    const proof = /^proof(?::(\d+))?$/.exec(part);
    const scored = /^score:([0-9.eE+]+):(\d+)$/.exec(part);
    if (proof !== null) {
      if (proofNodes !== undefined) return wrong("proof is given twice");
      proofNodes = proof[1] === undefined ? PROOF_NODES : Number(proof[1]);
      if (!(proofNodes >= 1 && proofNodes <= 1e9)) {
        return wrong(`NODES ${proof[1]} is out of range`);
      }
    } else if (scored !== null) {
      if (score !== undefined) return wrong("score is given twice");
      const [value, plies] = [Number(scored[1]), Number(scored[2])];
      if (!(value > 0 && Number.isFinite(value))) return wrong(`V ${scored[1]} is not above 0`);
      if (!(plies >= 1 && plies <= 10_000)) return wrong(`N ${scored[2]} is out of range`);
      score = { value, plies };
    } else {
      return wrong(part === "" ? "a rule is empty" : `'${part}' is not a rule`);
    }
  }
  return { ...(proofNodes !== undefined ? { proofNodes } : {}), ...(score ? { score } : {}) };
};

/** `--adjudicate`'s text again, from its rules (for the folder's settings and the output). */
export const describeAdjudication = (a: Adjudication): string =>
  [
    ...(a.proofNodes !== undefined ? [`proof:${a.proofNodes}`] : []),
    ...(a.score !== undefined ? [`score:${a.score.value}:${a.score.plies}`] : []),
  ].join(",");

/**
 * Looked at before each player's move with the position and the search of the move just
 * played (`undefined` after a chance move, an opening move, or a player that does not
 * search); the result that ends the game there, or `undefined` to play on.
 */
export type Adjudicator<S> = (
  state: S,
  last: { readonly by: Player | typeof CHANCE; readonly search?: SearchResult } | undefined,
) => Effect.Effect<GameResult | undefined, SearchError>;

/**
 * The result a proof search gives: a forced win (a decisive value) or, where it reached
 * the end of every line, the exact result; `undefined` when it proves nothing (a chance
 * move within its reach, or a depth cut-off without a forced win).
 *
 * @example
 * ```ts
 * import { WIN } from "../../core/game.ts";
 * import { provenWinner } from "./adjudicate.ts";
 * const r = { move: 0, value: WIN - 3, pv: [0], nodes: 9, depth: 3, exact: false, timeMs: 1 };
 * if (provenWinner(r) !== 0) throw new Error("a forced win for player 0");
 * if (provenWinner({ ...r, value: 0, exact: true }) !== null) throw new Error("a draw");
 * if (provenWinner({ ...r, value: 12, exact: false }) !== undefined) throw new Error();
 * if (provenWinner({ ...r, chance: true }) !== undefined) throw new Error("no proof");
 * ```
 */
export const provenWinner = (r: SearchResult): Player | null | undefined => {
  if (r.chance === true || Number.isNaN(r.value)) return undefined;
  if (r.value >= WIN_THRESHOLD) return 0;
  if (r.value <= -WIN_THRESHOLD) return 1;
  return r.exact ? (r.value > 0 ? 0 : r.value < 0 ? 1 : null) : undefined;
};

/**
 * A fresh adjudicator for one game of `game` (it keeps the score rule's count), searching
 * in the engine's workers with `source`.
 */
export const adjudicator = <S>(
  game: Game<S>,
  rules: Adjudication,
  source?: GameSource,
): Adjudicator<S> => {
  let streak = 0, side = 0;
  const score = rules.score;
  const proofNodes = rules.proofNodes;
  const ended = (winner: Player | null, why: string): GameResult => ({
    winner,
    margin: 0,
    reason: "adjudicated",
    adjudicated: why,
  });
  return (state, last) =>
    Effect.gen(function* () {
      // (A move without a search, a random player's, leaves the count as it was.)
      if (score !== undefined && last?.search !== undefined && last.by !== CHANCE) {
        const v = last.search.value;
        const s = v >= score.value ? 1 : v <= -score.value ? -1 : 0;
        streak = s !== 0 && s === side ? streak + 1 : s !== 0 ? 1 : 0;
        side = s;
        if (streak >= score.plies) {
          return ended(
            side > 0 ? 0 : 1,
            `the players' searches valued it ${side > 0 ? "+" : "-"}${score.value} or beyond ` +
              `for ${score.plies} moves in a row`,
          );
        }
      }
      if (proofNodes === undefined) return undefined;
      let nodes = 0;
      for (let depth = 1; depth <= PROOF_MAX_DEPTH && nodes < proofNodes; depth++) {
        const r = yield* search({
          strategy: alphabetaStrategy,
          game,
          state,
          ...(source !== undefined ? { source } : {}),
          options: { depth },
        });
        nodes += r.nodes;
        const winner = provenWinner(r);
        if (winner !== undefined) {
          return ended(winner, `proved by alpha-beta to depth ${depth} in ${nodes} nodes`);
        }
        // The end of every line reached, yet no proof: a chance move is in the way.
        if (r.exact || r.chance === true) return undefined;
      }
      return undefined;
    });
};
