// Text in SVG boards. SVG neither measures nor wraps text before it is drawn, so widths
// are estimated from the characters: CJK glyphs are about one em wide, Latin ones a little
// over half. Lines are cut at spaces where the language has them, else between characters.

export function charWidth(ch) {
  const code = ch.codePointAt(0);
  if (code >= 0x2e80) return 1;
  if ("mwMW".includes(ch)) return 0.8;
  if ("il.,;:'!|".includes(ch)) return 0.3;
  return 0.56;
}

// The estimated width of `text` at font size `size` (in ems when no size is given).
export const textWidth = (text, size = 1) => [...String(text)].reduce((a, c) => a + charWidth(c), 0) * size;

// `text` cut into lines no wider than `width` at font size `size`; past `maxLines` the
// last kept line ends with an ellipsis.
export function wrap(text, width, size, maxLines = 99) {
  const limit = width / size;
  const lines = [];
  let line = "";
  let w = 0;
  const tokens = /\s/.test(text) ? text.split(/(\s+)/) : [...text];
  for (const token of tokens) {
    const tw = textWidth(token);
    if (w + tw > limit && line.trim()) {
      lines.push(line.trim());
      line = /^\s+$/.test(token) ? "" : token;
      w = /^\s+$/.test(token) ? 0 : tw;
    } else {
      line += token;
      w += tw;
    }
  }
  if (line.trim()) lines.push(line.trim());
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${kept[maxLines - 1].replace(/.$/, "")}…`;
    return kept;
  }
  return lines;
}

// `text` fitted to `width`: on one line at `size`, or smaller down to `min`; past that, on
// up to `maxLines` lines (at the largest size from `size` down to `min` where they fit).
// Returns { size, lines }. What still does not fit at `min` is cut with an ellipsis.
export function fit(text, width, size, { min = size * 0.75, maxLines = 1 } = {}) {
  text = String(text);
  const one = textWidth(text);
  if (one * size <= width) return { size, lines: [text] };
  if (one * min <= width) return { size: Math.floor((width / one) * 10) / 10, lines: [text] };
  for (let s = size; maxLines > 1 && s >= min; s -= 0.5) {
    const lines = wrap(text, width, s, maxLines);
    if (lines.every((l) => textWidth(l, s) <= width) && !lines[lines.length - 1].endsWith("…")) return { size: s, lines };
  }
  const lines = wrap(text, width, min, maxLines);
  const last = lines.length - 1;
  while (textWidth(lines[last], min) > width && lines[last].length > 1) lines[last] = `${[...lines[last]].slice(0, -2).join("")}…`;
  return { size: min, lines };
}
