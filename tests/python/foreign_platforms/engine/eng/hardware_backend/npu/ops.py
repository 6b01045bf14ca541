def npu_swiglu(x):
    import torch_npu

    return torch_npu.npu_swiglu(x)
