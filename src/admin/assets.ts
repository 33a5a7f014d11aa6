/**
 * The panel's stylesheet and its small script, served by the Worker itself (/admin/assets/*), so
 * the panel needs no build step and no second deployment. The script only enhances: confirmation
 * before destructive actions, copy buttons, and no double submits; every page works without it.
 */
export const ADMIN_CSS = `
:root { --fg:#1b1f24; --muted:#57606a; --line:#d0d7de; --bg:#f6f8fa; --card:#fff; --accent:#0b5cad; --danger:#b42318; --ok:#1a7f37; --focus:#f59e0b; color-scheme: light; }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; color:var(--fg); background:var(--bg); }
a { color:var(--accent); }
:focus-visible { outline:3px solid var(--focus); outline-offset:2px; }
.skip { position:absolute; left:-999px; top:0; background:#fff; padding:.5rem 1rem; z-index:10; }
.skip:focus { left:.5rem; }
.sr-only { position:absolute; width:1px; height:1px; overflow:hidden; clip:rect(0 0 0 0); white-space:nowrap; }
.top { display:flex; flex-wrap:wrap; align-items:center; gap:.5rem 1.5rem; background:#0f1b2d; color:#fff; padding:.6rem 1.25rem; }
.top a { color:#dbe7f5; text-decoration:none; }
.top .brand { font-weight:700; color:#fff; }
.top nav ul { display:flex; flex-wrap:wrap; gap:.25rem; list-style:none; margin:0; padding:0; }
.top nav a { display:block; padding:.35rem .6rem; border-radius:6px; }
.top nav .group { display:flex; align-items:center; gap:.15rem; }
.top nav .group + .group { border-left:1px solid #2f4461; padding-left:.35rem; }
.top nav .group-label { font-size:.7rem; text-transform:uppercase; letter-spacing:.05em; color:#8da2bf; padding:0 .2rem; }
.top nav a:hover, .top nav a[aria-current=page] { background:#24364f; color:#fff; }
.top .who { margin-left:auto; display:flex; align-items:center; gap:.5rem; font-size:.9rem; color:#b8c7da; }
.top .who .link, .top .who a { color:#fff; }
main { max-width:1200px; margin:0 auto; padding:1.25rem; }
main:focus { outline:none; }
h1 { font-size:1.6rem; margin:.25rem 0 1rem; }
h2 { font-size:1.15rem; margin:1.5rem 0 .6rem; }
.card { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:1rem 1.25rem; margin-bottom:1rem; }
.card > h2:first-child, .card > form > h3:first-of-type, .card > h3:first-child { margin-top:0; }
.grid { display:grid; grid-template-columns:repeat(auto-fit,minmax(220px,1fr)); gap:1rem; }
.two { display:grid; grid-template-columns:repeat(auto-fit,minmax(320px,1fr)); gap:1rem; align-items:start; }
.stat { font-size:1.8rem; font-weight:700; margin:.2rem 0; }
.chart { width:100%; height:auto; max-height:280px; display:block; }
td.num { white-space:nowrap; }
.chart .bar { fill:var(--accent); }
.chart .bar:hover { fill:#083f78; }
.chart .tick line { stroke:#eaeef2; }
.chart text { font-size:11px; fill:var(--muted); }
.sparkline { width:100%; height:40px; display:block; margin:.25rem 0; }
.sparkline polyline { fill:none; stroke:var(--accent); stroke-width:2; vector-effect:non-scaling-stroke; }
.muted, small { color:var(--muted); }
.field { display:flex; flex-direction:column; gap:.25rem; margin-bottom:.85rem; }
.field label, legend { font-weight:600; }
.checks { border:1px solid var(--line); border-radius:8px; padding:.5rem .75rem; }
.check { font-weight:400 !important; display:inline-flex; gap:.35rem; margin-right:1rem; align-items:center; }
input, select, textarea { font:inherit; padding:.5rem .6rem; border:1px solid #8c959f; border-radius:6px; background:#fff; min-height:2.5rem; max-width:100%; }
input[type=checkbox] { min-height:auto; width:1.1rem; height:1.1rem; }
.invalid input, .invalid select, .invalid textarea { border-color:var(--danger); }
.error { color:var(--danger); margin:0; font-size:.9rem; font-weight:600; }
button { font:inherit; cursor:pointer; border-radius:6px; border:1px solid var(--accent); background:var(--accent); color:#fff; padding:.5rem 1rem; min-height:2.5rem; }
button.secondary { background:#fff; color:var(--accent); }
button.danger { background:#fff; color:var(--danger); border-color:var(--danger); }
button.link { background:none; border:none; padding:0; min-height:auto; text-decoration:underline; }
button:disabled { opacity:.6; cursor:progress; }
form.inline { display:inline; }
.actions { display:flex; flex-wrap:wrap; gap:.5rem; align-items:center; margin:.5rem 0 1rem; }
.form-row { display:grid; grid-template-columns:repeat(auto-fit,minmax(180px,1fr)); gap:0 1rem; }
.filters { display:flex; flex-wrap:wrap; gap:.5rem; align-items:flex-end; margin-bottom:1rem; }
.filters .field { margin:0; }
.flash { padding:.75rem 1rem; border-radius:8px; margin:0 0 1rem; border:1px solid; }
.flash.ok { background:#e9f7ee; border-color:#9ad5ab; color:#0f5323; }
.flash.error { background:#fdecea; border-color:#f1a9a0; color:#7a1a12; }
.flash ul { margin:.25rem 0 0; }
.flash p { margin:0; }
.table-wrap { overflow-x:auto; background:var(--card); border:1px solid var(--line); border-radius:10px; }
table { border-collapse:collapse; width:100%; }
th, td { text-align:left; padding:.55rem .75rem; border-bottom:1px solid #eaeef2; vertical-align:top; }
th { background:#f3f5f8; font-size:.85rem; text-transform:uppercase; letter-spacing:.03em; color:var(--muted); white-space:nowrap; }
tr:last-child td { border-bottom:none; }
td.num, th.num { text-align:right; }
ul.plain { list-style:none; margin:0; padding:0; }
.pager { display:flex; justify-content:space-between; align-items:center; gap:1rem; margin:.75rem 0; color:var(--muted); }
.badge { display:inline-block; padding:.05rem .5rem; border-radius:999px; font-size:.8rem; background:#eaeef2; white-space:nowrap; }
.b-active, .b-succeeded, .b-completed, .b-paid, .b-delivered, .b-shipped, .b-published, .b-live, .b-sent, .b-create, .b-ok, .b-restock { background:#dafbe1; color:#0f5323; }
.b-pending, .b-processing, .b-retrying, .b-scheduled, .b-draft, .b-partially_paid, .b-queued, .b-sending, .b-update, .b-skipped { background:#fff4d6; color:#6b4500; }
.b-abandoned, .b-failed, .b-cancelled, .b-revoked, .b-expired, .b-disabled, .b-archived, .b-refunded, .b-inactive, .b-used_up, .b-delete, .b-low, .b-suspended, .b-damage { background:#ffe4e1; color:#7a1a12; }
/* Content: menu trees, rendered Markdown, banner images. */
.menu-tree { margin:.25rem 0; padding-left:1.5rem; }
.menu-tree .actions { margin:.25rem 0; }
.rendered img, .banner-image { max-width:100%; height:auto; }
/* A product's images. */
.media-grid { display:grid; grid-template-columns:repeat(auto-fill, minmax(200px, 1fr)); gap:.75rem; margin:.5rem 0 1rem; }
.media-grid figure { margin:0; background:var(--card); border:1px solid var(--line); border-radius:10px; padding:.5rem; }
.media-grid img { display:block; width:100%; height:140px; object-fit:contain; background:#f3f5f8; border-radius:6px; }
.file-field input[type=file] { display:block; margin:.35rem 0; }
.media-grid figcaption { font-size:.85rem; color:var(--muted); margin:.35rem 0; }
/* The audit log's before/after, and HTML previews of notifications. */
tr.changed td { background:#fff8c5; }
tr.changed del { background:#ffebe9; text-decoration:none; }
tr.changed ins { background:#dafbe1; text-decoration:none; }
iframe.html-preview { border:1px solid var(--line); border-radius:6px; background:#fff; }
details pre { white-space:pre-wrap; word-break:break-word; background:var(--bg); padding:.5rem; border-radius:6px; }
.secret { display:flex; flex-wrap:wrap; gap:.5rem; align-items:center; background:#fffbe6; border:1px solid #f0d98c; border-radius:8px; padding:.75rem; }
.secret code { font-size:1rem; word-break:break-all; }
.empty { color:var(--muted); background:var(--card); border:1px dashed var(--line); border-radius:10px; padding:1rem; }
.sign-in { max-width:420px; margin:8vh auto; }
dl.facts { display:grid; grid-template-columns:max-content 1fr; gap:.25rem 1rem; margin:0; }
dl.facts dt { color:var(--muted); }
@media (max-width: 640px) {
  main { padding:.75rem; }
  .top { padding:.5rem .75rem; }
  .top nav ul { overflow-x:auto; flex-wrap:nowrap; max-width:100%; }
  .top nav { width:100%; order:3; overflow-x:auto; }
  h1 { font-size:1.3rem; }
  .filters > * { flex:1 1 45%; }
}
`;

export const ADMIN_JS = `
document.addEventListener('submit', function (event) {
  var form = event.target;
  var question = form.getAttribute('data-confirm');
  if (question && !window.confirm(question)) { event.preventDefault(); return; }
  if (form.method.toLowerCase() === 'post') {
    setTimeout(function () { form.querySelectorAll('button[type=submit]').forEach(function (b) { b.disabled = true; }); }, 0);
  }
});
document.addEventListener('click', function (event) {
  var button = event.target.closest && event.target.closest('button[data-copy]');
  if (!button) return;
  var target = document.getElementById(button.getAttribute('data-copy'));
  if (!target) return;
  var text = target.textContent.trim();
  var done = function () { button.textContent = 'Copied'; setTimeout(function () { button.textContent = 'Copy'; }, 2000); };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, function () { select(target); });
  else { select(target); try { document.execCommand('copy'); done(); } catch (e) {} }
});
function select(node) { var range = document.createRange(); range.selectNodeContents(node); var s = window.getSelection(); s.removeAllRanges(); s.addRange(range); }
document.querySelectorAll('button[data-copy]').forEach(function (b) { b.hidden = false; });
`;

/** The panel's icon (a parcel), so a browser asks for no /favicon.ico, which the store does not serve. */
export const ADMIN_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="3" y="8" width="26" height="20" rx="2" fill="#2f5d8a"/><path d="M3 14h26M16 8v20" stroke="#fff" stroke-width="2"/><path d="M8 4h16l5 4H3z" fill="#4a7fb5"/></svg>`;
