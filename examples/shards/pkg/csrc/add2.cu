// Kernel 2 of 8: out[i] = x[i] + 2. Plain CUDA taking raw pointers, no torch header: nvcc
// compiles it in seconds (each kernel is one translation unit, so one object of a part).
#include <cstdint>
#include <cuda_runtime.h>

__global__ static void add2_kernel(float *out, const float *x, int64_t n)
{
	int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = x[i] + 2.0f;
}

// 0, or the CUDA error of the launch
int add2_launch(float *out, const float *x, int64_t n, cudaStream_t stream)
{
	if (n == 0)
		return 0;
	add2_kernel<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(out, x, n);
	return (int)cudaGetLastError();
}
