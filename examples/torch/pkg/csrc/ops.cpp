// The operators, registered with the torch dispatcher (TORCH_LIBRARY), not with pybind11:
// nothing here includes Python.h, so this file compiles the same for every Python and the
// compile cache serves the second Python of a CUDA/torch pair from the first one's objects.
//   torch.ops.wgtorch.scale(x, a)             x * a: ATen on the CPU, the kernel of scale.cu on CUDA
//   torch.ops.wgtorch.cuda_runtime_version()  the CUDA runtime version built against (no GPU needed)
#include <ATen/ATen.h>
#include <torch/library.h>

void scale_cuda(at::Tensor out, const at::Tensor &x, double a);
int cuda_runtime_version();

static at::Tensor scale_cpu(const at::Tensor &x, double a)
{
	return x * a;
}

static at::Tensor scale_gpu(const at::Tensor &x, double a)
{
	TORCH_CHECK(x.scalar_type() == at::kFloat, "scale: float32 tensors only");
	auto out = at::empty_like(x);
	scale_cuda(out, x.contiguous(), a);
	return out;
}

static int64_t runtime_version()
{
	return cuda_runtime_version();
}

TORCH_LIBRARY(wgtorch, m)
{
	m.def("scale(Tensor x, float a) -> Tensor");
	m.def("cuda_runtime_version() -> int", &runtime_version);
}

TORCH_LIBRARY_IMPL(wgtorch, CPU, m)
{
	m.impl("scale", &scale_cpu);
}

TORCH_LIBRARY_IMPL(wgtorch, CUDA, m)
{
	m.impl("scale", &scale_gpu);
}
