/**
 * TTML styling as far as stored text carries it (italic, bold, underline, line-through, colour): the `tts:`
 * attributes, `<style>` elements referenced by `style` (chains resolved) and regions with their nested styles, as
 * TTML1's style resolution combines them (§8.4): referenced styles, then nested ones, then the element's own attributes.
 */
import { hexColor } from "../markup";
import type { NsKind, XmlAttr, XmlElement } from "./xml";

const TIMING: readonly NsKind[] = ["none", "core"];

/** An attribute's value; by default unprefixed or in the TT namespace itself (`tt:style`, as some writers put it). */
export function attr(el: XmlElement, local: string, kinds: readonly NsKind[] = TIMING): string | undefined {
  for (const a of el.attrs) if (a.local === local && kinds.includes(a.kind)) return a.value;
  return undefined;
}

/** `xml:space` of an element: true for preserve, false for default, undefined when inherited. */
export function preserves(el: XmlElement): boolean | undefined {
  const v = attr(el, "space", ["xml"])?.trim();
  return v === "preserve" ? true : v === "default" ? false : undefined;
}

/** What stored text can carry of a computed TTML style. `font` is a colour other than white, every player's default. */
export interface Style {
  font: string | null;
  b: boolean;
  i: boolean;
  u: boolean;
  s: boolean;
}

/** Specified styles: a property absent is inherited. Underline and line-through are separate, as TTML1's `noUnderline` implies. */
export type Spec = Partial<Style>;

export const PLAIN: Style = { font: null, b: false, i: false, u: false, s: false };
export const NO_SPEC: Spec = {};

/** `b` over `a`, property by property (built field by field: spreading in a per-cue path cost a second per 100,000 cues). */
export function over(a: Spec, b: Spec): Spec {
  if (b === NO_SPEC) return a;
  if (a === NO_SPEC) return b;
  return { font: b.font !== undefined ? b.font : a.font, b: b.b ?? a.b, i: b.i ?? a.i, u: b.u ?? a.u, s: b.s ?? a.s };
}

/** A computed style with the properties `spec` specifies replaced. */
export function apply(style: Style, spec: Spec): Style {
  if (spec === NO_SPEC) return style;
  return {
    font: spec.font !== undefined ? spec.font : style.font,
    b: spec.b ?? style.b,
    i: spec.i ?? style.i,
    u: spec.u ?? style.u,
    s: spec.s ?? style.s,
  };
}

/**
 * A `tts:color` as six hex digits, null for white, undefined when it is no colour or an invisible one
 * (`transparent`, alpha 0). Accepts `#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb(…)`, `rgba(…)` and the named colours.
 */
function ttmlColor(value: string): string | null | undefined {
  const v = value.trim().toLowerCase();
  if (v.length > 64 || v === "transparent") return undefined;
  let hex: string | null = null;
  const long = /^#([0-9a-f]{6})([0-9a-f]{2})$/.exec(v);
  const fn = /^rgba?\(([\d\s,.]+)\)$/.exec(v);
  if (long) hex = long[2] === "00" ? null : long[1];
  else if (fn) {
    const parts = fn[1].split(",").map((p) => Number(p.trim()));
    if ((parts.length === 3 || parts.length === 4) && parts.every((p) => Number.isFinite(p)) && parts[3] !== 0)
      hex = parts
        .slice(0, 3)
        .map((p) => Math.min(255, Math.round(p)).toString(16).padStart(2, "0"))
        .join("");
  } else hex = hexColor(v);
  if (hex === null) return undefined;
  return hex === "ffffff" ? null : hex;
}

/** The `tts:` attributes of an element that stored text can carry, as a Spec; the others (sizes, positions) dropped. */
function specFromAttrs(attrs: readonly XmlAttr[]): Spec {
  let spec = NO_SPEC;
  for (const a of attrs) {
    if (a.kind !== "styling") continue;
    const v = a.value.trim();
    if (spec === NO_SPEC) spec = {};
    if (a.local === "fontStyle") {
      if (v === "italic" || v === "oblique") spec.i = true;
      else if (v === "normal") spec.i = false;
    } else if (a.local === "fontWeight") {
      if (v === "bold") spec.b = true;
      else if (v === "normal") spec.b = false;
    } else if (a.local === "textDecoration") {
      for (const word of v.slice(0, 200).split(/[ \t\r\n]+/)) {
        if (word === "none") spec.u = spec.s = false;
        else if (word === "underline" || word === "noUnderline") spec.u = word === "underline";
        else if (word === "lineThrough" || word === "noLineThrough") spec.s = word === "lineThrough";
      }
    } else if (a.local === "color") {
      const color = ttmlColor(v);
      if (color !== undefined) spec.font = color;
    }
  }
  return spec;
}

/**
 * Styles by `xml:id` (or `id`, as early DFXP writers used), chains resolved once each and only when content uses
 * them (after `<head>`); regions with their nested styles.
 */
export function styleSheet() {
  const byId = new Map<string, XmlElement>();
  const regions = new Map<string, { el: XmlElement; nested: XmlElement[] }>();
  const regionOf = new Map<XmlElement, { el: XmlElement; nested: XmlElement[] }>();
  const memo = new Map<string, Spec>();
  const referenced = (el: XmlElement, depth: number): Spec => {
    let spec = NO_SPEC;
    const refs = attr(el, "style");
    if (refs) for (const id of refs.split(/[ \t\r\n]+/)) if (id) spec = over(spec, resolve(id, depth));
    return spec;
  };
  const resolve = (id: string, depth: number): Spec => {
    const known = memo.get(id);
    const el = byId.get(id);
    if (known || !el || depth > 16) return known ?? NO_SPEC;
    memo.set(id, NO_SPEC); // a reference cycle reads as no style
    const spec = over(referenced(el, depth + 1), specFromAttrs(el.attrs));
    memo.set(id, spec);
    return spec;
  };
  const specOf = (el: XmlElement): Spec => over(referenced(el, 0), specFromAttrs(el.attrs));
  const regionMemo = new Map<string, Spec>();
  return {
    specOf,
    /** A `<style>` or `<region>` as it opens; a style inside a region is one of the region's own. */
    define(el: XmlElement, parent: XmlElement | undefined) {
      const id = attr(el, "id", ["xml", "none"])?.trim();
      if (el.local === "region") {
        const r = { el, nested: [] };
        regionOf.set(el, r);
        if (id && !regions.has(id)) regions.set(id, r);
      } else if (parent?.local === "region") regionOf.get(parent)?.nested.push(el);
      else if (id && !byId.has(id)) byId.set(id, el);
    },
    region(id: string | undefined): Spec {
      const r = id === undefined ? undefined : regions.get(id);
      if (!r) return NO_SPEC;
      let spec = regionMemo.get(id!);
      if (spec) return spec;
      spec = referenced(r.el, 0);
      for (const nested of r.nested) spec = over(spec, specOf(nested));
      spec = over(spec, specFromAttrs(r.el.attrs));
      regionMemo.set(id!, spec);
      return spec;
    },
  };
}
