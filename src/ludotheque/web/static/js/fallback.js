// The generic renderer: any game without its own (games/<id>/web/renderer.js) is playable with it.  It shows the
// view as nested tables and the legal moves as buttons, labelled by their notation.

export function render(root, ctx) {
  const {h, t} = ctx;
  root.append(
    h("div", {class: "fallback-view"}, value(h, ctx.view.table)),
    ctx.legal.length
      ? h("div", {class: "moves", role: "group", "aria-label": t("table.your_moves")},
        ctx.legal.map((entry) => h("button", {class: "move", "data-notation": entry.notation, disabled: ctx.pending,
          onclick: () => ctx.play(entry)}, entry.notation)))
      : null);
}

export function describe(event) {
  const {seq, type, ...rest} = event;
  const details = Object.entries(rest).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ");
  return details ? `${type} (${details})` : type;
}

function value(h, data) {
  if (Array.isArray(data)) {
    if (data.every((item) => item === null || typeof item !== "object")) return data.map(String).join(" ");
    return h("ol", {}, data.map((item) => h("li", {}, value(h, item))));
  }
  if (data && typeof data === "object") {
    return h("table", {}, h("tbody", {}, Object.entries(data).map(([key, item]) =>
      h("tr", {}, h("th", {}, key), h("td", {}, value(h, item))))));
  }
  return data === null ? "–" : String(data);
}
