// wgcmake's kernel: c = a * x + y in fp32, and the versions of the runtime and of cuBLAS (no GPU
// needed: a call into each shared library)
#include <cublas_v2.h>
#include <cuda_runtime.h>

__global__ void wg_axpy(int n, float a, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

extern "C" int wg_runtime_version(void)
{
	int v = 0;
	return cudaRuntimeGetVersion(&v) == cudaSuccess ? v : -1;
}

extern "C" int wg_cublas_version(void)
{
	int major = 0, minor = 0;
	if (cublasGetProperty(MAJOR_VERSION, &major) != CUBLAS_STATUS_SUCCESS ||
	    cublasGetProperty(MINOR_VERSION, &minor) != CUBLAS_STATUS_SUCCESS)
		return -1;
	return major * 1000 + minor * 10;
}

// y = a * x + y on the GPU for n floats; 0, or a CUDA error code
extern "C" int wg_axpy_host(int n, float a, const float *x, float *y)
{
	float *dx = nullptr, *dy = nullptr;
	size_t bytes = sizeof(float) * (size_t)n;
	cudaError_t e = cudaMalloc(&dx, bytes);
	if (e == cudaSuccess)
		e = cudaMalloc(&dy, bytes);
	if (e == cudaSuccess)
		e = cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
	if (e == cudaSuccess)
		e = cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice);
	if (e == cudaSuccess) {
		wg_axpy<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
		e = cudaGetLastError();
	}
	if (e == cudaSuccess)
		e = cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
	cudaFree(dx);
	cudaFree(dy);
	return (int)e;
}
