// Just enough Markdown for the rules help: headings, paragraphs, lists, tables, **bold**, *italic*, `code`.
// Text is escaped first: the help is the project's own text, but nothing reaches the page as raw HTML.

function escape(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function inline(text) {
  return escape(text)
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/\*(.+?)\*/g, "<em>$1</em>")
    .replace(/`(.+?)`/g, "<code>$1</code>");
}

export function markdown(source) {
  const out = [];
  let list = null;
  let table = null;
  let paragraph = [];
  const flush = () => {
    if (paragraph.length) out.push(`<p>${inline(paragraph.join(" "))}</p>`);
    paragraph = [];
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(i)}</li>`).join("")}</${list.tag}>`);
    list = null;
    if (table) {
      const [head, ...rows] = table;
      const cells = (row, tag) => row.map((c) => `<${tag}>${inline(c)}</${tag}>`).join("");
      out.push(`<table><thead><tr>${cells(head, "th")}</tr></thead><tbody>${rows.map((r) => `<tr>${cells(r, "td")}</tr>`).join("")}</tbody></table>`);
    }
    table = null;
  };
  for (const raw of source.split("\n")) {
    const line = raw.trimEnd();
    const heading = line.match(/^(#{1,4})\s+(.*)$/);
    const bullet = line.match(/^\s*[-*]\s+(.*)$/);
    const numbered = line.match(/^\s*\d+\.\s+(.*)$/);
    if (!line.trim()) { flush(); continue; }
    if (heading) { flush(); out.push(`<h${heading[1].length + 1}>${inline(heading[2])}</h${heading[1].length + 1}>`); continue; }
    if (line.startsWith("|")) {
      if (paragraph.length || list) flush();
      const row = line.replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
      if (row.every((c) => /^:?-+:?$/.test(c))) continue;
      (table = table || []).push(row);
      continue;
    }
    if (bullet || numbered) {
      const tag = bullet ? "ul" : "ol";
      if (paragraph.length || table || (list && list.tag !== tag)) flush();
      list = list || {tag, items: []};
      list.items.push((bullet || numbered)[1]);
      continue;
    }
    if (list && /^\s+/.test(raw)) { list.items[list.items.length - 1] += " " + line.trim(); continue; }
    if (list || table) flush();
    paragraph.push(line.trim());
  }
  flush();
  return out.join("\n");
}
