import { XMLBuilder } from "fast-xml-parser";

const builder = new XMLBuilder({ ignoreAttributes: true, format: false, suppressEmptyNode: false });

/** Drops nulls (XML has no null) and keeps everything else; arrays become repeated elements of their key. */
function clean(value: unknown): unknown {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(clean);
  if (typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [xmlName(k), clean(v)]));
  }
  return typeof value === "string" ? xmlText(value) : value;
}

/**
 * Characters XML 1.0 forbids (C0 controls but tab, LF and CR; lone surrogates; U+FFFE/U+FFFF) are dropped: staff
 * and managers can store such text, and one of them made the whole document unreadable.
 */
const NOT_XML_CHAR =
  // eslint-disable-next-line no-control-regex -- matching the forbidden control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export const xmlText = (s: string) => s.replace(NOT_XML_CHAR, "");

/** Map keys such as language codes ("pt-br") are fine; keys starting with a digit are not valid XML names. */
const xmlName = (key: string) => (/^[A-Za-z_]/.test(key) ? key : `_${key}`);

/** The v3 `.xml` form: the same data, root element `<response>`. */
export function toXml(data: unknown): string {
  return `<?xml version="1.0" encoding="UTF-8"?>${builder.build({ response: clean(data) })}`;
}
