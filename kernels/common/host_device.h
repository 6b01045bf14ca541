//===--- host_device.h - code shared by the host and the kernels ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// Functions marked ARCHSCOPE_HD compile for the GPU under nvcc and as plain
// C++ elsewhere, so the CPU tests exercise the same code the kernels run.
//===----------------------------------------------------------------------===//
#pragma once

#if defined(__CUDACC__)
#define ARCHSCOPE_HD __host__ __device__
#else
#define ARCHSCOPE_HD
#endif
