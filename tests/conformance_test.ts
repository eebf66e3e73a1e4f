/**
 * Every plugin passes the conformance suite: one line per plugin (and per option set
 * worth covering). A user's plugin can be checked the same way.
 */
import { conformance } from "./conformance.ts";

conformance({ label: "tictactoe", load: () => import("../plugins/tictactoe.ts") });
conformance({ label: "nim", load: () => import("../plugins/nim.ts") });
conformance({
  label: "nim misère 1,2,3,1",
  load: () => import("../plugins/nim.ts"),
  options: { heaps: [1, 2, 3, 1], misere: true },
  searchDepth: 4,
});
