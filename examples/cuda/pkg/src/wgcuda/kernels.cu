// wgcuda kernels: a vector add; axpy and a sum of squares for fp32, fp16 and bf16, shaped like
// the kernels of real CUDA packages (one template, instantiated per dtype, a block reduction
// through shared memory and warp shuffles); host functions that work without a GPU.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
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

// --- per-dtype kernels ----------------------------------------------------------

template <typename T> __device__ __forceinline__ float to_f(T v) { return static_cast<float>(v); }
template <> __device__ __forceinline__ float to_f<__half>(__half v) { return __half2float(v); }
template <> __device__ __forceinline__ float to_f<__nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v); }
template <typename T> __device__ __forceinline__ T from_f(float v) { return static_cast<T>(v); }
template <> __device__ __forceinline__ __half from_f<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 from_f<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

// y = a * x + y, accumulated in fp32
template <typename T>
__global__ void axpy_kernel(float a, const T *__restrict__ x, T *__restrict__ y, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		y[i] = from_f<T>(a * to_f(x[i]) + to_f(y[i]));
}

// out[block] = sum of x[i]^2 over the block's part: warp shuffles, then shared memory
template <typename T>
__global__ void sumsq_kernel(const T *__restrict__ x, float *__restrict__ out, int n)
{
	__shared__ float warps[WG_BLOCK / 32];
	float s = 0.f;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
		float v = to_f(x[i]);
		s += v * v;
	}
#pragma unroll
	for (int o = 16; o > 0; o >>= 1)
		s += __shfl_down_sync(0xffffffffu, s, o);
	if ((threadIdx.x & 31) == 0)
		warps[threadIdx.x >> 5] = s;
	__syncthreads();
	if (threadIdx.x < 32) {
		s = threadIdx.x < WG_BLOCK / 32 ? warps[threadIdx.x] : 0.f;
#pragma unroll
		for (int o = 16; o > 0; o >>= 1)
			s += __shfl_down_sync(0xffffffffu, s, o);
		if (threadIdx.x == 0)
			out[blockIdx.x] = s;
	}
}

// axpy and sumsq of one dtype on the GPU against the same sums on the host (fp32 from the
// dtype's rounded inputs); 0, a CUDA error code, or -1 for a wrong result
template <typename T> static int selftest(int n)
{
	const int blocks = 8;
	T *hx = new T[n], *hy = new T[n], *dx = 0, *dy = 0;
	float *xf = new float[n], *yf = new float[n], part[blocks], *dp = 0;
	cudaError_t e;
	int bad = 0;

	for (int i = 0; i < n; i++) {
		hx[i] = static_cast<T>(static_cast<float>(i % 17) * 0.25f);
		hy[i] = static_cast<T>(static_cast<float>(i % 5) - 2.0f);
		xf[i] = static_cast<float>(hx[i]);
		yf[i] = static_cast<float>(hy[i]);
	}
	if ((e = cudaMalloc(&dx, n * sizeof(T))) || (e = cudaMalloc(&dy, n * sizeof(T))) ||
	    (e = cudaMalloc(&dp, blocks * sizeof(float))))
		goto out;
	if ((e = cudaMemcpy(dx, hx, n * sizeof(T), cudaMemcpyHostToDevice)) ||
	    (e = cudaMemcpy(dy, hy, n * sizeof(T), cudaMemcpyHostToDevice)))
		goto out;
	axpy_kernel<T><<<blocks, WG_BLOCK>>>(2.0f, dx, dy, n);
	sumsq_kernel<T><<<blocks, WG_BLOCK>>>(dx, dp, n);
	if ((e = cudaGetLastError()) || (e = cudaMemcpy(hy, dy, n * sizeof(T), cudaMemcpyDeviceToHost)) ||
	    (e = cudaMemcpy(part, dp, sizeof(part), cudaMemcpyDeviceToHost)))
		goto out;
	{
		double want = 0, got = 0;
		for (int i = 0; i < n; i++) {
			float y = static_cast<float>(hy[i]), w = 2.0f * xf[i] + yf[i];
			if (fabsf(y - w) > 0.02f * fabsf(w) + 1e-3f)
				bad = 1;
			want += (double)xf[i] * xf[i];
		}
		for (int b = 0; b < blocks; b++)
			got += part[b];
		if (fabs(got - want) > 1e-4 * want)
			bad = 1;
	}
out:
	cudaFree(dx);
	cudaFree(dy);
	cudaFree(dp);
	delete[] hx;
	delete[] hy;
	delete[] xf;
	delete[] yf;
	return e ? (int)e : bad ? -1 : 0;
}

// dtype 0: fp32, 1: fp16, 2: bf16
extern "C" int wg_dtype_selftest(int dtype, int n)
{
	switch (dtype) {
	case 0: return selftest<float>(n);
	case 1: return selftest<__half>(n);
	case 2: return selftest<__nv_bfloat16>(n);
	}
	return -2;
}
