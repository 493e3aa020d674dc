/**
 * The methods a path is served with, from the app's own route table, so that a method a path does not serve is
 * answered 405 with `Allow` (RFC 9110) instead of 404. Compiled once per isolate.
 */
type RouteEntry = { method: string; path: string };

const toRegExp = (path: string) =>
  new RegExp(
    `^${path
      .split("/")
      .map((segment) => {
        const param = /^:[^{]+(?:\{(.+)\})?$/.exec(segment);
        if (param) return param[1] ? `(?:${param[1]})` : "[^/]+";
        return segment === "*" ? ".*" : segment.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
      })
      .join("/")}$`,
  );

let compiled: Array<{ method: string; re: RegExp }> | undefined;

export function allowedMethods(routes: RouteEntry[], routingPath: string): string[] {
  compiled ??= routes.filter((r) => r.method !== "ALL").map((r) => ({ method: r.method.toUpperCase(), re: toRegExp(r.path) }));
  const methods = new Set(compiled.filter((r) => r.re.test(routingPath)).map((r) => r.method));
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}
