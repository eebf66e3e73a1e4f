/**
 * Every plugin passes the conformance suite: one line per plugin (and per option set
 * worth covering). A user's plugin can be checked the same way.
 */
import { conformance } from "./conformance.ts";

conformance({ label: "kalah", load: () => import("../plugins/kalah/mod.ts") });
conformance({
  label: "kalah 3x2 capture always, seed 000's store value and board",
  load: () => import("../plugins/kalah/mod.ts"),
  options: { pits: 3, stones: 2, capture: "always", eval: "store", board: "plain" },
  searchDepth: 4,
});
conformance({ label: "tictactoe", load: () => import("../plugins/tictactoe/mod.ts") });
conformance({ label: "nim", load: () => import("../plugins/nim/mod.ts") });
conformance({
  label: "nim misère 1,2,3,1",
  load: () => import("../plugins/nim/mod.ts"),
  options: { heaps: [1, 2, 3, 1], misere: true },
  searchDepth: 4,
});
conformance({
  label: "race (chance test game)",
  load: () => import("./fixtures/race.ts"),
  options: { goal: 5 },
  searchDepth: 4,
});
conformance({ label: "pentago", load: () => import("../plugins/pentago/mod.ts"), searchDepth: 1 });
conformance({
  label: "subtraction (README's worked example)",
  load: () => import("./fixtures/subtraction.ts"),
  options: { stones: 10, take: 3 },
  searchDepth: 4,
});
conformance({
  label: "2048",
  load: () => import("../plugins/game2048/mod.ts"),
  playouts: 8,
  searchDepth: 2,
});
conformance({
  label: "2048 3x2 monotone",
  load: () => import("../plugins/game2048/mod.ts"),
  options: { width: 3, height: 2, eval: "monotone" },
  searchDepth: 4,
});
conformance({
  label: "domineering 4x4",
  load: () => import("../plugins/domineering/mod.ts"),
  options: { board: "4x4" },
});
conformance({
  label: "domineering carpet 1, V first",
  load: () => import("../plugins/domineering/mod.ts"),
  options: { shape: "carpet:1" },
  searchDepth: 4,
});
