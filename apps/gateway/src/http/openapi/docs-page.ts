// `GET /docs`: a self-contained page (no CDN, no framework) that loads /openapi.json and lists
// every operation: method, path, summary, auth, parameters, and the body and reply schemas.

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Interlingua gateway API</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; color: #1d1d1f; }
h2 { margin-top: 2rem; border-bottom: 1px solid #ddd; }
details { border: 1px solid #ddd; border-radius: 6px; margin: .4rem 0; padding: .3rem .6rem; }
summary { cursor: pointer; }
.m { display: inline-block; width: 4.5rem; font-weight: 600; text-transform: uppercase; font-family: monospace; }
.get { color: #0a7d3b; } .post { color: #0b5cad; } .put { color: #9a6200; } .delete { color: #b3261e; }
code, pre { font-family: ui-monospace, monospace; font-size: 13px; }
pre { background: #f6f6f6; padding: .5rem; overflow: auto; max-height: 24rem; }
</style>
</head>
<body>
<h1 id="title">Interlingua gateway API</h1>
<p id="intro">Loading <a href="openapi.json">openapi.json</a>…</p>
<div id="ops"></div>
<script>
const el = (tag, attrs, ...children) => {
  const node = document.createElement(tag);
  Object.assign(node, attrs);
  for (const child of children) node.append(child);
  return node;
};
const block = (title, value) =>
  el("div", {}, el("strong", { textContent: title }), el("pre", { textContent: JSON.stringify(value, null, 2) }));
fetch("openapi.json").then((r) => r.json()).then((doc) => {
  document.getElementById("title").textContent = doc.info.title + " (OpenAPI " + doc.openapi + ")";
  document.getElementById("intro").textContent = doc.info.description;
  const byTag = new Map();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = (op.tags && op.tags[0]) || "Other";
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push({ path, method, op });
    }
  }
  const root = document.getElementById("ops");
  for (const [tag, ops] of byTag) {
    root.append(el("h2", { textContent: tag }));
    for (const { path, method, op } of ops) {
      const auth = (op.security || []).map((s) => Object.keys(s)[0]).join(" or ") || "none";
      const body = el("div", {}, el("p", { textContent: (op.description || "") + " Auth: " + auth + "." }));
      if (op.parameters) body.append(block("Parameters", op.parameters));
      if (op.requestBody) body.append(block("Request body", op.requestBody.content));
      body.append(block("Responses", op.responses));
      root.append(el("details", {},
        el("summary", {}, el("span", { className: "m " + method, textContent: method }), el("code", { textContent: path }), " " + (op.summary || "")),
        body));
    }
  }
}).catch((e) => { document.getElementById("intro").textContent = "Could not load openapi.json: " + e; });
</script>
</body>
</html>
`;
