// pyver.cu: includes Python.h, as a pybind11 or torch binding does: its object differs from one
// Python to the next (here plainly: it holds PY_VERSION), so a family compiles it per Python
#include <Python.h>
#include <cuda_runtime.h>

__global__ void count_kernel(int *n)
{
	atomicAdd(n, 1);
}

// the Python this object was compiled against
extern "C" const char *wgf_py_version(void)
{
	return PY_VERSION;
}

// how many threads a launch of 4 x 32 ran (128), or a negative CUDA error code
extern "C" int wgf_count(void)
{
	int *d, n = 0;
	cudaError_t e = cudaMalloc(&d, sizeof(int));
	if (e != cudaSuccess)
		return -(int)e;
	cudaMemcpy(d, &n, sizeof(int), cudaMemcpyHostToDevice);
	count_kernel<<<4, 32>>>(d);
	e = cudaMemcpy(&n, d, sizeof(int), cudaMemcpyDeviceToHost);
	cudaFree(d);
	return e == cudaSuccess ? n : -(int)e;
}
