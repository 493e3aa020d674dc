import { XMLBuilder } from "fast-xml-parser";

const builder = new XMLBuilder({ ignoreAttributes: true, format: false, suppressEmptyNode: false });

/** Drops nulls (XML has no null) and keeps everything else; arrays become repeated elements of their key. */
function clean(value: unknown): unknown {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(clean);
  if (typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [xmlName(k), clean(v)]));
  }
  return value;
}

/** Map keys such as language codes ("pt-br") are fine; keys starting with a digit are not valid XML names. */
const xmlName = (key: string) => (/^[A-Za-z_]/.test(key) ? key : `_${key}`);

/** The v3 `.xml` form: the same data, root element `<response>`. */
export function toXml(data: unknown): string {
  return `<?xml version="1.0" encoding="UTF-8"?>${builder.build({ response: clean(data) })}`;
}
