// Tiny DOM helpers: the client builds its pages from code, so one small element
// factory keeps that code readable without a framework.

// The page's Content-Security-Policy lets in only <style> elements with its nonce
// (the server puts a fresh one in this meta tag): the ones the boards make get it here.
const NONCE = document.querySelector('meta[name="csp-nonce"]')?.content || "";

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  if (tag === "style" && NONCE) el.nonce = NONCE;
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2).toLowerCase(), value);
    } else if (name === "class") {
      el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    } else if (name === "dataset") {
      Object.assign(el.dataset, value);
    } else if (name === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (name in el && !(el instanceof SVGElement) && typeof value !== "string") {
      el[name] = value; // properties such as checked, disabled, value
    } else {
      el.setAttribute(name, value === true ? "" : String(value));
    }
  }
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

// Activating an SVG shape with the keyboard needs the same handler as a click.
export function clickable(el, handler, label) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  if (label) el.setAttribute("aria-label", label);
  el.addEventListener("click", handler);
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      handler(e);
    }
  });
  return el;
}
