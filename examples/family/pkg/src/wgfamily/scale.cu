// scale.cu: a kernel that never sees Python.h: its object is the same for every Python
#include <cuda_runtime.h>

__global__ void scale_kernel(float *x, float k, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= k;
}

// x *= k on the GPU; 0 or a CUDA error code
extern "C" int wgf_scale(float *x, float k, int n)
{
	float *d;
	cudaError_t e = cudaMalloc(&d, (size_t)n * sizeof(float));
	if (e != cudaSuccess)
		return (int)e;
	cudaMemcpy(d, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
	scale_kernel<<<(n + 255) / 256, 256>>>(d, k, n);
	e = cudaMemcpy(x, d, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
	cudaFree(d);
	return (int)e;
}
