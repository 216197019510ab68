/* unit tests of matrix: the cells a config expands to, the torch index and container paths of each */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "diag.h"
#include "matrix.h"
#include "util.h"
#include "unit.h"

static const char torchcfg[] =
	"defaults: {python: ['3.11', '3.12', '3.13'], cuda: ['12.8', '13.0']}\n"
	"torch:\n"
	"  '2.8': {cuda: ['12.8'], python: ['3.11', '3.12', '3.13']}\n"
	"  '2.9': {cuda: ['12.8', '13.0'], python: ['3.12', '3.13']}\n"
	"packages:\n"
	"  Flash_Attn:\n"
	"    versions: [2.8.3]\n"
	"    torch: ['2.8', '2.9']\n"
	"    exclude: [{python: '3.13', cuda: '12.8'}]\n"
	"    include: [{python: '3.13', cuda: '12.8', torch: '2.9'}]\n"
	"    local_version: 'cu{cuda}torch{torch}'\n"
	"  cupy: {versions: ['13.6.0'], python: ['3.13'], cuda: ['13.0']}\n";

static void
matrixcells(void)
{
	struct arena a = { 0 };
	struct config *c;
	struct matrix m;
	char *got = unitconfig(torchcfg, &a, &c, &m);
	size_t i;
	struct sb ids = SB_INIT;

	CHECKSTR(got, "", "torch config has no errors");
	for (i = 0; i < m.n; i++)
		sbaddf(&ids, "%s%s", i ? " " : "", m.cells[i].id);
	/* 3 py x 2 cuda x 2 torch = 12; minus exclude (py313 cu128: torch2.8 and 2.9) = 10;
	 * minus torch table (2.8: cu130 x2 left; 2.9: py311 x2) = 6... the include puts py313-cu128-torch2.9 back */
	CHECKSTR(ids.buf,
		 "flash-attn-2.8.3-py311-cu128-torch2.8 flash-attn-2.8.3-py312-cu128-torch2.8 "
		 "flash-attn-2.8.3-py312-cu128-torch2.9 flash-attn-2.8.3-py312-cu130-torch2.9 "
		 "flash-attn-2.8.3-py313-cu130-torch2.9 flash-attn-2.8.3-py313-cu128-torch2.9 cupy-13.6.0-py313-cu130",
		 "matrix cells and ids");
	CHECK(m.n == 7 && m.cells[0].local && !strcmp(m.cells[0].local, "cu128torch2.8"), "local label expanded");
	CHECK(m.ndropped == 7, "dropped cells counted (5 impossible + 2 excluded)");
	sbfree(&ids);
	free(got);
	free(m.cells);
	free(m.dropped);
	afree(&a);
}

/* the torch index per cell, and what the container backends put in a cell */
static void
torchcontainer(void)
{
	static const char cfg[] =
		"defaults: {python: ['3.7', '3.12', '3.13t'], cuda: ['12.8', '13.0']}\n"
		"torch:\n"
		"  '2.9': {cuda: ['12.8', '13.0'], python: ['3.7', '3.12', '3.13t'], pypi: '12.8'}\n"
		"packages:\n"
		"  fa: {versions: ['1.0'], torch: ['2.9'], local_version: 'cu{cuda_version}'}\n"
		"  cpu: {versions: ['1.0'], python: ['3.12'], cuda: []}\n";
	char path[] = "/tmp/wgcfgXXXXXX";
	struct arena a = { 0 };
	struct diags d = { 0 };
	struct host h;
	struct matrix m = { 0 };
	struct config *c;
	const struct cell *cl;
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, cfg, strlen(cfg)) != (ssize_t)strlen(cfg))
		fatal("cannot write temp config");
	close(fd);
	c = configload(&a, path, &d);
	memset(&h, 0, sizeof(h));
	h.known = 1;
	h.container = 1;
	h.ccache = "/usr/bin/ccache";
	h.uv = "/home/u/uv";
	if (c && d.errors == 0)
		matrixexpand(&a, c, &h, &m, &d);
	CHECK(d.errors == 0 && m.n == 7, "torch/container config: 6 fa cells and 1 cpu cell");
	if (m.n == 7) {
		cl = &m.cells[0]; /* fa-1.0-py37-cu128-torch2.9 */
		CHECKSTR(cl->id, "fa-1.0-py37-cu128-torch2.9", "first cell");
		CHECK(cl->torchindex == NULL, "torch from PyPI where pypi: names the cell's CUDA");
		CHECKSTR(cl->pyexe, "/opt/python/cp37-cp37m/bin/python", "container python 3.7 has the m ABI flag");
		CHECKSTR(cl->cudahome, "/usr/local/cuda-12.8", "container toolkit path");
		CHECKSTR(cl->image, "pytorch/manylinux2_28-builder:cuda12.8", "default image with {cuda_version}");
		CHECKSTR(cl->local, "cu12.8", "local label with {cuda_version}");
		CHECKSTR(cl->uv, "/wg/bin/uv", "container uv is the mounted one");
		CHECKSTR(cl->ccache, "ccache", "container ccache is looked up in the image");
		CHECK(cl->whynot == NULL, "container cells are buildable whatever the host has");
		cl = &m.cells[1]; /* py37-cu130 */
		CHECKSTR(cl->torchindex, "https://download.pytorch.org/whl/cu130", "torch_index default for other CUDA");
		cl = &m.cells[4];
		CHECKSTR(cl->pyexe, "/opt/python/cp313-cp313t/bin/python", "free-threaded container python");
		cl = &m.cells[6];
		CHECKSTR(cl->image, "quay.io/pypa/manylinux_2_28_x86_64", "cpu cells use cpu_image");
		CHECK(cl->cudahome == NULL && cl->torchindex == NULL, "cpu cell has no toolkit and no torch");
	}
	diagfree(&d);
	unlink(path);
	free(m.cells);
	free(m.dropped);
	afree(&a);
}

void
testmatrix(void)
{
	matrixcells();
	torchcontainer();
}
