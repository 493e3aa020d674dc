// ESLint (flat config): typescript-eslint's recommended rules plus the layer boundaries of docs/development.md.
// Formatting is Prettier's job (.prettierrc.json); nothing here restates it.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * A pattern naming a folder of src (or a file at its top), however many `../` the import climbs to reach it. Anchored
 * on the climb, so `db/queries/jobs` is not the `jobs` layer; a subfolder of the same name as a layer
 * (`services/identity/../jobs`) would be misread, and none exists.
 */
const layer = (name, message) => ({ regex: `^(\\.\\./)+(${name})(/|$)`, message });

const QUEUES = layer("queues", "Only the Worker entry (src/index.ts) imports queues/; job definitions live in src/jobs.");
const ENTRY = layer("app|openapi", "The app and its OpenAPI document assemble everything; nothing in a layer imports them.");
const DURABLE = layer(
  "durable",
  "Only the Worker entry (src/index.ts) exports the Durable Objects; the rest reach them through their bindings.",
);

/**
 * The queue consumer (queues/) sits beside the Worker entry, over the layers it runs: the jobs and what they stand on
 * (db, lib, services, webhooks; `src/types.ts` too). Never a route, a middleware, a view, the app or the entry itself.
 */
const QUEUE_CONSUMER = {
  regex: "^(\\.\\./)+src(/(?!(jobs|db|lib|services|webhooks)(/|$)|types$).*)?$",
  message: 'queues/ runs jobs: it imports src/jobs, src/db, src/lib, src/services and src/webhooks only (docs/development.md, "Layers").',
};

/**
 * The layers of src, lowest first (docs/development.md, "Layers"). A folder imports only from the rows before its own:
 * never from a row after it, nor from a folder beside it in its row. `src/types.ts` (bindings and request variables,
 * types only) is open to every layer; `src/app.ts`, `src/openapi.ts` and `src/index.ts` sit above them all.
 */
const LAYERS = [["lib"], ["domain"], ["db"], ["webhooks"], ["services"], ["jobs", "middleware", "views", "durable"], ["routes"]];

/** The layers a folder may not import: the others of its row and every row after it, less those it names in EXTRA. */
const aboveOrBeside = (folder, except = []) => {
  const row = LAYERS.findIndex((r) => r.includes(folder));
  return LAYERS.slice(row)
    .flat()
    .filter((other) => other !== folder && !except.includes(other))
    .map((other) =>
      layer(other, `src/${other} sits above or beside src/${folder} (docs/development.md, "Layers"): move what both need below both.`),
    );
};

/** What a folder adds to the order: a layer above it it may read types from (`except`), and rules of its own. */
const EXTRA = {
  services: {
    // The write contracts are zod shapes; the service takes their inferred types as its input types.
    except: ["routes"],
    patterns: [
      { regex: "^(\\.\\./)+routes/(?!v\\d+/contracts/)", message: "Services never import routes." },
      {
        regex: "^(\\.\\./)+routes/v\\d+/contracts/",
        allowTypeImports: true,
        message: "Services take the types of routes/*/contracts, never their values.",
      },
    ],
  },
  views: {
    patterns: [
      {
        ...layer("services|db/queries|db/client", "Views render what services and queries return: their types, never a call."),
        allowTypeImports: true,
      },
    ],
  },
  routes: { patterns: [layer("db/queries", "Routes call services; SQL lives in src/db/queries behind them.")] },
  jobs: {
    patterns: [
      { regex: "^\\.(/index)?$", message: "The registry (src/jobs/index.ts) imports every job: importing it from a job is a cycle." },
    ],
  },
};

const patternsOf = (folder) => [
  QUEUES,
  ENTRY,
  DURABLE,
  ...aboveOrBeside(folder, EXTRA[folder]?.except),
  ...(EXTRA[folder]?.patterns ?? []),
];

const restrict = (files, patterns) => ({
  files,
  rules: { "no-restricted-imports": "off", "@typescript-eslint/no-restricted-imports": ["error", { patterns }] },
});

export default tseslint.config(
  { ignores: ["node_modules/", ".wrangler/", ".e2e/", ".bench/", "worker-configuration.d.ts", "coverage/", "public/", "**/*.d.mts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
    },
  },
  // Tests read JSON bodies of many shapes; `any` there is a reading convenience, not a type hole in the product.
  { files: ["test/**/*.ts"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  {
    files: ["scripts/**/*.mjs", "scripts/**/*.js", "eslint.config.js"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        fetch: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        Buffer: "readonly",
        URLSearchParams: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        crypto: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        performance: "readonly",
        structuredClone: "readonly",
      },
    },
  },
  // Boundaries: each layer imports only what sits below it (LAYERS above; docs/development.md, "Layers").
  restrict(["src/*.ts"], [QUEUES, { regex: "^\\./durable(/|$)", message: DURABLE.message }]),
  { files: ["src/index.ts"], rules: { "no-restricted-imports": "off", "@typescript-eslint/no-restricted-imports": "off" } },
  ...LAYERS.flat().map((folder) => restrict([`src/${folder}/**/*.ts`], patternsOf(folder))),
  // The queue consumer: imports go one way, from queues/ down into src (src imports it only from src/index.ts: QUEUES).
  restrict(["queues/**/*.ts"], [QUEUE_CONSUMER]),
  // Inside db the schema is the bottom: the client and the queries build on it.
  restrict(
    ["src/db/schema/**/*.ts"],
    [...patternsOf("db"), { regex: "^\\.\\./(client|rider|raw-batch|queries)(/|$)", message: "The schema imports no other part of db." }],
  ),
  // enqueue and the sweeper share their deadlines through src/jobs/deadlines.ts; an import between them is a cycle.
  restrict(["src/jobs/enqueue.ts"], [...patternsOf("jobs"), { regex: "^\\./sweeper$", message: "Deadlines live in ./deadlines." }]),
  restrict(["src/jobs/sweeper.ts"], [...patternsOf("jobs"), { regex: "^\\./enqueue$", message: "JobDeps lives in ./types." }]),
);
