// The typed confirmation of a remote restore (docs/decisions.md, "Backups"; docs/operations.md, "Backup and restore"):
// a restore into a deployed environment replaces rows no Time Travel of ours can undo once the window has passed, and
// `--force` alone was one flag away from wiping production. The operator types the environment's name, as
// `--confirm <env>` or, on a terminal, at the prompt; a local restore asks nothing.
import { createInterface } from "node:readline";
import { UsageError } from "./target.mjs";

/**
 * Resolves when the restore of `databases` (`[{ binding, name }]`, from wrangler.toml) into `target` is confirmed;
 * throws a UsageError (exit 2) naming what to type otherwise. `confirm`: the `--confirm` value, if any. Without one,
 * the name is read from `input` when it is a terminal; with no terminal (CI, a pipe) there is no one to ask, so it
 * refuses. A `--confirm` that does not match is refused at once rather than asked again: it is a mistake, not a lapse.
 * Runs before any wrangler call, so a refusal touches nothing.
 */
export async function confirmRemoteRestore(target, databases, confirm, { input = process.stdin, output = process.stderr } = {}) {
  if (!target.remote) return;
  const expected = target.env;
  const what = databases.map((d) => `${d.binding} (${d.name ?? "unnamed"})`).join(", ");
  const how = `type the environment's name, ${expected}: --confirm ${expected}`;
  if (confirm !== undefined) {
    if (confirm === expected) return;
    throw new UsageError(`--confirm ${JSON.stringify(confirm)} does not match the environment restored into; ${how}`);
  }
  if (!input.isTTY) {
    throw new UsageError(`a remote restore replaces the rows of ${what} in ${expected}; to confirm, ${how}`);
  }
  const rl = createInterface({ input, output, terminal: false });
  try {
    output.write(`db:restore: this replaces the rows of ${what} in ${expected}.\nType the environment's name (${expected}) to go on: `);
    const typed = await new Promise((resolve) => {
      rl.once("line", resolve);
      rl.once("close", () => resolve(undefined));
    });
    if (typed?.trim() !== expected) throw new UsageError(`not confirmed (typed ${JSON.stringify(typed?.trim() ?? "")}); ${how}`);
  } finally {
    rl.close();
  }
}
