// Python bindings: scale(x, a) multiplies a tensor by a, on the CPU with ATen
// and on the GPU with the kernel in scale.cu; cuda_version() needs no GPU.
#include <torch/extension.h>

void scale_cuda(torch::Tensor out, const torch::Tensor &x, double a);
int cuda_runtime_version();

static torch::Tensor scale(const torch::Tensor &x, double a)
{
	if (!x.is_cuda())
		return x * a;
	TORCH_CHECK(x.scalar_type() == torch::kFloat, "scale: float32 tensors only");
	auto out = torch::empty_like(x);
	scale_cuda(out, x.contiguous(), a);
	return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
	m.def("scale", &scale, "x * a (CUDA kernel for CUDA tensors)");
	m.def("cuda_runtime_version", &cuda_runtime_version, "the CUDA runtime version this extension was built against");
}
