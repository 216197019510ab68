// The operators, registered with the torch dispatcher (TORCH_LIBRARY), not with pybind11:
// nothing here includes Python.h, so this file compiles the same for every Python and the
// compile cache serves the second Python of a CUDA/torch pair from the first one's objects.
//   torch.ops.wgtorch.scale(x, a)             x * a: ATen on the CPU, the kernel of scale.cu on CUDA
//   torch.ops.wgtorch.cuda_runtime_version()  the CUDA runtime version built against (no GPU needed)
// The kernel (scale.cu) takes plain pointers and the stream; the tensors stay on this side, so
// scale.cu needs no torch header.
// (ATen's per-operator headers, not ATen/ATen.h: this file compiles in about half the time)
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty_like.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/library.h>

int scale_launch(float *out, const float *x, float a, int64_t n, cudaStream_t stream);
int cuda_runtime_version();

static at::Tensor scale_cpu(const at::Tensor &x, double a)
{
	return x.mul(a);
}

static at::Tensor scale_gpu(const at::Tensor &x, double a)
{
	TORCH_CHECK(x.scalar_type() == at::kFloat, "scale: float32 tensors only");
	TORCH_CHECK(x.is_cuda(), "scale: a CUDA tensor");
	auto in = x.contiguous();
	auto out = at::empty_like(in);
	int err = scale_launch(out.data_ptr<float>(), in.data_ptr<float>(), (float)a, in.numel(),
		c10::cuda::getCurrentCUDAStream(in.get_device()).stream());
	TORCH_CHECK(err == 0, "scale: the kernel launch failed (CUDA error ", err, ")");
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
