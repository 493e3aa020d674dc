// npm run admin -- <command> [arguments] [--remote] [--env <name>] [--persist-to <dir>] [--json]
// Operator commands on the D1 database through `wrangler d1 execute` (scripts/admin/): applications, staff users,
// container managers, jobs, shards. Local D1 by default; `--remote` is the deployed database of `--env`.
import { readFileSync } from "node:fs";
import {
  appCreate,
  appEndOverlap,
  appList,
  appRotateSecret,
  managerAdd,
  userCreateStaff,
  Conflict,
  DEFAULT_OVERLAP,
  NotFound,
} from "./admin/commands.mjs";
import { D1Error, UsageError, checkEnvironment, describeTarget } from "./admin/d1.mjs";
import * as jobs from "./admin/jobs.mjs";
import * as shards from "./admin/shards.mjs";
import { printIndexJobs, printIndexed, searchIndexSubtitles, searchIndexTitles, subtitlesCheck } from "./admin/search.mjs";
import { printReseat, reseatShardIds } from "./admin/shard-ids.mjs";

const COMMANDS = {
  "app:create": { args: ["name"], flags: ["official", "unhosted"], run: appCreate, print: printSecret },
  "app:list": { args: [], flags: [], run: appList, print: printApplications },
  "app:rotate-secret": { args: ["id"], flags: ["overlap"], run: appRotateSecret, print: printSecret },
  "app:end-overlap": { args: ["id"], flags: [], run: appEndOverlap, print: printOverlapEnded },
  "user:create-staff": {
    args: ["username", "email"],
    flags: ["password-stdin", "name", "email-verified"],
    run: userCreateStaff,
    print: printUser,
  },
  "manager:add": { args: ["user", "container"], flags: [], run: managerAdd, print: printManager },
  // Two words: `jobs list`, `jobs show 12j` (docs/operations.md, "Jobs runbook").
  "jobs list": { args: [], flags: ["status", "type", "since", "limit"], run: jobs.jobsList, print: jobs.printJobs },
  "jobs show": { args: ["id"], flags: [], run: jobs.jobsShow, print: jobs.printJob },
  "jobs retry": { args: ["id"], flags: [], run: jobs.jobsRetry, print: jobs.printRetried },
  "jobs dead-letters": { args: [], flags: ["since", "limit"], run: jobs.jobsDeadLetters, print: jobs.printDeadLetters },
  "jobs backlog": { args: [], flags: [], run: jobs.jobsBacklog, print: jobs.printBacklog },
  // docs/operations.md, "Shards".
  "shards list": { args: [], flags: [], run: shards.shardsList, print: shards.printShards },
  "shards add": { args: ["shard"], flags: [], run: shards.shardsAdd, print: shards.printShards },
  "shards accept": { args: ["shard", "state"], flags: [], run: shards.shardsAccept, print: shards.printShards },
  "shards move": { args: ["container", "shard"], flags: [], run: shards.shardsMove, print: shards.printMove },
  "shards reseat-ids": { args: [], flags: [], run: reseatShardIds, print: printReseat },
  // docs/operations.md, "Title search index form".
  "search index-titles": { args: [], flags: [], run: searchIndexTitles, print: printIndexed },
  // docs/operations.md, "Subtitle search index".
  "search index-subtitles": { args: ["container?"], flags: [], run: searchIndexSubtitles, print: printIndexJobs },
  // docs/operations.md, "Quality checks of existing subtitles".
  "subtitles check": { args: ["container?"], flags: ["all"], run: subtitlesCheck, print: printIndexJobs },
};
const VALUE_OPTIONS = new Set(["env", "persist-to", "name", "overlap", "status", "type", "since", "limit"]);
const TARGET_FLAGS = ["remote", "env", "persist-to", "json"];

const USAGE = `usage: npm run admin -- <command> [arguments] [--remote] [--env <name>] [--persist-to <dir>] [--json]

  app:create <name> [--official] [--unhosted]    a new application; its secret is printed once
  app:list                                       every application (never the secrets)
  app:rotate-secret <id> [--overlap <duration>]  a new secret for 12a (or 12); the old one keeps signing for the
                                                 overlap (default ${DEFAULT_OVERLAP}; 30m, 12h, 7d, at most 90d; 0: stops
                                                 at once), so installed apps can switch over
  app:end-overlap <id>                           the previous secret stops signing now (leaked, or every app switched)
  user:create-staff <username> <email> [--name <name>] [--password-stdin] [--email-verified]
                                                 a staff user; without --password-stdin a password is generated
                                                 and printed once; --email-verified only when the address is known
                                                 to be theirs (a staff account is still never linked to a social or
                                                 identity-provider login by email: its holder signs in and links)
  manager:add <user> <container>                 <user> manages <container> (12u, 12 or a username; 50c or 50)
  jobs list [--status <s>] [--type <t>] [--since <when>] [--limit <n>]
                                                 jobs, newest first (default 50); <when>: 30m, 1h, 2d, 1w or an
                                                 ISO 8601 time
  jobs show <id>                                 every field of job 12j (or 12)
  jobs retry <id>                                a failed job queued again as a new attempt; the sweeper sends it
  jobs dead-letters [--since <when>] [--limit <n>]
                                                 jobs the dead-letter queue failed, newest first, with their error
  jobs backlog                                   queued and running jobs by type, the oldest one's age, and those
                                                 overdue (the sweeper is not running)
  shards list                                    each shard database: its containers, whether new ones go there, its
                                                 pending cleanups and fact changes and the last error a drain met
                                                 there, and the moves under way
  shards add <n>                                 shard n (a SHARD_<n> binding, migrated) takes new containers
  shards accept <n> on|off                       new containers go to shard n, or stop going there
  shards move <container> <n>                    queues a container-move job: the container's community rows go to
                                                 shard n (writes go on, refused for the seconds of the
                                                 switch; reads go on)
  shards reseat-ids                              after a shard database is restored (Time Travel, a backup): each
                                                 id range's counter raised past the highest id of that range on any
                                                 shard, so no id is issued twice (db:restore does it itself)
  search index-titles                            every title's index form for v4 search, for titles written before
                                                 migration 0041: their Chinese, Japanese and Korean words become
                                                 findable; safe to run again (writes only what differs)
  search index-subtitles [<container>]           queues a subtitle-search-index job on every shard (or on the
                                                 container's): the subtitle search index built again from the
                                                 lines (after migrations-shard 0005, a restore, or to repair it)
  subtitles check [<container>] [--all]         queues a subtitle-checks job on every shard (or on the
                                                 container's): the quality checks of cues written before
                                                 migrations-shard 0006 stored, so checks_passing counts them;
                                                 --all checks every track again (glossary findings included)

  --remote            the deployed D1 (default: the local one that npm start and npm run dev use)
  --env <name>        the wrangler environment whose D1 binding to use
  --persist-to <dir>  another local state directory (as wrangler dev --persist-to)
  --json              print the result as JSON`;

function parse(argv) {
  const positional = [];
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    const [key, inline] = a.slice(2).split(/=(.*)/s, 2);
    if (VALUE_OPTIONS.has(key)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value === "") throw new UsageError(`--${key} needs a value`);
      options[key] = value;
    } else if (inline !== undefined) {
      throw new UsageError(`--${key} takes no value`);
    } else {
      options[key] = true;
    }
  }
  return { positional, options };
}

function readPassword() {
  // One trailing newline is what `echo` and here-strings add; anything else is part of the password.
  return readFileSync(0, "utf8").replace(/\r?\n$/, "");
}

async function main(argv) {
  if (!argv.length || argv.includes("--help") || argv.includes("-h")) {
    console.log(USAGE);
    return 0;
  }
  const { positional, options } = parse(argv);
  // Two words (`jobs list`) when the first names a group of commands; one (`app:list`) otherwise.
  const words = Object.keys(COMMANDS).some((c) => c.startsWith(`${positional[0]} `)) ? 2 : 1;
  const name = positional.slice(0, words).join(" ");
  const args = positional.slice(words);
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command ${JSON.stringify(name ?? "")}`);
  const unknown = Object.keys(options).filter((k) => !command.flags.includes(k) && !TARGET_FLAGS.includes(k));
  if (unknown.length) throw new UsageError(`${name} does not take --${unknown.join(", --")}`);
  // An argument named `x?` may be left out.
  const required = command.args.filter((a) => !a.endsWith("?")).length;
  if (args.length < required || args.length > command.args.length)
    throw new UsageError(
      `${name} takes ${command.args.map((a) => (a.endsWith("?") ? `[<${a.slice(0, -1)}>]` : `<${a}>`)).join(" ") || "no arguments"}`,
    );

  const target = { remote: Boolean(options.remote), env: options.env, persistTo: options["persist-to"] };
  // The top level of wrangler.toml is local development: a remote command without an environment would reach its
  // placeholder database, or none.
  if (target.remote && !target.env) throw new UsageError("--remote needs --env staging or --env production");
  const flags = {
    official: Boolean(options.official),
    unhosted: Boolean(options.unhosted),
    name: options.name,
    emailVerified: Boolean(options["email-verified"]),
    password: options["password-stdin"] ? readPassword() : undefined,
    overlap: options.overlap,
    status: options.status,
    type: options.type,
    since: options.since,
    limit: options.limit,
    all: Boolean(options.all),
  };
  await checkEnvironment(target.env);
  // stderr, so that --json output stays parseable and a remote write is never a surprise.
  console.error(`admin: ${name} on the ${describeTarget(target)}`);
  const result = await command.run(target, args, flags);
  if (options.json) console.log(JSON.stringify(result, null, 2));
  else command.print(result);
  return 0;
}

function printSecret({ application: a, secret }) {
  console.log(`application ${a.id} "${a.name}"${a.official ? ", official" : ""}${a.unhosted_access ? ", unhosted access" : ""}`);
  console.log(`secret: ${secret}`);
  console.log("The secret is shown only this once: store it now. A lost secret can only be replaced (app:rotate-secret).");
  if (a.overlap_until) {
    console.log(`The previous secret keeps signing until ${a.overlap_until}; app:end-overlap ${a.id} stops it now.`);
  }
}

function printOverlapEnded({ application: a, ended }) {
  console.log(`application ${a.id}: ${ended ? "the previous secret no longer signs" : "no previous secret was signing"}`);
}

function printApplications({ applications }) {
  if (!applications.length) return console.log("no applications");
  const rows = applications.map((a) => [
    a.id,
    a.official ? "yes" : "no",
    a.unhosted_access ? "yes" : "no",
    a.created_at,
    a.overlap_until ?? "-",
    a.name,
  ]);
  const table = [["id", "official", "unhosted", "created", "old key until", "name"], ...rows];
  const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
  for (const r of table) console.log(r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join("  "));
}

function printUser({ user, password }) {
  console.log(`staff user ${user.id} ${user.username} <${user.email}>${user.email_verified ? " (email verified)" : ""}`);
  if (password !== undefined) {
    console.log(`password: ${password}`);
    console.log("The password is shown only this once: hand it over now.");
  }
}

function printManager({ manager: m, added }) {
  console.log(`${m.username} (${m.user}) ${added ? "now manages" : "already managed"} container ${m.container}`);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  if (err instanceof UsageError) {
    console.error(`admin: ${err.message} (npm run admin -- --help)`);
    process.exitCode = 2;
  } else if (err instanceof NotFound || err instanceof Conflict || err instanceof D1Error) {
    console.error(`admin: ${err.message}`);
    process.exitCode = 1;
  } else {
    throw err;
  }
}
