// A tiny DOM builder: h("button", {class: "card", onclick: f}, "R7") -> <button class="card">R7</button>.
// Attributes starting with "on" are event listeners; `class` may be a list (falsy items are dropped);
// children may be strings, numbers, nodes, arrays or null.

export function h(tag, attrs = {}, ...children) {
  const element = tag === "svg" || tag.startsWith("svg:")
    ? document.createElementNS("http://www.w3.org/2000/svg", tag.replace("svg:", ""))
    : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "class") {
      element.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    } else if (key === "style" && typeof value === "object") {
      Object.assign(element.style, value);
    } else {
      element.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : String(child));
  }
}

export function clear(element) {
  while (element.firstChild) element.removeChild(element.firstChild);
  return element;
}
