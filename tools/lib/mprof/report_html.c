// SPDX-License-Identifier: GPL-2.0
/*
 * report_html.c - one self-contained HTML page (no network needed): the
 * profile as JSON in the page, and a small script that draws a flame
 * graph (call paths, width = total time, click a frame to zoom, click
 * the bottom bar to reset), a timeline (one bar per call at its entry
 * time and depth) and a statistics table sorted by clicking a column
 * heading (or "#sort=COLUMN" in the address).  Every drawn element
 * carries data-* attributes naming its function, so tests can read the
 * rendered page.
 */
#include <stdlib.h>

#include "mprof/mprof.h"

/* calls beyond this are left out of the timeline (the rest is exact) */
#define HTML_MAX_CALLS 100000

static const char head[] =
"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
"<title>MiniProfiler profile</title>\n<style>\n"
"body{font:13px sans-serif;margin:12px;color:#222}\n"
"h1{font-size:18px}h2{font-size:15px;margin:18px 0 6px}\n"
".box{position:relative;border:1px solid #ccc;overflow:hidden;background:#fafafa}\n"
".fr,.ev{position:absolute;height:17px;box-sizing:border-box;border:1px solid #fff;"
"overflow:hidden;white-space:nowrap;font-size:11px;line-height:15px;padding:0 2px;cursor:pointer}\n"
"table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\n"
"td:last-child,th:last-child{text-align:left}th{cursor:pointer;background:#eee}\n"
"#info{color:#555}\n</style></head><body>\n"
"<h1>MiniProfiler profile</h1><div id=\"info\"></div>\n"
"<h2>Flame graph <small>(width: total time; click to zoom)</small></h2>"
"<div id=\"flame\" class=\"box\"></div>\n"
"<h2>Timeline <small>(one bar per call)</small></h2>"
"<div id=\"timeline\" class=\"box\"></div>\n"
"<h2>Functions <small>(click a heading to sort)</small></h2>"
"<table id=\"stats\"><thead><tr>"
"<th data-key=\"calls\">calls</th><th data-key=\"total\">total us</th>"
"<th data-key=\"self\">self us</th><th data-key=\"min\">min us</th>"
"<th data-key=\"max\">max us</th><th data-key=\"avg\">avg us</th>"
"<th data-key=\"name\">function</th></tr></thead><tbody></tbody></table>\n"
"<script type=\"application/json\" id=\"data\">";

static const char script[] =
"</script>\n<script>\n"
"'use strict';\n"
"const D=JSON.parse(document.getElementById('data').textContent);\n"
"const H=17;\n"
"function el(t,c,p){const e=document.createElement(t);if(c)e.className=c;if(p)p.appendChild(e);return e;}\n"
"function color(n){let h=2166136261;for(const ch of n)h=Math.imul(h^ch.charCodeAt(0),16777619)>>>0;"
"return 'hsl('+(h%55)+','+(55+(h>>>8)%35)+'%,'+(55+(h>>>16)%20)+'%)';}\n"
"const info=document.getElementById('info');\n"
"info.textContent=D.calls.length+' calls shown of '+D.ncalls+', '+D.funcs.length+"
"' functions, '+D.span+' us'+(D.meta?', firmware \"'+D.meta.fw+'\", build id '+D.meta.build:'');\n"
"/* flame graph: nodes [func,parent,total,self,calls], root 0 */\n"
"const kids=D.nodes.map(()=>[]);\n"
"D.nodes.forEach((n,i)=>{if(i)kids[n[1]].push(i);});\n"
"function depthOf(i){let d=0;for(const k of kids[i])d=Math.max(d,1+depthOf(k));return d;}\n"
"function flame(rootIdx){\n"
" const box=document.getElementById('flame');box.textContent='';\n"
" const W=box.clientWidth||1000,md=depthOf(rootIdx);box.style.height=((md+1)*H+2)+'px';\n"
" const tot=Math.max(D.nodes[rootIdx][2],1);\n"
" function draw(i,x,lvl){const n=D.nodes[i],w=n[2]/tot*W;\n"
"  const name=i?D.funcs[n[0]][0]:'all';\n"
"  const e=el('div','fr',box);e.style.left=x+'px';e.style.width=Math.max(w,1)+'px';\n"
"  e.style.top=((md-lvl)*H)+'px';e.style.background=i?color(name):'#ccc';\n"
"  e.dataset.name=name;e.dataset.total=n[2];e.dataset.calls=n[4];\n"
"  e.title=name+': '+n[4]+' calls, total '+n[2]+' us, self '+n[3]+' us';\n"
"  if(w>30)e.textContent=name;\n"
"  e.onclick=()=>flame(i===rootIdx?0:i);\n"
"  let cx=x;for(const k of kids[i]){draw(k,cx,lvl+1);cx+=D.nodes[k][2]/tot*W;}}\n"
" draw(rootIdx,0,0);}\n"
"function timeline(){\n"
" const box=document.getElementById('timeline');const W=box.clientWidth||1000;\n"
" let t0=Infinity,t1=0,md=0;for(const c of D.calls){t0=Math.min(t0,c[1]);t1=Math.max(t1,c[1]+c[2]);md=Math.max(md,c[3]);}\n"
" if(!D.calls.length){t0=0;t1=1;}\n"
" let d0=Infinity;for(const c of D.calls)d0=Math.min(d0,c[3]);if(d0===Infinity)d0=0;\n"
" box.style.height=((md-d0+1)*H+2)+'px';const span=Math.max(t1-t0,1);\n"
" for(const c of D.calls){const name=D.funcs[c[0]][0];const e=el('div','ev',box);\n"
"  e.style.left=((c[1]-t0)/span*W)+'px';e.style.width=Math.max(c[2]/span*W,1)+'px';\n"
"  e.style.top=((c[3]-d0)*H)+'px';e.style.background=color(name);e.dataset.name=name;\n"
"  e.title=name+' at '+c[1]+' us for '+c[2]+' us (depth '+c[3]+')';\n"
"  if(c[2]/span*W>30)e.textContent=name;}}\n"
"/* table: funcs [name,calls,total,self,min,max] */\n"
"const keys={calls:1,total:2,self:3,min:4,max:5};\n"
"let sortKey='total',sortDesc=true;\n"
"function val(f,k){if(k==='name')return f[0];if(k==='avg')return f[1]?f[2]/f[1]:0;return f[keys[k]];}\n"
"function table(){\n"
" const tb=document.querySelector('#stats tbody');tb.textContent='';\n"
" const v=D.funcs.slice().sort((a,b)=>{const x=val(a,sortKey),y=val(b,sortKey);\n"
"  const r=x<y?-1:x>y?1:0;if(r)return sortDesc?-r:r;return a[0]<b[0]?-1:a[0]>b[0]?1:0;});\n"
" for(const f of v){const tr=el('tr','',tb);tr.dataset.name=f[0];tr.dataset.calls=f[1];\n"
"  for(const x of [f[1],f[2],f[3],f[4],f[5],(f[1]?f[2]/f[1]:0).toFixed(1),f[0]])el('td','',tr).textContent=x;}\n"
" document.getElementById('stats').dataset.sort=sortKey;}\n"
"document.querySelectorAll('#stats th').forEach(th=>th.onclick=()=>{\n"
" const k=th.dataset.key;sortDesc=k===sortKey?!sortDesc:k!=='name';sortKey=k;table();});\n"
"const m=/sort=(\\w+)/.exec(location.hash);\n"
"if(m&&(m[1] in keys||m[1]==='avg'||m[1]==='name')){sortKey=m[1];sortDesc=m[1]!=='name';}\n"
"flame(0);timeline();table();\n"
"document.body.dataset.ready='1';\n"
"</script>\n</body></html>\n";

int mprof_write_html(FILE *f, const struct mprof_profile *p, const char *title)
{
	size_t i, n = p->nrec < HTML_MAX_CALLS ? p->nrec : HTML_MAX_CALLS;

	fputs(head, f);
	fputs("{\"title\":", f);
	mprof_json_str(f, title ? title : "");
	fprintf(f, ",\"ncalls\":%zu,\"span\":%llu,\"meta\":", p->nrec,
		(unsigned long long)p->span_us);
	if (p->have_meta) {
		fputs("{\"fw\":", f);
		mprof_json_str(f, p->meta.fw_version);
		fprintf(f, ",\"build\":\"0x%08x\",\"timer\":%u,\"clock\":%u}",
			(unsigned int)p->meta.elf_build_id,
			(unsigned int)p->meta.timer_freq,
			(unsigned int)p->meta.mcu_clock_hz);
	} else {
		fputs("null", f);
	}
	fputs(",\n\"funcs\":[", f);
	for (i = 0; i < p->nfuncs; i++) {
		const struct mprof_func_stats *s = &p->funcs[i];

		fputs(i ? ",\n[" : "\n[", f);
		mprof_json_str(f, s->name);
		fprintf(f, ",%llu,%llu,%llu,%u,%u]",
			(unsigned long long)s->calls,
			(unsigned long long)s->total_us,
			(unsigned long long)s->self_us,
			(unsigned int)s->min_us, (unsigned int)s->max_us);
	}
	fputs("],\n\"nodes\":[", f);
	for (i = 0; i < p->nnodes; i++) {
		const struct mprof_node *nd = &p->nodes[i];

		fprintf(f, "%s[%u,%u,%llu,%llu,%llu]", i ? ",\n" : "\n",
			i ? (unsigned int)nd->func : 0u,
			(unsigned int)nd->parent,
			(unsigned long long)nd->total_us,
			(unsigned long long)nd->self_us,
			(unsigned long long)nd->calls);
	}
	fputs("],\n\"calls\":[", f);
	for (i = 0; i < n; i++) {
		const struct mprof_call *c = &p->calls[i];

		fprintf(f, "%s[%u,%llu,%u,%u]", i ? (i % 8 ? "," : ",\n") : "",
			(unsigned int)c->func, (unsigned long long)c->entry,
			(unsigned int)c->r.duration_us, (unsigned int)c->r.depth);
	}
	fputs("]}\n", f);
	fputs(script, f);
	return ferror(f) ? -1 : 0;
}
