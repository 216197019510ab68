// wgcuda kernels: a vector add, and host functions that work without a GPU.
#include <cuda_runtime.h>
#include <wgcuda_config.h>

__global__ void add_kernel(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

extern "C" int wg_runtime_version(void)
{
	int v = 0;
	return cudaRuntimeGetVersion(&v) == cudaSuccess ? v : -1;
}

extern "C" int wg_device_count(void)
{
	int n = 0;
	return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

// c = a + b on the GPU; returns 0 or a CUDA error code
extern "C" int wg_add(const float *a, const float *b, float *c, int n)
{
	float *da = 0, *db = 0, *dc = 0;
	size_t bytes = (size_t)n * sizeof(float);
	cudaError_t e;

	if ((e = cudaMalloc(&da, bytes)) || (e = cudaMalloc(&db, bytes)) || (e = cudaMalloc(&dc, bytes)))
		goto out;
	if ((e = cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice)) || (e = cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice)))
		goto out;
	add_kernel<<<(n + WG_BLOCK - 1) / WG_BLOCK, WG_BLOCK>>>(da, db, dc, n);
	if ((e = cudaGetLastError()) || (e = cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost)))
		goto out;
out:
	cudaFree(da);
	cudaFree(db);
	cudaFree(dc);
	return (int)e;
}
