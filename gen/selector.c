/* selector: the landing page's "find your wheel" section (see selector.h). */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "esc.h"
#include "selector.h"
#include "wheelsjson.h"

/* The script: the finder's choice (templates/find.py's choose and commands) for a setup told by
   the selects (as find.py --platform --python --torch --cuda tells it), written again in plain
   JavaScript; tests/t1000 holds the two to the same commands and reasons. A line an element
   (C99's string literals may be 4095 bytes). */
static const char *const selectorjs[] = {
	"(function () {\n",
	"  'use strict';\n",
	"  // the finder's choice (templates/find.py: choose, commands), for a setup told by the selects\n",
	"  var data = document.getElementById('wheels-data'), box = document.getElementById('pick');\n",
	"  if (!data || !box) return;\n",
	"  try { data = JSON.parse(data.textContent); } catch (e) { return; }\n",
	"  var wheels = data.wheels || [], PYPI = 'https://pypi.org/simple';\n",
	"  var here = location.href.replace(/[?#].*$/, '').replace(/[^\\/]*$/, '').replace(/\\/$/, '');\n",
	"  var VERSION = /^(?:(\\d+)!)?(\\d+(?:\\.\\d+)*)(?:(a|b|rc)(\\d+))?(?:\\.post(\\d+))?(?:\\.dev(\\d+))?(?:\\+([a-z0-9]+(?:\\.[a-z0-9]+)*))?$/;\n",
	"  var ARCH = /^(sm|compute)_(\\d{2,3})([af]?)$/;\n",
	"  function id(x) { return x; }\n",
	"  function get(k) { return function (w) { return w[k]; }; }\n",
	"  function cmp(a, b) { // Python's order of tuples\n",
	"    if (typeof a !== 'object') return a < b ? -1 : a > b ? 1 : 0;\n",
	"    for (var i = 0; i < a.length && i < b.length; i++) {\n",
	"      var c = cmp(a[i], b[i]);\n",
	"      if (c) return c;\n",
	"    }\n",
	"    return a.length - b.length;\n",
	"  }\n",
	"  function vkey(v) {\n",
	"    var m = VERSION.exec(String(v).toLowerCase());\n",
	"    if (!m) return [0, [0], [-2, 0], -1, Infinity, ''];\n",
	"    var rel = m[2].split('.').map(Number);\n",
	"    while (rel.length > 1 && rel[rel.length - 1] === 0) rel.pop();\n",
	"    var pre = m[3] ? [{ a: 0, b: 1, rc: 2 }[m[3]], +m[4]] : m[6] !== undefined && m[5] === undefined ? [-1, 0] : [9, 0];\n",
	"    return [+(m[1] || 0), rel, pre, m[5] !== undefined ? +m[5] : -1, m[6] !== undefined ? +m[6] : Infinity, m[7] || ''];\n",
	"  }\n",
	"  function pub(v) { return v.split('+')[0]; }\n",
	"  function minor(s) {\n",
	"    var m = /^(\\d{1,3})\\.(\\d{1,3})$/.exec(s || '');\n",
	"    return m ? [+m[1], +m[2]] : null;\n",
	"  }\n",
	"  function pykey(p) {\n",
	"    var m = /^(\\d)\\.(\\d{1,2})(t?)$/.exec(p);\n",
	"    return m ? [+m[1], +m[2], m[3]] : [0, 0, p];\n",
	"  }\n",
	"  function words(a) {\n",
	"    return !a.length ? 'none' : a.length === 1 ? a[0] : a.slice(0, -1).join(', ') + ' and ' + a[a.length - 1];\n",
	"  }\n",
	"  function distinct(values, key) {\n",
	"    var seen = {}, out = [];\n",
	"    values.forEach(function (v) {\n",
	"      if (v !== null && v !== undefined && !seen.hasOwnProperty(v)) { seen[v] = 1; out.push(v); }\n",
	"    });\n",
	"    return out.sort(function (a, b) { return cmp(key(a), key(b)); });\n",
	"  }\n",
	"  function pyfits(w, py) {\n",
	"    var maj = py[0], mnr = py[1], ft = py[2], cp = 'cp' + maj + mnr;\n",
	"    var pts = (w.python_tag || '').split('.'), ats = (w.abi_tag || '').split('.');\n",
	"    for (var i = 0; i < pts.length; i++) {\n",
	"      for (var j = 0; j < ats.length; j++) {\n",
	"        var pt = pts[i], at = ats[j];\n",
	"        if (at === 'none' && ['py3', 'py' + maj, 'py' + maj + mnr, cp].indexOf(pt) >= 0) return true;\n",
	"        if (at === 'abi3' && !ft && /^cp3\\d+$/.test(pt) && maj === 3 && +pt.slice(3) <= mnr) return true;\n",
	"        if (at === cp + (ft ? 't' : '') && pt === cp) return true;\n",
	"      }\n",
	"    }\n",
	"    return false;\n",
	"  }\n",
	"  function platfits(w, m) { return w.machine === 'any' || w.machine === m || w.platform_tag === 'any'; }\n",
	"  function archwords(archs) {\n",
	"    function name(a) {\n",
	"      var m = ARCH.exec(a), n = +m[2];\n",
	"      return Math.floor(n / 10) + '.' + (n % 10) + m[3];\n",
	"    }\n",
	"    var real = archs.filter(function (a) { return a.indexOf('sm_') === 0; }).map(name);\n",
	"    var ptx = archs.filter(function (a) { return a.indexOf('compute_') === 0; }).map(name);\n",
	"    return (real.join(' ') || 'no real cubin') + (ptx.length ? ' (PTX ' + ptx.join(' ') + ')' : '');\n",
	"  }\n",
	"  function choose(pkg, st) {\n",
	"    var mine = wheels.filter(function (w) { return w.package === pkg; });\n",
	"    var unyanked = mine.filter(function (w) { return w.yanked === null; });\n",
	"    if (!unyanked.length) return { reason: 'every version of ' + pkg + ' here is yanked (name one: ' + pkg + '==VERSION)' };\n",
	"    mine = unyanked;\n",
	"    var stages = [[function (w) { return platfits(w, st.machine); }, function (ws) {\n",
	"      return 'no wheel of ' + pkg + ' for ' + st.machine + ' (this index has ' + words(distinct(ws.map(get('machine')), id)) + ')';\n",
	"    }], [function (w) { return pyfits(w, st.py); }, function (ws) {\n",
	"      return 'no wheel for ' + (st.py[2] ? 'free-threaded ' : '') + 'Python ' + st.python + ' (this index has ' +\n",
	"        words(distinct(ws.map(function (w) { return w.python || w.python_tag; }), pykey)) + ')';\n",
	"    }]];\n",
	"    var torchpkg = mine.some(get('torch'));\n",
	"    if (torchpkg && st.torch) {\n",
	"      stages.push([function (w) { return w.torch === st.torch; }, function (ws) {\n",
	"        return 'no wheel for torch ' + st.torch + ' (this index has ' + words(distinct(ws.map(get('torch')), minor)) + ')';\n",
	"      }]);\n",
	"    }\n",
	"    if (st.cuda) {\n",
	"      stages.push([function (w) { return !w.cuda || w.cuda === st.cuda; }, function (ws) {\n",
	"        return 'no wheel for CUDA ' + st.cuda + ' (this index has ' + words(distinct(ws.map(get('cuda')), minor)) + ')';\n",
	"      }]);\n",
	"    } else {\n",
	"      stages.push([function (w) { return !w.cuda; }, function () { return 'pick a CUDA version'; }]);\n",
	"    }\n",
	"    for (var i = 0; i < stages.length; i++) {\n",
	"      var fits = mine.filter(stages[i][0]);\n",
	"      if (!fits.length) return { reason: stages[i][1](mine) };\n",
	"      mine = fits;\n",
	"    }\n",
	"    function key(w) {\n",
	"      return [vkey(pub(w.version)), minor(w.torch) || [0, 0], minor(w.cuda) || [0, 0], w.abi_tag !== 'abi3' ? 1 : 0, w.filename];\n",
	"    }\n",
	"    var best = mine[0];\n",
	"    mine.forEach(function (w) { if (cmp(key(w), key(best)) > 0) best = w; });\n",
	"    return { wheel: best };\n",
	"  }\n",
	"  function quote(a) { // shlex.quote\n",
	"    if (!a) return \"''\";\n",
	"    return /^[\\w@%+=:,.\\/-]+$/.test(a) ? a : \"'\" + a.replace(/'/g, \"'\\\"'\\\"'\") + \"'\";\n",
	"  }\n",
	"  function commands(w, st) {\n",
	"    var index = here + '/' + w.index, reqs = [w.package + '==' + w.version], extra = [], brings = null;\n",
	"    if (w.torch && !st.torch) {\n",
	"      brings = { version: w.torch_version || w.torch + '.*', cuda: w.torch_cuda, index: w.torch_index || PYPI };\n",
	"      reqs.push('torch==' + brings.version);\n",
	"      if (brings.index !== PYPI) extra.push(brings.index);\n",
	"      extra.push(PYPI);\n",
	"    } else {\n",
	"      if (w.torch) reqs.push('torch==' + st.torch + '.*');\n",
	"      var deps = w.dependencies;\n",
	"      if (deps === null || deps.some(function (d) { return !(d === 'torch' && w.torch); })) extra.push(PYPI);\n",
	"    }\n",
	"    var pip = ['python3', '-m', 'pip', 'install', '--index-url', index], uv = ['uv', 'pip', 'install', '--python', 'python3'];\n",
	"    extra.forEach(function (e) { pip.push('--extra-index-url', e); });\n",
	"    if (!extra.length) {\n",
	"      uv.push('--index-url', index);\n",
	"    } else {\n",
	"      uv.push('--index', index);\n",
	"      extra.forEach(function (e) { if (e !== PYPI) uv.push('--index', e); });\n",
	"      if (extra.indexOf(PYPI) >= 0) uv.push('--default-index', PYPI);\n",
	"    }\n",
	"    return { pip: pip.concat(reqs).map(quote).join(' '), uv: uv.concat(reqs).map(quote).join(' '), brings: brings };\n",
	"  }\n",
	"  // the selects, filled from the wheels; the fragment's choice first (kept there as it changes)\n",
	"  var fields = ['package', 'platform', 'python', 'torch', 'cuda'], sel = {}, want = {};\n",
	"  fields.forEach(function (f) { sel[f] = document.getElementById('pick-' + f); });\n",
	"  location.hash.replace(/^#/, '').split('&').forEach(function (kv) {\n",
	"    var i = kv.indexOf('=');\n",
	"    if (i > 0) want[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1));\n",
	"  });\n",
	"  function fill(name, values, label) {\n",
	"    var s = sel[name], keep = want[name];\n",
	"    if (keep !== undefined && keep !== '' && values.length && values.indexOf(keep) < 0) values = values.concat([keep]);\n",
	"    s.textContent = '';\n",
	"    values.forEach(function (v) {\n",
	"      var o = document.createElement('option');\n",
	"      o.value = v;\n",
	"      o.textContent = label ? label(v) : v;\n",
	"      s.appendChild(o);\n",
	"    });\n",
	"    s.value = values.indexOf(keep) >= 0 ? keep : values.length ? values[0] : '';\n",
	"    s.parentNode.hidden = !values.length;\n",
	"    return values.length ? s.value : null;\n",
	"  }\n",
	"  function show(idn, text) {\n",
	"    var e = document.getElementById(idn);\n",
	"    e.hidden = !text;\n",
	"    (e.firstChild && e.firstChild.nodeType === 1 ? e.firstChild : e).textContent = text || '';\n",
	"  }\n",
	"  function update() {\n",
	"    var pkg = fill('package', distinct(wheels.map(get('package')), id));\n",
	"    var mine = wheels.filter(function (w) { return w.package === pkg; });\n",
	"    var plats = distinct(mine.map(get('machine')).filter(function (m) { return m && m !== 'any'; }), id);\n",
	"    var machine = fill('platform', plats.length ? plats : ['x86_64']);\n",
	"    var python = fill('python', distinct(mine.filter(function (w) { return platfits(w, machine); }).map(get('python')), pykey).reverse());\n",
	"    var torch = null, cuda = null;\n",
	"    if (mine.some(get('torch'))) {\n",
	"      torch = fill('torch', distinct(mine.map(get('torch')), minor).reverse().concat(['none']),\n",
	"        function (v) { return v === 'none' ? 'none installed' : v; });\n",
	"    } else {\n",
	"      fill('torch', []);\n",
	"    }\n",
	"    var py = pykey(python || '');\n",
	"    py = [py[0], py[1], py[2] === 't'];\n",
	"    var st = { machine: machine, py: py, python: python, torch: torch === 'none' ? null : torch, cuda: null };\n",
	"    if (mine.some(get('cuda'))) {\n",
	"      cuda = fill('cuda', distinct(mine.filter(function (w) {\n",
	"        return platfits(w, machine) && pyfits(w, py) && (!st.torch || w.torch === st.torch);\n",
	"      }).map(get('cuda')), minor).reverse());\n",
	"    } else {\n",
	"      fill('cuda', []);\n",
	"    }\n",
	"    st.cuda = cuda;\n",
	"    var r = choose(pkg, st), c = r.wheel ? commands(r.wheel, st) : null, w = r.wheel;\n",
	"    show('pick-command', c && c.pip);\n",
	"    show('pick-uv', c && c.uv);\n",
	"    show('pick-reason', r.reason);\n",
	"    show('pick-wheel', w && (w.filename + (w.gpu_archs && w.gpu_archs.length ? ': GPU ' + archwords(w.gpu_archs) : '') +\n",
	"      (c.brings ? '; it brings torch ' + c.brings.version + (c.brings.cuda ? ' (CUDA ' + c.brings.cuda + ')' : '') + ' from ' + c.brings.index : '')));\n",
	"    show('pick-finder', 'curl -fsSL ' + here + '/find.py | python3 - --index ' + here + ' ' + pkg);\n",
	"    var h = [];\n",
	"    fields.forEach(function (f) {\n",
	"      var v = { package: pkg, platform: machine, python: python, torch: torch, cuda: cuda }[f];\n",
	"      if (v) h.push(f + '=' + encodeURIComponent(v));\n",
	"    });\n",
	"    if (history.replaceState) history.replaceState(null, '', '#' + h.join('&'));\n",
	"  }\n",
	"  fields.forEach(function (f) {\n",
	"    sel[f].addEventListener('change', function () {\n",
	"      fields.forEach(function (g) { want[g] = sel[g].value; });\n",
	"      update();\n",
	"    });\n",
	"  });\n",
	"  update();\n",
	"  box.hidden = false;\n",
	"})();\n",
	NULL,
};

void
selectorsection(struct sb *s, const struct wheelinfo *w, size_t nw)
{
	static const struct {
		const char *id, *label;
	} picks[] = {
		{ "package", "Package" }, { "platform", "Platform" }, { "python", "Python" },
		{ "torch", "torch you have" }, { "cuda", "CUDA" },
	};
	size_t k;

	sbadd(s, "<section id=\"find\">\n<h2>Find your wheel</h2>\n"
		 "<p>The finder reads your machine (Python, platform, glibc, torch, driver, each GPU's compute "
		 "capability) and prints the command that installs the wheel that fits it, or why none does:</p>\n"
		 "<pre id=\"pick-finder\"><code>curl -fsSL <span class=\"index\">INDEX</span>/" FINDER_FILE " | python3 - --index "
		 "<span class=\"index\">INDEX</span> ");
	eschtml(s, nw ? w[0].package : "PACKAGE");
	sbadd(s, "\n</code></pre>\n<div id=\"pick\" hidden>\n<p>Or pick your setup:</p>\n<div class=\"picks\">\n");
	for (k = 0; k < sizeof(picks) / sizeof(picks[0]); k++)
		sbaddf(s, "<label>%s <select id=\"pick-%s\"></select></label>\n", picks[k].label, picks[k].id);
	sbadd(s, "</div>\n<p id=\"pick-wheel\" class=\"muted\" hidden></p>\n"
		 "<pre id=\"pick-command\" hidden><code></code></pre>\n<pre id=\"pick-uv\" hidden><code></code></pre>\n"
		 "<p id=\"pick-reason\" class=\"why\" hidden></p>\n"
		 "</div>\n"
		 "<p class=\"muted\"><a href=\"" WHEELSJSON_FILE "\">" WHEELSJSON_FILE "</a> lists every wheel "
		 "(package, version, tags, CUDA, torch, GPU code) for scripts.</p>\n</section>\n");
}

void
selectorscript(struct sb *s, const struct wheelinfo *w, size_t nw, const char *files, const struct indexopts *o)
{
	struct sb j = SB_INIT;
	const char *p;
	size_t k;

	/* the page's copy of wheels.json: every '<' as \u003c, so that no "</script" or "<!--"
	   in a string ends or changes the element (valid JSON all the same) */
	wheelsjson(&j, w, nw, files, o);
	sbadd(s, "<script type=\"application/json\" id=\"wheels-data\">\n");
	for (p = j.buf; p && *p;) {
		size_t n = strcspn(p, "<");

		sbaddn(s, p, n);
		p += n;
		if (*p) {
			sbadd(s, "\\u003c");
			p++;
		}
	}
	sbadd(s, "</script>\n<script>\n");
	for (k = 0; selectorjs[k]; k++)
		sbadd(s, selectorjs[k]);
	sbadd(s, "</script>\n");
	sbfree(&j);
}
