/**
 * `--adjudicate`: its rules read from the flag's text, the proof rule (alpha-beta to a
 * node budget; never through chance moves), the score rule's count, and the programs
 * that take it (`match`, `tournament`), whose adjudicated games are marked as such and
 * the same on every run.
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { Effect, Result } from "../core/deps.ts";
import { CHANCE, type Game, WIN } from "../core/game.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import tictactoe from "../plugins/tictactoe/mod.ts";
import {
  adjudicator,
  describeAdjudication,
  parseAdjudication,
  PROOF_NODES,
} from "../app/tournament/adjudicate.ts";
import type { SearchResult } from "../core/search/types.ts";
import { runTask } from "../testing/task.ts";

const ttt = tictactoe.create({}) as Game<unknown>;
/** Tic-tac-toe after the moves `ms` (cells 0-8). */
const after = (...ms: number[]) => ms.reduce((s, m) => ttt.play(s, m), ttt.initial());

Deno.test("adjudicate: the flag's rules, and every wrong form named", () => {
  assertEquals(parseAdjudication("proof"), { proofNodes: PROOF_NODES });
  assertEquals(parseAdjudication("proof:5000"), { proofNodes: 5000 });
  assertEquals(parseAdjudication("score:400:8"), { score: { value: 400, plies: 8 } });
  assertEquals(parseAdjudication(" score:1.5:2 , proof:7 "), {
    proofNodes: 7,
    score: { value: 1.5, plies: 2 },
  });
  assertEquals(
    describeAdjudication({ proofNodes: 7, score: { value: 1.5, plies: 2 } }),
    "proof:7,score:1.5:2",
  );
  const wrong: [string, string][] = [
    ["", "a rule is empty"],
    ["proof:0", "NODES 0 is out of range"],
    ["proof:1000000001", "NODES 1000000001 is out of range"],
    ["score:0:3", "V 0 is not above 0"],
    ["score:5:0", "N 0 is out of range"],
    ["score:5", "'score:5' is not a rule"],
    ["proof,proof:3", "proof is given twice"],
    ["score:1:1,score:2:2", "score is given twice"],
    ["tablebase", "'tablebase' is not a rule"],
  ];
  for (const [text, why] of wrong) {
    const r = parseAdjudication(text);
    assert(typeof r === "string", text);
    assertStringIncludes(r, `--adjudicate: ${why}`);
    assertStringIncludes(r, `got '${text}'`);
  }
});

Deno.test("adjudicate: the proof rule ends a game whose result alpha-beta proves, within its nodes", async () => {
  const proof = (state: unknown, nodes: number) =>
    Effect.runPromise(adjudicator(ttt, { proofNodes: nodes })(state, undefined));
  // X (player 0) on 0 and 1, O on 3 and 4, X to move: a win in one.
  const win = await proof(after(0, 3, 1, 4), 1000);
  assertEquals(win?.winner, 0);
  assertEquals(win?.reason, "adjudicated");
  assertStringIncludes(win?.adjudicated ?? "", "proved by alpha-beta");
  // From the start: a draw.
  const start = await proof(ttt.initial(), PROOF_NODES);
  assertEquals(start?.winner, null, "tic-tac-toe is a draw");
  assertEquals(start?.margin, 0);
  // Its nodes spent, it proves nothing: the game goes on.
  assertEquals(await proof(ttt.initial(), 50), undefined);
  // The same budget as the proof needs, or more: the same answer (nodes decide, not time).
  const needed = Number(/in (\d+) nodes/.exec(start!.adjudicated!)![1]);
  assertEquals((await proof(ttt.initial(), needed))?.winner, null);
  // A player 1's win: X blundered, O wins in one.
  const lost = await proof(after(0, 3, 1, 4, 8), 1000);
  assertEquals(lost?.winner, 1);
});

/** Player 0 moves once, then a coin decides the winner. */
const coin: Game<number> = {
  id: "coin",
  players: ["a", "b"],
  initial: () => 0,
  toMove: (s) => (s === 0 ? 0 : s === 1 ? CHANCE : 1),
  moves: (s) => (s === 0 ? [0] : []),
  chances: (s) => (s === 1 ? [{ move: 0, p: 0.5 }, { move: 1, p: 0.5 }] : []),
  play: (s, m) => (s === 0 ? 1 : 2 + m),
  outcome: (s) => (s < 2 ? undefined : { winner: s === 2 ? 0 : 1, margin: 0 }),
  value: (s) => (s === 2 ? WIN : s === 3 ? -WIN : 0),
  render: (s) => String(s),
  formatMove: (_s, m) => String(m),
  parseMove: (_s, t) => Result.succeed(Number(t)),
};

Deno.test("adjudicate: a chance move within reach proves nothing, though the search is exact", async () => {
  // Alpha-beta takes the coin as player 1's: exact, -WIN. Not a proof that b wins.
  const r = alphabetaSearch(coin, 0, { depth: 4 });
  assertEquals([r.exact, r.value, r.chance], [true, -WIN, true]);
  assertEquals(alphabetaSearch(ttt, ttt.initial(), { depth: 9 }).chance, undefined);
  const decided = await Effect.runPromise(adjudicator(coin, { proofNodes: 10_000 })(0, undefined));
  assertEquals(decided, undefined);
  // After the coin, nothing is left to chance: a's win is proved.
  const won = await Effect.runPromise(adjudicator(coin, { proofNodes: 10_000 })(2, undefined));
  assertEquals(won?.winner, 0);
});

/** A search's result with value `value` (the rest as any search would fill it). */
const valued = (value: number): SearchResult => ({
  move: 0,
  value,
  pv: [0],
  nodes: 1,
  depth: 1,
  exact: false,
  timeMs: 0,
});

Deno.test("adjudicate: the score rule counts searched moves in a row past the value, for one side", async () => {
  const judge = adjudicator(ttt, { score: { value: 10, plies: 3 } });
  const feed = (by: 0 | 1 | typeof CHANCE, v?: number) =>
    Effect.runPromise(
      judge(ttt.initial(), { by, ...(v !== undefined ? { search: valued(v) } : {}) }),
    );
  assertEquals(await feed(0, 12), undefined); // 1 for player 0
  assertEquals(await feed(1, 10), undefined); // 2 (exactly the value counts)
  assertEquals(await feed(0, -15), undefined); // the other side: 1 for player 1
  assertEquals(await feed(1, -9), undefined); // under the value: 0
  assertEquals(await feed(0, -10), undefined); // 1
  assertEquals(await feed(1), undefined); // no search (a random player's move): passed over
  assertEquals(await feed(CHANCE, 99), undefined); // a chance move: passed over
  assertEquals(await feed(0, -11), undefined); // 2
  const end = await feed(1, -30); // 3: player 1 wins
  assertEquals(end?.winner, 1);
  assertEquals(end?.reason, "adjudicated");
  assertStringIncludes(end?.adjudicated ?? "", "-10 or beyond for 3 moves in a row");
  // A fresh adjudicator (a new game) starts from nothing.
  const next = adjudicator(ttt, { score: { value: 10, plies: 1 } });
  const one = await Effect.runPromise(next(ttt.initial(), { by: 0, search: valued(10) }));
  assertEquals(one?.winner, 0);
});

/** The games of a folder as their moves and results (times left out). */
const gamesOf = async (dir: string) =>
  (await Deno.readTextFile(`${dir}/games.jsonl`)).split("\n").filter((l) => l !== "").map(
    (l) => {
      const { id, transcript } = JSON.parse(l);
      return {
        id,
        moves: transcript.moves.map((m: { move: number }) => m.move),
        ...transcript.result,
      };
    },
  ).sort((a, b) => a.id.localeCompare(b.id));

Deno.test("adjudicate: match and tournament end settled games early, marked, the same on every run", async () => {
  const dirs = await Promise.all([0, 1, 2].map(() => Deno.makeTempDir({ prefix: "ply-adj-" })));
  try {
    // Kalah between searchers: the score rule (values are stones ahead) ends them early.
    const args = (dir: string) => [
      ...["kalah", "--p1", "alphabeta:4", "--p2", "alphabeta:2", "--games", "4"],
      ...["--adjudicate", "score:6:4", "--out", dir, "--json"],
    ];
    const a = await runTask("match", args(dirs[0]));
    const b = await runTask("match", args(dirs[1]));
    assertEquals(b.code, 0, b.stderr);
    assertEquals(a.code, 0, a.stderr);
    const report = JSON.parse(a.stdout);
    const games = await gamesOf(dirs[0]);
    const adjudicated = games.filter((g) => g.reason === "adjudicated");
    assertEquals(report.adjudicated, adjudicated.length);
    assert(adjudicated.length > 0, "some game was settled early");
    for (const g of adjudicated) {
      assertStringIncludes(g.adjudicated, "for 4 moves in a row");
      assert(g.winner === 0 || g.winner === 1);
    }
    assertEquals(await gamesOf(dirs[1]), games, "the same games and results on a rerun");
    // Without the rule the games run to their end: longer.
    const plain = await runTask(
      "match",
      args(dirs[2]).filter((x) => !x.startsWith("score:") && x !== "--adjudicate"),
    );
    assertEquals(plain.code, 0, plain.stderr);
    const full = await gamesOf(dirs[2]);
    assertEquals(full.filter((g) => g.reason === "adjudicated").length, 0);
    const plies = (gs: { moves: number[] }[]) => gs.reduce((n, g) => n + g.moves.length, 0);
    assert(plies(games) < plies(full), `${plies(games)} plies against ${plies(full)}`);

    // A tournament proves tic-tac-toe drawn before its first player's move: every game.
    const t = await runTask("tournament", [
      ...["tictactoe", "--players", "alphabeta:9", "random", "--rounds", "2"],
      ...["--adjudicate", "proof"],
    ]);
    assertEquals(t.code, 0, t.stderr);
    assertStringIncludes(t.stdout, "adjudicated (--adjudicate): 4");

    // A rerun of a folder with other rules is another series: refused, nothing lost.
    const other = await runTask(
      "match",
      [
        ...args(dirs[0]).filter((x) => x !== "score:6:4"),
      ].map((x) => (x === "--adjudicate" ? "--adjudicate=proof" : x)),
    );
    assertEquals(other.code, 2, other.stdout + other.stderr);
    assertStringIncludes(other.stderr, "adjudicate");
    assertEquals(await gamesOf(dirs[0]), games);

    const bad = await runTask("match", [
      "kalah",
      "--p1",
      "random",
      "--p2",
      "random",
      "--adjudicate",
      "proof:x",
    ]);
    assertEquals(bad.code, 2);
    assertStringIncludes(bad.stderr, "--adjudicate: 'proof:x' is not a rule");
  } finally {
    for (const d of dirs) await Deno.remove(d, { recursive: true });
  }
});
