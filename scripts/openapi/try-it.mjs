// What "Try it out" in /docs sends for an operation of /openapi.json, computed from the document as Swagger UI
// computes it (swagger-ui-dist's parameter row, OpenAPI 3.x): a parameter's first `examples` value, else its
// `example`, else its schema's `example` (the first `oneOf`/`anyOf` branch merged in), else the schema's `default`.
// Used by scripts/test-docs.mjs to call every public read with exactly those values.

const METHODS = ["get", "put", "post", "delete", "patch"];

/** `#/components/...` references followed to what they name. */
export function resolver(doc) {
  const resolve = (node) => {
    if (!node?.$ref) return node;
    const target = node.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce((o, key) => o?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
    return resolve(target);
  };
  return resolve;
}

/** The value Swagger UI fills in for a parameter, or undefined when it leaves the field empty. */
export function prefilled(param, resolve) {
  const examples = param.examples && Object.values(param.examples).map(resolve);
  if (examples?.length && examples[0].value !== undefined) return examples[0].value;
  if (param.example !== undefined) return param.example;
  const schema = resolve(param.schema) ?? {};
  const branch = resolve(schema.oneOf?.[0] ?? schema.anyOf?.[0]) ?? {};
  for (const s of [schema, branch]) if (s.example !== undefined) return s.example;
  for (const s of [schema, branch]) if (s.default !== undefined) return s.default;
  return param.default;
}

/** Every operation as { method, path, op, params }, its parameters resolved (path-level ones included). */
export function operationsOf(doc) {
  const resolve = resolver(doc);
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => {
      const op = item[method];
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(resolve);
      return { method, path, op, params };
    }),
  );
}

/**
 * Whether one of the operation's security alternatives is met by what the page sends on its own: nothing, or only
 * query parameters that "Try it out" fills in (`app=`, whose parameter carries an example where a route needs it).
 */
export function callableAsIs({ op, params }, resolve) {
  const filled = new Set(params.filter((p) => p.in === "query" && prefilled(p, resolve) !== undefined).map((p) => p.name));
  const security = op.security?.length ? op.security : [{}];
  return security.some((requirement) => Object.keys(requirement).every((scheme) => filled.has(scheme)));
}

/**
 * The request "Try it out" makes with the pre-filled values: `{ url, missing }`, `missing` naming the required
 * parameters it leaves empty (Swagger UI refuses to send those).
 */
export function prefilledRequest(base, { path, params }, resolve) {
  const missing = [];
  const query = new URLSearchParams();
  let target = path;
  for (const param of params) {
    const value = prefilled(param, resolve);
    if (value === undefined || value === "") {
      if (param.required) missing.push(`${param.in}:${param.name}`);
      continue;
    }
    const text = typeof value === "string" ? value : JSON.stringify(value);
    if (param.in === "path") target = target.replace(`{${param.name}}`, encodeURIComponent(text));
    else if (param.in === "query") query.append(param.name, text);
    else if (param.required) missing.push(`${param.in}:${param.name}`);
  }
  const search = query.toString();
  return { url: `${base}${target}${search ? `?${search}` : ""}`, missing };
}

/** A 200 with data: a non-empty `response` when the body has one, else a non-empty object or array. */
export function nonEmpty(body) {
  const value = body && typeof body === "object" && "response" in body ? body.response : body;
  if (Array.isArray(value)) return value.length > 0;
  return value !== null && typeof value === "object" && Object.keys(value).length > 0;
}
