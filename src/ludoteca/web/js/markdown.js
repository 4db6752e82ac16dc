// A small Markdown reader for the rules pages: headings, paragraphs, lists, block
// quotes, code, tables, emphasis and links. It builds DOM nodes (never innerHTML), so
// whatever a rules file contains is shown as text, not run.
import { h } from "./dom.js";

export function renderMarkdown(source) {
  const root = h("div", { class: "markdown" });
  const lines = String(source).replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i++;
    } else if (/^```/.test(line)) {
      const body = [];
      for (i++; i < lines.length && !/^```/.test(lines[i]); i++) body.push(lines[i]);
      i++;
      root.append(h("pre", {}, h("code", {}, body.join("\n"))));
    } else if (/^#{1,6}\s/.test(line)) {
      const level = line.match(/^#+/)[0].length;
      const text = line.replace(/^#+\s*/, "").replace(/\s*#+\s*$/, "");
      root.append(h(`h${Math.min(level + 1, 6)}`, { id: slug(text) }, inline(text)));
      i++;
    } else if (/^\s*([-*+]|\d+[.)])\s/.test(line)) {
      i = list(lines, i, root);
    } else if (/^>\s?/.test(line)) {
      const body = [];
      for (; i < lines.length && /^>\s?/.test(lines[i]); i++) body.push(lines[i].replace(/^>\s?/, ""));
      root.append(h("blockquote", {}, renderMarkdown(body.join("\n"))));
    } else if (/^\s*\|/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1])) {
      i = table(lines, i, root);
    } else if (/^(-{3,}|\*{3,})\s*$/.test(line)) {
      root.append(h("hr"));
      i++;
    } else {
      const body = [];
      for (; i < lines.length && lines[i].trim() && !/^(#{1,6}\s|```|>|\s*([-*+]|\d+[.)])\s)/.test(lines[i]); i++) {
        body.push(lines[i].trim());
      }
      root.append(h("p", {}, inline(body.join(" "))));
    }
  }
  return root;
}

function list(lines, i, parent) {
  const ordered = /^\s*\d+[.)]\s/.test(lines[i]);
  const el = h(ordered ? "ol" : "ul");
  const indent = lines[i].match(/^\s*/)[0].length;
  while (i < lines.length) {
    const line = lines[i];
    const depth = line.match(/^\s*/)[0].length;
    if (!line.trim()) {
      i++;
      if (i < lines.length && !/^\s*([-*+]|\d+[.)])\s/.test(lines[i])) break;
      continue;
    }
    if (depth > indent && /^\s*([-*+]|\d+[.)])\s/.test(line)) {
      i = list(lines, i, el.lastElementChild || el);
      continue;
    }
    if (depth < indent || !/^\s*([-*+]|\d+[.)])\s/.test(line)) {
      if (depth > indent && el.lastElementChild) {
        el.lastElementChild.append(" ", ...inline(line.trim())); // a continuation line
        i++;
        continue;
      }
      break;
    }
    el.append(h("li", {}, inline(line.replace(/^\s*([-*+]|\d+[.)])\s+/, ""))));
    i++;
  }
  parent.append(el);
  return i;
}

function cells(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

function table(lines, i, parent) {
  const head = cells(lines[i]);
  const body = h("tbody");
  for (i += 2; i < lines.length && /^\s*\|/.test(lines[i]); i++) {
    body.append(h("tr", {}, cells(lines[i]).map((c) => h("td", {}, inline(c)))));
  }
  parent.append(h("div", { class: "table-scroll" },
    h("table", {}, h("thead", {}, h("tr", {}, head.map((c) => h("th", {}, inline(c))))), body)));
  return i;
}

function slug(text) {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "");
}

// Inline spans: `code`, **strong**, *em* / _em_, ![picture](/path.svg), [text](url).
export function inline(text) {
  const out = [];
  const pattern = /`([^`]+)`|\*\*(.+?)\*\*|\*(.+?)\*|\b_(.+?)_\b|!\[([^\]]*)\]\(([^)\s]+)\)|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[5] !== undefined) {
      // Pictures come from this server only (the rules pages' own small SVG files).
      if (/^\/[^/]/.test(m[6])) out.push(h("img", { src: m[6], alt: m[5], class: "rules-picture", loading: "lazy" }));
      last = m.index + m[0].length;
      continue;
    }
    if (m[1] !== undefined) out.push(h("code", {}, m[1]));
    else if (m[2] !== undefined) out.push(h("strong", {}, inline(m[2])));
    else if (m[3] !== undefined || m[4] !== undefined) out.push(h("em", {}, inline(m[3] ?? m[4])));
    else out.push(link(m[7], m[8]));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function link(text, url) {
  // Only ordinary web links and in-page anchors: a rules file cannot smuggle a script URL.
  const safe = /^(https?:|#|\/)/i.test(url) ? url : "#";
  const external = /^https?:/i.test(safe);
  return h("a", { href: safe, rel: external ? "noopener noreferrer" : undefined, target: external ? "_blank" : undefined }, inline(text));
}
