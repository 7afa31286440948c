"""The page's inline CSS and its one inline script (the claims-table filter); no network, no libraries.

The layout answers first: a compact top bar (summary, regenerate command, warnings), then the digest
cards (two columns from 1100 px, one below), then the filterable claims table. The table uses a fixed
layout with wrapping cells, so it never overflows horizontally (checked at 800 px by the browser test).
"""

CSS = """
:root{--ok:#2e7d32;--bad:#c62828;--warn:#f9a825;--muted:#5f6b73}
*{box-sizing:border-box}
html{overflow-x:hidden}
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;color:#1d252b;background:#f6f7f8;line-height:1.4;font-size:14px}
header.top{background:#263238;color:#eceff1;padding:7px 24px 6px 24px}
header.top h1{margin:0;font-size:19px;display:inline-block;margin-right:14px}
header.top .sum{font-weight:600;font-size:14px}
header.top .regen{font-size:12.5px;color:#cfd8dc;margin-top:4px;overflow-wrap:anywhere}
header.top code{background:#37474f;color:#fff;padding:1px 5px;border-radius:3px}
.warn{background:#fff3cd;border-bottom:1px solid #ffe08a;color:#5c4400;padding:2px 24px;font-size:12px;margin:0}
nav{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;padding:6px 24px;z-index:3;font-size:13px}
nav a{margin-right:14px;color:#1565c0;text-decoration:none}
main{padding:6px 24px 40px 24px;max-width:1600px}
#digest{margin-top:4px}
#digest .legend{margin:4px 0 0 0;font-size:12px}
section{margin-top:18px}
h2{border-bottom:2px solid #cfd8dc;padding-bottom:3px;font-size:19px;margin:10px 0 8px 0}
.digest{display:grid;grid-template-columns:1fr;gap:8px}
@media (min-width:1100px){.digest{grid-template-columns:1fr 1fr}}
.card{background:#fff;border:1px solid #dde3e7;border-radius:8px;padding:6px 12px 8px 12px;min-width:0}
.card h3{margin:0 0 2px 0;font-size:15px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.card .counts{font-size:12px;color:var(--muted);margin:0 0 2px 0}
.card .thm{display:inline-block;margin:0 6px 1px 0;font-size:12px;white-space:nowrap}
.card .lem{display:inline-block;margin:1px 2px 1px 0;padding:0 4px;border-radius:4px;font-size:10.5px;line-height:15px;border:1px solid #ccc;font-weight:400}
.card ol{margin:1px 0 0 0;padding-left:22px;font-size:12.5px;line-height:1.25}
.card ol li{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.card .pill{font-size:11px;padding:0 6px}
.card p{margin:3px 0;font-size:12.5px}
.lbl{font-size:11px;color:var(--muted);font-weight:600;text-transform:uppercase;letter-spacing:.03em;margin-top:3px;line-height:1.3}
.chips span{display:inline-block;margin:0 6px 0 0;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600}
table{border-collapse:collapse;width:100%;background:#fff;font-size:13px}
th,td{border:1px solid #ddd;padding:4px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#eceff1;position:sticky;top:31px;z-index:1}
#claims-table{table-layout:fixed}
#claims-table col.c-id{width:15%}#claims-table col.c-st{width:43%}#claims-table col.c-v{width:11%}
#claims-table col.c-ev{width:21%}#claims-table col.c-m{width:10%}
#claims-table .src{display:block;color:var(--muted);font-size:11.5px}
#claims-table .st{font-size:12.5px}
td.num{text-align:right;font-family:ui-monospace,Menlo,Consolas,monospace}
.filters{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:4px 0 8px 0;font-size:13px}
.filters input{flex:1 1 200px;min-width:0;padding:4px 6px}
.pill{display:inline-block;padding:1px 7px;border-radius:10px;font-weight:600;font-size:12px}
.PROVED{background:#c8e6c9;color:#1b5e20}.HOLDS{background:#f1f8e9;color:#33691e;border:1px solid #c5e1a5}
.REFUTED{background:#ffcdd2;color:#b71c1c}.UNKNOWN{background:#fff8e1;color:#8d6e00;border:1px solid #ffe082}
.FAILED{background:#f3e5f5;color:#4a148c}.nc{background:#f5f5f5;color:#757575;border:1px dashed #bdbdbd}
.confirmed{background:#e3f2fd;color:#0d47a1}
tr.unexpected td{background:#ffebee}
.obsolete{background:#616161;color:#fff;padding:1px 6px;border-radius:4px;font-size:11px;font-weight:700}
tr.is-obsolete td{opacity:.65}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
pre{background:#f5f5f5;border:1px solid #e0e0e0;padding:8px;overflow:auto;max-height:320px;white-space:pre-wrap}
.stmt{background:#f5f7fa;border-left:3px solid #90a4ae;padding:6px 10px;white-space:pre-wrap;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
details{background:#fff;border:1px solid #e0e0e0;border-radius:6px;margin:6px 0;padding:4px 10px}
details summary{cursor:pointer;font-weight:600}
.ev p{margin:3px 0;font-size:13px;overflow-wrap:anywhere}.ev b{color:var(--muted);display:inline-block;min-width:110px}
.cx{background:#fff;border:1px solid #ffcdd2;border-left:5px solid #e53935;border-radius:6px;padding:4px 14px 8px 14px;margin:10px 0}
.cx h3{margin:6px 0 2px 0}.cx p{margin:4px 0}
.cx.planted{border-left-color:#ef6c00;border-color:#ffe0b2}
table.witness{width:auto;max-width:100%}table.witness td:first-child{white-space:nowrap;color:var(--muted)}
figure{margin:14px 0;background:#fff;border:1px solid #e0e0e0;border-radius:6px;padding:10px}
figure img{max-width:100%;height:auto}
figcaption{font-size:13px;color:var(--muted);margin-top:4px}
.graph{overflow-x:auto;background:#fff;border:1px solid #e0e0e0;border-radius:6px;padding:8px}
.muted{color:var(--muted)}
ul.tight li{margin:2px 0}
.split b{display:inline-block;min-width:70px}
dl.env{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;font-size:13px}
dl.env dd{margin:0;font-family:ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere}
@media print{nav,.filters{display:none}details{break-inside:avoid}}
"""

SCRIPT = """
(function(){
  var table=document.getElementById('claims-table');
  if(!table){return;}
  var rows=Array.prototype.slice.call(table.tBodies[0].rows);
  var paper=document.getElementById('f-paper'),verdict=document.getElementById('f-verdict'),
      text=document.getElementById('f-text'),count=document.getElementById('f-count');
  function apply(){
    var p=paper.value,v=verdict.value,q=text.value.trim().toLowerCase(),shown=0;
    rows.forEach(function(r){
      var ok=(!p||r.getAttribute('data-paper')===p)&&(!v||r.getAttribute('data-verdict')===v||
             (v==='unexpected'&&r.classList.contains('unexpected')))&&(!q||r.textContent.toLowerCase().indexOf(q)>=0);
      r.style.display=ok?'':'none';if(ok){shown++;}
    });
    count.textContent=shown+' of '+rows.length+' claims shown';
  }
  [paper,verdict].forEach(function(el){el.addEventListener('change',apply);});
  text.addEventListener('input',apply);
  apply();
})();
"""
