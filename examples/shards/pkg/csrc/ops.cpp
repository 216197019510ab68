// The operator torch.ops.wgshards.add(x, k): x + k for k in 1..8, by ATen on the CPU and by the
// kernel of add<k>.cu on CUDA. The only file that includes ATen (the slow compile); the kernels
// take plain pointers and the stream.
#include <ATen/ATen.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/library.h>

typedef int (*launcher)(float *out, const float *x, int64_t n, cudaStream_t stream);
int add1_launch(float *, const float *, int64_t, cudaStream_t);
int add2_launch(float *, const float *, int64_t, cudaStream_t);
int add3_launch(float *, const float *, int64_t, cudaStream_t);
int add4_launch(float *, const float *, int64_t, cudaStream_t);
int add5_launch(float *, const float *, int64_t, cudaStream_t);
int add6_launch(float *, const float *, int64_t, cudaStream_t);
int add7_launch(float *, const float *, int64_t, cudaStream_t);
int add8_launch(float *, const float *, int64_t, cudaStream_t);
static const launcher launchers[] = { add1_launch, add2_launch, add3_launch, add4_launch,
				       add5_launch, add6_launch, add7_launch, add8_launch };

static at::Tensor add_cpu(const at::Tensor &x, int64_t k)
{
	TORCH_CHECK(k >= 1 && k <= 8, "add: k is 1 to 8");
	return x + (double)k;
}

static at::Tensor add_gpu(const at::Tensor &x, int64_t k)
{
	TORCH_CHECK(k >= 1 && k <= 8, "add: k is 1 to 8");
	TORCH_CHECK(x.scalar_type() == at::kFloat, "add: float32 tensors only");
	auto in = x.contiguous();
	auto out = at::empty_like(in);
	int err = launchers[k - 1](out.data_ptr<float>(), in.data_ptr<float>(), in.numel(),
				   c10::cuda::getCurrentCUDAStream(in.get_device()).stream());
	TORCH_CHECK(err == 0, "add: the kernel launch failed (CUDA error ", err, ")");
	return out;
}

TORCH_LIBRARY(wgshards, m)
{
	m.def("add(Tensor x, int k) -> Tensor");
}

TORCH_LIBRARY_IMPL(wgshards, CPU, m)
{
	m.impl("add", &add_cpu);
}

TORCH_LIBRARY_IMPL(wgshards, CUDA, m)
{
	m.impl("add", &add_gpu);
}
