// The kernel: out[i] = x[i] * a, launched on the stream ops.cpp passes (the tensor's current
// CUDA stream). Plain CUDA, no torch header: nvcc compiles it in seconds, and the compile of a
// real package's kernels is what the CUDA fixture and the recipes measure.
#include <cstdint>
#include <cuda_runtime.h>

__global__ void scale_kernel(float *out, const float *x, float a, int64_t n)
{
	int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = x[i] * a;
}

// 0, or the CUDA error of the launch
int scale_launch(float *out, const float *x, float a, int64_t n, cudaStream_t stream)
{
	if (n == 0)
		return 0;
	const int threads = 256;
	const int blocks = (int)((n + threads - 1) / threads);
	scale_kernel<<<blocks, threads, 0, stream>>>(out, x, a, n);
	return (int)cudaGetLastError();
}

int cuda_runtime_version()
{
	return CUDART_VERSION;
}
