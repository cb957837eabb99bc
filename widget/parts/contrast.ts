/**
 * Colour arithmetic of WCAG 2 (relative luminance, contrast ratio) for text on the accent
 * (black or white, whichever contrasts more) and the accent as text. The browser
 * resolves the colour (any CSS syntax, `--be-accent` included) into `rgb(...)`, read here.
 */

/** "rgb(245, 194, 17)" / "rgba(...)" / "#f5c211" -> [r, g, b] 0..255, or undefined. */
export function parseColor(value: string): [number, number, number] | undefined {
  const hex = value.trim().match(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
  }
  const rgb = value.match(/rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)/i);
  return rgb ? [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])] : undefined;
}

export function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** Black or white text on an accent, whichever contrasts more; `light`: the accent fails WCAG AA (4.5:1) as text on white. */
export function textOnAccent(rgb: [number, number, number]): { on: "#000" | "#fff"; light: boolean } {
  const l = luminance(rgb);
  return { on: contrast(l, 0) > contrast(l, 1) ? "#000" : "#fff", light: contrast(l, 1) < 4.5 };
}

export const toHex = (rgb: [number, number, number]) =>
  `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

/** Any colour the browser resolved, as #rrggbb (undefined when it cannot be read). */
export function hexOf(color: string): string | undefined {
  const rgb = parseColor(color);
  return rgb && toHex(rgb);
}
