// ESLint (flat config): typescript-eslint's recommended rules plus the layer boundaries of docs/development.md.
// Formatting is Prettier's job (.prettierrc.json); nothing here restates it.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** `no-restricted-imports` patterns naming a layer, whatever the relative depth of the import. */
const layer = (name, message) => ({ group: [`**/${name}`, `**/${name}/**`, `./${name}/**`, `../${name}/**`], message });

const QUEUES = layer("queues", "Only the Worker entry (src/index.ts) imports queues/; job definitions live in src/jobs.");

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
  // Boundaries: each layer imports only what sits below it.
  {
    files: ["src/**/*.ts"],
    ignores: ["src/index.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [QUEUES] }] },
  },
  {
    files: ["src/routes/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [QUEUES, layer("db/queries", "Routes call services; SQL lives in src/db/queries behind them.")] },
      ],
    },
  },
  {
    files: ["src/services/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            QUEUES,
            {
              regex: "(^|/)routes/(?!v\\d+/contracts/)",
              message: "Services never import routes (the input contracts in routes/*/contracts are the exception).",
            },
            {
              group: ["../jobs", "../jobs/**", "../../jobs", "../../jobs/**"],
              message: "Job definitions import services, never the reverse (src/jobs starts jobs).",
            },
            layer("views", "Wire shapes are rendered by routes; services return domain rows (types live with the schema)."),
          ],
        },
      ],
    },
  },
  {
    // Views render what services and queries return (they may import their types), never read or route.
    files: ["src/views/**/*.ts"],
    rules: {
      "no-restricted-imports": "off",
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            QUEUES,
            layer("routes", "Views never import routes."),
            { ...layer("db/queries", "Views render rows; they do not read them."), allowTypeImports: true },
          ],
        },
      ],
    },
  },
  {
    files: ["src/db/**/*.ts", "src/domain/**/*.ts", "src/lib/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            QUEUES,
            layer("routes", "Lower layers never import routes."),
            layer("services", "Lower layers never import services."),
          ],
        },
      ],
    },
  },
);
